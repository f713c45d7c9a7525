"""clients/remote_search.py: the project's search on a game exactly as the API answers it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from flask.testing import FlaskClient

from api import create_app
from clients.remote_search import search
from tests.api.conftest import NO_RATE_LIMITS


@pytest.fixture
def client(redis_client: redis.Redis, redis_url: str) -> Iterator[FlaskClient]:
    yield create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS}).test_client()


@pytest.mark.parametrize(("game", "options"), [
    ("darwins-journey", {"players": 1, "alfred": "green"}),
    ("flotilla", {"players": 3}), ("encyclopedia", {"players": 1})])
def test_a_search_plays_a_legal_move_from_an_api_answer(
        client: FlaskClient, game: str, options: dict) -> None:
    created = client.post("/v1/games", json={"game": game, "options": options, "seed": 3,
                                              "unranked": True}).get_json()
    assert "seats" in created, created
    token = next(s["token"] for s in created["seats"] if s.get("token"))
    for _ in range(3):  # a few decisions, each searched here and posted as it is
        answer = client.get(f"/v1/games/{created['id']}",
                            headers={"Authorization": f"Bearer {token}"}).get_json()
        if answer["to_act"] != answer["seat"]:
            break
        move = search(answer, ms=30, seed=1)
        assert move in answer["legal_moves"]
        posted = client.post(f"/v1/games/{created['id']}/moves",
                             headers={"Authorization": f"Bearer {token}"},
                             json={"move": move, "version": answer["version"]})
        assert posted.status_code == 200, posted.get_json()
