"""Prometheus metrics of the API (one set per process; gunicorn workers aggregate through
PROMETHEUS_MULTIPROC_DIR when it is set)."""

from __future__ import annotations

import os
import time
from typing import Any

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

REQUESTS = Counter("bgb_http_requests_total", "HTTP requests answered",
                   ["method", "endpoint", "status"])
LATENCY = Histogram("bgb_http_request_duration_seconds", "Time to answer an HTTP request",
                    ["method", "endpoint"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                             2.5, 5.0, 10.0, 30.0))
MOVES = Counter("bgb_moves_applied_total", "Moves applied and stored", ["game"])
GAMES = Counter("bgb_games_created_total", "Games created", ["game"])
BOT_JOBS = Counter("bgb_bot_jobs_enqueued_total", "Bot turns enqueued on the RQ queue", ["bot"])
BOT_JOB_FAILURES = Counter("bgb_bot_jobs_enqueue_failures_total",
                           "Bot turns that could not be enqueued (the sweeper catches them)")

# Streaming answers (SSE, long polls) would swamp the latency histogram's meaning.
_UNTIMED = {"games.GameEvents"}


def install(app: Flask) -> None:
    """Count and time every request by its route endpoint."""

    app.before_request(start)

    @app.after_request
    def _record(response: Response) -> Response:
        endpoint = request.endpoint or "unmatched"
        if "wait_version" in request.args:
            endpoint += ":long-poll"  # waits by design; kept apart from plain reads
        record(request.method, endpoint, response.status_code, g.get("metrics_started"))
        return response


def start(started: float | None = None) -> None:
    """Note when the current request started (a perf_counter reading; now by default): its
    answer's latency is observed from then."""
    g.metrics_started = time.perf_counter() if started is None else started


# The labelled children of the metrics by their labels: `labels()` builds its key and takes
# a lock on every call (~3 us, several times a request); a child, once made, stays the same
# object (nothing here removes one).
_CHILDREN: dict[tuple[Any, ...], Any] = {}


def _child(metric: Any, *labels: str) -> Any:
    """`metric.labels(*labels)`, made once."""
    key = (metric, *labels)
    child = _CHILDREN.get(key)
    if child is None:
        child = _CHILDREN[key] = metric.labels(*labels)
    return child


def count_move(game: str) -> None:
    """Count a move of `game` applied and stored."""
    _child(MOVES, game).inc()


def record(method: str, endpoint: str, status: int, started: float | None) -> None:
    """Count an answered request and time it (since `started`, a perf_counter reading, when
    known)."""
    _child(REQUESTS, method, endpoint, str(status)).inc()
    if started is not None and endpoint not in _UNTIMED:
        _child(LATENCY, method, endpoint).observe(time.perf_counter() - started)


def exposition() -> Response:
    """The text exposition of every metric (all workers' when in multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return Response(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
    return Response(generate_latest(), content_type=CONTENT_TYPE_LATEST)
