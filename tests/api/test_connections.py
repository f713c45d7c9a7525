"""What a client may hold (issue 27): connections counted across processes in Redis, fair
turns per client in one process, and the body deadline with its cap on slow bodies, here
in greenlets with a real Redis (api.connections; end to end under gunicorn's gevent worker
in tests/e2e/test_slow_clients.py)."""

from __future__ import annotations

import io
import threading
import time
from typing import Any

import redis

from api.connections import BodyDeadline, FairShare, SharedCounts, SlowBodies, client_of
from api.lean_script import retry_policy


def test_the_cap_holds_across_processes(redis_client: redis.Redis) -> None:
    # Two processes' counters on one Redis: the client's total is what is capped.
    first, second = (SharedCounts(redis_client, "connections") for _ in range(2))
    assert all(first.admit("192.0.2.1", 3) for _ in range(2))
    assert second.admit("192.0.2.1", 3)
    assert not second.admit("192.0.2.1", 3) and not first.admit("192.0.2.1", 3)
    assert second.admit("192.0.2.2", 3)  # another client has its own
    first.release("192.0.2.1")
    assert second.admit("192.0.2.1", 3)
    assert (first.held("192.0.2.1"), second.held("192.0.2.1")) == (1, 2)


def test_a_burst_of_admissions_in_batches_keeps_the_cap_exact(
        redis_client: redis.Redis) -> None:
    # 60 connections of one client and 20 of another arrive at once in two processes: the
    # counts go to Redis in shared pipelines, each still judged alone against the cap.
    processes = [SharedCounts(redis_client, "connections") for _ in range(2)]
    admitted: list[tuple[str, bool]] = []
    start = threading.Barrier(80)

    def connect(index: int) -> None:
        group = "192.0.2.1" if index < 60 else "192.0.2.2"
        start.wait()
        admitted.append((group, processes[index % 2].admit(group, 25)))

    threads = [threading.Thread(target=connect, args=(i,)) for i in range(80)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(ok for group, ok in admitted if group == "192.0.2.1") == 25
    assert all(ok for group, ok in admitted if group == "192.0.2.2")
    assert sum(p.held("192.0.2.1") for p in processes) == 25
    for process in processes:  # every release is counted too
        for _ in range(process.held("192.0.2.1")):
            process.release("192.0.2.1")
    assert processes[0].admit("192.0.2.1", 1)


def test_a_dead_processs_counts_lapse_with_its_heartbeat(redis_client: redis.Redis) -> None:
    dead = SharedCounts(redis_client, "connections", stale_after=1.0)
    alive = SharedCounts(redis_client, "connections", stale_after=1.0)
    assert dead.admit("2001:db8::/64", 2) and dead.admit("2001:db8::/64", 2)
    assert not alive.admit("2001:db8::/64", 2)
    time.sleep(1.2)  # the dead process sends no heartbeat any more
    alive.heartbeat()
    assert alive.admit("2001:db8::/64", 2) and alive.admit("2001:db8::/64", 2)
    assert not alive.admit("2001:db8::/64", 2)


def test_without_redis_the_cap_holds_per_process() -> None:
    gone = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2,
                       retry=retry_policy())
    counts = SharedCounts(gone, "connections")
    assert counts.admit("192.0.2.9", 2) and counts.admit("192.0.2.9", 2)
    assert not counts.admit("192.0.2.9", 2)
    counts.release("192.0.2.9")
    assert counts.admit("192.0.2.9", 2)


def _environ(address: str, path: str = "/v1/games-catalog", query: str = "") -> dict[str, Any]:
    return {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query,
            "REMOTE_ADDR": address, "wsgi.input": io.BytesIO()}


def test_a_process_works_on_a_few_requests_of_one_client_at_once() -> None:
    release = threading.Event()
    lock = threading.Lock()
    busy: dict[str, int] = {}
    most: dict[str, int] = {}

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        client = environ.get("HTTP_X_FORWARDED_FOR") or environ["REMOTE_ADDR"]
        with lock:
            busy[client] = busy.get(client, 0) + 1
            most[client] = max(most.get(client, 0), busy[client])
        release.wait(5)
        with lock:
            busy[client] -= 1
        start_response("200 OK", [])
        return [b"ok"]

    shared = FairShare(app, per_client=2)
    requests = [_environ("192.0.2.1") for _ in range(8)]
    requests += [_environ("2001:db8::1"), _environ("2001:db8::2")]  # one /64: one client
    # Long polls and streams wait without a turn.
    requests += [_environ("192.0.2.1", "/v1/games/abc/events"),
                 _environ("192.0.2.1", "/v1/games/abc", "wait_version=3")]
    threads = [threading.Thread(target=shared, args=(e, lambda *a: None)) for e in requests]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    with lock:
        # Two of the flood's eight at work (plus its two watchers), both of the other's.
        assert busy["192.0.2.1"] == 4
        assert busy["2001:db8::1"] + busy["2001:db8::2"] == 2
    release.set()
    for thread in threads:
        thread.join(10)
    assert most["192.0.2.1"] == 4 and all(v == 0 for v in busy.values())
    assert shared._turns == {}  # every turn given back


def test_behind_a_proxy_the_client_is_the_forwarded_address() -> None:
    seen: list[str] = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen.append(environ["HTTP_X_FORWARDED_FOR"])
        return [b"ok"]

    shared = FairShare(app, per_client=1, trusted_proxies=1)
    environ = dict(_environ("10.0.0.2"), HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5")
    assert client_of(environ, 1) == "203.0.113.5" and client_of(environ) == "10.0.0.2"
    shared(environ, lambda *a: None)
    assert seen == ["6.6.6.6, 203.0.113.5"]


class _Body:
    """A request body that arrives `after` seconds from the first read (None: never),
    waiting as a gevent socket would (cooperatively)."""

    def __init__(self, data: bytes, after: float | None) -> None:
        self.data = data
        self.after = after

    def read(self, size: int = -1) -> bytes:
        import gevent

        if self.after is None:
            gevent.sleep(3600)
        gevent.sleep(self.after)
        data, self.data = self.data, b""
        return data


def _post(address: str, body: _Body, length: int = 11) -> dict[str, Any]:
    return {"REQUEST_METHOD": "POST", "PATH_INFO": "/v1/games", "QUERY_STRING": "",
            "REMOTE_ADDR": address, "CONTENT_LENGTH": str(length), "wsgi.input": body}


def test_slow_bodies_over_their_clients_cap_are_refused_and_fast_ones_never_counted(
        redis_client: redis.Redis) -> None:
    import gevent

    bodies: list[bytes] = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        bodies.append(environ["wsgi.input"].read())
        start_response("200 OK", [])
        return [b"ok"]

    counts = SharedCounts(redis_client, "connections")
    deadline = BodyDeadline(app, 1.0, gevent.Timeout,
                            slow=SlowBodies(counts, cap=2, grace=0.05))
    statuses: dict[str, list[str]] = {}

    def request(name: str, environ: dict[str, Any]) -> None:
        def start_response(status: str, headers: list[tuple[str, str]]) -> None:
            statuses.setdefault(name, []).append(status)
            if status.startswith("429"):
                assert dict(headers)["Retry-After"] == "5"

        answer = b"".join(deadline(environ, start_response))
        if statuses[name][-1].startswith("429"):
            assert b"too-many-connections" in answer

    # A body that is there at once: served, never counted (nothing in Redis for it).
    request("fast", _post("192.0.2.7", _Body(b'{"a": true}', 0)))
    assert statuses["fast"] == ["200 OK"] and bodies == [b'{"a": true}']
    assert redis_client.keys("*connections*client:192.0.2.7") == []
    # Three slow bodies of one client, its cap 2: two read whole, one refused after the
    # grace; another client's slow body is its own.
    slow = [gevent.spawn(request, f"slow{i}", _post("192.0.2.1", _Body(b"y" * 11, 0.4)))
            for i in range(3)]
    other = gevent.spawn(request, "other", _post("192.0.2.2", _Body(b"x" * 11, 0.4)))
    gevent.joinall([*slow, other], timeout=10)
    answers = sorted(statuses[f"slow{i}"][0][:3] for i in range(3))
    assert answers == ["200", "200", "429"] and statuses["other"] == ["200 OK"]
    assert counts.held("192.0.2.1") == 0 and counts.held("192.0.2.2") == 0  # released
    assert counts.admit("192.0.2.1", 2) and counts.admit("192.0.2.1", 2)
    # A body that never comes: 408 at the deadline, its count given back.
    counts.release("192.0.2.1")
    counts.release("192.0.2.1")
    request("never", _post("192.0.2.1", _Body(b"", None)))
    assert statuses["never"][0].startswith("408")
    assert counts.held("192.0.2.1") == 0


def test_a_chunked_body_is_read_before_the_app_and_a_broken_one_left_to_it() -> None:
    import gevent

    seen: list[Any] = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        try:
            seen.append(environ["wsgi.input"].read())
        except ValueError as exc:  # what the server raised, raised again for the app
            seen.append(exc)
        start_response("200 OK", [])
        return [b"ok"]

    class Broken:
        def read(self, size: int = -1) -> bytes:
            raise ValueError("invalid chunk size")

    deadline = BodyDeadline(app, 1.0, gevent.Timeout)
    chunked = {"REQUEST_METHOD": "POST", "PATH_INFO": "/v1/games", "REMOTE_ADDR": "192.0.2.3",
               "HTTP_TRANSFER_ENCODING": "chunked"}
    b"".join(deadline(dict(chunked, **{"wsgi.input": _Body(b"{}", 0)}), lambda *a: None))
    b"".join(deadline(dict(chunked, **{"wsgi.input": Broken()}), lambda *a: None))
    assert seen[0] == b"{}" and isinstance(seen[1], ValueError)
    # Longer than what is read ahead (a record to replay): the app reads all of it.
    longer = BodyDeadline(app, 1.0, gevent.Timeout, preread=8)
    b"".join(longer(dict(chunked, **{"wsgi.input": io.BytesIO(b"0123456789" * 3)}),
                    lambda *a: None))
    assert seen[2] == b"0123456789" * 3
