"""Retries with back-off for RQ jobs, through RQ's documented interfaces only.

RQ's own `Retry(max, interval)` schedules a failed job in its `ScheduledJobRegistry`, which
only RQ's scheduler drains: a process each worker forks (`--with-scheduler`) that watches
nothing of its parent, so a worker killed with SIGKILL leaves it running, and whose lock
another worker takes over only at its next maintenance pass (10 minutes by default).
Instead:

- a job is enqueued with `retry_options(intervals)`: its back-off in its `meta` and
  `retry_failed` as its failure callback (both documented: python-rq.org/docs/#callbacks,
  /docs/jobs/#storing-arbitrary-data-on-jobs);
- when it raises, `retry_failed` counts the attempt in its `meta` and, while attempts are
  left, records when its back-off ends in our own sorted set `keys.retries_due()` (member:
  job id, score: epoch seconds); RQ then keeps the job in its `FailedJobRegistry` as usual;
- the elected sweeper (`ai_worker.sweeper`, a thread of every worker process) calls
  `enqueue_due` every second: each job whose back-off is over goes back onto its queue with
  the documented `FailedJobRegistry.requeue` (python-rq.org/docs/jobs/#failed-jobs).

A job waiting for its retry is `waiting(...)`: the sweeper counts it as live.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

import redis
from rq import Callback, Queue
from rq.exceptions import InvalidJobOperation
from rq.job import Job
from rq.registry import FailedJobRegistry

from api import keys

log = logging.getLogger(__name__)

# Keys of a job's meta (ours: RQ keeps meta as it is).
INTERVALS = "bgb_retry_intervals"
ATTEMPTS = "bgb_retry_attempts"
# Due retries moved per pass (the oldest first); the rest wait for the next pass.
BATCH = 500
# A due entry whose job is in no failed registry this long after its due time is dropped
# (the job was deleted, or requeued by hand): the worker files a failed job milliseconds
# after the callback that recorded it.
STALE_SECONDS = 3600.0


def retry_failed(job: Job, connection: redis.Redis, exc_type: Any, exc_value: Any,
                 traceback: Any) -> None:
    """RQ failure callback: record when the job's next attempt is due, while attempts are
    left."""
    intervals = list(job.meta.get(INTERVALS) or [])
    attempts = int(job.meta.get(ATTEMPTS) or 0)
    if attempts >= len(intervals):
        return  # retries exhausted: the job stays failed
    job.meta[ATTEMPTS] = attempts + 1
    job.save_meta()
    connection.zadd(keys.retries_due(), {job.id: time.time() + float(intervals[attempts])})
    log.info("job %s failed (%r); retry %d of %d in %ss", job.id, exc_value, attempts + 1,
             len(intervals), intervals[attempts])


def retry_options(intervals: Sequence[float]) -> dict[str, Any]:
    """The keyword arguments of `Queue.enqueue_call` that make a job retried after each of
    `intervals` (seconds) in turn."""
    return {"meta": {INTERVALS: list(intervals), ATTEMPTS: 0},
            "on_failure": Callback(retry_failed)}


def retries_left(job: Job) -> int:
    """How many more attempts a job made with `retry_options` has."""
    return len(job.meta.get(INTERVALS) or []) - int(job.meta.get(ATTEMPTS) or 0)


def waiting(connection: redis.Redis, job_ids: Sequence[str]) -> list[bool]:
    """Whether each job waits for a retry (its back-off running or just over)."""
    if not job_ids:
        return []
    with connection.pipeline(transaction=False) as pipe:
        for job_id in job_ids:
            pipe.zscore(keys.retries_due(), job_id)
        return [score is not None for score in pipe.execute()]


def enqueue_due(connection: redis.Redis, now: float | None = None) -> list[str]:
    """Put every job whose back-off is over back onto its queue; their ids."""
    now = time.time() if now is None else now
    due = connection.zrangebyscore(keys.retries_due(), "-inf", now, start=0, num=BATCH,
                                   withscores=True)
    if not due:
        return []
    ids = [raw.decode() if isinstance(raw, bytes) else str(raw) for raw, _ in due]
    enqueued = []
    for job_id, (_, when), job in zip(ids, due, Job.fetch_many(ids, connection=connection),
                                      strict=True):
        if job is None:
            connection.zrem(keys.retries_due(), job_id)  # expired or deleted
            continue
        registry = FailedJobRegistry(queue=Queue(job.origin, connection=connection))
        if job_id not in registry:
            if now - when > STALE_SECONDS:
                connection.zrem(keys.retries_due(), job_id)
            continue  # not filed as failed yet: the next pass
        # Out of the due set first: of two sweepers racing, only one requeues.
        if not connection.zrem(keys.retries_due(), job_id):
            continue
        try:
            registry.requeue(job_id)
        except InvalidJobOperation:
            continue  # requeued meanwhile (`rq requeue`, the sweeper of bot turns)
        enqueued.append(job_id)
    return enqueued
