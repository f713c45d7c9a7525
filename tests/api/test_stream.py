"""Following a game: long polls and server-sent events (resumable with Last-Event-ID)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.api.conftest import Created, create, move


def _later(delay: float, action: Any) -> threading.Thread:
    def run() -> None:
        time.sleep(delay)
        action()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _events(text: str) -> list[dict[str, Any]]:
    """The version events of an SSE text, as {"id", "event", "data"}."""
    events = []
    for block in text.split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            if name in ("id", "event"):
                fields[name] = value
            elif name == "data":
                fields["data"] = json.loads(value)
        if "event" in fields:
            events.append(fields)
    return events


def _read_stream(client: FlaskClient, created: Created, last_id: str | None = None,
                 until: int | None = None) -> str:
    headers = {"Last-Event-ID": last_id} if last_id is not None else {}
    response = client.get(f"/v1/games/{created.id}/events", headers=headers, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if until is not None and any(int(e["id"]) >= until for e in _events(text)):
            break
    response.close()
    return text


def test_long_poll_answers_when_a_move_lands(app: Flask, client: FlaskClient) -> None:
    created = create(client)
    mover = app.test_client()
    thread = _later(0.3, lambda: move(mover, created, 0, 0))
    started = time.monotonic()
    response = client.get(f"/v1/games/{created.id}?wait_version=0&timeout=20",
                          headers=created.auth(1))
    waited = time.monotonic() - started
    thread.join()
    assert response.status_code == 200
    body = response.get_json()
    assert body["version"] == 1 and body["to_act"] == 1 and body["legal_moves"]
    assert waited < 15  # woken by the move, not by the timeout


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
    events = _events(_read_stream(client, created, last_id="1"))
    assert [e["id"] for e in events] == ["2", "3", "4"]
    assert all(e["event"] == "version" for e in events)
    assert events[0]["data"] == {"version": 2, "status": "active", "to_act": 0}
    assert events[-1]["data"] == {"version": 4, "status": "finished", "to_act": None}
    # Without Last-Event-ID: the current version only.
    assert [e["id"] for e in _events(_read_stream(client, created))] == ["4"]


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
        events = _events(text)
        if events and thread is None:
            # The stream has started (version 0 sent): now the moves may land.
            thread = _later(0.05, play)
        if any(int(e["id"]) >= 3 for e in events):
            break
    response.close()
    assert thread is not None
    thread.join()
    events = _events(text)
    assert [e["id"] for e in events] == ["0", "1", "2", "3"]
    assert [e["data"]["to_act"] for e in events] == [0, 1, 0, 1]


def test_sse_resume_after_a_disconnect_loses_nothing(app: Flask, client: FlaskClient) -> None:
    created = create(client, players=1)
    first = _events(_read_stream(client, created, until=0))
    assert [e["id"] for e in first] == ["0"]
    for version in range(3):
        move(client, created, 0, version)
    resumed = _events(_read_stream(client, created, last_id=first[-1]["id"], until=3))
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
    assert [e["id"] for e in _events(text)] == ["0"]
    assert ": heartbeat" in text
