"""Every bot plays Encyclopedia to the end (2 and 3 players, and solo against the AI)."""

from __future__ import annotations

from typing import Any

import pytest

import core
import core.encyclopedia  # noqa: F401  (registers the game even before core lists it)
from ai_worker.bots import get_bot
from ai_worker.bots.evaluation import get_evaluation

GAME_NAME = "encyclopedia"
CHEAP: dict[str, dict[str, Any]] = {
    "random": {}, "greedy": {}, "automa": {}, "alfred": {},
    "mcts": {"iterations": 8, "rollout_depth": 3},
}


def _game() -> core.Game:
    return core.get_game(GAME_NAME)


def play(game: core.Game, options: dict[str, Any], bots: list[str], seed: int) -> Any:
    """Play a whole game, each seat choosing from its own view."""
    state = game.new_game(options, seed)
    step = 0
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_moves(state)
        name = bots[seat]
        move = get_bot(name).choose(game, game.view(state, seat), seat, legal, CHEAP[name],
                                    seed * 7919 + step)
        assert any(move is m for m in legal)
        game.apply(state, move)
        step += 1
        assert step < 20_000, "the game does not end"
    return state


@pytest.mark.parametrize("bots", [["random", "random"], ["greedy", "random", "random"],
                                  ["mcts", "greedy"]])
def test_game_to_the_end(bots: list[str]) -> None:
    game = _game()
    state = play(game, {"players": len(bots)}, bots, seed=3)
    result = game.result(state)
    assert result["finished"] and len(result["scores"]) == len(bots)


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
def test_solo_game_against_the_ai_to_the_end(bot: str) -> None:
    game = _game()
    options = {"players": 1, "behaviour": 3, "scoring": 3}
    automa = game.automa_seats(options)
    assert automa == {1: "automa"}
    seats = [(automa[s] if s in automa else bot) for s in range(game.seat_count(options))]
    state = play(game, options, seats, seed=5)
    assert game.result(state)["finished"]


@pytest.mark.parametrize("name", ["automa", "alfred"])
def test_automa_bot_relays_the_dictated_move(name: str) -> None:
    """The generic `automa` plays the AI's seat; `alfred` still does for old clients."""
    game = _game()
    state = game.new_game({"players": 1}, 2)
    while game.to_act(state) != 1:
        game.apply(state, game.legal_moves(state)[0])
    legal = game.legal_moves(state)
    move = get_bot(name).choose(game, game.view(state, 1), 1, legal, {}, 0)
    assert move is legal[0] and len(legal) == 1
    with pytest.raises(ValueError, match="not an automa seat"):
        get_bot(name).choose(game, game.view(state, 0), 0, legal, {}, 0)


def test_greedy_beats_random_on_points() -> None:
    game = _game()
    wins = 0
    for seed in range(4):
        state = play(game, {"players": 2}, ["greedy", "random"], seed=seed)
        scores = game.result(state)["scores"]
        wins += scores[0] > scores[1]
    assert wins >= 3


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
def test_same_view_other_hidden_truth_same_move(bot: str) -> None:
    game = _game()
    state = game.new_game({"players": 2}, seed=8)
    for step in range(40):
        legal = game.legal_moves(state)
        game.apply(state, legal[(step * 7) % len(legal)])
    seat = game.to_act(state)
    assert seat is not None
    view = game.view(state, seat)
    other = game.determinize(view, seat, seed=12345)
    assert game.view(other, seat) == view
    moves = [type(get_bot(bot))().choose(game, game.view(s, seat), seat, game.legal_moves(s),
                                         CHEAP[bot], seed=4) for s in (state, other)]
    assert moves[0] == moves[1]


def test_evaluation_is_registered() -> None:
    game = _game()
    evaluation = get_evaluation(GAME_NAME)
    state = game.new_game({"players": 2}, 1)
    assert evaluation.evaluate(game, state, 0) >= 0


@pytest.mark.parametrize("players", [1, 2])
def test_rollout_policy_and_quiet_on_every_position(players: int) -> None:
    import random

    from ai_worker.bots.eval_encyclopedia import quiet, rollout_policy
    game = _game()
    rnd = random.Random(players)
    for seed in range(3):
        state = game.new_game({"players": players}, seed)
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_moves(state)
            move = rollout_policy(game, state, legal, rnd)
            assert any(move is m for m in legal)
            assert quiet(game, state, seat) in (True, False)
            game.apply(state, move)
