"""A tournament survives its processes: a worker killed and the API restarted mid-tournament,
it completes by itself with exactly the scheduled games. And a bot over its budget forfeits
its moves to random ones, recorded with the game and shown by its read and its log."""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.e2e.conftest import Stack
from tests.e2e.test_tournaments import check_played_once, check_standings, wait_ended

pytestmark = pytest.mark.e2e


def _wait_finished_games(stack: Stack, tournament_id: str, count: int,
                         timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while stack.client.tournament(tournament_id)["progress"]["finished"] < count:
        if time.monotonic() > deadline:
            raise TimeoutError(f"fewer than {count} games ended")
        time.sleep(0.1)


def test_worker_killed_and_api_restarted_mid_tournament(bare_stack: Stack) -> None:
    stack = bare_stack
    created = stack.client.create_tournament(
        "toy-pontoon", [{"bot": "random"}, {"bot": "greedy"}, {"bot": "random", "name": "r2"}],
        # Enough deals that the games (milliseconds each) are still being played when the
        # worker is killed after the first three.
        {"players": 2}, deals=8, max_parallel=3, seed=9)
    tournament_id = created["id"]
    worker = stack.start_worker()
    _wait_finished_games(stack, tournament_id, 3)
    os.killpg(worker.pid, signal.SIGKILL)  # mid-game, maybe mid-schedule: no clean-up
    worker.wait()
    stack.workers.remove(worker)
    assert stack.api is not None
    stack._stop([stack.api])
    stack.start_api()
    assert stack.client.tournament(tournament_id)["status"] == "active"
    stack.start_worker()
    stack.start_worker()
    body = wait_ended(stack.client, tournament_id, timeout=120)
    assert body["status"] == "finished"
    games = check_played_once(stack, body)
    assert len(games) == 3 * 2 * 8
    check_standings(body, games)


def test_a_bot_over_its_budget_forfeits_to_random_moves(bare_stack: Stack) -> None:
    stack = bare_stack
    stack.stop_workers()
    saved = dict(stack.env)
    # Every decision takes 0.4 s more than the bot's own 20 ms budget; the grace is 100 ms.
    stack.env.update({"BGB_TEST_THINK_SECONDS": "0.4", "BGB_BOT_GRACE_MS": "100"})
    try:
        stack.start_worker("tests.e2e.slow_worker")
    finally:
        stack.env.clear()
        stack.env.update(saved)
    created = stack.client.create_tournament(
        "toy-pontoon", [{"bot": "mcts", "params": {"ms": 20}, "name": "slow"},
                        {"bot": "random"}], {"players": 2}, max_parallel=2)
    body = wait_ended(stack.client, created["id"], timeout=120)
    games = check_played_once(stack, body)
    forfeits = [f for game in games for f in game["forfeits"]]
    assert forfeits, games
    assert {f["bot"] for f in forfeits} == {"mcts"}
    assert all(f["elapsed_ms"] > f["budget_ms"] + f["grace_ms"] for f in forfeits)
    for game in games:  # every move of the slow seat was forfeited, none of the other's
        slow_seat = game["labels"].index("slow")
        moves = [m for m in stack.client.iter_moves(game["game_id"]) if m["seat"] == slow_seat]
        assert sorted(f["version"] for f in game["forfeits"]) == [m["index"] for m in moves]
        # The game itself shows them: its read, and each forfeited move's log entry.
        assert stack.client.get_game(game["game_id"])["forfeits"] == game["forfeits"]
        assert [m["forfeit"] for m in moves] == game["forfeits"]
    stack.stop_workers()
