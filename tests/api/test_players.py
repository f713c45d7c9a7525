"""What a mobile app's backend needs (issue 15): players and their games across games,
claimed seats and rotated tokens, resigning, rematches, retention, CORS."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import rq
from flask import Flask
from flask.testing import FlaskClient

from api import create_app, keys
from tests.api.conftest import NO_RATE_LIMITS, Created, create, move, problem


def _player(client: FlaskClient, name: str = "Ada") -> tuple[str, dict[str, str]]:
    answer = client.post("/v1/players", json={"name": name})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    return body["id"], {"Authorization": f"Bearer {body['key']}"}


def _games(client: FlaskClient, auth: dict[str, str], **query: Any) -> dict[str, Any]:
    answer = client.get("/v1/players/me/games", headers=auth, query_string=query)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_a_player_key_is_shown_once_and_stored_hashed(client: FlaskClient,
                                                      redis_client: redis.Redis) -> None:
    answer = client.post("/v1/players", json={"name": "Ada"})
    body = answer.get_json()
    assert answer.status_code == 201 and body["key"].startswith("bgbp_")
    everything = b"".join(str(redis_client.dump(k)).encode() for k in redis_client.keys("*"))
    assert body["key"].encode() not in everything
    # The secret is everything after `bgbp_<id>_`; it may itself hold "_" (token_urlsafe).
    secret = body["key"].split("_", 2)[2]
    assert len(secret) >= 20 and secret.encode() not in everything
    me = client.get("/v1/players/me", headers={"Authorization": f"Bearer {body['key']}"})
    assert me.get_json() == {"id": body["id"], "name": "Ada", "created": body["created"]}
    problem(client.get("/v1/players/me"), 401, "unauthorized")
    wrong = body["key"][:-3] + ("AAA" if not body["key"].endswith("AAA") else "BBB")
    problem(client.get("/v1/players/me", headers={"Authorization": f"Bearer {wrong}"}),
            401, "unauthorized")


def test_a_player_lists_its_games_claimed_at_creation_or_by_link(client: FlaskClient) -> None:
    player_id, auth = _player(client)
    # Claimed at creation (the request carries the player's key).
    claimed = client.post("/v1/games", headers=auth, json={
        "game": "toy-pontoon", "options": {"players": 2},
        "seats": [{"kind": "human", "claim": True}, {"kind": "human"}]}).get_json()
    # Claimed afterwards with the seat's token, as a join link carries it.
    linked = create(client, players=2)
    answer = client.post(f"/v1/games/{linked.id}/seats/1/claim", headers=auth,
                         json={"token": linked.tokens[1]})
    assert answer.get_json() == {"seat": 1, "player": player_id}
    # A token of another seat proves nothing.
    problem(client.post(f"/v1/games/{linked.id}/seats/0/claim", headers=auth,
                        json={"token": linked.tokens[1]}), 403, "forbidden")
    create(client, players=2)  # not the player's
    listed = _games(client, auth)
    assert [g["id"] for g in listed["games"]] == [linked.id, claimed["id"]]  # newest first
    assert listed["games"][0]["seats"] == [1] and listed["games"][1]["seats"] == [0]
    # Seat 0 of `claimed` is to act; seat 1 of `linked` is not.
    assert [g["id"] for g in _games(client, auth, my_turn="true")["games"]] == [claimed["id"]]
    assert _games(client, auth, status="finished")["games"] == []
    first = _games(client, auth, limit=1)
    assert [g["id"] for g in first["games"]] == [linked.id] and first["next"] is not None
    second = _games(client, auth, limit=1, before=first["next"])
    assert [g["id"] for g in second["games"]] == [claimed["id"]]
    # Another player sees none of them, and cannot take a claimed seat.
    _, other = _player(client, "Bob")
    assert _games(client, other)["games"] == []
    problem(client.post(f"/v1/games/{linked.id}/seats/1/claim", headers=other,
                        json={"token": linked.tokens[1]}), 409, "seat-claimed")


def test_a_rotated_seat_token_replaces_the_old_one(client: FlaskClient) -> None:
    _, auth = _player(client)
    created = create(client, players=2)
    client.post(f"/v1/games/{created.id}/seats/0/claim", headers=auth,
                json={"token": created.tokens[0]})
    answer = client.post(f"/v1/games/{created.id}/seats/0/token", headers=auth)
    assert answer.status_code == 200
    fresh = answer.get_json()["token"]
    problem(client.get(f"/v1/games/{created.id}", headers=created.auth(0)), 401,
            "unauthorized")
    read = client.get(f"/v1/games/{created.id}", headers={"Authorization": f"Bearer {fresh}"})
    assert read.get_json()["seat"] == 0
    # Only the seat's owner may rotate it.
    _, other = _player(client, "Bob")
    problem(client.post(f"/v1/games/{created.id}/seats/0/token", headers=other), 403,
            "not-your-seat")
    problem(client.post(f"/v1/games/{created.id}/seats/1/token", headers=auth), 403,
            "not-your-seat")


def _resign(client: FlaskClient, game_id: str, token: str, **body: Any) -> Any:
    return client.post(f"/v1/games/{game_id}/resign", json=body,
                       headers={"Authorization": f"Bearer {token}"})


def test_resigning_a_two_seat_game_ends_it(client: FlaskClient) -> None:
    created = create(client, players=2)
    assert move(client, created, 0, 0).status_code == 200
    answer = _resign(client, created.id, created.tokens[1])
    assert answer.get_json() == {"version": 2, "status": "finished", "seat": 1}
    read = client.get(f"/v1/games/{created.id}").get_json()
    assert read["status"] == "finished" and read["to_act"] is None
    result = read["result"]
    assert result["resigned"] == [1] and result["ranking"] == [0, 1]
    assert result["winners"] == [0] and result["ended_by"] == "resignation"
    assert read["seats"][1]["resigned"] is True
    problem(move(client, created, 0, 2), 409, "game-over")
    problem(_resign(client, created.id, created.tokens[0]), 409, "game-over")
    # Resigning again is refused and leaves the first resignation as it was.
    problem(_resign(client, created.id, created.tokens[1]), 409, "game-over")
    again = client.get(f"/v1/games/{created.id}").get_json()
    assert again["seats"][1]["resigned"] is True and again["result"] == result
    log = client.get(f"/v1/games/{created.id}/moves").get_json()["moves"]
    assert log[-1]["move"] == {"type": "resign"} and log[-1]["system"] is True


def test_resigning_solo_hands_the_game_to_the_automa(client: FlaskClient) -> None:
    created = client.post("/v1/games", json={
        "game": "darwins-journey", "options": {"players": 1, "alfred": "green"}}).get_json()
    token = next(s["token"] for s in created["seats"] if s["kind"] == "human")
    assert _resign(client, created["id"], token).get_json()["status"] == "finished"
    result = client.get(f"/v1/games/{created['id']}").get_json()["result"]
    assert result["ranking"][-1] == 0 and result["winners"] == [1]


def test_resigning_a_three_seat_game_seats_a_bot(client: FlaskClient,
                                                 redis_client: redis.Redis) -> None:
    created = create(client, players=3)
    problem(_resign(client, created.id, created.tokens[0], bot="alfred"), 422,
            "validation-error")
    answer = _resign(client, created.id, created.tokens[0], bot="greedy")
    assert answer.get_json() == {"version": 1, "status": "active", "seat": 0}
    read = client.get(f"/v1/games/{created.id}").get_json()
    assert read["seats"][0] == {"seat": 0, "kind": "bot", "bot": "greedy", "resigned": True}
    # Seat 0 was to act: its bot's turn is queued at the new version.
    job = rq.Queue("bots", connection=redis_client).fetch_job(f"play-{created.id}-1")
    assert job is not None and job.args[:3] == (created.id, 0, 1)
    # The resigned seat's token still reads the game, but no longer moves for it.
    assert client.get(f"/v1/games/{created.id}", headers=created.auth(0)).status_code == 200
    problem(move(client, created, 0, 1), 403, "resigned")


def test_a_rematch_keeps_options_seats_and_players(client: FlaskClient) -> None:
    player_id, auth = _player(client)
    first = client.post("/v1/games", headers=auth, json={
        "game": "toy-pontoon", "options": {"players": 2},
        "seats": [{"kind": "human", "claim": True},
                  {"kind": "bot", "bot": "random"}]}).get_json()
    token = first["seats"][0]["token"]
    url = f"/v1/games/{first['id']}/rematch"
    problem(client.post(url, headers={"Authorization": f"Bearer {token}"}), 409, "game-active")
    _resign(client, first["id"], token)
    answer = client.post(url, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201
    second = answer.get_json()
    assert second["rematch_of"] == first["id"] and second["options"] == first["options"]
    assert [s["kind"] for s in second["seats"]] == ["human", "bot"]
    assert second["deal"]["commitment"] != first["deal"]["commitment"]
    assert client.get(f"/v1/games/{first['id']}").get_json()["rematch"] == second["id"]
    assert client.get(f"/v1/games/{second['id']}").get_json()["rematch_of"] == first["id"]
    assert second["id"] in [g["id"] for g in _games(client, auth)["games"]]
    again = client.post(url, headers={"Authorization": f"Bearer {first['creator_token']}"})
    assert problem(again, 409, "rematch-exists")["rematch"] == second["id"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _finished_pair(client: FlaskClient, players: int = 2) -> Created:
    """An anonymous game of human seats, over (seat 0 resigned a two-seat game, or the
    creator aborted a larger one)."""
    created = create(client, players=players)
    if players == 2:
        assert _resign(client, created.id, created.tokens[0]).status_code == 200
    else:
        assert client.post(f"/v1/games/{created.id}/abort",
                           headers=_bearer(created.body["creator_token"])).status_code == 200
    return created


def _seat_read(client: FlaskClient, game_id: str, token: str) -> int | None:
    answer = client.get(f"/v1/games/{game_id}", headers=_bearer(token))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["seat"]


def test_a_rematch_answer_holds_only_the_callers_token(client: FlaskClient) -> None:
    """Issue 27: seat 0 asking for the rematch of an anonymous game was handed seat 1's
    token and the new creator token."""
    old = _finished_pair(client, players=3)
    answer = client.post(f"/v1/games/{old.id}/rematch", headers=_bearer(old.tokens[0]))
    assert answer.status_code == 201, answer.get_json()
    new = answer.get_json()
    assert new["creator_token"] is None
    assert [("token" in seat) for seat in new["seats"]] == [True, False, False]
    mine = new["seats"][0]["token"]
    assert _seat_read(client, new["id"], mine) == 0
    assert old.tokens[1] not in answer.text and old.tokens[2] not in answer.text
    # The other seats redeem theirs with their old tokens, once each.
    redeem = f"/v1/games/{old.id}/rematch/token"
    for seat in (1, 2):
        got = client.post(redeem, headers=_bearer(old.tokens[seat]))
        assert got.status_code == 200, got.get_json()
        body = got.get_json()
        assert body["game"] == new["id"] and body["seat"] == seat
        assert _seat_read(client, new["id"], body["token"]) == seat
        problem(client.post(redeem, headers=_bearer(old.tokens[seat])), 409, "conflict")
    # The asker had its token in the answer: its old token redeems nothing (it would
    # replace the token it holds).
    problem(client.post(redeem, headers=_bearer(old.tokens[0])), 409, "conflict")
    assert _seat_read(client, new["id"], mine) == 0
    # The creator token was not handed out: the original creator's aborts the rematch.
    creator = _bearer(old.body["creator_token"])
    assert client.post(f"/v1/games/{new['id']}/abort", headers=creator).status_code == 200


def test_a_rematch_asked_by_the_creator_gives_the_creator_token_only(
        client: FlaskClient) -> None:
    old = _finished_pair(client)
    creator = _bearer(old.body["creator_token"])
    redeem = f"/v1/games/{old.id}/rematch/token"
    problem(client.post(redeem, headers=_bearer(old.tokens[1])), 404, "not-found")
    answer = client.post(f"/v1/games/{old.id}/rematch", headers=creator)
    assert answer.status_code == 201, answer.get_json()
    new = answer.get_json()
    assert isinstance(new["creator_token"], str)
    assert new["creator_token"] != old.body["creator_token"]
    assert all("token" not in seat for seat in new["seats"])
    tokens = {}
    for seat in (0, 1):
        body = client.post(redeem, headers=_bearer(old.tokens[seat])).get_json()
        tokens[seat] = body["token"]
        assert _seat_read(client, new["id"], body["token"]) == seat
    # Nor does anything but a seat's own token redeem: the creator's, a wrong one, none.
    problem(client.post(redeem, headers=creator), 401, "unauthorized")
    problem(client.post(redeem, headers=_bearer("nope")), 401, "unauthorized")
    problem(client.post(redeem), 401, "unauthorized")
    problem(client.post(f"/v1/games/{new['id']}/abort", headers=creator), 401, "unauthorized")
    assert client.post(f"/v1/games/{new['id']}/abort",
                       headers=_bearer(new["creator_token"])).status_code == 200


def test_a_claimed_seat_finds_its_rematch_in_its_players_games(client: FlaskClient) -> None:
    player_id, auth = _player(client)
    first = client.post("/v1/games", json={"game": "toy-pontoon", "options": {"players": 2}})
    old = first.get_json()
    tokens = {s["seat"]: s["token"] for s in old["seats"]}
    claim = client.post(f"/v1/games/{old['id']}/seats/1/claim", headers=auth,
                        json={"token": tokens[1]})
    assert claim.status_code == 200
    assert _resign(client, old["id"], tokens[0]).status_code == 200
    new = client.post(f"/v1/games/{old['id']}/rematch", headers=_bearer(tokens[0])).get_json()
    assert "token" not in new["seats"][1]
    assert new["id"] in [g["id"] for g in _games(client, auth)["games"]]
    rotated = client.post(f"/v1/games/{new['id']}/seats/1/token", headers=auth)
    assert rotated.status_code == 200
    assert _seat_read(client, new["id"], rotated.get_json()["token"]) == 1


@pytest.fixture
def short_lived(redis_client: redis.Redis, redis_url: str) -> Iterator[Flask]:
    """Games abandoned after 0.5 s without a move, deleted 1 s after they end."""
    yield create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS,
                      "ABANDON_AFTER": 0.5, "RETAIN_FINISHED": 1.0})


def test_retention_abandons_then_deletes_by_expiry(short_lived: Flask,
                                                   redis_client: redis.Redis) -> None:
    client = short_lived.test_client()
    created = create(client, players=2)
    assert move(client, created, 0, 0).status_code == 200
    assert 0 < redis_client.pttl(keys.game_meta(created.id)) <= 1500
    time.sleep(0.7)
    read = client.get(f"/v1/games/{created.id}").get_json()
    assert read["status"] == "abandoned" and read["to_act"] is None
    problem(move(client, created, 1, 2), 409, "game-over")
    game_keys = [keys.game_meta(created.id), keys.game_state(created.id),
                 keys.move_log(created.id)]
    assert all(0 < redis_client.pttl(k) <= 1000 for k in game_keys)
    time.sleep(1.2)
    assert redis_client.exists(*game_keys) == 0  # Redis expired them: no scan
    assert client.get(f"/v1/games/{created.id}").status_code == 404


def test_cors_preflight_and_answers(client: FlaskClient,
                                    monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    preflight = client.options("/v1/games", headers={
        "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"})
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] in ("*", "https://app.example")
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "idempotency-key" in allowed
    read = client.get("/v1/games-catalog", headers={"Origin": "https://app.example"})
    assert read.headers["Access-Control-Allow-Origin"] in ("*", "https://app.example")
    assert "Access-Control-Allow-Credentials" not in read.headers  # never cookies
    assert "ETag" in read.headers.get("Access-Control-Expose-Headers", "")
    monkeypatch.setenv("BGB_CORS_ORIGINS", "https://app.example")
    strict = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    ok = strict.get("/v1/games-catalog", headers={"Origin": "https://app.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://app.example"
    other = strict.get("/v1/games-catalog", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_a_refused_resignation_changes_nothing(app: Flask, client: FlaskClient) -> None:
    created = create(client, players=3)
    creator = {"Authorization": f"Bearer {created.body['creator_token']}"}
    assert client.post(f"/v1/games/{created.id}/abort", headers=creator).status_code == 200
    problem(_resign(client, created.id, created.tokens[1]), 409, "game-over")
    seats = client.get(f"/v1/games/{created.id}").get_json()["seats"]
    assert seats[1] == {"seat": 1, "kind": "human"}
    # A resignation is written only on the version it was decided on (else tried again).
    store = app.extensions["bgb"].store
    other = create(client, players=3)
    entry = {"seat": 0, "system": True, "move": {"type": "resign"}, "events": []}
    assert store.mark(other.id, entry, "e", "active", 0, expected=5) == (False, "stale")
    assert client.get(f"/v1/games/{other.id}").get_json()["version"] == 0
