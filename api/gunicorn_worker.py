"""The API's gunicorn workers: gevent's, capping the connections of one client, and
gthread's (`ProblemThreadWorker`, for `bgb serve --threads N`); both answer the requests
gunicorn refuses itself as problem+json (`ProblemAnswers`).

    gunicorn --worker-class api.gunicorn_worker.GuardedGeventWorker ...

gunicorn's gevent worker serves thousands of idle connections cheaply, but admits any number
of connections from one address, and waits for ever for a body a client declared and does
not send. What can be done in WSGI is done there, not here: under gevent `api.create_app`
puts the body deadline (`BGB_BODY_TIMEOUT`, default 10 s: 408 problem+json, connection
closed) and fair turns per client (`BGB_REQUESTS_PER_CLIENT`) in front of the app
(`api.connections.guarded`). The headers themselves must arrive within gunicorn's keep-alive
(`--keep-alive 5`, a documented setting) or gunicorn closes the connection silently.

Two things happen before any WSGI app sees a request, and gunicorn has no documented hook
for either (its server hooks are per process or per parsed request: `post_worker_init`,
`pre_request`, ...), so each is the smallest override of a method of gunicorn's `Worker`
that gunicorn does not document (docs/dependencies.md lists them, the tests that fail
if a release changes them, and tools/smoke.py, run by tools/check_latest.py, checks both):

- `GuardedGeventWorker.handle(listener, client, addr)`, called by gunicorn's gevent worker
  for each accepted connection: a per-client connection cap (its counts started by the
  documented `post_worker_init` hook of `api.gunicorn_conf`: run the worker with it). At most
  `BGB_MAX_CONNECTIONS_PER_CLIENT` (default 200) connections of one address (IPv6: one
  /64) at once, counted in Redis across every process (`api.connections.SharedCounts`, on
  `BGB_COUNTS_REDIS_URL`, default `REDIS_URL`); a connection over it is answered 429
  problem+json `too-many-connections` with Retry-After and closed. Off when
  `BGB_TRUSTED_PROXIES` is set: behind a proxy every connection comes from the proxy, and
  the proxy caps the clients' connections (compose.yaml's HAProxy does).
- `ProblemAnswers.handle_error(req, client, addr, exc)`, called by gunicorn's workers when
  it cannot parse a request (a request line over 4 KiB: 414; headers too large: 431; a
  malformed request line or header: 400), before the app sees it, to write an HTML page.
  gunicorn still decides the status and logs the request as usual, writing its answer to a
  stand-in for the client's socket, and the worker sends the client the same status as a
  problem. Should gunicorn's page ever change shape, the status stays right and the detail
  falls back to the reason. (A malformed chunked *body* reaches the app, which answers 400
  itself: `api.parsing.body_bytes`.)
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
import socket
from typing import Any

import gevent
from gunicorn.workers.ggevent import GeventWorker
from gunicorn.workers.gthread import ThreadWorker

from api.connections import (
    DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
    REFUSAL_READ_SECONDS,
    RETRY_AFTER_CONNECTIONS_SECONDS,
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


# Slugs of the statuses gunicorn answers on its own (others fall back to a generic one).
SLUGS = {
    400: "bad-request", 403: "forbidden", 414: "uri-too-long",
    417: "expectation-failed", 431: "request-header-fields-too-large",
    500: "internal-error", 501: "not-implemented",
}

_STATUS_LINE = re.compile(rb"HTTP/1\.[01] (\d{3}) ([^\r\n]*)")
_DETAIL = re.compile(rb"</h1>(.*)</body>", re.DOTALL)


class _Written:
    """A stand-in for a client's socket that keeps what is written to it (everything else
    is the real socket's)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.data = bytearray()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def gettimeout(self) -> float:
        return 0.0

    def setblocking(self, flag: bool) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.data += data

    def send(self, data: bytes) -> int:
        self.data += data
        return len(data)


def problem_answer(written: bytes) -> bytes:
    """The problem+json answer with the status (and detail) of gunicorn's HTML `written`."""
    from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE

    found = _STATUS_LINE.match(written)
    status, reason = (int(found[1]), found[2].decode("latin1")) if found else \
        (400, "Bad Request")
    detail_found = _DETAIL.search(written)
    detail = html.unescape(detail_found[1].decode("latin1")).strip() if detail_found else ""
    slug = SLUGS.get(status, "bad-request" if status < 500 else "internal-error")
    problem = {"type": PROBLEM_BASE + slug, "title": reason, "status": status,
               "detail": detail or reason}
    body = json.dumps(problem).encode("ascii")  # json.dumps escapes every non-ASCII char
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_MIMETYPE}\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin1", errors="replace") + body


class ProblemAnswers:
    """Mixin of a gunicorn worker class: its own error answers as problem+json."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        written = _Written(client)
        super().handle_error(req, written, addr, exc)  # type: ignore[misc]
        if written.data:
            try:
                client.sendall(problem_answer(bytes(written.data)))
            except OSError:
                pass  # the client went away: as gunicorn, nothing more to do


class ProblemThreadWorker(ProblemAnswers, ThreadWorker):
    """gunicorn's gthread worker (`--worker-class gthread`), answering problem+json."""


class GuardedGeventWorker(ProblemAnswers, GeventWorker):
    """gunicorn's gevent worker with a per-client connection cap (the body deadline and
    fair turns are WSGI middleware: `api.connections.guarded`)."""

    connections: SharedCounts | None = None
    cap = 0

    def _connection_counts(self) -> None:
        """Read the cap, and connect to the Redis holding the counts."""
        self.cap = int(setting("MAX_CONNECTIONS_PER_CLIENT",
                               DEFAULT_MAX_CONNECTIONS_PER_CLIENT))
        if int(setting("TRUSTED_PROXIES", 0)) > 0:
            self.cap = 0
        # Counts need no persistence: an operator may keep them off the game store's
        # fsync-at-every-write Redis (each new connection and each close is one write).
        url = os.environ.get("BGB_COUNTS_REDIS_URL") or os.environ.get("REDIS_URL")
        if url and not os.environ.get("BGB_COUNTS_REDIS_URL"):
            from api.redis_conn import Topology

            # The counts' scripts touch a shared set of processes: not on a cluster, whose
            # deployment has a plain Redis for the queues anyway.
            topology = Topology.from_env()
            url = topology.queue_url if topology.cluster else url
        if self.cap > 0 and url and self.connections is None:
            import redis

            from api.lean_script import retry_policy

            timeout = float(os.environ.get("BGB_REDIS_TIMEOUT") or 0.5)
            # A few connections, waited for: a burst of connections shares them (one each
            # would cost Redis and this process far more than the counts).
            from api.redis_conn import is_sentinel, queue_client

            if is_sentinel(url):  # the queues' Redis behind Sentinel (a cluster's)
                client = queue_client(url, timeout=timeout)
            else:
                client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
                    url, max_connections=COUNTS_CONNECTIONS, timeout=timeout,
                    socket_timeout=timeout, socket_connect_timeout=timeout,
                    retry=retry_policy()))
            self.connections = SharedCounts(client, "connections")

    def start_connection_counts(self) -> None:
        """Read the cap, connect to the counts' Redis and keep this process's heartbeat
        there every few seconds; called by the `post_worker_init` server hook
        (api.gunicorn_conf), a documented one, before the worker serves."""
        self._connection_counts()
        if self.connections is not None:
            gevent.spawn(self._heartbeats, self.connections)

    @staticmethod
    def _heartbeats(counts: SharedCounts) -> None:
        while True:  # as long as the process: it ends with it
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
