"""What a client may hold of the server: its connections, counted across every API process,
and the time it may take to send a request's body.

- A client is its address, IPv6 grouped by /64 (one host, or one home or office network,
  gets a whole /64 and could otherwise take as many addresses as it likes); an IPv4-mapped
  IPv6 address is its IPv4 address. Rate limits and watchers group clients the same way.
- `SharedCounts` counts what each client holds now in Redis, so that a cap holds across
  every gunicorn process and every API node on one Redis (a per-process count lets a client
  hold the cap once per process). Each process adds its own count under its own name and
  refreshes a heartbeat: the counts of a process that died (SIGKILL, OOM) stop counting
  once its heartbeat is older than `stale_after`, without anyone cleaning up after it.
- `BodyDeadline` gives a request's body a deadline, and reads it before the app is called:
  a client that declared a 100-byte body and sent 1 byte costs no app work, and gets 408
  problem+json when the deadline runs out, its connection closed.

- `SlowBodies` caps what one client may keep waiting on its bodies: a request whose body
  is not in after a short grace is counted (`SharedCounts`) until it is, and one over the
  client's cap is answered 429 and closed. A body that arrives at once costs no count.

`guarded` puts the body deadline with the slow-body cap, and fair turns (`FairShare`), in
front of the app under gevent (`api.create_app`, through Flask's documented
`app.wsgi_app`). All of it is WSGI: no method of the server is overridden.
"""

from __future__ import annotations

import io
import ipaddress
import json
import logging
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

import redis
from werkzeug.exceptions import RequestTimeout

from api import keys

log = logging.getLogger(__name__)

# Connections one client (an address, an IPv6 /64) may keep waiting on their requests'
# bodies at once, every API process together (BGB_MAX_CONNECTIONS_PER_CLIENT); 0 turns the
# cap off. A browser opens at most 6 connections per host, an app or a bot a few, and sends
# each body at once: only a slow or hostile client ever holds many.
DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 200
# Seconds a client has to send a request's whole body (the headers have gunicorn's
# keep-alive, 5 s in `bgb serve` and compose.yaml). A move is ~100 bytes; the largest body
# accepted (MAX_CONTENT_LENGTH, 64 KiB) takes 10 s at 6.5 KB/s.
DEFAULT_BODY_TIMEOUT = 10.0
# Bodies up to this size are read whole before the app is called (the API accepts none
# larger: MAX_CONTENT_LENGTH is 64 KiB).
PREREAD_BYTES = 64 * 1024
# Seconds a body may take before its request counts against its client's cap of slow
# bodies: a move's body comes in the same packet as its headers, or one round trip later.
SLOW_BODY_GRACE_SECONDS = 0.25
RETRY_AFTER_CONNECTIONS_SECONDS = 5
# Connections to the Redis holding the counts, per process: a burst shares them.
COUNTS_CONNECTIONS = 64
HEARTBEAT_SECONDS = 5.0
# Counts sent to Redis in one pipeline at most (`SharedCounts`).
MAX_BATCH = 500


def client_group(address: str | None) -> str:
    """The client an address belongs to: an IPv4 address itself, an IPv6 address's /64, an
    IPv4-mapped IPv6 address's IPv4 address; anything else (a Unix socket) as it is."""
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_of(environ: dict[str, Any], trusted_proxies: int = 0) -> str:
    """The client of a WSGI request: its connection's address's group, or behind
    `trusted_proxies` proxies the address they put in X-Forwarded-For (as werkzeug's
    ProxyFix reads it)."""
    if trusted_proxies > 0:
        forwarded = [a.strip() for a in environ.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if len(forwarded) >= trusted_proxies and forwarded[-trusted_proxies]:
            return client_group(forwarded[-trusted_proxies])
    return client_group(environ.get("REMOTE_ADDR"))


def setting(name: str, default: float) -> float:
    """A number from environment variable `BGB_<name>`, else `default` ("off" is 0)."""
    raw = os.environ.get(f"BGB_{name}", "").strip().lower()
    if not raw:
        return default
    if raw in ("off", "none"):
        return 0
    return float(raw)


# Admit one more of KEYS[1]'s client if its live total is under the cap. KEYS[1]: hash of
# the client's counts by process; KEYS[2]: sorted set of processes by last heartbeat.
# ARGV: this process, the cap, now, stale_after, the key's TTL. The new total, or -1 when
# refused. Counts of processes without a recent heartbeat are dropped on the way.
_ADMIT = """
local fields = redis.call('HGETALL', KEYS[1])
local total = 0
local oldest = tonumber(ARGV[3]) - tonumber(ARGV[4])
for i = 1, #fields, 2 do
  local beat = redis.call('ZSCORE', KEYS[2], fields[i])
  if fields[i] == ARGV[1] or (beat and tonumber(beat) >= oldest) then
    total = total + tonumber(fields[i + 1])
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
if total >= tonumber(ARGV[2]) then
  return -1
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], ARGV[5])
return total + 1
"""

# Release one of KEYS[1]'s client held by ARGV[1] (this process).
_RELEASE = """
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return left
"""


@dataclass
class _Count:
    """One admission or release waiting for its round trip to Redis."""

    group: str
    cap: int  # 0 for a release
    turn: threading.Event = field(default_factory=threading.Event)
    answered: bool = False
    total: int | None = None  # the script's answer; None when Redis failed


class SharedCounts:
    """What each client holds now of one kind of thing (`kind`: connections, watchers),
    counted in Redis across processes, with a per-process fallback when Redis fails.

    Counts are sent to Redis in batches, one pipeline at a time: whoever finds no batch in
    flight sends every count waiting, and hands the turn to the first count that arrived
    meanwhile. A burst of 2,000 new connections then costs a few round trips, and a few
    writes to the append-only file, instead of 2,000 of each, which a connection arriving
    behind them (a health check) would wait for. Each count is still judged alone, in
    arrival order, by the same script: the cap is exact."""

    def __init__(self, client: redis.Redis, kind: str, stale_after: float = 30.0) -> None:
        self.client = client
        self.kind = kind
        self.stale_after = stale_after
        # This process's name among the counters: a pid is reused, a uuid is not.
        self.holder = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._admit = client.register_script(_ADMIT)
        self._release = client.register_script(_RELEASE)
        self._lock = threading.Lock()
        self._local: dict[str, int] = {}  # this process's own counts, by client
        self._beat_at = 0.0
        self._waiting: list[_Count] = []
        self._sending = False  # a batch is in flight: new counts wait for their turn

    def _key(self, group: str) -> str:
        # One hash tag for every key of the kind: one slot on a Redis Cluster, as a script
        # touching the client's counts and the heartbeats needs.
        return f"{keys.PREFIX}:{{{self.kind}}}:client:{group}"

    @property
    def _holders(self) -> str:
        return f"{keys.PREFIX}:{{{self.kind}}}:holders"

    def heartbeat(self) -> None:
        """Say this process is alive (its counts count); forget processes long gone."""
        now = time.time()
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(self._holders, {self.holder: now})
        pipe.zremrangebyscore(self._holders, "-inf", now - 10 * self.stale_after)
        pipe.execute()
        self._beat_at = time.monotonic()

    def admit(self, group: str, cap: int) -> bool:
        """Count one more for `group` if it holds fewer than `cap`; whether it was counted.
        When Redis fails, the cap holds per process (the count is this process's own)."""
        total = self._counted(_Count(group, cap))
        with self._lock:
            held = self._local.get(group, 0)
            if total is None:
                if held >= cap:
                    return False
            elif total < 0:
                return False
            self._local[group] = held + 1
        return True

    def release(self, group: str) -> None:
        """Count one less for `group` (one that `admit` counted)."""
        with self._lock:
            left = self._local.get(group, 0) - 1
            if left > 0:
                self._local[group] = left
            else:
                self._local.pop(group, None)
        # When Redis fails, its count is dropped with this process's heartbeat at worst.
        self._counted(_Count(group, 0))

    def held(self, group: str) -> int:
        """What `group` holds in this process now."""
        with self._lock:
            return self._local.get(group, 0)

    def _counted(self, count: _Count) -> int | None:
        """Queue `count`, take a turn at sending when it comes, and wait for its answer."""
        with self._lock:
            self._waiting.append(count)
            if not self._sending:
                self._sending = True
                count.turn.set()
        while True:
            count.turn.wait()
            if count.answered:
                return count.total
            count.turn.clear()
            self._send()

    def _send(self) -> None:
        """Send every count waiting in one pipeline, then pass the turn on."""
        with self._lock:
            batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
        answers: list[int | None] = [None] * len(batch)
        try:
            answers = self._pipeline(batch)
        except redis.RedisError as exc:
            log.warning("counting %s in Redis failed (%r): counted in this process", self.kind,
                        exc)
        finally:  # whatever happened (even this greenlet killed), nobody waits for ever
            with self._lock:
                if self._waiting:
                    self._waiting[0].turn.set()
                else:
                    self._sending = False
            for count, answer in zip(batch, answers, strict=True):
                count.total, count.answered = answer, True
                count.turn.set()

    def _pipeline(self, batch: list[_Count]) -> list[int | None]:
        """The scripts' answers for `batch`, in order, in one round trip."""
        if time.monotonic() - self._beat_at > self.stale_after / 3:
            self.heartbeat()
        pipe = self.client.pipeline(transaction=False)
        now = time.time()
        for count in batch:
            if count.cap:
                self._admit(keys=[self._key(count.group), self._holders],
                            args=[self.holder, count.cap, now, self.stale_after,
                                  int(self.stale_after * 10)], client=pipe)
            else:
                self._release(keys=[self._key(count.group)], args=[self.holder], client=pipe)
        return [int(answer) for answer in pipe.execute()]


class BodyTimeout(RequestTimeout):
    """408: the client did not send its request's body in time."""

    description = "the request body did not arrive in time; the connection is closed"


Timer = Callable[[float, BaseException], AbstractContextManager[Any]]


class DeadlineInput:
    """A WSGI input stream whose reads end at `deadline` (time.monotonic()) with
    BodyTimeout. (The server then closes the connection when the rest of the body does not
    come within its keep-alive timeout, as it discards it before the next request.)"""

    def __init__(self, stream: Any, deadline: float, timer: Timer) -> None:
        self.stream = stream
        self.deadline = deadline
        self.timer = timer

    def _within(self, read: Callable[..., Any], *args: Any) -> Any:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise BodyTimeout()
        with self.timer(left, BodyTimeout()):
            return read(*args)

    def read(self, size: int | None = -1) -> bytes:
        """As the stream's read, within the deadline."""
        return self._within(self.stream.read, -1 if size is None else size)

    def readline(self, size: int | None = -1) -> bytes:
        """As the stream's readline, within the deadline."""
        return self._within(self.stream.readline, -1 if size is None else size)

    def readlines(self, hint: int | None = -1) -> list[bytes]:
        """As the stream's readlines, within the deadline."""
        return self._within(self.stream.readlines, -1 if hint is None else hint)

    def __iter__(self) -> Iterator[bytes]:
        while True:
            line = self.readline()
            if not line:
                return
            yield line


StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def timeout_problem() -> tuple[str, list[tuple[str, str]], bytes]:
    """The 408 problem+json answer (status line, headers, body) of a body not sent in time."""
    from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE

    body = json.dumps({"type": PROBLEM_BASE + "request-timeout", "title": "Request timeout",
                       "status": 408, "detail": BodyTimeout.description}).encode()
    return "408 Request Timeout", [("Content-Type", PROBLEM_MIMETYPE),
                                   ("Content-Length", str(len(body)))], body


class SlowBodyRefused(Exception):
    """A slow body over its client's cap (answered 429)."""


class SlowBodies:
    """The cap on the connections one client keeps waiting on their bodies, every process
    together: a body not in `grace` seconds after its headers counts (`SharedCounts`)
    until it is in or timed out; one more than `cap` is refused. Bodies that come at once,
    nearly all of them, never reach Redis."""

    def __init__(self, counts: SharedCounts, cap: int, grace: float = SLOW_BODY_GRACE_SECONDS,
                 trusted_proxies: int = 0) -> None:
        self.counts = counts
        self.cap = cap
        self.grace = grace
        self.trusted_proxies = trusted_proxies

    def read(self, environ: dict[str, Any], read: Callable[[], bytes]) -> bytes:
        """What `read` returns, read in a greenlet of its own while this one judges it:
        once the grace is over the body counts against its client's cap until it is in;
        over the cap the read is given up (SlowBodyRefused). Whatever `read` raises is
        raised here."""
        import gevent

        def attempt() -> tuple[bytes, Exception | None]:
            try:  # what it raises is handed over, not left to gevent to print as a failure
                return read(), None
            except Exception as exc:
                return b"", exc

        reading = gevent.spawn(attempt)
        reading.join(self.grace)
        if not reading.ready():
            group = client_of(environ, self.trusted_proxies)
            if not self.counts.admit(group, self.cap):
                reading.kill()
                raise SlowBodyRefused()
            try:
                reading.join()  # the read has its own deadline (BodyDeadline)
            finally:
                reading.kill()  # this greenlet killed meanwhile: so is the read
                self.counts.release(group)
        body, error = reading.get()
        if error is not None:
            raise error
        return body


def too_many_connections_problem(cap: int) -> tuple[str, list[tuple[str, str]], bytes]:
    """The 429 problem+json answer (status line, headers, body) to a slow body over its
    client's cap."""
    from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE

    body = json.dumps({
        "type": PROBLEM_BASE + "too-many-connections", "title": "Too many connections",
        "status": 429, "retry_after": RETRY_AFTER_CONNECTIONS_SECONDS,
        "detail": f"at most {cap} connections at once per client may wait on their "
                  "requests' bodies; send the bodies, or close one first"}).encode()
    return "429 Too Many Requests", [
        ("Content-Type", PROBLEM_MIMETYPE), ("Content-Length", str(len(body))),
        ("Retry-After", str(RETRY_AFTER_CONNECTIONS_SECONDS))], body


class UnreadableBody:
    """A WSGI input whose reads raise what reading the real body raised (a malformed
    chunked body: the app answers it 400, `api.parsing.body_bytes`)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def read(self, size: int | None = -1) -> bytes:
        raise self.error

    readline = read

    def readlines(self, hint: int | None = -1) -> list[bytes]:
        raise self.error

    def __iter__(self) -> Iterator[bytes]:
        raise self.error


class PrefixedInput:
    """A WSGI input: `prefix` (already read), then the rest of `stream`."""

    def __init__(self, prefix: bytes, stream: DeadlineInput) -> None:
        self.prefix = io.BytesIO(prefix)
        self.stream = stream

    def read(self, size: int | None = -1) -> bytes:
        """As a stream's read: at most `size` bytes (all the rest when negative or None)."""
        if size is None or size < 0:
            return self.prefix.read() + self.stream.read()
        return self.prefix.read(size) or self.stream.read(size)

    def readline(self, size: int | None = -1) -> bytes:
        """As a stream's readline."""
        line = self.prefix.readline(-1 if size is None else size)
        if line.endswith(b"\n") or (size is not None and 0 <= size <= len(line)):
            return line
        rest = -1 if size is None or size < 0 else size - len(line)
        return line + self.stream.readline(rest)

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line


class BodyDeadline:
    """WSGI middleware: each request's body must arrive within `seconds` of its headers.

    Every body the API accepts (a declared length up to `preread` bytes, or a chunked body
    up to that much) is read here, before the app is called: a client that sends its body
    slowly, or never, holds only its connection and a few kilobytes, never a rate limit
    count, a Redis connection or any of the app's work. Past the deadline the answer is 408
    problem+json. With `slow` set, a client keeps at most its cap of such connections
    (`SlowBodies`; beyond: 429). A larger body (a record to replay, or one the app refuses
    413) is read by the app itself, under the same deadline."""

    def __init__(self, app: WSGIApp, seconds: float, timer: Timer,
                 preread: int = PREREAD_BYTES, slow: SlowBodies | None = None) -> None:
        self.app = app
        self.seconds = seconds
        self.timer = timer
        self.preread = preread
        self.slow = slow

    def __call__(self, environ: dict[str, Any], start_response: StartResponse,
                 ) -> Iterable[bytes]:
        """Call the app once the body is in, or with a deadline on its input."""
        stream = DeadlineInput(environ["wsgi.input"], time.monotonic() + self.seconds,
                               self.timer)
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "HTTP_TRANSFER_ENCODING" in environ
        if not chunked and not (length.isdigit() and 0 < int(length) <= self.preread):
            environ["wsgi.input"] = stream  # no body, or a large one the app reads itself
            return self._answer(environ, start_response)

        def read() -> bytes:
            return _read_exactly(stream, self.preread + 1 if chunked else int(length))

        try:
            try:
                body = read() if self.slow is None else self.slow.read(environ, read)
                # A chunked body longer than `preread` (a record to replay): the app reads
                # the rest itself, under the same deadline.
                environ["wsgi.input"] = (PrefixedInput(body, stream)
                                         if len(body) > self.preread else io.BytesIO(body))
            except (BodyTimeout, SlowBodyRefused):
                raise
            except Exception as exc:  # the server's framing errors: the app answers 400
                environ["wsgi.input"] = UnreadableBody(exc)
        except BodyTimeout:
            return _answered(start_response, *timeout_problem())
        except SlowBodyRefused:
            assert self.slow is not None
            return _answered(start_response, *too_many_connections_problem(self.slow.cap))
        return self._answer(environ, start_response)

    def _answer(self, environ: dict[str, Any], start_response: StartResponse,
                ) -> Iterable[bytes]:
        """The app's answer; 408 should its own read of a body run out of time."""
        try:
            return self.app(environ, start_response)
        except BodyTimeout:
            return _answered(start_response, *timeout_problem())


def _answered(start_response: StartResponse, status: str, headers: list[tuple[str, str]],
              body: bytes) -> list[bytes]:
    start_response(status, headers)
    return [body]


def _read_exactly(stream: DeadlineInput, length: int) -> bytes:
    """`length` bytes of `stream`, or fewer if the client ended its body early (the app
    then finds the body shorter than declared, as it would have)."""
    parts: list[bytes] = []
    left = length
    while left > 0:
        chunk = stream.read(left)
        if not chunk:
            break
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


# Requests of one client one API process works on at once (BGB_REQUESTS_PER_CLIENT); the
# client's further requests wait their turn, costing no CPU. 0 turns it off.
DEFAULT_REQUESTS_PER_CLIENT = 4


def _is_watcher(environ: dict[str, Any]) -> bool:
    """A long poll or an event stream: it waits, holding a watcher's place (api.watchers
    caps those), and must not hold its client's turn meanwhile."""
    return (environ.get("PATH_INFO", "").endswith("/events")
            or "wait_version=" in environ.get("QUERY_STRING", ""))


class FairShare:
    """WSGI middleware: a process works on at most `per_client` requests of one client at
    once. A client flooding the server over many connections (even with requests refused
    429) then takes its share of the process's turns, not all of them: the other clients'
    requests wait behind a few of its requests, not behind all of them.

    The client is the connection's address (IPv6 /64), or behind `trusted_proxies`
    proxies the address they put in X-Forwarded-For (as werkzeug's ProxyFix reads it)."""

    def __init__(self, app: WSGIApp, per_client: int, trusted_proxies: int = 0) -> None:
        self.app = app
        self.per_client = per_client
        self.trusted_proxies = trusted_proxies
        self._lock = threading.Lock()
        self._turns: dict[str, tuple[threading.BoundedSemaphore, int]] = {}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse,
                 ) -> Iterable[bytes]:
        """Call the app in one of the client's turns (a watcher: at once)."""
        if _is_watcher(environ):
            return self.app(environ, start_response)
        client = client_of(environ, self.trusted_proxies)
        with self._lock:
            turns, waiting = self._turns.get(client) or (
                threading.BoundedSemaphore(self.per_client), 0)
            self._turns[client] = (turns, waiting + 1)
        try:
            with turns:
                return self.app(environ, start_response)
        finally:
            with self._lock:
                turns, waiting = self._turns[client]
                if waiting <= 1:
                    del self._turns[client]
                else:
                    self._turns[client] = (turns, waiting - 1)


def gevent_patched() -> bool:
    """Whether gevent patched this process (a gevent gunicorn worker); never imports gevent:
    a process that did not load it is not patched."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("socket"))


def guarded(app: WSGIApp) -> WSGIApp:
    """`app` behind fair turns per client (BGB_REQUESTS_PER_CLIENT), and the body deadline
    (BGB_BODY_TIMEOUT) with the cap on slow bodies (BGB_MAX_CONNECTIONS_PER_CLIENT), as
    set; for a gevent process (the deadline is a gevent.Timeout, the cap's judge a
    greenlet)."""
    import gevent

    trusted_proxies = int(setting("TRUSTED_PROXIES", 0))
    per_client = int(setting("REQUESTS_PER_CLIENT", DEFAULT_REQUESTS_PER_CLIENT))
    if per_client > 0:
        app = FairShare(app, per_client, trusted_proxies)
    seconds = setting("BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT)
    if seconds > 0:
        app = BodyDeadline(app, seconds, gevent.Timeout, slow=slow_bodies(trusted_proxies))
    return app


def slow_bodies(trusted_proxies: int) -> SlowBodies | None:
    """The cap on slow bodies as set (None when off), its counts in the Redis of
    BGB_COUNTS_REDIS_URL (else the game store's; on a cluster the queues' Redis, as the
    counts' scripts touch a set shared by every process), this process's heartbeat kept
    there by a greenlet. Behind proxies the client is the forwarded address."""
    import gevent

    cap = int(setting("MAX_CONNECTIONS_PER_CLIENT", DEFAULT_MAX_CONNECTIONS_PER_CLIENT))
    url = os.environ.get("BGB_COUNTS_REDIS_URL") or ""
    if not url and os.environ.get("REDIS_URL"):
        from api.redis_conn import Topology

        topology = Topology.from_env()
        url = topology.queue_url if topology.cluster else os.environ["REDIS_URL"]
    if cap <= 0 or not url:
        return None
    counts = SharedCounts(counts_client(url), "connections")
    gevent.spawn(_heartbeats, counts)
    return SlowBodies(counts, cap, trusted_proxies=trusted_proxies)


def counts_client(url: str) -> redis.Redis:
    """A client of the counts' Redis: a few connections, waited for (a burst of slow
    bodies shares them), each command with the requests' Redis timeout."""
    from api.lean_script import retry_policy
    from api.redis_conn import is_sentinel, queue_client

    timeout = float(os.environ.get("BGB_REDIS_TIMEOUT") or 0.5)
    if is_sentinel(url):  # the queues' Redis behind Sentinel (a cluster's)
        return queue_client(url, timeout=timeout)
    return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
        url, max_connections=COUNTS_CONNECTIONS, timeout=timeout, socket_timeout=timeout,
        socket_connect_timeout=timeout, retry=retry_policy()))


def _heartbeats(counts: SharedCounts) -> None:
    """Keep this process's heartbeat among the counters, as long as the process lives."""
    import gevent

    while True:
        try:
            counts.heartbeat()
        except Exception as exc:  # Redis away: the counts fall back to this process
            log.debug("%s counts heartbeat failed: %r", counts.kind, exc)
        gevent.sleep(HEARTBEAT_SECONDS)
