"""The sizes of a request's target and headers the API accepts, refused as problem+json.

gunicorn refuses what exceeds its own limits before any app sees the request, with an
HTML page, and has no documented way to answer otherwise (benoitc/gunicorn#993). So its
limits are set above these (`api.gunicorn_conf`: request line 8,190 bytes, its maximum;
200 header fields of up to 16,380 bytes), and this middleware, outermost, refuses what
is over these with the API's problems: a target over `MAX_TARGET` characters 414
`uri-too-long`, over `MAX_HEADER_FIELDS` header fields or a field over `MAX_FIELD_BYTES`
431 `request-header-fields-too-large`. Only a request gunicorn cannot parse at all (a
request line or header that is not HTTP, or over gunicorn's own limits) gets its HTML
400 (behind HAProxy, HAProxy's own).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

# gunicorn's own defaults (limit_request_line 4094, limit_request_fields 100,
# limit_request_field_size 8190): what the API promised before it answered them itself.
MAX_TARGET = 4094
MAX_HEADER_FIELDS = 100
MAX_FIELD_BYTES = 8190

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def _problem(slug: str, detail: str) -> tuple[str, list[tuple[str, str]], bytes]:
    """The problem answer of type `slug` (api.problems) with `detail`."""
    from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE, PROBLEM_TYPES

    kind = PROBLEM_TYPES[slug]
    body = json.dumps({"type": PROBLEM_BASE + slug, "title": kind.title,
                       "status": kind.status, "detail": detail}).encode()
    reason = {414: "URI Too Long", 431: "Request Header Fields Too Large"}[kind.status]
    return f"{kind.status} {reason}", [("Content-Type", PROBLEM_MIMETYPE),
                                       ("Content-Length", str(len(body)))], body


def refusal(environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes] | None:
    """The problem answer to a request over the limits, or None for one within them."""
    target = len(environ.get("SCRIPT_NAME", "")) + len(environ.get("PATH_INFO", "")) \
        + len(environ.get("QUERY_STRING", ""))
    if target > MAX_TARGET:
        return _problem("uri-too-long",
                        f"the request's target is longer than {MAX_TARGET} characters")
    fields = 0
    for name, value in environ.items():
        if name.startswith("HTTP_") or name in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            fields += 1
            if isinstance(value, str) and len(value) > MAX_FIELD_BYTES:
                return _problem("request-header-fields-too-large",
                                f"a header field is longer than {MAX_FIELD_BYTES} bytes")
    if fields > MAX_HEADER_FIELDS:
        return _problem("request-header-fields-too-large",
                        f"the request has more than {MAX_HEADER_FIELDS} header fields")
    return None


class RequestLimits:
    """WSGI middleware: requests over the limits are answered here, problem+json."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse,
                 ) -> Iterable[bytes]:
        refused = refusal(environ)
        if refused is None:
            return self.app(environ, start_response)
        status, headers, body = refused
        start_response(status, headers)
        return [body]
