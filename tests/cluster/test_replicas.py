"""BGB_MIN_REPLICAS on the cluster: WAIT runs on the connection of the master that holds the
game's slot, so it counts that master's replicas (one each here)."""

from __future__ import annotations

import pytest
import redis
from flask import Flask

from api import create_app
from tests.api.conftest import NO_RATE_LIMITS, create, move, problem

pytestmark = pytest.mark.cluster


def _app(cluster: object, replicas: int) -> Flask:
    return create_app({"REDIS_URL": cluster.url, "QUEUE_URL": cluster.queue_url,  # type: ignore[attr-defined]
                       "TESTING": True, "MIN_REPLICAS": replicas, "REPLICA_TIMEOUT_MS": 200,
                       **NO_RATE_LIMITS})


def test_one_replica_confirms_every_write(cluster_client: redis.RedisCluster,
                                          local_cluster: object) -> None:
    client = _app(local_cluster, 1).test_client()
    for _ in range(6):  # games on several masters
        created = create(client)
        assert move(client, created, 0, 0).status_code == 200
        resigned = client.post(f"/v1/games/{created.id}/resign", headers=created.auth(1),
                               json={})
        assert resigned.status_code == 200, resigned.get_json()


def test_more_replicas_than_a_master_has_is_503(cluster_client: redis.RedisCluster,
                                               local_cluster: object) -> None:
    created = create(_app(local_cluster, 1).test_client())
    refused = move(_app(local_cluster, 2).test_client(), created, 0, 0)
    problem(refused, 503, "service-unavailable")
    assert refused.headers["Retry-After"]
