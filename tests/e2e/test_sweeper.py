"""The sweeper's decisions on a real Redis (no server needed): which bot turns to enqueue again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis
from rq import Queue, SimpleWorker
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry

from ai_worker import sweeper
from ai_worker.jobs import JOB_FUNC, enqueue_turn, job_id
from api import keys, retries

REPO = Path(__file__).resolve().parent.parent.parent


def failing() -> None:
    """A job that always fails (run by the tests' workers)."""
    raise RuntimeError("boom")


def _bot_turn(client: redis.Redis, game_id: str, version: int, seat: int, age: float,
              status: str = "active") -> None:
    client.hset(keys.game_state(game_id), mapping={
        "version": version, "to_act": seat if status == "active" else "", "status": status,
        "snapshot": "{}"})
    client.zadd(keys.bot_turns(), {game_id: time.time() - age})


def test_a_turn_without_a_job_is_enqueued(redis_client: redis.Redis) -> None:
    _bot_turn(redis_client, "g1", 3, 1, age=10)
    swept = sweeper.Sweeper(redis_client).sweep_once(elect=False)
    assert swept == ["play-g1-3"]
    job = Job.fetch("play-g1-3", connection=redis_client)
    assert job.func_name == JOB_FUNC and job.args == ("g1", 1, 3)
    assert job.get_status() == JobStatus.QUEUED and retries.retries_left(job) == 5
    # the grace period starts again
    assert redis_client.zscore(keys.bot_turns(), "g1") > time.time() - 2
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == []


def test_young_turns_finished_games_and_queued_jobs_are_left_alone(
        redis_client: redis.Redis) -> None:
    _bot_turn(redis_client, "young", 0, 0, age=0.5)
    _bot_turn(redis_client, "over", 9, 0, age=10, status="finished")
    _bot_turn(redis_client, "queued", 2, 1, age=10)
    enqueue_turn(Queue("bots", connection=redis_client), "queued", 1, 2)
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == []
    assert Queue("bots", connection=redis_client).job_ids == ["play-queued-2"]


def test_a_started_job_is_retaken_only_when_its_worker_is_dead(redis_client: redis.Redis) -> None:
    _bot_turn(redis_client, "g2", 4, 0, age=10)
    queue = Queue("bots", connection=redis_client)
    enqueue_turn(queue, "g2", 0, 4)
    job = Job.fetch(job_id("g2", 4), connection=redis_client)
    queue.remove(job.id)
    with redis_client.pipeline() as pipe:
        job.prepare_for_execution("bgb-host-1-abc", pipe)
        pipe.execute()
    assert job.get_status() == JobStatus.STARTED
    alive = sweeper.Sweeper(redis_client, worker_name="bgb-host-1-abc")
    alive.heartbeat()
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == []
    alive.forget()  # the worker died: its liveness key is gone
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == ["play-g2-4"]
    assert Job.fetch(job.id, connection=redis_client).get_status() == JobStatus.QUEUED


def test_a_failed_job_is_enqueued_again(redis_client: redis.Redis) -> None:
    _bot_turn(redis_client, "g3", 1, 1, age=10)
    queue = Queue("bots", connection=redis_client)
    enqueue_turn(queue, "g3", 1, 1)
    job = Job.fetch(job_id("g3", 1), connection=redis_client)
    queue.remove(job.id)
    with redis_client.pipeline() as pipe:
        job.set_status(JobStatus.FAILED, pipeline=pipe)
        FailedJobRegistry(queue=queue).add(job, exc_string="boom", pipeline=pipe)
        pipe.execute()
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == ["play-g3-1"]
    assert queue.job_ids == ["play-g3-1"]
    assert FailedJobRegistry(queue=queue).get_job_ids() == []


def _fail_once(queue: Queue) -> None:
    assert SimpleWorker([queue], connection=queue.connection).work(burst=True,
                                                                   with_scheduler=False)


def test_a_failed_job_is_retried_once_its_back_off_is_over(redis_client: redis.Redis) -> None:
    queue = Queue("webhooks", connection=redis_client)
    job = queue.enqueue_call(f"{__name__}.failing", job_id="flaky",
                             **retries.retry_options([5, 60]))
    _fail_once(queue)
    job.refresh()
    assert job.get_status() == JobStatus.FAILED and retries.retries_left(job) == 1
    assert retries.waiting(redis_client, ["flaky"]) == [True]
    keeper = sweeper.Sweeper(redis_client)
    now = time.time()
    keeper.sweep_once(now + 1, elect=False)  # within its back-off
    assert queue.job_ids == []
    keeper.sweep_once(now + 6, elect=False)
    assert queue.job_ids == ["flaky"] and job.get_status() == JobStatus.QUEUED
    assert retries.waiting(redis_client, ["flaky"]) == [False]
    assert FailedJobRegistry(queue=queue).get_job_ids() == []
    _fail_once(queue)  # the last retry
    assert retries.retries_left(Job.fetch("flaky", connection=redis_client)) == 0
    keeper.sweep_once(now + 100, elect=False)
    _fail_once(queue)
    assert retries.retries_left(Job.fetch("flaky", connection=redis_client)) == 0
    assert retries.waiting(redis_client, ["flaky"]) == [False]
    keeper.sweep_once(now + 10_000, elect=False)  # exhausted: it stays failed
    assert queue.job_ids == [] and FailedJobRegistry(queue=queue).get_job_ids() == ["flaky"]


def test_a_bot_turn_waiting_for_its_retry_is_left_to_it(redis_client: redis.Redis) -> None:
    _bot_turn(redis_client, "g4", 7, 0, age=10)
    queue = Queue("bots", connection=redis_client)
    queue.enqueue_call(f"{__name__}.failing", job_id=job_id("g4", 7),
                       **retries.retry_options([30]))
    _fail_once(queue)
    keeper = sweeper.Sweeper(redis_client)
    assert keeper.sweep_once(elect=False) == []  # its own retry comes
    assert queue.job_ids == []
    assert keeper.sweep_once(time.time() + 31, elect=False) == []
    assert queue.job_ids == [job_id("g4", 7)]  # retried, not enqueued afresh


def test_a_killed_worker_leaves_no_process_behind(redis_url: str,
                                                 redis_client: redis.Redis) -> None:
    """No scheduler or other process forked beside a worker: SIGKILL ends all of it."""
    env = {**os.environ, "REDIS_URL": redis_url, "BGB_WORKER_NICE": "0"}
    worker = subprocess.Popen([sys.executable, "-m", "ai_worker.worker"], cwd=REPO, env=env)
    try:
        deadline = time.monotonic() + 30
        while not redis_client.keys(keys.worker_alive("*")):
            assert worker.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(1)  # past the worker's start, where RQ would fork its scheduler
        children = Path(f"/proc/{worker.pid}/task/{worker.pid}/children")
        if children.exists():
            assert children.read_text().split() == []
    finally:
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()


def test_one_sweeper_per_interval_is_elected(redis_client: redis.Redis) -> None:
    _bot_turn(redis_client, "g5", 2, 0, age=10)
    first = sweeper.Sweeper(redis_client, worker_name="bgb-a", interval=5)
    second = sweeper.Sweeper(redis_client, worker_name="bgb-b", interval=5)
    assert second.sweep_once() == ["play-g5-2"]
    Job.fetch("play-g5-2", connection=redis_client).delete()
    assert first.sweep_once() == []  # within the elected sweeper's interval


def test_a_turn_that_keeps_failing_is_retried_at_a_doubling_pace(
        redis_client: redis.Redis) -> None:
    _bot_turn(redis_client, "g6", 5, 1, age=10)
    keeper = sweeper.Sweeper(redis_client, grace=3)
    now = time.time()
    assert keeper.sweep_once(now, elect=False) == ["play-g6-5"]
    job = Job.fetch("play-g6-5", connection=redis_client)
    Queue("bots", connection=redis_client).remove(job.id)
    job.set_status(JobStatus.FAILED)
    assert keeper.sweep_once(now + 4, elect=False) == []  # 2 x grace not over yet
    assert keeper.sweep_once(now + 7, elect=False) == ["play-g6-5"]


def test_a_turn_held_by_the_job_before_it_waits_while_that_job_lives(
        redis_client: redis.Redis) -> None:
    # Job play-g7-3 played version 3 and holds version 4 (ai_worker.jobs plays on).
    _bot_turn(redis_client, "g7", 4, 1, age=10)
    redis_client.hset(keys.game_state("g7"), "bot_job", "play-g7-3")
    queue = Queue("bots", connection=redis_client)
    enqueue_turn(queue, "g7", 0, 3)
    job = Job.fetch("play-g7-3", connection=redis_client)
    queue.remove(job.id)
    with redis_client.pipeline() as pipe:
        job.prepare_for_execution("bgb-host-2-abc", pipe)
        pipe.execute()
    alive = sweeper.Sweeper(redis_client, worker_name="bgb-host-2-abc")
    alive.heartbeat()
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == []
    alive.forget()  # its worker died mid-turn: the held turn gets a job of its own
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == ["play-g7-4"]
    assert Job.fetch("play-g7-4", connection=redis_client).args == ("g7", 1, 4)


def test_a_turn_held_by_a_job_that_ended_is_enqueued(redis_client: redis.Redis) -> None:
    _bot_turn(redis_client, "g8", 6, 0, age=10)
    redis_client.hset(keys.game_state("g8"), "bot_job", "play-g8-1")  # long gone
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == ["play-g8-6"]


def test_a_queued_job_no_queue_holds_is_enqueued_again(redis_client: redis.Redis) -> None:
    # A worker popped the job off the queue and was killed before it marked it started.
    _bot_turn(redis_client, "g9", 2, 1, age=10)
    queue = Queue("bots", connection=redis_client)
    enqueue_turn(queue, "g9", 1, 2)
    assert redis_client.lpop(queue.key) == b"play-g9-2"
    assert Job.fetch("play-g9-2", connection=redis_client).get_status() == JobStatus.QUEUED
    assert sweeper.Sweeper(redis_client).sweep_once(elect=False) == ["play-g9-2"]
    assert queue.job_ids == ["play-g9-2"]
