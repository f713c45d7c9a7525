"""A Lua script run on a Redis connection directly: the two commands every read and move
sends (`api.store`'s read and commit).

redis-py's client wraps each command in layers these two do not use: a retry loop,
observability hooks (no-ops unless a provider is configured), checks of deprecated
arguments, response callbacks. Under gevent they cost more CPU than the command's own I/O:
on the development VM, a script call through the client took ~150 us of CPU, the same call
on a connection of the pool ~100, on a connection held ~70, a bare socket round trip ~40
(`python3 bench/api_inprocess.py --instructions` measures a move's whole cost).

A call here keeps what matters of the client's behaviour: the pool and its bounded wait for
a free connection, the connection's timeouts, health checks and parser (a reply of an error
raises its exception; a timeout or a broken connection disconnects it), the same retry
policy as the client's (`retry_policy`: a broken connection is replaced and the command sent
once more, a timeout is never retried), and SCRIPT LOAD when Redis has lost the script (a
restart). The calls keep a few idle connections of the pool between them (`Held`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError
from redis.retry import Retry


def retry_policy() -> Retry:
    """The API's Redis retry policy: a command that met a dead connection (Redis restarted,
    an idle connection cut) is sent once more at once on a new one; a timeout is not retried,
    so a hung Redis costs a request one timeout (BGB_REDIS_TIMEOUT), never several.

    redis-py 6 and later retry timeouts three times with seconds of backoff by default:
    a hung Redis then held each request several seconds."""
    return Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))


class Held:
    """Connections of a redis-py pool held between lean calls, up to `keep` idle ones.

    A checkout of redis-py's blocking pool and its release cost about 30 us of CPU a call
    under gevent (a queue with its locks and conditions, a poll for unread data,
    observability hooks); the read and the commit of every request take an idle connection
    of their own instead. Held connections stay the pool's (they count against its size, and
    its `disconnect` closes them: they reconnect on their next command). One that breaks is
    given back to the pool with every idle one (a broken connection usually means Redis
    restarted: the pool checks each before its next use). After a fork the parent's are
    never used: the child takes its own from the pool."""

    def __init__(self, pool: redis.ConnectionPool, keep: int = 8) -> None:
        self.pool = pool
        self.keep = keep
        self._idle: list[Any] = []
        self._pid = os.getpid()

    def take(self) -> Any:
        """An idle held connection, else one from the pool."""
        if self._pid != os.getpid():
            self._idle, self._pid = [], os.getpid()  # forked: those sockets are the parent's
        try:
            return self._idle.pop()
        except IndexError:
            return self.pool.get_connection()

    def give(self, connection: Any, broken: bool = False) -> None:
        """Hold `connection` idle again, or give it back to the pool (with every idle one
        when it broke)."""
        while broken:  # one at a time: a connection given back meanwhile is not lost
            try:
                self.pool.release(self._idle.pop())
            except IndexError:
                break
        if not broken and len(self._idle) < self.keep and self._pid == os.getpid():
            self._idle.append(connection)
        else:
            self.pool.release(connection)


class LeanScript:
    """A registered Lua script, called with its keys and arguments on a held connection."""

    def __init__(self, client: redis.Redis, text: str, held: Held | None = None) -> None:
        self.held = held or Held(client.connection_pool)
        self.script = client.register_script(text)  # its SHA1, and its text to load again

    def __call__(self, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """The script's reply (EVALSHA), as the client's call would give it."""
        return self.call_then_wait(keys, args)[0]

    def call_then_wait(self, keys: Sequence[Any], args: Sequence[Any],
                       wait: tuple[int, int] | None = None) -> tuple[Any, int]:
        """The script's reply and, with `wait` (replicas, timeout ms), the number of replicas
        that confirmed it (`WAIT` on the same connection: it counts that connection's own
        writes); 0 without."""
        for attempt in (0, 1):
            connection = self.held.take()
            try:
                reply = self._run(connection, keys, args)
            except redis.ConnectionError:
                # The connection disconnected itself: given back to the pool, and the
                # command sent again once on another (the pool checks it first).
                self.held.give(connection, broken=True)
                if attempt:
                    raise
                continue
            except BaseException:
                self.held.give(connection)  # a timeout disconnected it; an error reply did not
                raise
            acked = 0
            try:
                if wait is not None:
                    # Never sent again: the script's write is done; the caller answers 503.
                    connection.send_command("WAIT", *wait)
                    acked = int(connection.read_response())
            except redis.ConnectionError:
                self.held.give(connection, broken=True)
                raise
            except BaseException:
                self.held.give(connection)
                raise
            self.held.give(connection)
            return reply, acked
        raise AssertionError("unreachable")

    def _run(self, connection: Any, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        try:
            connection.send_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
            return connection.read_response()
        except NoScriptError:
            # Redis lost its scripts (a restart, SCRIPT FLUSH): load it and call it again.
            connection.send_command("SCRIPT", "LOAD", self.script.script)
            sha = connection.read_response()
            self.script.sha = sha.decode() if isinstance(sha, bytes) else sha
            connection.send_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
            return connection.read_response()
