"""The worker process's RQ worker."""

from __future__ import annotations

import pytest


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
