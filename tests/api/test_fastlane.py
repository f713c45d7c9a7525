"""The fast lane (api.fastlane): plain game reads and moves answered without Flask, exactly
as the views answer them; every other request handed to the app, which answers it."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client import REGISTRY

import api.games
from api import create_app
from api.fastlane import FastLane
from api.request_limits import RequestLimits
from tests.api.conftest import NO_RATE_LIMITS, Created, create, problem


@dataclass
class Lane:
    """An app with the lane, and how many requests the lane handed on to the app."""

    app: Flask
    client: FlaskClient
    handed_on: list[str]


def _fast_lane(app: Flask) -> FastLane | None:
    """The app's fast lane, under the request size limits that create_app puts outermost;
    None when it has none."""
    wsgi = app.wsgi_app
    assert isinstance(wsgi, RequestLimits)
    return wsgi.app if isinstance(wsgi.app, FastLane) else None


def _lane(app: Flask) -> Lane:
    lane = _fast_lane(app)
    assert lane is not None
    handed_on: list[str] = []
    inner = lane.inner

    def counting(environ: dict[str, Any], start_response: Any) -> Any:
        handed_on.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")
        return inner(environ, start_response)

    lane.inner = counting
    return Lane(app, app.test_client(), handed_on)


def _config(redis_url: str, **extra: Any) -> dict[str, Any]:
    return {"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS, **extra}


@pytest.fixture
def lane(redis_client: redis.Redis, redis_url: str) -> Lane:
    """The API app with its fast lane (as create_app builds it), counting hand-ons."""
    return _lane(create_app(_config(redis_url)))


@pytest.fixture
def plain(redis_client: redis.Redis, redis_url: str) -> Iterator[FlaskClient]:
    """A client of the same API without the lane: every request through Flask."""
    app = create_app(_config(redis_url, FAST_LANE=False))
    assert _fast_lane(app) is None
    yield app.test_client()


def _same_game(client: FlaskClient, game: str, players: int) -> Created:
    # unranked: the seed alone deals, so both apps get the same game
    return create(client, game, players, seed=11, unranked=True)


def _comparable(response: Any) -> tuple[int, dict[str, str], Any]:
    """A response's status, headers and body, without what differs between two games."""
    body = json.loads(response.data) if response.data else None
    if isinstance(body, dict):
        body.pop("id", None)
        body.pop("deal", None)  # its commitment is salted per game
    headers = {name: value for name, value in response.headers.items()
               if name != "Content-Length"}
    return response.status_code, headers, body


@pytest.mark.parametrize("game,players", [("darwins-journey", 2), ("toy-pontoon", 2)])
def test_reads_and_moves_answer_as_the_views(lane: Lane, plain: FlaskClient, game: str,
                                             players: int) -> None:
    fast, slow = _same_game(lane.client, game, players), _same_game(plain, game, players)
    version, to_act = 0, fast.body["to_act"]
    for _ in range(12):
        if to_act is None:
            break
        read_fast = lane.client.get(f"/v1/games/{fast.id}", headers=fast.auth(to_act))
        read_slow = plain.get(f"/v1/games/{slow.id}", headers=slow.auth(to_act))
        assert _comparable(read_fast) == _comparable(read_slow)
        assert lane.client.get(f"/v1/games/{fast.id}").data.replace(fast.id.encode(), b"") \
            .split(b'"deal"')[0] == plain.get(f"/v1/games/{slow.id}").data \
            .replace(slow.id.encode(), b"").split(b'"deal"')[0]  # a spectator's read too
        chosen = read_fast.get_json()["legal_moves"][-1]
        moved_fast = lane.client.post(f"/v1/games/{fast.id}/moves", headers=fast.auth(to_act),
                                      json={"move": chosen, "version": version})
        moved_slow = plain.post(f"/v1/games/{slow.id}/moves", headers=slow.auth(to_act),
                                json={"move": chosen, "version": version})
        assert moved_fast.status_code == 200
        assert _comparable(moved_fast) == _comparable(moved_slow)
        assert moved_fast.data == moved_slow.data
        version, to_act = moved_fast.get_json()["version"], moved_fast.get_json()["to_act"]
    assert version > 0
    assert lane.handed_on == ["POST /v1/games"]  # only the creation went to Flask


def test_unusual_requests_go_to_the_app(lane: Lane, plain: FlaskClient) -> None:
    created = create(lane.client, players=1)
    url = f"/v1/games/{created.id}"
    moves = url + "/moves"
    draw = {"move": {"type": "draw"}, "version": 0}
    problem(lane.client.post(moves, json=draw, headers={"Authorization": "Bearer nope"}),
            401, "unauthorized")
    problem(lane.client.post(moves, json=draw), 401, "unauthorized")
    problem(lane.client.post(moves, json={**draw, "version": 3}, headers=created.auth(0)),
            409, "stale-version")
    problem(lane.client.post(moves, json={**draw, "move": {"type": "fly"}},
                             headers=created.auth(0)), 422, "illegal-move")
    problem(lane.client.post(moves, json={**draw, "extra": 1}, headers=created.auth(0)),
            422, "validation-error")
    problem(lane.client.post(moves, data=json.dumps(draw), content_type="text/plain",
                             headers=created.auth(0)), 415, "unsupported-media-type")
    problem(lane.client.post("/v1/games/nosuchgame/moves", json=draw, headers=created.auth(0)),
            404, "not-found")
    problem(lane.client.get("/v1/games/nosuchgame"), 404, "not-found")
    assert len(lane.handed_on) == 1 + 8  # the creation and these
    # languages other than English relabel the moves in a hook of the app
    read = lane.client.get(url, headers={**created.auth(0), "Accept-Language": "pt-BR"})
    assert read.headers["Content-Language"] == "pt-BR"
    assert lane.client.get(url + "?lang=pt-BR").headers["Content-Language"] == "pt-BR"
    assert lane.client.get(url, headers={"If-None-Match": '"0"'}).status_code == 304
    assert len(lane.handed_on) == 12
    # a retry with an Idempotency-Key: the first goes through the lane, the retry replays
    first = lane.client.post(moves, json=draw, headers={**created.auth(0),
                                                         "Idempotency-Key": "k"})
    assert first.status_code == 200 and len(lane.handed_on) == 12
    again = lane.client.post(moves, json=draw, headers={**created.auth(0),
                                                        "Idempotency-Key": "k"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json() and len(lane.handed_on) == 13


@pytest.mark.parametrize("allowed", ["*", "https://app.example",
                                     "https://app.example, https://Other.example"])
def test_cors_headers_as_flask_cors_adds_them(redis_client: redis.Redis, redis_url: str,
                                              allowed: str) -> None:
    """The lane's CORS headers (api.cors) are those flask-cors adds on the app's path, for
    every kind of policy and request origin; a request without Origin gets none."""
    lane = _lane(create_app(_config(redis_url, CORS_ORIGINS=allowed)))
    plain = create_app(_config(redis_url, CORS_ORIGINS=allowed, FAST_LANE=False)).test_client()
    created = create(lane.client, players=1)
    for origin in (None, "https://app.example", "https://other.example", "https://evil.example"):
        headers = {"Origin": origin} if origin else {}
        fast = lane.client.get(f"/v1/games/{created.id}", headers=headers)
        slow = plain.get(f"/v1/games/{created.id}", headers=headers)

        def cors(answer: Any) -> list[tuple[str, str]]:
            # a list's order means nothing: compare its items
            return sorted((k, ", ".join(sorted(v.split(", "))))
                          for k, v in answer.headers.items()
                          if k.startswith("Access-Control") or (k, v) == ("Vary", "Origin"))
        assert cors(fast) == cors(slow), origin
        allowed_here = origin is not None and (
            allowed == "*" or origin.lower() in allowed.lower())
        assert bool(cors(slow)) == allowed_here, origin
    assert lane.handed_on == ["POST /v1/games"]


def test_rate_limits_count_once_in_the_lane(redis_client: redis.Redis, redis_url: str) -> None:
    limited = _lane(create_app(_config(redis_url, RATE_LIMIT_READS="3/minute",
                                       RATE_LIMIT_MOVES_PER_SEAT="2/minute")))
    created = create(limited.client, players=1)
    url = f"/v1/games/{created.id}"
    assert limited.client.get(url).status_code == 200  # served by the lane
    assert limited.client.get(url, headers={"If-None-Match": '"0"'}).status_code == 304
    assert limited.client.get(url).status_code == 200
    problem(limited.client.get(url), 429, "rate-limited")  # the 4th read: counted once each
    assert limited.handed_on == ["POST /v1/games", f"GET {url}"]  # the 304 only
    moves = url + "/moves"
    draw = {"move": {"type": "draw"}, "version": 0}
    problem(limited.client.post(moves, json={**draw, "version": 5}, headers=created.auth(0)),
            409, "stale-version")  # handed on, counted once
    assert limited.client.post(moves, json=draw, headers=created.auth(0)).status_code == 200
    problem(limited.client.post(moves, json={**draw, "version": 1}, headers=created.auth(0)),
            429, "rate-limited")


def test_lane_answers_are_counted(lane: Lane) -> None:
    created = create(lane.client, players=1)

    def count(method: str, endpoint: str) -> float:
        labels = {"method": method, "endpoint": endpoint, "status": "200"}
        return REGISTRY.get_sample_value("bgb_http_requests_total", labels) or 0.0

    before = count("POST", "games.Moves"), count("GET", "games.GameResource")
    lane.client.get(f"/v1/games/{created.id}", headers=created.auth(0))
    lane.client.post(f"/v1/games/{created.id}/moves", headers=created.auth(0),
                     json={"move": {"type": "draw"}, "version": 0})
    assert (count("POST", "games.Moves"), count("GET", "games.GameResource")) == \
        (before[0] + 1, before[1] + 1)
    assert lane.handed_on == ["POST /v1/games"]


def test_an_error_once_stored_is_the_apps_answer(lane: Lane, monkeypatch: Any) -> None:
    created = create(lane.client, players=1)

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise redis.ConnectionError("gone")

    def timed() -> float:
        labels = {"method": "POST", "endpoint": "games.Moves"}
        return REGISTRY.get_sample_value("bgb_http_request_duration_seconds_count",
                                         labels) or 0.0

    monkeypatch.setattr(api.games, "notify_players", unreachable)
    before = timed()
    response = lane.client.post(f"/v1/games/{created.id}/moves",
                                headers={**created.auth(0), "Origin": "https://app.example"},
                                json={"move": {"type": "draw"}, "version": 0})
    problem(response, 503, "service-unavailable")
    assert response.headers["Content-Language"] == "en"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert lane.handed_on == ["POST /v1/games"]  # answered by the app's handlers, not retried
    assert timed() == before + 1  # and timed, as the view's answer would be
    monkeypatch.undo()
    assert lane.client.get(f"/v1/games/{created.id}").get_json()["version"] == 1


def test_a_fault_before_the_commit_is_handed_to_the_app(lane: Lane, monkeypatch: Any) -> None:
    created = create(lane.client, players=1)
    decided_on = api.games._decided_on
    faults = ["once"]

    def faulty_once(*args: Any) -> Any:
        if faults:
            faults.pop()
            raise KeyError("a fault of the lane's first try")
        return decided_on(*args)

    monkeypatch.setattr(api.games, "_decided_on", faulty_once)
    response = lane.client.post(f"/v1/games/{created.id}/moves", headers=created.auth(0),
                                json={"move": {"type": "draw"}, "version": 0})
    # Nothing was stored when it failed: the app decided the move from the start.
    assert response.status_code == 200 and response.get_json()["version"] == 1
    assert lane.handed_on == ["POST /v1/games", f"POST /v1/games/{created.id}/moves"]


def test_redis_not_answering_is_the_apps_answer_at_once(redis_url: str) -> None:
    # a server that accepts connections and never answers: a hung Redis
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(64)
        url = f"redis://127.0.0.1:{hung.getsockname()[1]}/0"
        lane = _lane(create_app(_config(url, REDIS_TIMEOUT=0.2)))
        auth = {"Authorization": "Bearer " + "t" * 43}
        problem(lane.client.get("/v1/games/g1", headers=auth), 503, "service-unavailable")
        problem(lane.client.post("/v1/games/g1/moves", headers=auth,
                                 json={"move": {"type": "draw"}, "version": 0}),
                503, "service-unavailable")
        assert lane.handed_on == []  # answered once, not after a second wait in the view


def test_the_lane_can_be_turned_off(redis_client: redis.Redis, redis_url: str,
                                    monkeypatch: Any) -> None:
    monkeypatch.setenv("BGB_FAST_LANE", "off")
    app = create_app(_config(redis_url))
    assert _fast_lane(app) is None
    created = create(app.test_client(), players=1)
    assert app.test_client().get(f"/v1/games/{created.id}").status_code == 200


_MOVE_BODIES: list[Any] = [
    {"move": {"type": "draw"}, "version": 0},
    {"version": 7, "move": {"type": "place", "worker": 1, "label": "x"}},
    {"move": {"type": "draw"}},
    {"move": {}, "version": 2**70},
    {"move": {"type": "draw"}, "version": -1},
    {"move": {"type": "draw"}, "version": True},
    {"move": {"type": "draw"}, "version": 1.0},
    {"move": {"type": "draw"}, "version": "1"},
    {"move": {"type": "draw"}, "version": None},
    {"move": {"type": "draw"}, "extra": 1},
    {"move": {"type": "draw"}, "version": 0, "bot_job": "j"},
    {"move": ["draw"], "version": 0},
    {"move": None, "version": 0},
    {"version": 0},
    {},
    [],
    None,
]


@pytest.mark.parametrize("document", _MOVE_BODIES)
def test_a_plain_move_body_loads_as_the_schema_loads_it(document: Any) -> None:
    from marshmallow import ValidationError

    from api.fastlane import _plain_move
    from api.schemas import MoveRequestSchema

    plain = _plain_move(document)
    try:
        loaded = MoveRequestSchema().load(document)
    except ValidationError:
        assert plain is None
        return
    if plain is not None:
        assert plain == loaded and list(plain) == list(loaded)
        assert plain["move"] is not document["move"]  # a new dict, as the schema's


@pytest.mark.parametrize("raw", [
    b'{"move": {"type": "draw"}, "version": 3}', b'{"a": 1e400}', b'{"a": -1e400}',
    b'{"a": 123456789012345678901234567890}', b'[18446744073709551616, -9223372036854775809]',
    b'"\\ud800"', b'"\\ud83d\\ude00"', b'"\xed\xa0\x80"', b'{"a": 1, "b": 2, "a": 3}',
    b'[1.5, 0.1, -0.0, 1E-400, 9007199254740993.0]', b'NaN', b'[Infinity]', b'\xef\xbb\xbf{}',
    b'[1,]', b'"\x01"', b' {"a": "\xc3\xa9"} ', b'1 2', b'', b'[' * 33 + b']' * 33,
    b'[' * 32 + b'1.5' + b']' * 32, b'[' * 2000 + b']' * 2000, b'{"a": [{"b": 2**3}]}',
    b'{"a": "x:y", "a": 1}', b'{"a:": 1, "b": {"c": "::"}}', b'[{"a": 1}, {"a": 2}]',
    b'{"a": {"a": {"a": 1}}}', b'{"a": {"b": 1, "b": 1}}', b'{"": 1, "": 2}',
    b'{"a": "x\\": y"}', b'{"a": "x\\": y", "a": 1}', b'{"a" :1, "a"\n :2}',
    b'{"a": "b:c", "d": {"e": "f:g"}}', b'{"a": "b:c", "d": {"e": "f:g", "e": 0}}'])
def test_json_bodies_are_read_as_the_standard_library_reads_them(raw: bytes) -> None:
    """orjson reads bodies where it gives the standard library's document, else json; a
    member named twice is refused."""
    from api.parsing import MAX_DEPTH, Problem, parse_json_body

    def rejected(name: str) -> Any:
        raise ValueError(name)

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({name for name, _ in pairs}) != len(pairs):
            raise ValueError("given twice")
        return dict(pairs)

    try:
        expected: Any = json.loads(raw.decode("utf-8"), parse_constant=rejected,
                                   object_pairs_hook=unique)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        expected = ("given twice" if "given twice" in str(exc)
                    else f"not valid JSON ({type(exc).__name__})")
    else:
        if raw.startswith(b"[" * (MAX_DEPTH + 1)):
            expected = f"nests deeper than {MAX_DEPTH} levels"
    try:
        found = parse_json_body(raw)
    except Problem as refused:
        assert isinstance(expected, str) and expected in refused.detail
        return
    assert repr(found) == repr(expected)


def test_a_player_key_goes_to_the_app(lane: Lane, plain: FlaskClient) -> None:
    """The app checks a player's key (its seats, `?seat`): the lane hands it on, and the
    answers are the app's, the same with and without the lane."""
    answers = []
    for client in (lane.client, plain):
        key = client.post("/v1/players", json={}).get_json()["key"]
        auth = {"Authorization": f"Bearer {key}"}
        game = client.post("/v1/games", headers=auth, json={
            "game": "toy-pontoon", "options": {"players": 1}, "seed": 7,
            "seats": [{"kind": "human", "claim": True}]}).get_json()
        url = f"/v1/games/{game['id']}"
        before = len(lane.handed_on)
        read = client.get(url, headers=auth)
        moved = client.post(f"{url}/moves", headers=auth,
                            json={"move": {"type": "draw"}, "version": 0})
        assert read.status_code == moved.status_code == 200
        if client is lane.client:
            assert len(lane.handed_on) == before + 2
        answers.append((read.get_json()["seat"], moved.get_json()["version"]))
    assert answers == [(0, 1), (0, 1)]
