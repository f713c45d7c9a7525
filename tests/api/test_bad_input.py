"""Malformed requests: each a clear 4xx problem+json, the game unchanged, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from tests.api.conftest import create, problem, snapshot

JSON = "application/json"


def _stored_keys(redis_client: redis.Redis) -> list[bytes]:
    """Every key but the rate limiter's counters (a refused request still counts against
    its client's limits: bad input is no way around them)."""
    return [k for k in redis_client.keys("*") if not k.startswith(b"bgb:limits")]


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
    assert _stored_keys(redis_client) == []


def test_huge_bodies_are_413(client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    huge = '{"game": "toy-pontoon", "options": {"pad": "' + "x" * 70_000 + '"}}'
    problem(_post(client, "/v1/games", huge), 413, "payload-too-large")
    huge_move = '{"version": 0, "move": {"type": "draw", "pad": "' + "x" * 70_000 + '"}}'
    problem(_post(client, f"/v1/games/{created.id}/moves", huge_move,
                  headers=created.auth(0)), 413, "payload-too-large")
    assert snapshot(redis_client, created.id) == before


def test_huge_chunked_bodies_are_413(client: FlaskClient, redis_client: redis.Redis) -> None:
    # Without Content-Length werkzeug cuts the body at the limit silently: it was a 400.
    # (gunicorn marks a chunked body wsgi.input_terminated; the test client must be told.)
    import io

    chunked = {"wsgi.input_terminated": True}

    huge = b'{"game": "toy-pontoon", "options": {"pad": "' + b"x" * 70_000 + b'"}}'
    response = client.post("/v1/games", input_stream=io.BytesIO(huge), environ_overrides=chunked,
                           headers={"Content-Type": JSON, "Transfer-Encoding": "chunked"})
    problem(response, 413, "payload-too-large")
    assert _stored_keys(redis_client) == []
    small = b'{"game": "toy-pontoon", "options": {"players": 2}}'
    response = client.post("/v1/games", input_stream=io.BytesIO(small),
                           environ_overrides=chunked,
                           headers={"Content-Type": JSON, "Transfer-Encoding": "chunked"})
    assert response.status_code == 201, response.text


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


def test_odd_header_characters_are_4xx(client: FlaskClient, redis_client: redis.Redis) -> None:
    # Found by fuzzing: each of these was a 500 (hmac.compare_digest refuses non-ASCII str;
    # str.isdigit accepts "²", which int() refuses).
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    before = snapshot(redis_client, created.id)
    url = f"/v1/games/{created.id}"
    for token in ("caf\u00e9", "a\u00b2", "tok en", "x" * 300, "abc=def"):
        headers = {"Authorization": f"Bearer {token}"}
        problem(client.get(url, headers=headers), 401, "unauthorized")
        problem(client.post(f"{url}/moves", json={"move": {"type": "draw"}, "version": 0},
                            headers=headers), 401, "unauthorized")
    for if_match in ('"\u00b2"', "\u00b9", '"1\u00b3"'):
        problem(client.post(f"{url}/moves", json={"move": {"type": "draw"}},
                            headers={**created.auth(0), "If-Match": if_match}),
                422, "validation-error")
    stream = client.get(f"{url}/events", headers={"Last-Event-ID": "\u00b2"}, buffered=False)
    assert stream.status_code == 200
    stream.close()
    assert snapshot(redis_client, created.id) == before


@pytest.mark.parametrize("depth", [33, 200, 900])
def test_deeply_nested_bodies_are_400(client: FlaskClient, redis_client: redis.Redis,
                                      depth: int) -> None:
    nested = "[" * depth + "]" * depth
    problem(_post(client, "/v1/games",
                  '{"game": "toy-pontoon", "options": {"players": 2, "x": ' + nested + "}}"),
            400, "bad-request")
    assert _stored_keys(redis_client) == []
    created = create(client)
    before = snapshot(redis_client, created.id)
    problem(_post(client, f"/v1/games/{created.id}/moves",
                  '{"version": 0, "move": {"type": ' + nested + "}}", headers=created.auth(0)),
            400, "bad-request")
    assert snapshot(redis_client, created.id) == before
