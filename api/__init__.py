"""The HTTP API of BoardGamesBot: `create_app(config)` builds the Flask app.

Run it with gunicorn, e.g. `gunicorn -k gthread -w 4 --threads 8 'api:create_app()'`
(threads keep long polls and event streams from blocking the other requests).
"""

from __future__ import annotations

import os
from typing import Any

import flask_smorest
from flask import Flask, Response
from werkzeug.exceptions import HTTPException

import core
from api import (
    account_stream,
    analysis,
    catalog,
    challenges,
    connections,
    cors,
    fastlane,
    games,
    hints,
    i18n,
    lifecycle,
    limits,
    metrics,
    openapi,
    ops,
    outbound,
    play,
    players,
    problems,
    queries,
    replays,
    request_limits,
    settings,
    takeback,
    tournaments,
)
from api.problems import from_http_exception, problem_response
from api.schemas import ProblemSchema
from api.services import Services

__all__ = ["create_app"]

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "STATE_CACHE_SIZE": 1024,
    "SSE_MAX_SECONDS": 300,
    "SSE_HEARTBEAT_SECONDS": 15,
    # Seconds a Redis command may take before the request answers 503 (BGB_REDIS_TIMEOUT):
    # short, so that a hung Redis costs a client under a second, not a thread for ten.
    "REDIS_TIMEOUT": 0.5,
    # Plain game reads and moves answered without the framework (api.fastlane);
    # BGB_FAST_LANE=off sends every request through Flask.
    "FAST_LANE": True,
    # Retention (seconds; 0 keeps games for ever): a game with no move for ABANDON_AFTER is
    # abandoned; a finished, aborted or abandoned game is deleted RETAIN_FINISHED later.
    "ABANDON_AFTER": 30 * 86400,
    "RETAIN_FINISHED": 90 * 86400,
    "API_TITLE": "BoardGamesBot",
    "API_VERSION": "v1",
    "OPENAPI_VERSION": "3.0.3",
    # flask-smorest serves no document (it would serve the untyped one): api.openapi serves
    # the typed document at /v1/openapi.json and Swagger UI at /docs.
    "OPENAPI_URL_PREFIX": None,
    "API_SPEC_OPTIONS": {
        "info": {"description": "Play modern board games over HTTP. Create a game, keep the "
                                "seat tokens, read your view and legal moves, post a move "
                                "with the version it was chosen against. Errors are "
                                "application/problem+json (RFC 9457)."},
        "components": {"securitySchemes": {"seatToken": {
            "type": "http", "scheme": "bearer",
            "description": "a seat token from the game's creation (or a bot's derived token)"},
            "playerKey": {
                "type": "http", "scheme": "bearer",
                "description": "a player's key (POST /v1/players): its games, webhooks and "
                               "seat claims"},
            "metricsToken": {
                "type": "http", "scheme": "bearer",
                "description": "BGB_METRICS_TOKEN, for /metrics (operators only)"}}},
    },
}


class Api(flask_smorest.Api):
    """flask-smorest's Api answering every HTTP error as problem+json (documented as such
    by api.openapi)."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None  # each view documents its own problems

    def handle_http_exception(self, error: HTTPException) -> Response:
        """The problem+json answer of an HTTP error (routing, body limit, parsing)."""
        return problem_response(from_http_exception(error))


def parse_duration(text: str) -> float:
    """Seconds from "90", "45s", "30m", "12h" or "30d"."""
    text = text.strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if text and text[-1] in units:
        return float(text[:-1]) * units[text[-1]]
    return float(text)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The API app; `config` overrides the defaults (REDIS_URL defaults to env REDIS_URL)."""
    # No /static route: the web page is served under /play, and Flask-Limiter exempts
    # Flask's `static` endpoint from every limit (docs/operating-limits.md).
    app = Flask(__name__, static_folder=None)
    app.config.update(DEFAULTS)
    app.config["REDIS_URL"] = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    # Where the games and the queues are, and how durable an acknowledgement is
    # (api.redis_conn, docs/scaling.md).
    for name in ("REDIS_CLUSTER", "QUEUE_URL", "MIN_REPLICAS", "REPLICA_TIMEOUT_MS"):
        app.config[name] = settings.value(f"BGB_{name}")
    if os.environ.get("BGB_REDIS_TIMEOUT"):
        app.config["REDIS_TIMEOUT"] = float(os.environ["BGB_REDIS_TIMEOUT"])
    if os.environ.get("BGB_FAST_LANE", "").strip().lower() == "off":
        app.config["FAST_LANE"] = False
    app.config.update(limits.settings_from_environment())
    for name in ("ABANDON_AFTER", "RETAIN_FINISHED"):
        if os.environ.get(f"BGB_{name}"):
            app.config[name] = parse_duration(os.environ[f"BGB_{name}"])
    outbound.policy()  # a wrong BGB_WEBHOOK_ALLOW fails the start, not a request
    # Where the rules links of the catalog point (a wrong value fails the start too).
    app.config["DOCS_URL"] = catalog.docs_base(settings.value("BGB_DOCS_URL"))
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["bgb"] = Services.build(app.config)

    # Load the game registry at start-up: a broken game module fails the boot, not a request.
    core.game_names()

    problems.install(app)
    metrics.install(app)
    limits.install(app)
    cors_policy = cors.policy_of(app)
    cors_policy.install(app)
    # Answers in the asked language (?lang=, Accept-Language): move labels and logs.
    app.after_request(i18n.localize_response)
    api = Api(app)
    api.register_blueprint(games.blp)
    api.register_blueprint(lifecycle.blp)
    api.register_blueprint(players.blp)
    api.register_blueprint(account_stream.blp)
    api.register_blueprint(challenges.blp)
    api.register_blueprint(catalog.blp)
    api.register_blueprint(ops.blp)
    api.register_blueprint(tournaments.blp)
    api.register_blueprint(analysis.blp)
    api.register_blueprint(hints.blp)
    api.register_blueprint(takeback.blp)
    api.register_blueprint(replays.blp)
    # Unknown query parameters are refused (400): the operations' own, as documented.
    queries.install(app, api.spec.to_dict())
    # The typed document (the games' own schemas, operationIds, headers, problems), served.
    openapi.install(app, api)
    app.register_blueprint(play.blp)  # the web page: not an API operation, not in OpenAPI
    if app.config["FAST_LANE"]:
        # Plain game reads and moves skip the framework (api.fastlane); outermost, so that
        # what it hands on goes through everything else as before.
        app.wsgi_app = fastlane.FastLane(app, app.wsgi_app, cors_policy)  # type: ignore[method-assign]
    if connections.gevent_patched():
        # Under gevent workers, in front of everything: a client's fair share of the
        # process's turns and its body's deadline (api.connections), as WSGI middleware
        # (Flask's documented way: app.wsgi_app).
        app.wsgi_app = connections.guarded(app.wsgi_app)  # type: ignore[method-assign]
    # Outermost: a target or headers over the API's sizes, refused problem+json before
    # anything reads them (gunicorn's own limits are set above these: api.request_limits).
    app.wsgi_app = request_limits.RequestLimits(app.wsgi_app)  # type: ignore[method-assign]
    return app
