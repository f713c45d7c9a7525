"""Shared fixtures: a real Redis for the product's tests, started here for the run.

The tests flush their database around each test, so they never touch a Redis they did not
start themselves, except one named on purpose by ``TEST_REDIS_URL``. ``REDIS_URL`` (the
server's own setting, perhaps pointing at production data) is removed from the environment
of the whole run, so no app, CLI or subprocess started by a test can reach it by default.

The suite runs on several processes (pytest-xdist, `-n auto` in pyproject.toml): each
starts its own Redis, or takes its own database of ``TEST_REDIS_URL``'s server. Tests
marked ``slow`` (a minute or more) are handed out first, so that the processes do not
wait on one long test at the end.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis

import tests.toygame  # noqa: F401  (registers the test game in this process)
from clients.localredis import find_redis_server

os.environ.setdefault("BGB_GAME_MODULES", "tests.toygame")
# Never the operator's Redis: see the module docstring.
OPERATOR_REDIS_URL = os.environ.pop("REDIS_URL", None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _for_this_process(url: str) -> str:
    """`url` with the database moved on by this pytest-xdist worker's number (gw0: +0,
    gw1: +1, ...), so that parallel workers never flush each other's data."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    offset = int(worker.removeprefix("gw") or 0)
    if offset == 0:
        return url
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + offset
    return urlunsplit(parts._replace(path=f"/{database}"))


def _reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first (otherwise in collection order), so that the parallel workers
    start on them and end on short ones."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis URL for tests: $TEST_REDIS_URL if set, else a server started for this run."""
    configured = os.environ.get("TEST_REDIS_URL")
    if configured:
        configured = _for_this_process(configured)
        if not _reachable(configured):
            pytest.fail(f"TEST_REDIS_URL={configured} does not answer")
        yield configured
        return
    binary = find_redis_server()
    if binary is None:
        pytest.fail("no redis-server installed (see README)")
    port = _free_port()
    workdir = tempfile.mkdtemp(prefix="bgb-test-redis-")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", workdir],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/13"
    for _ in range(200):
        if _reachable(url):
            break
        time.sleep(0.05)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client on the test database, flushed before and after each test."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.flushdb()
