"""Contract test: seeded random Flotilla games through the public contract only.

By default a reduced count runs (CI keeps to its time budget); BGB_FULL=1 plays the full
1,002 games (334 per player count), each checked at every step.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from core import IllegalMove, InvalidOptions, get_game
from core.contract import BadSnapshot, Game, canonical
from tests.core.flotilla_helpers import GAME, check_invariants, pick, play

FULL = os.environ.get("BGB_FULL") == "1"
GAMES = 334 if FULL else 12


def test_registered_and_contract() -> None:
    assert isinstance(get_game("flotilla"), Game)
    assert GAME.min_players == 3 and GAME.max_players == 5
    assert GAME.seat_count({"players": 4}) == 4 and GAME.automa_seats({"players": 5}) == {}
    schema = GAME.options_schema()
    assert schema["players"]["choices"] == [3, 4, 5]
    assert schema["captain_returns"]["default"] is True
    assert schema["open_hands"]["default"] is False


@pytest.mark.parametrize("bad", [{"players": 2}, {"players": 6}, {"players": "3"},
                                 {"players": True}, {"colour": 1}, {"captain_returns": 1},
                                 {"open_hands": "yes"}])
def test_f1_8_bad_options_rejected(bad: dict) -> None:
    """F1.8, F33.1: 3 to 5 players only, no variants beyond the A10 option."""
    with pytest.raises(InvalidOptions):
        GAME.new_game(bad, 1)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_many_random_games(players: int) -> None:
    """Random games end, invariants hold at every step, scores equal their breakdown."""
    for seed in range(GAMES):
        options = {"captain_returns": False} if seed % 4 == 3 else None
        state, _ = play(seed * 5 + players, players, checks=FULL or seed < 4, options=options)
        res = GAME.result(state)
        assert res["finished"] and res["winners"]
        for p in range(players):
            parts = dict(res["breakdown"][p])
            total = parts.pop("total")
            assert total == sum(parts.values()) == res["scores"][p]
        assert sorted(res["ranking"]) == list(range(players))
        assert GAME.legal_moves(state) == [] and GAME.to_act(state) is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_replay_and_dump_round_trip_at_every_step(players: int) -> None:
    """Same seed and log give the same game; dump/load/dump is the identity at every step."""
    for seed in range(3 if not FULL else 20):
        final, log = play(100 + seed, players, checks=False)
        state = GAME.new_game({"players": players}, 100 + seed)
        for move in log:
            data = GAME.dump(state)
            assert json.loads(json.dumps(data)) == data
            again = GAME.load(data)
            assert GAME.dump(again) == data
            assert GAME.legal_moves(again) == GAME.legal_moves(state)
            GAME.apply(state, move)
        assert GAME.dump(state) == GAME.dump(final)


def test_clone_is_independent() -> None:
    state = GAME.new_game({"players": 3}, 5)
    rnd = random.Random(5)
    for _ in range(300):
        if GAME.to_act(state) is None:
            break
        copy = GAME.clone(state)
        before = GAME.dump(copy)
        GAME.apply(state, canonical(pick(rnd, GAME.legal_moves(state))))
        assert GAME.dump(copy) == before
        check_invariants(copy)


def test_illegal_moves_leave_the_state_alone() -> None:
    state = GAME.new_game({"players": 3}, 2)
    before = GAME.dump(state)
    for bad in ({"type": "play", "card": 99}, {"type": "fly"}, "play", {"type": "done"}):
        with pytest.raises(IllegalMove):
            GAME.apply(state, bad)
    assert GAME.dump(state) == before


def test_bad_snapshots_rejected() -> None:
    data = GAME.dump(GAME.new_game({"players": 3}, 2))
    for bad in ({"game": "darwins-journey"}, {**data, "version": 99},
                {**data, "state": {"n": 3}}, {**data, "state": None}):
        with pytest.raises(BadSnapshot):
            GAME.load(bad)


def test_deterministic_from_seed() -> None:
    a, log_a = play(77, 4, checks=False)
    b, log_b = play(77, 4, checks=False)
    assert log_a == log_b and GAME.dump(a) == GAME.dump(b)
    c = GAME.new_game({"players": 4}, 78)
    assert GAME.dump(c) != GAME.dump(GAME.new_game({"players": 4}, 77))
