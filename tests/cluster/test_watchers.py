"""Version announcements on the cluster's sharded pub/sub: a waiter of a game is woken by
its move (the SPUBLISH heard through SSUBSCRIBE on the game's master), not by the safety
sweep."""

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
                                                  cluster_client: redis.RedisCluster,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    client = cluster_app.test_client()
    watcher = cluster_app.extensions["bgb"].watcher
    assert watcher.sharded
    monkeypatch.setattr(watcher, "sweep", lambda: None)  # only an announcement can wake
    games = [create(client) for _ in range(6)]
    masters = {cluster_client.get_node_from_key(keys.game_state(g.id)).name for g in games}
    assert len(masters) > 1  # games on several shards
    found: dict[str, Any] = {}
    waiters = [threading.Thread(target=lambda g=g: found.update({g.id: watcher.wait(g.id, 0, 15)}))
               for g in games]
    for waiter in waiters:
        waiter.start()

    def subscribed(game_id: str) -> bool:
        """Whether the game's master counts a subscriber of its channel (SSUBSCRIBE done)."""
        channel = keys.version_channel(game_id)
        node = cluster_client.get_node_from_key(channel)
        counts = dict(cluster_client.pubsub_shardnumsub(channel, target_nodes=node))
        return int(counts.get(channel.encode(), 0)) > 0

    # Subscriptions in effect before the moves (not a pause: a loaded machine may take longer).
    deadline = time.monotonic() + 30
    while not (watcher.waiting() == len(games) and all(subscribed(g.id) for g in games)):
        assert time.monotonic() < deadline, "the waiters never subscribed"
        time.sleep(0.05)
    for game in games:
        assert move(client, game, 0, 0).status_code == 200
    for waiter in waiters:
        waiter.join(timeout=15)
    # Heard, not swept: the sweep is off, and a waiter not woken returns version 0.
    assert all(found[g.id] is not None and found[g.id].version == 1 for g in games), found
