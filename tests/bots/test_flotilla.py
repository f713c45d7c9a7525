"""Bots play Flotilla through their views; the Flotilla evaluation is registered and sane."""

from __future__ import annotations

from typing import Any

import core
from ai_worker.bots import get_bot
from ai_worker.bots.evaluation import get_evaluation

GAME_NAME = "flotilla"
CHEAP: dict[str, dict[str, Any]] = {
    "random": {}, "greedy": {}, "mcts": {"iterations": 4, "rollout_depth": 2},
}


def play(options: dict[str, Any], bots: list[str], seed: int, max_steps: int) -> Any:
    """Play up to `max_steps` decisions, each seat choosing from its own view."""
    game = core.get_game(GAME_NAME)
    state = game.new_game(options, seed)
    step = 0
    while (seat := game.to_act(state)) is not None and step < max_steps:
        legal = game.legal_moves(state)
        name = bots[seat]
        move = get_bot(name).choose(game, game.view(state, seat), seat, legal, CHEAP[name],
                                    seed * 7919 + step)
        assert any(move is m for m in legal)
        game.apply(state, move)
        step += 1
    return state


def test_evaluation_is_registered() -> None:
    evaluation = get_evaluation(GAME_NAME)
    assert evaluation.evaluate_all is not None and evaluation.quiet is not None
    game = core.get_game(GAME_NAME)
    state = game.new_game({"players": 3}, 1)
    values = evaluation.evaluate_all(game, state)
    assert len(values) == 3 and all(isinstance(v, float) for v in values)


def test_random_and_greedy_play_a_whole_game() -> None:
    state = play({"players": 3}, ["greedy", "random", "greedy"], 3, 100_000)
    game = core.get_game(GAME_NAME)
    assert game.to_act(state) is None and game.result(state)["finished"]


def test_mcts_chooses_legal_moves() -> None:
    state = play({"players": 3}, ["mcts", "greedy", "random"], 5, 60)
    assert state is not None
