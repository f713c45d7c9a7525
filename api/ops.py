"""The operations area: health and Prometheus metrics."""

from __future__ import annotations

import redis
from flask import Response
from flask.views import MethodView

from api import metrics
from api.parsing import Blueprint
from api.problems import problem_response, service_unavailable
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
                                "content": {"text/plain": {"schema": {"type": "string"}}}}})
    def get(self) -> Response:
        """Request counts and latencies by endpoint, moves applied, bot jobs enqueued."""
        return metrics.exposition()
