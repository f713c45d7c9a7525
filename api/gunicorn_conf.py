"""gunicorn settings of the API: `gunicorn -c python:api.gunicorn_conf 'api:create_app()'`.

- gunicorn answers the requests it cannot parse itself, before the app sees them (a request
  line over 4 KiB: 414; headers too large: 431; a malformed request line or header: 400),
  and by default with an HTML page. Loading this module makes those answers
  application/problem+json like every other error of the API.
- Watchers (long polls, event streams) hold a connection each: `worker_connections` (gevent
  workers) is BGB_MAX_WATCHERS plus room for every other request (`api.watchers`), and the
  open-file limit is raised to its hard limit so that each connection can have its socket.
- /metrics adds up live processes only: a dead worker's gauges are dropped.
- A worker freezes what it loaded out of the garbage collector's sight (`post_worker_init`).

The command line keeps the other settings (`bgb serve`, compose.yaml and the Dockerfile pass
it). This module imports nothing of the app: gevent workers patch the standard library before
they load the app, and the master must not have loaded it unpatched.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import socket
from typing import Any

from gunicorn import util

# The same figures as api.watchers (imported there with the app, never here).
DEFAULT_MAX_WATCHERS = 5000
RESERVED_CONNECTIONS = 1000

worker_connections = (int(os.environ.get("BGB_MAX_WATCHERS", DEFAULT_MAX_WATCHERS))
                      + RESERVED_CONNECTIONS)


def raise_open_files_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (inherited by the
    workers); the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass  # the limit stays; api.watchers admits fewer watchers to fit it
    return soft


raise_open_files_limit()


def post_worker_init(worker: Any) -> None:
    """gunicorn hook, once a worker has loaded the app: move every object made so far (the
    modules, the app, the game data: ~150,000) out of the garbage collector's sight
    (`gc.freeze`). They live as long as the process; the full collections a server runs now
    and then no longer scan them (in `bench/api_inprocess.py`'s mix, ~30 us less CPU a move:
    a full collection took ~110 ms before, ~25 after). Garbage is collected first: what is
    frozen is never freed."""
    gc.collect()
    gc.freeze()


def child_exit(server: Any, worker: Any) -> None:
    """gunicorn hook: forget a dead worker's live gauges (open watchers) in /metrics."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


# Slugs of the statuses gunicorn answers on its own (others fall back to a generic one).
_SLUGS = {
    400: "bad-request", 403: "forbidden", 414: "uri-too-long",
    417: "expectation-failed", 431: "request-header-fields-too-large",
    500: "internal-error", 501: "not-implemented",
}


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's `util.write_error`, answering problem+json instead of an HTML page."""
    from api.problems import PROBLEM_BASE, PROBLEM_MIMETYPE

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
