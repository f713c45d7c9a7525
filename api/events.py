"""Waiting for a game's next version: long polls and server-sent events.

Each process keeps one pub/sub connection, SUBSCRIBEd to the version channels of the games
its requests wait on, and only those: a move of a game nobody watches here costs this process
nothing (a PSUBSCRIBE on every game's channel made each API process read every move of the
server). A message wakes the requests waiting on that game, and each reads the game's head
once. An idle waiter costs no Redis read and, under gevent, no thread: it sleeps on an event.

Correctness never depends on pub/sub: a game's waiters are woken when its subscription is
confirmed (so a move made between their first read and the subscription taking effect is
read then), whenever the listener (re)connects it wakes every waiter, so a message lost while
it was disconnected costs only latency, and a sweep reads the version of every waited game
every `SAFETY_RECHECK_SECONDS` (one pipeline) and wakes the waiters of any that changed
unannounced.

A waiter may also watch its client's socket (`ClientSocket`): a long poll or a stream whose
client has closed its connection ends at once instead of holding its place until its timeout.
"""

from __future__ import annotations

import json
import logging
import os
import select
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
from redis.cluster import RedisCluster

from api import keys
from api.store import Head, Store

log = logging.getLogger(__name__)

# The safety sweep reads the version of every waited game this often: the bound on the
# latency a lost announcement adds.
SAFETY_RECHECK_SECONDS = 20.0

# The listener applies the subscriptions its process's waiters need at least this often
# (it owns the pub/sub connection: requests never write to it themselves).
SUBSCRIBE_EVERY_SECONDS = 0.05
# How often a cluster's sharded subscriptions are read when none had a message.
SHARDED_POLL_SECONDS = 0.02
# The pub/sub messages that wake a game's waiters: an announcement, or a subscription now in
# effect (plain or sharded).
_HEARD = ("message", "subscribe", "smessage", "ssubscribe")
# Channels per SUBSCRIBE or UNSUBSCRIBE command.
SUBSCRIBE_BATCH = 1000


class ClientGone(Exception):
    """The client of a waiting request closed its connection."""


class ClientSocket:
    """The connection of a waiting request's client: tells when the client has gone.

    Under gevent the waiter's event is also set the moment the socket turns readable (the
    client closed it, or sent something), so a departure is noticed at once for free; other
    servers poll the socket every `CHECK_SECONDS`.
    """

    CHECK_SECONDS = 1.0

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._fd = sock.fileno()
        self._watcher: Any = None

    @property
    def watching(self) -> bool:
        """Whether input on the socket sets the waiter's event (else: poll `gone`)."""
        return self._watcher is not None

    def watch(self, event: Any) -> None:
        """Set `event` when the socket turns readable (under gevent only)."""
        if _gevent_patched() and self._fd >= 0:
            from gevent import get_hub

            watcher = get_hub().loop.io(self._fd, 1)  # 1: readable
            watcher.start(event.set)
            self._watcher = watcher

    def unwatch(self) -> None:
        """Stop setting the event."""
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher.close()
            self._watcher = None

    def gone(self) -> bool:
        """Whether the client has closed its end (or the connection broke)."""
        if self._fd < 0:
            return False
        poller = _original_poll()
        poller.register(self._fd, select.POLLIN | select.POLLPRI)
        if not poller.poll(0):
            return False
        try:
            data = self._sock.recv(1, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True
        if data:
            # The client sent more (a pipelined request): the socket stays readable until it
            # is answered, so it can no longer wake us; poll it from now on.
            self.unwatch()
        return not data


def _original_poll() -> Any:
    # The system's poll, even under gevent: a zero timeout never blocks, and select() cannot
    # take descriptors above 1023, which thousands of connections use.
    if _gevent_patched():
        from gevent import monkey

        return monkey.get_original("select", "poll")()
    return select.poll()


def _gevent_patched() -> bool:
    # Never imports gevent: a process that did not load it is not patched.
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def new_event() -> Any:
    """An event for one waiter: gevent's under gevent (safe to set from the hub's callbacks),
    else threading's."""
    if _gevent_patched():
        from gevent.event import Event

        return Event()
    return threading.Event()


class _Read:
    """One read of a game's head, shared by every waiter that may use it."""

    __slots__ = ("generation", "started", "done", "head", "error")

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.started = time.monotonic()
        self.done = new_event()
        self.head: Head | None = None
        self.error: BaseException | None = None


class _Game:
    """The waiters of one game in this process, and what they know of it."""

    __slots__ = ("events", "generation", "last")

    def __init__(self) -> None:
        self.events: set[Any] = set()
        self.generation = 0  # wake-ups so far: a read from before the last one is stale
        self.last: _Read | None = None


class Subscription:
    """One request waiting on one game: `read` the head, `wait` for a reason to read again."""

    def __init__(self, watcher: VersionWatcher, game_id: str, event: Any,
                 client: ClientSocket | None) -> None:
        self._watcher = watcher
        self.game_id = game_id
        self._event = event
        self._client = client
        if client is not None:
            client.watch(event)

    def read(self) -> Head | None:
        """The game's head now (None if the game does not exist)."""
        # Cleared before reading: a version announced while we read still wakes the next wait.
        self._event.clear()
        return self._watcher.read(self.game_id)

    def clear(self) -> None:
        """Forget the wake-ups so far, for a waiter that reads something else than the head
        (an announcement after this still wakes the next wait)."""
        self._event.clear()

    def wait(self, seconds: float) -> bool:
        """Sleep until woken (a version announced, a resubscription, the safety sweep saw a
        change: True) or `seconds` pass (False); raises ClientGone as soon as the client is
        seen gone."""
        deadline = time.monotonic() + seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            polling = self._client is not None and not self._client.watching
            woken = self._event.wait(min(remaining, ClientSocket.CHECK_SECONDS) if polling
                                     else remaining)
            if self._client is not None and (woken or polling) and self._client.gone():
                raise ClientGone()
            if woken:
                return True

    def close(self) -> None:
        """Stop watching the client."""
        if self._client is not None:
            self._client.unwatch()


class VersionWatcher:
    """Wakes the requests waiting for a game's next version.

    Reads of a game's head are shared: the waiters woken by one announcement make one read
    between them (a read is reused by a waiter if it started after that waiter's last
    wake-up, and less than `REUSE_SECONDS` ago). A sweep every `SAFETY_RECHECK_SECONDS`
    reads the versions of every waited game in one pipeline and wakes those that changed
    unannounced.
    """

    REUSE_SECONDS = 1.0

    def __init__(self, client: redis.Redis, store: Store) -> None:
        self._client = client
        self._store = store
        # A cluster announces versions on its sharded pub/sub (api.store: SPUBLISH).
        self.sharded = isinstance(client, RedisCluster)
        self._lock = threading.Lock()
        self._games: dict[str, _Game] = {}
        # Games whose subscription must change: True to subscribe, False to unsubscribe.
        self._changes: dict[str, bool] = {}
        self._listener_pid: int | None = None

    def _ensure_listener(self) -> None:
        # Started lazily and per process: a gunicorn worker forked after create_app needs its own.
        with self._lock:
            if self._listener_pid == os.getpid():
                return
            self._listener_pid = os.getpid()
        threading.Thread(target=self._listen, name="bgb-version-listener", daemon=True).start()
        threading.Thread(target=self._sweep, name="bgb-version-sweeper", daemon=True).start()

    def _listen(self) -> None:
        pause = 0.5
        while True:
            try:
                pubsub = self._client.pubsub()
                subscribed: set[str] = set()
                with self._lock:
                    # (Re)connected: every watched game is subscribed again, and its waiters
                    # read their game's head (whatever was announced while we were away).
                    self._changes = dict.fromkeys(self._games, True)
                self._wake_all()
                while True:
                    self._apply_changes(pubsub, subscribed)
                    message = self._next_message(pubsub, subscribed)
                    pause = 0.5
                    if message is None or message.get("type") not in _HEARD:
                        continue
                    channel = message.get("channel")
                    if isinstance(channel, bytes):
                        channel = channel.decode("utf-8", "replace")
                    game_id = keys.game_id_from_channel(channel or "")
                    if game_id is not None:
                        # A version announced, or the game's subscription now in effect: what
                        # was announced before it was not heard, so its waiters read again.
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

    def _next_message(self, pubsub: Any, subscribed: set[str]) -> dict[str, Any] | None:
        """The next announcement or subscription, or None after a while without one.

        On a cluster the versions come on its sharded pub/sub (SSUBSCRIBE: one connection to
        each master holding a watched game's slot), whose redis-py reader does not wait: it
        is polled every SHARDED_POLL_SECONDS (a watcher hears a move that much later at
        worst)."""
        if not self.sharded:
            return pubsub.get_message(timeout=SUBSCRIBE_EVERY_SECONDS)
        message = pubsub.get_sharded_message() if subscribed else None
        if message is None:
            time.sleep(SHARDED_POLL_SECONDS)
        return message

    def _apply_changes(self, pubsub: Any, subscribed: set[str]) -> None:
        """Subscribe to the games newly waited on, unsubscribe from those no longer."""
        with self._lock:
            if not self._changes:
                return
            changes, self._changes = self._changes, {}
        add = [game_id for game_id, wanted in changes.items()
               if wanted and game_id not in subscribed]
        drop = [game_id for game_id, wanted in changes.items()
                if not wanted and game_id in subscribed]
        for start in range(0, len(add), SUBSCRIBE_BATCH):
            batch = add[start:start + SUBSCRIBE_BATCH]
            channels = [keys.version_channel(game_id) for game_id in batch]
            if self.sharded:
                pubsub.ssubscribe(*channels)
            else:
                pubsub.subscribe(*channels)
            subscribed.update(batch)
        for start in range(0, len(drop), SUBSCRIBE_BATCH):
            batch = drop[start:start + SUBSCRIBE_BATCH]
            channels = [keys.version_channel(game_id) for game_id in batch]
            if self.sharded:
                pubsub.sunsubscribe(*channels)
            else:
                pubsub.unsubscribe(*channels)
            subscribed.difference_update(batch)

    def _sweep(self) -> None:
        while True:
            time.sleep(SAFETY_RECHECK_SECONDS)
            try:
                self.sweep()
            except redis.RedisError as exc:
                log.warning("version sweep: Redis unavailable (%s)", exc)
            except Exception:  # noqa: BLE001 - the sweeper must outlive anything
                log.warning("version sweep failed", exc_info=True)

    def sweep(self) -> None:
        """Wake the waiters of every game whose version is not the one last read for it
        (a lost announcement): one pipelined HGET per 500 games."""
        with self._lock:
            known = {game_id: game.last.head.version if game.last and game.last.head else None
                     for game_id, game in self._games.items()}
        ids = list(known)
        for start in range(0, len(ids), 500):
            batch = ids[start:start + 500]
            pipe = self._store.client.pipeline(transaction=False)
            for game_id in batch:
                pipe.hget(keys.game_state(game_id), "version")
            for game_id, raw in zip(batch, pipe.execute(), strict=True):
                version = int(raw) if raw is not None else None
                if version != known[game_id]:
                    self._wake(game_id)

    def _wake(self, game_id: str) -> None:
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return
            game.generation += 1
            waiters = list(game.events)
        for event in waiters:
            event.set()

    def _wake_all(self) -> None:
        with self._lock:
            waiters = []
            for game in self._games.values():
                game.generation += 1
                waiters.extend(game.events)
        for event in waiters:
            event.set()

    def waiting(self) -> int:
        """How many requests of this process wait on some game now."""
        with self._lock:
            return sum(len(game.events) for game in self._games.values())

    def read(self, game_id: str) -> Head | None:
        """The head of a waited game, from a read that started after its last wake-up:
        this caller's own, or one shared with the other waiters."""
        with self._lock:
            game = self._games[game_id]
            shared = game.last
            if (shared is None or shared.generation < game.generation
                    or time.monotonic() - shared.started > self.REUSE_SECONDS):
                shared = game.last = _Read(game.generation)
                mine = True
            else:
                mine = False
        if not mine:
            shared.done.wait()
        else:
            try:
                shared.head = self._store.head(game_id)
            except BaseException as exc:
                shared.error = exc
                with self._lock:
                    game = self._games.get(game_id)
                    if game is not None and game.last is shared:
                        game.last = None  # the next reader tries again
                raise
            finally:
                shared.done.set()
        if shared.error is not None:
            raise shared.error
        return shared.head

    @contextmanager
    def subscribe(self, game_id: str,
                  client: ClientSocket | None = None) -> Iterator[Subscription]:
        """Wait on `game_id` within the block (registered before the first read, so no
        announcement between a read and a wait is missed)."""
        self._ensure_listener()
        event = new_event()
        with self._lock:
            if game_id not in self._games:
                self._games[game_id] = _Game()
                self._changes[game_id] = True
            self._games[game_id].events.add(event)
        subscription = Subscription(self, game_id, event, client)
        try:
            yield subscription
        finally:
            subscription.close()
            with self._lock:
                game = self._games.get(game_id)
                if game is not None:
                    game.events.discard(event)
                    if not game.events:
                        del self._games[game_id]
                        self._changes[game_id] = False

    def wait(self, game_id: str, after: int, timeout: float,
             client: ClientSocket | None = None) -> Head | None:
        """The game's head once its version is > `after` or it is finished, else (as last
        read) after `timeout` seconds; None if the game does not exist. Raises ClientGone."""
        deadline = time.monotonic() + timeout
        with self.subscribe(game_id, client) as subscription:
            while True:
                head = subscription.read()
                if head is None or head.version > after or head.status == "finished":
                    return head
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not subscription.wait(remaining):
                    return head


def _sse(version: int, status: str, to_act: int | None,
         current: dict[str, Any] | None = None) -> str:
    body: dict[str, Any] = {"version": version, "status": status, "to_act": to_act}
    if current is not None:
        body["current"] = current
    data = json.dumps(body, separators=(",", ":"))
    return f"id: {version}\nevent: version\ndata: {data}\n\n"


def event_stream(store: Store, watcher: VersionWatcher, game_id: str, last_id: int | None,
                 max_seconds: float, heartbeat_seconds: float,
                 client: ClientSocket | None = None,
                 current: Callable[[Head], dict[str, Any] | None] | None = None
                 ) -> Iterator[str]:
    """Server-sent events of a game's versions after `last_id` (all of them, in order), then
    each new one; heartbeat comments while idle; ends when the game is over, after
    `max_seconds`, when the client goes, or when Redis stops answering (clients resume with
    Last-Event-ID). With `current`, the event of the version read last carries what it
    gives for that head (a seat's game: `?view=1`)."""
    try:
        yield from _versions(store, watcher, game_id, last_id, max_seconds, heartbeat_seconds,
                             client, current)
    except ClientGone:
        return
    except redis.RedisError as exc:
        # The answer has started: no error status can be sent any more. Ending the stream
        # makes the client reconnect with Last-Event-ID, and lose nothing.
        log.warning("event stream of %s ended: Redis unavailable (%r)", game_id, exc)


def _versions(store: Store, watcher: VersionWatcher, game_id: str, last_id: int | None,
              max_seconds: float, heartbeat_seconds: float, client: ClientSocket | None,
              current: Callable[[Head], dict[str, Any] | None] | None) -> Iterator[str]:
    deadline = time.monotonic() + max_seconds
    yield "retry: 1000\n\n"
    with watcher.subscribe(game_id, client) as subscription:
        head = subscription.read()
        if head is None:
            return
        sent = last_id if last_id is not None and 0 <= last_id <= head.version else None
        while True:
            if sent is None or head.version > sent:
                if sent is not None:
                    yield from _skipped(store, game_id, sent, head.version)
                yield _sse(head.version, head.status, head.to_act,
                           current(head) if current is not None else None)
            sent = head.version
            if head.status == "finished":
                return
            # Heartbeats until woken: an idle stream reads nothing from Redis.
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                if subscription.wait(min(heartbeat_seconds, remaining)):
                    break
                if time.monotonic() < deadline:
                    yield ": heartbeat\n\n"
            head = subscription.read()
            if head is None:
                return


def _skipped(store: Store, game_id: str, sent: int, version: int) -> Iterator[str]:
    """The events of the versions after `sent` and before `version`, from the move log: the
    seat to act at version w is the seat that made move w (log index w), and every version
    before the last one was still active."""
    index = sent + 1
    while index < version:
        entries, _ = store.moves(game_id, index - 1, min(200, version - index))
        if not entries:
            break
        for entry in entries:
            yield _sse(entry["index"], "active", entry["seat"])
        index = entries[-1]["index"] + 1
