"""BGB_MIN_REPLICAS: a write is acknowledged only once that many replicas have it; fewer
within BGB_REPLICA_TIMEOUT_MS: 503 + Retry-After, the write kept, a retry with the same
Idempotency-Key answered as the first would have been. The test Redis has no replica."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import redis
from flask import Flask

from api import create_app, keys
from tests.api.conftest import NO_RATE_LIMITS, create, move, problem

T = TypeVar("T")


def _app(redis_url: str, replicas: int) -> Flask:
    return create_app({"REDIS_URL": redis_url, "TESTING": True, "MIN_REPLICAS": replicas,
                       "REPLICA_TIMEOUT_MS": 50, **NO_RATE_LIMITS})


def _monitored(redis_url: str, action: Callable[[], T]) -> tuple[T, list[str]]:
    """`action`'s result and the commands Redis received meanwhile (MONITOR)."""
    with redis.Redis.from_url(redis_url).monitor() as monitor:
        result = action()
        with redis.Redis.from_url(redis_url) as other:
            other.echo("monitored")  # the end of what `action` sent
        commands: list[str] = []
        for seen in monitor.listen():
            if seen["command"] == "ECHO monitored":
                return result, commands
            commands.append(seen["command"])
    raise AssertionError("unreachable")


def test_a_move_no_replica_confirmed_is_503_and_kept(redis_client: redis.Redis,
                                                     redis_url: str) -> None:
    plain = _app(redis_url, 0).test_client()
    created = create(plain)
    waiting = _app(redis_url, 1).test_client()
    refused, commands = _monitored(
        redis_url, lambda: move(waiting, created, 0, 0, **{"Idempotency-Key": "once"}))
    body = problem(refused, 503, "service-unavailable")
    assert refused.headers["Retry-After"].isdigit(), body
    assert "replicas" in body["detail"]
    # It waited BGB_REPLICA_TIMEOUT_MS (50), not for ever: Redis received `WAIT 1 50`.
    assert "WAIT 1 50" in commands
    # Stored all the same: the retry finds it (here without the replica requirement).
    assert redis_client.llen(keys.move_log(created.id)) == 1
    retried = move(plain, created, 0, 0, **{"Idempotency-Key": "once"})
    assert retried.status_code == 200, retried.get_json()
    assert redis_client.llen(keys.move_log(created.id)) == 1


def test_creation_and_resignation_wait_for_replicas_too(redis_client: redis.Redis,
                                                        redis_url: str) -> None:
    waiting = _app(redis_url, 1).test_client()
    refused = waiting.post("/v1/games", json={"game": "toy-pontoon",
                                               "options": {"players": 2}})
    problem(refused, 503, "service-unavailable")
    plain = _app(redis_url, 0).test_client()
    created = create(plain)
    resigned = waiting.post(f"/v1/games/{created.id}/resign", headers=created.auth(1), json={})
    problem(resigned, 503, "service-unavailable")
    assert plain.get(f"/v1/games/{created.id}").get_json()["status"] == "finished"


def test_without_the_setting_nothing_waits(redis_client: redis.Redis, redis_url: str) -> None:
    plain = _app(redis_url, 0).test_client()
    created = create(plain)
    assert move(plain, created, 0, 0).status_code == 200
