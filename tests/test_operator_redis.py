"""The test suite never touches the Redis that `REDIS_URL` names (issue 18).

An operator who runs the tests with the production variable set must keep every game: the
suite starts its own Redis (or uses `TEST_REDIS_URL`) and flushes only that one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

from clients.localredis import find_redis_server, free_port

REPO = Path(__file__).resolve().parents[1]


def test_redis_url_of_the_environment_is_never_flushed() -> None:
    binary = find_redis_server()
    assert binary is not None
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="bgb-operator-redis-")
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", workdir],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        production = redis.Redis(port=port, db=0)
        for _ in range(200):
            try:
                production.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        # The data an operator would lose: in db 0 and in db 13 (the tests' usual database).
        production.set("bgb:game:precious", "1")
        redis.Redis(port=port, db=13).set("bgb:game:precious", "1")
        env = {k: v for k, v in os.environ.items() if k != "TEST_REDIS_URL"}
        env["REDIS_URL"] = f"redis://127.0.0.1:{port}/13"
        # One API test that flushes its database before and after it runs.
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
             "tests/api/test_games.py::test_seeded_games_are_reproducible"],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
        assert production.get("bgb:game:precious") == b"1"
        assert redis.Redis(port=port, db=13).get("bgb:game:precious") == b"1"
        assert production.dbsize() == 1  # nothing written there either
    finally:
        server.terminate()
        server.wait(timeout=10)
