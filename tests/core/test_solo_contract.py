"""Contract test of the solo mode: seeded games against Alfred at each difficulty, random player."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core import IllegalMove, get_game
from core.darwins_journey.alfred import AD
from tests.core.random_play import pick

GAME = get_game("darwins-journey")
GAMES_PER_DIFFICULTY = 500


def check_alfred(state: Any) -> None:
    """Alfred's own invariants, read through dump."""
    s = GAME.dump(state)["state"]
    al = s["alfred"]
    assert 0 <= s["coins"][1] <= AD.coin_max
    assert 1 <= al["bonus"] <= AD.track_length
    assert sorted(al["deck"] + al["drawn"]) == sorted(AD.cards)
    assert s["tk"][1] == 0 and s["reserve"][1] == [] and not any(s["obj_slots"][1])
    for row in s["seals"][1][:4]:
        assert len(row) <= 6
        assert all(row.count(c) <= 3 for c in "GBRY")
    assert s["seals"][1][4] == []
    assert sum(s["stamps"][1]) + s["tray"][1] + sum(e[1] for e in s["envelopes"]) == 12


def play(colour: str, seed: int, checks: bool) -> tuple[Any, list[dict[str, Any]]]:
    """One solo game with a random player; the final state and the move log."""
    state = GAME.new_game({"players": 1, "alfred": colour}, seed)
    rnd = random.Random(seed)
    log: list[dict[str, Any]] = []
    probe = rnd.randrange(20, 120)
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_moves(state)
        assert legal, "a seat to act always has a move"
        if seat == 1:
            assert len(legal) == 1, "Alfred's procedure dictates exactly one move"
            move = legal[0]
        else:
            move = pick(rnd, legal)
        copy = None
        if len(log) == probe:
            snapshot = GAME.dump(state)
            assert GAME.dump(GAME.load(snapshot)) == snapshot
            view = GAME.view(state, 0)
            assert "deck" not in view["alfred"], "Alfred's deck order is never in a view"
            det = GAME.determinize(view, 0, seed)
            assert GAME.view(det, 0) == view
            copy = GAME.load(snapshot)
            GAME.apply(copy, move)
        GAME.apply(state, move)
        if copy is not None:
            assert GAME.dump(copy) == GAME.dump(state), "a loaded snapshot plays on identically"
        log.append(move)
        if checks:
            check_alfred(state)
        assert len(log) < 3000
    return state, log


@pytest.mark.parametrize("colour", sorted(AD.boards))
def test_solo_games_finish_deterministically(colour: str) -> None:
    for seed in range(GAMES_PER_DIFFICULTY):
        state, log = play(colour, seed, checks=seed % 10 == 0)
        result = GAME.result(state)
        assert result["finished"] and len(result["scores"]) == 2
        assert sorted(result["ranking"]) == [0, 1] and len(result["winners"]) == 1
        if seed % 5 == 0:
            replay = GAME.new_game({"players": 1, "alfred": colour}, seed)
            for move in log:
                GAME.apply(replay, move)
            assert GAME.dump(replay) == GAME.dump(state)


def test_alfred_seat_and_options() -> None:
    assert GAME.seat_count({"players": 1, "alfred": "green"}) == 2
    assert GAME.automa_seats({"players": 1}) == {1: "alfred"}
    state = GAME.new_game({"players": 1, "alfred": "blue"}, 3)
    while GAME.to_act(state) == 0:
        GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_act(state) == 1
    with pytest.raises(IllegalMove):
        GAME.apply(state, {"type": "alfred", "card": 1, "option": 2, "kind": "rest", "worker": "A"})
