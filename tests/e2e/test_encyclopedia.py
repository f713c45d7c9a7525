"""Whole Encyclopedia games over HTTP with real bot workers."""

from __future__ import annotations

import pytest

from clients.sdk import seat_token
from tests.e2e.conftest import Stack
from tests.e2e.helpers import check_log, play_humans, wait_finished

pytestmark = pytest.mark.e2e

GAME = "encyclopedia"
SOLO = {"players": 1, "behaviour": 3, "scoring": 3}


def test_solo_game_against_the_ai_with_random_human_moves(stack: Stack) -> None:
    client = stack.client
    created = client.create_game(GAME, {"players": 1}, seed=3)
    seats = {s["seat"]: s for s in created["seats"]}
    assert seats[1]["kind"] == "bot" and seats[1].get("bot") == "automa"
    assert "token" not in seats[1]
    token = seat_token(created, 0)
    final = play_humans(client, created["id"], {0: token}, seed=9, timeout=180)
    assert final["status"] == "finished" and len(final["result"]["scores"]) == 2
    log = check_log(client, created["id"], final["version"])
    assert 1 in {m["seat"] for m in log}
    # the AI's cards were drawn at random: the human's view never shows them
    view = client.get_game(created["id"], token)["view"]
    assert view["ai"]["behaviour"] is None and view["ai"]["scoring"] is None
    assert isinstance(view["adeck"], int) and isinstance(view["bag"], list)


def test_three_player_game_of_mcts_greedy_random(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "mcts", "params": {"iterations": 6}},
             {"kind": "bot", "bot": "greedy"},
             {"kind": "bot", "bot": "random"}]
    created = client.create_game(GAME, {"players": 3}, seats, seed=17)
    final = wait_finished(client, created["id"], timeout=300)
    assert len(final["result"]["scores"]) == 3 and final["result"]["ranking"]
    log = check_log(client, created["id"], final["version"])
    assert {m["seat"] for m in log} == {0, 1, 2}


def test_solo_game_of_mcts_against_the_ai(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "mcts", "params": {"iterations": 6}},
             {"kind": "bot", "bot": "alfred"}]
    created = client.create_game(GAME, SOLO, seats, seed=18)
    final = wait_finished(client, created["id"], timeout=300)
    assert final["result"]["scores"]
    check_log(client, created["id"], final["version"])


def test_solo_tournament_seats_the_ai_itself(stack: Stack) -> None:
    from clients import tournament

    standings = tournament.run(stack.client, GAME, [tournament.Entrant("random", "random")],
                               games=2, options=SOLO, seed=5)
    assert not standings.errors
    assert {label: r.games for label, r in standings.records.items()} == {
        "random": 2, "automa": 2}
