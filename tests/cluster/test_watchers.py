"""Version announcements on the cluster's sharded pub/sub: a waiter of a game is woken by
its move at once (the SPUBLISH heard through SSUBSCRIBE on the game's master), not by the
safety sweep 20 s later."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import redis
from flask import Flask

from api import keys
from tests.api.conftest import create, move

pytestmark = pytest.mark.cluster


def test_a_move_wakes_its_waiters_on_every_master(cluster_app: Flask,
                                                  cluster_client: redis.RedisCluster) -> None:
    client = cluster_app.test_client()
    watcher = cluster_app.extensions["bgb"].watcher
    assert watcher.sharded
    games = [create(client) for _ in range(6)]
    masters = {cluster_client.get_node_from_key(keys.game_state(g.id)).name for g in games}
    assert len(masters) > 1  # games on several shards
    found: dict[str, Any] = {}
    waiters = [threading.Thread(target=lambda g=g: found.update({g.id: watcher.wait(g.id, 0, 15)}))
               for g in games]
    for waiter in waiters:
        waiter.start()
    deadline = time.monotonic() + 5
    while watcher.waiting() < len(games) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # subscriptions in effect
    started = time.monotonic()
    for game in games:
        assert move(client, game, 0, 0).status_code == 200
    for waiter in waiters:
        waiter.join(timeout=15)
    assert time.monotonic() - started < 3  # heard, not swept (SAFETY_RECHECK_SECONDS: 20)
    assert all(found[g.id] is not None and found[g.id].version == 1 for g in games), found
