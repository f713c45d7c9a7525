"""Watchers: the long polls and event streams of this process, admitted, counted, released.

An idle watcher costs no thread (gevent workers) and no Redis read (`api.events`), but it
holds a connection and a file descriptor. So each API process admits at most
`BGB_MAX_WATCHERS` of them, and at most `BGB_MAX_STREAMS_PER_CLIENT` per client (an
address, an IPv6 /64: `api.connections.client_group`);
beyond those a request is refused at once rather than queued: 429 for that one client, 503
when the process is full, both problem+json with Retry-After. gunicorn's worker_connections
(`api.gunicorn_conf`) leaves `RESERVED_CONNECTIONS` more, so moves, reads and the bots'
requests always find a connection whatever the number of watchers. A watcher is released the
moment its client goes (`api.events.ClientSocket`). The app config keys MAX_WATCHERS and
MAX_STREAMS_PER_CLIENT override the environment (tests).
"""

from __future__ import annotations

import os
import resource
import threading
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, request
from prometheus_client import Gauge

from api.connections import client_group
from api.events import ClientGone, ClientSocket, event_stream
from api.problems import Problem
from api.services import services
from api.store import Head

DEFAULT_MAX_WATCHERS = 5000
DEFAULT_MAX_STREAMS_PER_CLIENT = 100
# Connections of each gunicorn process beyond its watchers: room for every other request.
RESERVED_CONNECTIONS = 1000
RETRY_AFTER_FULL_SECONDS = 5
RETRY_AFTER_CLIENT_SECONDS = 10

OPEN_WATCHERS = Gauge("bgb_open_watchers", "Long polls and event streams open now",
                      ["kind"], multiprocess_mode="livesum")


def configured(config: dict[str, Any], name: str, default: int) -> int:
    """A limit: app config `name`, else environment `BGB_<name>`, else `default`."""
    if name in config:
        return int(config[name])
    return int(os.environ.get(f"BGB_{name}", default))


def max_watchers(config: dict[str, Any]) -> int:
    """The watchers one process admits: as configured, and no more than three quarters of
    its file descriptors."""
    wanted = configured(config, "MAX_WATCHERS", DEFAULT_MAX_WATCHERS)
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft * 3 // 4))


class Admission:
    """The watchers open in this process, by client address, within the limits."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self._lock = threading.Lock()
        self._open = 0
        self._by_client: dict[str, int] = {}

    @property
    def open(self) -> int:
        """Watchers open now."""
        return self._open

    def enter(self, address: str, kind: str) -> Callable[[], None]:
        """Admit one watcher of `address`; its release function (idempotent). Raises the
        429 or 503 problem when a limit is reached."""
        with self._lock:
            if self._by_client.get(address, 0) >= self.per_client:
                raise Problem(429, "too-many-streams", "Too many streams",
                              f"at most {self.per_client} long polls and event streams per "
                              "client; close one first",
                              headers={"Retry-After": str(RETRY_AFTER_CLIENT_SECONDS)})
            if self._open >= self.total:
                raise Problem(503, "service-unavailable", "Service unavailable",
                              "this server holds as many long polls and event streams as it "
                              "can; retry after a moment",
                              headers={"Retry-After": str(RETRY_AFTER_FULL_SECONDS)})
            self._open += 1
            self._by_client[address] = self._by_client.get(address, 0) + 1
        OPEN_WATCHERS.labels(kind).inc()
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                self._open -= 1
                left = self._by_client[address] - 1
                if left:
                    self._by_client[address] = left
                else:
                    del self._by_client[address]
            OPEN_WATCHERS.labels(kind).dec()

        return release


def admission() -> Admission:
    """This process's admission of the current app (made at its first watcher)."""
    found = current_app.extensions.get("bgb-watchers")
    if found is None:
        config = services().config
        found = current_app.extensions.setdefault("bgb-watchers", Admission(
            max_watchers(config),
            configured(config, "MAX_STREAMS_PER_CLIENT", DEFAULT_MAX_STREAMS_PER_CLIENT)))
    return found


def _client_socket() -> ClientSocket | None:
    # gunicorn hands the connection to the app; other servers (the test client) do not.
    sock = request.environ.get("gunicorn.socket")
    return ClientSocket(sock) if sock is not None else None


def _client_gone() -> Problem:
    # Nobody reads this answer; the status tells the metrics and logs what happened.
    return Problem(499, "client-closed-request", "Client closed request",
                   "the client closed its connection while waiting")


def long_poll(game_id: str, after: int, timeout: float) -> None:
    """Return once `game_id` is past version `after`, finished or gone, or after `timeout`
    seconds, holding a watcher's place meanwhile; 429/503 when none is free, 499 when the
    client closed its connection."""
    svc = services()
    release = admission().enter(client_group(request.remote_addr), "long-poll")
    try:
        svc.watcher.wait(game_id, after, timeout, _client_socket())
    except ClientGone:
        raise _client_gone() from None
    finally:
        release()


class _Released:
    """A streamed body that releases its watcher's place when the server closes it (which
    WSGI servers always do, even for a stream never started)."""

    def __init__(self, chunks: Iterator[str], release: Callable[[], None]) -> None:
        self._chunks = chunks
        self._release = release

    def __iter__(self) -> Iterator[str]:
        return self._chunks

    def close(self) -> None:
        """End the stream and free its place."""
        try:
            close = getattr(self._chunks, "close", None)
            if close is not None:
                close()
        finally:
            self._release()


def follow(game_id: str, last_id: int | None,
           current: Callable[[Head], dict[str, Any] | None] | None = None) -> Response:
    """The server-sent events answer of `game_id` after version `last_id` (each current
    version's event with what `current` gives for it), holding a watcher's place until it
    ends; 429/503 when none is free."""
    svc = services()
    release = admission().enter(client_group(request.remote_addr), "stream")
    try:
        chunks = event_stream(svc.store, svc.watcher, game_id, last_id,
                              float(svc.config["SSE_MAX_SECONDS"]),
                              float(svc.config["SSE_HEARTBEAT_SECONDS"]), _client_socket(),
                              current)
        return Response(_Released(chunks, release), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    except BaseException:
        release()
        raise
