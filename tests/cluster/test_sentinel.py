"""The queues' Redis behind Redis Sentinel (BGB_QUEUE_URL=redis+sentinel://...): its master
killed (-9) under a running API and worker, a sentinel promotes the replica, the clients ask
the sentinels for the new master, and every bot game ends (a job the old master took with
it is queued again by the sweeper)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis
import requests

from api.redis_conn import queue_client
from tests.cluster.conftest import redis_cluster
from tests.e2e.conftest import Stack

pytestmark = [pytest.mark.cluster, pytest.mark.e2e]

GAMES = 4


def _bot_games(stack: Stack) -> list[str]:
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    ids = []
    for _ in range(GAMES):
        created = requests.post(stack.api_url + "/v1/games", timeout=10, json={
            "game": "toy-pontoon", "options": {"players": 2}, "seats": bots})
        assert created.status_code == 201, created.text
        ids.append(created.json()["id"])
    return ids


def _all_end(stack: Stack, ids: list[str], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    pending = set(ids)
    while pending and time.monotonic() < deadline:
        for game_id in list(pending):
            read = requests.get(f"{stack.api_url}/v1/games/{game_id}", timeout=10)
            if read.status_code == 200 and read.json()["status"] != "active":
                pending.discard(game_id)
        time.sleep(0.3)
    assert not pending, (pending, stack.log("worker-0"), stack.log("api"))


def test_every_game_ends_across_a_failover_of_the_queue_redis(redis_url: str,
                                                              tmp_path: Path) -> None:
    redis.Redis.from_url(redis_url).flushdb()
    with redis_cluster.SentinelQueue() as queue:
        stack = Stack(redis_url, tmp_path)
        stack.env.update({"BGB_QUEUE_URL": queue.url, "BGB_RATE_LIMIT_CREATE": "off",
                          "BGB_MAX_BOT_GAMES_PER_CREATOR": "0"})
        try:
            stack.start_api()
            stack.start_worker()
            _all_end(stack, _bot_games(stack))  # through the first master
            jobs = queue_client(queue.url).dbsize()
            assert jobs > 0  # the queues are on the sentinels' master, not the games' Redis
            old = queue.kill_master()
            new = queue.wait_failover(old)
            assert new == queue.replica
            _all_end(stack, _bot_games(stack))  # through the promoted replica
        finally:
            stack.stop()
