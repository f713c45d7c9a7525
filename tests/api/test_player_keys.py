"""A player's key acts for the seats its player owns (issue 28, "An app's account"): reads and
moves without per-seat tokens, `?seat=N` in a hot-seat game, and nothing more."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.conftest import create, problem


def _player(client: FlaskClient, name: str = "Ada") -> tuple[str, dict[str, str]]:
    body = client.post("/v1/players", json={"name": name}).get_json()
    return body["id"], {"Authorization": f"Bearer {body['key']}"}


def _claimed_game(client: FlaskClient, auth: dict[str, str], claims: list[bool]) -> dict[str, Any]:
    answer = client.post(
        "/v1/games",
        headers=auth,
        json={
            "game": "toy-pontoon",
            "options": {"players": len(claims)},
            "seed": 7,
            "seats": [{"kind": "human", "claim": c} for c in claims],
        },
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def _move(
    client: FlaskClient, game_id: str, auth: dict[str, str], version: int, query: str = ""
) -> Any:
    return client.post(
        f"/v1/games/{game_id}/moves{query}",
        headers=auth,
        json={"move": {"type": "draw"}, "version": version},
    )


def test_a_player_key_reads_and_moves_for_its_only_seat(client: FlaskClient) -> None:
    _, auth = _player(client)
    game = _claimed_game(client, auth, [True, False])
    read = client.get(f"/v1/games/{game['id']}", headers=auth)
    assert read.status_code == 200, read.get_json()
    as_token = client.get(
        f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}
    )
    assert read.get_json() == as_token.get_json()  # the seat's own view
    assert read.get_json()["seat"] == 0
    moved = _move(client, game["id"], auth, 0)
    assert moved.status_code == 200, moved.get_json()
    assert moved.get_json()["version"] == 1
    # Seat 1 is to act now: the key's seat may not move for it.
    problem(_move(client, game["id"], auth, 1), 403, "not-your-turn")
    problem(_move(client, game["id"], auth, 1, "?seat=1"), 403, "not-your-seat")
    problem(client.get(f"/v1/games/{game['id']}?seat=1", headers=auth), 403, "not-your-seat")
    # The log reads as the seat too.
    log = client.get(f"/v1/games/{game['id']}/moves", headers=auth)
    assert log.status_code == 200 and log.get_json()["moves"][0]["seat"] == 0
    # Seat tokens work as before, and their `?seat` is ignored outside replays.
    token = {"Authorization": f"Bearer {game['seats'][1]['token']}"}
    assert _move(client, game["id"], token, 1, "?seat=0").status_code == 200


def test_a_hot_seat_player_names_the_seat(client: FlaskClient) -> None:
    _, auth = _player(client)
    game = _claimed_game(client, auth, [True, True])
    body = problem(client.get(f"/v1/games/{game['id']}", headers=auth), 400, "seat-required")
    assert body["seats"] == [0, 1]
    problem(_move(client, game["id"], auth, 0), 400, "seat-required")
    assert client.get(f"/v1/games/{game['id']}?seat=1", headers=auth).get_json()["seat"] == 1
    assert _move(client, game["id"], auth, 0, "?seat=0").status_code == 200
    problem(_move(client, game["id"], auth, 1, "?seat=0"), 403, "not-your-turn")
    assert _move(client, game["id"], auth, 1, "?seat=1").status_code == 200
    problem(_move(client, game["id"], auth, 2, "?seat=x"), 422, "validation-error")
    problem(_move(client, game["id"], auth, 2, "?seat=99"), 422, "validation-error")
    problem(client.get(f"/v1/games/{game['id']}?seat=-1", headers=auth), 422, "validation-error")
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == 2


def test_a_player_key_cannot_act_for_anothers_seat(client: FlaskClient) -> None:
    _, ada = _player(client)
    _, bob = _player(client, "Bob")
    game = _claimed_game(client, ada, [True, False])
    bob_game = _claimed_game(client, bob, [False, True])
    for query in ("", "?seat=0", "?seat=1"):
        problem(_move(client, game["id"], bob, 0, query), 403, "not-your-seat")
        problem(client.get(f"/v1/games/{game['id']}{query}", headers=bob), 403, "not-your-seat")
    # An unclaimed game: the key opens nothing there either.
    plain = create(client)
    problem(_move(client, plain.id, ada, 0), 403, "not-your-seat")
    # Ada's key does not move for Bob's seat of Bob's game.
    problem(_move(client, bob_game["id"], ada, 0, "?seat=0"), 403, "not-your-seat")
    # Nothing moved.
    for game_id in (game["id"], bob_game["id"], plain.id):
        assert client.get(f"/v1/games/{game_id}").get_json()["version"] == 0
    # A made-up key of the right form is no key.
    fake = {"Authorization": "Bearer bgbp_AAAAAAAAAAAAAAAA_" + "x" * 43}
    problem(_move(client, game["id"], fake, 0), 401, "unauthorized")
    problem(client.get(f"/v1/games/{game['id']}", headers=fake), 401, "unauthorized")


def test_a_player_key_cannot_claim_with_itself(client: FlaskClient) -> None:
    """Claiming proves the seat's token: a player's key is not one."""
    _, ada = _player(client)
    game = _claimed_game(client, ada, [True, False])
    key = ada["Authorization"].removeprefix("Bearer ")
    _, bob = _player(client, "Bob")
    problem(
        client.post(f"/v1/games/{game['id']}/seats/1/claim", headers=bob, json={"token": key}),
        403,
        "forbidden",
    )


def test_a_rotated_key_stops_working_at_once(client: FlaskClient) -> None:
    player_id, old = _player(client)
    game = _claimed_game(client, old, [True, False])
    answer = client.post("/v1/players/me/key", headers=old)
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["id"] == player_id and body["key"] != old["Authorization"].split()[-1]
    new = {"Authorization": f"Bearer {body['key']}"}
    for auth, status in ((old, 401), (new, 200)):
        assert client.get("/v1/players/me", headers=auth).status_code == status
        assert client.get(f"/v1/games/{game['id']}", headers=auth).status_code == status
    problem(_move(client, game["id"], old, 0), 401, "unauthorized")
    problem(client.post("/v1/players/me/key", headers=old), 401, "unauthorized")
    assert _move(client, game["id"], new, 0).status_code == 200
    assert [
        g["id"] for g in client.get("/v1/players/me/games", headers=new).get_json()["games"]
    ] == [game["id"]]


def test_deleting_a_player_resigns_its_active_seats(client: FlaskClient, redis_client: Any) -> None:
    from api import keys

    player_id, auth = _player(client)
    _, bob = _player(client, "Bob")
    two = _claimed_game(client, auth, [True, False])  # ends: Ada resigns
    three = _claimed_game(client, auth, [False, True, False])  # a bot takes Ada's seat
    hot = _claimed_game(client, auth, [True, True])  # both seats Ada's: ends once
    other = _claimed_game(client, bob, [True, False])  # not Ada's
    client.post(
        "/v1/players/me/webhooks",
        headers=auth,
        json={"url": "https://push.example.com/bgb", "events": ["your_turn"]},
    )
    answer = client.delete("/v1/players/me", headers=auth)
    assert answer.status_code == 200, answer.get_json()
    resigned = {(r["game_id"], r["seat"]): r["status"] for r in answer.get_json()["resigned"]}
    assert resigned == {
        (two["id"], 0): "finished",
        (three["id"], 1): "active",
        (hot["id"], 0): "finished",
    }
    assert client.get(f"/v1/games/{two['id']}").get_json()["result"]["resigned"] == [0]
    seats = client.get(f"/v1/games/{three['id']}").get_json()["seats"]
    assert seats[1]["kind"] == "bot" and seats[1]["resigned"] is True
    assert client.get(f"/v1/games/{other['id']}").get_json()["status"] == "active"
    # The key opens nothing any more, and the player's data are gone.
    problem(client.get("/v1/players/me", headers=auth), 401, "unauthorized")
    problem(client.get(f"/v1/games/{two['id']}", headers=auth), 401, "unauthorized")
    problem(client.post("/v1/players/me/key", headers=auth), 401, "unauthorized")
    problem(client.delete("/v1/players/me", headers=auth), 401, "unauthorized")
    assert redis_client.keys(f"bgb:player:{player_id}*") == []
    assert not any(
        b'"player":"' + player_id.encode() in v
        for g in (two, three, hot)
        for v in redis_client.hvals(keys.game_seats(g["id"]))
    )
    # Bob is untouched.
    assert client.get(f"/v1/games/{other['id']}", headers=bob).status_code == 200


def test_a_deletion_that_fails_half_way_leaves_data_that_expire(
    client: FlaskClient, redis_client: Any, monkeypatch: Any
) -> None:
    from api import keys, lifecycle

    player_id, auth = _player(client)
    _claimed_game(client, auth, [True, False])

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("the process dies here")

    monkeypatch.setattr(lifecycle, "resign_seat", broken)
    assert client.delete("/v1/players/me", headers=auth).status_code == 500
    problem(client.get("/v1/players/me", headers=auth), 401, "unauthorized")
    assert 0 < redis_client.ttl(keys.player_games(player_id)) <= 3600
