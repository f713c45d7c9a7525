"""The per-app objects the views use (Redis store, state cache, bot queue, waiters)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis
from flask import current_app

from api.botauth import BotTokenVerifier
from api.botqueue import BotQueue
from api.events import VersionWatcher
from api.lean_script import retry_policy
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

    @classmethod
    def build(cls, config: dict[str, Any]) -> Services:
        """Connect to the configured Redis (lazily: nothing is sent until first use)."""
        # Bounded socket waits: a stuck Redis fails a request (503) in under a second
        # instead of holding it. Commands here are single keys or short scripts: a healthy
        # Redis answers them in microseconds, so the bound only ever cuts off a hung one.
        timeout = float(config.get("REDIS_TIMEOUT", 0.5))
        # A blocking pool: under gevent thousands of requests may want Redis at once (the
        # watchers of a game all woken by its move); they queue for one of REDIS_CONNECTIONS
        # (up to `timeout`) instead of failing at once (redis-py's default pool refuses a
        # 101st concurrent command).
        client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            config["REDIS_URL"], max_connections=int(config.get("REDIS_CONNECTIONS", 256)),
            timeout=timeout, socket_timeout=timeout, socket_connect_timeout=timeout,
            health_check_interval=30, retry=retry_policy()))
        # The pub/sub listener blocks on reads by design: its own client, no read timeout.
        listener = redis.Redis.from_url(config["REDIS_URL"], socket_connect_timeout=2,
                                        health_check_interval=15)
        store = Store(client, retention=Retention(
            abandon_after_ms=int(float(config.get("ABANDON_AFTER", 30 * 86400)) * 1000),
            retain_finished_ms=int(float(config.get("RETAIN_FINISHED", 90 * 86400)) * 1000)))
        return cls(redis=client, store=store, cache=StateCache(config["STATE_CACHE_SIZE"]),
                   bot_queue=BotQueue(client), bot_tokens=BotTokenVerifier(client),
                   watcher=VersionWatcher(listener, store), config=config)


def services() -> Services:
    """The current app's services."""
    return current_app.extensions["bgb"]
