"""Every bot plays Darwin's Journey to the end (2 players, and solo against Alfred)."""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

import pytest

import core
from ai_worker.bots import get_bot
from ai_worker.bots.evaluation import get_evaluation

GAME_NAME = "darwins-journey"
CHEAP: dict[str, dict[str, Any]] = {
    "random": {}, "greedy": {}, "alfred": {}, "mcts": {"iterations": 12, "rollout_depth": 3},
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


@pytest.mark.parametrize("bots", [["random", "random"], ["greedy", "random"],
                                  ["mcts", "greedy"]])
def test_two_player_game_to_the_end(bots: list[str]) -> None:
    game = _game()
    state = play(game, {"players": 2}, bots, seed=3)
    result = game.result(state)
    assert result["finished"]
    assert len(result["scores"]) == 2


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
def test_solo_game_against_alfred_to_the_end(bot: str) -> None:
    game = _game()
    options = {"players": 1, "alfred": "green"}
    automa = game.automa_seats(options)
    seats = [("alfred" if s in automa else bot) for s in range(game.seat_count(options))]
    state = play(game, options, seats, seed=5)
    assert game.result(state)["finished"]


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
def test_same_view_other_hidden_truth_same_move(bot: str) -> None:
    game = _game()
    state = game.new_game({"players": 2}, seed=8)
    # Play a few random moves so that decks and bags have been touched.
    for step in range(12):
        if game.to_act(state) is None:
            break
        legal = game.legal_moves(state)
        game.apply(state, legal[(step * 7) % len(legal)])
    seat = game.to_act(state)
    assert seat is not None
    view = game.view(state, seat)
    other = game.determinize(view, seat, seed=12345)
    assert game.view(other, seat) == view
    # a new instance each time: a bot that keeps trees (mcts) depends on its past
    moves = [type(get_bot(bot))().choose(game, game.view(s, seat), seat, game.legal_moves(s),
                                         CHEAP[bot], seed=4) for s in (state, other)]
    assert moves[0] == moves[1]


def test_evaluation_is_finite_for_every_seat() -> None:
    game = _game()
    evaluation = get_evaluation(GAME_NAME)
    state = game.new_game({"players": 3}, seed=2)
    for step in range(60):
        if game.to_act(state) is None:
            break
        for seat in range(3):
            assert math.isfinite(evaluation.evaluate(game, state, seat))
        legal = game.legal_moves(state)
        game.apply(state, legal[(step * 5) % len(legal)])


def _searches(params: dict[str, Any], decisions: int = 40) -> list[tuple[int, Any]]:
    """(seat, SearchStats) of each decision of one mcts bot playing every seat of a game."""
    game = _game()
    state = game.new_game({"players": 2}, seed=4)
    bot = type(get_bot("mcts"))()  # nothing kept from other tests' searches
    history = []
    for step in range(decisions):
        seat = game.to_act(state)
        assert seat is not None
        move, stats = bot.search(game, game.view(state, seat), seat, game.legal_moves(state),
                                 params, seed=step)
        history.append((seat, stats))
        game.apply(state, move)
    return history


@pytest.mark.parametrize("reuse", [True, False])
def test_mcts_reuses_its_tree_when_the_same_seat_decides_again(reuse: bool) -> None:
    history = _searches({"iterations": 40, "rollout_depth": 2, "reuse": reuse})
    # the decisions that followed one of the same seat
    carried = [after.reused for (seat, _), (again, after) in pairwise(history)
               if again == seat]
    assert carried, "no seat ever decided twice in a row"
    if reuse:
        assert any(r > 0 for r in carried)
    else:
        assert not any(carried)


@pytest.mark.parametrize("ponder", [True, False])
def test_mcts_ponders_the_next_decision_once_its_move_is_settled(ponder: bool) -> None:
    history = _searches({"iterations": 60, "rollout_depth": 2, "ponder": ponder})
    settled = [(i, st) for i, (_, st) in enumerate(history[:-1]) if st.stopped_early]
    assert settled, "no search ever settled its move before the budget ran out"
    if not ponder:
        assert all(st.pondered == 0 and st.iterations < 60 for _, st in settled)
        return
    pondered = [(i, st) for i, st in settled if st.pondered]
    assert pondered, "no settled move was followed by a decision of the same seat"
    for i, st in pondered:
        assert st.iterations == 60  # the whole budget is spent
        seat, after = history[i][0], history[i + 1]
        # the next decision (same seat, nothing revealed) starts from the pondered tree
        assert after[0] == seat and after[1].reused >= st.pondered
