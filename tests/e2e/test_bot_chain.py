"""A job that plays a game's consecutive bot turns (ai_worker.jobs.play_turn): how long it
holds on, and what becomes of a turn it held when it fails (no server needed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import redis
from rq import Queue
from rq.job import Job

from ai_worker import jobs
from ai_worker.jobs import Turn


@dataclass
class _Job:
    id: str
    connection: redis.Redis


def _play(monkeypatch: pytest.MonkeyPatch, client: redis.Redis,
          turns: list[Any]) -> list[tuple[Turn, Any]]:
    """play_turn as the job "play-g-0", its turns scripted: each item of `turns` is what one
    `_play_turn` returns, or an exception it raises. Returns what each call was given."""
    calls: list[tuple[Turn, Any]] = []
    script = iter(turns)

    def scripted(game_id: str, turn: Turn, hold: Any = None) -> tuple[str, Turn | None]:
        calls.append((turn, hold))
        step = next(script)
        if isinstance(step, BaseException):
            raise step
        return step

    monkeypatch.setattr(jobs, "get_current_job", lambda: _Job("play-g-0", client))
    monkeypatch.setattr(jobs, "_play_turn", scripted)
    monkeypatch.setattr(jobs, "_reconnect", lambda: None)
    return calls


def test_a_job_plays_the_turns_it_holds_until_one_is_not_held(
        monkeypatch: pytest.MonkeyPatch, redis_client: redis.Redis) -> None:
    calls = _play(monkeypatch, redis_client, [("moved", Turn(1, 1, {"next": True})),
                                              ("moved", Turn(0, 2)), ("moved", None)])
    assert jobs.play_turn("g", 0, 0) == "moved 3 turns, then moved"
    assert [(turn.seat, turn.version) for turn, _ in calls] == [(0, 0), (1, 1), (0, 2)]
    assert calls[1][0].body == {"next": True}  # the game the move's answer brought
    # Every move may hold the next turn for this job until the chain's time is up.
    assert {hold[0] for _, hold in calls} == {"play-g-0"}
    assert Queue("bots", connection=redis_client).job_ids == []


def test_no_turn_is_held_once_the_chain_time_is_up(monkeypatch: pytest.MonkeyPatch,
                                                   redis_client: redis.Redis) -> None:
    seen: list[Any] = []
    monkeypatch.setattr(jobs, "get_current_job", lambda: _Job("play-g-0", redis_client))
    monkeypatch.setattr(jobs, "_reconnect", lambda: None)

    class FakeApi:
        def move(self, game_id: str, token: str, move: Any, version: int,
                 **options: Any) -> dict[str, Any]:
            seen.append(options.get("bot_job"))
            return {"status": "active", "to_act": 1, "version": version + 1}

    monkeypatch.setattr(jobs, "api_client", lambda: FakeApi())
    monkeypatch.setattr(jobs, "_bot_token", lambda *args, **kwargs: "token")
    monkeypatch.setattr(jobs, "timed_move", lambda *args: ({"type": "draw"}, None))
    body = {"status": "active", "version": 0, "to_act": 0, "seat": 0, "game": "toy-pontoon",
            "legal_moves": [{"type": "draw"}], "seats": [{"seat": 0, "bot": "random",
                                                          "params": {}}], "view": {}}
    assert jobs._play_turn("g", Turn(0, 0, body), ("play-g-0", 0.0)) == ("moved", None)
    assert seen == [None]  # past the time: the move asks the API to queue the next turn


def test_a_held_turn_the_job_fails_on_gets_a_job_of_its_own(
        monkeypatch: pytest.MonkeyPatch, redis_client: redis.Redis) -> None:
    _play(monkeypatch, redis_client, [("moved", Turn(1, 1)), ConnectionError("API gone")])
    with pytest.raises(ConnectionError):
        jobs.play_turn("g", 0, 0)
    job = Job.fetch("play-g-1", connection=redis_client)
    assert job.args == ("g", 1, 1) and "handed back" in job.description


def test_a_failure_on_the_jobs_own_turn_is_left_to_its_retries(
        monkeypatch: pytest.MonkeyPatch, redis_client: redis.Redis) -> None:
    _play(monkeypatch, redis_client, [ConnectionError("API gone")])
    with pytest.raises(ConnectionError):
        jobs.play_turn("g", 0, 0)
    assert Queue("bots", connection=redis_client).job_ids == []
