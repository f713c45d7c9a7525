"""Creating games, reading them as a seat or a spectator, playing them to the end."""

from __future__ import annotations

import hashlib
import json

import pytest
import redis
from flask.testing import FlaskClient

from api import keys
from tests.api.conftest import create, move, problem, snapshot


def test_create_answers_201_with_tokens_shown_once(client: FlaskClient,
                                                    redis_client: redis.Redis) -> None:
    response = client.post("/v1/games", json={"game": "toy-pontoon", "options": {"players": 3}})
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"] == f"/v1/games/{body['id']}"
    assert body["version"] == 0 and body["status"] == "active" and body["to_act"] == 0
    assert body["game"] == "toy-pontoon" and body["options"] == {"players": 3}
    assert [s["seat"] for s in body["seats"]] == [0, 1, 2]
    assert all(s["kind"] == "human" and len(s["token"]) >= 40 for s in body["seats"])
    assert "seed" not in body
    meta = json.loads(redis_client.get(keys.game_meta(body["id"])))
    raw = redis_client.get(keys.game_meta(body["id"])).decode()
    for seat in body["seats"]:
        assert seat["token"] not in raw
        assert meta["seats"][seat["seat"]]["token_sha256"] == hashlib.sha256(
            seat["token"].encode()).hexdigest()
    # The token is never shown again.
    read = client.get(f"/v1/games/{body['id']}").get_json()
    assert all("token" not in s for s in read["seats"])


def test_seeded_games_are_reproducible(client: FlaskClient, redis_client: redis.Redis) -> None:
    """Only when asked for: an unranked game's deal is its seed (issue 18); a ranked game
    mixes the client's seed with the server's own, so the same seed deals differently."""
    a, b = create(client, seed=11, unranked=True), create(client, seed=11, unranked=True)
    assert snapshot(redis_client, a.id) == snapshot(redis_client, b.id)
    c, d = create(client, seed=11), create(client, seed=11)
    assert snapshot(redis_client, c.id) != snapshot(redis_client, d.id)


def test_bot_seats_and_default_seats(client: FlaskClient) -> None:
    created = create(client, seats=[{"kind": "human"},
                                    {"kind": "bot", "bot": "random", "params": {}}])
    assert created.body["seats"][1] == {"seat": 1, "kind": "bot", "bot": "random", "params": {}}
    assert "token" not in created.body["seats"][1]
    read = client.get(f"/v1/games/{created.id}").get_json()
    assert read["seats"] == [{"seat": 0, "kind": "human"},
                             {"seat": 1, "kind": "bot", "bot": "random"}]


def test_bad_seats_are_422(client: FlaskClient) -> None:
    cases = [
        [{"kind": "human"}],  # too few for 2 players
        [{"kind": "human"}, {"kind": "bot", "bot": "no-such-bot"}],
        [{"kind": "human"}, {"kind": "bot"}],
        [{"kind": "human", "bot": "random"}, {"kind": "human"}],
        [{"kind": "alien"}, {"kind": "human"}],
        [{"kind": "human"}, {"kind": "bot", "bot": "random", "params": {"nope": 1}}],
        [{"kind": "human"}, {"kind": "bot", "bot": "alfred"}],  # toy-pontoon has no automa
        [{"kind": "human"}, {"kind": "bot", "bot": "automa"}],
    ]
    for seats in cases:
        response = client.post("/v1/games", json={"game": "toy-pontoon", "seats": seats})
        body = problem(response, 422, "validation-error")
        assert "errors" in body, seats


def test_unknown_game_and_bad_options_are_422(client: FlaskClient) -> None:
    body = problem(client.post("/v1/games", json={"game": "chess-9000"}), 422,
                   "validation-error")
    assert "game" in body["errors"]["json"]
    body = problem(client.post("/v1/games", json={"game": "toy-pontoon",
                                                  "options": {"players": 9}}),
                   422, "validation-error")
    assert body["errors"]["json"]["options"] == {"players": ["must be an integer from 1 to 4"]}
    problem(client.post("/v1/games", json={"game": "toy-pontoon", "options": {"colour": 1}}),
            422, "validation-error")


def test_seat_and_spectator_views(client: FlaskClient) -> None:
    created = create(client)
    assert move(client, created, 0, 0).status_code == 200
    assert move(client, created, 1, 1).status_code == 200
    seat0 = client.get(f"/v1/games/{created.id}", headers=created.auth(0)).get_json()
    seat1 = client.get(f"/v1/games/{created.id}", headers=created.auth(1)).get_json()
    spectator = client.get(f"/v1/games/{created.id}").get_json()
    assert seat0["seat"] == 0 and seat1["seat"] == 1 and spectator["seat"] is None
    assert seat0["view"]["hands"][0] is not None and seat0["view"]["hands"][1] is None
    assert seat1["view"]["hands"][1] is not None and seat1["view"]["hands"][0] is None
    assert spectator["view"]["hands"] == [None, None]
    # Only the seat to act gets legal moves.
    assert seat0["to_act"] == 0
    assert [m["type"] for m in seat0["legal_moves"]] == ["draw", "stop"]
    assert seat1["legal_moves"] == [] and spectator["legal_moves"] == []
    assert seat0["result"] is None and seat0["status"] == "active"


def test_etag_and_if_none_match(client: FlaskClient) -> None:
    created = create(client)
    response = client.get(f"/v1/games/{created.id}")
    assert response.headers["ETag"] == '"0"'
    assert client.get(f"/v1/games/{created.id}",
                      headers={"If-None-Match": '"0"'}).status_code == 304
    move(client, created, 0, 0)
    response = client.get(f"/v1/games/{created.id}", headers={"If-None-Match": '"0"'})
    assert response.status_code == 200 and response.headers["ETag"] == '"1"'
    for listed in ('"0", "1"', 'W/"1"', "*", ' "7" ,"1" '):
        response = client.get(f"/v1/games/{created.id}", headers={"If-None-Match": listed})
        assert response.status_code == 304 and response.headers["ETag"] == '"1"', listed
    for other in ('"11"', "1", '"0", W/"2"', ""):
        response = client.get(f"/v1/games/{created.id}", headers={"If-None-Match": other})
        assert response.status_code == 200, other


def test_play_to_the_end_then_game_over(client: FlaskClient) -> None:
    created = create(client, players=2)
    version, answer = 0, None
    while True:
        read = client.get(f"/v1/games/{created.id}").get_json()
        if read["status"] == "finished":
            break
        seat = read["to_act"]
        hand = client.get(f"/v1/games/{created.id}",
                          headers=created.auth(seat)).get_json()["view"]["hands"][seat]
        kind = "draw" if sum(hand) < 15 else "stop"
        response = move(client, created, seat, version, kind)
        assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        assert answer["version"] == version + 1
        version += 1
    assert answer is not None and answer["status"] == "finished" and answer["to_act"] is None
    assert answer["result"]["finished"] is True
    read = client.get(f"/v1/games/{created.id}", headers=created.auth(0)).get_json()
    assert read["result"] == answer["result"] and read["legal_moves"] == []
    body = problem(move(client, created, 0, version), 409, "game-over")
    assert body["result"] == answer["result"]
    log = client.get(f"/v1/games/{created.id}/moves?limit=200").get_json()
    assert [m["index"] for m in log["moves"]] == list(range(version))


def test_move_log_pages(client: FlaskClient) -> None:
    created = create(client, players=1)
    for version in range(5):
        assert move(client, created, 0, version).status_code == 200
    first = client.get(f"/v1/games/{created.id}/moves?limit=2").get_json()
    assert [m["index"] for m in first["moves"]] == [0, 1] and first["next"] == 1
    second = client.get(f"/v1/games/{created.id}/moves?after=1&limit=2").get_json()
    assert [m["index"] for m in second["moves"]] == [2, 3] and second["next"] == 3
    last = client.get(f"/v1/games/{created.id}/moves?after=3&limit=2").get_json()
    assert [m["index"] for m in last["moves"]] == [4] and last["next"] is None
    assert [m["version"] for m in last["moves"]] == [5]
    assert last["moves"][0]["seat"] == 0 and last["moves"][0]["events"]
    empty = client.get(f"/v1/games/{created.id}/moves?after=10").get_json()
    assert empty == {"game": "toy-pontoon", "moves": [], "next": None}
    problem(client.get(f"/v1/games/{created.id}/moves?limit=201"), 422, "validation-error")
    problem(client.get(f"/v1/games/{created.id}/moves?after=x"), 422, "validation-error")
    problem(client.get(f"/v1/games/{created.id}/moves?after=99999999999999999999999"), 422,
            "validation-error")


def test_log_is_redacted_for_each_seat(client: FlaskClient) -> None:
    created = create(client, game="toy-secret", players=2)
    assert move(client, created, 0, 0, "draw").status_code == 200
    legal = client.get(f"/v1/games/{created.id}", headers=created.auth(1)).get_json()
    stop = next(m for m in legal["legal_moves"] if m["type"] == "stop")
    response = client.post(f"/v1/games/{created.id}/moves", json={"move": stop, "version": 1},
                           headers=created.auth(1))
    assert response.status_code == 200
    # The mover sees its own private event in the answer.
    first = client.get(f"/v1/games/{created.id}/moves", headers=created.auth(0)).get_json()
    assert first["moves"][0]["events"][1]["type"] == "card"
    assert "card" in first["moves"][0]["events"][1]
    # Seat 1's secret stop shows only its type to seat 0 and spectators.
    assert first["moves"][1]["move"] == {"type": "stop", "secret": True}
    other = client.get(f"/v1/games/{created.id}/moves", headers=created.auth(1)).get_json()
    assert other["moves"][0]["events"][1] == {"type": "card", "redacted": True}
    assert other["moves"][1]["move"]["total"] == 0
    spectator = client.get(f"/v1/games/{created.id}/moves").get_json()
    assert spectator["moves"][0]["events"][1] == {"type": "card", "redacted": True}
    assert spectator["moves"][1]["move"] == {"type": "stop", "secret": True}


def test_move_answer_redacts_events_for_the_mover(client: FlaskClient) -> None:
    created = create(client, game="toy-secret", players=2)
    answer = move(client, created, 0, 0, "draw").get_json()
    assert answer["events"][1]["type"] == "card" and "card" in answer["events"][1]


def test_catalog_and_bots(client: FlaskClient) -> None:
    catalog = client.get("/v1/games-catalog").get_json()
    toy = next(g for g in catalog["games"] if g["name"] == "toy-pontoon")
    assert toy == {"name": "toy-pontoon", "title": "Toy Pontoon (test game)", "min_players": 1,
                   "max_players": 4, "options": {"players": {"type": "int",
                                                             "choices": [1, 2, 3, 4],
                                                             "default": 2}}}
    bots = client.get("/v1/bots").get_json()["bots"]
    names = {b["name"] for b in bots}
    assert {"random", "alfred"} <= names
    assert all(isinstance(b["description"], str) and isinstance(b["params"], dict)
               for b in bots)


def test_game_ids_are_letters_and_digits() -> None:
    from api.creation import new_game_id

    ids = {new_game_id() for _ in range(2000)}
    assert len(ids) == 2000
    # Never "-..." (an option on a command line) nor "_": letters and digits only.
    assert all(len(i) == 16 and i.isascii() and i.isalnum() for i in ids)


def test_seat_tokens_never_start_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    # One url-safe token in 64 starts with "-": `bgb resign GAME --token -x...` then failed.
    from api import auth

    drawn = iter(["-first", "-second", "third"])
    monkeypatch.setattr(auth.secrets, "token_urlsafe", lambda size: next(drawn))
    token, digest = auth.new_human_token()
    assert token == "third" and digest == auth.token_hash("third")


def test_automa_seats_take_automa_or_alfred(client: FlaskClient) -> None:
    """The generic `automa` sits at every game's automa seat (Encyclopedia's by default);
    `alfred` (Darwin's Journey's name) is still accepted there; another bot is refused."""
    solo = {"game": "encyclopedia", "options": {"players": 1}}
    body = client.post("/v1/games", json=solo).get_json()
    assert body["seats"][1]["kind"] == "bot" and body["seats"][1]["bot"] == "automa"
    for game, options in (("encyclopedia", {"players": 1}),
                          ("darwins-journey", {"players": 1})):
        for name in ("automa", "alfred"):
            seats = [{"kind": "human"}, {"kind": "bot", "bot": name}]
            response = client.post("/v1/games", json={"game": game, "options": options,
                                                      "seats": seats})
            assert response.status_code == 201, (game, name, response.get_json())
            assert response.get_json()["seats"][1]["bot"] == name
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        problem(client.post("/v1/games", json={"game": game, "options": options,
                                               "seats": seats}), 422, "validation-error")
