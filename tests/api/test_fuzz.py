"""Every registered game, fed odd options and mangled moves through the API: 4xx, never 500."""

from __future__ import annotations

import random
from typing import Any

from flask.testing import FlaskClient

from core import find_move

ODD_VALUES: list[Any] = [None, "x", "", -1, 0, 10**12, 1.5, True, False, [], {}, [1], {"a": 1}]


def _games(client: FlaskClient) -> list[dict[str, Any]]:
    return client.get("/v1/games-catalog").get_json()["games"]


def test_odd_options_never_crash(client: FlaskClient) -> None:
    for game in _games(client):
        for option in [*game["options"], "no-such-option"]:
            for value in ODD_VALUES:
                response = client.post("/v1/games", json={"game": game["name"],
                                                          "options": {option: value},
                                                          "seed": 1})
                assert response.status_code in (201, 422), (game["name"], option, value,
                                                             response.data[:300])


def _mangle(move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    mangled = dict(move)
    key = rng.choice(sorted(mangled) + ["extra"])
    mangled[key] = rng.choice(ODD_VALUES)
    return mangled


def test_mangled_moves_are_illegal_not_errors(client: FlaskClient) -> None:
    rng = random.Random(5)
    for game in _games(client):
        players = max(game["min_players"], 2) if game["max_players"] >= 2 else 1
        response = client.post("/v1/games", json={"game": game["name"],
                                                  "options": {"players": players}, "seed": 3})
        if response.status_code != 201:
            continue  # a game without a "players" option
        created = response.get_json()
        seat = created["to_act"]
        token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
        auth = {"Authorization": f"Bearer {token}"}
        url = f"/v1/games/{created['id']}"
        legal = client.get(url, headers=auth).get_json()["legal_moves"]
        for _ in range(40):
            move = _mangle(rng.choice(legal), rng)
            if find_move(legal, move) is not None:
                continue
            response = client.post(f"{url}/moves", json={"move": move, "version": 0},
                                   headers=auth)
            assert response.status_code == 422, (game["name"], move, response.data[:300])
        assert client.get(url).get_json()["version"] == 0
