"""The per-app objects the views use (Redis store, state cache, bot queue, waiters)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis
from flask import current_app

from api.botauth import BotTokenVerifier
from api.botqueue import BotQueue
from api.events import VersionWatcher
from api.redis_conn import Durability, Topology, listener_client, queue_client
from api.store import Retention, StateCache, Store


@dataclass
class Services:
    """Everything a request needs besides the request itself."""

    redis: redis.Redis
    store: Store
    cache: StateCache
    bot_queue: BotQueue
    bot_tokens: BotTokenVerifier
    watcher: VersionWatcher
    config: dict[str, Any]

    queues: redis.Redis | None = None  # the queues' Redis (RQ); None: `redis`

    @classmethod
    def build(cls, config: dict[str, Any]) -> Services:
        """Connect to the configured Redis (lazily: nothing is sent until first use)."""
        # Bounded socket waits: a stuck Redis fails a request (503) in under a second
        # instead of holding it. Commands here are single keys or short scripts: a healthy
        # Redis answers them in microseconds, so the bound only ever cuts off a hung one.
        timeout = float(config.get("REDIS_TIMEOUT", 0.5))
        topology = Topology.of(config["REDIS_URL"], str(config.get("REDIS_CLUSTER") or ""),
                               str(config.get("QUEUE_URL") or ""))
        connections = int(config.get("REDIS_CONNECTIONS", 256))
        client = topology.games(timeout=timeout, connections=connections)
        # The pub/sub listener blocks on reads by design: its own client, no read timeout.
        listener = listener_client(topology.games_url, cluster=topology.cluster)
        queues = client if topology.shared else queue_client(
            topology.queue_url, timeout=timeout, connections=connections)
        store = Store(client, retention=Retention(
            abandon_after_ms=int(float(config.get("ABANDON_AFTER", 30 * 86400)) * 1000),
            retain_finished_ms=int(float(config.get("RETAIN_FINISHED", 90 * 86400)) * 1000)),
            durability=Durability(int(config.get("MIN_REPLICAS") or 0),
                                  int(config.get("REPLICA_TIMEOUT_MS") or 250)))
        return cls(redis=client, store=store, cache=StateCache(config["STATE_CACHE_SIZE"]),
                   bot_queue=BotQueue(queues), bot_tokens=BotTokenVerifier(client),
                   watcher=VersionWatcher(listener, store), config=config, queues=queues)

    @property
    def queue_redis(self) -> redis.Redis:
        """The Redis of the RQ queues (the game store's own on a single node)."""
        return self.queues if self.queues is not None else self.redis


def services() -> Services:
    """The current app's services."""
    return current_app.extensions["bgb"]
