"""Shared fixtures: a real Redis for the product's tests (started here if none is reachable)."""

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

os.environ.setdefault("BGB_GAME_MODULES", "tests.toygame")


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
    """A Redis URL for tests: $REDIS_URL, else a local server, else one started for the run.

    Tests use database 13 of a shared server so they never touch database 0's data.
    """
    configured = os.environ.get("TEST_REDIS_URL") or os.environ.get("REDIS_URL")
    candidates = [configured] if configured else ["redis://127.0.0.1:6379/13"]
    for url in candidates:
        if _reachable(url):
            yield url
            return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("no Redis reachable and no redis-server installed (see README)")
    port = _free_port()
    workdir = tempfile.mkdtemp(prefix="bgb-test-redis-")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", workdir],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/13"
    for _ in range(100):
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
