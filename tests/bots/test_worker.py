"""The worker process's RQ worker class: RQ's bookkeeping minus what repeats itself."""

from __future__ import annotations

import pytest
import redis
from rq import Queue, SimpleWorker

from ai_worker.worker import LeanWorker


def _noop() -> str:
    return "done"


def _commands_sent(redis_client: redis.Redis, worker_class: type[SimpleWorker],
                   jobs: int) -> int:
    """Commands sent outside pipelines (one round trip each) while a worker of
    `worker_class` runs `jobs` jobs; every job finished."""
    queue = Queue("bots", connection=redis_client)
    enqueued = [queue.enqueue(_noop) for _ in range(jobs)]
    sent: list[object] = []
    original = redis_client.execute_command

    def counted(*args: object, **options: object) -> object:
        sent.append(args[0])
        return original(*args, **options)

    redis_client.execute_command = counted  # type: ignore[method-assign]
    try:
        worker = worker_class([queue], connection=redis_client,
                              name=f"bgb-test-{worker_class.__name__}")
        assert worker.work(burst=True, with_scheduler=False)
    finally:
        del redis_client.execute_command
    for job in enqueued:
        job.refresh()
        assert job.get_status() == "finished" and job.return_value() == "done"
    return len(sent)


def test_the_lean_worker_runs_jobs_with_fewer_round_trips(redis_client: redis.Redis) -> None:
    plain = _commands_sent(redis_client, SimpleWorker, 10)
    lean = _commands_sent(redis_client, LeanWorker, 10)
    # Per job: no worker heartbeat (3 commands) before and after its dequeue, no second
    # "idle" state, no look for `rq suspend`: 8 round trips fewer, RQ's own all kept.
    assert lean <= plain - 7 * 10, (plain, lean)


def test_a_worker_connects_afresh_for_each_job(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its keep-alive connection is dropped when a job ends (a job plays a game's consecutive
    turns), so that two workers are not served by one API process for good; never within a
    job."""
    import ai_worker.jobs as jobs

    closed: list[int] = []
    played: list[int] = []

    class Session:
        def close(self) -> None:
            closed.append(len(played))

    class Api:
        session = Session()

    def play(game_id: str, turn: jobs.Turn, hold: object = None) -> tuple[str, object]:
        played.append(turn.version)
        held = jobs.Turn(turn.seat, turn.version + 1) if turn.version < 2 else None
        return "moved", held

    monkeypatch.setattr(jobs, "api_client", lambda: Api())
    monkeypatch.setattr(jobs, "_play_turn", play)
    assert jobs.play_turn("g", 0, 0) == "moved 3 turns, then moved"
    assert jobs.play_turn("h", 1, 0) == "moved 3 turns, then moved"
    assert closed == [3, 6]  # after each job's three turns, not after every turn
