"""Where the games and the queues are, from the settings (api.redis_conn)."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

from api.redis_conn import (
    QueueUrlMissing,
    Topology,
    cluster_nodes,
    game_client,
    is_sentinel,
    queue_client,
)


def test_a_cluster_url_lists_its_startup_nodes() -> None:
    nodes = cluster_nodes("redis+cluster://10.0.0.1:7000,10.0.0.2:7001")
    assert [(n.host, n.port) for n in nodes] == [("10.0.0.1", 7000), ("10.0.0.2", 7001)]
    assert [(n.host, n.port) for n in cluster_nodes("redis://:pw@h:7002/0")] == [("h", 7002)]


def test_one_node_shares_its_redis_with_the_queues_unless_told() -> None:
    alone = Topology.of("redis://127.0.0.1:6379/0")
    assert (alone.cluster, alone.queue_url, alone.shared) == (
        False, "redis://127.0.0.1:6379/0", True)
    apart = Topology.of("redis://127.0.0.1:6379/0", queue="redis://q:6379/0")
    assert (apart.queue_url, apart.shared) == ("redis://q:6379/0", False)
    assert isinstance(alone.games(), redis.Redis)


def test_a_cluster_needs_a_queue_redis() -> None:
    with pytest.raises(QueueUrlMissing):
        Topology.of("redis+cluster://127.0.0.1:7000")
    with pytest.raises(QueueUrlMissing):
        Topology.of("redis://127.0.0.1:7000", cluster_flag="1")
    found = Topology.of("redis://127.0.0.1:7000", cluster_flag="1", queue="redis://q/0")
    assert found.cluster and not found.shared


def test_the_environment_names_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis+cluster://127.0.0.1:7000")
    monkeypatch.setenv("BGB_QUEUE_URL", "redis://127.0.0.1:6390/0")
    found = Topology.from_env()
    assert (found.cluster, found.queue_url) == (True, "redis://127.0.0.1:6390/0")


def test_a_cluster_url_makes_redis_pys_cluster_client() -> None:
    # No node answers on port 1: RedisCluster connects at construction and says so.
    with pytest.raises((redis.RedisError, redis.exceptions.RedisClusterException)):
        game_client("redis+cluster://127.0.0.1:1", timeout=0.2)
    assert not isinstance(game_client("redis://127.0.0.1:1"), RedisCluster)


def test_a_sentinel_queue_url_names_its_master() -> None:
    url = "redis+sentinel://10.0.0.1:26379,10.0.0.2:26379/bgb-queue/0"
    assert is_sentinel(url) and not is_sentinel("redis://q:6379/0")
    apart = Topology.of("redis+cluster://10.0.0.1:7000", queue=url)
    assert (apart.queue_url, apart.shared) == (url, False)
    assert isinstance(queue_client(url), redis.Redis)  # nothing sent until first used
    with pytest.raises(ValueError, match="names its master"):
        queue_client("redis+sentinel://10.0.0.1:26379")
