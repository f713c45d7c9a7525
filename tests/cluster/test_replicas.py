"""BGB_MIN_REPLICAS on the cluster: WAIT runs on the connection of the master that holds the
game's slot, so it counts that master's replicas (one each here)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask import Flask

from api import create_app, keys
from api.redis_conn import ReplicasBehind
from api.store import Store
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


def test_a_retry_is_acknowledged_only_once_a_replica_has_the_move(
        cluster_client: redis.RedisCluster, local_cluster: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A move stored on its master but not confirmed (503), retried with its Idempotency-Key
    while the replica still lags, on the same API node and on another: the retry finds the
    move stored and waits for the replica as the first attempt did (503 again), instead of
    answering 200 for a move only the master holds (lost if the master dies then: the
    failover test caught one); once the replica has it, the first answer is replayed.
    (Store.commit_move is wrapped to record its arguments: a retry whose commit finds the
    record, having raced its first attempt, is called again the same way.)"""
    commits: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    real = Store.commit_move

    def recorded(self: Store, *args: Any, **kwargs: Any) -> Any:
        commits.append((args, kwargs))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "commit_move", recorded)
    first_node = _app(local_cluster, 1).test_client()
    other_node = _app(local_cluster, 1).test_client()
    created = create(first_node)
    master = local_cluster.master_of(keys.game_state(created.id))
    replica = local_cluster.replica_of(master)
    key = {"Idempotency-Key": "lagging"}
    # Frozen, the replica stays connected (its master counts it) but confirms nothing new.
    local_cluster.pause(replica)
    try:
        problem(move(first_node, created, 0, 0, **key), 503, "service-unavailable")
        for node in (first_node, other_node):
            retried = move(node, created, 0, 0, **key)
            body = problem(retried, 503, "service-unavailable")
            assert "replicas" in body["detail"], body
            assert retried.headers["Retry-After"]
        args, kwargs = commits[-1]
        with pytest.raises(ReplicasBehind):
            _app(local_cluster, 1).extensions["bgb"].store.commit_move(*args, **kwargs)
    finally:
        local_cluster.resume(replica)
    local_cluster.wait_healthy(timeout=60)
    for node in (first_node, other_node):
        replayed = move(node, created, 0, 0, **key)
        assert replayed.status_code == 200, replayed.get_json()
        assert replayed.headers["Idempotent-Replayed"] == "true"
    assert cluster_client.llen(keys.move_log(created.id)) == 1
