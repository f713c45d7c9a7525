"""Fuzzing: every registered game fed odd options and mangled moves; schemathesis over the
whole OpenAPI document. Always a documented 4xx problem+json, never a 5xx, state unchanged.

The schemathesis part (skipped when schemathesis is not installed) sends, for each operation,
schema-valid and schema-violating requests (hypothesis, derandomized, EXAMPLES each), with a
made-up game id and aimed at a real game (Darwin's Journey when registered) with the token of
the seat to act, of the other seat, or none; an operation of no game is sent with no key and
with a new player's key (its own for each request). It checks each answer against the document
(status, content type, headers, body schema), that errors are problem+json, and that no
refused request changed the game. A deeper run: BGB_FUZZ_EXAMPLES=250 (issue 19's depth: 0
failures in 18 minutes on the shared 2-core machine, 2026-12-01; the timeout scales with it).
A manual run against a real server (stateful phase, long polls, links) is:
    gunicorn -k gthread --threads 32 -b 127.0.0.1:18765 'api:create_app()' &
    printf '[parameters]\ngame_id = "<id>"\n' > st.toml   # a game created with curl
    schemathesis --config-file st.toml run http://127.0.0.1:18765/v1/openapi.json \
        --checks all --exclude-checks positive_data_acceptance --max-response-time 40 \
        -H "Authorization: Bearer <token of a seat>" --seed 3
(long polls wait up to 30 s by design.) The schema-valid requests must be accepted too
(`positive_data_acceptance`: no 400 or 422), except on the operations of SEMANTIC_422, whose
requests the schema cannot say everything of: what is wrong depends on the game or its state.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

import core
from api import create_app, keys
from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE
from core import find_move
from tests.api.conftest import NO_RATE_LIMITS

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


# Operations whose schema-valid requests the server may refuse with 422 by design, and why:
# each refusal depends on the named game or on the game's state, which no request schema says.
# Every other operation accepts whatever its schema allows (positive_data_acceptance).
SEMANTIC_422 = {
    "POST /v1/games": "options, seats, bots' levels and clock are the named game's",
    "POST /v1/tournaments": "the entrants must fill the named game's seats",
    "GET /v1/games/{game_id}": "a replay's `at` is at most the game's version and does not "
                               "wait (`wait_version`); `seat` without `at` needs a player key",
    "POST /v1/games/{game_id}/moves": "the version in the body or in If-Match, one of the two",
    "POST /v1/games/{game_id}/takeback": "the version in the body or in If-Match",
    "POST /v1/games/{game_id}/analysis": "`seats` must be this game's seats with decisions",
    "POST /v1/records/replay": "a record must verify: its moves legal, its deal its "
                               "commitment's, its events and result the replay's",
}

# Stands for a new player's key in a fuzzed request's headers (`_run` puts a real one in).
PLAYER_KEY = "a-new-players-key"

# Per operation, mode and target (about 600 requests in all); raise it for a deeper manual run.
EXAMPLES = int(os.environ.get("BGB_FUZZ_EXAMPLES", "12"))
GAME = "darwins-journey" if "darwins-journey" in core.game_names() else "toy-pontoon"


@pytest.fixture
def fuzz_app(redis_client: redis.Redis, redis_url: str) -> Iterator[Flask]:
    """The app with event streams cut short (a fuzzed stream would otherwise run for minutes)."""
    yield create_app({"REDIS_URL": redis_url, "TESTING": True, "SSE_MAX_SECONDS": 0.2,
                      "SSE_HEARTBEAT_SECONDS": 0.1, **NO_RATE_LIMITS})


def _problem_checks(status: int, content_type: str, body: bytes) -> None:
    if status < 400:
        return
    assert content_type.split(";")[0].strip() == PROBLEM_MIMETYPE, (status, content_type)
    problem = json.loads(body)
    assert problem["type"].startswith(PROBLEM_BASE) and problem["status"] == status, problem
    assert isinstance(problem["title"], str) and isinstance(problem["detail"], str), problem


def _quick_long_polls(case: Any) -> None:
    # A schema-valid long poll waits up to 30 s for a move that never comes: ask for 0 s.
    query = case.query
    if isinstance(query, dict) and "wait_version" in query:
        timeout = query.get("timeout", 20)
        if isinstance(timeout, int | float) and not isinstance(timeout, bool):
            query["timeout"] = 0


@pytest.mark.slow
@pytest.mark.timeout(max(600, EXAMPLES * 40))  # a deep run takes longer than the default
def test_schemathesis_every_operation(fuzz_app: Flask, redis_client: redis.Redis) -> None:
    schemathesis = pytest.importorskip("schemathesis")
    import hypothesis
    from schemathesis import GenerationMode
    from schemathesis.checks import (
        content_type_conformance,
        negative_data_rejection,
        not_a_server_error,
        positive_data_acceptance,
        response_headers_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    common = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_headers_conformance, response_schema_conformance]
    client = fuzz_app.test_client()
    created = client.post("/v1/games", json={"game": GAME, "options": {"players": 2},
                                             "seed": 5}).get_json()
    game_id = created["id"]
    to_act = created["to_act"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    targets: list[tuple[str, dict[str, Any] | None, dict[str, str] | None]] = [
        ("made-up game", None, None),
        ("seat to act", {"game_id": game_id}, {"Authorization": f"Bearer {tokens[to_act]}"}),
        ("other seat", {"game_id": game_id},
         {"Authorization": f"Bearer {tokens[1 - to_act]}"}),
        ("spectator", {"game_id": game_id}, None),
    ]
    # A player's key (a new player's for each request: one may delete itself or rotate its
    # key), so that the operations of /v1/players/me* and the challenges see valid data too.
    player = ("player", None, {"Authorization": f"Bearer {PLAYER_KEY}"})
    schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", fuzz_app)
    settings = hypothesis.settings(max_examples=EXAMPLES, derandomize=True, database=None,
                                   deadline=None, suppress_health_check=list(
                                       hypothesis.HealthCheck))
    calls = [0]
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 9
    assert set(SEMANTIC_422) <= {operation.label for operation in operations}
    for operation in operations:
        has_game = any(p.name == "game_id" for p in operation.path_parameters)
        # An event stream is documented as text (a string, so that generated clients read it
        # line by line); schemathesis would check each parsed event against that string
        # schema. Its events are checked in tests/api/test_openapi_types.py instead.
        streams = "text/event-stream" in repr(operation.definition.raw.get("responses"))
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            checks = [check for check in common if not (
                streams and check is response_schema_conformance)]
            checks += [negative_data_rejection] if mode == GenerationMode.NEGATIVE else []
            if mode == GenerationMode.POSITIVE and operation.label not in SEMANTIC_422:
                checks.append(positive_data_acceptance)
            for label, path, headers in (targets if has_game else [targets[0], player]):
                strategy = operation.as_strategy(mode, path_parameters=path, headers=headers)
                _run(strategy, settings, checks, label, redis_client, game_id, calls,
                     client)
    assert calls[0] > 20 * len(operations), calls


def _header(response: Any, name: str) -> str:
    value = response.headers.get(name.lower(), response.headers.get(name, ""))
    return value[0] if isinstance(value, list) else str(value or "")


def _run(strategy: Any, settings: Any, checks: list[Any], label: str,
         redis_client: redis.Redis, game_id: str, calls: list[int], client: FlaskClient,
         ) -> None:
    """Fuzz one strategy: the schema's checks, problem+json errors, the game unchanged."""
    import hypothesis

    @settings
    @hypothesis.given(case=strategy)
    def fuzz(case: Any) -> None:
        _quick_long_polls(case)
        if (case.headers or {}).get("Authorization") == f"Bearer {PLAYER_KEY}":
            key = client.post("/v1/players", json={}).get_json()["key"]
            case.headers["Authorization"] = f"Bearer {key}"
        before = redis_client.hget(keys.game_state(game_id), "snapshot")
        response = case.call_and_validate(checks=checks)
        calls[0] += 1
        _problem_checks(response.status_code, _header(response, "Content-Type"),
                        response.content)
        if response.status_code >= 400:
            after = redis_client.hget(keys.game_state(game_id), "snapshot")
            assert after == before, f"{label}: a refused request changed the game"

    try:
        fuzz()
    except hypothesis.errors.Unsatisfiable:
        # An operation without parameters or body has no schema-violating request to make.
        assert any(getattr(check, "__name__", "") == "negative_data_rejection"
                   for check in checks), label  # only in the schema-violating mode
