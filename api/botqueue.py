"""Enqueueing bot turns on the RQ queue "bots" (the worker's `play_turn` posts the move back).

The one definition of the job's name, id, retry policy and timeout: the API enqueues with
`BotQueue`, the worker's sweeper re-enqueues with `enqueue_turn` (ai_worker may import this).
"""

from __future__ import annotations

import logging
import uuid

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError

from api import metrics
from api.retries import retry_options

QUEUE_NAME = "bots"
JOB_FUNCTION = "ai_worker.jobs.play_turn"
# Analyses of finished games (api.analysis): their own queue, which workers take last, so
# that no move ever waits behind an analysis.
ANALYSIS_QUEUE_NAME = "analysis"
ANALYSIS_JOB_FUNCTION = "ai_worker.analysis.analyse_game"
# One job analyses for a few seconds (ai_worker.analysis.SLICE_SECONDS) then queues the rest:
# its timeout is far above a slice, even at the largest per-decision ceiling.
ANALYSIS_JOB_TIMEOUT = 3600
# A hint for a practice game's seat (api.hints): on the bots' queue, since a player waits for
# it as for a bot's move; one search within BGB_HINT_MS.
HINT_JOB_FUNCTION = "ai_worker.hints.suggest"
RETRY_INTERVALS = [1, 2, 5, 10, 30]
JOB_TIMEOUT = 600

log = logging.getLogger(__name__)


def job_id(game_id: str, version: int) -> str:
    """The deterministic id of the job playing the bot turn at `version`."""
    return f"play-{game_id}-{version}"


def enqueue_turn(queue: Queue, game_id: str, seat: int, version: int,
                 description: str = "") -> bool:
    """Enqueue `play_turn(game_id, seat, version)`; False if that turn's job is already there."""
    try:
        queue.enqueue_call(
            JOB_FUNCTION, args=(game_id, seat, version), job_id=job_id(game_id, version),
            # play_turn is idempotent (a moved-on version exits quietly): retrying is safe.
            **retry_options(RETRY_INTERVALS),
            timeout=JOB_TIMEOUT, result_ttl=600, failure_ttl=24 * 3600, unique=True,
            description=description or f"seat {seat} of {game_id} at version {version}")
    except DuplicateJobError:
        return False
    return True


def enqueue_analysis(client: redis.Redis, game_id: str, job_id: str, description: str) -> None:
    """Queue (the next slice of) the analysis of a finished game on its own queue."""
    Queue(ANALYSIS_QUEUE_NAME, connection=client).enqueue_call(
        ANALYSIS_JOB_FUNCTION, args=(game_id,), job_id=job_id, timeout=ANALYSIS_JOB_TIMEOUT,
        result_ttl=600, failure_ttl=24 * 3600, description=description)


def enqueue_hint(client: redis.Redis, job_id: str, args: tuple[object, ...],
                 description: str) -> None:
    """Queue the search of a hint on the bots' queue (a duplicate id collapses)."""
    try:
        Queue(QUEUE_NAME, connection=client).enqueue_call(
            HINT_JOB_FUNCTION, args=args, job_id=job_id, timeout=JOB_TIMEOUT, result_ttl=600,
            failure_ttl=24 * 3600, unique=True, description=description)
    except DuplicateJobError:
        pass


def analysis_job_id(game_id: str) -> str:
    """A new id for a job of the analysis of `game_id` (the record names the current one)."""
    return f"analysis-{game_id}-{uuid.uuid4().hex[:12]}"


class BotQueue:
    """Puts `play_turn(game_id, seat, version)` jobs on the "bots" queue."""

    def __init__(self, client: redis.Redis) -> None:
        self._queue = Queue(QUEUE_NAME, connection=client)

    def enqueue(self, game_id: str, seat: int, version: int, bot: str) -> bool:
        """Enqueue the bot turn; False (logged) if Redis refused: the sweeper re-enqueues it."""
        try:
            if not enqueue_turn(self._queue, game_id, seat, version,
                                f"{bot} plays seat {seat} of {game_id} at version {version}"):
                return True  # already queued: duplicates collapse on the job id
        except redis.RedisError:
            log.warning("could not enqueue the bot turn of %s at version %s", game_id, version,
                        exc_info=True)
            metrics.BOT_JOB_FAILURES.inc()
            return False
        metrics.BOT_JOBS.labels(bot).inc()
        return True
