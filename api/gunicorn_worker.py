"""The API's gunicorn worker: gevent's, bounding what one client can hold.

    gunicorn --worker-class api.gunicorn_worker.GuardedGeventWorker ...

gunicorn's gevent worker serves thousands of idle connections cheaply, but it waits for
ever for a request body a client declared and does not send, and it admits any number of
connections from one address. This subclass of it (a documented worker, extended through
its documented methods) adds, in front of the app:

- a body deadline: the app must have a request's whole body `BGB_BODY_TIMEOUT` seconds
  (default 10) after its headers; past it the read ends with 408 problem+json and the
  connection is closed (`api.connections.BodyDeadline`). The headers themselves must
  arrive within gunicorn's keep-alive (`--keep-alive 5`) of the connection's start or of
  the previous answer, or gunicorn closes the connection silently.
- fair turns: a process works on at most `BGB_REQUESTS_PER_CLIENT` (default 4) requests of
  one client at once (long polls and streams aside); a flood from one client, even of
  requests refused 429, waits its turns instead of delaying everyone's
  (`api.connections.FairShare`).
- a per-client connection cap: at most `BGB_MAX_CONNECTIONS_PER_CLIENT` (default 200)
  connections of one address (IPv6: one /64) at once, counted in Redis across every
  process (`api.connections.SharedCounts`, on `BGB_COUNTS_REDIS_URL`, default
  `REDIS_URL`); a connection over it is answered 429
  problem+json `too-many-connections` with Retry-After and closed. Off when
  `BGB_TRUSTED_PROXIES` is set: behind a proxy every connection comes from the proxy, and
  the proxy caps the clients' connections (compose.yaml's nginx does).
"""

from __future__ import annotations

import json
import logging
import os
import socket
from typing import Any

import gevent
from gunicorn.workers.ggevent import GeventWorker

from api.connections import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
    DEFAULT_REQUESTS_PER_CLIENT,
    REFUSAL_READ_SECONDS,
    RETRY_AFTER_CONNECTIONS_SECONDS,
    BodyDeadline,
    FairShare,
    SharedCounts,
    client_group,
    setting,
)

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0
COUNTS_CONNECTIONS = 64


def too_many_connections(cap: int) -> bytes:
    """The whole 429 answer to a connection over the cap."""
    from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE

    body = json.dumps({
        "type": PROBLEM_BASE + "too-many-connections", "title": "Too many connections",
        "status": 429, "retry_after": RETRY_AFTER_CONNECTIONS_SECONDS,
        "detail": f"at most {cap} connections at once per client; close one first"}).encode()
    head = ("HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_MIMETYPE}\r\nContent-Length: {len(body)}\r\n"
            f"Retry-After: {RETRY_AFTER_CONNECTIONS_SECONDS}\r\n\r\n")
    return head.encode("ascii") + body


class GuardedGeventWorker(GeventWorker):
    """gunicorn's gevent worker with a body deadline, fair turns per client and a
    per-client connection cap."""

    connections: SharedCounts | None = None
    cap = 0

    def load_wsgi(self) -> None:
        """Load the app, then put fair turns, the body deadline and the connection counts
        in front of it."""
        super().load_wsgi()
        per_client = int(setting("REQUESTS_PER_CLIENT", DEFAULT_REQUESTS_PER_CLIENT))
        if per_client > 0:
            self.wsgi = FairShare(self.wsgi, per_client, int(setting("TRUSTED_PROXIES", 0)))
        seconds = setting("BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT)
        if seconds > 0:
            self.wsgi = BodyDeadline(self.wsgi, seconds, gevent.Timeout)
        self.cap = int(setting("MAX_CONNECTIONS_PER_CLIENT",
                               DEFAULT_MAX_CONNECTIONS_PER_CLIENT))
        if int(setting("TRUSTED_PROXIES", 0)) > 0:
            self.cap = 0
        # Counts need no persistence: an operator may keep them off the game store's
        # fsync-at-every-write Redis (each new connection and each close is one write).
        url = os.environ.get("BGB_COUNTS_REDIS_URL") or os.environ.get("REDIS_URL")
        if self.cap > 0 and url and self.connections is None:
            import redis

            from api.lean_script import retry_policy

            timeout = float(os.environ.get("BGB_REDIS_TIMEOUT") or 0.5)
            # A few connections, waited for: a burst of connections shares them (one each
            # would cost Redis and this process far more than the counts).
            client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
                url, max_connections=COUNTS_CONNECTIONS, timeout=timeout,
                socket_timeout=timeout, socket_connect_timeout=timeout,
                retry=retry_policy()))
            self.connections = SharedCounts(client, "connections")

    def run(self) -> None:
        """Serve, with this process's heartbeat in the shared counts every few seconds."""
        if self.connections is not None:
            gevent.spawn(self._heartbeats, self.connections)
        super().run()

    def _heartbeats(self, counts: SharedCounts) -> None:
        while self.alive:
            try:
                counts.heartbeat()
            except Exception as exc:  # Redis away: the counts fall back to this process
                log.debug("connection counts heartbeat failed: %r", exc)
            gevent.sleep(HEARTBEAT_SECONDS)

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        """Serve a connection if its client holds fewer than the cap, else refuse it."""
        counts = self.connections
        if counts is None:
            super().handle(listener, client, addr)
            return
        group = client_group(addr[0] if isinstance(addr, tuple) else str(addr))
        if not counts.admit(group, self.cap):
            self._refuse(client)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            counts.release(group)

    def _refuse(self, client: socket.socket) -> None:
        """Answer 429 once the request's headers are in (or after a second), and close."""
        try:
            client.setblocking(True)
            seen = b""
            with gevent.Timeout(REFUSAL_READ_SECONDS, False):
                while b"\r\n\r\n" not in seen and len(seen) < 65536:
                    chunk = client.recv(8192)
                    if not chunk:
                        break
                    seen += chunk
            client.sendall(too_many_connections(self.cap))
        except OSError:
            pass
        finally:
            client.close()
