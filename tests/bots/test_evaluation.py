"""Rewards, margins and win shares that the search bots back up."""

from __future__ import annotations

from ai_worker.bots.evaluation import (
    GENERIC,
    get_evaluation,
    margins,
    rewards,
    shares,
    win_shares,
)
from tests.bots.tinygames import Trap
from tests.toygame import GAME as TOY

TRAP = Trap()


def test_margins_and_shares() -> None:
    assert margins([10.0, 4.0, 7.0]) == [3.0, -6.0, -3.0]
    assert margins([5.0]) == [5.0]
    assert shares([30.0, 10.0]) == [0.75, 0.25]
    assert shares([0.0, 0.0]) == [0.5, 0.5]


def test_rewards_stay_in_the_unit_interval_and_favour_the_leader() -> None:
    state = TRAP.new_game({}, 0)
    TRAP.apply(state, {"type": "grab"})
    TRAP.apply(state, {"type": "punish"})
    final = rewards(TRAP, state, GENERIC, 2)
    assert all(0.0 <= r <= 1.0 for r in final)
    assert final[1] > 0.5 > final[0]
    assert win_shares(TRAP, state, 2) == [0.0, 1.0]


def test_unknown_games_get_the_generic_evaluation() -> None:
    assert get_evaluation("no-such-game") is GENERIC
    state = TOY.new_game({"players": 2}, seed=1)
    assert GENERIC.evaluate(TOY, state, 0) == 0.0  # running: nothing known yet
