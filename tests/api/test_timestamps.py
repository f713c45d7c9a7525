"""Timestamps in one format everywhere (issue 28): RFC 3339, UTC, milliseconds, "Z" — in
players, their games, webhooks and deliveries, webhook payloads, tournaments and records."""

from __future__ import annotations

import json
import re
import time
from datetime import datetime
from typing import Any

import redis
import rq
from flask.testing import FlaskClient

from api import timestamps
from tests.api.conftest import move

RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def _recent(text: Any) -> float:
    """`text` as a Unix time, checked to be RFC 3339 and about now."""
    assert isinstance(text, str) and RFC3339.match(text), text
    moment = datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    assert abs(moment - time.time()) < 120, text
    return moment


def test_the_format() -> None:
    assert timestamps.rfc3339(0) == "1970-01-01T00:00:00.000Z"
    assert timestamps.rfc3339(1796100000.25) == "2026-12-01T04:40:00.250Z"
    assert timestamps.maybe_rfc3339(None) is None
    assert timestamps.maybe_rfc3339("1796100000.25") == "2026-12-01T04:40:00.250Z"
    assert RFC3339.match(timestamps.now())


def test_player_answers(client: FlaskClient, redis_client: redis.Redis) -> None:
    created = client.post("/v1/players", json={"name": "Ada"}).get_json()
    _recent(created["created"])
    auth = {"Authorization": f"Bearer {created['key']}"}
    assert client.get("/v1/players/me", headers=auth).get_json()["created"] == created["created"]
    client.post(
        "/v1/games",
        headers=auth,
        json={
            "game": "toy-pontoon",
            "options": {"players": 2},
            "seats": [{"kind": "human", "claim": True}, {"kind": "human"}],
        },
    )
    [game] = client.get("/v1/players/me/games", headers=auth).get_json()["games"]
    _recent(game["created"])
    hook = client.post(
        "/v1/players/me/webhooks",
        headers=auth,
        json={"url": "https://push.example.com/bgb", "events": ["your_turn"]},
    ).get_json()
    _recent(hook["created"])
    [listed] = client.get("/v1/players/me/webhooks", headers=auth).get_json()["webhooks"]
    assert listed["created"] == hook["created"]
    # A test delivery: its payload's timestamp, and its logged attempt (as the worker logs).
    client.post(f"/v1/players/me/webhooks/{hook['id']}/test", headers=auth)
    [job] = rq.Queue("webhooks", connection=redis_client).jobs
    _recent(json.loads(job.args[3])["timestamp"])
    from api import keys

    redis_client.lpush(
        keys.webhook_deliveries(created["id"], hook["id"]),
        json.dumps(
            {
                "message_id": "msg_x",
                "at": int(time.time()),
                "event": "ping",
                "outcome": "delivered",
                "status_class": "2xx",
            }
        ),
    )
    [attempt] = client.get(
        f"/v1/players/me/webhooks/{hook['id']}/deliveries", headers=auth
    ).get_json()["deliveries"]
    _recent(attempt["at"])


def test_your_turn_payload(client: FlaskClient, redis_client: redis.Redis) -> None:
    key = client.post("/v1/players", json={}).get_json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    client.post(
        "/v1/players/me/webhooks",
        headers=auth,
        json={"url": "https://push.example.com/bgb", "events": ["your_turn"]},
    )
    game = client.post(
        "/v1/games",
        headers=auth,
        json={
            "game": "toy-pontoon",
            "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "human", "claim": True}],
        },
    ).get_json()
    from tests.api.conftest import Created

    played = Created(game["id"], {0: game["seats"][0]["token"]}, game)
    assert move(client, played, 0, 0).status_code == 200
    payloads = [json.loads(j.args[3]) for j in rq.Queue("webhooks", connection=redis_client).jobs]
    assert [p["type"] for p in payloads] == ["your_turn"]
    _recent(payloads[0]["timestamp"])


def test_tournament_and_record(client: FlaskClient, redis_client: redis.Redis) -> None:
    body = client.post(
        "/v1/tournaments",
        json={
            "game": "toy-pontoon",
            "options": {"players": 2},
            "seed": 11,
            "entrants": [{"kind": "external", "name": "ann"}, {"kind": "external", "name": "bob"}],
        },
    ).get_json()
    _recent(body["created"])
    assert body["finished_at"] is None
    url = f"/v1/tournaments/{body['id']}"
    client.delete(url, headers={"Authorization": f"Bearer {body['creator_token']}"})
    read = client.get(url).get_json()
    assert read["created"] == body["created"]
    assert _recent(read["finished_at"]) >= _recent(read["created"])
    game = client.post(
        "/v1/games", json={"game": "toy-pontoon", "options": {"players": 1}, "seed": 3}
    ).get_json()
    token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    client.post(
        f"/v1/games/{game['id']}/moves",
        headers=token,
        json={"move": {"type": "stop"}, "version": 0},
    )
    _recent(client.get(f"/v1/games/{game['id']}/record").get_json()["created"])
