"""Records what the game store's cluster client is asked, through redis-py's public methods,
to check that no transaction (WATCH ... MULTI/EXEC) and no command touches keys of two hash
slots: every pipeline (its `transaction` flag, its WATCHed keys, its commands), every
command sent outside one, and the multi-key calls redis-py would split across slots
(`delete`, `unlink`, `exists`, `touch`, `mget_nonatomic`, `mset_nonatomic`).

Each record names the function of api/ or ai_worker/ that made it ("api/seats.py:
update_seat"), so a test can say which paths it played. A command's keys are the server's
own answer (`COMMAND GETKEYS`), their slots `redis.cluster.key_slot`'s."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.cluster import ClusterPipeline, RedisCluster, key_slot

ROOT = Path(__file__).resolve().parents[2]
OWN = (str(ROOT / "api") + "/", str(ROOT / "ai_worker") + "/")
SPLIT = {"delete": "DEL", "unlink": "UNLINK", "exists": "EXISTS", "touch": "TOUCH"}


def _site() -> str:
    """The innermost function of api/ or ai_worker/ on the stack ("?" if none)."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(OWN):
            return f"{Path(name).relative_to(ROOT)}:{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


@dataclass
class Unit:
    """One transaction (its WATCHed keys and commands must share a slot), or one command
    (its keys must), made at `site`."""

    site: str
    transaction: bool
    commands: list[tuple[Any, ...]] = field(default_factory=list)
    watched: list[Any] = field(default_factory=list)


@dataclass
class _Pipe:
    site: str
    transaction: bool
    unit: Unit | None = None

    def current(self) -> Unit:
        if self.unit is None:
            self.unit = Unit(self.site, self.transaction)
        return self.unit


class Recorder:
    """Install with `install(monkeypatch)`; `check(node)` after the scenario."""

    def __init__(self) -> None:
        self.units: list[Unit] = []
        self._pipes: dict[int, tuple[ClusterPipeline, _Pipe]] = {}

    def _pipe(self, pipe: ClusterPipeline) -> _Pipe:
        found = self._pipes.get(id(pipe))
        if found is None or found[0] is not pipe:  # a pipeline made elsewhere (RQ's, none)
            found = (pipe, _Pipe(_site(), False))
            self._pipes[id(pipe)] = found
        return found[1]

    def _close(self, pipe: ClusterPipeline) -> None:
        state = self._pipe(pipe)
        if state.unit is not None and (state.unit.commands or state.unit.watched):
            self.units.append(state.unit)
        state.unit = None

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        recorder = self
        real_pipeline = RedisCluster.pipeline
        real_command = RedisCluster.execute_command
        real_pipe_command = ClusterPipeline.execute_command
        real_watch, real_multi = ClusterPipeline.watch, ClusterPipeline.multi
        real_execute, real_reset = ClusterPipeline.execute, ClusterPipeline.reset

        def pipeline(self: RedisCluster, transaction: Any = None, shard_hint: Any = None) -> Any:
            pipe = real_pipeline(self, transaction, shard_hint)
            recorder._pipes[id(pipe)] = (pipe, _Pipe(_site(), bool(transaction)))
            return pipe

        def execute_command(self: RedisCluster, *args: Any, **kwargs: Any) -> Any:
            recorder.units.append(Unit(_site(), False, [args]))
            return real_command(self, *args, **kwargs)

        def pipe_command(self: ClusterPipeline, *args: Any, **kwargs: Any) -> Any:
            recorder._pipe(self).current().commands.append(args)
            return real_pipe_command(self, *args, **kwargs)

        def watch(self: ClusterPipeline, *names: Any) -> Any:
            state = recorder._pipe(self)
            state.transaction = True
            state.current().transaction = True
            state.current().watched.extend(names)
            return real_watch(self, *names)

        def multi(self: ClusterPipeline) -> Any:
            state = recorder._pipe(self)
            state.transaction = True
            state.current().transaction = True
            return real_multi(self)

        def execute(self: ClusterPipeline, raise_on_error: bool = True) -> Any:
            recorder._close(self)
            return real_execute(self, raise_on_error)

        def reset(self: ClusterPipeline) -> Any:
            recorder._close(self)  # a WATCH given up (no EXEC) is one too
            return real_reset(self)

        for name, command in SPLIT.items():
            for cls in (RedisCluster, ClusterPipeline):
                monkeypatch.setattr(cls, name, _split(recorder, getattr(cls, name), command,
                                                      cls is ClusterPipeline))
        monkeypatch.setattr(RedisCluster, "mget_nonatomic", _split(
            recorder, RedisCluster.mget_nonatomic, "MGET", False))
        monkeypatch.setattr(RedisCluster, "pipeline", pipeline)
        monkeypatch.setattr(RedisCluster, "execute_command", execute_command)
        monkeypatch.setattr(ClusterPipeline, "execute_command", pipe_command)
        monkeypatch.setattr(ClusterPipeline, "watch", watch)
        monkeypatch.setattr(ClusterPipeline, "multi", multi)
        monkeypatch.setattr(ClusterPipeline, "execute", execute)
        monkeypatch.setattr(ClusterPipeline, "reset", reset)

    def sites(self, transaction: bool | None = None, min_keys: int = 0,
              node: redis.Redis | None = None) -> set[str]:
        """The sites of the units recorded (only transactions, or only commands; with
        `node`, only those of at least `min_keys` distinct keys)."""
        return {unit.site for unit in self.units
                if (transaction is None or unit.transaction == transaction)
                and (node is None or len(self.keys(unit, node)) >= min_keys)}

    def keys(self, unit: Unit, node: redis.Redis) -> set[Any]:
        found = set(unit.watched)
        for command in unit.commands:
            found.update(_keys(node, command))
        return found

    def crossing(self, node: redis.Redis) -> list[tuple[str, str, list[Any]]]:
        """(site, what, keys) of every unit whose keys are in more than one slot: for a
        transaction all its keys; else each command's."""
        found = []
        for unit in self.units:
            groups = [sorted(self.keys(unit, node), key=str)] if unit.transaction else \
                [sorted(_keys(node, command), key=str) for command in unit.commands]
            for names in groups:
                if len({key_slot(_bytes(k)) for k in names}) > 1:
                    what = "MULTI" if unit.transaction else str(unit.commands[0][0])
                    found.append((unit.site, what, names))
        return found


def _split(recorder: Recorder, real: Any, command: str, piped: bool) -> Any:
    """A multi-key call redis-py splits across slots on a cluster, recorded whole."""

    def call(self: Any, *names: Any) -> Any:
        listed = list(names[0]) if command == "MGET" and isinstance(
            names[0], (list, tuple)) else list(names)
        if piped:
            recorder._pipe(self).current().commands.append((command, *listed))
        else:
            recorder.units.append(Unit(_site(), False, [(command, *listed)]))
        return real(self, *names)

    return call


_KEYS: dict[tuple[Any, ...], list[Any]] = {}


def _bytes(key: Any) -> bytes:
    return key if isinstance(key, bytes) else str(key).encode()


def _keys(node: redis.Redis, command: tuple[Any, ...]) -> list[Any]:
    """A command's keys, as the server finds them (none for a keyless one)."""
    cached = _KEYS.get(command)
    if cached is None:
        try:
            cached = list(node.command_getkeys(*command))
        except redis.ResponseError:
            cached = []  # no key arguments (PING, INFO, EVALSHA of no key...)
        _KEYS[command] = cached
    return cached
