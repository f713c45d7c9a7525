"""Bots play whole games from views only, and a view is all they need."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from ai_worker.bots import get_bot
from core.contract import Game
from tests.bots.tinygames import Nim
from tests.toygame import CARDS
from tests.toygame import GAME as TOY

CHEAP = {"random": {}, "greedy": {}, "mcts": {"iterations": 60, "rollout_depth": 4}}


def play(game: Game, state: Any, bots: list[str], seed: int) -> Any:
    """Play `state` to the end, each seat choosing with its bot from its own view."""
    step = 0
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_moves(state)
        view = game.view(state, seat)
        name = bots[seat]
        move = get_bot(name).choose(game, view, seat, legal, CHEAP.get(name, {}), seed + step)
        assert any(move is m for m in legal), "a bot must return one of the legal dicts"
        game.apply(state, move)
        step += 1
    return state


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
@pytest.mark.parametrize("players", [1, 2, 3])
def test_every_bot_plays_the_toy_game_to_the_end(bot: str, players: int) -> None:
    for seed in range(3):
        state = play(TOY, TOY.new_game({"players": players}, seed), [bot] * players, seed)
        assert TOY.result(state)["finished"]


def test_mixed_table_plays_to_the_end() -> None:
    state = play(TOY, TOY.new_game({"players": 3}, 5), ["mcts", "greedy", "random"], 5)
    assert TOY.result(state)["finished"]


def _same_view_other_truth(seed: int) -> tuple[Any, Any]:
    """Two toy states seat 0 cannot tell apart: its hand is shared, the rest differs."""
    first = TOY.new_game({"players": 2}, seed)
    TOY.apply(first, {"type": "draw"})  # seat 0
    TOY.apply(first, {"type": "draw"})  # seat 1
    TOY.apply(first, {"type": "draw"})  # seat 0
    second = TOY.clone(first)
    hidden = second["deck"] + second["hands"][1]
    hidden.reverse()
    second["hands"][1] = hidden[: len(second["hands"][1])]
    second["deck"] = hidden[len(second["hands"][1]):]
    assert sorted(second["deck"] + second["hands"][1] + second["hands"][0]) == sorted(CARDS)
    return first, second


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_changing_hidden_parts_does_not_change_the_move(bot: str) -> None:
    for seed in range(4):
        first, second = _same_view_other_truth(seed)
        assert first != second
        view = TOY.view(first, 1)
        assert TOY.view(second, 1) == view
        pristine = copy.deepcopy(view)
        moves = []
        for state in (first, second):
            seen = TOY.view(state, 1)
            # a new instance each time: a bot that keeps trees (mcts) depends on its past
            fresh = type(get_bot(bot))()
            moves.append(fresh.choose(TOY, seen, 1, TOY.legal_moves(state), CHEAP[bot],
                                      seed=seed))
            assert seen == pristine, "a bot must not modify the view it is given"
        assert moves[0] == moves[1]


def test_alfred_relays_the_automa_move_and_refuses_other_seats() -> None:
    nim = Nim()
    state = nim.new_game({"pile": 7, "automa": True}, seed=0)
    nim.apply(state, {"type": "take", "stones": 2})
    legal = nim.legal_moves(state)
    assert get_bot("alfred").choose(nim, nim.view(state, 1), 1, legal, {}, seed=0) is legal[0]
    with pytest.raises(ValueError, match="not an automa seat"):
        get_bot("alfred").choose(nim, nim.view(state, 0), 0, legal, {}, seed=0)


def test_alfred_refuses_games_without_an_automa() -> None:
    state = TOY.new_game({"players": 2}, seed=0)
    with pytest.raises(ValueError, match="not an automa seat"):
        get_bot("alfred").choose(TOY, TOY.view(state, 0), 0, TOY.legal_moves(state), {}, seed=0)


def test_mcts_plays_against_an_automa_seat() -> None:
    nim = Nim()
    state = play(nim, nim.new_game({"pile": 9, "automa": True}, 0), ["mcts", "alfred"], 0)
    assert nim.result(state)["finished"]
