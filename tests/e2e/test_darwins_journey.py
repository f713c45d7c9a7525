"""Whole Darwin's Journey games over HTTP with real bot workers."""

from __future__ import annotations

import pytest

from clients.sdk import seat_token
from tests.e2e.conftest import Stack
from tests.e2e.helpers import check_log, play_humans, wait_finished

pytestmark = pytest.mark.e2e

GAME = "darwins-journey"
SOLO = {"players": 1, "alfred": "green"}


def test_two_bots_play_a_two_player_game_to_the_final_score(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    created = client.create_game(GAME, {"players": 2}, seats, seed=7)
    final = wait_finished(client, created["id"], timeout=120)
    result = final["result"]
    assert len(result["scores"]) == 2 and result["ranking"]
    log = check_log(client, created["id"], final["version"])
    assert {m["seat"] for m in log} == {0, 1}


def test_solo_game_against_alfred_with_random_human_moves(stack: Stack) -> None:
    client = stack.client
    created = client.create_game(GAME, SOLO, seed=3)
    seats = {s["seat"]: s for s in created["seats"]}
    alfred = [n for n, s in seats.items() if s.get("bot") == "alfred"]
    assert alfred and seats[alfred[0]]["kind"] == "bot" and "token" not in seats[alfred[0]]
    token = seat_token(created, 0)
    final = play_humans(client, created["id"], {0: token}, seed=9, timeout=120)
    assert final["status"] == "finished" and final["result"]["scores"]
    log = check_log(client, created["id"], final["version"])
    assert alfred[0] in {m["seat"] for m in log}
    # The human's view never shows Alfred's deck order (only its size).
    view = client.get_game(created["id"], token)["view"]
    assert "deck" not in (view.get("alfred") or {})


def test_mcts_against_greedy_two_player_game(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "mcts", "params": {"iterations": 10}},
             {"kind": "bot", "bot": "greedy"}]
    created = client.create_game(GAME, {"players": 2}, seats, seed=17)
    final = wait_finished(client, created["id"], timeout=180)
    assert len(final["result"]["scores"]) == 2
    check_log(client, created["id"], final["version"])


def test_mcts_against_alfred_solo_game(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "mcts", "params": {"iterations": 10}},
             {"kind": "bot", "bot": "alfred"}]
    created = client.create_game(GAME, SOLO, seats, seed=18)
    final = wait_finished(client, created["id"], timeout=180)
    assert final["result"]["scores"]
    check_log(client, created["id"], final["version"])


def test_solo_tournament_seats_alfred_itself(stack: Stack) -> None:
    from clients import tournament

    standings = tournament.run(stack.client, GAME, [tournament.Entrant("random", "random")],
                               games=2, options=SOLO, seed=5)
    assert not standings.errors
    assert {label: r.games for label, r in standings.records.items()} == {
        "random": 2, "alfred": 2}
