"""Rate-limit headers (issue 28): every counted answer says its limit, what remains of it and
when its window frees a place; Retry-After only on a 429; the fast lane's answers too."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from clients.localredis import LocalRedis
from tests.api.conftest import NO_RATE_LIMITS, create, move, problem


def _app(redis_url: str, **limits: Any) -> Flask:
    return create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS, **limits})


@pytest.fixture
def limited(redis_client: redis.Redis, redis_url: str) -> Iterator[FlaskClient]:
    yield _app(
        redis_url,
        RATE_LIMIT_CREATE="3/minute",
        RATE_LIMIT_MOVES_PER_SEAT="4/minute",
        RATE_LIMIT_MOVES="100/minute",
        RATE_LIMIT_READS="5/minute",
        RATE_LIMIT_OTHER="50/minute",
    ).test_client()


def _limit(response: Any) -> tuple[int, int, int]:
    """The answer's (limit, remaining, reset), each header exactly once."""
    values = []
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
        found = response.headers.getlist(name)
        assert len(found) == 1, (name, found, response.status_code)
        values.append(int(found[0]))
    return values[0], values[1], values[2]


def test_reads_say_their_limit_and_what_remains(limited: FlaskClient) -> None:
    created = create(limited, players=1)
    url = f"/v1/games/{created.id}"
    seen = []
    for _ in range(5):
        # plain reads (the fast lane's) and reads with a query string (the app's) alike
        answer = limited.get(url) if len(seen) % 2 == 0 else limited.get(url + "?lang=en")
        assert answer.status_code == 200
        assert "Retry-After" not in answer.headers  # it means nothing on a 200
        seen.append(_limit(answer))
    assert [s[0] for s in seen] == [5] * 5
    assert [s[1] for s in seen] == [4, 3, 2, 1, 0]
    now = time.time()
    assert all(now < s[2] <= now + 61 for s in seen)
    refused = limited.get(url)
    problem(refused, 429, "rate-limited")
    assert _limit(refused)[:2] == (5, 0)
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # Refused from memory next time: the same headers.
    again = limited.get(url + "?lang=en")
    problem(again, 429, "rate-limited")
    assert _limit(again)[:2] == (5, 0) and "Retry-After" in again.headers


def test_moves_and_other_requests_carry_them(limited: FlaskClient) -> None:
    created = create(limited, players=1)
    assert _limit(limited.get("/v1/games-catalog"))[0] == 50
    for version in range(4):
        answer = move(limited, created, 0, version)
        assert answer.status_code == 200 and _limit(answer)[:2] == (4, 3 - version)
    refused = move(limited, created, 0, 4)
    problem(refused, 429, "rate-limited")
    assert _limit(refused)[:2] == (4, 0)


def test_no_headers_when_limits_are_off(client: FlaskClient, redis_url: str) -> None:
    created = create(client, players=1)
    assert "X-RateLimit-Limit" not in client.get(f"/v1/games/{created.id}").headers
    quiet = _app(redis_url, RATE_LIMIT_READS="5/minute", RATE_LIMIT_HEADERS="off").test_client()
    answer = quiet.get(f"/v1/games/{created.id}")
    assert answer.status_code == 200 and "X-RateLimit-Limit" not in answer.headers


def test_the_headers_are_declared_for_every_limited_answer(limited: FlaskClient) -> None:
    spec = limited.get("/v1/openapi.json").get_json()
    names = {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}
    assert names <= set(spec["components"]["headers"])
    operations = [
        (path, method, op)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if path.startswith("/v1/") and isinstance(op, dict) and "responses" in op
    ]
    assert operations
    for path, method, op in operations:
        for status, response in op["responses"].items():
            assert names <= set(response.get("headers", {})), (method, path, status)
    # What a real 429 of a game read carries is declared there.
    created = create(limited, players=1)
    url = f"/v1/games/{created.id}"
    answers = [limited.get(url) for _ in range(6)]
    declared = spec["paths"]["/v1/games/{game_id}"]["get"]["responses"]
    for answer in answers:
        sent = set(answer.headers.keys()) - {"Content-Type", "Content-Length"}
        assert sent <= set(declared[str(answer.status_code)]["headers"]), answer.status_code
    assert answers[-1].status_code == 429
    # A browser may read them.
    exposed = limited.get(url, headers={"Origin": "https://app.example"}).headers
    assert "X-RateLimit-Remaining" in exposed.get("Access-Control-Expose-Headers", "")


def test_redis_lost_once_the_view_has_answered_leaves_its_answer(tmp_path: Path) -> None:
    """Issue 27's Redis kill: a request counted, then Redis gone before its answer left.
    The headers' window is read with the count, so the view's answer stands (Flask-Limiter's
    own hook read it after the view and turned the answer into a 500)."""
    with LocalRedis(tmp_path) as local:
        app = _app(local.url, RATE_LIMIT_OTHER="50/minute")

        @app.after_request  # registered last, so it runs before the other after-request hooks
        def lose_redis(response: Any) -> Any:
            local.stop()
            return response

        answer = app.test_client().get("/v1/games-catalog")
        assert local.process is None  # Redis was stopped by the hook
    assert answer.status_code == 200, answer.data[:300]
    assert _limit(answer)[:2] == (50, 49)
