"""gunicorn worker classes of the API: gunicorn's gevent and gthread workers whose answers to
the requests gunicorn refuses itself are application/problem+json, like every other error of
the API.

gunicorn answers a request it cannot parse (a request line over 4 KiB: 414; headers too
large: 431; a malformed request line or header: 400) before the app sees it, with an HTML
page. A worker class is gunicorn's documented extension point (its `worker_class` setting
takes a subclass of `gunicorn.workers.base.Worker`); these classes override the worker's
`handle_error`: gunicorn still decides the status and logs the request as usual, writing
its answer to a stand-in for the client's socket, and the worker sends the client the same
status as a problem. Should gunicorn's page ever change shape, the status stays right and
the detail falls back to the status's reason.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from gunicorn.workers.ggevent import GeventWorker
from gunicorn.workers.gthread import ThreadWorker

from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE

# Slugs of the statuses gunicorn answers on its own (others fall back to a generic one).
SLUGS = {
    400: "bad-request", 403: "forbidden", 414: "uri-too-long",
    417: "expectation-failed", 431: "request-header-fields-too-large",
    500: "internal-error", 501: "not-implemented",
}

_STATUS_LINE = re.compile(rb"HTTP/1\.[01] (\d{3}) ([^\r\n]*)")
_DETAIL = re.compile(rb"</h1>(.*)</body>", re.DOTALL)


class _Written:
    """A stand-in for a client's socket that keeps what is written to it (everything else
    is the real socket's)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.data = bytearray()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def gettimeout(self) -> float:
        return 0.0

    def setblocking(self, flag: bool) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.data += data

    def send(self, data: bytes) -> int:
        self.data += data
        return len(data)


def problem_answer(written: bytes) -> bytes:
    """The problem+json answer with the status (and detail) of gunicorn's HTML `written`."""
    found = _STATUS_LINE.match(written)
    status, reason = (int(found[1]), found[2].decode("latin1")) if found else \
        (400, "Bad Request")
    detail_found = _DETAIL.search(written)
    detail = html.unescape(detail_found[1].decode("latin1")).strip() if detail_found else ""
    slug = SLUGS.get(status, "bad-request" if status < 500 else "internal-error")
    problem = {"type": PROBLEM_BASE + slug, "title": reason, "status": status,
               "detail": detail or reason}
    body = json.dumps(problem).encode("ascii")  # json.dumps escapes every non-ASCII char
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_MIMETYPE}\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin1", errors="replace") + body


class ProblemAnswers:
    """Mixin of a gunicorn worker class: its own error answers as problem+json."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        written = _Written(client)
        super().handle_error(req, written, addr, exc)  # type: ignore[misc]
        if written.data:
            try:
                client.sendall(problem_answer(bytes(written.data)))
            except OSError:
                pass  # the client went away: as gunicorn, nothing more to do


class ProblemGeventWorker(ProblemAnswers, GeventWorker):
    """gunicorn's gevent worker (`--worker-class gevent`), answering problem+json."""


class ProblemThreadWorker(ProblemAnswers, ThreadWorker):
    """gunicorn's gthread worker (`--worker-class gthread`), answering problem+json."""
