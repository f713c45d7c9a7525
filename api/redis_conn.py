"""The Redis clients, made in one place from the settings: the game store (one node or a
Redis Cluster) and the queues (always one plain Redis: RQ does not run on a cluster).

`REDIS_URL` names the game store: `redis://...` a single node, `redis+cluster://host:port[,
host:port...]` (or any URL with `BGB_REDIS_CLUSTER=1`) a Redis Cluster reached through
redis-py's `RedisCluster`. `BGB_QUEUE_URL` names the Redis of the bot, analysis and webhook
queues (RQ): by default `REDIS_URL` when that is a single node; required with a cluster.
It may name the queues' master through Redis Sentinel: `redis+sentinel://host:port[,host:
port...]/<master name>[/<db>]` (the sentinels listed; the client asks them for the master,
again after a failover).

On a cluster every script and transaction stays within one hash slot (docs/scaling.md): a
game's keys carry its id as a hash tag. The commit of a write that must survive a master's
loss is followed, on the same connection, by `WAIT` (`BGB_MIN_REPLICAS`): see `Durability`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import redis
from redis.cluster import ClusterNode, ClusterPipeline, RedisCluster

from api import settings
from api.lean_script import Held, LeanScript, retry_policy

CLUSTER_SCHEME = "redis+cluster"
SENTINEL_SCHEME = "redis+sentinel"
DEFAULT_URL = "redis://127.0.0.1:6379/0"

GameClient = redis.Redis | RedisCluster


class QueueUrlMissing(ValueError):
    """A cluster holds the games but no BGB_QUEUE_URL names the queues' Redis."""


def _env(env: Mapping[str, Any] | None, name: str) -> str:
    if env is None:
        return settings.value(name) if name != "REDIS_URL" else (
            os.environ.get("REDIS_URL", "").strip() or DEFAULT_URL)
    raw = str(env.get(name) or "").strip()
    return raw or settings.by_name(name).default


def is_cluster(url: str, flag: str = "") -> bool:
    """Whether `url` (with the BGB_REDIS_CLUSTER `flag`) names a Redis Cluster."""
    return url.startswith(CLUSTER_SCHEME + "://") or flag.strip().lower() in ("1", "on", "yes",
                                                                               "true")


def cluster_nodes(url: str) -> list[ClusterNode]:
    """The startup nodes of a cluster URL: `redis+cluster://h1:p1,h2:p2` (or one redis://)."""
    netloc = urlsplit(url.replace(CLUSTER_SCHEME + "://", "redis://", 1)).netloc
    netloc = netloc.rpartition("@")[2]
    nodes = []
    for part in netloc.split(","):
        host, _, port = part.strip().rpartition(":")
        nodes.append(ClusterNode(host or "127.0.0.1", int(port or 6379)))
    return nodes


def _password(url: str) -> str | None:
    netloc = urlsplit(url.replace(CLUSTER_SCHEME + "://", "redis://", 1)).netloc
    userinfo, at, _ = netloc.rpartition("@")
    if not at:
        return None
    return userinfo.partition(":")[2] or userinfo or None


def game_client(url: str, *, cluster: bool = False, timeout: float = 0.5,
                connections: int = 256, blocking: bool = True) -> GameClient:
    """The client of the game store at `url`: bounded socket waits, the API's retry policy.

    One node: a blocking pool (under gevent thousands of requests may want Redis at once;
    they queue for one of `connections` up to `timeout` instead of failing at once). A
    cluster: redis-py's `RedisCluster`, one pool per node."""
    if cluster or url.startswith(CLUSTER_SCHEME + "://"):
        client = RedisCluster(startup_nodes=cluster_nodes(url), password=_password(url),
                              max_connections=connections, socket_timeout=timeout,
                              socket_connect_timeout=timeout, retry=retry_policy())
        require_sharded_pubsub(client)
        return client
    if not blocking:
        return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
        url, max_connections=connections, timeout=timeout, socket_timeout=timeout,
        socket_connect_timeout=timeout, health_check_interval=30, retry=retry_policy()))


class ClusterTooOld(RuntimeError):
    """A master of the cluster is older than Redis 7: it has no sharded pub/sub."""


def require_sharded_pubsub(client: RedisCluster) -> None:
    """Refuse a cluster whose masters cannot SPUBLISH (Redis < 7): every move would fail
    with "Unknown Redis command called from Lua script"; say so once, at start-up."""
    try:
        answers = client.info("server", target_nodes=RedisCluster.PRIMARIES)
    except redis.RedisError:
        return  # a master unreachable now (a failover?): the scripts will say it later
    old = sorted(f"{node} (Redis {info.get('redis_version', '?')})"
                 for node, info in answers.items()
                 if int(str(info.get("redis_version", "0")).split(".")[0]) < 7)
    if old:
        raise ClusterTooOld("a Redis Cluster of BoardGamesBot needs Redis 7+ (sharded "
                            "pub/sub); too old: " + ", ".join(old))


def listener_client(url: str, *, cluster: bool = False) -> GameClient:
    """A client for the version listener: it blocks on reads by design (no read timeout)."""
    if cluster or url.startswith(CLUSTER_SCHEME + "://"):
        return RedisCluster(startup_nodes=cluster_nodes(url), password=_password(url),
                            socket_connect_timeout=2)
    return redis.Redis.from_url(url, socket_connect_timeout=2, health_check_interval=15)


def is_sentinel(url: str) -> bool:
    """Whether `url` names a master through Redis Sentinel (`redis+sentinel://...`)."""
    return url.startswith(SENTINEL_SCHEME + "://")


def queue_client(url: str, *, timeout: float | None = None,
                 connections: int | None = None) -> redis.Redis:
    """A client of the queues' Redis at `url`: a plain URL, or `redis+sentinel://h1:p1,h2:p2
    /<master name>[/<db>]` (the master the sentinels name, asked again after a failover).
    `timeout` bounds every socket wait (None: none, as RQ's worker wants); `connections`, a
    blocking pool of that size (the API's, under gevent)."""
    if is_sentinel(url):
        from redis.sentinel import Sentinel

        parts = urlsplit(url.replace(SENTINEL_SCHEME + "://", "redis://", 1))
        path = [part for part in parts.path.split("/") if part]
        if not path:
            raise ValueError(f"{url}: a Sentinel URL names its master: "
                             "redis+sentinel://host:port[,host:port...]/<master name>[/<db>]")
        # The sentinels' addresses, as a cluster URL's nodes are written.
        nodes = [(node.host, node.port) for node in cluster_nodes(
            url.replace(SENTINEL_SCHEME, CLUSTER_SCHEME, 1))]
        sentinel = Sentinel(nodes, socket_timeout=timeout or 1.0,
                            socket_connect_timeout=timeout or 1.0)
        return sentinel.master_for(path[0], db=int(path[1]) if len(path) > 1 else 0,
                                   password=_password(url), socket_timeout=timeout,
                                   socket_connect_timeout=timeout or 2.0,
                                   retry=retry_policy())
    if connections is None:
        return redis.Redis.from_url(url, socket_timeout=timeout)
    return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
        url, max_connections=connections, timeout=timeout, socket_timeout=timeout,
        socket_connect_timeout=timeout, health_check_interval=30, retry=retry_policy()))


def queue_url(redis_url: str, queue: str = "", cluster: bool = False) -> str:
    """The URL of the queues' Redis: `queue` (BGB_QUEUE_URL) when set, else `redis_url` when
    that is a single node (QueueUrlMissing for a cluster)."""
    if queue.strip():
        return queue.strip()
    if is_cluster(redis_url) or cluster:
        raise QueueUrlMissing("REDIS_URL names a Redis Cluster: set BGB_QUEUE_URL to a plain "
                              "Redis for the queues (RQ does not run on a cluster)")
    return redis_url


@dataclass(frozen=True)
class Topology:
    """Where the game store and the queues are, from the settings."""

    games_url: str
    cluster: bool
    queue_url: str

    @classmethod
    def of(cls, url: str, cluster_flag: str = "", queue: str = "") -> Topology:
        """From REDIS_URL, BGB_REDIS_CLUSTER and BGB_QUEUE_URL's values."""
        cluster = is_cluster(url, cluster_flag)
        return cls(url, cluster, queue_url(url, queue, cluster))

    @classmethod
    def from_env(cls, env: Mapping[str, Any] | None = None) -> Topology:
        """From the environment (or the mapping `env`, e.g. the app's config with the
        settings' names)."""
        url = _env(env, "REDIS_URL")
        cluster = is_cluster(url, _env(env, "BGB_REDIS_CLUSTER"))
        return cls(url, cluster, queue_url(url, _env(env, "BGB_QUEUE_URL"), cluster))

    @property
    def shared(self) -> bool:
        """Whether games and queues are one Redis (one client serves both)."""
        return not self.cluster and self.queue_url == self.games_url

    def games(self, **options: Any) -> GameClient:
        """A client of the game store (options: see `game_client`)."""
        return game_client(self.games_url, cluster=self.cluster, **options)

    def queues(self) -> redis.Redis:
        """A plain client of the queues' Redis (as RQ wants it: no read timeout), through
        Sentinel when its URL says so."""
        return queue_client(self.queue_url)


@dataclass(frozen=True)
class Durability:
    """How many replicas must hold a commit before it is acknowledged (BGB_MIN_REPLICAS),
    waited for at most `timeout_ms` (BGB_REPLICA_TIMEOUT_MS)."""

    replicas: int = 0
    timeout_ms: int = 1000

    @classmethod
    def from_env(cls, env: Mapping[str, Any] | None = None) -> Durability:
        """From the environment (or the mapping `env`)."""
        return cls(int(_env(env, "BGB_MIN_REPLICAS")), int(_env(env, "BGB_REPLICA_TIMEOUT_MS")))


class ReplicasBehind(redis.ConnectionError):
    """A commit is stored on its master but fewer replicas than BGB_MIN_REPLICAS confirmed it
    within BGB_REPLICA_TIMEOUT_MS: not acknowledged (503; a retry with the same
    Idempotency-Key finds it stored)."""

    problem_detail = ("stored, but not yet confirmed by enough replicas; retry after a moment "
                      "(with the same Idempotency-Key: the retry finds it stored)")


# Replies of a cluster node meaning "the slot is not served here now" (a failover, a
# resharding, a cluster that lost a master): to a request, an unreachable store (503).
SLOT_NOT_HERE = (redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError,
                 redis.exceptions.MovedError, redis.exceptions.AskError,
                 redis.exceptions.MasterDownError)


def _node_unreachable(error: redis.RedisError) -> redis.RedisError:
    """A slot that moved (failover, resharding) is, for the request, an unreachable store."""
    if isinstance(error, SLOT_NOT_HERE):
        return redis.ConnectionError(f"the game's slot is not served here now: {error}")
    return error


class GameScript:
    """A Lua script on one game's keys (all in one hash slot), run on a held connection of
    the node that holds the slot, followed there by `WAIT` when `durable` and replicas are
    required (WAIT counts the replicas that have the connection's own writes)."""

    def __init__(self, client: GameClient, text: str, durability: Durability | None = None,
                 held: Held | None = None) -> None:
        self.client = client
        self.text = text
        self.durability = durability or Durability()
        self.cluster = isinstance(client, RedisCluster)
        self._single = None if self.cluster else LeanScript(client, text, held)
        self._nodes: dict[str, LeanScript] = {}

    def _on(self, key: Any) -> LeanScript:
        if self._single is not None:
            return self._single
        node = self.client.get_node_from_key(key)
        found = self._nodes.get(node.name)
        if found is None:
            found = LeanScript(self.client.get_redis_connection(node), self.text)
            self._nodes[node.name] = found
        return found

    def __call__(self, keys: Sequence[Any], args: Sequence[Any], durable: bool = False) -> Any:
        """The script's reply; with `durable`, only once enough replicas have the write
        (else ReplicasBehind, after the write)."""
        replicas = self.durability.replicas if durable else 0
        script = self._on(keys[0])
        try:
            reply, acked = script.call_then_wait(
                keys, args, (replicas, self.durability.timeout_ms) if replicas else None)
        except redis.RedisError as error:
            if self.cluster:
                self._refresh(keys[0])
                raise _node_unreachable(error) from error
            raise
        if replicas and acked < replicas:
            raise ReplicasBehind(f"{acked} of {replicas} replicas confirmed the write within "
                                 f"{self.durability.timeout_ms} ms")
        return reply

    def _refresh(self, key: Any) -> None:
        """After a node's failure, let the cluster client find the slot's master again (it
        refreshes its map of the slots when a keyed command meets a dead or moved node)."""
        self._nodes.clear()
        try:
            self.client.exists(key)
        except redis.RedisError:
            pass


_worker_games: dict[int, GameClient] = {}


def worker_games(queue_connection: redis.Redis | None) -> GameClient:
    """The game store as a bot worker's job reads it: the job's own connection when games and
    queues share one Redis (as before), else a client of the game store (one a process)."""
    topology = Topology.from_env()
    if topology.shared:
        return queue_connection or redis.Redis.from_url(topology.games_url)
    found = _worker_games.get(os.getpid())
    if found is None:
        found = _worker_games[os.getpid()] = topology.games(timeout=5.0, connections=64)
    return found


def announce(client: Any, channel: str, message: str) -> None:
    """Publish `message` on `channel` (a version channel): on a cluster's sharded pub/sub
    (SPUBLISH, heard on the channel's shard only), else plain (`client` may be a pipeline)."""
    if isinstance(client, (RedisCluster, ClusterPipeline)):
        client.spublish(channel, message)
    else:
        client.publish(channel, message)
