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


def parse_json_body(raw: bytes) -> Any:
    """The JSON document in `raw`; 400 bad-request for anything that is not strict JSON."""
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        # RecursionError: absurdly nested arrays must be a 400, not a crash.
        raise Problem(400, "bad-request", "Bad request",
                      f"the request body is not valid JSON ({type(exc).__name__})") from None


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
        if not data:
            return core.missing
        if not core.is_json(req.mimetype):
            raise Problem(415, "unsupported-media-type", "Unsupported media type",
                          "send the body as application/json")
        return parse_json_body(data)


class Blueprint(flask_smorest.Blueprint):
    """A flask-smorest blueprint parsing with `StrictJSONParser`."""

    ARGUMENTS_PARSER = StrictJSONParser()

    def problem(self, status: int, description: str) -> Any:
        """Document an error answer of a view as problem+json."""
        from api.schemas import ProblemSchema

        return self.alt_response(status, schema=ProblemSchema, description=description,
                                 content_type=PROBLEM_MIMETYPE)
