"""Request parsing at the boundary: JSON bodies read strictly, errors as problems."""

from __future__ import annotations

import json
from typing import Any

import flask
import flask_smorest
import orjson
from webargs import core
from webargs.flaskparser import FlaskParser

from api.problems import PROBLEM_MIMETYPE, Problem


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


MAX_DEPTH = 32


def _shape(document: Any, limit: int) -> tuple[bool, bool]:
    """Whether arrays/objects nest deeper than `limit`, and whether a float is found before
    that is known (iterative: no recursion to exhaust)."""
    pending = [(document, 1)]
    has_float = False
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            has_float = has_float or isinstance(value, float)
            continue
        if depth > limit:
            return True, has_float
        pending.extend((child, depth + 1) for child in children)
    return False, has_float


def _loaded(raw: bytes) -> tuple[Any, bool]:
    """The JSON document in `raw` and whether it nests deeper than MAX_DEPTH.

    orjson reads it when it can (a move's body in a few microseconds, against ~10 for the
    standard library), but the standard library's reading stays the rule: orjson refuses
    what it accepts (a lone surrogate escape, an integer literal that overflows to infinity)
    and reads an integer literal beyond 64 bits as a float, and it reads documents nested
    deeper than the standard library can (which refuses them with another detail). So a
    document orjson refuses, or with a float, or too deep, is read again by the standard
    library; any other is the same document both ways (strings, integers in range, true,
    false, null).
    """
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    else:
        if _shape(document, MAX_DEPTH) == (False, False):
            return document, False
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        # RecursionError: absurdly nested arrays must be a 400, not a crash.
        raise Problem(400, "bad-request", "Bad request",
                      f"the request body is not valid JSON ({type(exc).__name__})") from None
    return document, _shape(document, MAX_DEPTH)[0]


def parse_json_body(raw: bytes) -> Any:
    """The JSON document in `raw`; 400 bad-request for anything that is not strict JSON or
    nests deeper than MAX_DEPTH."""
    document, too_deep = _loaded(raw)
    # Deep documents would reach recursive code later (json.dumps of stored options, a game's
    # move matching) near Python's recursion limit; no request of this API needs them.
    if too_deep:
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
