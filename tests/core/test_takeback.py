"""core.takeback: which moves may be taken back, and replays of logs with take-backs."""

from __future__ import annotations

import random
from typing import Any

import pytest

import core
from core.takeback import Replay, TakebackRefused, can_take_back, revertible

GAMES = [("darwins-journey", {"players": 2}), ("encyclopedia", {"players": 1}),
         ("flotilla", {"players": 3})]


def _play(name: str, options: dict[str, Any], seed: int, moves: int
          ) -> list[tuple[Any, dict[str, Any], Any, list[dict[str, Any]]]]:
    """(state before, move, state after, events) of `moves` random moves."""
    game = core.get_game(name)
    state = game.new_game(options, seed)
    rng = random.Random(seed)
    played = []
    for _ in range(moves):
        if game.to_act(state) is None:
            break
        move = rng.choice(game.legal_moves(state))
        before = game.clone(state)
        events = game.apply(state, move)
        played.append((before, move, game.clone(state), events))
    return played


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_revertible_move_depends_on_nothing_hidden(name: str, options: dict[str, Any]
                                                     ) -> None:
    """Played on any state the mover's view allows, a revertible move gives every seat the
    same view: it drew nothing and revealed nothing (the games' `hidden` is complete)."""
    game = core.get_game(name)
    assert can_take_back(game)
    kinds = {True: 0, False: 0}
    for before, move, after, events in _play(name, options, 5, 150):
        ok = revertible(game, before, after, move, events)
        kinds[ok] += 1
        if not ok:
            continue
        seat = game.to_act(before)
        for sample in range(3):
            other = game.determinize(game.view(before, seat), seat, sample)
            game.apply(other, move)
            for viewer in (None, seat):  # the others see their own sampled hands
                assert game.view(other, viewer) == game.view(after, viewer), (move, viewer)
    assert kinds[True] and kinds[False], kinds


def test_replay_takes_moves_back_one_by_one() -> None:
    game = core.get_game("encyclopedia")
    state = game.new_game({"players": 1}, 3)
    replay = Replay(game, game.clone(state))
    rng = random.Random(3)
    dumps, index = [], 0
    # Seat 0's revertible moves in a row, then all taken back: the state each time before.
    while len(dumps) < 3:
        seat = game.to_act(replay.state)
        legal = game.legal_moves(replay.state)
        move = rng.choice(legal)
        before = game.dump(replay.state)
        probe = game.clone(replay.state)
        events = game.apply(probe, move)
        replay.move(index, seat, move)
        ok = seat == 0 and revertible(game, game.load(before), probe, move, events)
        dumps = [*dumps, (index, before)] if ok else []
        index += 1
    for at, before in reversed(dumps):
        replay.take_back(0, at)
        assert game.dump(replay.state) == before
    with pytest.raises(TakebackRefused):
        replay.take_back(0, dumps[0][0] - 1)


def test_a_game_without_hidden_takes_nothing_back() -> None:
    class Bare:
        def to_act(self, state: Any) -> int:
            return 0

    assert not can_take_back(Bare())  # type: ignore[arg-type]
    assert not revertible(Bare(), {}, {}, {"type": "x"}, [])  # type: ignore[arg-type]
