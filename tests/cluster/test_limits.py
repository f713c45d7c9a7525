"""The rate limits count on the cluster (Flask-Limiter's cluster storage)."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from api import create_app
from tests.api.conftest import NO_RATE_LIMITS, create, problem

pytestmark = pytest.mark.cluster


def test_reads_are_counted_on_the_cluster(cluster_client: redis.RedisCluster,
                                          local_cluster: Any) -> None:
    app = create_app({"REDIS_URL": local_cluster.url, "QUEUE_URL": local_cluster.queue_url,
                      "TESTING": True, **NO_RATE_LIMITS, "RATE_LIMIT_READS": "2/minute"})
    client = app.test_client()
    created = create(client)
    for _ in range(2):
        assert client.get(f"/v1/games/{created.id}").status_code == 200
    problem(client.get(f"/v1/games/{created.id}"), 429, "rate-limited")
    counted = list(cluster_client.scan_iter(match="bgb:limits*", count=1000))
    assert counted  # on the cluster, not in this process
