"""Fixtures of the cluster tests: a local Redis Cluster (3 masters, 3 replicas) and a queue
Redis, started once for the run by tools/redis_cluster.py; skipped where redis-server cannot
run cluster mode."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import redis
from flask import Flask

from api import create_app
from tests.api.conftest import NO_RATE_LIMITS


def _tool(name: str) -> ModuleType:
    """A script of tools/ as a module (tools/ is no package)."""
    path = Path(__file__).resolve().parents[2] / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


redis_cluster = _tool("redis_cluster")

pytestmark = pytest.mark.cluster


@pytest.fixture(autouse=True)
def _cluster_capable() -> None:
    """Skip every test here (those that start a cluster of their own too) where no Redis 7+
    can run one: the API's sharded pub/sub needs Redis 7."""
    reason = redis_cluster.available()
    if reason:
        pytest.skip(f"no Redis Cluster here: {reason}")


@pytest.fixture(scope="session")
def local_cluster() -> Iterator[Any]:
    """A running local cluster and queue Redis (the test is skipped when none can run)."""
    reason = redis_cluster.available()
    if reason:
        pytest.skip(f"no Redis Cluster here: {reason}")
    with redis_cluster.LocalCluster() as cluster:
        yield cluster


@pytest.fixture
def cluster_client(local_cluster: Any) -> Iterator[redis.RedisCluster]:
    """A client of the cluster, every master and the queue Redis flushed before the test."""
    client = redis.RedisCluster(host="127.0.0.1", port=local_cluster.alive()[0])
    client.flushall(target_nodes=redis.RedisCluster.PRIMARIES)
    redis.Redis.from_url(local_cluster.queue_url).flushdb()
    yield client
    client.close()


@pytest.fixture
def cluster_app(cluster_client: redis.RedisCluster,
                local_cluster: Any) -> Flask:
    """The API app on the cluster, its queues on the queue Redis."""
    return create_app({"REDIS_URL": local_cluster.url, "QUEUE_URL": local_cluster.queue_url,
                       "TESTING": True, **NO_RATE_LIMITS})
