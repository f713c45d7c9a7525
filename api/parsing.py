"""Request parsing at the boundary: JSON bodies read strictly, errors as problems."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

import flask
import flask_smorest
import orjson
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException

from api.problems import PROBLEM_MIMETYPE, Problem, validation_error


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


MAX_DEPTH = 32
# The end of a member's name: its closing quote, blanks, the colon.
_NAME_END = re.compile(rb'"[ \t\n\r]*:')


def _shape(document: Any, limit: int) -> tuple[bool, bool, int]:
    """Whether arrays/objects nest deeper than `limit`, whether a float is found before that
    is known, and how many object members were seen (iterative: no recursion to exhaust)."""
    pending = [(document, 1)]
    has_float = False
    members = 0
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children = list(value.values())
            members += len(children)
        elif isinstance(value, list):
            children = value
        else:
            has_float = has_float or isinstance(value, float)
            continue
        if depth > limit:
            return True, has_float, members
        pending.extend((child, depth + 1) for child in children)
    return False, has_float, members


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object from its members, refusing a name given twice (RFC 8259 leaves the meaning
    to the reader; "last wins" would let two readers of one body disagree)."""
    document = dict(pairs)
    if len(document) != len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise ValueError(f"the member {name!r} is given twice")
            seen.add(name)
    return document


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
        too_deep, has_float, members = _shape(document, MAX_DEPTH)
        # orjson keeps the last of a member named twice, silently. Every member name of the
        # text ends with a quote and a colon (blanks between), so a text with no more colons
        # (0.3 us a move), or else no more of those ends (1.8 us: a move's label may hold a
        # colon), than the document has members names none twice; one with more (a name
        # given twice, or an escaped quote before a colon inside a string) is read again by
        # json (13 us), checking the names.
        if not too_deep and not has_float and (
                raw.count(b":") <= members or len(_NAME_END.findall(raw)) <= members):
            return document, False
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant,
                              object_pairs_hook=_unique_members)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        # RecursionError: absurdly nested arrays must be a 400, not a crash.
        reason = str(exc) if "given twice" in str(exc) else type(exc).__name__
        raise Problem(400, "bad-request", "Bad request",
                      f"the request body is not valid JSON ({reason})") from None
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


# Content-Encoding values that leave a body as it is (RFC 9110 8.4.1).
_PLAIN_ENCODINGS = ("", "identity")


def require_plain_encoding(encoding: str | None) -> None:
    """415 for a body with a Content-Encoding this server does not decode (any but
    identity): read as it is, a gzip body would be taken for bytes it is not."""
    if encoding is not None and encoding.strip().lower() not in _PLAIN_ENCODINGS:
        raise Problem(415, "unsupported-media-type", "Unsupported media type",
                      "send the body without a Content-Encoding (this server does not "
                      "decode compressed bodies)", headers={"Accept-Encoding": "identity"})


_FLAGS = {"1": True, "true": True, "0": False, "false": False}


def query_flag(name: str) -> bool:
    """A boolean query parameter (1/0, true/false; absent: false); 422 for anything else."""
    value = _FLAGS.get(flask.request.args.get(name, "0").lower())
    if value is None:
        raise validation_error({"query": {name: ["Not a valid boolean."]}},
                               f"`{name}` is 1 or 0 (true or false)")
    return value


def require_json_body() -> None:
    """415 unless a request carrying a body declares it as JSON, without a coding."""
    request = flask.request
    has_body = bool(request.content_length) or request.headers.get("Transfer-Encoding")
    if has_body:
        require_plain_encoding(request.headers.get("Content-Encoding"))
    if has_body and not core.is_json(request.mimetype):
        raise Problem(415, "unsupported-media-type", "Unsupported media type",
                      "send the body as application/json")


def body_bytes(req: flask.Request) -> bytes:
    """The request's body (read once, then cached); 400 when it cannot be read as its
    framing says, 413 when it is larger than the app accepts.

    A malformed chunked body (a chunk size that is not hex, a chunk without its CRLF) is
    the client's fault, but the WSGI server reports it by raising from the body stream's
    read with its own exception types (gunicorn's `InvalidChunkSize`, another server's
    another): any error but the app's own HTTP errors is taken for one, answered 400
    without a traceback; the server then closes the connection (it finds the body
    unreadable again when it drains it for the next request).
    """
    try:
        data = req.get_data(cache=True)
    except HTTPException:
        raise  # 413 from werkzeug's limit: answered by the app's handler
    except Exception as exc:  # the server's own framing errors: see above
        raise Problem(400, "bad-request", "Bad request",
                      f"the request body cannot be read as its framing says "
                      f"({type(exc).__name__})") from None
    limit = req.max_content_length
    if req.content_length is None and limit is not None and len(data) >= limit:
        # A chunked body is cut at the limit without an error (werkzeug stops reading
        # there), so a reaching-the-limit body without Content-Length is too large.
        raise Problem(413, "payload-too-large", "Payload too large",
                      "the request body is larger than this server accepts")
    return data


# flask.g's flag: the body of the request being parsed is documented optional.
OPTIONAL_BODY = "bgb_optional_body"


class StrictJSONParser(FlaskParser):
    """webargs' Flask parser with strict JSON and problem answers for non-JSON bodies.

    An operation documents its JSON body as required (flask-smorest's default), and then an
    empty body is refused (422, as a missing required field) rather than read as `{}`: `{}`
    says "no field" explicitly. A body documented optional (`Blueprint.arguments(...,
    required=False)`) may be left out, and is then read as `{}`, as the document says.

    It overrides `load_json`, the documented loader of the "json" location
    (webargs.readthedocs.io/en/latest/api.html#webargs.core.Parser.load_json), whole: the
    hooks webargs' own version calls are internal to webargs."""

    def load_json(self, req: flask.Request, schema: Any) -> Any:
        """The request's JSON body, strictly parsed; a problem answer for anything else."""
        require_plain_encoding(req.headers.get("Content-Encoding"))
        data = body_bytes(req)
        if not data and flask.g.get(OPTIONAL_BODY, False):
            return {}
        if not data:
            raise validation_error({"json": ["a JSON body is required (`{}` when no field "
                                             "is set)"]}, "this operation needs a JSON body")
        if not core.is_json(req.mimetype):
            raise Problem(415, "unsupported-media-type", "Unsupported media type",
                          "send the body as application/json")
        return parse_json_body(data)


class Blueprint(flask_smorest.Blueprint):
    """A flask-smorest blueprint parsing with `StrictJSONParser`."""

    ARGUMENTS_PARSER = StrictJSONParser()

    def arguments(self, schema: Any, *, location: str = "json", required: bool = True,
                  **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """flask-smorest's `arguments`; a JSON body it documents as optional
        (`required=False`) the view also takes when it is left out (as `{}`)."""
        decorate = super().arguments(schema, location=location, required=required, **kwargs)
        if required or location != "json":
            return decorate

        def optional_body(view: Callable[..., Any]) -> Callable[..., Any]:
            parsed = decorate(view)

            @functools.wraps(parsed)
            def taking_no_body(*args: Any, **view_kwargs: Any) -> Any:
                setattr(flask.g, OPTIONAL_BODY, True)  # read by StrictJSONParser
                return parsed(*args, **view_kwargs)

            return taking_no_body

        return optional_body

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
