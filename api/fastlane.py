"""A lean lane for the two requests a game is played with: a move (POST
/v1/games/<id>/moves) and a read (GET /v1/games/<id>).

Through Flask, each of them spends more CPU in the framework than in the game: the request
context, routing, flask-smorest's and webargs' decorators, and the before/after hooks cost
several hundred microseconds a request, most of it for features the request does not use.
The lane is a WSGI middleware in front of the Flask app. It answers the plain case of those
two requests with the functions the views themselves call (`api.games`), and hands every
other request to the app untouched. It takes a request only when nothing the app would add
is needed:

- a seat token or none (a player's key goes to the app, api.auth);
- no query string, English answers (no `?lang=`, an Accept-Language whose best match is
  English: other languages relabel the moves in `api.i18n.localize_response`), no
  If-None-Match (a 304);
- for a move: a Bearer token and a JSON body with a Content-Length under the app's
  MAX_CONTENT_LENGTH and no Content-Encoding, loaded by `MoveRequestSchema` as
  flask-smorest would.

Anything unusual the lane meets before a move is stored (an unknown game, a wrong token, a
stale version, an illegal move, a retry, a commit that found the game changed) has changed
nothing yet, and the lane hands the request to the app, which decides it again from the
start: every refusal is answered by the views alone, one source of truth. An error (Redis
not answering, and anything from the commit on, when the move may be stored) is answered by
the app's own error handlers, as the view's would be, and at once: handing it on would make
a client wait for a hung Redis twice. An answer of the lane carries what the app's hooks
add to the view's: Vary and Content-Language (`api.i18n`), the CORS headers (of the
`api.cors` policy flask-cors applies), and the request is counted and timed (`api.metrics`).
With rate limits on, the lane counts the request as the app's hook would (`api.limits`, in a
request context: Flask-Limiter needs one), answers the app's 429 when over, and marks the
request counted so that the app does not count it again if the lane hands it on.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis
from flask import Flask
from marshmallow import ValidationError

from api import games, i18n, limits, metrics
from api.auth import PLAYER_KEY, bearer_of
from api.cors import CorsPolicy
from api.parsing import parse_json_body
from api.problems import Problem
from api.schemas import MoveRequestSchema
from api.services import Services
from api.store import json_text

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

_READ_PATH = re.compile(r"/v1/games/([^/]+)")
_MOVE_PATH = re.compile(r"/v1/games/([^/]+)/moves")
# The metrics' names of the two views (their Flask endpoints).
_READ_ENDPOINT = f"{games.blp.name}.{games.GameResource.__name__}"
_MOVE_ENDPOINT = f"{games.blp.name}.{games.Moves.__name__}"


class HandOn(Exception):
    """The lane does not answer this request: the Flask app does, from the start."""


class FastLane:
    """WSGI middleware answering plain game reads and moves; the rest goes to `inner`."""

    def __init__(self, app: Flask, inner: WSGIApp, cors: CorsPolicy) -> None:
        self.app = app
        self.inner = inner
        self.cors = cors
        self.services: Services = app.extensions["bgb"]
        self.limits: limits.Limits = app.extensions["bgb-limits"]
        self.max_body = int(app.config.get("MAX_CONTENT_LENGTH") or 0)
        self.move_schema = MoveRequestSchema()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse,
                 ) -> Iterable[bytes]:
        """Answer a plain read or move, else hand the request on."""
        method = environ.get("REQUEST_METHOD")
        path = environ.get("PATH_INFO", "")
        found = (_MOVE_PATH.fullmatch(path) if method == "POST" else
                 _READ_PATH.fullmatch(path) if method == "GET" else None)
        if (found is None or not games.GAME_ID.match(found[1]) or environ.get("QUERY_STRING")
                or i18n.locale_of(None, environ.get("HTTP_ACCEPT_LANGUAGE")) != "en"):
            return self.inner(environ, start_response)
        started = time.perf_counter()
        if self.limits.limiter.enabled:
            refused = self._count(environ, start_response, started)
            if refused is not None:
                return refused
        try:
            if method == "POST":
                return self._move(environ, start_response, found[1], started)
            return self._read(environ, start_response, found[1], started)
        except HandOn:
            return self.inner(environ, start_response)

    def _count(self, environ: dict[str, Any], start_response: StartResponse,
               started: float) -> Iterable[bytes] | None:
        """Count the request against the rate limits as the app's hook does: the app's 429
        answer when over a limit (its 503 when Redis does not answer), else None (and the
        request is marked counted)."""
        try:
            with self.app.request_context(environ):
                # It leaves the X-RateLimit headers in environ[limits.HEADERS]: no Flask
                # hook sees the lane's answer.
                self.limits.check()
        except (Problem, redis.RedisError) as refused:
            return self._error(environ, start_response, refused, started)
        environ[limits.COUNTED] = True
        return None

    def _read(self, environ: dict[str, Any], start_response: StartResponse, game_id: str,
              started: float) -> Iterable[bytes]:
        """A game read without a long poll or If-None-Match, as `GameResource.get`."""
        if environ.get("HTTP_IF_NONE_MATCH") is not None:
            raise HandOn
        svc = self.services
        try:
            # The metadata from memory, checked by the read itself (else: handed on).
            meta, digest = games._held_meta(svc, game_id)
            game = games._rules(meta)
            token = _seat_token(environ)
            now, seat = games._read_as(svc, game, game_id, meta, token, digest)
            body = games._game_answer(svc, game, game_id, meta, now, seat, "")
        except redis.RedisError as error:
            return self._error(environ, start_response, error, started)
        except Exception:  # a refusal, or a fault: nothing changed, the view answers it
            raise HandOn from None
        assert body is not None and now.head is not None
        return self._answer(environ, start_response, _READ_ENDPOINT, started, body,
                            games._read_headers(now.head))

    def _move(self, environ: dict[str, Any], start_response: StartResponse, game_id: str,
              started: float) -> Iterable[bytes]:
        """A move decided and stored at the first try, as `Moves.post`."""
        body = self._move_body(environ)
        svc = self.services
        try:
            token = _seat_token(environ)
            if token is None:
                raise HandOn
            asked = games.MoveAsked(token, body, environ.get("HTTP_IF_MATCH"),
                                    environ.get("HTTP_IDEMPOTENCY_KEY"))
            # The metadata from memory, checked by the read or the commit (else handed on).
            meta, digest = games._held_meta(svc, game_id)
            game = games._rules(meta)
            now, _ = games._decided_on(svc, game, game_id, digest)
            decided = games._decide(svc, game, game_id, meta, asked, now)
        except redis.RedisError as error:
            return self._error(environ, start_response, error, started)
        except Exception:  # a refusal, a retry, or a fault: nothing stored, the view decides
            raise HandOn from None
        try:
            commit = games._commit(svc, game_id, now, decided, digest)
            if commit.outcome != "ok":
                # nothing stored: the game or its metadata changed, or this is a retry
                raise HandOn
            answer, headers = games._stored(svc, game, game_id, meta, now, decided)
        except HandOn:
            raise
        except Exception as error:  # the move may be stored: the app answers as the view
            return self._error(environ, start_response, error, started)
        return self._answer(environ, start_response, _MOVE_ENDPOINT, started, answer, headers)

    def _move_body(self, environ: dict[str, Any]) -> dict[str, Any]:
        """The move request's body as MoveRequestSchema loads it; HandOn for anything but a
        JSON body of known length within the limit, without a Content-Encoding (the app
        refuses one). The body is put back for the app."""
        content_type = environ.get("CONTENT_TYPE", "")
        length = environ.get("CONTENT_LENGTH", "")
        if (not _is_json(content_type.split(";", 1)[0].strip().lower())
                or environ.get("HTTP_TRANSFER_ENCODING") is not None
                or environ.get("HTTP_CONTENT_ENCODING") is not None or not length.isdigit()
                or not 0 < int(length) <= self.max_body):
            raise HandOn
        raw = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(raw)
        if len(raw) != int(length):
            raise HandOn
        try:
            document = parse_json_body(raw)
            plain = _plain_move(document)
            return plain if plain is not None else self.move_schema.load(document)
        except (Problem, ValidationError):
            raise HandOn from None

    def _answer(self, environ: dict[str, Any], start_response: StartResponse, endpoint: str,
                started: float, body: dict[str, Any], headers: dict[str, str],
                ) -> Iterable[bytes]:
        """A 200 JSON answer with the headers the app's hooks would add, counted."""
        payload = json_text(body)
        vary = headers.pop("Vary", None)
        # as api.i18n.localize_response: the answer is in English and says so
        listed = [("Content-Type", "application/json"), ("Content-Length", str(len(payload))),
                  *headers.items(),
                  ("Vary", f"{vary}, Accept-Language" if vary else "Accept-Language"),
                  ("Content-Language", i18n.content_language("en")),
                  *self.cors.simple_headers(environ.get("HTTP_ORIGIN")),
                  *environ.get(limits.HEADERS, ())]
        start_response("200 OK", listed)
        metrics.record(environ["REQUEST_METHOD"], endpoint, 200, started)
        return [payload]

    def _error(self, environ: dict[str, Any], start_response: StartResponse,
               error: Exception, started: float) -> Iterable[bytes]:
        """The app's answer to `error` raised by a view of this request (its error
        handlers, then its after-request hooks: timed from `started`)."""
        with self.app.request_context(environ):
            metrics.start(started)
            response = self.app.make_response(self.app.handle_user_exception(error))
            response = self.app.process_response(response)
        return response(environ, start_response)


def _seat_token(environ: dict[str, Any]) -> str | None:
    """The request's bearer token (None without one); HandOn for a player's key, which the
    app checks (its seat comes from the player's seats, and `?seat=N` among several)."""
    token = bearer_of(environ.get("HTTP_AUTHORIZATION"))
    if token is not None and PLAYER_KEY.match(token):
        raise HandOn
    return token


def _is_json(mimetype: str) -> bool:
    """Whether the app's parser (webargs) reads a body of `mimetype` as JSON:
    application/json or application/<anything>+json."""
    return mimetype == "application/json" or (
        mimetype.startswith("application/") and mimetype.endswith("+json"))


def _plain_move(document: Any) -> dict[str, Any] | None:
    """What `MoveRequestSchema().load(document)` gives for the body nearly every move has,
    {"move": {...}, "version": <int >= 0>} (the version may be left out), without
    marshmallow's ~40 us; None for any other body, which the schema loads (or refuses).

    As the schema: fields in its order, the move a new dict of the same (string) keys and
    values, the version an int (never a bool) of at least 0."""
    if type(document) is not dict or "move" not in document or len(document) > 2:
        return None
    move, version = document["move"], document.get("version")
    if type(move) is not dict or len(document) == 2 and (
            type(version) is not int or version < 0):
        return None  # an unknown field, or a value the schema checks (or refuses)
    return {"move": dict(move)} if version is None else {"move": dict(move), "version": version}
