"""Abuse is refused, not queued (issue 18): rate limits answered 429 with Retry-After, the bot
budget ceiling, the ceiling on a creator's games with bots, and aborting a game."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api import botauth, create_app, keys
from api.connections import client_group
from tests.api.conftest import NO_RATE_LIMITS, create, move, problem


def _app(redis_url: str, **limits: Any) -> Flask:
    return create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS, **limits})


@pytest.fixture
def limited(redis_client: redis.Redis, redis_url: str) -> Iterator[FlaskClient]:
    """An app with small limits: 3 creations, 4 moves a seat, 20 reads a minute."""
    yield _app(redis_url, RATE_LIMIT_CREATE="3/minute", RATE_LIMIT_MOVES_PER_SEAT="4/minute",
               RATE_LIMIT_MOVES="100/minute", RATE_LIMIT_READS="20/minute").test_client()


def _rate_limited(response: Any) -> dict[str, Any]:
    body = problem(response, 429, "rate-limited")
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= 60 and body["retry_after"] == wait
    return body


def test_game_creation_is_limited_per_client_address(limited: FlaskClient,
                                                     redis_client: redis.Redis) -> None:
    for _ in range(3):
        create(limited)
    before = len(redis_client.keys(keys.game_meta("*")))
    _rate_limited(limited.post("/v1/games", json={"game": "toy-pontoon"}))
    assert len(redis_client.keys(keys.game_meta("*"))) == before  # nothing created
    # Another address has its own allowance.
    other = limited.post("/v1/games", json={"game": "toy-pontoon"},
                         environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert other.status_code == 201


def test_moves_are_limited_per_seat_token(limited: FlaskClient) -> None:
    created = create(limited, players=1)
    for version in range(4):
        assert move(limited, created, 0, version).status_code == 200
    _rate_limited(move(limited, created, 0, 4))
    assert limited.get(f"/v1/games/{created.id}").get_json()["version"] == 4


def test_reads_are_limited_per_client_address(limited: FlaskClient) -> None:
    created = create(limited, players=1)
    answers = [limited.get(f"/v1/games/{created.id}").status_code for _ in range(20)]
    assert answers == [200] * 20
    _rate_limited(limited.get(f"/v1/games/{created.id}"))
    # Each kind of read (game, log, events) counts on its own.
    assert limited.get(f"/v1/games/{created.id}/moves").status_code == 200
    # Docs and health are never limited.
    assert limited.get("/healthz").status_code == 200


def test_the_servers_own_bots_are_never_limited(limited: FlaskClient,
                                                redis_client: redis.Redis) -> None:
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "human"}]
    created = create(limited, players=2, seats=seats)
    headers = {"Authorization": f"Bearer {botauth.bot_token(redis_client, created.id, 0)}"}
    for _ in range(25):
        assert limited.get(f"/v1/games/{created.id}", headers=headers).status_code == 200
    answer = limited.post(f"/v1/games/{created.id}/moves", headers=headers,
                          json={"move": {"type": "draw"}, "version": 0})
    assert answer.status_code == 200


def test_bot_budgets_over_the_ceiling_are_refused(redis_client: redis.Redis,
                                                  redis_url: str) -> None:
    client = _app(redis_url, MAX_BOT_MS=2000).test_client()
    seats = [{"kind": "bot", "bot": "mcts", "params": {"ms": 600_000}},
             {"kind": "bot", "bot": "mcts", "params": {"ms": 2000}}]
    refused = client.post("/v1/games", json={"game": "toy-pontoon", "options": {"players": 2},
                                             "seats": seats})
    body = problem(refused, 422, "validation-error")
    assert "2000 ms" in json.dumps(body["errors"]) and "seat 0" in json.dumps(body["errors"])
    assert redis_client.keys(keys.game_meta("*")) == []
    seats[0]["params"] = {"ms": 2000}
    assert client.post("/v1/games", json={"game": "toy-pontoon", "options": {"players": 2},
                                          "seats": seats}).status_code == 201


def test_the_worker_caps_any_bot_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from ai_worker.bots import get_bot
    from ai_worker.jobs import capped_budget

    monkeypatch.setenv("BGB_MAX_BOT_MS", "1500")
    schema = get_bot("mcts").params_schema()
    assert capped_budget(schema, {"ms": 600_000})["ms"] == 1500
    assert capped_budget(schema, {"iterations": 10_000_000})["ms"] == 1500
    assert capped_budget(schema, {"ms": 200})["ms"] == 200
    assert capped_budget(schema, {}) == {}  # the default budget is small already
    assert capped_budget(get_bot("random").params_schema(), {"x": 1}) == {"x": 1}


def test_bot_games_per_creator_are_capped_until_one_ends(redis_client: redis.Redis,
                                                         redis_url: str) -> None:
    client = _app(redis_url, MAX_BOT_GAMES_PER_CREATOR=2).test_client()
    body = {"game": "toy-pontoon", "options": {"players": 2},
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}
    first = client.post("/v1/games", json=body).get_json()
    client.post("/v1/games", json=body)
    refused = client.post("/v1/games", json=body)
    problem(refused, 429, "too-many-bot-games")
    assert refused.headers["Retry-After"]
    # Human games are not counted.
    assert client.post("/v1/games", json={"game": "toy-pontoon"}).status_code == 201
    # Once one of the bot games is over (here aborted), another may start.
    aborted = client.post(f"/v1/games/{first['id']}/abort",
                          headers={"Authorization": f"Bearer {first['creator_token']}"})
    assert aborted.status_code == 200
    assert client.post("/v1/games", json=body).status_code == 201


def test_abort_by_the_creator_ends_the_game(client: FlaskClient,
                                            redis_client: redis.Redis) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = create(client, players=2, seats=seats)
    assert move(client, created, 0, 0).status_code == 200  # seat 1 (a bot) is to act
    url = f"/v1/games/{created.id}/abort"
    creator = {"Authorization": f"Bearer {created.body['creator_token']}"}
    # Only the creator: not a seat's token, not no token.
    problem(client.post(url, headers=created.auth(0)), 401, "unauthorized")
    problem(client.post(url), 401, "unauthorized")
    answer = client.post(url, headers=creator)
    assert answer.status_code == 200 and answer.get_json() == {"version": 2,
                                                               "status": "aborted"}
    # The bot's pending turn is dropped, the game reads as aborted, its deal is revealed.
    assert redis_client.zscore(keys.bot_turns(), created.id) is None
    read = client.get(f"/v1/games/{created.id}", headers=created.auth(0)).get_json()
    assert read["status"] == "aborted" and read["to_act"] is None
    assert read["legal_moves"] == [] and read["result"] is None
    assert read["deal"]["revealed"]["seed"] is not None
    problem(move(client, created, 0, 2), 409, "game-over")
    problem(client.post(url, headers=creator), 409, "game-over")
    log = client.get(f"/v1/games/{created.id}/moves").get_json()["moves"]
    assert log[-1]["move"] == {"type": "abort"} and log[-1]["seat"] is None
    assert log[-1]["version"] == 2


@pytest.fixture
def hung_redis() -> Iterator[tuple[str, list[socket.socket]]]:
    """A server that accepts connections and never answers (a hung Redis): its URL and the
    connections it accepted so far."""
    accepted: list[socket.socket] = []
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(64)

        def accept() -> None:
            while True:
                try:
                    accepted.append(hung.accept()[0])
                except OSError:
                    return  # closed at the end of the test

        threading.Thread(target=accept, daemon=True).start()
        yield f"redis://127.0.0.1:{hung.getsockname()[1]}/0", accepted
    for connection in accepted:
        connection.close()


def test_a_hung_redis_costs_a_request_one_timeout(
        hung_redis: tuple[str, list[socket.socket]]) -> None:
    # Rate limits on (they count in Redis too): the count, the bot check and the view must
    # not each wait for Redis in turn. redis-py's own retries of timeouts are off as well.
    url, accepted = hung_redis
    client = create_app({"REDIS_URL": url, "TESTING": True, "REDIS_TIMEOUT": 0.2,
                         "RATE_LIMIT_CREATE": "30/minute", "RATE_LIMIT_MOVES": "100/minute",
                         "RATE_LIMIT_MOVES_PER_SEAT": "50/minute",
                         "RATE_LIMIT_READS": "100/minute"}).test_client()
    auth = {"Authorization": "Bearer " + "t" * 43}
    for method, path, body in [("GET", "/v1/games/g1", None),
                               ("POST", "/v1/games/g1/moves",
                                {"move": {"type": "draw"}, "version": 0}),
                               ("POST", "/v1/games", {"game": "toy-pontoon"})]:
        before = len(accepted)
        response = client.open(path, method=method, json=body, headers=auth)
        problem(response, 503, "service-unavailable")
        # A timed-out connection is dropped: each wait for Redis opened one connection.
        assert len(accepted) - before == 1, f"{method} {path} waited for Redis more than once"


def test_a_fault_of_the_counting_lets_the_request_through(
        redis_client: redis.Redis, redis_url: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    app = _app(redis_url, RATE_LIMIT_READS="20/minute")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a fault of the rate limiter")

    monkeypatch.setattr(app.extensions["bgb-limits"].limiter, "limit", broken)
    created = create(app.test_client(), players=1)
    assert app.test_client().get(f"/v1/games/{created.id}").status_code == 200
    assert "not counted against its rate limit" in caplog.text


@pytest.mark.parametrize(("address", "client"), [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    ("::ffff:198.51.100.9", "198.51.100.9"),
    ("fe80::1%eth0", "fe80::/64"),
    ("", "unknown"),
])
def test_a_client_is_an_ipv4_address_or_an_ipv6_64(address: str, client: str) -> None:
    assert client_group(address) == client


def test_game_creation_counts_an_ipv6_64_as_one_client(limited: FlaskClient) -> None:
    def from_(address: str) -> Any:
        return limited.post("/v1/games", json={"game": "toy-pontoon"},
                            environ_base={"REMOTE_ADDR": address})

    # Three addresses of one /64 share its allowance of 3.
    for host in (1, 2, 3):
        assert from_(f"2001:db8:aa:bb::{host}").status_code == 201
    _rate_limited(from_("2001:db8:aa:bb:1234::9"))
    # The next /64 is another client; IPv4 addresses side by side are too.
    assert from_("2001:db8:aa:bc::1").status_code == 201
    for host in (1, 2, 3, 4):
        assert from_(f"192.0.2.{host}").status_code == 201


@pytest.mark.parametrize("path", ["/healthz", "/v1/games-catalog", "/v1/openapi.json",
                                  "/problems/"])
def test_every_endpoint_is_under_a_limit(redis_url: str, path: str) -> None:
    app = _app(redis_url, RATE_LIMIT_OTHER="5/minute")
    client = app.test_client()
    for _ in range(5):
        assert client.get(path).status_code == 200, path
    _rate_limited(client.get(path))
    # Another client is not refused for it.
    assert client.get(path, environ_base={"REMOTE_ADDR": "10.9.8.7"}).status_code == 200


def test_every_route_counts_against_a_limit(redis_client: redis.Redis, redis_url: str) -> None:
    """Each route of the app, each method (a made-up id, no credentials, an empty body):
    its answer, whatever it is, says the limit it counted against."""
    app = _app(redis_url, RATE_LIMIT_CREATE="99/minute", RATE_LIMIT_MOVES="99/minute",
               RATE_LIMIT_MOVES_PER_SEAT="99/minute", RATE_LIMIT_READS="99/minute",
               RATE_LIMIT_OTHER="99/minute")
    client = app.test_client()
    tried = set()
    for rule in app.url_map.iter_rules():
        url = re.sub(r"<int:[a-z_]+>", "0", re.sub(r"<(path:)?[a-z_]+>", "Xq3f9LmQ2aZk7WcP",
                                                   rule.rule))
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            answer = client.open(url, method=method, json={} if method != "GET" else None)
            assert answer.headers.get("X-RateLimit-Limit") == "99", (method, url,
                                                                     answer.status_code)
            tried.add((method, rule.rule))
    assert len(tried) >= 55, len(tried)


def test_requests_that_match_no_route_count_against_a_limit(redis_client: redis.Redis,
                                                            redis_url: str) -> None:
    """A path no route has (404), or a method its route does not take (405), counts against
    the "other" limit like any request: such a flood is refused with 429 too."""
    app = _app(redis_url, RATE_LIMIT_OTHER="3/minute")
    client = app.test_client()
    answers = [client.get("/v1/no-such-thing").status_code for _ in range(3)]
    answers.append(client.delete("/v1/games-catalog").status_code)
    assert answers == [404, 404, 404, 429], answers
    assert client.get("/v1/no-such-thing").headers.get("X-RateLimit-Limit") == "3"


def test_a_refused_client_stays_refused_until_its_window_frees_a_place(
        limited: FlaskClient, redis_client: redis.Redis) -> None:
    for _ in range(3):
        create(limited)
    first = _rate_limited(limited.post("/v1/games", json={"game": "toy-pontoon"}))
    # Refused from memory: the answer does not ask Redis, whose counts may even be gone.
    for key in redis_client.scan_iter(f"{keys.PREFIX}:limits*"):
        redis_client.delete(key)
    again = _rate_limited(limited.post("/v1/games", json={"game": "toy-pontoon"}))
    assert again["retry_after"] <= first["retry_after"]
