"""The OpenAPI document, typed with what marshmallow cannot say, and served.

`install(app, api)` runs once the blueprints are registered. It takes flask-smorest's document
(`APISpec.to_dict()`, public) and types a copy of it (`typed`): it adds each game's own JSON
Schemas (`json_schemas()` in core) as components: per game a `oneOf` of its moves and of its
events discriminated by `type`, its view, result and options, and a `<Game>Game` variant of
the game read, so that `Game` is a `oneOf` discriminated by `game`; so are the other bodies
that carry a game's moves or events (`MoveResult`, `MoveLog`, the illegal-move problem: one
`<Game>…` variant each, see `answer_components`), and tournament standings and slots are
typed (TOURNAMENT_COMPONENTS). It also names every
operation (`operationId`), documents the headers the API sends and reads, one schema per
problem type (every error answer is application/problem+json), and the event streams as
`text/event-stream` text. A game without `json_schemas()` is described with free-form objects.
The typed copy is served at DOCUMENT_PATH and browsed with Swagger UI at DOCS_PATH by our own
routes: flask-smorest's own document routes are off (`OPENAPI_URL_PREFIX` None), since
they would serve the untyped document.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import flask_smorest
from flask import Blueprint, Flask, Response, render_template, send_from_directory

import core
from api import limits, queries, tournament_store
from api.bots import automa_only, bot_catalog
from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE, PROBLEM_TYPES
from api.schemas import STATUSES
from core.contract import has_json_schemas
from core.deals import SCHEME

Schema = dict[str, Any]


DOCUMENT_PATH = "/v1/openapi.json"
DOCS_PATH = "/docs"
# Swagger UI is served from the swagger-ui-bundle package when installed (works offline),
# else from a CDN.
SWAGGER_UI_CDN = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/"
SWAGGER_UI_LOCAL = "/docs/assets/"


def swagger_ui_dir() -> str | None:
    """The folder of the swagger-ui-bundle package's Swagger UI files, if it is installed."""
    try:
        import swagger_ui_bundle
    except ImportError:
        return None
    return str(swagger_ui_bundle.swagger_ui_path)


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(name: str) -> Schema:
    """The component `name` or null (OpenAPI 3.0: `nullable` does not reach into a $ref)."""
    return {"anyOf": [_ref(name), {"type": "object", "nullable": True, "enum": [None]}]}


# What the server adds to a game's own result (api.seats.adjusted_result).
SERVED_RESULT: dict[str, Schema] = {
    "resigned": {"type": "array", "items": {"type": "integer"},
                 "description": "the seats that resigned (ranked last)"},
    "ended_by": {"type": "string", "enum": ["resignation"],
                 "description": "the game ended because a seat resigned"},
    "assisted": {"type": "array", "items": {"type": "integer"},
                 "description": "the seats that asked for a hint (practice games)"},
}


def _served_result(schema: Schema) -> Schema:
    """A game's result schema with the members the server adds to it."""
    schema.setdefault("properties", {}).update(copy.deepcopy(SERVED_RESULT))
    return schema


# Readable operation names for generated clients, by (method, path).
OPERATION_IDS: dict[tuple[str, str], str] = {
    ("post", "/v1/games"): "createGame",
    ("get", "/v1/games/{game_id}"): "getGame",
    ("get", "/v1/games/{game_id}/moves"): "getMoveLog",
    ("post", "/v1/games/{game_id}/moves"): "postMove",
    ("post", "/v1/games/{game_id}/abort"): "abortGame",
    ("get", "/v1/games/{game_id}/events"): "streamGameEvents",
    ("post", "/v1/games/{game_id}/seats/{seat}/claim"): "claimSeat",
    ("post", "/v1/games/{game_id}/seats/{seat}/token"): "newSeatToken",
    ("post", "/v1/games/{game_id}/resign"): "resignGame",
    ("post", "/v1/games/{game_id}/rematch"): "rematchGame",
    ("post", "/v1/games/{game_id}/rematch/token"): "redeemRematchToken",
    ("post", "/v1/games/{game_id}/analysis"): "requestAnalysis",
    ("get", "/v1/games/{game_id}/analysis"): "getAnalysis",
    ("post", "/v1/games/{game_id}/hint"): "requestHint",
    ("get", "/v1/games/{game_id}/hint"): "getHint",
    ("post", "/v1/games/{game_id}/takeback"): "takeBackMove",
    ("get", "/v1/games/{game_id}/record"): "getGameRecord",
    ("post", "/v1/records/replay"): "replayRecord",
    ("post", "/v1/players"): "createPlayer",
    ("get", "/v1/players/me"): "getPlayer",
    ("delete", "/v1/players/me"): "deletePlayer",
    ("post", "/v1/players/me/key"): "rotatePlayerKey",
    ("post", "/v1/games/{game_id}/seats/{seat}/invite"): "inviteToSeat",
    ("get", "/v1/players/me/challenges"): "listChallenges",
    ("post", "/v1/players/me/challenges/{challenge_id}/accept"): "acceptChallenge",
    ("post", "/v1/players/me/challenges/{challenge_id}/decline"): "declineChallenge",
    ("post", "/v1/games/{game_id}/seats/{seat}/open"): "openSeat",
    ("delete", "/v1/games/{game_id}/seats/{seat}/open"): "closeSeat",
    ("get", "/v1/open-seats"): "listOpenSeats",
    ("post", "/v1/open-seats/{game_id}/{seat}/take"): "takeOpenSeat",
    ("get", "/v1/players/me/games"): "listPlayerGames",
    ("get", "/v1/players/me/stream"): "streamAccountEvents",
    ("get", "/v1/players/me/webhooks"): "listWebhooks",
    ("post", "/v1/players/me/webhooks"): "createWebhook",
    ("delete", "/v1/players/me/webhooks/{webhook_id}"): "deleteWebhook",
    ("get", "/v1/players/me/webhooks/{webhook_id}/deliveries"): "listWebhookDeliveries",
    ("post", "/v1/players/me/webhooks/{webhook_id}/test"): "testWebhook",
    ("get", "/v1/games-catalog"): "getCatalog",
    ("get", "/v1/bots"): "listBots",
    ("get", "/healthz"): "getHealth",
    ("get", "/metrics"): "getMetrics",
    ("post", "/v1/tournaments"): "createTournament",
    ("get", "/v1/tournaments/{tournament_id}"): "getTournament",
    ("delete", "/v1/tournaments/{tournament_id}"): "cancelTournament",
    ("get", "/v1/tournaments/{tournament_id}/games"): "listTournamentGames",
    ("get", "/v1/tournaments/{tournament_id}/chart.png"): "getTournamentChart",
    ("get", "/v1/tournaments/{tournament_id}/events"): "streamTournamentEvents",
}

# The schema of each problem type (api.problems.PROBLEM_TYPES): slug -> (schema name, the
# members it adds to the common ones).
PROBLEM_SCHEMAS: dict[str, tuple[str, dict[str, Schema]]] = {
    "bad-request": ("BadRequestProblem", {}),
    "unauthorized": ("UnauthorizedProblem", {}),
    "forbidden": ("ForbiddenProblem", {}),
    "not-your-turn": ("NotYourTurnProblem", {"to_act": {
        "type": "integer", "nullable": True, "description": "the seat to act"}}),
    "not-your-seat": ("NotYourSeatProblem", {}),
    "seat-required": ("SeatRequiredProblem", {"seats": {
        "type": "array", "items": {"type": "integer"},
        "description": "the seats of this game the player owns: name one with `?seat=N`"}}),
    "resigned": ("ResignedProblem", {}),
    "time-out": ("TimeOutProblem", {}),
    "not-found": ("NotFoundProblem", {}),
    "method-not-allowed": ("MethodNotAllowedProblem", {}),
    "request-timeout": ("RequestTimeoutProblem", {}),
    "stale-version": ("StaleVersionProblem", {"current": {
        "$ref": "#/components/schemas/Game"}}),
    "game-over": ("GameOverProblem", {"result": {
        **_nullable("Result"), "description": "the result (null if aborted)"}}),
    "game-active": ("GameActiveProblem", {}),
    "rematch-exists": ("RematchExistsProblem", {"rematch": {
        "type": "string", "nullable": True, "description": "its id"}}),
    "seat-claimed": ("SeatClaimedProblem", {}),
    "takeback-refused": ("TakebackRefusedProblem", {}),
    "too-many-webhooks": ("TooManyWebhooksProblem", {}),
    "tournament-over": ("TournamentOverProblem", {}),
    "conflict": ("ConflictProblem", {}),
    "payload-too-large": ("PayloadTooLargeProblem", {}),
    "uri-too-long": ("UriTooLongProblem", {}),
    "request-header-fields-too-large": ("RequestHeaderFieldsTooLargeProblem", {}),
    "unsupported-media-type": ("UnsupportedMediaTypeProblem", {}),
    "validation-error": ("ValidationProblem", {"errors": {
        "type": "object", "additionalProperties": True,
        "description": "the bad fields, by location (json, query, headers)"}}),
    "illegal-move": ("IllegalMoveProblem", {"legal_moves": {
        "type": "array", "items": {"$ref": "#/components/schemas/Move"},
        "description": "the moves the seat may play now"}, "game": {
        "type": "string", "description": "the game's name: which game's moves they are"}}),
    "idempotency-key-reused": ("IdempotencyKeyReusedProblem", {}),
    "rate-limited": ("RateLimitedProblem", {"retry_after": {"type": "integer"}}),
    "too-many-bot-games": ("TooManyBotGamesProblem", {"retry_after": {"type": "integer"}}),
    "too-many-streams": ("TooManyStreamsProblem", {}),
    "too-many-connections": ("TooManyConnectionsProblem", {"retry_after": {"type": "integer"}}),
    "too-many-tournaments": ("TooManyTournamentsProblem", {"retry_after": {"type": "integer"}}),
    "internal-error": ("InternalErrorProblem", {}),
    "service-unavailable": ("ServiceUnavailableProblem", {}),
    "client-closed-request": ("ClientClosedRequestProblem", {}),
}

# The problem types an operation answers with at a status (a oneOf of their schemas when
# several); other statuses fall back to PROBLEMS_BY_STATUS, else the generic Problem.
PROBLEMS_BY_RESPONSE: dict[tuple[str, str, str], list[str]] = {
    ("post", "/v1/games/{game_id}/moves", "403"): ["not-your-turn", "resigned", "not-your-seat",
                                                   "forbidden"],
    ("post", "/v1/games/{game_id}/moves", "400"): ["bad-request", "seat-required"],
    ("get", "/v1/games/{game_id}", "400"): ["bad-request", "seat-required"],
    ("get", "/v1/games/{game_id}", "403"): ["forbidden", "not-your-seat"],
    ("get", "/v1/games/{game_id}/moves", "400"): ["bad-request", "seat-required"],
    ("get", "/v1/games/{game_id}/moves", "403"): ["forbidden", "not-your-seat"],
    ("post", "/v1/games/{game_id}/resign", "400"): ["bad-request", "seat-required"],
    ("post", "/v1/games/{game_id}/resign", "403"): ["forbidden", "not-your-seat"],
    ("post", "/v1/games/{game_id}/moves", "409"): ["stale-version", "game-over", "time-out"],
    ("post", "/v1/games/{game_id}/moves", "422"): ["illegal-move", "validation-error",
                                                   "idempotency-key-reused"],
    ("post", "/v1/games", "429"): ["rate-limited", "too-many-bot-games"],
    ("get", "/v1/games/{game_id}", "429"): ["rate-limited", "too-many-streams"],
    ("get", "/v1/games/{game_id}/events", "429"): ["rate-limited", "too-many-streams"],
    ("get", "/v1/tournaments/{tournament_id}/events", "429"): ["too-many-streams"],
    ("post", "/v1/tournaments", "429"): ["too-many-tournaments"],
    ("post", "/v1/games/{game_id}/abort", "409"): ["game-over"],
    ("post", "/v1/games/{game_id}/resign", "409"): ["game-over"],
    ("post", "/v1/games/{game_id}/rematch", "409"): ["game-active", "rematch-exists"],
    ("post", "/v1/games/{game_id}/analysis", "409"): ["game-active", "conflict"],
    ("get", "/v1/games/{game_id}/analysis", "409"): ["game-active", "conflict"],
    ("get", "/v1/games/{game_id}/record", "409"): ["game-active"],
    ("post", "/v1/games/{game_id}/hint", "403"): ["forbidden", "not-your-turn", "not-your-seat"],
    ("get", "/v1/games/{game_id}/hint", "403"): ["forbidden", "not-your-seat"],
    ("post", "/v1/games/{game_id}/hint", "400"): ["bad-request", "seat-required"],
    ("get", "/v1/games/{game_id}/hint", "400"): ["bad-request", "seat-required"],
    ("post", "/v1/games/{game_id}/hint", "409"): ["game-over"],
    ("post", "/v1/games/{game_id}/takeback", "409"): ["takeback-refused", "stale-version",
                                                      "game-over"],
    ("post", "/v1/games/{game_id}/takeback", "403"): ["resigned", "not-your-seat"],
    ("post", "/v1/games/{game_id}/takeback", "400"): ["bad-request", "seat-required"],
    ("post", "/v1/games/{game_id}/takeback", "422"): ["validation-error",
                                                      "idempotency-key-reused"],
    ("post", "/v1/games/{game_id}/seats/{seat}/claim", "409"): ["seat-claimed"],
    ("post", "/v1/games/{game_id}/seats/{seat}/token", "403"): ["not-your-seat"],
    ("post", "/v1/players/me/webhooks", "409"): ["too-many-webhooks"],
    ("delete", "/v1/tournaments/{tournament_id}", "409"): ["tournament-over"],
}
PROBLEMS_BY_STATUS: dict[str, list[str]] = {
    "400": ["bad-request"], "401": ["unauthorized"], "403": ["forbidden"], "404": ["not-found"],
    "413": ["payload-too-large"], "415": ["unsupported-media-type"], "429": ["rate-limited"],
    "422": ["validation-error"], "503": ["service-unavailable"],
}

HEADERS: dict[str, Schema] = {
    "WWW-Authenticate": {"description": "the credential expected: Bearer", "schema": {
        "type": "string"}},
    "Retry-After": {"description": "seconds to wait before retrying",
                    "schema": {"type": "integer"}},
    "ETag": {"description": 'the game version, quoted: "<version>"',
             "schema": {"type": "string"}},
    "Idempotent-Replayed": {"description": "true: the first answer of this Idempotency-Key, "
                                           "replayed (nothing was played again)",
                            "schema": {"type": "string", "enum": ["true"]}},
    "Content-Language": {"description": "the language of the answer's texts (a problem's "
                                        "title and detail, move labels, catalog and bot "
                                        "texts), from `?lang=` or Accept-Language",
                         "schema": {"type": "string"}},
    "Vary": {"description": "the request headers the answer depends on (Authorization, "
                            "Accept-Language, ...)", "schema": {"type": "string"}},
    "Cache-Control": {"description": "no-cache: never store the answer",
                      "schema": {"type": "string"}},
    "X-Accel-Buffering": {"description": "no: a proxy must pass the stream through unbuffered",
                          "schema": {"type": "string"}},
    "Allow": {"description": "the methods the path allows", "schema": {"type": "string"}},
    "X-RateLimit-Limit": {"description": "the requests the rate limit this request counted "
                                         "against allows in its window (with rate limits on: "
                                         "docs/operating-limits.md)",
                          "schema": {"type": "integer"}},
    "X-RateLimit-Remaining": {"description": "the requests left in that window after this one",
                              "schema": {"type": "integer"}},
    "X-RateLimit-Reset": {"description": "when that window frees a place: Unix time, seconds",
                          "schema": {"type": "integer"}},
    "Access-Control-Allow-Origin": {"description": "CORS (/v1 only): the origins allowed "
                                                   "(BGB_CORS_ORIGINS; * by default)",
                                    "schema": {"type": "string"}},
    "Access-Control-Expose-Headers": {"description": "CORS (/v1 only): the headers a page "
                                                     "may read", "schema": {"type": "string"}},
}

# Headers any answer may carry: CORS (on /v1), Vary, and on JSON answers their language.
COMMON_HEADERS = ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Vary"]
# Headers any answer of a rate-limited operation may carry (api.limits).
RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]
# The request headers every /v1 operation reads besides its own: the language of its texts.
LANGUAGE_PARAMETERS: dict[str, Schema] = {
    "AcceptLanguage": {"in": "header", "name": "Accept-Language", "required": False,
                       "schema": {"type": "string"},
                       "description": "the language of problem texts, catalog and bot texts "
                                      "and move labels (en, pt-BR); `lang` wins"},
    "Lang": {"in": "query", "name": "lang", "required": False, "schema": {"type": "string"},
             "description": "the language, as Accept-Language (e.g. pt-BR)"},
}

STREAM_VERSION: Schema = {
    "type": "object", "required": ["version", "status", "to_act"],
    "description": "the JSON `data` of each `version` event of a game's event stream",
    "properties": {
        "version": {"type": "integer"},
        "status": {"type": "string", "enum": list(STATUSES)},
        "to_act": {"type": "integer", "nullable": True},
        "current": {**_ref("Game"), "description": "with `?view=1` and a seat's token, on "
                                                   "the event of the current version: the "
                                                   "game as the seat's read answers it"},
    },
}

def _account_event(kind: list[str], description: str, extra: dict[str, Schema],
                   required: list[str]) -> Schema:
    game = kind[0] not in ("tournament_started", "tournament_finished", "challenge")
    shared: dict[str, Schema] = {
        "type": {"type": "string", "enum": kind},
        "id": {"type": "string", "description": "the event's stream id (its `id:`), added by "
                                                "the SDK; not in the `data`"},
    }
    if game:
        shared.update({
            "game_id": {"type": "string"}, "game": {"type": "string"},
            "seat": {"type": "integer", "description": "the account's seat"},
            "version": {"type": "integer"},
            "status": {"type": "string", "enum": list(STATUSES)},
            "to_act": {"type": "integer", "nullable": True}})
    return {"type": "object", "description": description,
            "required": ["type", *(["game_id", "game", "seat", "version", "status", "to_act"]
                                   if game else []), *required],
            "properties": {**shared, **extra}}


def account_event_components() -> dict[str, Schema]:
    """The typed `data` of the account stream's events (api.account_stream), one schema per
    event type and `AccountEvent`, their union discriminated by `type`."""
    add = {
        "AccountGameStarted": _account_event(
            ["game_started"], "a game with a seat of the account's started",
            {"token": {"type": "string", "nullable": True,
                       "description": "the seat's token, where the account was given it (a "
                                      "tournament's seats, seats claimed at creation)"},
             "tournament_id": {"type": "string"}}, ["token"]),
        "AccountYourTurn": _account_event(
            ["your_turn"], "the account's seat is to act (sent only while it still is)",
            {"current": {**_ref("Game"), "description": "with `?view=1`: the game as the "
                                                        "seat's read answers it"},
             "deadline": {"type": "string", "format": "date-time",
                          "description": "a game with a clock: RFC 3339 time the seat's "
                                         "time runs out (docs/clocks.md)"}}, []),
        "AccountDeadlineSoon": _account_event(
            ["deadline_soon"], "the account's seat to act runs out of time soon (the game's "
            "clock: docs/clocks.md; sent only while the game is at `version`)",
            {"deadline": {"type": "string", "format": "date-time",
                          "description": "RFC 3339 time the seat's time runs out"}},
            ["deadline"]),
        "AccountGameOver": _account_event(
            ["game_over"], "a game with a seat of the account's is over",
            {"result": {**_nullable("Result"), "description": "null while its tournament "
                                                              "holds it back: read the game"}},
            ["result"]),
        "AccountTournamentEvent": _account_event(
            ["tournament_started", "tournament_finished"],
            "the external entrant's tournament started, or ended (`status`: finished or "
            "cancelled)",
            {"tournament_id": {"type": "string"},
             "status": {"type": "string", "enum": ["active", "finished", "cancelled"]}},
            ["tournament_id", "status"]),
        "AccountChallenge": _account_event(
            ["challenge"], "a seat is offered to the player (docs/app-backends.md, "
            "Challenges): accept or decline it by `challenge_id`",
            {"challenge_id": {"type": "string"}, "game_id": {"type": "string"},
             "game": {"type": "string"}, "seat": {"type": "integer"},
             "created": {"type": "string", "format": "date-time"}},
            ["challenge_id", "game_id", "game", "seat", "created"]),
    }
    add["AccountEvent"] = {
        "oneOf": [_ref(name) for name in add],
        "discriminator": {"propertyName": "type", "mapping": {
            "game_started": "#/components/schemas/AccountGameStarted",
            "your_turn": "#/components/schemas/AccountYourTurn",
            "deadline_soon": "#/components/schemas/AccountDeadlineSoon",
            "game_over": "#/components/schemas/AccountGameOver",
            "tournament_started": "#/components/schemas/AccountTournamentEvent",
            "tournament_finished": "#/components/schemas/AccountTournamentEvent",
            "challenge": "#/components/schemas/AccountChallenge"}},
        "description": "the JSON `data` of an event of an account's stream, typed by `type`"}
    return add


ACCOUNT_STREAM_DOC = (
    "Server-sent events (text, one event per blank-line-separated block): read the response "
    "line by line. Each event has `id: <stream id>`, `event: <type>` and `data: <JSON>` "
    "(schema `AccountEvent`); lines starting with `:` are heartbeats. Reconnect with "
    "`Last-Event-ID` to resume; an external entrant's stream ends after "
    "`tournament_finished`, any stream after the server's bound (reconnect).")

STREAM_DOC = ("Server-sent events (text, one event per blank-line-separated block): read the "
              "response line by line, never as one JSON document. Each event has `id: "
              "<version>`, `event: version` and `data: <JSON>` (schema `StreamVersion`); lines "
              "starting with `:` are heartbeats; `retry:` sets the reconnection delay. "
              "Reconnect with `Last-Event-ID` to resume; the stream ends when the game is "
              "over (or after the server's bound: reconnect).")


def pascal(text: str) -> str:
    """`darwins-journey` -> `DarwinsJourney`, `end_turn` -> `EndTurn`."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text))


def to_openapi(schema: Any) -> Any:
    """A core JSON Schema (draft 2020-12 subset, see core.json_schema) in OpenAPI 3.0 form."""
    if isinstance(schema, list):
        return [to_openapi(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: Schema = {}
    for key, value in schema.items():
        if key == "const":
            out["enum"] = [value]
        elif key == "examples":
            if value:
                out["example"] = value[0]
        elif key == "type" and isinstance(value, list):
            kinds = [kind for kind in value if kind != "null"]
            if "null" in value:
                out["nullable"] = True
            if len(kinds) == 1:
                out["type"] = kinds[0]
            else:
                out["anyOf"] = [_of_type(kind, schema.get("enum")) for kind in kinds]
        elif key == "enum" and isinstance(schema.get("type"), list) and \
                len([kind for kind in schema["type"] if kind != "null"]) > 1:
            continue  # split among the anyOf's types (a generator wants one type per enum)
        elif key == "properties":
            out[key] = {name: to_openapi(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "not"):
            out[key] = to_openapi(value)
        else:
            out[key] = value
    if out.get("type") == "object" and "properties" not in out and \
            "additionalProperties" not in out:
        out["additionalProperties"] = True  # any members (TypeScript generators say never)
    return out


_PYTHON_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "integer": (int,),
                                               "number": (int, float), "boolean": (bool,)}


def _of_type(kind: str, enum: list[Any] | None) -> Schema:
    """`{"type": kind}`, with the members of `enum` of that type."""
    schema: Schema = {"type": kind}
    if enum is not None:
        schema["enum"] = [value for value in enum if isinstance(value, _PYTHON_TYPES[kind])
                          and (kind == "boolean" or not isinstance(value, bool))]
    return schema


def _union(kind: str, schemas: dict[str, Schema], prefix: str,
           add: dict[str, Schema]) -> Schema:
    """A oneOf of one component per type, discriminated by `type`."""
    mapping = {}
    for type_, schema in schemas.items():
        name = f"{prefix}{kind}{pascal(type_)}"
        add[name] = to_openapi(schema)
        if kind == "Event":
            add[name].setdefault("properties", {})["text"] = EVENT_TEXT
        mapping[type_] = f"#/components/schemas/{name}"
    return {"oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
            "description": f"a {kind.lower()} of {prefix}, by its type"}


# Added to every event of the log by the API (api.i18n.with_event_texts), not by the rules.
EVENT_TEXT: Schema = {"type": "string", "description": (
    "the event in words, in the answer's language (`?lang=`, Accept-Language); only in the "
    "move log, and only for games whose texts describe their events")}


# The server's own log entries and events (api.games, api.lifecycle): in every game's log.
SYSTEM_EVENT_TYPES = ["aborted", "abandoned", "resigned", "timed_out", "taken_back"]


FREE_MOVE: Schema = {"type": "object", "required": ["type"], "additionalProperties": True,
                     "properties": {"type": {"type": "string"}, "label": {"type": "string"}},
                     "description": "a move of a game without JSON Schemas"}


EXAMPLE_SEED = 1


def game_example(game: core.Game) -> dict[str, Any] | None:
    """A real game read (seed EXAMPLE_SEED, default options, as the seat to act), its first
    legal move and that move's answer: the document's examples."""
    try:
        state = game.new_game({}, EXAMPLE_SEED)
        seat = game.to_act(state)
        legal = game.legal_moves(state)
        after = game.clone(state)
        events = game.apply(after, legal[0])
        seats = [{"seat": number, "kind": "human"} for number in range(game.seat_count({}))]
    except Exception:  # an engine being changed must not break the document
        return None
    to_act = game.to_act(after)
    read = {"id": "Xk3dQ9pLr2mN7vBw", "game": game.name, "options": {}, "version": 0,
            "status": "active", "to_act": seat, "seat": seat, "seats": seats,
            "view": game.view(state, seat), "legal_moves": legal[:5], "result": None,
            "deal": {"commitment": "9f2c" * 16, "unranked": False, "scheme": SCHEME,
                     "revealed": None}, "rematch_of": None, "rematch": None}
    seen = [event for event in events if not isinstance(event.get("to"), list)
            or seat in event["to"]]
    answer = {"game": game.name, "version": 1, "events": seen,
              "status": "active" if to_act is not None else "finished", "to_act": to_act,
              "result": None}
    return {"read": read, "move": core.canonical(legal[0]), "answer": answer}


def game_components(games: list[core.Game], base_game: Schema) -> dict[str, Schema]:
    """The components describing each game's JSON, and the unions over all games."""
    add: dict[str, Schema] = {}
    moves, events, results, variants, mapping = [], [], [], [], {}
    for game in games:
        prefix = pascal(game.name)
        variant = copy.deepcopy(base_game)
        props = variant["properties"]
        props["game"] = {"type": "string", "enum": [game.name]}
        props["deal"] = {**_nullable("Deal"), "description": "the commitment to the deal "
                                                            "(null for games older than deals)"}
        if "clock" in props:
            props["clock"] = {**_nullable("Clock"),
                              "description": props["clock"].get("description", "")}
        if has_json_schemas(game):
            schemas = game.json_schemas()
            add[f"{prefix}Move"] = _union("Move", schemas["moves"], prefix, add)
            add[f"{prefix}Event"] = _union("Event", schemas["events"], prefix, add)
            over = add.get(f"{prefix}EventGameOver")
            if over is not None:  # added by the API (api.games.with_result), not the rules
                over.setdefault("properties", {})["result"] = {
                    **_nullable(f"{prefix}Result"),
                    "description": "the game's result, as a read of the game shows it (null "
                                   "while a tournament deal holds it back)"}
            add[f"{prefix}View"] = to_openapi(schemas["view"])
            add[f"{prefix}Result"] = _served_result(to_openapi(schemas["result"]))
            add[f"{prefix}Options"] = to_openapi(schemas["options"])
            moves.append(_ref(f"{prefix}Move"))
            events.append(_ref(f"{prefix}Event"))
            results.append(_ref(f"{prefix}Result"))
            props["view"] = _ref(f"{prefix}View")
            props["options"] = _ref(f"{prefix}Options")
            props["legal_moves"] = {"type": "array", "items": _ref(f"{prefix}Move"),
                                    "description": "the caller's moves when it is to act"}
            props["result"] = {**_nullable(f"{prefix}Result"),
                               "description": "the final result once finished"}
        variant["description"] = f"a game of {game.title}, as the caller's seat sees it"
        example = game_example(game)
        if example is not None:
            variant["example"] = example["read"]
        add[f"{prefix}Game"] = variant
        variants.append(_ref(f"{prefix}Game"))
        mapping[game.name] = f"#/components/schemas/{prefix}Game"
    free_event = {"type": "object", "required": ["type"], "additionalProperties": True,
                  "properties": {"type": {"type": "string"}}}
    add["RedactedEvent"] = {
        "type": "object", "required": ["type", "redacted"],
        "properties": {"type": {"type": "string"}, "redacted": {"type": "boolean",
                                                                "enum": [True]},
                       "text": EVENT_TEXT},
        "description": "an event addressed to other seats: only its type is shown"}
    add["SystemEvent"] = {**free_event,
                          "properties": {"type": {"type": "string",
                                                  "enum": SYSTEM_EVENT_TYPES},
                                         "text": EVENT_TEXT},
                          "description": "an event of the server, not of the "
                                                       "rules: aborted, abandoned, resigned, "
                                                       "timed_out, taken_back (with `seat` "
                                                       "and `index`)"}
    add["SecretMove"] = {
        "type": "object", "required": ["type", "secret"],
        "properties": {"type": {"type": "string"}, "secret": {"type": "boolean",
                                                              "enum": [True]}},
        "description": "another seat's secret move in the log: only its type is shown"}
    add["SystemMove"] = {"type": "object", "required": ["type"],
                         "properties": {"type": {"type": "string",
                                                 "enum": ["abort", "abandon", "resign",
                                                          "timeout", "takeback"]},
                                        "index": {"type": "integer", "description": (
                                            "a take-back's: the entry it takes back")}},
                         "description": "a log entry of the server (`system: true`), or a "
                                        "take-back (`takeback`)"}
    untyped = [game for game in games if not has_json_schemas(game)]
    add["Move"] = {"anyOf": moves + ([FREE_MOVE] if untyped or not moves else []),
                   "description": "a move of any game (see <Game>Move)"}
    add["Event"] = {"anyOf": [*events, _ref("RedactedEvent"), _ref("SystemEvent")],
                    "description": "an event of any game (see <Game>Event), redacted for the "
                                   "caller, or the server's"}
    add["Result"] = {"anyOf": results + ([{"type": "object"}] if untyped or not results
                                         else []),
                     "description": "the final result of any game (see <Game>Result)"}
    add["LoggedMove"] = {"anyOf": [_ref("Move"), _ref("SecretMove"), _ref("SystemMove")],
                         "description": "a move of the log, as the caller may see it"}
    add["Game"] = {"oneOf": variants, "discriminator": {"propertyName": "game",
                                                        "mapping": mapping},
                   "description": "a game as the caller's seat (or a spectator) sees it, "
                                  "typed by its `game`"}
    add["StreamVersion"] = STREAM_VERSION
    add.update(account_event_components())
    return add


def illegal_move_variants(games: list[core.Game], components: dict[str, Schema]
                          ) -> dict[str, Schema]:
    """`<Game>IllegalMoveProblem`: the illegal-move problem of one game, its `legal_moves`
    that game's moves (an operation answers with all of them, told apart by `game`)."""
    base = components.get("IllegalMoveProblem")
    if base is None:
        return {}
    add = {}
    for game in games:
        if not has_json_schemas(game):
            continue
        prefix = pascal(game.name)
        variant = copy.deepcopy(base)
        variant["properties"]["game"] = {"type": "string", "enum": [game.name],
                                         "description": "the game's name"}
        variant["properties"]["legal_moves"]["items"] = _ref(f"{prefix}Move")
        variant["description"] = f"{game.title}: {base.get('description', '')}"
        add[f"{prefix}IllegalMoveProblem"] = variant
    return add


def illegal_moves_by_game(paths: dict[str, Any], variants: list[str]) -> None:
    """Each answer that may be an illegal-move problem: one of the per-game variants, in
    place (a oneOf of problems gets them in its place)."""
    generic = _ref("IllegalMoveProblem")
    for _method, _path, operation in _operations(paths):
        for response in operation.get("responses", {}).values():
            for media in response.get("content", {}).values():
                schema = media.get("schema")
                if schema == generic:
                    media["schema"] = {"oneOf": [_ref(name) for name in variants]}
                elif isinstance(schema, dict) and generic in schema.get("oneOf", []):
                    at = schema["oneOf"].index(generic)
                    schema["oneOf"][at:at + 1] = [_ref(name) for name in variants]


def _by_game(name: str, variants: dict[str, str], what: str) -> Schema:
    """`name` as a oneOf of its per-game variants, discriminated by `game`."""
    return {"oneOf": [_ref(variant) for variant in variants.values()],
            "discriminator": {"propertyName": "game", "mapping": {
                game: f"#/components/schemas/{variant}" for game, variant in variants.items()}},
            "description": f"{what}, typed by its `game` (one variant per game: <Game>{name})"}


def answer_components(games: list[core.Game], components: dict[str, Schema]
                      ) -> dict[str, Schema]:
    """The answers that carry a game's moves and events, one variant per game: a move's
    answer (`<Game>MoveResult`) and a page of the log (`<Game>MoveLog` of `<Game>LogEntry`),
    each naming its `game`, so that a generated client parses a game's moves and events
    into that game's classes only (the games share move and event type names: `done`,
    `game_over`). `MoveResult` and `MoveLog` become oneOfs discriminated by `game`; a move
    request's `move` any game's move."""
    add: dict[str, Schema] = {}
    results: dict[str, str] = {}
    logs: dict[str, str] = {}
    takebacks: dict[str, str] = {}
    move_refs = []
    for game in games:
        prefix = pascal(game.name)
        if has_json_schemas(game):
            schemas = game.json_schemas()
            move, event = _ref(f"{prefix}Move"), _ref(f"{prefix}Event")
            result = _nullable(f"{prefix}Result")
            add[f"{prefix}RedactedEvent"] = {
                "type": "object", "required": ["type", "redacted"],
                "properties": {"type": {"type": "string", "enum": sorted(schemas["events"])},
                               "redacted": {"type": "boolean", "enum": [True]},
                               "text": EVENT_TEXT},
                "description": f"an event of {game.title} addressed to other seats: only its "
                               "type is shown"}
            add[f"{prefix}SecretMove"] = {
                "type": "object", "required": ["type", "secret"],
                "properties": {"type": {"type": "string", "enum": sorted(schemas["moves"])},
                               "secret": {"type": "boolean", "enum": [True]}},
                "description": f"another seat's secret move of {game.title} in the log: only "
                               "its type is shown"}
            redacted, secret = _ref(f"{prefix}RedactedEvent"), _ref(f"{prefix}SecretMove")
        else:
            move, event, result = FREE_MOVE, {"type": "object", "additionalProperties": True,
                                              "required": ["type"]}, _nullable("Result")
            redacted, secret = _ref("RedactedEvent"), _ref("SecretMove")
        move_refs.append(move)
        add[f"{prefix}SeenEvent"] = {"anyOf": [event, redacted], "description": (
            f"an event of {game.title} as the caller may see it")}
        add[f"{prefix}LoggedEvent"] = {"anyOf": [event, redacted, _ref("SystemEvent")],
                                       "description": f"an event of a {game.title} log entry"}
        add[f"{prefix}LoggedMove"] = {"anyOf": [move, secret, _ref("SystemMove")],
                                      "description": f"the move of a {game.title} log entry, "
                                                     "as the caller may see it"}
        name = {"type": "string", "enum": [game.name], "description": "the game's name"}
        if "MoveResult" in components:
            variant = copy.deepcopy(components["MoveResult"])
            props = variant["properties"]
            props["game"] = name
            props["events"]["items"] = _ref(f"{prefix}SeenEvent")
            if "legal_moves" in props:
                props["legal_moves"]["items"] = move
            props["result"] = {**result, "description": "the final result once the move "
                                                        "ended the game"}
            if "next" in props:
                props["next"] = {**_ref(f"{prefix}Game"), "description": props["next"].get(
                    "description", "")}
            variant["description"] = f"the answer to a stored move of {game.title}"
            example = game_example(game)
            if example is not None:
                variant["example"] = example["answer"]
            add[f"{prefix}MoveResult"] = variant
            results[game.name] = f"{prefix}MoveResult"
        if "TakebackResult" in components:  # api.takeback: the seat's legal moves after it
            variant = copy.deepcopy(components["TakebackResult"])
            variant["properties"]["game"] = name
            variant["properties"]["legal_moves"]["items"] = move
            variant["description"] = f"the answer to a stored take-back in {game.title}"
            add[f"{prefix}TakebackResult"] = variant
            takebacks[game.name] = f"{prefix}TakebackResult"
        if "MoveLog" in components and "LogEntry" in components:
            entry = copy.deepcopy(components["LogEntry"])
            entry["properties"]["move"] = _ref(f"{prefix}LoggedMove")
            entry["properties"]["events"]["items"] = _ref(f"{prefix}LoggedEvent")
            entry["description"] = f"one move of a {game.title} log, redacted for the caller"
            add[f"{prefix}LogEntry"] = entry
            page = copy.deepcopy(components["MoveLog"])
            page["properties"]["game"] = name
            page["properties"]["moves"]["items"] = _ref(f"{prefix}LogEntry")
            page["description"] = f"a page of a {game.title} move log"
            add[f"{prefix}MoveLog"] = page
            logs[game.name] = f"{prefix}MoveLog"
    if results:
        add["MoveResult"] = _by_game("MoveResult", results, "the answer to a stored move")
    if logs:
        add["MoveLog"] = _by_game("MoveLog", logs, "a page of the move log")
    if takebacks:
        add["TakebackResult"] = _by_game("TakebackResult", takebacks,
                                         "the answer to a stored take-back")
    request = components.get("MoveRequest", {}).get("properties", {}).get("move")
    if request is not None and move_refs:
        add["MoveRequest"] = copy.deepcopy(components["MoveRequest"])
        add["MoveRequest"]["properties"]["move"] = {
            "anyOf": move_refs, "description": request.get("description", ""),
            **({"example": request["example"]} if "example" in request else {})}
    return add


_PARAM_TYPES = {"int": "integer", "float": "number", "bool": "boolean"}

BOT_PARAM_SPEC: Schema = {
    "type": "object", "required": ["type", "default"],
    "description": "one parameter of a bot, as its params_schema() declares it",
    "properties": {
        "type": {"type": "string", "enum": list(_PARAM_TYPES)},
        "default": {"oneOf": [{"type": "boolean"}, {"type": "number"}]},
        "min": {"type": "number"}, "max": {"type": "number"},
        "description": {"type": "string"},
    },
}


def bot_params_schema(name: str, params: dict[str, dict[str, Any]]) -> Schema:
    """The JSON Schema of bot `name`'s `params` object, from its declared parameter specs
    (ai_worker.bots: {type, default, min, max, description}); every one optional."""
    properties: dict[str, Schema] = {}
    for param, spec in params.items():
        prop: Schema = {"type": _PARAM_TYPES[spec["type"]], "default": spec["default"]}
        if "min" in spec:
            prop["minimum"] = spec["min"]
        if "max" in spec:
            prop["maximum"] = spec["max"]
        if spec.get("description"):
            prop["description"] = spec["description"]
        properties[param] = prop
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "description": f"the parameters of bot `{name}` (each optional: its default "
                           "when omitted)" if properties else
                           f"bot `{name}` takes no parameters"}


def _bot_variant(base: Schema, bot: str, params: str) -> Schema:
    """`base` (a seat spec, created seat or entrant) for bot `bot` only, its params typed."""
    variant = copy.deepcopy(base)
    props = variant["properties"]
    props.pop("token", None)
    if "claim" in props:  # the API takes `claim: false` on a bot seat, refuses true
        props["claim"] = {"type": "boolean", "enum": [False]}
    props["kind"] = {"type": "string", "enum": ["bot"], **(
        {"default": "bot"} if "default" in props.get("kind", {}) else {})}
    props["bot"] = {**props.get("bot", {}), "type": "string", "enum": [bot]}
    props["bot"].pop("minLength", None)
    props["bot"].pop("maxLength", None)
    props["params"] = _ref(params)
    variant["required"] = sorted({*variant.get("required", []), "bot"})
    variant["description"] = f"played by bot `{bot}`"
    return variant


def bot_components(components: dict[str, Schema]) -> dict[str, Schema]:
    """A schema per bot, derived from its declared parameters: `<Bot>BotParams` (the `params`
    of a seat or entrant it plays), `<Bot>Bot` (its `/v1/bots` entry), and `SeatSpec`,
    `CreatedSeat` and `Entrant` as unions of a human (or external) variant and one variant
    per bot whose `params` is that bot's schema."""
    add: dict[str, Schema] = {"BotParamSpec": BOT_PARAM_SPEC}
    bots = bot_catalog()
    entries, mapping = [], {}
    for bot in bots:
        stem = pascal(bot["name"])
        add[f"{stem}BotParams"] = bot_params_schema(bot["name"], bot["params"])
        add[f"{stem}BotParamSpecs"] = {
            "type": "object", **({"required": list(bot["params"])} if bot["params"] else {}),
            "additionalProperties": False,
            "properties": {param: _ref("BotParamSpec") for param in bot["params"]},
            "description": f"the parameters of bot `{bot['name']}` (values: {stem}BotParams)"}
        add[f"{stem}Bot"] = {
            "type": "object", "required": ["name", "title", "description", "params"],
            "additionalProperties": False, "description": f"the bot `{bot['name']}`",
            "properties": {"name": {"type": "string", "enum": [bot["name"]]},
                           "title": {"type": "string", "description": (
                               "its name as a player reads it, in the answer's language")},
                           "description": {"type": "string"},
                           "params": _ref(f"{stem}BotParamSpecs")}}
        entries.append(_ref(f"{stem}Bot"))
        mapping[bot["name"]] = f"#/components/schemas/{stem}Bot"
    add["Bot"] = {"oneOf": entries, "discriminator": {"propertyName": "name",
                                                      "mapping": mapping},
                  "description": "a bot that can take a seat, by its name"}
    resigned_to = components.get("Resign", {}).get("properties", {}).get("bot")
    if resigned_to is not None:  # api.lifecycle: a bot that can take a seat, not an automa's
        resigned_to["enum"] = sorted(bot["name"] for bot in bots if not automa_only(bot["name"]))
    for name, other, required, what in (
            ("SeatSpec", "human", [], "how one seat is played"),
            ("CreatedSeat", "human", [], "a seat of the creation answer"),
            ("Entrant", "external", ["name"], "a tournament entrant")):
        base = components.get(name)
        if base is None or "kind" not in base.get("properties", {}):
            continue
        human = copy.deepcopy(base)
        human["properties"].pop("bot", None)
        if name == "Entrant":  # the API takes empty params from an external entrant
            human["properties"]["params"] = {"type": "object", "maxProperties": 0}
        else:
            human["properties"].pop("params", None)
        human["properties"]["kind"] = {"type": "string", "enum": [other]}
        human["required"] = sorted({*human.get("required", []), "kind", *required})
        add[f"{pascal(other)}{name}"] = human
        variants = [_ref(f"{pascal(other)}{name}")]
        for bot in bots:
            stem = pascal(bot["name"])
            add[f"{stem}{name}"] = _bot_variant(base, bot["name"], f"{stem}BotParams")
            variants.append(_ref(f"{stem}{name}"))
        add[name] = {"oneOf": variants, "description": f"{what}: {other}, or by a bot (one "
                     "variant per bot, its params typed by <Bot>BotParams)"}
    return add


def problem_components(base: Schema) -> dict[str, Schema]:
    """One schema per problem type: the common members, its `type` URI and its own."""
    add: dict[str, Schema] = {}
    for slug, (name, extra) in PROBLEM_SCHEMAS.items():
        kind = PROBLEM_TYPES[slug]
        common = {key: copy.deepcopy(base["properties"][key])
                  for key in ("type", "title", "status", "detail")}
        common["type"] = {"type": "string", "enum": [PROBLEM_BASE + slug]}
        # RFC 9457: a problem may carry more members; clients ignore those they do not know.
        add[name] = {"type": "object", "properties": {**common, **extra},
                     "required": [*common, *extra], "additionalProperties": True,
                     "description": f"{slug} ({kind.status}): {kind.meaning} What to do: "
                                    f"{kind.action}",
                     "externalDocs": {"url": PROBLEM_BASE + slug,
                                      "description": f"the {slug} problem type"}}
    base = copy.deepcopy(base)
    base["properties"]["type"]["description"] = (
        "a URI naming the problem; one of: " + ", ".join(
            PROBLEM_BASE + slug for slug in PROBLEM_SCHEMAS) + " (each URI is the page "
        "saying what the problem means and what to do; also served by this API at its path)")
    base["properties"]["legal_moves"] = {"type": "array", "items": _ref("Move"),
                                         "description": "illegal-move"}
    base["properties"]["current"] = {**_ref("Game")}
    base["properties"]["result"] = {**_nullable("Result"),
                                    "description": "game-over: the result (null if aborted)"}
    add["Problem"] = base
    return add


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, Schema]]:
    return [(method, path, operation) for path, item in spec.items()
            for method, operation in item.items() if method != "parameters"]


def _fallback_id(method: str, path: str) -> str:
    words = [w for w in re.split(r"[/{}._-]+", path) if w and w != "v1"]
    return method + "".join(pascal(w) for w in words)


def _rate_limited(method: str, path: str) -> bool:
    """Whether the rate limiter counts requests of `method` on the path template `path`."""
    concrete = re.sub(r"\{[a-z_]+\}", "Xk3dQ9pLr2mN7vBw", path)
    return limits.counts_against(method, concrete) is not None


def as_problem(response: Schema) -> None:
    """An answer whose body is a Problem, in place: as application/problem+json, the media
    type every error answer of the API has (flask-smorest documents its own error answers,
    e.g. a 422 of its argument parsing, as application/json)."""
    content = response.get("content", {})
    body = content.get("application/json")
    if body is not None and body.get("schema") == _ref("Problem") and \
            PROBLEM_MIMETYPE not in content:
        response["content"] = {PROBLEM_MIMETYPE if media == "application/json" else media: value
                               for media, value in content.items()}


def document_operations(paths: dict[str, Any], example_move: Schema | None,
                        shared: dict[str, Schema] | None = None) -> None:
    """operationIds, headers, problem schemas per status and stream bodies, in place.
    `shared` are the document's components.responses: an operation's `$ref` to one is
    replaced by a copy of it, so that its problem schema can be the operation's own."""
    for method, path, operation in _operations(paths):
        operation.setdefault("operationId", OPERATION_IDS.get((method, path))
                             or _fallback_id(method, path))
        responses = operation.get("responses", {})
        for status, response in list(responses.items()):
            ref = response.get("$ref", "")
            if ref.startswith("#/components/responses/") and shared is not None:
                responses[status] = copy.deepcopy(shared[ref.rsplit("/", 1)[1]])
            as_problem(responses[status])
        if path.startswith("/v1/"):
            operation.setdefault("parameters", []).extend(
                {"$ref": f"#/components/parameters/{name}"} for name in LANGUAGE_PARAMETERS)
        if "429" not in responses and (_rate_limited(method, path) or any(
                key[:2] == (method, path) and key[2] == "429" for key in PROBLEMS_BY_RESPONSE)):
            responses["429"] = {"description": "too many requests: see the problem's type; "
                                               "retry after Retry-After seconds",
                                "content": {PROBLEM_MIMETYPE: {"schema": _ref("Problem")}}}
        limited = _rate_limited(method, path)
        for status, response in responses.items():
            headers = response.setdefault("headers", {})
            if limited:
                for name in RATE_LIMIT_HEADERS:
                    headers.setdefault(name, {"$ref": f"#/components/headers/{name}"})
            if status == "401":
                headers.setdefault("WWW-Authenticate", HEADERS["WWW-Authenticate"])
            if status in ("429", "503"):
                headers.setdefault("Retry-After", HEADERS["Retry-After"])
            media = response.get("content", {})
            named = [*COMMON_HEADERS, *(["Content-Language"] if PROBLEM_MIMETYPE in media
                                        or "application/json" in media else []),
                     *(["Cache-Control", "X-Accel-Buffering"] if "text/event-stream" in media
                       else []), *(["Cache-Control"] if "image/png" in media else [])]
            for name in named:
                headers.setdefault(name, {"$ref": f"#/components/headers/{name}"})
            if not headers:
                del response["headers"]
            slugs = PROBLEMS_BY_RESPONSE.get((method, path, status),
                                             PROBLEMS_BY_STATUS.get(status))
            content = response.get("content", {})
            if slugs and PROBLEM_MIMETYPE in content:
                refs = [_ref(PROBLEM_SCHEMAS[slug][0]) for slug in slugs]
                content[PROBLEM_MIMETYPE]["schema"] = refs[0] if len(refs) == 1 else \
                    {"oneOf": refs}
            stream = content.get("text/event-stream")
            if stream is not None:
                stream["schema"] = {"type": "string", "description": STREAM_DOC if
                                    path.endswith("/games/{game_id}/events") else
                                    ACCOUNT_STREAM_DOC if path.endswith("/players/me/stream")
                                    else "server-sent events (text): read line by line"}
                if path.endswith("/games/{game_id}/events"):
                    stream["example"] = ('retry: 1000\n\nid: 3\nevent: version\ndata: '
                                         '{"version": 3, "status": "active", "to_act": 1}\n\n')
    game = paths.get("/v1/games/{game_id}", {}).get("get")
    if game is not None:
        game.setdefault("parameters", []).append({
            "in": "header", "name": "If-None-Match", "schema": {"type": "string"},
            "description": 'the ETag of the version the client has ("<version>"): 304 if '
                           "it is still current"})
    move = paths.get("/v1/games/{game_id}/moves", {}).get("post")
    if move is not None:
        ok = move["responses"]["200"]
        ok.setdefault("headers", {}).update({"ETag": HEADERS["ETag"],
                                             "Idempotent-Replayed":
                                                 HEADERS["Idempotent-Replayed"]})
        if example_move is not None:
            body = move.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                body["example"] = {"move": example_move, "version": 0}
    create = paths.get("/v1/games", {}).get("post")
    if create is not None and "darwins-journey" in core.game_names():
        body = create.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            body["example"] = {"game": "darwins-journey", "options": {"players": 1,
                                                                      "alfred": "blue"}}


def attach_examples(paths: dict[str, Any], recorded: dict[str, dict[str, Any]]) -> None:
    """Each operation's request and answers as recorded from real games (api.examples), in
    place: the request body's example and, per status, each media type's."""
    for method, path, operation in _operations(paths):
        entry = recorded.get(f"{method.upper()} {path}")
        if entry is None:
            continue
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None and entry.get("request") is not None:
            body["example"] = entry["request"]
        for status, answer in entry.get("responses", {}).items():
            response = operation.get("responses", {}).get(status)
            if response is None or answer is None:
                continue
            for media, content in response.get("content", {}).items():
                if isinstance(answer, str) == media.startswith("text/"):
                    content["example"] = answer


_NUMBER: Schema = {"type": "number"}
_INTEGER: Schema = {"type": "integer"}
_INTERVAL: Schema = {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 2,
                     "nullable": True,
                     "description": "95% confidence interval [low, high] (null under 2 values)"}
# What api.standings.standings and the tournament's games list send (marshmallow says "a
# dict" of them).
TOURNAMENT_COMPONENTS: dict[str, Schema] = {
    "Rating": {"type": "object", "required": ["mu", "sigma", "ordinal"],
               "description": "an openskill (Plackett-Luce) rating",
               "properties": {"mu": _NUMBER, "sigma": _NUMBER, "ordinal": {
                   "type": "number", "description": "mu - 3 sigma: the standings' order"}}},
    "StandingsEntrant": {
        "type": "object", "description": "an entrant's line of the standings",
        "required": ["name", "games", "wins", "draws", "losses", "mean_score", "score_ci",
                     "mean_margin", "margin_ci", "rating"],
        "properties": {
            "name": {"type": "string"}, "games": _INTEGER, "wins": _INTEGER,
            "draws": _INTEGER, "losses": _INTEGER,
            "mean_score": {"type": "number", "nullable": True},
            "score_ci": _INTERVAL,
            "mean_margin": {"type": "number", "nullable": True, "description": (
                "mean of its score minus the best other score of each game")},
            "margin_ci": _INTERVAL, "rating": _ref("Rating")}},
    "HeadToHead": {"type": "object", "required": ["wins", "draws", "losses"],
                   "description": "one entrant's games against another, from its side",
                   "properties": {"wins": _INTEGER, "draws": _INTEGER, "losses": _INTEGER}},
    "Superiority": {"type": "object", "required": ["better", "worse", "likelihood"],
                    "description": "two neighbours of the standings",
                    "properties": {"better": {"type": "string"}, "worse": {"type": "string"},
                                   "likelihood": {"type": "number", "nullable": True,
                                                  "description": "that `better` is the "
                                                                 "stronger (null: no "
                                                                 "decisive game)"}}},
    "Standings": {
        "type": "object", "required": ["games", "entrants", "head_to_head", "superiority"],
        "description": "a tournament's standings over its games ended (and shown) so far",
        "properties": {
            "games": _INTEGER,
            "entrants": {"type": "array", "items": _ref("StandingsEntrant"),
                         "description": "in rating order (ordinal, then name)"},
            "head_to_head": {"type": "object", "description": "entrant -> opponent -> games",
                             "additionalProperties": {"type": "object",
                                                      "additionalProperties":
                                                          _ref("HeadToHead")}},
            "superiority": {"type": "array", "items": _ref("Superiority")}}},
    "TournamentSlot": {
        "type": "object", "required": ["slot", "deal", "labels", "game_id", "status", "result"],
        "description": "a game of a tournament's schedule",
        "properties": {
            "slot": _INTEGER, "deal": _INTEGER,
            "labels": {"type": "array", "items": {"type": "string"},
                       "description": "the entrant of each seat"},
            "game_id": {"type": "string", "nullable": True,
                        "description": "null until the game is created"},
            "status": {"type": "string",
                       "description": "scheduled, or the game's status (active, finished, "
                                      "aborted, abandoned)"},
            "result": {**_nullable("Result"), "description": (
                "once the game ended (and, with an external entrant, its deal's games too)")},
            "forfeits": {"type": "array", "items": _ref("Forfeit"),
                         "description": "with the result: its bots' forfeited moves"},
            "tokens": {"type": "object", "additionalProperties": {"type": "string"},
                       "description": "the calling external entrant's seats: seat -> token"}}},
}


def tournament_components(components: dict[str, Schema]) -> dict[str, Schema]:
    """The standings, head-to-head and schedule slots typed (TOURNAMENT_COMPONENTS), and the
    tournament answers' members pointed at them."""
    add = copy.deepcopy(TOURNAMENT_COMPONENTS)
    for name in ("Tournament", "CreatedTournament"):
        props = components.get(name, {}).get("properties", {})
        if "standings" in props:
            add[name] = copy.deepcopy(components[name])
            add[name]["properties"]["standings"] = {
                **_ref("Standings"), "description": props["standings"].get("description", "")}
            if "clock" in props:
                add[name]["properties"]["clock"] = {
                    **_nullable("TimeControl"),
                    "description": props["clock"].get("description", "")}
    games = components.get("TournamentGames", {}).get("properties", {}).get("games")
    if games is not None:
        add["TournamentGames"] = copy.deepcopy(components["TournamentGames"])
        add["TournamentGames"]["properties"]["games"]["items"] = _ref("TournamentSlot")
    return add


# Status enums of models whose marshmallow schemas leave them open (their values come from
# the stores that write them).
STATUS_ENUMS: dict[str, list[str]] = {
    "Tournament": [tournament_store.ACTIVE, *tournament_store.ENDED],
    "CreatedTournament": [tournament_store.ACTIVE, *tournament_store.ENDED],
    "Progress": [tournament_store.ACTIVE, *tournament_store.ENDED],
    "Cancelled": ["cancelled"],
    "Health": ["ok"],
}


def _refs(schema: Any) -> set[str]:
    """The names of the components `schema` refers to, directly."""
    if isinstance(schema, list):
        return {name for item in schema for name in _refs(item)}
    if not isinstance(schema, dict):
        return set()
    found = {schema["$ref"].rsplit("/", 1)[1]} if isinstance(schema.get("$ref"), str) else set()
    return found | {name for key, value in schema.items() if key != "example"
                    for name in _refs(value)}


def _said(schema: Schema) -> None:
    """Each `default` in `schema`'s properties said in its description instead, in place."""
    for key, value in list(schema.items()):
        if key in ("example", "examples", "enum"):
            continue
        if isinstance(value, dict):
            _said(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    _said(item)
    for prop in schema.get("properties", {}).values():
        if isinstance(prop, dict) and "default" in prop:
            default = prop.pop("default")
            text = f"(default: {json.dumps(default)})"
            prop["description"] = f"{prop['description']} {text}" if prop.get(
                "description") else text


def request_defaults_said(document: Schema) -> None:
    """The defaults of what a request sends, said in words, in place. openapi-typescript
    makes a property with a `default` required (its defaultNonNullable), so that a client
    would have to send `unranked` and every bot parameter; the server fills them in."""
    components = document.get("components", {}).get("schemas", {})
    todo = [name for item in document.get("paths", {}).values() for operation in item.values()
            if isinstance(operation, dict)
            for media in operation.get("requestBody", {}).get("content", {}).values()
            for name in _refs(media.get("schema"))]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in components:
            continue
        seen.add(name)
        _said(components[name])
        todo.extend(_refs(components[name]))


# Components with an array member of the component's own snake_case name (`Webhooks.webhooks`):
# openapi-python-client's from_dict then reuses that name for the list and the instance, and
# `mypy --strict` rejects the generated module. Renamed (other such names: <Name>List).
LIST_NAMES: dict[str, str] = {"Webhooks": "WebhookList", "Deliveries": "DeliveryList",
                              "Bots": "BotList"}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _rewrite_refs(node: Any, renamed: dict[str, str]) -> None:
    """Every reference to a renamed component (a `$ref`, a discriminator's mapping) renamed,
    in place."""
    prefix = "#/components/schemas/"
    if isinstance(node, list):
        for item in node:
            _rewrite_refs(item, renamed)
    elif isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str) and value.startswith(prefix) and \
                    (key == "$ref" or key not in ("description", "example")):
                node[key] = prefix + renamed.get(value[len(prefix):], value[len(prefix):])
            elif key not in ("example", "examples"):
                _rewrite_refs(value, renamed)


def lists_renamed(document: Schema) -> None:
    """Components named like their one member renamed (LIST_NAMES), in place."""
    components = document.get("components", {}).get("schemas", {})
    renamed = {name: LIST_NAMES.get(name, f"{name}List") for name, schema in components.items()
               if schema.get("properties", {}).get(_snake(name), {}).get("type") == "array"}
    if not renamed:
        return
    for old, new in renamed.items():
        components[new] = components.pop(old)
    _rewrite_refs(document, renamed)


def typed(spec: Schema) -> Schema:
    """The document to publish: a copy of `spec` (flask-smorest's document, as
    `APISpec.to_dict()` gives it) with the games' schemas, operationIds, headers, problems and
    examples. `spec` itself is not changed: to_dict() answers with the library's own dicts."""
    document = copy.deepcopy(spec)
    shared = document.setdefault("components", {})
    components = shared.setdefault("schemas", {})
    for name, values in STATUS_ENUMS.items():
        status = components.get(name, {}).get("properties", {}).get("status")
        if status is not None and "enum" not in status:
            status["enum"] = list(values)
    games = [core.get_game(name) for name in core.game_names()]
    if "Game" in components:
        components.update(game_components(games, components["Game"]))
    if "Problem" in components:
        components.update(problem_components(components["Problem"]))
    components.update(bot_components(components))
    if "Forfeit" in components:
        components.update(tournament_components(components))
    components.update(answer_components(games, components))
    if "Record" in components and "LogEntry" in components:
        # A record's moves (api.replays): any game's, as in its own log, typed by the
        # record's `game`; the move log's pages have one entry schema per game instead.
        entry = components["LogEntry"]["properties"]
        entry["events"]["items"] = _ref("Event")
        entry["move"] = _ref("LoggedMove")
    else:
        components.pop("LogEntry", None)  # one per game (<Game>LogEntry), each in its MoveLog
    if "AnalysedMove" in components:  # api.analysis: the move played and the better one
        for member in ("move", "best"):
            components["AnalysedMove"]["properties"][member] = {
                "allOf": [_ref("Move")],
                "description": components["AnalysedMove"]["properties"][member].get(
                    "description", "")}
    if "SuggestedMove" in components:  # api.hints: a legal move of the seat
        components["SuggestedMove"]["properties"]["move"] = {
            "allOf": [_ref("Move")],
            "description": components["SuggestedMove"]["properties"]["move"].get(
                "description", "")}
    if "Record" in components:
        components["Record"]["properties"]["result"] = {
            **_nullable("Result"), "description": "the final result (null if aborted or "
                                                  "abandoned)"}
    if "CreateGame" in components:
        components["CreateGame"]["properties"]["options"]["description"] = (
            "the game's options, each game's in its <Game>Options schema (e.g. "
            "DarwinsJourneyOptions); see also /v1/games-catalog")
    # The games this server plays: any other name is refused (422), so the document says so.
    for name in ("CreateGame", "CreateTournament"):
        game_field = components.get(name, {}).get("properties", {}).get("game")
        if game_field is not None:
            game_field["enum"] = list(core.game_names())
    typed_games = [game for game in games if has_json_schemas(game)]
    example = next((found for found in map(game_example, typed_games) if found), None)
    shared.setdefault("parameters", {}).update(copy.deepcopy(LANGUAGE_PARAMETERS))
    shared.setdefault("headers", {}).update(copy.deepcopy(HEADERS))
    for response in shared.get("responses", {}).values():
        as_problem(response)
    queries.document_refusals(document.get("paths", {}))
    document_operations(document.get("paths", {}), example and example["move"],
                        shared.get("responses"))
    illegal = illegal_move_variants(games, components)
    if illegal:
        components.update(illegal)
        illegal_moves_by_game(document.get("paths", {}), list(illegal))
    request_defaults_said(document)
    lists_renamed(document)
    from api import examples  # here: `python -m api.examples` imports api first

    attach_examples(document.get("paths", {}), examples.load())
    return document


def install(app: Flask, api: flask_smorest.Api) -> None:
    """Serve the typed document of `api` at DOCUMENT_PATH and Swagger UI at DOCS_PATH (call
    once every blueprint is registered). The document is typed once, at start-up, so that a
    game whose schemas break it fails the boot, and serialized at its first request."""
    document = typed(api.spec.to_dict())
    serialized: list[bytes] = []
    blp = Blueprint("api-docs", __name__)
    local_ui = swagger_ui_dir()
    swagger_ui_url = SWAGGER_UI_CDN if local_ui is None else SWAGGER_UI_LOCAL

    @blp.get(DOCUMENT_PATH)
    def openapi_json() -> Response:
        """The OpenAPI document."""
        if not serialized:  # two first requests at once both make the same bytes
            serialized.append(app.json.dumps(document, indent=2).encode())
        return app.response_class(serialized[0], mimetype="application/json")

    @blp.get(DOCS_PATH)
    def openapi_swagger_ui() -> str:
        """The document in Swagger UI."""
        return render_template("swagger_ui.html", title=document["info"]["title"],
                               document_url=DOCUMENT_PATH, swagger_ui_url=swagger_ui_url)

    if local_ui is not None:
        @blp.get(SWAGGER_UI_LOCAL + "<path:filename>")
        def swagger_ui_asset(filename: str) -> Response:
            """A Swagger UI file from the swagger-ui-bundle package."""
            return send_from_directory(local_ui, filename, max_age=86400)

    app.register_blueprint(blp)
