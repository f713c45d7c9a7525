"""The queue Redis killed (-9) under a running worker, games created meanwhile (their first
turns could not be queued), then an empty queue Redis started on its port: every game still
ends (the sweeper finds each bot turn due in the cluster's index and queues it again) and
the worker, listening when the queue Redis was lost, waited for it and carries on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis
import requests
from rq import Worker

from tests.cluster.conftest import redis_cluster
from tests.e2e.conftest import Stack

pytestmark = [pytest.mark.cluster, pytest.mark.e2e]

GAMES = 8
OUTAGE_SECONDS = 5.0


def test_every_game_ends_after_the_queue_redis_is_lost(tmp_path: Path) -> None:
    with redis_cluster.LocalCluster() as cluster:
        stack = Stack(cluster.url, tmp_path)
        stack.env.update({"BGB_QUEUE_URL": cluster.queue_url, "BGB_RATE_LIMIT_CREATE": "off",
                          "BGB_MAX_BOT_GAMES_PER_CREATOR": "0"})
        try:
            stack.start_api()
            stack.start_worker()
            queues = redis.Redis.from_url(cluster.queue_url)
            started = time.monotonic() + 60
            # The worker listening on its queues (RQ's documented worker information): a queue
            # Redis lost while RQ's worker starts or between two jobs ends the worker (RQ's loop
            # quits on the error; `bgb serve` and compose restart it), one lost while it
            # listens it waits for.
            while not any(w.get_state() == "idle" for w in Worker.all(connection=queues)):
                assert time.monotonic() < started, stack.log("worker-0")
                time.sleep(0.2)
            cluster.kill(cluster.queue_port)
            bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
            ids = []
            for _ in range(GAMES):
                created = requests.post(stack.api_url + "/v1/games", timeout=10, json={
                    "game": "toy-pontoon", "options": {"players": 2}, "seats": bots})
                assert created.status_code == 201, created.text
                ids.append(created.json()["id"])
            # Down a while: the listening worker waits (RQ's dequeue retries with a back-off).
            time.sleep(OUTAGE_SECONDS)
            for game_id in ids:  # nothing could be played
                assert requests.get(f"{stack.api_url}/v1/games/{game_id}",
                                    timeout=10).json()["version"] == 0
            cluster.restart_queue()
            deadline = time.monotonic() + 90
            pending = set(ids)
            while pending and time.monotonic() < deadline:
                for game_id in list(pending):
                    read = requests.get(f"{stack.api_url}/v1/games/{game_id}", timeout=10)
                    if read.status_code == 200 and read.json()["status"] != "active":
                        pending.discard(game_id)
                time.sleep(0.5)
            assert not pending, (pending, stack.log("worker-0"))
            assert stack.workers[0].poll() is None, stack.log("worker-0")
        finally:
            stack.stop()
