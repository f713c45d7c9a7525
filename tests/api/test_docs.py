"""The OpenAPI document, the docs page, health and metrics."""

from __future__ import annotations

import copy
import re
import threading

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from flask.views import MethodView

import api
from api import create_app
from api.openapi import typed
from api.parsing import Blueprint
from api.schemas import CreateGameSchema
from tests.api.conftest import create, move, problem


def test_openapi_lists_every_endpoint(app: Flask, client: FlaskClient) -> None:
    spec = client.get("/v1/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    documented = {(path, method.upper()) for path, ops in spec["paths"].items()
                  for method in ops if method != "parameters"}
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint in ("static", "swagger_ui_asset") or rule.rule.startswith("/docs"):
            continue
        if rule.rule == "/v1/openapi.json" or rule.endpoint.startswith("play.") or \
                rule.endpoint in ("problem_index", "problem_page"):
            continue  # the document itself, the web page, the problem types' pages
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routed.add((path, method))
    assert routed <= documented, routed - documented
    for path in ("/v1/games", "/v1/games/{game_id}", "/v1/games/{game_id}/moves",
                 "/v1/games/{game_id}/events", "/v1/games-catalog", "/v1/bots", "/healthz",
                 "/metrics"):
        assert path in spec["paths"], path
    move_post = spec["paths"]["/v1/games/{game_id}/moves"]["post"]
    assert {"200", "401", "403", "404", "409", "422"} <= set(move_post["responses"])
    assert "application/problem+json" in move_post["responses"]["409"]["content"]
    assert "seatToken" in spec["components"]["securitySchemes"]
    # Every endpoint that needs Redis documents its 503 (with Retry-After).
    for path, method in (("/v1/games", "post"), ("/v1/games/{game_id}", "get"),
                         ("/v1/games/{game_id}/moves", "post"),
                         ("/v1/games/{game_id}/moves", "get"),
                         ("/v1/games/{game_id}/events", "get"), ("/healthz", "get")):
        assert "503" in spec["paths"][path][method]["responses"], (path, method)
    # The creation answer links to what can be done with the new game.
    links = spec["paths"]["/v1/games"]["post"]["responses"]["201"]["links"]
    for link in links.values():
        ref = link["operationRef"].removeprefix("#/paths/").replace("~1", "/")
        path, _, method = ref.rpartition("/")
        assert method in spec["paths"][path], ref
        assert link["parameters"] == {"game_id": "$response.body#/id"}


def test_openapi_document_is_valid(client: FlaskClient) -> None:
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(client.get("/v1/openapi.json").get_json())


def test_docs_page(client: FlaskClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200 and b"swagger-ui" in response.data
    assert b"/v1/openapi.json" in response.data


def test_every_error_answer_is_documented_as_problem_json(client: FlaskClient) -> None:
    """The API answers every error as application/problem+json; so does the document, also
    where flask-smorest documents its own error answers (the 422 of its argument parsing)."""
    spec = client.get("/v1/openapi.json").get_json()
    errors = [(path, method, status, response) for path, item in spec["paths"].items()
              for method, operation in item.items() if method != "parameters"
              for status, response in operation["responses"].items()
              if not status.startswith(("1", "2", "3"))]
    assert ("/v1/games", "post", "422") in {error[:3] for error in errors}
    for path, method, status, response in errors:
        assert set(response.get("content", {})) <= {"application/problem+json"}, \
            (path, method, status)
    for name, response in spec["components"].get("responses", {}).items():
        assert "application/json" not in response.get("content", {}), name


def test_typing_leaves_flask_smorests_document_as_it_was() -> None:
    """`typed` leaves flask-smorest's document as it was (APISpec.to_dict() answers with the
    library's own dicts), and turns its application/json error answers into problem+json."""
    app = Flask("api")
    app.config.update({key: value for key, value in api.DEFAULTS.items()
                       if key.startswith(("API_", "OPENAPI_"))})
    smorest = api.Api(app)
    blp = Blueprint("probe", __name__)

    @blp.route("/v1/games")
    class Games(MethodView):
        @blp.arguments(CreateGameSchema())
        @blp.response(201)
        def post(self, body: dict[str, object]) -> None:
            """Create."""

    smorest.register_blueprint(blp)
    original = smorest.spec.to_dict()
    before = copy.deepcopy(original)
    document = typed(original)
    assert smorest.spec.to_dict() == before and original == before
    parsed = before["paths"]["/v1/games"]["post"]["responses"]["422"]
    assert parsed == {"$ref": "#/components/responses/UNPROCESSABLE_ENTITY"}
    assert "application/json" in before["components"]["responses"]["UNPROCESSABLE_ENTITY"][
        "content"]
    operation = document["paths"]["/v1/games"]["post"]
    assert operation["operationId"] == "createGame"
    assert list(operation["responses"]["422"]["content"]) == ["application/problem+json"]
    assert list(document["components"]["responses"]["UNPROCESSABLE_ENTITY"]["content"]) == [
        "application/problem+json"]
    assert not [rule for rule in app.url_map.iter_rules() if rule.rule != "/v1/games"
                and rule.endpoint != "static"], "flask-smorest serves no document of its own"


def test_health(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json()["redis"] == "ok"


def test_health_without_redis_is_503() -> None:
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "TESTING": True})
    response = app.test_client().get("/healthz")
    problem(response, 503, "service-unavailable")
    assert response.headers["Retry-After"].isdigit()


def test_redis_down_is_503_on_every_endpoint_that_needs_it() -> None:
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "TESTING": True})
    client = app.test_client()
    auth = {"Authorization": "Bearer abc"}
    for response in (
            client.post("/v1/games", json={"game": "toy-pontoon"}),
            client.get("/v1/games/abc"),
            client.get("/v1/games/abc?wait_version=0&timeout=1"),
            client.get("/v1/games/abc/moves"),
            client.get("/v1/games/abc/events"),
            client.post("/v1/games/abc/moves", json={"move": {"type": "draw"}, "version": 0},
                        headers=auth)):
        problem(response, 503, "service-unavailable")
        assert response.headers["Retry-After"].isdigit()
    # What needs no Redis still answers.
    assert client.get("/v1/games-catalog").status_code == 200
    assert client.get("/v1/openapi.json").status_code == 200


def test_redis_failing_mid_request_is_503(client: FlaskClient, app: Flask,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(client, players=1)
    store = app.extensions["bgb"].store

    def timeout(*_: object, **__: object) -> None:
        raise redis.TimeoutError("injected")

    monkeypatch.setattr(store, "commit_move", timeout)
    problem(move(client, created, 0, 0), 503, "service-unavailable")
    monkeypatch.undo()
    # Nothing was stored; the same move goes through once Redis answers.
    assert move(client, created, 0, 0).status_code == 200


def test_other_redis_errors_are_500(client: FlaskClient, app: Flask,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    store = app.extensions["bgb"].store

    def broken(*_: object, **__: object) -> None:
        raise redis.ResponseError("ERR injected script bug")

    created = create(client, players=1)
    monkeypatch.setattr(store, "read", broken)
    problem(client.get(f"/v1/games/{created.id}"), 500, "internal-error")


def test_metrics(client: FlaskClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    move(client, created, 0, 0)
    client.get("/nope")
    text = client.get("/metrics").get_data(as_text=True)
    assert 'bgb_moves_applied_total{game="toy-pontoon"}' in text
    assert 'bgb_bot_jobs_enqueued_total{bot="random"}' in text
    assert 'bgb_http_requests_total{endpoint="games.Moves",method="POST",status="200"}' in text
    assert "bgb_http_request_duration_seconds_bucket" in text
    assert 'endpoint="unmatched",method="GET",status="404"' in text


def test_metrics_are_for_operators_only(client: FlaskClient,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18: /metrics is not public. Without BGB_METRICS_TOKEN only this machine reads
    it; with one, only a request carrying it."""
    away = {"REMOTE_ADDR": "203.0.113.9"}
    problem(client.get("/metrics", environ_base=away), 403, "forbidden")
    monkeypatch.setenv("BGB_METRICS_TOKEN", "s3cret-scraper")
    problem(client.get("/metrics", environ_base=away), 401, "unauthorized")
    problem(client.get("/metrics"), 401, "unauthorized")  # loopback needs it too, now
    wrong = {"Authorization": "Bearer nope"}
    problem(client.get("/metrics", headers=wrong, environ_base=away), 401, "unauthorized")
    right = {"Authorization": "Bearer s3cret-scraper"}
    answer = client.get("/metrics", headers=right, environ_base=away)
    assert answer.status_code == 200 and "# TYPE" in answer.get_data(as_text=True)


def test_docs_assets_are_served_offline_when_bundled(client: FlaskClient) -> None:
    pytest.importorskip("swagger_ui_bundle")
    response = client.get("/docs/assets/swagger-ui-bundle.js")
    assert response.status_code == 200 and len(response.data) > 10_000
    response.close()
    problem(client.get("/docs/assets/../../api/__init__.py"), 404, "not-found")


def test_event_stream_ends_cleanly_when_redis_fails(client: FlaskClient, app: Flask,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(client, players=1)
    store = app.extensions["bgb"].store
    real_head = store.head
    calls = [0]

    def flaky(game_id: str) -> object:
        calls[0] += 1
        if calls[0] > 1:
            raise redis.ConnectionError("injected")
        return real_head(game_id)

    monkeypatch.setattr(store, "head", flaky)

    watcher = app.extensions["bgb"].watcher
    finished = threading.Event()

    def new_version() -> None:
        # An idle stream reads Redis only when woken: a move wakes it (pub/sub, or the
        # safety sweep should the announcement be lost), and its read fails. (The
        # listener's first subscription may wake it first.)
        while watcher.waiting() == 0:
            if finished.wait(0.02):
                return
        if not finished.wait(0.1):
            move(app.test_client(), created, 0, 0)
            watcher.sweep()

    mover = threading.Thread(target=new_version)
    mover.start()
    # The answer has begun (200): the stream just ends, and the client resumes later.
    response = client.get(f"/v1/games/{created.id}/events")
    assert response.status_code == 200
    body = response.data  # streams until the read fails
    finished.set()
    mover.join()
    assert b"id: 0\n" in body and calls[0] == 2


def test_openapi_is_typed_for_code_generators(client: FlaskClient) -> None:
    """Issue 19: readable operationIds, the headers, the event stream as text, a schema per
    problem type, and the games' own schemas as unions discriminated by `type` / `game`."""
    spec = client.get("/v1/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    operations = [(path, method, op) for path, item in spec["paths"].items()
                  for method, op in item.items() if method != "parameters"]
    ids = [op["operationId"] for _, _, op in operations]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z][A-Za-z]+", i) for i in ids)
    assert {"createGame", "getGame", "postMove", "getMoveLog", "streamGameEvents"} <= set(ids)
    move_post = spec["paths"]["/v1/games/{game_id}/moves"]["post"]
    assert {"ETag", "Idempotent-Replayed"} <= set(move_post["responses"]["200"]["headers"])
    assert "version" in schemas["MoveRequest"]["properties"]["version"]["description"] or \
        "If-Match" in schemas["MoveRequest"]["properties"]["version"]["description"]
    get_game = spec["paths"]["/v1/games/{game_id}"]["get"]
    assert "If-None-Match" in {p.get("name") for p in get_game["parameters"]}
    for path, method, op in operations:
        for status, response in op["responses"].items():
            if status == "401":
                assert "WWW-Authenticate" in response["headers"], (path, method)
            if status in ("429", "503"):
                assert "Retry-After" in response["headers"], (path, method, status)
            stream = response.get("content", {}).get("text/event-stream")
            if stream is not None:
                assert stream["schema"]["type"] == "string", path
    refs = {ref["$ref"].rsplit("/", 1)[1] for ref in
            move_post["responses"]["409"]["content"]["application/problem+json"]["schema"]
            ["oneOf"]}
    assert refs == {"StaleVersionProblem", "GameOverProblem", "TimeOutProblem"}
    assert "current" in schemas["StaleVersionProblem"]["required"]
    assert "legal_moves" in schemas["IllegalMoveProblem"]["required"]
    assert schemas["Game"]["discriminator"]["propertyName"] == "game"
    for name in ("DarwinsJourney", "Flotilla", "Encyclopedia", "ToyPontoon"):
        assert schemas[f"{name}Move"]["discriminator"]["propertyName"] == "type"
        assert f"{name}View" in schemas and f"{name}Event" in schemas
    for field in ("status",):
        for model in ("Game", "CreatedGame", "MoveResult", "PlayerGame", "Resigned",
                      "Tournament", "Health"):
            target = schemas[model] if "properties" in schemas[model] else \
                schemas["ToyPontoonGame"]
            assert "enum" in target["properties"][field], model
    assert schemas["Seat"]["properties"]["kind"]["enum"] == ["human", "bot"]


def test_every_problem_type_the_api_answers_is_documented() -> None:
    """Each slug of `Problem(status, "slug", ...)` in the API is in the document's list."""
    import pathlib

    from api.openapi import PROBLEM_SCHEMAS
    from api.problems import _BY_STATUS, PROBLEM_TYPES

    used = {slug for slug, _ in _BY_STATUS.values()}
    import api

    for source in pathlib.Path(api.__file__).parent.glob("*.py"):
        used |= set(re.findall(r'Problem\(\s*\d{3},\s*"([a-z-]+)"', source.read_text()))
    assert used <= set(PROBLEM_TYPES), used - set(PROBLEM_TYPES)
    assert set(PROBLEM_SCHEMAS) == set(PROBLEM_TYPES)


def test_openapi_examples_validate_against_their_schemas(client: FlaskClient) -> None:
    """Every example in the document (real games' reads, moves and answers) fits its schema."""
    validator = pytest.importorskip("openapi_schema_validator").OAS30Validator
    spec = client.get("/v1/openapi.json").get_json()
    found = []

    def walk(node: object, schema_path: str) -> None:
        if isinstance(node, dict):
            if "example" in node and ("type" in node or "properties" in node or
                                      "$ref" in node):
                found.append((schema_path, node, node["example"]))
            for key, value in node.items():
                if key != "example":
                    walk(value, f"{schema_path}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{schema_path}/{index}")

    walk(spec["components"], "#/components")
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body and "example" in body:
                found.append((f"{method} {path}", body["schema"], body["example"]))
    assert len(found) >= 15, len(found)
    names = {where.rsplit("/", 1)[-1] for where, _, _ in found}
    assert {"DarwinsJourneyGame", "FlotillaGame", "EncyclopediaGame",
            "DarwinsJourneyMoveResult", "FlotillaMoveResult"} <= names
    for where, schema, example in found:
        document = {k: v for k, v in schema.items() if k != "example"}
        errors = [e.message for e in validator({**document, "components": spec["components"]})
                  .iter_errors(example)]
        assert not errors, (where, errors[:3])
