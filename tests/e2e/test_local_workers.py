"""Bot workers that post through the API app in their own process (BGB_BOT_API=local, as
`bgb serve` runs them): real worker processes play bot games and a tournament to the end,
a worker killed with SIGKILL mid-tournament loses no game and plays none twice, and a human
seat against a local bot sees the bot's moves through the HTTP API as ever."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import Stack, _start
from tests.e2e.helpers import check_log, wait_finished
from tests.e2e.test_tournaments import check_played_once, check_standings, wait_ended

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def local_stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The API under gunicorn; its workers (started by each test) post in process."""
    running = _start(redis_url, tmp_path_factory.mktemp("e2e-local-logs"), workers=0)
    running.env["BGB_BOT_API"] = "local"
    del running.env["BGB_WORKER_NICE"]  # the default, as `bgb serve` runs them
    yield running
    running.stop()


def test_local_workers_play_bot_games_to_the_end(local_stack: Stack) -> None:
    stack = local_stack
    worker = stack.start_worker()
    stack.start_worker()
    # Bot workers yield the CPU to Redis and the API (BGB_WORKER_NICE, default 10).
    deadline = time.monotonic() + 30
    while os.getpriority(os.PRIO_PROCESS, worker.pid) != os.getpriority(os.PRIO_PROCESS, 0) + 10:
        assert time.monotonic() < deadline, stack.log("worker-0")
        time.sleep(0.05)
    client = stack.client
    games = [client.create_game(game, {"players": 2},
                                seats=[{"kind": "bot", "bot": "random"},
                                       {"kind": "bot", "bot": "greedy"}])["id"]
             for game in ("toy-pontoon", "darwins-journey", "toy-pontoon")]
    for game_id in games:
        final = wait_finished(client, game_id, timeout=120)
        assert final["status"] == "finished", stack.log("worker-0")
        check_log(client, game_id, final["version"])  # every version once, in order
    # A human seat against a local bot: the bot answers each human move.
    created = client.create_game("toy-pontoon", {"players": 2},
                                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    token = created["seats"][0]["token"]
    body = client.wait_for_turn(created["id"], token, timeout=30)
    moves = 0
    while body["status"] == "active":
        assert body["to_act"] == 0
        answer = client.move(created["id"], token, body["legal_moves"][0], body["version"])
        moves += 1
        body = (client.get_game(created["id"], token) if answer["status"] != "active"
                else client.wait_for_turn(created["id"], token, timeout=30))
    assert moves > 0 and body["status"] == "finished"
    stack.stop_workers()


def test_a_local_worker_killed_mid_tournament_loses_no_game(local_stack: Stack) -> None:
    stack = local_stack
    created = stack.client.create_tournament(
        "toy-pontoon", [{"bot": "random"}, {"bot": "greedy"}], {"players": 2}, deals=12,
        max_parallel=4, seed=5)
    killed = stack.start_worker()
    deadline = time.monotonic() + 60
    while stack.client.tournament(created["id"])["progress"]["finished"] < 2:
        assert time.monotonic() < deadline, stack.log("worker-0")
        time.sleep(0.05)
    os.killpg(killed.pid, signal.SIGKILL)  # maybe mid-turn, holding a game's next turns
    killed.wait()
    stack.workers.remove(killed)
    stack.start_worker()
    body = wait_ended(stack.client, created["id"], timeout=180)
    assert body["status"] == "finished"
    games = check_played_once(stack, body)
    assert len(games) == 2 * 12
    check_standings(body, games)
    stack.stop_workers()
