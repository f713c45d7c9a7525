"""A local Redis Cluster on loopback ports, for tests and trials: 3 masters with a replica
each (6 redis-server processes in a temporary directory) and a plain queue Redis.

    python3 tools/redis_cluster.py          # start it, print REDIS_URL and BGB_QUEUE_URL,
                                            # stop it at Ctrl-C

Used by the tests under the `cluster` marker (tests/cluster), which skip when redis-server
cannot run cluster mode (`available()`). Failover is fast on purpose
(`cluster-node-timeout` 1000 ms): a killed master's replica takes over within seconds.
"""

from __future__ import annotations

import random
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
from clients.localredis import find_redis_server, free_port  # noqa: E402

NODE_TIMEOUT_MS = 1000


def available() -> str | None:
    """Why this machine cannot start a cluster (None: it can): redis-server 3+ with
    redis-cli 5+ (`--cluster create`)."""
    server = find_redis_server()
    cli = shutil.which("redis-cli")
    if server is None or cli is None:
        return "no redis-server or redis-cli"
    version = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout
    major = int((version.split() or ["", "0"])[-1].split(".")[0] or 0)
    if major < 5:
        return f"redis-cli {version.strip()} has no --cluster create"
    return None


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

    def __init__(self, masters: int = 3, replicas: int = 1, workdir: str | None = None) -> None:
        self.masters = masters
        self.replicas = replicas
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="bgb-cluster-"))
        self.server = find_redis_server() or "redis-server"
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
            self._spawn(port, "--cluster-enabled", "yes",
                        "--cluster-config-file", f"nodes-{port}.conf",
                        "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                        # A replica takes over however long it was cut off from its master.
                        "--cluster-replica-validity-factor", "0",
                        # A replica's first sync at once (the default waits 5 s for others).
                        "--repl-diskless-sync-delay", "0")
        self._spawn(self.queue_port)
        for port in [*self.ports, self.queue_port]:
            self._wait_ping(port, timeout)
        subprocess.run(
            ["redis-cli", "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
             "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            check=True, capture_output=True, timeout=timeout)
        self.wait_healthy(timeout)
        return self

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
