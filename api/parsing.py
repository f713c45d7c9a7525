"""Request parsing at the boundary: JSON bodies read strictly, errors as problems."""

from __future__ import annotations

import json
from typing import Any

import flask
import flask_smorest
from webargs import core
from webargs.flaskparser import FlaskParser

from api.problems import PROBLEM_MIMETYPE, Problem


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


MAX_DEPTH = 32


def _too_deep(document: Any, limit: int) -> bool:
    """Whether arrays/objects nest deeper than `limit` (iterative: no recursion to exhaust)."""
    pending = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def parse_json_body(raw: bytes) -> Any:
    """The JSON document in `raw`; 400 bad-request for anything that is not strict JSON or
    nests deeper than MAX_DEPTH."""
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        # RecursionError: absurdly nested arrays must be a 400, not a crash.
        raise Problem(400, "bad-request", "Bad request",
                      f"the request body is not valid JSON ({type(exc).__name__})") from None
    # Deep documents would reach recursive code later (json.dumps of stored options, a game's
    # move matching) near Python's recursion limit; no request of this API needs them.
    if _too_deep(document, MAX_DEPTH):
        raise Problem(400, "bad-request", "Bad request",
                      f"the request body nests deeper than {MAX_DEPTH} levels")
    return document


def require_json_body() -> None:
    """415 unless a request carrying a body declares it as JSON."""
    request = flask.request
    has_body = bool(request.content_length) or request.headers.get("Transfer-Encoding")
    if has_body and not core.is_json(request.mimetype):
        raise Problem(415, "unsupported-media-type", "Unsupported media type",
                      "send the body as application/json")


class StrictJSONParser(FlaskParser):
    """webargs' Flask parser with strict JSON and problem answers for non-JSON bodies."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        data = req.get_data(cache=True)
        limit = req.max_content_length
        if req.content_length is None and limit is not None and len(data) >= limit:
            # A chunked body is cut at the limit without an error (werkzeug stops reading
            # there), so a reaching-the-limit body without Content-Length is too large.
            raise Problem(413, "payload-too-large", "Payload too large",
                          "the request body is larger than this server accepts")
        if not data:
            return core.missing
        if not core.is_json(req.mimetype):
            raise Problem(415, "unsupported-media-type", "Unsupported media type",
                          "send the body as application/json")
        return parse_json_body(data)


class Blueprint(flask_smorest.Blueprint):
    """A flask-smorest blueprint parsing with `StrictJSONParser`."""

    ARGUMENTS_PARSER = StrictJSONParser()

    def problem(self, status: int, description: str,
                headers: dict[str, Any] | None = None) -> Any:
        """Document an error answer of a view as problem+json."""
        from api.schemas import ProblemSchema

        return self.alt_response(status, schema=ProblemSchema, description=description,
                                 content_type=PROBLEM_MIMETYPE, headers=headers)

    def unavailable(self) -> Any:
        """Document the 503 of a view that needs Redis."""
        return self.problem(503, "service-unavailable: the game store does not answer; "
                                 "retry after Retry-After seconds",
                            headers={"Retry-After": {"description": "seconds to wait",
                                                     "schema": {"type": "integer"}}})

    def body_problems(self) -> Any:
        """Document the answers of a view to a JSON body it cannot read: 400, 413, 415."""
        decorators = [self.problem(400, "the body is not valid JSON"),
                      self.problem(413, "the body is larger than 64 KiB"),
                      self.problem(415, "not JSON")]

        def apply(function: Any) -> Any:
            for decorator in decorators:
                function = decorator(function)
            return function

        return apply
