"""End-to-end fixtures: the real API under gunicorn and real bot worker processes.

The processes run against the test Redis database, with the toy game registered
(BGB_GAME_MODULES=tests.toygame) and a fixed bot secret so a flushed database never
desynchronises the API and the workers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from clients.cli import gunicorn_command, worker_command
from clients.localredis import free_port
from clients.sdk import Client

REPO = Path(__file__).resolve().parents[2]
# The documentation site the stack's API names (BGB_DOCS_URL): the catalog's rules links and
# the web page's rules panel point there (tests/web/test_browser_player.py).
DOCS_URL = "https://docs.example.test/bgb/"


class Stack:
    """An API server and bot workers as subprocesses, logs in `log_dir`."""

    def __init__(self, redis_url: str, log_dir: Path) -> None:
        self.redis_url = redis_url
        self.log_dir = log_dir
        self.port = free_port()
        self.api_url = f"http://127.0.0.1:{self.port}"
        self.api: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        self.env = dict(os.environ)
        self.env.update({
            "REDIS_URL": redis_url,
            "BGB_API_URL": self.api_url,
            "BGB_BOT_SECRET": "e2e-bot-secret",
            "BGB_GAME_MODULES": "tests.toygame",
            "PYTHONPATH": os.pathsep.join([str(REPO), self.env.get("PYTHONPATH", "")]),
            # One test module creates more games a minute from one address than the default
            # creation limit lets a client (tests/api/test_limits.py tests the limits).
            "BGB_RATE_LIMIT_CREATE": "1000/minute",
            "BGB_MAX_BOT_GAMES_PER_CREATOR": "100",
            # Workers at the parent's CPU priority: a niced worker (the default, 10) gets a
            # tenth of a core beside any busy process, and these tests wait on its start and
            # its turns with timeouts on a shared CI machine (test_local_workers checks the
            # default).
            "BGB_WORKER_NICE": "0",
            "BGB_DOCS_URL": DOCS_URL,
        })
        self.client = Client(self.api_url)

    def _spawn(self, command: list[str], name: str) -> subprocess.Popen[bytes]:
        with open(self.log_dir / f"{name}.log", "ab") as log:
            return subprocess.Popen(command, cwd=REPO, env=self.env, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)

    def start_api(self) -> None:
        """Start gunicorn and wait for /healthz."""
        # gevent workers, as `bgb serve` and compose run the API.
        self.api = self._spawn(gunicorn_command("127.0.0.1", self.port, workers=2),
                               "api")
        deadline = time.monotonic() + 30
        while not self.client.health():
            if self.api.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"API did not start:\n{self.log('api')}")
            time.sleep(0.1)

    def start_worker(self, module: str = "ai_worker.worker") -> subprocess.Popen[bytes]:
        """Start one bot worker process (`module` lets a test run a patched worker)."""
        command = worker_command()
        command[command.index("ai_worker.worker")] = module
        process = self._spawn(command, f"worker-{len(self.workers)}")
        self.workers.append(process)
        return process

    def log(self, name: str) -> str:
        """The tail of a process's log, for failure messages."""
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop_workers(self) -> None:
        """Stop the bot workers (SIGTERM: RQ's warm shutdown)."""
        self._stop(self.workers)
        self.workers = []

    def stop(self) -> None:
        """Stop every process (whole process groups: nothing is left behind). The API
        quickly (SIGQUIT): a graceful stop waits, a second at a time, for every keep-alive
        connection to close, 3-7 s a test module here (tests/e2e/test_serve.py stops `bgb
        serve` as a user does)."""
        self._stop(self.workers)
        self.workers = []
        if self.api:
            self._stop([self.api], signal.SIGQUIT)

    def _stop(self, processes: list[subprocess.Popen[bytes]],
              how: signal.Signals = signal.SIGTERM) -> None:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, how)
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _start(redis_url: str, log_dir: Path, workers: int) -> Stack:
    redis.Redis.from_url(redis_url).flushdb()
    stack = Stack(redis_url, log_dir)
    try:
        stack.start_api()
        for _ in range(workers):
            stack.start_worker()
    except BaseException:
        stack.stop()
        raise
    return stack


@pytest.fixture(scope="module")
def stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The API and two bot workers, for a whole test module."""
    running = _start(redis_url, tmp_path_factory.mktemp("e2e-logs"), workers=2)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def bare_stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The API alone: the test starts (and kills) its own workers."""
    running = _start(redis_url, tmp_path_factory.mktemp("e2e-logs"), workers=0)
    yield running
    running.stop()
