"""Several API nodes behind HAProxy on this machine (issue 29's topology on loopback): each
node a gunicorn of its own, the proxy run with deploy/haproxy-cluster.cfg (compose's
`cluster` profile) on local ports, the bot workers reaching the API through the proxy."""

from __future__ import annotations

import resource
import shutil
import socket
import subprocess
import time
from pathlib import Path

import requests

from clients.cli import gunicorn_command, worker_command
from clients.localredis import free_port
from tests.e2e.conftest import REPO, Stack

PROXY_CONFIG = REPO / "deploy" / "haproxy-cluster.cfg"


def haproxy() -> str | None:
    """The haproxy binary (Debian's), or None."""
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").is_file() else None)


def local_config(text: str, proxy_port: int, node_ports: list[int], stats: Path) -> str:
    """deploy/haproxy-cluster.cfg with this machine's addresses, a stats socket (to count
    what each node served), no more connections than the open-file limit lets it hold, and
    no request rate cap (the test's clients all share one address)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    fitting = 20000 if hard == resource.RLIM_INFINITY else min(20000, (hard - 100) // 2)
    text = (text.replace("bind :8000", f"bind 127.0.0.1:{proxy_port}")
            .replace("maxconn 20000", f"maxconn {fitting}")
            # Every player, watcher and worker of a test is one address, 127.0.0.1.
            .replace("sc0_http_req_rate gt 1000 }", "sc0_http_req_rate gt 1000000 }")
            .replace("global\n", f"global\n    stats socket {stats} level user\n", 1))
    for index, port in enumerate(node_ports, start=1):
        text = text.replace(f"cluster-api-{index}:8000", f"127.0.0.1:{port}")
    return text


class BalancedStack(Stack):
    """`nodes` API nodes (gunicorn, one process each) behind HAProxy, bot workers on the
    proxy's address; `api_url` is the proxy's."""

    def __init__(self, redis_url: str, log_dir: Path, nodes: int = 2) -> None:
        super().__init__(redis_url, log_dir)
        binary = haproxy()
        if binary is None:
            raise RuntimeError("no haproxy here")
        self.haproxy = binary
        self.node_ports = [free_port() for _ in range(nodes)]
        self.stats = log_dir / "haproxy.sock"
        self.env.update({"BGB_API_URL": self.api_url, "BGB_TRUSTED_PROXIES": "1"})
        self.nodes: list[subprocess.Popen[bytes]] = []

    def start_api(self) -> None:
        """Start every node and the proxy; wait until each node and the proxy answer."""
        for index, port in enumerate(self.node_ports):
            self.nodes.append(self._spawn(gunicorn_command("127.0.0.1", port, workers=1),
                                          f"api-{index}"))
        config = self.log_dir / "haproxy.cfg"
        config.write_text(local_config(PROXY_CONFIG.read_text(), self.port, self.node_ports,
                                       self.stats))
        self.api = self._spawn([self.haproxy, "-db", "-f", str(config)], "proxy")
        deadline = time.monotonic() + 60
        urls = [f"http://127.0.0.1:{port}/healthz" for port in self.node_ports]
        while not all(_healthy(url) for url in [*urls, self.api_url + "/healthz"]):
            for process in [*self.nodes, self.api]:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the API nodes or the proxy did not start:\n"
                                       + "\n".join(self.log(f"api-{i}")
                                                   for i in range(len(self.nodes)))
                                       + self.log("proxy"))
            time.sleep(0.2)

    def served(self) -> dict[str, int]:
        """Each node's answers so far, by HAProxy's count (server name -> responses)."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(str(self.stats))
            sock.sendall(b"show stat\n")
            text = b""
            while chunk := sock.recv(65536):
                text += chunk
        lines = text.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        found = {}
        for line in lines[1:]:
            row = dict(zip(header, line.split(","), strict=False))
            if row.get("pxname") == "api" and row.get("svname", "").startswith("api-"):
                found[row["svname"]] = int(row.get("stot") or 0)
        return found

    def restart_stopped_workers(self) -> int:
        """Start again each bot worker whose process ended, as `bgb serve` and compose's
        restart policy do (RQ's loop ends on a queue Redis lost while it starts or between
        two jobs); how many."""
        restarted = 0
        for index, worker in enumerate(self.workers):
            if worker.poll() is not None:
                self.workers[index] = self._spawn(worker_command(), f"worker-{index}")
                restarted += 1
        return restarted

    def stop(self) -> None:
        """Stop the workers, the proxy and every node."""
        self._stop([*self.workers, *([self.api] if self.api else []), *self.nodes])


def _healthy(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False
