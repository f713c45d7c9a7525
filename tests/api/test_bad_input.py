"""Malformed requests: each a clear 4xx problem+json, the game unchanged, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from tests.api.conftest import create, problem, snapshot

JSON = "application/json"


def _post(client: FlaskClient, url: str, data: Any, content_type: str | None = JSON,
          headers: dict[str, str] | None = None) -> Any:
    return client.post(url, data=data, content_type=content_type, headers=headers or {})


CREATE_CASES = [
    ("{not json", JSON, 400, "bad-request"),
    ('{"game": "toy-pontoon"', JSON, 400, "bad-request"),
    (b"\xff\xfe\x00", JSON, 400, "bad-request"),
    ('{"game": "toy-pontoon", "seed": NaN}', JSON, 400, "bad-request"),
    ("[" * 30000 + "]" * 30000, JSON, 400, "bad-request"),
    ('{"game": "toy-pontoon"}', "text/plain", 415, "unsupported-media-type"),
    ("game=toy-pontoon", "application/x-www-form-urlencoded", 415, "unsupported-media-type"),
    ("[1, 2]", JSON, 422, "validation-error"),
    ('"toy-pontoon"', JSON, 422, "validation-error"),
    ("null", JSON, 422, "validation-error"),
    ("{}", JSON, 422, "validation-error"),
    ('{"game": 5}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "options": []}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": "12"}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": 1.5}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": true}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": -1}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": 1e300}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "unknown": 1}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seats": {"kind": "human"}}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seats": [{"kind": "human", "x": 1}, {"kind": "human"}]}', JSON,
     422, "validation-error"),
    ('{"game": "toy-pontoon", "options": {"players": "2"}}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "options": {"players": true}}', JSON, 422, "validation-error"),
    ('{"game": "no-such-game"}', JSON, 422, "validation-error"),
]


@pytest.mark.parametrize(("data", "content_type", "status", "slug"), CREATE_CASES)
def test_bad_game_creation(client: FlaskClient, redis_client: redis.Redis, data: Any,
                           content_type: str, status: int, slug: str) -> None:
    problem(_post(client, "/v1/games", data, content_type), status, slug)
    assert redis_client.dbsize() == 0


def test_huge_bodies_are_413(client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    huge = '{"game": "toy-pontoon", "options": {"pad": "' + "x" * 70_000 + '"}}'
    problem(_post(client, "/v1/games", huge), 413, "payload-too-large")
    huge_move = '{"version": 0, "move": {"type": "draw", "pad": "' + "x" * 70_000 + '"}}'
    problem(_post(client, f"/v1/games/{created.id}/moves", huge_move,
                  headers=created.auth(0)), 413, "payload-too-large")
    assert snapshot(redis_client, created.id) == before


MOVE_CASES = [
    ("{oops", JSON, 400, "bad-request"),
    ('{"move": {"type": "draw"}, "version": 0}', "text/plain", 415, "unsupported-media-type"),
    ('{"move": "draw", "version": 0}', JSON, 422, "validation-error"),
    ('{"move": ["draw"], "version": 0}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": "0"}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": 0.5}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": -1}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": null}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": 0, "seat": 1}', JSON, 422, "validation-error"),
    ('{"version": 0}', JSON, 422, "validation-error"),
    ("[]", JSON, 422, "validation-error"),
    ('{"move": {"type": "teleport"}, "version": 0}', JSON, 422, "illegal-move"),
    ('{"move": {"type": "draw", "n": 2}, "version": 0}', JSON, 422, "illegal-move"),
    ('{"move": {"type": {"nested": [1, {"deep": null}]}}, "version": 0}', JSON, 422,
     "illegal-move"),
    ('{"move": {"type": "draw"}, "version": 99999999999999999999999}', JSON, 409,
     "stale-version"),
]


@pytest.mark.parametrize(("data", "content_type", "status", "slug"), MOVE_CASES)
def test_bad_moves(client: FlaskClient, redis_client: redis.Redis, data: Any, content_type: str,
                   status: int, slug: str) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    problem(_post(client, f"/v1/games/{created.id}/moves", data, content_type,
                  headers=created.auth(0)), status, slug)
    assert snapshot(redis_client, created.id) == before
    assert client.get(f"/v1/games/{created.id}/moves").get_json()["moves"] == []


def test_empty_move_body_is_a_validation_error(client: FlaskClient) -> None:
    created = create(client)
    response = client.post(f"/v1/games/{created.id}/moves", headers=created.auth(0))
    problem(response, 422, "validation-error")


@pytest.mark.parametrize("path", [
    "/nope", "/v1", "/v1/games/abc/nope", "/v1/games/" + "x" * 500,
    "/v1/games/bad%20id", "/v1/games/..%2F..", "/v1/games/nosuchgame",
    "/v1/games/nosuchgame/moves", "/v1/games/nosuchgame/events",
])
def test_unknown_routes_and_games_are_404(client: FlaskClient, path: str) -> None:
    problem(client.get(path), 404, "not-found")


@pytest.mark.parametrize(("method", "path"), [
    ("delete", "/v1/games"), ("put", "/v1/games-catalog"), ("patch", "/healthz"),
    ("get", "/v1/games"), ("delete", "/v1/games/abc/moves"), ("post", "/v1/bots"),
])
def test_wrong_methods_are_405(client: FlaskClient, method: str, path: str) -> None:
    response = getattr(client, method)(path)
    problem(response, 405, "method-not-allowed")
    assert "Allow" in response.headers


def test_bad_query_parameters(client: FlaskClient) -> None:
    created = create(client)
    for query in ("wait_version=abc", "wait_version=0&timeout=31", "timeout=-1",
                  "wait_version=-5", "wait_version=99999999999999999999999", "timeout=nan"):
        problem(client.get(f"/v1/games/{created.id}?{query}"), 422, "validation-error")
