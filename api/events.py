"""Waiting for a game's next version: long polls and server-sent events.

Each process keeps one pub/sub connection (PSUBSCRIBE on every game's version channel) and
wakes the requests waiting on a game when its channel announces a version. Correctness never
depends on pub/sub: waiters re-read the version from Redis at least every second, so a lost
message or a reconnect only adds latency.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Iterator

import redis

from api import keys
from api.store import Head, Store

log = logging.getLogger(__name__)

RECHECK_SECONDS = 1.0


class VersionWatcher:
    """Wakes threads waiting for a game's next version."""

    def __init__(self, client: redis.Redis, store: Store) -> None:
        self._client = client
        self._store = store
        self._lock = threading.Lock()
        self._waiters: dict[str, set[threading.Event]] = {}
        self._listener_pid: int | None = None

    def _ensure_listener(self) -> None:
        # Started lazily and per process: a gunicorn worker forked after create_app needs its own.
        with self._lock:
            if self._listener_pid == os.getpid():
                return
            self._listener_pid = os.getpid()
        threading.Thread(target=self._listen, name="bgb-version-listener", daemon=True).start()

    def _listen(self) -> None:
        pause = 0.5
        while True:
            try:
                pubsub = self._client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(keys.version_channel_pattern())
                pause = 0.5
                for message in pubsub.listen():
                    channel = message.get("channel")
                    if isinstance(channel, bytes):
                        channel = channel.decode("utf-8", "replace")
                    game_id = keys.game_id_from_channel(channel or "")
                    if game_id is not None:
                        self._wake(game_id)
            except redis.RedisError as exc:
                # One line per attempt, backing off to 5 s: a Redis outage must not flood logs.
                log.warning("version listener: Redis unavailable (%s); retrying in %.1f s",
                            exc, pause)
                time.sleep(pause)
                pause = min(pause * 2, 5.0)
            except Exception:  # noqa: BLE001 - the listener must outlive anything
                log.warning("version listener failed; retrying", exc_info=True)
                time.sleep(0.5)

    def _wake(self, game_id: str) -> None:
        with self._lock:
            waiters = list(self._waiters.get(game_id, ()))
        for event in waiters:
            event.set()

    def wait(self, game_id: str, after: int, timeout: float) -> Head | None:
        """The game's head once its version is > `after` or it is finished, else after
        `timeout` seconds; None if the game does not exist."""
        self._ensure_listener()
        deadline = time.monotonic() + timeout
        event = threading.Event()
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(event)
        try:
            while True:
                # Registered before reading, so a version announced in between still wakes us.
                event.clear()
                head = self._store.head(game_id)
                if head is None or head.version > after or head.status == "finished":
                    return head
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return head
                event.wait(min(remaining, RECHECK_SECONDS))
        finally:
            with self._lock:
                waiters = self._waiters.get(game_id)
                if waiters is not None:
                    waiters.discard(event)
                    if not waiters:
                        del self._waiters[game_id]


def _sse(version: int, status: str, to_act: int | None) -> str:
    data = json.dumps({"version": version, "status": status, "to_act": to_act},
                      separators=(",", ":"))
    return f"id: {version}\nevent: version\ndata: {data}\n\n"


def event_stream(store: Store, watcher: VersionWatcher, game_id: str, last_id: int | None,
                 max_seconds: float, heartbeat_seconds: float) -> Iterator[str]:
    """Server-sent events of a game's versions after `last_id` (all of them, in order), then
    each new one; heartbeat comments while idle; ends when the game is over, after
    `max_seconds`, or when Redis stops answering (clients resume with Last-Event-ID)."""
    try:
        yield from _versions(store, watcher, game_id, last_id, max_seconds, heartbeat_seconds)
    except redis.RedisError as exc:
        # The answer has started: no error status can be sent any more. Ending the stream
        # makes the client reconnect with Last-Event-ID, and lose nothing.
        log.warning("event stream of %s ended: Redis unavailable (%r)", game_id, exc)


def _versions(store: Store, watcher: VersionWatcher, game_id: str, last_id: int | None,
              max_seconds: float, heartbeat_seconds: float) -> Iterator[str]:
    deadline = time.monotonic() + max_seconds
    yield "retry: 1000\n\n"
    head = store.head(game_id)
    if head is None:
        return
    sent = last_id if last_id is not None and 0 <= last_id <= head.version else None
    while True:
        if sent is None:
            yield _sse(head.version, head.status, head.to_act)
        elif head.version > sent:
            # Versions skipped since `sent`: the seat to act at version w is the seat that made
            # move w (log index w); every version before the last one was still active.
            index = sent + 1
            while index < head.version:
                entries, _ = store.moves(game_id, index - 1, min(200, head.version - index))
                if not entries:
                    break
                for entry in entries:
                    yield _sse(entry["index"], "active", entry["seat"])
                index = entries[-1]["index"] + 1
            yield _sse(head.version, head.status, head.to_act)
        sent = head.version
        if head.status == "finished":
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        waited = watcher.wait(game_id, sent, min(heartbeat_seconds, remaining))
        if waited is None:
            return
        if waited.version <= sent:
            yield ": heartbeat\n\n"
        head = waited
