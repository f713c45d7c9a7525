"""gunicorn settings of the API: `gunicorn -c python:api.gunicorn_conf 'api:create_app()'`.

- gunicorn's own limits on a request's line and headers are set above the API's, which
  the app answers problem+json (`api.request_limits`); gunicorn's HTML answers only what
  it cannot parse at all.
- Watchers (long polls, event streams) hold a connection each: `worker_connections` (gevent
  workers) is BGB_MAX_WATCHERS plus room for every other request (`api.watchers`), and the
  open-file limit is raised to its hard limit so that each connection can have its socket.
- /metrics adds up live processes only: a dead worker's gauges are dropped.
- A worker freezes what it loaded out of the garbage collector's sight (`post_worker_init`).

Only documented settings and server hooks, with gunicorn's own worker classes (`gevent`,
`gthread`): everything the API adds in front of requests is WSGI middleware in the app.

The command line keeps the other settings (`bgb serve`, compose.yaml and the Dockerfile pass
it). With gevent workers the master is started by `clients.gunicorn_gevent`, which patches
the standard library before anything (this module, the app's package) imports it.
"""

from __future__ import annotations

import gc
import os
import resource
from typing import Any

# The same figures as api.watchers (imported there with the app, never here).
DEFAULT_MAX_WATCHERS = 5000
RESERVED_CONNECTIONS = 1000

worker_connections = (int(os.environ.get("BGB_MAX_WATCHERS", DEFAULT_MAX_WATCHERS))
                      + RESERVED_CONNECTIONS)

# Above the API's own limits (api.request_limits: a 4,094-character target, 100 fields of
# 8,190 bytes), which it answers problem+json; gunicorn's maximum request line is 8,190.
limit_request_line = 8190
limit_request_fields = 200
limit_request_field_size = 16380


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
