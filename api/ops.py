"""The operations area: health and Prometheus metrics."""

from __future__ import annotations

import hmac
import ipaddress
import os

import redis
from flask import Response, request
from flask.views import MethodView

from api import metrics
from api.parsing import Blueprint
from api.problems import Problem, problem_response, service_unavailable
from api.schemas import HealthSchema
from api.services import services

blp = Blueprint("ops", __name__, description="Health and metrics for operators.")


@blp.route("/healthz")
class Health(MethodView):
    """Liveness."""

    @blp.response(200, HealthSchema)
    @blp.unavailable()
    def get(self) -> Response | dict[str, str]:
        """200 when the API and its Redis answer; 503 otherwise."""
        try:
            services().store.ping()
        except redis.RedisError as exc:
            return problem_response(service_unavailable(
                f"Redis does not answer: {type(exc).__name__}"))
        return {"status": "ok", "redis": "ok"}


@blp.route("/metrics")
class Metrics(MethodView):
    """Prometheus metrics."""

    @blp.doc(responses={"200": {"description": "Prometheus text exposition",
                                "content": {"text/plain": {"schema": {"type": "string"}}}},
                        "401": {"description": "BGB_METRICS_TOKEN is set and the request does "
                                               "not carry it",
                                "content": {"application/problem+json": {
                                    "schema": {"$ref": "#/components/schemas/Problem"}}}},
                        "403": {"description": "no BGB_METRICS_TOKEN is set and the caller is "
                                               "not on this machine",
                                "content": {"application/problem+json": {
                                    "schema": {"$ref": "#/components/schemas/Problem"}}}}},
             security=[{}, {"metricsToken": []}])
    def get(self) -> Response:
        """Request counts and latencies by endpoint, moves applied, bot jobs enqueued.

        For operators only: with `BGB_METRICS_TOKEN` set, the scraper sends it as a Bearer
        token; without it, only callers on this machine (loopback) are answered."""
        _check_metrics_access()
        return metrics.exposition()


def _check_metrics_access() -> None:
    """401/403 unless the caller may read the metrics."""
    expected = os.environ.get("BGB_METRICS_TOKEN", "")
    if expected:
        header = request.headers.get("Authorization", "")
        given = header[7:].strip() if header.lower().startswith("bearer ") else ""
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise Problem(401, "unauthorized", "Unauthorized",
                          "the metrics need 'Authorization: Bearer <BGB_METRICS_TOKEN>'",
                          headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
        return
    try:
        local = ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        local = False
    if not local:
        raise Problem(403, "forbidden", "Forbidden",
                      "the metrics answer only on this machine unless BGB_METRICS_TOKEN is set")
