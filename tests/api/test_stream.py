"""Following a game: long polls and server-sent events (resumable with Last-Event-ID), the
watchers' limits and their wake-ups."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api import keys
from api.events import ClientGone, ClientSocket
from tests.api.conftest import Created, create, move, problem, sse_events


def _later(delay: float, action: Any) -> threading.Thread:
    def run() -> None:
        time.sleep(delay)
        action()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _read_stream(client: FlaskClient, created: Created, last_id: str | None = None,
                 until: int | None = None) -> str:
    headers = {"Last-Event-ID": last_id} if last_id is not None else {}
    response = client.get(f"/v1/games/{created.id}/events", headers=headers, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if until is not None and any(int(e["id"]) >= until for e in sse_events(text)):
            break
    response.close()
    return text


def test_long_poll_answers_when_a_move_lands(app: Flask, client: FlaskClient) -> None:
    created = create(client)
    mover = app.test_client()
    thread = _later(0.3, lambda: move(mover, created, 0, 0))
    response = client.get(f"/v1/games/{created.id}?wait_version=0&timeout=20",
                          headers=created.auth(1))
    thread.join()
    assert response.status_code == 200
    body = response.get_json()
    # Woken by the move: after the timeout it would answer version 0.
    assert body["version"] == 1 and body["to_act"] == 1 and body["legal_moves"]


def test_long_poll_times_out_with_the_same_version(client: FlaskClient) -> None:
    created = create(client)
    response = client.get(f"/v1/games/{created.id}?wait_version=0&timeout=0.3")
    assert response.status_code == 200 and response.get_json()["version"] == 0
    # A version already newer answers at once.
    move(client, created, 0, 0)
    assert client.get(f"/v1/games/{created.id}?wait_version=0").get_json()["version"] == 1


def test_sse_replays_from_last_event_id_and_ends_with_the_game(client: FlaskClient) -> None:
    created = create(client, players=1)
    for version, kind in enumerate(["draw", "draw", "draw", "stop"]):
        assert move(client, created, 0, version, kind).status_code == 200
    events = sse_events(_read_stream(client, created, last_id="1"))
    assert [e["id"] for e in events] == ["2", "3", "4"]
    assert all(e["event"] == "version" for e in events)
    assert events[0]["data"] == {"version": 2, "status": "active", "to_act": 0}
    assert events[-1]["data"] == {"version": 4, "status": "finished", "to_act": None}
    # Without Last-Event-ID: the current version only.
    assert [e["id"] for e in sse_events(_read_stream(client, created))] == ["4"]


def test_sse_with_view_brings_the_seats_game_on_the_current_version(
        client: FlaskClient) -> None:
    created = create(client, players=2)
    for version in range(3):
        assert move(client, created, version % 2, version).status_code == 200
    url = f"/v1/games/{created.id}/events?view=1"
    problem(client.get(url), 401, "unauthorized")
    problem(client.get(url, headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    problem(client.get(f"/v1/games/{created.id}/events?view=maybe", headers=created.auth(1)),
            422, "validation-error")
    response = client.get(url, headers={**created.auth(1), "Last-Event-ID": "1"},
                          buffered=False)
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if any(e["id"] == "3" for e in sse_events(text)):
            break
    response.close()
    events = sse_events(text)
    # The skipped version 2 comes from the log, without a game; the current one with it.
    assert [e["id"] for e in events] == ["2", "3"] and "current" not in events[0]["data"]
    current = events[1]["data"]["current"]
    read = client.get(f"/v1/games/{created.id}", headers=created.auth(1)).get_json()
    assert current == read and current["seat"] == 1 and current["legal_moves"]
    assert current["view"]["hands"][0] is None  # seat 0's hand stays hidden


def test_sse_streams_new_versions_live(app: Flask, client: FlaskClient) -> None:
    created = create(client, players=2)
    mover = app.test_client()

    def play() -> None:
        for version in range(3):
            move(mover, created, version % 2, version)
            time.sleep(0.1)

    response = client.get(f"/v1/games/{created.id}/events", buffered=False)
    text, thread = "", None
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        events = sse_events(text)
        if events and thread is None:
            # The stream has started (version 0 sent): now the moves may land.
            thread = _later(0.05, play)
        if any(int(e["id"]) >= 3 for e in events):
            break
    response.close()
    assert thread is not None
    thread.join()
    events = sse_events(text)
    assert [e["id"] for e in events] == ["0", "1", "2", "3"]
    assert [e["data"]["to_act"] for e in events] == [0, 1, 0, 1]


def test_sse_resume_after_a_disconnect_loses_nothing(app: Flask, client: FlaskClient) -> None:
    created = create(client, players=1)
    first = sse_events(_read_stream(client, created, until=0))
    assert [e["id"] for e in first] == ["0"]
    for version in range(3):
        move(client, created, 0, version)
    resumed = sse_events(_read_stream(client, created, last_id=first[-1]["id"], until=3))
    assert [e["id"] for e in resumed] == ["1", "2", "3"]


def test_sse_sends_heartbeats_while_idle(client: FlaskClient) -> None:
    created = create(client)
    response = client.get(f"/v1/games/{created.id}/events", buffered=False)
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if ": heartbeat" in text:
            break
    response.close()
    assert [e["id"] for e in sse_events(text)] == ["0"]
    assert ": heartbeat" in text


# -- watchers: admitted within limits, released when done, woken without pub/sub ------------


def _stream(client: FlaskClient, created: Created, address: str = "10.0.0.1") -> Any:
    return client.get(f"/v1/games/{created.id}/events", buffered=False,
                      environ_base={"REMOTE_ADDR": address})


def test_streams_per_client_are_capped_with_429_then_freed(app: Flask,
                                                           client: FlaskClient) -> None:
    app.config["MAX_STREAMS_PER_CLIENT"] = 2
    created = create(client)
    held = [_stream(client, created), _stream(client, created)]
    assert all(r.status_code == 200 for r in held)
    refused = problem(_stream(client, created), 429, "too-many-streams")
    assert "2" in refused["detail"]
    assert int(_stream(client, created).headers["Retry-After"]) > 0
    long_poll = client.get(f"/v1/games/{created.id}?wait_version=0&timeout=5",
                           environ_base={"REMOTE_ADDR": "10.0.0.1"})
    problem(long_poll, 429, "too-many-streams")
    # Another client is not affected; a closed stream frees its place.
    other = _stream(client, created, "10.0.0.2")
    assert other.status_code == 200
    other.close()
    held.pop().close()
    again = _stream(client, created)
    assert again.status_code == 200
    again.close()
    for response in held:
        response.close()
    assert app.extensions["bgb-watchers"].open == 0


def test_the_streams_of_an_ipv6_64_count_as_one_client(app: Flask,
                                                      client: FlaskClient) -> None:
    app.config["MAX_STREAMS_PER_CLIENT"] = 2
    created = create(client)
    held = [_stream(client, created, "2001:db8:5:6::1"), _stream(client, created,
                                                                 "2001:db8:5:6:ff::2")]
    assert all(r.status_code == 200 for r in held)
    problem(_stream(client, created, "2001:db8:5:6::3"), 429, "too-many-streams")
    other = _stream(client, created, "2001:db8:5:7::1")  # the next /64
    assert other.status_code == 200
    for response in [*held, other]:
        response.close()
    assert app.extensions["bgb-watchers"].open == 0


def test_watchers_above_the_ceiling_are_shed_with_503(app: Flask, client: FlaskClient) -> None:
    app.config["MAX_WATCHERS"] = 2
    created = create(client)
    held = [_stream(client, created, f"10.0.1.{i}") for i in range(2)]
    shed = _stream(client, created, "10.0.1.9")
    problem(shed, 503, "service-unavailable")
    assert int(shed.headers["Retry-After"]) > 0
    # Plain reads and moves are not watchers: they still answer.
    assert client.get(f"/v1/games/{created.id}").status_code == 200
    assert move(client, created, 0, 0).status_code == 200
    for response in held:
        response.close()
    assert _stream(client, created, "10.0.1.9").status_code == 200


def test_a_stream_never_started_still_frees_its_place(app: Flask, client: FlaskClient) -> None:
    created = create(client)
    response = _stream(client, created)
    assert app.extensions["bgb-watchers"].open == 1
    response.close()  # closed before a single byte was read
    assert app.extensions["bgb-watchers"].open == 0


def test_idle_stream_reads_redis_only_when_woken(app: Flask, client: FlaskClient,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(client)
    store = app.extensions["bgb"].store
    real_head = store.head
    reads = [0]

    def counted(game_id: str) -> Any:
        reads[0] += 1
        return real_head(game_id)

    monkeypatch.setattr(store, "head", counted)
    response = _stream(client, created)
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.count(": heartbeat") >= 5:  # a second of heartbeats (0.2 s apart)
            break
    response.close()
    # The first read, at most one more when the listener subscribed: none per heartbeat.
    assert reads[0] <= 2, reads[0]


def test_a_version_never_announced_is_seen_by_the_safety_sweep(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    # Pub/sub is only a wake-up: a version written without an announcement (a lost
    # message) is seen at the next sweep of the waited games.
    created = create(client)
    watcher = app.extensions["bgb"].watcher
    found: list[Any] = []
    waiter = threading.Thread(target=lambda: found.append(watcher.wait(created.id, 0, 20)))
    waiter.start()
    _until(lambda: watcher.waiting() == 1)
    time.sleep(0.3)  # asleep after its first read (version 0)
    redis_client.hset(keys.game_state(created.id), "version", 7)  # never announced
    time.sleep(0.3)
    assert not found  # nothing woke it yet
    watcher.sweep()
    waiter.join(timeout=5)
    assert found and found[0] is not None and found[0].version == 7


def test_waiters_woken_together_share_one_read(app: Flask, client: FlaskClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(client)
    store = app.extensions["bgb"].store
    watcher = app.extensions["bgb"].watcher
    real_head = store.head
    reads = [0]

    def counted(game_id: str) -> Any:
        reads[0] += 1
        time.sleep(0.05)  # a slow read: every waiter is woken while it is in flight
        return real_head(game_id)

    found: list[Any] = []
    waiters = [threading.Thread(target=lambda: found.append(watcher.wait(created.id, 0, 20)))
               for _ in range(20)]
    for waiter in waiters:
        waiter.start()
    _until(lambda: watcher.waiting() == 20)
    time.sleep(0.3)
    monkeypatch.setattr(store, "head", counted)
    move(client, created, 0, 0)
    for waiter in waiters:
        waiter.join(timeout=10)
    assert len(found) == 20 and all(head.version == 1 for head in found)
    assert reads[0] <= 3, reads[0]  # not one each


def test_every_waiter_is_woken_when_the_listener_resubscribes(
        app: Flask, client: FlaskClient, redis_client: redis.Redis,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A message lost while the listener was disconnected costs only latency: on
    # resubscribing it wakes every waiter, which reads the head again.
    created = create(client)
    watcher = app.extensions["bgb"].watcher
    monkeypatch.setattr(watcher, "sweep", lambda: None)  # only the resubscription can wake it
    found: list[Any] = []
    waiter = threading.Thread(target=lambda: found.append(watcher.wait(created.id, 0, 20)))
    waiter.start()
    _until(lambda: watcher.waiting() == 1 and _pubsub_clients(redis_client))
    time.sleep(0.2)  # the waiter is asleep: its first read saw version 0
    redis_client.hset(keys.game_state(created.id), "version", 3)  # never announced
    redis_client.client_kill_filter(_type="pubsub")
    waiter.join(timeout=15)
    # Version 3 was never announced and the sweep is off: only the resubscription (backoff
    # <= 5 s) woke the waiter, which would otherwise return version 0 after 20 s.
    assert found and found[0] is not None and found[0].version == 3


def _pubsub_clients(redis_client: redis.Redis) -> bool:
    return any(int(c.get("sub", 0)) > 0 for c in redis_client.client_list())


def test_a_process_subscribes_to_the_games_waited_on_and_only_those(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    # A move of a game nobody waits on here costs the process nothing: no pattern
    # subscription, one channel per waited game, dropped when its last waiter leaves.
    waited, other = create(client), create(client)
    watcher = app.extensions["bgb"].watcher
    found: list[Any] = []
    waiter = threading.Thread(target=lambda: found.append(watcher.wait(waited.id, 0, 20)))
    waiter.start()

    def subscribers(game_id: str) -> int:
        return int(dict(redis_client.pubsub_numsub(keys.version_channel(game_id)))[
            keys.version_channel(game_id).encode()])

    _until(lambda: subscribers(waited.id) == 1)
    assert subscribers(other.id) == 0 and redis_client.pubsub_numpat() == 0
    move(client, other, 0, 0)
    move(client, waited, 0, 0)
    waiter.join(timeout=10)
    assert found and found[0] is not None and found[0].version == 1
    _until(lambda: subscribers(waited.id) == 0)


def _until(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def test_a_client_socket_tells_when_its_client_has_gone() -> None:
    server, far = socket.socketpair()
    with server:
        client = ClientSocket(server)
        assert not client.watching  # no gevent here: the waiter polls `gone`
        assert not client.gone()
        far.sendall(b"GET / HTTP/1.1\r\n")  # more input (pipelined) is not a departure
        assert not client.gone()
        far.close()
        server.recv(64)
        assert client.gone()


def test_a_waiter_whose_client_went_ends_within_a_check(app: Flask, client: FlaskClient,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ClientSocket, "CHECK_SECONDS", 0.05)
    created = create(client)
    server, far = socket.socketpair()
    with server:
        threading.Timer(0.2, far.close).start()
        # ClientGone, not a return after the 10 s timeout: a check saw the client gone.
        with pytest.raises(ClientGone):
            app.extensions["bgb"].watcher.wait(created.id, 0, 10, ClientSocket(server))
    assert app.extensions["bgb"].watcher.waiting() == 0
