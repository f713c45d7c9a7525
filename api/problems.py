"""Errors as application/problem+json (RFC 9457): one exception type, one set of handlers."""

from __future__ import annotations

import json
import logging
from typing import Any

import redis
from flask import Flask, Response
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
                      redis.ReadOnlyError)

# Slug and title of the HTTP statuses werkzeug (routing, body limits) or webargs raise.
#
# 403 choice: the seat is always the token's own (no request names a seat), so a valid token
# can only ever be refused for its timing: "not-your-turn" (a human posting while a bot seat
# is to act, a bot token of a seat not to act, any seat not to act). A token of no seat of
# this game, including a token of another game, is 401 "unauthorized" (telling them apart
# would confirm that the token opens some other game). So the API never sends "forbidden";
# it stays here only as the slug of a bare 403, should a framework ever raise one.
_BY_STATUS: dict[int, tuple[str, str]] = {
    400: ("bad-request", "Bad request"),
    401: ("unauthorized", "Unauthorized"),
    403: ("forbidden", "Forbidden"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    409: ("conflict", "Conflict"),
    413: ("payload-too-large", "Payload too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("validation-error", "Validation error"),
    429: ("rate-limited", "Too many requests"),
    500: ("internal-error", "Internal error"),
    503: ("service-unavailable", "Service unavailable"),
}


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
    response.headers["Content-Language"] = i18n.request_locale().replace("_", "-")
    response.vary.add("Accept-Language")
    for name, value in problem.headers.items():
        response.headers[name] = value
    return response


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
    """Route every error the app can raise to a problem+json answer."""

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
            return problem_response(service_unavailable(
                "the game store does not answer; retry after a moment"))
        log.exception("unhandled error", exc_info=error)
        return problem_response(Problem(500, "internal-error", "Internal error",
                                        "the server failed to answer; the request may be retried"))
