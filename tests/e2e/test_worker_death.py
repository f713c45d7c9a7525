"""No game stalls: a bot worker killed in the middle of a turn, or a lost job, is recovered."""

from __future__ import annotations

import os
import signal
import time

import pytest
import redis
from rq import Queue
from rq.job import Job, JobStatus

from ai_worker.jobs import job_id
from api import keys
from tests.e2e.conftest import Stack
from tests.e2e.helpers import check_log, wait_finished

pytestmark = pytest.mark.e2e

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def _wait_started(connection: redis.Redis, jid: str, timeout: float = 20.0) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            job = Job.fetch(jid, connection=connection)
        except Exception:
            job = None
        # The status as of the fetch (refresh=False): re-reading it alone could see a start
        # that the fetched fields (worker_name, written with it) do not show yet.
        if job is not None and job.get_status(refresh=False) == JobStatus.STARTED:
            return job
        time.sleep(0.05)
    raise TimeoutError(f"job {jid} never started")


def test_worker_killed_mid_turn_then_another_worker_finishes_the_game(bare_stack: Stack) -> None:
    client = bare_stack.client
    connection = redis.Redis.from_url(bare_stack.redis_url)
    created = client.create_game("toy-pontoon", {"players": 2}, BOTS, seed=21)
    game_id = created["id"]
    slow = bare_stack.start_worker("tests.e2e.slow_worker")
    job = _wait_started(connection, job_id(game_id, 0))
    assert job.worker_name and job.worker_name.startswith("bgb-")

    os.killpg(slow.pid, signal.SIGKILL)  # no clean-up of any kind: the job stays "started"
    slow.wait()
    assert client.get_game(game_id)["version"] == 0
    assert Job.fetch(job.id, connection=connection).get_status() == JobStatus.STARTED

    bare_stack.start_worker()
    final = wait_finished(client, game_id, timeout=60)
    assert final["result"]["finished"] is True
    check_log(client, game_id, final["version"])


def test_worker_killed_in_a_turn_its_job_held_then_another_worker_finishes_the_game(
        bare_stack: Stack) -> None:
    bare_stack.stop_workers()
    client = bare_stack.client
    connection = redis.Redis.from_url(bare_stack.redis_url)
    created = client.create_game("toy-pontoon", {"players": 2}, BOTS, seed=23)
    game_id = created["id"]
    bare_stack.env.update(BGB_TEST_FAST_TURNS="1", BGB_BOT_CHAIN_SECONDS="60")
    try:
        slow = bare_stack.start_worker("tests.e2e.slow_worker")
    finally:
        del bare_stack.env["BGB_TEST_FAST_TURNS"], bare_stack.env["BGB_BOT_CHAIN_SECONDS"]
    # The first job played version 0 and now thinks on version 1, the turn it holds: no job
    # of its own was queued for it.
    job = _wait_started(connection, job_id(game_id, 0))
    deadline = time.monotonic() + 20
    while client.get_game(game_id)["version"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get_game(game_id)["version"] == 1
    assert connection.hget(keys.game_state(game_id), "bot_job") == job.id.encode()
    assert not connection.exists(f"rq:job:{job_id(game_id, 1)}")

    os.killpg(slow.pid, signal.SIGKILL)
    slow.wait()
    bare_stack.start_worker()
    final = wait_finished(client, game_id, timeout=60)
    assert final["result"]["finished"] is True
    check_log(client, game_id, final["version"])


def test_a_lost_job_is_enqueued_again(bare_stack: Stack) -> None:
    bare_stack.stop_workers()
    client = bare_stack.client
    connection = redis.Redis.from_url(bare_stack.redis_url)
    created = client.create_game("toy-pontoon", {"players": 2}, BOTS, seed=22)
    game_id = created["id"]
    # The turn's job vanishes before any worker saw it (say, an enqueue lost with a Redis
    # fail-over): only the bot-turn record remains.
    Job.fetch(job_id(game_id, 0), connection=connection).delete()
    Queue("bots", connection=connection).empty()
    assert connection.zscore("bgb:bot-turns", game_id) is not None
    bare_stack.start_worker()
    final = wait_finished(client, game_id, timeout=60)
    check_log(client, game_id, final["version"])
