"""Fixtures of the API tests: an app on the test Redis (flushed around each test)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

import tests.api.secretgame  # noqa: F401  (registers toy-secret)
from api import create_app, keys


@dataclass
class Created:
    """A game created through the API."""

    id: str
    tokens: dict[int, str]
    body: dict[str, Any]

    def auth(self, seat: int) -> dict[str, str]:
        """The Authorization header of `seat`."""
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


# The rate limits off: these tests post far faster than any client may. The limits have
# tests of their own (test_limits.py).
NO_RATE_LIMITS = {"RATE_LIMIT_CREATE": "off", "RATE_LIMIT_MOVES": "off",
                  "RATE_LIMIT_MOVES_PER_SEAT": "off", "RATE_LIMIT_READS": "off",
                  "RATE_LIMIT_OTHER": "off", "MAX_BOT_GAMES_PER_CREATOR": 0}


@pytest.fixture
def app(redis_client: redis.Redis, redis_url: str) -> Iterator[Flask]:
    """The API app on the flushed test database."""
    yield create_app({"REDIS_URL": redis_url, "TESTING": True, "SSE_MAX_SECONDS": 5,
                      "SSE_HEARTBEAT_SECONDS": 0.2, **NO_RATE_LIMITS})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the app."""
    return app.test_client()


def create(client: FlaskClient, game: str = "toy-pontoon", players: int = 2,
           seed: int | None = 7, **extra: Any) -> Created:
    """Create a game and return its id, its human seats' tokens and the answer."""
    body: dict[str, Any] = {"game": game, "options": {"players": players}, **extra}
    if seed is not None:
        body["seed"] = seed
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    tokens = {s["seat"]: s["token"] for s in data["seats"] if s["kind"] == "human"}
    return Created(data["id"], tokens, data)


def move(client: FlaskClient, created: Created, seat: int, version: int,
         kind: str = "draw", **headers: str) -> Any:
    """Post a toy move for `seat` at `version`."""
    return client.post(f"/v1/games/{created.id}/moves",
                       json={"move": {"type": kind}, "version": version},
                       headers={**created.auth(seat), **headers})


def snapshot(redis_client: redis.Redis, game_id: str) -> dict[str, Any]:
    """The stored snapshot of a game (tests only: no endpoint ever returns it)."""
    return json.loads(redis_client.hget(keys.game_state(game_id), "snapshot"))


def problem(response: Any, status: int, slug: str) -> dict[str, Any]:
    """Assert `response` is the problem `slug` with `status`; return its body."""
    assert response.status_code == status, (response.status_code, response.data[:500])
    assert response.mimetype == "application/problem+json", response.mimetype
    body = json.loads(response.data)
    assert body["type"] == f"https://boardgamesbot.dev/problems/{slug}", body
    assert body["status"] == status
    assert isinstance(body["title"], str) and isinstance(body["detail"], str)
    return body


def sse_events(text: str) -> list[dict[str, Any]]:
    """The events of an SSE text, as {"id", "event", "data"}."""
    events = []
    for block in text.split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            if name in ("id", "event"):
                fields[name] = value
            elif name == "data":
                fields["data"] = json.loads(value)
        if "event" in fields:
            events.append(fields)
    return events
