"""Errors as application/problem+json (RFC 9457): one exception type, one set of handlers."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

import redis
from flask import Flask, Response
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException

from api import i18n

PROBLEM_BASE = "https://boardgamesbot.dev/problems/"
PROBLEM_MIMETYPE = "application/problem+json"

log = logging.getLogger(__name__)

# Seconds a client should wait before retrying when Redis does not answer.
RETRY_AFTER_SECONDS = 2

# Redis failures that mean "not reachable now" (a retry may succeed), answered 503; any other
# Redis error (a bad command, a script bug) is the server's fault, answered 500.
_REDIS_UNAVAILABLE = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError,
                      redis.ReadOnlyError,
                      # A Redis Cluster failing over or without a master for some slots.
                      redis.exceptions.ClusterDownError, redis.exceptions.ClusterError,
                      redis.exceptions.TryAgainError, redis.exceptions.MasterDownError)

# Slug and title of the HTTP statuses werkzeug (routing, body limits) or webargs raise.
#
# 403 choice: a move is always the token's own seat's (no request names a seat), so a valid
# token is refused a move only for its timing: "not-your-turn" (or "resigned"). A token of no
# seat of this game, including a token of another game, is 401 "unauthorized" (telling them
# apart would confirm that the token opens some other game). "forbidden" is a valid
# credential that may not do the thing at all: resigning or claiming a seat that is not a
# human seat's, a spectator's read of a tournament game whose deal is in play, the metrics
# from another machine.
_BY_STATUS: dict[int, tuple[str, str]] = {
    400: ("bad-request", "Bad request"),
    401: ("unauthorized", "Unauthorized"),
    403: ("forbidden", "Forbidden"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    408: ("request-timeout", "Request timeout"),
    409: ("conflict", "Conflict"),
    413: ("payload-too-large", "Payload too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("validation-error", "Validation error"),
    429: ("rate-limited", "Too many requests"),
    500: ("internal-error", "Internal error"),
    503: ("service-unavailable", "Service unavailable"),
}


@dataclass(frozen=True)
class ProblemType:
    """One problem `type`: its status, what it means and what a client should do about it."""

    title: str
    status: int
    meaning: str
    action: str


# Every problem `type` the API answers with, by slug: the pages at PROBLEM_BASE + slug
# (served by `install`) and the document's problem schemas (api/openapi.py) are made from it.
PROBLEM_TYPES: dict[str, ProblemType] = {
    "bad-request": ProblemType(
        "Bad request", 400, "The request body is not valid JSON, or the request is malformed.",
        "Fix the request (send a JSON document as the body); retrying it unchanged fails "
        "again."),
    "seat-required": ProblemType(
        "Seat required", 400, "The player key owns several seats of this game (a hot-seat "
        "game) and the request does not say which one it acts for; `seats` lists them.",
        "Repeat the request with `?seat=N`, N one of `seats`."),
    "unauthorized": ProblemType(
        "Unauthorized", 401, "No credential was sent, or the one sent opens nothing here (a "
        "token of another game, a rotated seat token, an unknown player key).",
        "Send `Authorization: Bearer <token>` with the token of your seat (from the creation "
        "answer or a seat-token rotation), or your player key; the `WWW-Authenticate` header "
        "names the scheme."),
    "forbidden": ProblemType(
        "Forbidden", 403, "The credential is valid but may not do this: a seat token that is "
        "not a human seat's (resign, claim), a move reporting `bot_job` or `forfeit` without "
        "the bot seat's token (only the server's bot workers send them), or the metrics "
        "asked from another machine; or, "
        "with no credential, a spectator's read of a tournament game whose deal is still in "
        "play (a tournament with an external entrant: only the game's seats may read it).",
        "Do not retry with the same credential; use the credential the operation asks for "
        "(a seat token), or read the game once every game of its deal has ended."),
    "not-your-turn": ProblemType(
        "Not your turn", 403, "Another seat is to act; `to_act` names it (null once the game "
        "is over).", "Wait for your turn: long-poll `GET /v1/games/{id}?wait_version=N` or "
        "follow `/v1/games/{id}/events`, then read the game and move."),
    "not-your-seat": ProblemType(
        "Not your seat", 403, "The calling player does not own this seat (or no seat of this "
        "game), or the seat token is another seat's than the `seat` named.",
        "Claim the seat first (with its seat token), or act with the player owning it."),
    "resigned": ProblemType(
        "Resigned", 403, "The seat resigned: a bot plays its turns now, and its former token "
        "can no longer move.", "Nothing to do: the seat is no longer yours to play."),
    "time-out": ProblemType(
        "Time out", 409, "The seat's time ran out (the game's clock: docs/clocks.md); nothing "
        "changed. The game's `on_timeout` happens or has happened: a bot plays the seat, or "
        "it resigned.", "Read the game: the seat is no longer yours to play."),
    "not-found": ProblemType(
        "Not found", 404, "No such resource: the game, seat, player, webhook or tournament "
        "does not exist (or has expired).", "Check the id; do not retry."),
    "method-not-allowed": ProblemType(
        "Method not allowed", 405, "The path exists but not with this HTTP method.",
        "Use one of the methods in the `Allow` header."),
    "request-timeout": ProblemType(
        "Request timeout", 408, "The request's body did not arrive within the server's body "
        "timeout (10 s by default); the connection was closed.",
        "Send the whole body at once, right after the headers; retry on a new connection "
        "(with the same `Idempotency-Key` for a move)."),
    "stale-version": ProblemType(
        "Stale version", 409, "The move was chosen against an older version of the game; "
        "nothing changed. `current` is the game as it is now.",
        "Choose again from `current.legal_moves` (if it is still your turn) and post with "
        "`current.version`."),
    "game-over": ProblemType(
        "Game over", 409, "The game is over (finished, aborted or abandoned); nothing "
        "changed. `result` is its result (null if it was aborted).",
        "Stop playing this game; read its result, or ask for a rematch."),
    "game-active": ProblemType(
        "Game active", 409, "The game is not over yet, so it has no rematch, no record and "
        "no analysis yet.",
        "Ask again once the game is over."),
    "rematch-exists": ProblemType(
        "Rematch exists", 409, "The game already has a rematch; `rematch` is its id.",
        "Join that game instead of creating another: redeem your seat's token in it with "
        "your token of this game (`POST /v1/games/{id}/rematch/token`), once."),
    "takeback-refused": ProblemType(
        "Take-back refused", 409, "The move cannot be taken back now; nothing changed. Only "
        "a practice game (unranked, outside tournaments, without a clock) takes moves back, "
        "only the seat's own last move while no other seat has acted since, and only a move "
        "that drew and revealed nothing; `detail` says which of these failed.",
        "Play on: the move stands. Read the game's `takeback` to know when a take-back is "
        "offered."),
    "seat-claimed": ProblemType(
        "Seat claimed", 409, "Another player already owns this seat.",
        "Do not retry; the seat belongs to someone else."),
    "too-many-webhooks": ProblemType(
        "Too many webhooks", 409, "The player has as many webhooks as it may.",
        "Delete a webhook before adding another."),
    "tournament-over": ProblemType(
        "Tournament over", 409, "The tournament is over; it cannot be cancelled.",
        "Nothing to do: read its standings."),
    "conflict": ProblemType(
        "Conflict", 409, "The request conflicts with the resource's current state.",
        "Read the resource again and decide from its current state."),
    "payload-too-large": ProblemType(
        "Payload too large", 413, "The request body is larger than this server accepts.",
        "Send a smaller body; no valid request is this large."),
    "uri-too-long": ProblemType(
        "URI too long", 414, "The request's target (path and query) is longer than this "
        "server accepts; no operation of the API needs one this long.",
        "Fix the request; retrying it unchanged fails again."),
    "request-header-fields-too-large": ProblemType(
        "Request header fields too large", 431, "The request has more header fields, or a "
        "longer one, than this server accepts.",
        "Send fewer or shorter headers (a cookie jar may have grown); retrying unchanged "
        "fails again."),
    "unsupported-media-type": ProblemType(
        "Unsupported media type", 415, "The body is not sent as JSON.",
        "Send the body with `Content-Type: application/json`."),
    "validation-error": ProblemType(
        "Validation error", 422, "The request does not match the operation's schema or the "
        "game (unknown option, bot or parameter, missing version...); `errors` names each bad "
        "field by location (json, query, headers).",
        "Fix the fields named in `errors`; retrying unchanged fails again."),
    "illegal-move": ProblemType(
        "Illegal move", 422, "The move is not one of the seat's legal moves; nothing changed. "
        "`legal_moves` lists the moves the seat may play now.",
        "Post one of `legal_moves` exactly as given (its `label` may be left out)."),
    "idempotency-key-reused": ProblemType(
        "Idempotency key reused", 422, "The `Idempotency-Key` was already used for another "
        "move or version of this game.", "Use a new key for each new move; reuse a key only "
        "to retry the very same request."),
    "rate-limited": ProblemType(
        "Too many requests", 429, "This client sent more requests than its rate allows.",
        "Wait for the `Retry-After` seconds (also in `retry_after`), then retry."),
    "too-many-bot-games": ProblemType(
        "Too many bot games", 429, "This client's games with search bots are at the "
        "server's ceiling.", "Finish or abort one of them, or retry after `Retry-After` "
        "seconds."),
    "too-many-streams": ProblemType(
        "Too many streams", 429, "This client holds as many long polls and event streams as "
        "it may.", "Close a stream or long poll you no longer need, then retry after "
        "`Retry-After` seconds."),
    "too-many-connections": ProblemType(
        "Too many connections", 429, "This client (an address; for IPv6, its /64) keeps as "
        "many connections waiting on their requests' bodies as it may; this request was "
        "answered without its body.", "Send each request's body with its headers, or close "
        "the connections you no longer need, then retry after `Retry-After` seconds."),
    "too-many-tournaments": ProblemType(
        "Too many tournaments", 429, "The server plays as many tournaments as it may.",
        "Retry once a tournament has ended."),
    "internal-error": ProblemType(
        "Internal error", 500, "The server failed to answer (a bug).", "Retry: every write "
        "is atomic, and a move retried with the same `Idempotency-Key` is never played "
        "twice. Report it if it persists."),
    "service-unavailable": ProblemType(
        "Service unavailable", 503, "The game store (Redis) does not answer.",
        "Retry after the `Retry-After` seconds (with the same `Idempotency-Key` for a "
        "move)."),
    "client-closed-request": ProblemType(
        "Client closed request", 499, "The client closed its connection while a long poll or "
        "stream waited: nobody reads this answer, it appears only in logs and metrics.",
        "Nothing to do."),
}


def text_key(slug: str, field: str) -> str:
    """The catalog key of a problem type's `meaning` or `action` ("problem.<slug>.<field>"):
    a key, not the English text, so that editing the English keeps its translation's entry."""
    return f"problem.{slug}.{field}"


def localized(slug: str, locale: str) -> ProblemType:
    """Problem type `slug` with its title, meaning and action in `locale`."""
    kind = PROBLEM_TYPES[slug]
    return replace(kind, title=i18n.gettext(kind.title, locale),
                   meaning=i18n.keyed(text_key(slug, "meaning"), kind.meaning, locale),
                   action=i18n.keyed(text_key(slug, "action"), kind.action, locale))


def _code(text: str) -> Markup:
    """`text` as inline code, escaped."""
    return Markup("<code>{}</code>").format(text)


def _lang_query(locale: str) -> str:
    """What the pages' links to one another add so that a reader who chose the language by
    `?lang=` keeps it (nothing in English, so the English pages' links stay as they were)."""
    return "" if locale == "en" else f"?lang={i18n.content_language(locale)}"


def problem_page(slug: str, locale: str = "en") -> str:
    """The HTML page a problem type's URI names, in `locale`: what it means and what to do."""
    kind = localized(slug, locale)
    _ = i18n.translations(locale).gettext  # the chrome: plain messages, no placeholder matching
    # The translated sentences are escaped first, their values then (code, not translated).
    about = escape(_("Problem type {type}, HTTP status {status}, sent as {mimetype} "
                     "(RFC 9457).")).format(type=_code(PROBLEM_BASE + slug), status=kind.status,
                                            mimetype=_code(PROBLEM_MIMETYPE))
    return (f'<!doctype html>\n<html lang="{i18n.content_language(locale)}"><head>'
            f'<meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(kind.title)} ({kind.status})</title></head><body>"
            f"<h1>{escape(kind.title)}</h1><p>{about}</p>"
            f"<h2>{escape(_('What it means'))}</h2><p>{escape(kind.meaning)}</p>"
            f"<h2>{escape(_('What to do'))}</h2><p>{escape(kind.action)}</p>"
            f'<p><a href="{escape(_PAGES_PATH + _lang_query(locale))}">'
            f"{escape(_('Every problem type'))}</a> · "
            f'<a href="/docs">{escape(_("API documentation"))}</a></p></body></html>\n')


def problem_index(locale: str = "en") -> str:
    """The HTML list of every problem type, in `locale`."""
    _ = i18n.translations(locale).gettext
    rows = "".join(f'<li><a href="{escape(slug + _lang_query(locale))}">{escape(slug)}</a> '
                   f"({kind.status}): {escape(localized(slug, locale).meaning)}</li>"
                   for slug, kind in PROBLEM_TYPES.items())
    title = escape(_("Problem types"))
    sentence = escape(_("Every error of the API is {mimetype} with one of these {type}s.")
                      ).format(mimetype=_code(PROBLEM_MIMETYPE), type=_code("type"))
    return (f'<!doctype html>\n<html lang="{i18n.content_language(locale)}"><head>'
            f'<meta charset="utf-8"><title>{title}</title></head><body><h1>{title}</h1>'
            f"<p>{sentence}</p><ul>{rows}</ul></body></html>\n")


_PAGES_PATH = urlsplit(PROBLEM_BASE).path  # "/problems/": the pages are served here too


class Problem(Exception):
    """An error answer: status, a stable slug, a title, a human detail and extra members."""

    def __init__(self, status: int, slug: str, title: str, detail: str,
                 headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.title = title
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The problem+json document, its title and detail in the request's language."""
        return {"type": PROBLEM_BASE + self.slug, "title": i18n.gettext(self.title),
                "status": self.status, "detail": i18n.gettext(self.detail), **self.extra}


def problem_response(problem: Problem) -> Response:
    """The HTTP response carrying `problem`."""
    response = Response(json.dumps(problem.body(), separators=(",", ":")),
                        status=problem.status, mimetype=PROBLEM_MIMETYPE)
    _say_language(response, i18n.request_locale())
    for name, value in problem.headers.items():
        response.headers[name] = value
    return response


def _say_language(response: Response, locale: str) -> None:
    """Mark an answer whose texts are in `locale`, chosen by the request's language, for the
    reader and for caches (which must keep each language's answer apart)."""
    response.headers["Content-Language"] = i18n.content_language(locale)
    response.vary.add("Accept-Language")


def validation_error(errors: dict[str, Any], detail: str = "the request is not valid") -> Problem:
    """A 422 validation-error naming each bad field."""
    return Problem(422, "validation-error", "Validation error", detail, errors=errors)


def service_unavailable(detail: str) -> Problem:
    """A 503 asking the client to retry a little later (Redis does not answer)."""
    return Problem(503, "service-unavailable", "Service unavailable", detail,
                   headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def from_http_exception(error: HTTPException) -> Problem:
    """The problem equivalent of a werkzeug or webargs HTTP error."""
    status = error.code or 500
    slug, title = _BY_STATUS.get(status, ("bad-request" if status < 500 else "internal-error",
                                          error.name))
    data = getattr(error, "data", None) or {}
    headers = dict(data.get("headers") or {})
    extra: dict[str, Any] = {}
    detail = error.description or title
    messages = data.get("messages") or data.get("errors")
    if status == 400 and messages:
        detail = "the request body is not valid JSON"
    elif status == 422 and messages:
        detail = "the request does not match the schema; see errors"
        extra["errors"] = messages
    if status == 405 and isinstance(getattr(error, "valid_methods", None), list | tuple):
        allowed = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
        headers["Allow"] = allowed
        detail = f"allowed methods: {allowed}"
    if status == 404:
        detail = "no such resource"
    if status == 413:
        detail = "the request body is larger than this server accepts"
    if status >= 500:
        detail = "the server failed to answer; the request may be retried"
    return Problem(status, slug, title, detail, headers=headers, **extra)


def install(app: Flask) -> None:
    """Route every error the app can raise to a problem+json answer, and serve the page of
    each problem type at the path of its `type` URI."""

    def html(text: str, locale: str) -> Response:
        response = Response(text, mimetype="text/html")
        # Static text and links only: nothing to load, nothing to run.
        response.headers["Content-Security-Policy"] = "default-src 'none'"
        response.headers["X-Content-Type-Options"] = "nosniff"
        _say_language(response, locale)
        return response

    def index() -> Response:
        locale = i18n.request_locale()
        return html(problem_index(locale), locale)

    def page(slug: str) -> Response:
        if slug not in PROBLEM_TYPES:
            raise Problem(404, "not-found", "Not found", "no such problem type")
        locale = i18n.request_locale()
        return html(problem_page(slug, locale), locale)

    app.add_url_rule(_PAGES_PATH, "problem_index", index, methods=["GET"])
    app.add_url_rule(_PAGES_PATH + "<slug>", "problem_page", page, methods=["GET"])

    @app.errorhandler(Problem)
    def _problem(problem: Problem) -> Response:
        return problem_response(problem)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return problem_response(from_http_exception(error))
        if isinstance(error, _REDIS_UNAVAILABLE):
            # A move is one atomic script: it was stored entirely or not at all, so a retry is
            # safe (with the same Idempotency-Key it replays the answer if it was stored).
            log.warning("Redis unavailable: %r", error)
            # A write stored but not confirmed by BGB_MIN_REPLICAS replicas says so
            # (api.redis_conn.ReplicasBehind).
            return problem_response(service_unavailable(getattr(
                error, "problem_detail", "the game store does not answer; retry after a moment")))
        log.exception("unhandled error", exc_info=error)
        return problem_response(Problem(500, "internal-error", "Internal error",
                                        "the server failed to answer; the request may be retried"))
