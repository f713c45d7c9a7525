"""Whole Flotilla games over HTTP with real bot workers."""

from __future__ import annotations

import pytest

from clients.sdk import seat_token
from tests.e2e.conftest import Stack
from tests.e2e.helpers import check_log, play_humans, wait_finished

pytestmark = pytest.mark.e2e

GAME = "flotilla"


def test_mcts_greedy_and_random_play_a_three_player_game(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "mcts", "params": {"iterations": 6, "rollout_depth": 2}},
             {"kind": "bot", "bot": "greedy"},
             {"kind": "bot", "bot": "random"}]
    created = client.create_game(GAME, {"players": 3}, seats, seed=11)
    final = wait_finished(client, created["id"], timeout=600)
    result = final["result"]
    assert len(result["scores"]) == 3 and result["ranking"]
    log = check_log(client, created["id"], final["version"])
    assert {m["seat"] for m in log} == {0, 1, 2}


def test_a_human_seat_plays_over_http_with_two_bots(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"},
             {"kind": "bot", "bot": "random"}]
    created = client.create_game(GAME, {"players": 3}, seats, seed=12)
    token = seat_token(created, 0)
    final = play_humans(client, created["id"], {0: token}, seed=4, timeout=600)
    assert final["status"] == "finished" and len(final["result"]["scores"]) == 3
    log = check_log(client, created["id"], final["version"])
    assert 0 in {m["seat"] for m in log}
