"""`bgb serve` on local defaults: its own Redis on disk, the API and a worker; games survive."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clients.localredis import free_port
from clients.sdk import Client
from tests.e2e.conftest import REPO
from tests.e2e.helpers import check_log, wait_finished

pytestmark = pytest.mark.e2e


def _serve(data_dir: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "BGB_API_URL")}
    env.update({"BGB_DATA_DIR": str(data_dir), "BGB_GAME_MODULES": "tests.toygame",
                "PYTHONPATH": str(REPO)})
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "clients.cli", "serve", "--port", str(port),
             "--workers", "1", "--threads", "4"],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def _wait_up(client: Client, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while not client.health():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes]) -> int:
    process.send_signal(signal.SIGINT)
    try:
        return process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


def test_serve_on_local_defaults_keeps_games_across_restarts(tmp_path: Path) -> None:
    data, log, port = tmp_path / "data", tmp_path / "serve.log", free_port()
    client = Client(f"http://127.0.0.1:{port}")
    server = _serve(data, port, log)
    try:
        _wait_up(client, server, log)
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        created = client.create_game("toy-pontoon", {"players": 2}, bots, seed=4)
        final = wait_finished(client, created["id"], timeout=60)
        metrics = client.session.get(f"{client.base_url}/metrics", timeout=10)
        assert metrics.status_code == 200 and "# TYPE" in metrics.text
    finally:
        code = _stop(server)
    assert code == 0, log.read_text()
    assert any("appendonly" in p.name for p in data.rglob("*")), sorted(data.rglob("*"))
    assert not (data / "redis.url").exists()  # its Redis was stopped with it

    server = _serve(data, port, log)
    try:
        _wait_up(client, server, log)
        again = client.get_game(created["id"])
        assert again["version"] == final["version"] and again["status"] == "finished"
        check_log(client, created["id"], final["version"])
    finally:
        assert _stop(server) == 0, log.read_text()
    # gevent patched the standard library before anything imported it, in every process
    # (issue 26: a late patch can deadlock or break TLS clients such as webhook deliveries)
    assert "MonkeyPatchWarning" not in log.read_text()


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _gunicorn_master(serve_pid: int) -> int:
    masters = [p for p in _children(serve_pid) if "gunicorn" in _cmdline(p)]
    assert len(masters) == 1, [(p, _cmdline(p)) for p in _children(serve_pid)]
    return masters[0]


def test_serve_restarts_its_api_when_the_gunicorn_master_is_killed(tmp_path: Path) -> None:
    """Issue 18: `kill -9` of the API's master must not take the server down for good."""
    data, log, port = tmp_path / "data", tmp_path / "serve.log", free_port()
    client = Client(f"http://127.0.0.1:{port}")
    server = _serve(data, port, log)
    try:
        _wait_up(client, server, log)
        master = _gunicorn_master(server.pid)
        os.kill(master, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()
            current = [p for p in _children(server.pid) if "gunicorn" in _cmdline(p)]
            if current and current != [master] and client.health():
                break
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        created = client.create_game("toy-pontoon", {"players": 2}, bots, seed=4)
        assert wait_finished(client, created["id"], timeout=60)["status"] == "finished"
    finally:
        assert _stop(server) == 0, log.read_text()
