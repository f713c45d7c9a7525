"""Shared fixtures: a real Redis for the product's tests, started here for the run.

The tests flush their database around each test, so they never touch a Redis they did not
start themselves, except one named on purpose by ``TEST_REDIS_URL``. ``REDIS_URL`` (the
server's own setting, perhaps pointing at production data) is removed from the environment
of the whole run, so no app, CLI or subprocess started by a test can reach it by default.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

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


def _reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis URL for tests: $TEST_REDIS_URL if set, else a server started for this run."""
    configured = os.environ.get("TEST_REDIS_URL")
    if configured:
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
