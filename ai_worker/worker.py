"""The worker process: an RQ worker on queues "bots" (first), "webhooks" and "analysis",
plus the sweeper thread.

    python -m ai_worker.worker [--burst] [--fork] [--queues bots,webhooks,analysis]

Jobs run in the worker process itself (RQ's SimpleWorker): a bot turn is milliseconds of work
and forking a work horse per job would cost more than the turn; `--fork` restores RQ's
fork-per-job isolation for long search bots. Environment: REDIS_URL, BGB_API_URL, BGB_BOT_API
(`local`: the worker posts through the API app in its own process, `ai_worker.local_api`).

RQ's worker classes are used as they are. RQ's bookkeeping costs about 16 Redis round trips
a job (heartbeats, state writes, `rq suspend` checks), 10 of which repeat themselves; skipping
them would mean overriding worker methods RQ does not document, a saving of about 1 ms a bot
turn not worth a worker that a release may break (docs/dependencies.md).
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import uuid

from rq import SimpleWorker, Worker

import core
from ai_worker import jobs, local_api, sweeper
from ai_worker.jobs import QUEUE
from api import outbound, settings
from api.botqueue import ANALYSIS_QUEUE_NAME as ANALYSIS_QUEUE
from api.notify import QUEUE_NAME as WEBHOOK_QUEUE
from api.redis_conn import Topology

# Bot turns first: a worker takes a webhook delivery only when no bot turn waits, and a
# game's analysis only when neither does.
DEFAULT_QUEUES = (QUEUE, WEBHOOK_QUEUE, ANALYSIS_QUEUE)

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def worker_niceness() -> int:
    """How much lower than its parent's a worker's CPU priority is (BGB_WORKER_NICE, default
    10; 0 keeps it). A bot's turn is CPU work that can wait a millisecond; Redis and the API
    answer people and the bots' own moves. On a machine they share, a worker that kept the
    cores busy made Redis wait for one at each of its commands: each worker then waited on
    Redis, and a second worker added little (bench/tournament.py)."""
    return max(0, int(settings.value("BGB_WORKER_NICE")))


def worker_name() -> str:
    """A unique name for this worker process (the sweeper's liveness checks rely on its prefix)."""
    host = socket.gethostname().split(".")[0]
    return f"{sweeper.WORKER_PREFIX}{host}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


def run(redis_url: str | None = None, *, burst: bool = False, fork: bool = False,
        sweep: bool = True, log_level: str | None = None, name: str | None = None,
        max_jobs: int | None = None, queues: tuple[str, ...] = DEFAULT_QUEUES) -> bool:
    """Work on `queues` until stopped (or until empty with `burst`); True if it did work."""
    niceness = worker_niceness()
    if niceness > 0:
        os.nice(niceness)
    url = redis_url or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    # The queues' Redis (RQ), and the game store when it is another (api.redis_conn).
    topology = Topology.of(url, settings.value("BGB_REDIS_CLUSTER"),
                           settings.value("BGB_QUEUE_URL"))
    connection = topology.queues()  # through Sentinel when BGB_QUEUE_URL says so
    games = connection if topology.shared else topology.games(timeout=5.0, connections=64)
    name = name or worker_name()
    level = (log_level or settings.value("BGB_LOG_LEVEL")).upper()
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # The games' registry loaded now, as the API does at start-up: a broken game module fails
    # the worker's start, and its first turn does not pay for the loading.
    core.game_names()
    outbound.policy()  # a wrong BGB_WEBHOOK_ALLOW fails the start, not each delivery
    if local_api.wanted():
        jobs.api_client()  # the API app in this process (BGB_BOT_API=local), built now too
    worker_class = Worker if fork else SimpleWorker
    worker = worker_class(list(queues), connection=connection, name=name)
    stop = None
    keeper = None
    if sweep:
        _, stop, keeper = sweeper.start_thread(connection, worker_name=name,
                                                 games=games)
    try:
        # No RQ scheduler (a forked process a killed worker would orphan): retries are ours,
        # put back onto their queues by the elected sweeper (api.retries).
        return bool(worker.work(burst=burst, with_scheduler=False, logging_level=level,
                                max_jobs=max_jobs))
    finally:
        if stop is not None and keeper is not None:
            stop.set()
            keeper.forget()


def main(argv: list[str] | None = None) -> int:
    """Command-line entry of one worker process."""
    parser = argparse.ArgumentParser(prog="python -m ai_worker.worker", description=__doc__)
    parser.add_argument("--burst", action="store_true", help="exit once the queue is empty")
    parser.add_argument("--fork", action="store_true", help="fork a work horse per job")
    parser.add_argument("--no-sweep", action="store_true",
                        help="do not run the sweeper thread (another worker's must run: it "
                             "also enqueues due retries)")
    parser.add_argument("--redis-url", default=None, help="default: $REDIS_URL")
    parser.add_argument("--log-level", default=None, help="default: $BGB_LOG_LEVEL or WARNING")
    parser.add_argument("--queues", default=",".join(DEFAULT_QUEUES),
                        help="comma-separated queues, in priority order (default: %(default)s)")
    args = parser.parse_args(argv)
    run(args.redis_url, burst=args.burst, fork=args.fork, sweep=not args.no_sweep,
        log_level=args.log_level, queues=tuple(q for q in args.queues.split(",") if q))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
