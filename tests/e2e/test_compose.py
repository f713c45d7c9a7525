"""compose.yaml is checked without containers (images cannot be pulled here, issue 18): it
parses, publishes nothing unauthenticated beyond the proxy in front of the API, and each
service's own command line — Redis, the API under gunicorn with the compose settings,
`bgb worker`, and HAProxy with deploy/haproxy.cfg when the machine has it — runs on this
machine and together they play a bot game (through the proxy)."""

from __future__ import annotations

import os
import re
import resource
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from clients.localredis import find_redis_server, free_port
from clients.sdk import Client
from tests.e2e.conftest import REPO
from tests.e2e.helpers import wait_finished

pytestmark = pytest.mark.e2e

COMPOSE = REPO / "compose.yaml"


def _compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def _interpolate(value: str) -> str:
    """Compose's ${VAR:-default} with nothing set: the default."""
    return re.sub(r"\$\{[A-Za-z_]+:-([^}]*)\}", r"\1", value)


def _environment(service: dict[str, Any]) -> dict[str, str]:
    return {k: _interpolate(str(v)) for k, v in (service.get("environment") or {}).items()}


def test_compose_parses_and_publishes_only_the_proxy_widely() -> None:
    services = _compose()["services"]
    assert set(services) >= {"redis", "proxy", "api", "worker", "rq-dashboard"}
    assert services["proxy"]["ports"] == ["8000:8000"]
    # The API is reached through the proxy only, and trusts it for the client's address.
    assert "ports" not in services["api"]
    assert services["api"]["environment"]["BGB_TRUSTED_PROXIES"] == "1"
    # rq-dashboard has no authentication: loopback of the host only.
    assert all(str(p).startswith("127.0.0.1:") for p in services["rq-dashboard"]["ports"])
    assert "ports" not in services["redis"] and "ports" not in services["worker"]
    assert services["api"]["environment"]["REDIS_URL"] == "redis://redis:6379/0"


def _proxy_config(service: str = "proxy") -> tuple[str, str]:
    """(the configuration file in the repository of the proxy `service`, its text)."""
    volumes = _compose()["services"][service]["volumes"]
    mounted = [v.split(":")[0] for v in volumes if v.split(":")[1].endswith("haproxy.cfg")]
    assert len(mounted) == 1, volumes
    path = (REPO / mounted[0]).resolve()
    assert path.is_file() and REPO in path.parents, path
    return str(path), path.read_text()


def test_the_proxy_bounds_slow_and_greedy_clients() -> None:
    _, config = _proxy_config()
    lines = {" ".join(line.split()) for line in config.splitlines()
             if line.strip() and not line.strip().startswith("#")}
    # Client timeouts: headers and body within 10 s, buffered before they are forwarded.
    assert "timeout http-request 10s" in lines and "option http-buffer-request" in lines
    assert "timeout http-keep-alive 5s" in lines
    # Idle timeouts above the long polls' 30 s and the streams' heartbeats.
    assert {"timeout client 60s", "timeout server 60s"} <= lines
    # Clients counted by IPv4 address and IPv6 /64, capped in connections and requests.
    assert "tcp-request connection track-sc0 src,ipmask(32,64)" in lines
    assert any("too-many-connections" in line and "sc0_conn_cur gt 200" in line
               for line in lines)
    assert any("rate-limited" in line and "sc0_http_req_rate" in line for line in lines)
    # The client's address is set by the proxy, never taken from the client.
    assert "http-request set-header X-Forwarded-For %[src]" in lines


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="no haproxy binary here")
def test_the_proxy_configuration_passes_haproxys_check() -> None:
    path, _ = _proxy_config()
    checked = subprocess.run(["haproxy", "-c", "-f", path], capture_output=True, text=True,
                             timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _slow_body_answer(port: int) -> bytes:
    """What the server at `port` answers a move's headers and 1 byte of its 100-byte body,
    until it closes the connection (generous bounds: timings are not what is checked)."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(b"POST /v1/games/abcdefgh12/moves HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def test_each_services_command_line_runs_and_plays_a_bot_game(tmp_path: Path) -> None:
    services = _compose()["services"]
    redis_binary = find_redis_server()
    assert redis_binary is not None
    redis_port, api_port, proxy_port = free_port(), free_port(), free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    api_url = f"http://127.0.0.1:{api_port}"
    haproxy = shutil.which("haproxy")

    def localise(text: str) -> str:
        return (text.replace("redis://redis:6379/0", redis_url)
                .replace("http://api:8000", api_url)
                .replace("0.0.0.0:8000", f"127.0.0.1:{api_port}")
                .replace("/tmp/bgb-metrics", str(tmp_path / "metrics")))

    redis_command = [redis_binary, *services["redis"]["command"][1:],
                     "--port", str(redis_port), "--bind", "127.0.0.1", "--dir", str(tmp_path)]
    api_command = [localise(part) for part in services["api"]["command"]]
    worker_command = [localise(part) for part in services["worker"]["command"]]
    assert worker_command[0] == "bgb"
    worker_command[0] = shutil.which("bgb") or worker_command[0]
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "BGB_API_URL")}
    env.update({k: localise(v) for k, v in _environment(services["api"]).items()})
    env.update({"BGB_GAME_MODULES": "tests.toygame", "PYTHONPATH": str(REPO)})
    worker_env = dict(env, **{k: localise(v)
                              for k, v in _environment(services["worker"]).items()})
    processes: list[subprocess.Popen[bytes]] = []
    commands = [("redis", redis_command, env), ("api", api_command, env),
                ("worker", worker_command, worker_env)]
    if haproxy is not None:
        # The proxy in front: its configuration with this machine's addresses.
        _, config = _proxy_config()
        local_config = tmp_path / "haproxy.cfg"
        # (and as many connections as this machine's open-file limit lets it hold: two
        # descriptors each)
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        fitting = 20000 if hard == resource.RLIM_INFINITY else min(20000, (hard - 100) // 2)
        local_config.write_text(config.replace("bind :8000", f"bind 127.0.0.1:{proxy_port}")
                                .replace("api:8000", f"127.0.0.1:{api_port}")
                                .replace("maxconn 20000", f"maxconn {fitting}"))
        commands.append(("proxy", [haproxy, "-db", "-f", str(local_config)], env))
    logs = {name: tmp_path / f"{name}.log" for name, _, _ in commands}
    try:
        for name, command, process_env in commands:
            with open(logs[name], "ab") as log:
                processes.append(subprocess.Popen(
                    command, cwd=REPO, env=process_env, stdout=log,
                    stderr=subprocess.STDOUT, start_new_session=True))
        # Through the proxy when there is one, as compose publishes it.
        client = Client(f"http://127.0.0.1:{proxy_port}" if haproxy else api_url)
        deadline = time.monotonic() + 60
        while not client.health():
            for process, name in zip(processes, logs, strict=True):
                assert process.poll() is None, f"{name} exited:\n{logs[name].read_text()}"
            assert time.monotonic() < deadline, logs["api"].read_text()
            time.sleep(0.2)
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        created = client.create_game("toy-pontoon", {"players": 2}, bots)
        final = wait_finished(client, created["id"], timeout=60)
        assert final["status"] == "finished", logs["worker"].read_text()
        if haproxy is not None:
            # A body that never comes: the proxy answers 408 problem+json and closes.
            answer = _slow_body_answer(proxy_port)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:300]
            assert b"application/problem+json" in answer and b"request-timeout" in answer
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                os.killpg(process.pid, 15)
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
                process.wait()


def _profile(name: str) -> dict[str, dict[str, Any]]:
    return {service_name: service for service_name, service in _compose()["services"].items()
            if name in (service.get("profiles") or [])}


def test_the_cluster_profile_is_issue_29s_topology() -> None:
    cluster = _profile("cluster")
    nodes = [f"cluster-redis-{n}" for n in range(1, 7)]
    assert set(cluster) == {*nodes, "cluster-create", "cluster-queue", "cluster-api-1",
                            "cluster-api-2", "cluster-proxy", "cluster-worker-1",
                            "cluster-worker-2"}
    # `docker compose up` without the profile starts what it did.
    assert all(not service.get("profiles") for name, service in _compose()["services"].items()
               if name not in cluster)
    for node in nodes:
        command = cluster[node]["command"]
        assert command[0] == "redis-server" and "--cluster-enabled" in command
        assert command[command.index("--cluster-enabled") + 1] == "yes"
    # One cluster of the six, a replica per master, made once all six answer.
    create = cluster["cluster-create"]
    script = " ".join(create["command"])
    assert "--cluster create" in script and "--cluster-replicas 1" in script
    assert "for n in 1 2 3 4 5 6" in script and "cluster-redis-$$n" in script
    assert {name: dep["condition"] for name, dep in create["depends_on"].items()} == {
        node: "service_healthy" for node in nodes}
    assert "--cluster-enabled" not in cluster["cluster-queue"]["command"]
    for api in ("cluster-api-1", "cluster-api-2"):
        env = _environment(cluster[api])
        assert env["REDIS_URL"].startswith("redis+cluster://")
        named = env["REDIS_URL"].removeprefix("redis+cluster://").split(",")
        assert named and all(part.split(":")[0] in nodes for part in named), named
        assert env["BGB_QUEUE_URL"] == "redis://cluster-queue:6379/0"
        assert env["BGB_MIN_REPLICAS"] == "1" and env["BGB_TRUSTED_PROXIES"] == "1"
        assert "ports" not in cluster[api]
        assert cluster[api]["depends_on"]["cluster-create"]["condition"] == \
            "service_completed_successfully"
    # A worker per API node, each posting to its own (not through the proxy's per-client
    # request cap), on the same store and queues as the API.
    for index in (1, 2):
        worker = cluster[f"cluster-worker-{index}"]
        env = _environment(worker)
        assert worker["command"] == ["bgb", "worker"]
        assert env["BGB_API_URL"] == f"http://cluster-api-{index}:8000"
        assert {k: env[k] for k in ("REDIS_URL", "BGB_QUEUE_URL")} == {
            k: _environment(cluster["cluster-api-1"])[k] for k in ("REDIS_URL", "BGB_QUEUE_URL")}
    # Only the proxy is published.
    assert [name for name, service in cluster.items() if service.get("ports")] == [
        "cluster-proxy"]
    # The proxy's servers are the two API nodes.
    path, config = _proxy_config("cluster-proxy")
    assert path.endswith("haproxy-cluster.cfg")
    servers = [line.split() for line in config.splitlines() if line.strip().startswith("server ")]
    assert sorted(server[2] for server in servers) == ["cluster-api-1:8000",
                                                        "cluster-api-2:8000"]


def _settings_lines(config: str) -> list[str]:
    """The lines of an HAProxy configuration outside its backend, comments left out."""
    kept = []
    for line in config.splitlines():
        if line.startswith("backend "):
            break
        if line.strip() and not line.strip().startswith("#"):
            kept.append(" ".join(line.split()))
    return kept


def test_the_cluster_proxy_bounds_clients_as_the_single_one_does() -> None:
    _, single = _proxy_config()
    _, cluster = _proxy_config("cluster-proxy")
    assert _settings_lines(cluster) == _settings_lines(single)


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="no haproxy binary here")
def test_the_cluster_proxy_configuration_passes_haproxys_check() -> None:
    path, _ = _proxy_config("cluster-proxy")
    checked = subprocess.run(["haproxy", "-c", "-f", path], capture_output=True, text=True,
                             timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_cluster_nodes_command_line_runs(tmp_path: Path) -> None:
    """The nodes' redis-server options are accepted by a Redis 7 here (it runs in cluster
    mode, waiting to be joined)."""
    import redis

    from tests.cluster.conftest import redis_cluster

    found = redis_cluster.binaries()
    if isinstance(found, str):
        pytest.skip(f"no Redis 7 here: {found}")
    server, _ = found
    command = _profile("cluster")["cluster-redis-1"]["command"]
    port = redis_cluster._cluster_ports(1)[0]  # its bus port (+10000) free and valid too
    process = subprocess.Popen([server, *command[1:], "--port", str(port), "--bind",
                                "127.0.0.1", "--dir", str(tmp_path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = redis.Redis(port=port, socket_connect_timeout=1)
        deadline = time.monotonic() + 20
        while True:
            try:
                info = client.cluster("info")
                break
            except redis.ConnectionError:
                assert process.poll() is None, "redis-server refused the options"
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert info["cluster_state"] == "fail"  # in cluster mode, no slots yet
    finally:
        process.terminate()
        process.wait(timeout=10)
