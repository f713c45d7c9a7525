"""Issue 19: the parts of the typed contract beyond the games' own JSON.

Each bot's parameters typed in the document from the bots' own declared specs; each problem
`type` URI a page the API serves; every operation named, its headers declared.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient

from ai_worker import bots as registry
from api.openapi import pascal
from api.problems import PROBLEM_BASE, PROBLEM_TYPES
from tests.api.test_openapi_types import Document

jsonschema = pytest.importorskip("jsonschema")


def _spec(client: FlaskClient) -> dict[str, Any]:
    return client.get("/v1/openapi.json").get_json()


def _validator(spec: dict[str, Any], name: str) -> Any:
    from openapi_schema_validator import OAS30Validator

    return OAS30Validator({"$ref": f"#/components/schemas/{name}",
                           "components": spec["components"]})


def test_each_bot_has_its_params_schema(client: FlaskClient) -> None:
    """`<Bot>BotParams` is made from the bot's params_schema(): the same names, types, bounds
    and defaults; values the bot refuses are outside the schema, ones it takes inside."""
    pytest.importorskip("openapi_schema_validator")
    spec = _spec(client)
    schemas = spec["components"]["schemas"]
    kinds = {"int": "integer", "float": "number", "bool": "boolean"}
    for name in registry.bot_names():
        declared = registry.get_bot(name).params_schema()
        typed = schemas[f"{pascal(name)}BotParams"]
        assert typed["additionalProperties"] is False
        assert set(typed["properties"]) == set(declared), name
        for param, declared_spec in declared.items():
            prop = typed["properties"][param]
            assert prop["type"] == kinds[declared_spec["type"]], (name, param)
            # Said in words, not as `default` (openapi-typescript would make it required).
            assert "default" not in prop, (name, param)
            assert f"(default: {json.dumps(declared_spec['default'])})" in prop["description"]
            assert prop.get("minimum") == declared_spec.get("min"), (name, param)
            assert prop.get("maximum") == declared_spec.get("max"), (name, param)
        validator = _validator(spec, f"{pascal(name)}BotParams")
        defaults = {param: s["default"] for param, s in declared.items()}
        assert validator.is_valid(defaults)
        assert registry.validate_params(name, declared, defaults) == defaults
        for bad in ({"no_such_param": 1},
                    *({param: "x"} for param in declared),
                    *({param: s["min"] - 1} for param, s in declared.items() if "min" in s),
                    *({param: s["max"] + 1} for param, s in declared.items() if "max" in s)):
            assert not validator.is_valid(bad), (name, bad)
            with pytest.raises(ValueError):
                registry.validate_params(name, declared, bad)
        seat = {"kind": "bot", "bot": name, "params": defaults}
        assert _validator(spec, "SeatSpec").is_valid(seat), name
        assert not _validator(spec, "SeatSpec").is_valid({**seat, "params": {"nope": 1}})
        assert _validator(spec, f"{pascal(name)}SeatSpec").is_valid(seat)
    seats = _validator(spec, "SeatSpec")
    assert seats.is_valid({"kind": "human", "claim": True})
    assert not seats.is_valid({"kind": "bot", "bot": "nobody"})
    # Exactly what the API takes: `claim: false` on a bot seat, empty params of an external
    # entrant (a schemathesis negative case must be refused).
    assert seats.is_valid({"kind": "bot", "bot": "random", "claim": False})
    assert not seats.is_valid({"kind": "bot", "bot": "random", "claim": True})
    assert not seats.is_valid({"kind": "human", "params": {}})
    entrants = _validator(spec, "Entrant")
    assert entrants.is_valid({"kind": "external", "name": "ada", "params": {}})
    assert not entrants.is_valid({"kind": "external", "name": "ada", "params": {"ms": 1}})
    assert entrants.is_valid({"bot": "mcts", "params": {"ms": 250}})
    mcts = schemas["MctsBotParams"]["properties"]
    assert {"ms", "iterations", "c"} <= set(mcts) and mcts["c"]["type"] == "number"


def test_bots_and_bot_seats_answer_as_documented(client: FlaskClient) -> None:
    """`/v1/bots` answers one typed entry per bot; a game seated by typed bot specs is created,
    its answer typed by bot; params outside a bot's schema are a 422."""
    pytest.importorskip("openapi_schema_validator")
    doc = Document(_spec(client))
    listed = doc.check(client.get("/v1/bots"), "get", "/v1/bots")
    assert [bot["name"] for bot in listed["bots"]] == registry.bot_names()
    mcts = next(bot for bot in listed["bots"] if bot["name"] == "mcts")
    assert mcts["params"]["ms"]["type"] == "int"
    body = {"game": "toy-pontoon", "options": {"players": 3}, "seed": 1, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "mcts", "params": {"ms": 50, "c": 0.5}},
        {"kind": "bot", "bot": "greedy"}]}
    created = doc.check(client.post("/v1/games", json=body), "post", "/v1/games")
    assert created["seats"][1]["params"] == {"ms": 50, "c": 0.5}
    body["seats"][1]["params"] = {"ms": -5}
    refused = doc.check(client.post("/v1/games", json=body), "post", "/v1/games")
    assert refused["type"] == PROBLEM_BASE + "validation-error"
    assert not doc.errors, doc.errors


def test_every_problem_type_uri_is_a_page(client: FlaskClient) -> None:
    """Each problem `type` URI the document lists names a page (served at its path) saying
    what the problem means and what to do."""
    spec = _spec(client)
    uris = {value for name, schema in spec["components"]["schemas"].items()
            if name.endswith("Problem")
            for value in schema.get("properties", {}).get("type", {}).get("enum", [])}
    assert uris == {PROBLEM_BASE + slug for slug in PROBLEM_TYPES}
    listed = spec["components"]["schemas"]["Problem"]["properties"]["type"]["description"]
    for uri in sorted(uris):
        assert uri in listed
        page = client.get(urlsplit(uri).path)
        assert page.status_code == 200 and page.mimetype == "text/html", uri
        assert page.headers["Content-Security-Policy"] == "default-src 'none'"
        text = page.get_data(as_text=True)
        kind = PROBLEM_TYPES[uri.removeprefix(PROBLEM_BASE)]
        assert kind.title in text and "What it means" in text and "What to do" in text, uri
        assert str(kind.status) in text
    index = client.get(urlsplit(PROBLEM_BASE).path)
    assert index.status_code == 200 and all(slug in index.get_data(as_text=True)
                                            for slug in PROBLEM_TYPES)
    missing = client.get(urlsplit(PROBLEM_BASE).path + "no-such-problem")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, item in spec["paths"].items()
            for method, op in item.items() if method != "parameters"]


def _media_errors(spec: dict[str, Any], where: str, media: dict[str, Any],
                  example: Any) -> list[str]:
    from openapi_schema_validator import OAS30Validator

    schema = {**media["schema"], "components": spec["components"]}
    return [f"{where}: {error.message[:200]} at {list(error.absolute_path)}"
            for error in OAS30Validator(schema).iter_errors(example)]


def test_every_operation_has_examples_from_a_real_game(client: FlaskClient,
                                                       redis_client: Any) -> None:
    """Every operation shows its request body and its answers as recorded from real games
    (api/openapi_examples.json, made by api.examples); the stored examples and a recording
    made now both validate against the document."""
    pytest.importorskip("openapi_schema_validator")
    from api import examples

    spec = _spec(client)
    recorder = examples.Recorder(client)
    fresh = examples.record(client, redis_client, recorder)
    stored = examples.load()
    assert set(stored) == set(fresh), set(stored) ^ set(fresh)
    errors: list[str] = []
    for method, path, op in _operations(spec):
        key = f"{method.upper()} {path}"
        assert key in fresh, f"{key}: not recorded (add it to api.examples.record)"
        body = op.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            assert "example" in body, f"{key}: no request example"
            errors += _media_errors(spec, f"{key} request", body, body["example"])
        for recording in (stored, fresh):
            entry = recording[key]
            if body is not None:
                assert entry["request"] is not None, key
                errors += _media_errors(spec, f"{key} request", body, entry["request"])
            for status, answer in entry["responses"].items():
                documented = op["responses"][status]
                for media_type, media in documented.get("content", {}).items():
                    if answer is not None and isinstance(answer, str) == \
                            media_type.startswith("text/"):
                        errors += _media_errors(spec, f"{key} {status}", media, answer)
        for status, response in op["responses"].items():
            for media_type, media in response.get("content", {}).items():
                if status.startswith("2") and media_type != "image/png":
                    assert "example" in media, f"{key} {status} {media_type}: no example"
                if "example" in media:
                    errors += _media_errors(spec, f"{key} {status}", media, media["example"])
    assert not errors, errors[:10]
    moves = stored["POST /v1/games/{game_id}/moves"]["responses"]
    assert {"200", "403", "409", "422"} <= set(moves)
    # Every header of every answer recorded is declared for its operation and status.
    for (key, status), names in recorder.headers.items():
        method, path = key.split(" ", 1)
        declared = spec["paths"][path][method.lower()]["responses"][status].get("headers", {})
        undeclared = names - set(declared) - {"Content-Type", "Content-Length"}
        assert not undeclared, (key, status, undeclared)


def test_every_request_header_read_is_declared(client: FlaskClient) -> None:
    """Each request header the API reads is a documented parameter of some operation (or,
    for Authorization, its security schemes)."""
    import pathlib
    import re

    import api

    spec = _spec(client)
    read: set[str] = set()
    for source in pathlib.Path(api.__file__).parent.glob("*.py"):
        read |= set(re.findall(r'headers\.get\(\s*"([A-Za-z-]+)"', source.read_text()))
    declared = {parameter["name"] for _, _, op in _operations(spec)
                for parameter in op.get("parameters", []) if parameter.get("in") == "header"}
    declared |= {parameter["name"] for parameter in spec["components"].get(
        "parameters", {}).values() if parameter["in"] == "header"}
    schemes = spec["components"]["securitySchemes"].values()
    assert all(scheme.get("scheme") == "bearer" for scheme in schemes)
    declared |= {"Authorization"}
    # Framing, not an API input: a chunked body is a body (415 unless JSON), and a coded
    # one is refused (415, documented with every body).
    read -= {"Transfer-Encoding", "Content-Encoding"}
    assert read, read
    assert read <= declared, read - declared
    for _, path, op in _operations(spec):
        if path.startswith("/v1/"):
            names = {p.get("$ref", "").rsplit("/", 1)[-1] for p in op.get("parameters", [])}
            assert {"AcceptLanguage", "Lang"} <= names, path


def test_rate_limited_answers_are_documented(redis_client: Any, redis_url: str) -> None:
    """A 429 of a rate limit (reads, moves, creations) is documented for its operation, typed
    `RateLimitedProblem` with Retry-After: the operations the limiter counts get one."""
    pytest.importorskip("openapi_schema_validator")
    from api import create_app
    from tests.api.conftest import NO_RATE_LIMITS

    app = create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS,
                      "RATE_LIMIT_READS": "2/minute", "RATE_LIMIT_MOVES": "1/minute",
                      "RATE_LIMIT_CREATE": "2/minute"})
    client = app.test_client()
    doc = Document(_spec(client))
    created = doc.check(client.post("/v1/games", json={"game": "toy-pontoon", "seed": 1,
                                                       "options": {"players": 2}}),
                        "post", "/v1/games")
    game = f"/v1/games/{created['id']}"
    auth = {"Authorization": f"Bearer {created['seats'][created['to_act']]['token']}"}
    for path, operation in ((game, "/v1/games/{game_id}"),
                            (f"{game}/moves", "/v1/games/{game_id}/moves")):
        answers = [client.get(path) for _ in range(3)]
        assert answers[-1].status_code == 429
        limited = doc.check(answers[-1], "get", operation)
        assert limited["type"] == PROBLEM_BASE + "rate-limited" and limited["retry_after"] >= 1
    moves = [client.post(f"{game}/moves", json={"move": {"type": "draw"}, "version": v},
                         headers=auth) for v in range(2)]
    assert doc.check(moves[-1], "post", "/v1/games/{game_id}/moves")["status"] == 429
    players = [client.post("/v1/players", json={}) for _ in range(3)]
    assert players[-1].status_code == 429, [p.status_code for p in players]
    doc.check(players[-1], "post", "/v1/players")
    assert not doc.errors, doc.errors


def test_game_json_is_typed_wherever_it_travels(client: FlaskClient) -> None:
    """No answer carries a game's moves, events, view or result as a free-form object: each
    is a reference to the typed unions (a new member added by the API is caught here)."""
    schemas = _spec(client)["components"]["schemas"]
    typed = ("legal_moves", "events", "move", "view", "result", "current")
    free = []
    for name, schema in schemas.items():
        if name == "MoveRequest":
            continue  # the request's move: sent back as it came, its label optional
        for member, prop in schema.get("properties", {}).items():
            if member not in typed:
                continue
            inner = prop.get("items", prop)
            if not ({"$ref", "anyOf", "oneOf", "allOf"} & set(inner)) and \
                    inner.get("type") in ("object", None) and "properties" not in inner:
                free.append(f"{name}.{member}")
    assert not free, free


def test_standings_match_their_schema(client: FlaskClient) -> None:
    """Issue 28: a tournament's standings (lines, ratings, intervals, head-to-head,
    superiority) as api.standings computes them validate against `Standings`, and a
    standings line missing a member does not."""
    pytest.importorskip("openapi_schema_validator")
    from api.standings import standings

    def result(scores: list[int]) -> dict[str, Any]:
        order = sorted(range(len(scores)), key=lambda seat: -scores[seat])
        return {"finished": True, "scores": scores, "ranking": order}

    games = [{"slot": slot, "block": slot // 2, "labels": ["a", "b"] if slot % 2 else ["b", "a"],
              "result": result([10 + slot, 7 + (slot * 3) % 5])} for slot in range(6)]
    validator = _validator(_spec(client), "Standings")
    for shown in (standings(["a", "b"], []), standings(["a", "b"], games[:1]),
                  standings(["a", "b"], games)):
        assert not list(validator.iter_errors(shown)), shown
    broken = standings(["a", "b"], games)
    del broken["entrants"][0]["rating"]
    assert not validator.is_valid(broken)
