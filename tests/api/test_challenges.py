"""Challenges (issue 28): a seat's holder invites a player; the player accepts (owns the
seat, gets its new token, the inviter's stops) or declines; stale ones are dropped."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.conftest import create, move, problem


def _player(client: FlaskClient, name: str) -> tuple[str, dict[str, str]]:
    body = client.post("/v1/players", json={"name": name}).get_json()
    return body["id"], {"Authorization": f"Bearer {body['key']}"}


def _invite(client: FlaskClient, game_id: str, seat: int, token: str, player: str) -> Any:
    return client.post(
        f"/v1/games/{game_id}/seats/{seat}/invite",
        json={"player": player},
        headers={"Authorization": f"Bearer {token}"},
    )


def _challenges(client: FlaskClient, auth: dict[str, str]) -> list[dict[str, Any]]:
    answer = client.get("/v1/players/me/challenges", headers=auth)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["challenges"]


def test_an_invited_player_accepts_and_plays_the_seat(client: FlaskClient) -> None:
    bob_id, bob = _player(client, "Bob")
    game = create(client, players=2)
    invited = _invite(client, game.id, 1, game.tokens[1], bob_id)
    assert invited.status_code == 201, invited.get_json()
    challenge = invited.get_json()
    assert (challenge["game_id"], challenge["seat"]) == (game.id, 1)
    assert _challenges(client, bob) == [challenge]
    accepted = client.post(f"/v1/players/me/challenges/{challenge['id']}/accept", headers=bob)
    assert accepted.status_code == 200, accepted.get_json()
    body = accepted.get_json()
    assert (body["game_id"], body["seat"]) == (game.id, 1)
    assert _challenges(client, bob) == []
    # Bob owns the seat: it is in his games, his key and his new token play it; the
    # inviter's token no longer opens it.
    [listed] = client.get("/v1/players/me/games", headers=bob).get_json()["games"]
    assert listed["id"] == game.id and listed["seats"] == [1]
    assert move(client, game, 0, 0).status_code == 200
    problem(move(client, game, 1, 1), 401, "unauthorized")
    new = {"Authorization": f"Bearer {body['token']}"}
    assert client.get(f"/v1/games/{game.id}", headers=new).get_json()["seat"] == 1
    answer = client.post(
        f"/v1/games/{game.id}/moves", headers=bob, json={"move": {"type": "draw"}, "version": 1}
    )
    assert answer.status_code == 200, answer.get_json()
    # Accepted once only.
    problem(
        client.post(f"/v1/players/me/challenges/{challenge['id']}/accept", headers=bob),
        404,
        "not-found",
    )


def test_only_the_seats_holder_invites_and_only_to_an_open_seat(client: FlaskClient) -> None:
    bob_id, bob = _player(client, "Bob")
    ann_id, ann = _player(client, "Ann")
    game = create(client, players=2)
    problem(_invite(client, game.id, 1, game.tokens[0], bob_id), 403, "forbidden")
    problem(
        client.post(f"/v1/games/{game.id}/seats/1/invite", json={"player": bob_id}),
        401,
        "unauthorized",
    )
    problem(_invite(client, game.id, 1, game.tokens[1], "NoSuchPlayer0000"), 404, "not-found")
    problem(_invite(client, game.id, 5, game.tokens[1], bob_id), 404, "not-found")
    # A seat a player claimed is not offered.
    client.post(f"/v1/games/{game.id}/seats/0/claim", headers=ann, json={"token": game.tokens[0]})
    problem(_invite(client, game.id, 0, game.tokens[0], bob_id), 409, "conflict")
    # Two invitations of one seat: the first accepted, the second is stale.
    first = _invite(client, game.id, 1, game.tokens[1], bob_id).get_json()
    _, cat = _player(client, "Cat")
    cat_id = client.get("/v1/players/me", headers=cat).get_json()["id"]
    second = _invite(client, game.id, 1, game.tokens[1], cat_id).get_json()
    assert (
        client.post(f"/v1/players/me/challenges/{first['id']}/accept", headers=bob).status_code
        == 200
    )
    assert _challenges(client, cat) == []  # the seat is taken: dropped
    problem(
        client.post(f"/v1/players/me/challenges/{second['id']}/accept", headers=cat),
        404,
        "not-found",
    )
    # Nobody acts on another's challenge.
    _, dan = _player(client, "Dan")
    game2 = create(client, players=2)
    third = _invite(client, game2.id, 1, game2.tokens[1], bob_id).get_json()
    problem(
        client.post(f"/v1/players/me/challenges/{third['id']}/accept", headers=dan),
        404,
        "not-found",
    )
    assert ann_id and len(_challenges(client, bob)) == 1


def test_a_declined_challenge_leaves_the_seat(client: FlaskClient) -> None:
    bob_id, bob = _player(client, "Bob")
    game = create(client, players=2)
    challenge = _invite(client, game.id, 1, game.tokens[1], bob_id).get_json()
    declined = client.post(f"/v1/players/me/challenges/{challenge['id']}/decline", headers=bob)
    assert declined.status_code == 204
    assert _challenges(client, bob) == []
    problem(
        client.post(f"/v1/players/me/challenges/{challenge['id']}/accept", headers=bob),
        404,
        "not-found",
    )
    assert move(client, game, 0, 0).status_code == 200
    assert move(client, game, 1, 1).status_code == 200  # the inviter keeps the seat
    # A challenge of a game that ended is dropped, and refused if accepted.
    over = _invite(client, game.id, 1, game.tokens[1], bob_id).get_json()
    client.post(
        f"/v1/games/{game.id}/abort",
        headers={"Authorization": f"Bearer {game.body['creator_token']}"},
    )
    problem(
        client.post(f"/v1/players/me/challenges/{over['id']}/accept", headers=bob), 409, "conflict"
    )
    problem(client.post("/v1/players/me/challenges/ch_x/decline", headers=bob), 404, "not-found")


def test_a_challenge_reaches_the_players_account_stream(client: FlaskClient) -> None:
    from tests.api.test_account_stream import _read

    bob_id, bob = _player(client, "Bob")
    game = create(client, players=2)
    challenge = _invite(client, game.id, 1, game.tokens[1], bob_id).get_json()
    [event] = _read(client, bob, 1)
    assert event["event"] == "challenge"
    assert event["data"] == {"type": "challenge", "challenge_id": challenge["id"],
                             "game_id": game.id, "game": "toy-pontoon", "seat": 1,
                             "created": challenge["created"]}


def _open(client: FlaskClient, game_id: str, seat: int, token: str, method: str = "post") -> Any:
    return client.open(f"/v1/games/{game_id}/seats/{seat}/open", method=method.upper(),
                       headers={"Authorization": f"Bearer {token}"})


def _lobby(client: FlaskClient, query: str = "") -> list[dict[str, Any]]:
    answer = client.get(f"/v1/open-seats{query}")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["seats"]


def test_an_open_seat_is_listed_and_taken_by_one_player(client: FlaskClient) -> None:
    game = create(client, players=2)
    opened = _open(client, game.id, 1, game.tokens[1])
    assert opened.status_code == 201, opened.get_json()
    entry = opened.get_json()
    assert (entry["game_id"], entry["game"], entry["seat"], entry["players"]) == (
        game.id, "toy-pontoon", 1, 2)
    assert _open(client, game.id, 1, game.tokens[1]).status_code == 200  # open already
    assert _lobby(client) == [entry]
    assert _lobby(client, "?game=toy-pontoon") == [entry]
    assert _lobby(client, "?game=flotilla") == []
    ann_id, ann = _player(client, "Ann")
    _bob_id, bob = _player(client, "Bob")
    taken = client.post(f"/v1/open-seats/{game.id}/1/take", headers=ann)
    assert taken.status_code == 200, taken.get_json()
    assert taken.get_json()["seat"] == 1
    # One player only: the seat left the lobby; the opener's token stopped working.
    problem(client.post(f"/v1/open-seats/{game.id}/1/take", headers=bob), 404, "not-found")
    assert _lobby(client) == []
    assert move(client, game, 0, 0).status_code == 200
    problem(move(client, game, 1, 1), 401, "unauthorized")
    answer = client.post(f"/v1/games/{game.id}/moves", headers=ann,
                         json={"move": {"type": "draw"}, "version": 1})
    assert answer.status_code == 200, answer.get_json()
    [listed] = client.get("/v1/players/me/games", headers=ann).get_json()["games"]
    assert listed["id"] == game.id


def test_only_the_seats_holder_opens_or_closes_it_and_stale_seats_leave(
        client: FlaskClient) -> None:
    game = create(client, players=2)
    problem(_open(client, game.id, 1, game.tokens[0]), 403, "forbidden")
    problem(client.post(f"/v1/games/{game.id}/seats/1/open"), 401, "unauthorized")
    problem(_open(client, game.id, 5, game.tokens[0]), 404, "not-found")
    assert _lobby(client) == []
    assert _open(client, game.id, 1, game.tokens[1]).status_code == 201
    problem(_open(client, game.id, 1, game.tokens[0], "delete"), 403, "forbidden")
    assert _open(client, game.id, 1, game.tokens[1], "delete").status_code == 204
    assert _lobby(client) == []
    # A seat whose game ended is dropped from the lobby and cannot be taken.
    assert _open(client, game.id, 0, game.tokens[0]).status_code == 201
    assert move(client, game, 0, 0, "stop").status_code == 200
    assert move(client, game, 1, 1, "stop").status_code == 200
    problem(_open(client, game.id, 1, game.tokens[1]), 409, "conflict")
    assert _lobby(client) == []
    _ann_id, ann = _player(client, "Ann")
    problem(client.post(f"/v1/open-seats/{game.id}/0/take", headers=ann), 404, "not-found")
    problem(client.get("/v1/open-seats?color=red"), 400, "bad-request")
