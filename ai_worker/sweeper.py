"""The sweeper: re-enqueues any bot turn left without a live job, so no game stalls.

The API records every pending bot turn in the sorted set `keys.bot_turns()` (member: game id,
score: when it was recorded) and enqueues `play-{id}-{version}`. A job can still be lost: its
worker killed mid-turn (RQ only notices a dead worker minutes later), retries exhausted while
the API was down, or a job that finished without moving. Every `interval` seconds one sweeper
(a Redis lock elects it among all worker processes) looks at the bot turns older than `grace`
seconds and enqueues the turn again unless its job waits on its queue, is scheduled for a
retry, or runs on a live worker, or the job that played the turn before it holds it (the
game state's `bot_job`: a job plays a game's consecutive bot turns) and is itself live.
Re-running a turn is harmless: `play_turn` is idempotent.

Worker liveness: each bgb worker process refreshes `alive_key(name)` (a few seconds' TTL) from
its sweeper thread; a started job whose bgb worker lost that key is abandoned.
The elected sweeper also applies the games' clocks (`ai_worker.clocks`: a seat past its
deadline gets its game's `on_timeout`) and puts the failed jobs whose retry back-off is over
back onto their queues (`api.retries`: bot turns, webhook deliveries, tournament kicks), so
workers need no RQ scheduler, a process each worker would fork and a killed worker would
orphan. It uses RQ's documented interfaces only.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from rq import Queue
from rq.job import Job, JobStatus

from ai_worker import clocks, tournaments
from api import keys, retries
from api.botqueue import QUEUE_NAME as QUEUE
from api.botqueue import enqueue_turn, job_id
from api.redis_conn import GameClient
from api.seats import effective_seat, seat_states
from api.store import Store

log = logging.getLogger(__name__)

# Names of bgb worker processes start with this; their liveness is `alive_key`.
WORKER_PREFIX = "bgb-"
ALIVE_TTL = 5
DEFAULT_GRACE = 3.0
DEFAULT_INTERVAL = 1.0
MAX_BACKOFF = 600.0
# Overdue bot turns looked at per pass (the oldest first); the rest wait for the next pass.
BATCH = 500

_LIVE = {JobStatus.SCHEDULED, JobStatus.DEFERRED}


# The fields of a game's state hash the sweeper reads: see `_head`.
_HEAD_FIELDS = ["version", "to_act", "status", "bot_job"]


def _head(fields: list[Any]) -> tuple[int, int, str | None] | None:
    """(version, seat to act, the bot job playing that turn after its own when one does)
    of an active game from its state hash fields, else None."""
    version, to_act, status, bot_job = fields
    if isinstance(status, bytes):
        status = status.decode()
    if version is None or to_act in (None, b"", "") or status != "active":
        return None  # gone or over; the API drops it from bot_turns itself
    if isinstance(bot_job, bytes):
        bot_job = bot_job.decode()
    return int(version), int(to_act), bot_job or None


alive_key = keys.worker_alive
sweeps_key = keys.sweeps
lock_key = keys.sweeper_lock


class Sweeper:
    """Re-enqueues lost bot turns; also keeps its own worker's liveness key fresh."""

    def __init__(self, connection: redis.Redis, *, worker_name: str | None = None,
                 grace: float = DEFAULT_GRACE, interval: float = DEFAULT_INTERVAL,
                 queue_name: str = QUEUE, games: GameClient | None = None) -> None:
        self.connection = connection  # the queues' Redis (RQ), liveness, locks
        self.games = connection if games is None else games  # the game store
        self.worker_name = worker_name
        self.grace = grace
        self.interval = interval
        self.queue = Queue(queue_name, connection=connection)
        self.store = Store(self.games, retention=tournaments.retention())
        self._take = self.games.register_script(clocks.TAKE)

    def heartbeat(self) -> None:
        """Mark this sweeper's worker process alive for a few seconds."""
        if self.worker_name:
            self.connection.set(alive_key(self.worker_name), str(time.time()), ex=ALIVE_TTL)

    def forget(self) -> None:
        """Drop the liveness key at a clean exit."""
        if self.worker_name:
            self.connection.delete(alive_key(self.worker_name))

    def sweep_once(self, now: float | None = None, *, elect: bool = True) -> list[str]:
        """One pass; returns the ids of the jobs enqueued again."""
        now = time.time() if now is None else now
        if elect:
            ms = max(100, int(self.interval * 900))
            if not self.connection.set(lock_key(), self.worker_name or "sweeper", nx=True, px=ms):
                return []
        retries.enqueue_due(self.connection, now)
        clocks.sweep_clocks(self.store, self.queue, int(now * 1000))
        overdue = self.games.zrangebyscore(keys.bot_turns(), "-inf", now - self.grace,
                                                start=0, num=BATCH, withscores=True)
        if not overdue:
            return []
        game_ids = [raw.decode() if isinstance(raw, bytes) else str(raw) for raw, _ in overdue]
        # Two round trips for the whole batch: the games' heads, then their jobs.
        with self.games.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(keys.game_state(game_id), _HEAD_FIELDS)
            heads = [_head(fields) for fields in pipe.execute()]
        if self.store.split_indexes:
            heads = self._drop_stale(game_ids, overdue, heads)
        turns = [(game_id, since, head) for game_id, (_, since), head
                 in zip(game_ids, overdue, heads, strict=True) if head is not None]
        jobs = Job.fetch_many([job_id(g, h[0]) for g, _, h in turns], connection=self.connection)
        enqueued = []
        for (game_id, since, (version, seat, bot_job)), job in zip(turns, jobs, strict=True):
            try:
                if (job is None or not self._is_live(job)) and self._chained(bot_job):
                    continue
                again = self._sweep_turn(game_id, version, seat, job, now, now - since)
            except redis.RedisError:
                raise
            except Exception:  # one odd game must not stop the sweep of the others
                log.exception("sweeping %s failed", game_id)
                continue
            if again:
                enqueued.append(again)
        return enqueued

    def _sweep_turn(self, game_id: str, version: int, seat: int, job: Job | None, now: float,
                    waited: float) -> str | None:
        jid = job_id(game_id, version)
        if job is not None and self._is_live(job):
            return None
        # A turn that keeps failing (a bot bug) is retried at a doubling pace, not every pass.
        sweeps = int(self.connection.get(sweeps_key(jid)) or 0)
        if sweeps and waited < min(self.grace * 2 ** sweeps, MAX_BACKOFF):
            return None
        if job is not None:
            status = job.get_status(refresh=False)
            log.warning("bot turn %s: job %s, enqueued again", job.id,
                        getattr(status, "value", status))
            job.delete()
        else:
            log.warning("bot turn %s had no job, enqueued again", jid)
        if not enqueue_turn(self.queue, game_id, seat, version,
                            f"seat {seat} of {game_id} at version {version} (swept)"):
            return None  # another sweeper was quicker
        with self.connection.pipeline() as pipe:
            pipe.incr(sweeps_key(jid))
            pipe.expire(sweeps_key(jid), 24 * 3600)
            pipe.execute()
        # Restart the clock of this turn's wait.
        self.games.zadd(keys.bot_turns(), {game_id: now}, xx=True)
        return jid

    def _drop_stale(self, game_ids: list[str], overdue: list[tuple[Any, float]],
                    heads: list[tuple[int, int, str | None] | None],
                    ) -> list[tuple[int, int, str | None] | None]:
        """With split indexes (a cluster: api.store), entries are written ahead of their
        commit and never removed by the API: drop those whose game has no bot to act (over,
        gone, a human's turn), each only while its score is the one read (a move that made
        it true again since rewrote it); the heads of the others."""
        kept: list[tuple[int, int, str | None] | None] = []
        for game_id, (_, score), head in zip(game_ids, overdue, heads, strict=True):
            if head is not None and self._bot_seat(game_id, head[1]):
                kept.append(head)
                continue
            self._take(keys=[keys.bot_turns()], args=[game_id, repr(score)])
            kept.append(None)
        return kept

    def _bot_seat(self, game_id: str, seat: int) -> bool:
        """Whether `seat` of the game is played by a bot now (its creation's, or one that
        took it over)."""
        meta = self.store.current_meta(game_id)
        if meta is None:
            return False
        return effective_seat(meta, seat_states(self.games, game_id), seat)["kind"] == "bot"

    def _chained(self, bot_job: str | None) -> bool:
        """Whether the turn is held by a live job playing it after its own turn (a worker
        plays a game's consecutive bot turns in one job: `ai_worker.jobs`)."""
        if bot_job is None:
            return False
        job = Job.fetch_many([bot_job], connection=self.connection)[0]
        return job is not None and self._is_live(job)

    def _is_live(self, job: Job) -> bool:
        status = job.get_status(refresh=False)
        if status in _LIVE:
            return True
        if status == JobStatus.FAILED and retries.waiting(self.connection, [job.id])[0]:
            return True  # its retry's back-off runs (api.retries)
        if status == JobStatus.QUEUED:
            # Only while it waits on its queue: a worker pops a job off the queue (LPOP) and
            # only then marks it started, so a worker killed in between leaves a "queued"
            # job that no queue holds and no worker will ever take.
            return self.connection.lpos(Queue(job.origin, connection=self.connection).key,
                                        job.id) is not None
        if status == JobStatus.STARTED:
            return self._worker_alive(job.worker_name or "")
        return False  # finished without moving, failed, stopped, canceled

    def _worker_alive(self, name: str) -> bool:
        if not name:
            return True  # just being picked up
        if name.startswith(WORKER_PREFIX):
            return bool(self.connection.exists(alive_key(name)))
        # A plain `rq worker`: trust RQ's own (slow) worker registration.
        return bool(self.connection.exists(f"rq:worker:{name}"))

    def run(self, stop: threading.Event) -> None:
        """Heartbeat and sweep every `interval` seconds until `stop` is set."""
        while not stop.is_set():
            try:
                self.heartbeat()
                self.sweep_once()
                # Resumes tournaments (see its docstring): kicked on the queues' Redis, read in
                # the game store.
                tournaments.poll(self.connection, game_store=self.games)
            except redis.RedisError as exc:
                log.warning("sweeper: Redis unavailable (%s)", exc)
            except Exception:
                log.exception("sweeper pass failed")
            stop.wait(self.interval)


def start_thread(connection: redis.Redis,
                 **options: Any) -> tuple[threading.Thread, threading.Event, Sweeper]:
    """Run a Sweeper in a daemon thread; set the returned event to stop it."""
    sweeper = Sweeper(connection, **options)
    sweeper.heartbeat()
    stop = threading.Event()
    thread = threading.Thread(target=sweeper.run, args=(stop,), name="bgb-sweeper", daemon=True)
    thread.start()
    return thread, stop, sweeper
