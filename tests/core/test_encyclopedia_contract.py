"""Contract test: seeded random Encyclopedia games (1-4 players) through the public contract.

By default a reduced count runs (CI time); `BGB_FULL=1` plays the full 1,000 games with
every check at every step.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

import core.encyclopedia  # noqa: F401  (registers the game even before core lists it)
from core import IllegalMove, InvalidOptions, get_game
from core.contract import BadSnapshot, canonical
from tests.core.random_play import pick

GAME = get_game("encyclopedia")
FULL = os.environ.get("BGB_FULL") == "1"
GAMES = 1000 if FULL else 160  # over 1-4 players
STEP_CHECKED = 1000 if FULL else 24  # games whose every step is dumped, loaded and checked


def check_invariants(state: Any) -> None:
    """Conservation laws read through dump (the public snapshot)."""
    s = GAME.dump(state)["state"]
    dice = list(s["bag"]) + list(s["to_place"]) + list(s["on_cards"])
    dice += [d for board in s["spaces"] for space in board for d in space]
    dice += [d for area in s["areas"] for d in area]
    dice += [d for slots in s["cont"] for d in slots if d >= 0]
    dice += [f[2] for f in s["stack"] if f[0] == "mod"]
    assert sorted(dice) == list(range(20)), "20 dice, each in exactly one place"
    animals = (s["adisplay"] + s["adeck"] + s["adiscard"] + s["removed"]
               + [c for h in s["hand"] for c in h] + [c for p in s["published"] for c in p])
    assert sorted(animals) == list(range(75))
    experts = (s["xdisplay"] + s["xdeck"] + s["xdiscard"]
               + [c for b in s["experts"] for x in b for c in x]
               + [f[2] for f in s["stack"] if f[0] == "xplace"])
    assert sorted(experts) == list(range(55))
    for key in ("coins", "tokens", "seals", "vp", "rep", "published_n"):
        assert all(x >= 0 for x in s[key]), key
    assert all(r <= 14 for r in s["rep"])
    assert all(x >= 0 for g in s["grid"] for x in g)


def play(seed: int, players: int, checks: bool = False,
         options: dict[str, Any] | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """One random game; returns the final state and the move log."""
    state = GAME.new_game({"players": players, **(options or {})}, seed)
    rnd = random.Random(seed)
    log = []
    while GAME.to_act(state) is not None:
        moves = GAME.legal_moves(state)
        assert moves, "a seat to act always has a move"
        move = pick(rnd, moves)
        assert isinstance(move["label"], str) and move["label"]
        GAME.apply(state, canonical(move))
        log.append(canonical(move))
        if checks:
            check_invariants(state)
            d = GAME.dump(state)
            assert json.loads(json.dumps(d)) == d
            assert GAME.dump(GAME.load(d)) == d
        assert len(log) < 5000
    return state, log


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_many_random_games(players: int) -> None:
    """E1.1 / E1.5 / E20.1: random games finish; every dice, card and resource law holds;
    scores equal their breakdown (full 1,000 games with BGB_FULL=1)."""
    for i in range(GAMES // 4):
        seed = i * 4 + players
        state, _ = play(seed, players, checks=i < STEP_CHECKED // 4 or i % 10 == 0)
        check_invariants(state)
        res = GAME.result(state)
        assert res["finished"] and res["winners"]
        for p in range(GAME.seat_count({"players": players})):
            parts = dict(res["breakdown"][p])
            total = parts.pop("total")
            assert total == sum(parts.values()) == res["scores"][p]
        assert GAME.legal_moves(state) == []


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_replay_load_and_determinize(players: int) -> None:
    """Replays are identical; load(dump) at a random point plays on identically; every view
    survives determinize (E23.4)."""
    for seed in range(3 if not FULL else 25):
        final, log = play(1000 + seed, players)
        replay = GAME.new_game({"players": players}, 1000 + seed)
        rnd = random.Random(seed)
        cut = rnd.randrange(len(log))
        branch = None
        for i, move in enumerate(log):
            if i == cut:
                branch = GAME.load(GAME.dump(replay))
            if i % 13 == 0:
                for seat in range(replay.n):
                    v = GAME.view(replay, seat)
                    det = GAME.determinize(v, seat, rnd.randrange(1 << 30))
                    assert GAME.view(det, seat) == v
                    if GAME.to_act(replay) == seat:
                        assert GAME.legal_moves(det) == GAME.legal_moves(replay)
            GAME.apply(replay, move)
            if branch is not None:
                GAME.apply(branch, move)
        assert GAME.dump(replay) == GAME.dump(final)
        assert branch is not None and GAME.dump(branch) == GAME.dump(final)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_determinized_states_play_to_the_end(players: int) -> None:
    """A state sampled from a view is a full, playable game."""
    for seed in range(6):
        state = GAME.new_game({"players": players}, 2000 + seed)
        rnd = random.Random(seed)
        for _ in range(rnd.randrange(0, 200)):
            if GAME.to_act(state) is None:
                break
            GAME.apply(state, pick(rnd, GAME.legal_moves(state)))
        seat = rnd.randrange(state.n)
        det = GAME.determinize(GAME.view(state, seat), seat, seed)
        check_invariants(det)
        while GAME.to_act(det) is not None:
            GAME.apply(det, pick(rnd, GAME.legal_moves(det)))
        check_invariants(det)
        assert GAME.result(det)["finished"]


def test_clone_is_independent() -> None:
    """Moves on a clone do not touch the original."""
    state = GAME.new_game({"players": 3}, 5)
    before = GAME.dump(state)
    copy = GAME.clone(state)
    rnd = random.Random(5)
    for _ in range(150):
        if GAME.to_act(copy) is None:
            break
        GAME.apply(copy, pick(rnd, GAME.legal_moves(copy)))
    assert GAME.dump(state) == before


def _containers(value: Any, depth: int) -> list[Any]:
    """The lists and dicts `value` holds down to `depth` levels (itself included)."""
    if depth <= 0 or not isinstance(value, (list, dict)):
        return []
    items = value.values() if isinstance(value, dict) else value
    return [value, *(c for v in items for c in _containers(v, depth - 1))]


def test_clone_copies_every_field_as_deep_as_the_fields_table_says() -> None:
    """`clone` is written out field by field: it copies each field of `_FIELDS` (an equal
    value) and shares no list or dict with the original down to the field's depth."""
    from core.encyclopedia.state import _FIELDS

    rnd = random.Random(3)
    state = GAME.new_game({"players": 1, "behaviour": 2, "scoring": 3}, 3)
    for _ in range(120):  # dice on boards, cards in hand, experts placed
        GAME.apply(state, pick(rnd, GAME.legal_moves(state)))
    copy = GAME.clone(state)
    for name, depth in _FIELDS.items():
        original, copied = getattr(state, name), getattr(copy, name)
        assert copied == original, name
        depth = 2 if depth == -1 else depth  # a flat dict and the lists it holds
        mine = {id(c) for c in _containers(original, depth)}
        assert not mine & {id(c) for c in _containers(copied, depth)}, name


def test_illegal_move_leaves_state_untouched() -> None:
    """A move not in legal_moves raises IllegalMove and changes nothing."""
    state = GAME.new_game({"players": 2}, 3)
    before = GAME.dump(state)
    for bad in ({"type": "take", "owner": 0, "space": 0, "die": 0}, {"type": "draft"}, "x"):
        with pytest.raises(IllegalMove):
            GAME.apply(state, bad)  # type: ignore[arg-type]
    assert GAME.dump(state) == before


def test_options_are_validated() -> None:
    """Bad options name the option; E22.17: the AI's cards are options in solo only."""
    for options, name in (({"players": 5}, "players"), ({"players": "2"}, "players"),
                          ({"players": True}, "players"), ({"colour": 1}, "colour"),
                          ({"players": 2, "behaviour": 2}, "behaviour"),
                          ({"players": 1, "scoring": 4}, "scoring")):
        with pytest.raises(InvalidOptions) as info:
            GAME.new_game(options, 1)
        assert info.value.option == name
    assert GAME.seat_count({"players": 3}) == 3
    assert GAME.seat_count({"players": 1, "behaviour": 3}) == 2
    assert GAME.automa_seats({"players": 1}) == {1: "automa"}
    assert GAME.automa_seats({"players": 4}) == {}


def test_bad_snapshot() -> None:
    """load refuses other games, versions and malformed states."""
    with pytest.raises(BadSnapshot):
        GAME.load({"game": "darwins-journey", "version": 1, "state": {}})
    with pytest.raises(BadSnapshot):
        GAME.load({"game": "encyclopedia", "version": 99, "state": {}})
    good = GAME.dump(GAME.new_game({"players": 2}, 5))
    missing = {**good, "state": {k: v for k, v in good["state"].items() if k != "coins"}}
    with pytest.raises(BadSnapshot, match="coins"):
        GAME.load(missing)
    with pytest.raises(BadSnapshot):
        GAME.load({**good, "state": {**good["state"], "spaces": 3}})
    assert GAME.dump(GAME.load(good)) == good
