"""One stream per account (`GET /v1/players/me/stream`): who may open it, the events in
order, `your_turn` only while current (with the seat's game on `?view=1`), resuming with
Last-Event-ID, and a tournament's external entrant's stream."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from ai_worker.tournaments import advance
from api import keys
from tests.api.conftest import problem, sse_events

STREAM = "/v1/players/me/stream"


def _read(client: FlaskClient, auth: dict[str, str], count: int, query: str = "",
          last_id: str | None = None) -> list[dict[str, Any]]:
    """The first `count` events of the stream (fewer if it ends first)."""
    headers = dict(auth, **({"Last-Event-ID": last_id} if last_id else {}))
    response = client.get(STREAM + query, headers=headers, buffered=False)
    assert response.status_code == 200, response.data[:300]
    assert response.mimetype == "text/event-stream"
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if len(sse_events(text)) >= count:
            break
    response.close()
    return sse_events(text)[:count]


def _player(client: FlaskClient) -> dict[str, str]:
    key = client.post("/v1/players", json={"name": "Ada"}).get_json()["key"]
    return {"Authorization": f"Bearer {key}"}


def _claimed_game(client: FlaskClient, auth: dict[str, str]) -> dict[str, Any]:
    """A toy game whose seat 0 (to act first) the player claims; seat 1 is anonymous."""
    response = client.post("/v1/games", headers=auth, json={
        "game": "toy-pontoon", "options": {"players": 2}, "seed": 7,
        "seats": [{"kind": "human", "claim": True}, {"kind": "human"}]})
    assert response.status_code == 201
    return response.get_json()


def _move(client: FlaskClient, game: dict[str, Any], seat: int, version: int,
          kind: str = "draw") -> dict[str, Any]:
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    response = client.post(f"/v1/games/{game['id']}/moves",
                           headers={"Authorization": f"Bearer {token}"},
                           json={"move": {"type": kind}, "version": version})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_stream_needs_an_account(client: FlaskClient) -> None:
    problem(client.get(STREAM), 401, "unauthorized")
    problem(client.get(STREAM, headers={"Authorization": "Bearer bgbp_AAAAAAAAAAAAAAAA_"
                                                         "xxxxxxxxxxxxxxxxxxxxxxxx"}),
            401, "unauthorized")
    game = _claimed_game(client, _player(client))
    seat_token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    problem(client.get(STREAM, headers=seat_token), 401, "unauthorized")  # a seat's, no key
    problem(client.get(STREAM + "?tournament=feedfeedfeedfeed", headers=seat_token),
            404, "not-found")
    problem(client.get(STREAM, headers=dict(_player(client), **{"Last-Event-ID": "7"})),
            400, "bad-request")


def test_events_come_in_order_and_a_turn_only_while_current(client: FlaskClient) -> None:
    auth = _player(client)
    game = _claimed_game(client, auth)
    first = _read(client, auth, 2)
    assert [e["event"] for e in first] == ["game_started", "your_turn"]
    started, turn = (e["data"] for e in first)
    assert started["game_id"] == game["id"] and started["seat"] == 0
    assert started["token"] == game["seats"][0]["token"]
    assert (turn["seat"], turn["version"]) == (0, 0) and "current" not in turn
    assert first[0]["id"] < first[1]["id"]
    _move(client, game, 0, 0)  # seat 1's turn: no event for the player
    # The your_turn at version 0 is gone: a fresh stream leaves it out.
    again = _read(client, auth, 1)
    assert [e["event"] for e in again] == ["game_started"]
    _move(client, game, 1, 1)  # seat 0's turn again
    events = _read(client, auth, 2)
    assert [e["event"] for e in events] == ["game_started", "your_turn"]
    assert events[1]["data"]["version"] == 2
    # With ?view=1 the turn carries the seat's game: its view and legal moves.
    shown = _read(client, auth, 2, "?view=1")[1]["data"]["current"]
    assert shown["version"] == 2 and shown["seat"] == 0
    assert [m["type"] for m in shown["legal_moves"]] == ["draw", "stop"]
    assert shown["view"]["hands"][1] is None  # the other seat's hand stays hidden


def test_a_stream_resumes_after_its_last_event_id(client: FlaskClient) -> None:
    auth = _player(client)
    game = _claimed_game(client, auth)
    seen = _read(client, auth, 2)
    version = 0
    # Both stop: the game ends; the player's stream gets game_over with the result.
    version = _move(client, game, 0, version, "stop")["version"]
    over = _move(client, game, 1, version, "stop")
    assert over["status"] == "finished"
    resumed = _read(client, auth, 1, last_id=seen[-1]["id"])
    assert [e["event"] for e in resumed] == ["game_over"]
    assert resumed[0]["data"]["result"]["scores"] == over["result"]["scores"]
    assert resumed[0]["id"] > seen[-1]["id"]
    # Another player's stream holds none of it.
    assert _read(client, _player(client), 1) == []


def test_an_external_entrant_follows_its_tournament(client: FlaskClient,
                                                    redis_client: redis.Redis) -> None:
    body = client.post("/v1/tournaments", json={
        "game": "toy-pontoon", "options": {"players": 2}, "seed": 11,
        "entrants": [{"kind": "external", "name": "ann"}, {"kind": "bot", "bot": "random"}],
        "deals": 1}).get_json()
    tournament_id = body["id"]
    auth = {"Authorization": f"Bearer {body['entrant_tokens']['ann']}"}
    query = f"?tournament={tournament_id}&view=1"
    problem(client.get(STREAM + query, headers={"Authorization": "Bearer nope"}),
            401, "unauthorized")
    problem(client.get(STREAM + query, headers=_player(client)), 403, "forbidden")
    advance(tournament_id, redis_client)
    events = _read(client, auth, 2, query)
    assert [e["event"] for e in events] == ["tournament_started", "game_started"]
    started = events[1]["data"]
    assert started["tournament_id"] == tournament_id and started["token"]
    # The game the stream announced is the entrant's, as the tournament lists it.
    games = client.get(f"/v1/tournaments/{tournament_id}/games",
                       headers=auth).get_json()["games"]
    assert started["game_id"] in {g["game_id"] for g in games}
    assert redis_client.xlen(keys.account_events(f"entrant:{tournament_id}:0")) >= 2


def test_an_idle_stream_reads_nothing_until_an_event_wakes_it(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    auth = _player(client)
    game = _claimed_game(client, auth)
    svc = app.extensions["bgb"]
    real_xread = svc.redis.xread
    reads = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads[0] += 1
        return real_xread(*args, **kwargs)

    monkeypatch.setattr(svc.redis, "xread", counted)
    response = client.get(STREAM, headers=auth, buffered=False)
    text, moved = "", False
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if not moved and text.count(": heartbeat") >= 5:  # a second idle (0.2 s apart)
            # The first read, at most one more when the listener subscribed: none per
            # heartbeat.
            assert reads[0] <= 2, reads[0]
            _move(client, game, 0, 0)
            _move(client, game, 1, 1)  # seat 0's turn again: an event wakes the stream
            moved = True
        if len(sse_events(text)) >= 3:
            break
    response.close()
    assert [e["event"] for e in sse_events(text)] == ["game_started", "your_turn", "your_turn"]
