"""gunicorn settings of the API: `gunicorn -c python:api.gunicorn_conf 'api:create_app()'`.

gunicorn answers the requests it cannot parse itself, before the app sees them (a request
line over 4 KiB: 414; headers too large: 431; a malformed request line or header: 400),
and by default with an HTML page. Loading this module makes those answers
application/problem+json like every other error of the API. It holds no other setting:
the command line keeps those (`bgb serve`, compose.yaml and the Dockerfile pass it).
"""

from __future__ import annotations

import json
import socket
from typing import Any

from gunicorn import util

from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE

# Slugs of the statuses gunicorn answers on its own (others fall back to a generic one).
_SLUGS = {
    400: "bad-request", 403: "forbidden", 414: "uri-too-long",
    417: "expectation-failed", 431: "request-header-fields-too-large",
    500: "internal-error", 501: "not-implemented",
}


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's `util.write_error`, answering problem+json instead of an HTML page."""
    slug = _SLUGS.get(status_int, "bad-request" if status_int < 500 else "internal-error")
    problem: dict[str, Any] = {"type": PROBLEM_BASE + slug, "title": reason,
                               "status": status_int, "detail": mesg or reason}
    body = json.dumps(problem).encode("ascii")  # json.dumps escapes every non-ASCII char
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_MIMETYPE}\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin1", errors="replace") + body)


# gunicorn's workers call `util.write_error` through the module: replacing it here, in the
# master before it forks, covers every worker.
util.write_error = write_problem
