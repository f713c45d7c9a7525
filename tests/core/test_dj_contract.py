"""Contract test: seeded random Darwin's Journey games through the public contract only."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from core import IllegalMove, InvalidOptions, get_game
from core.contract import BadSnapshot, canonical
from tests.core.random_play import pick

GAME = get_game("darwins-journey")


def check_invariants(state: Any) -> None:
    """Conservation laws and limits, read through dump (the public snapshot)."""
    s = GAME.dump(state)["state"]
    n = s["n"]
    regular = (len(s["box_seals"]) + sum(1 for c in s["academy"] if c) + len(s["seal_bag"])
               + sum(1 for p in range(n) for row in s["seals"][p] for c in row if c != "P"))
    assert regular == 56
    purple = s["purple"] + sum(row.count("P") for p in range(n) for row in s["seals"][p][1:])
    assert purple == 12
    for p in range(n):
        assert s["coins"][p] >= 0 and s["tk"][p] >= 0
        assert all(x >= 0 for x in s["stamps"][p]) and s["tray"][p] >= 0
        stamps = sum(s["stamps"][p]) + s["tray"][p] + sum(e[p] for e in s["envelopes"])
        assert stamps == 12
        assert sum(1 for x in s["explorers"][p] if x >= 0) <= 3
        assert s["tents"][p] == sum(slots.count(p) for slots in s["campsites"].values())
        assert s["lenses"][p] == list(s["loc_owner"].values()).count(p) <= 6
        assert len(s["reserve"][p]) <= 2
        assert all(len(row) <= 6 for row in s["seals"][p])
        assert 0 <= s["evo"][p] <= 36
    for loc, workers in s["loc_workers"].items():
        if s["loc_owner"][loc] == -1:
            assert not workers
        if loc.startswith(("special.", "explore.2", "explore.3", "navigate.2", "navigate.3",
                           "correspond.2", "correspond.3", "academy.2", "academy.3")):
            assert len(workers) <= 1


def play(
    seed: int, players: int, first_game: bool = False, checks: bool = True
) -> tuple[Any, list[dict[str, Any]]]:
    """One random game; returns the final state and the move log."""
    state = GAME.new_game({"players": players, "first_game": first_game}, seed)
    rnd = random.Random(seed)
    log = []
    while GAME.to_act(state) is not None:
        moves = GAME.legal_moves(state)
        assert moves, "a seat to act always has a move"
        for m in moves:
            assert isinstance(m["label"], str) and m["label"]
        move = pick(rnd, moves)
        GAME.apply(state, canonical(move))
        log.append(canonical(move))
        if checks:
            check_invariants(state)
        assert len(log) < 5000
    return state, log


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games(players: int) -> None:
    """700 random games per player count (2,100 in all) end without error, invariants hold."""
    for seed in range(700):
        state, _ = play(seed * 7 + players, players, first_game=seed % 5 == 0, checks=seed < 150)
        res = GAME.result(state)
        assert res["finished"]
        for p in range(players):
            parts = dict(res["breakdown"][p])
            total = parts.pop("total")
            assert total == sum(parts.values()) == res["scores"][p]
        assert sorted(res["ranking"]) == list(range(players))
        assert GAME.legal_moves(state) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_load_and_determinize(players: int) -> None:
    """Replays are bit-exact; load(dump) at random points plays on identically; views match."""
    for seed in range(12):
        final, log = play(1000 + seed, players, checks=False)
        replay = GAME.new_game({"players": players, "first_game": False}, 1000 + seed)
        rnd = random.Random(seed)
        cut = rnd.randrange(len(log))
        branch = None
        for i, move in enumerate(log):
            if i == cut:
                d = GAME.dump(replay)
                assert json.loads(json.dumps(d)) == d
                branch = GAME.load(d)
                assert GAME.dump(branch) == d
            if i % 17 == 0:
                for seat in range(players):
                    v = GAME.view(replay, seat)
                    assert "rng" not in v and not isinstance(v["seal_bag"], list)
                    det = GAME.determinize(v, seat, rnd.randrange(1 << 30))
                    assert GAME.view(det, seat) == v
                    if GAME.to_act(replay) == seat and v["phase"] != "draft":
                        assert GAME.legal_moves(det) == GAME.legal_moves(replay)
            GAME.apply(replay, move)
            if branch is not None:
                GAME.apply(branch, move)
        assert GAME.dump(replay) == GAME.dump(final)
        assert branch is not None and GAME.dump(branch) == GAME.dump(final)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinized_states_play_to_the_end(players: int) -> None:
    """A state sampled from a view (draft included) is a full, playable game."""
    for seed in range(15):
        state = GAME.new_game({"players": players}, 2000 + seed)
        rnd = random.Random(seed)
        for _ in range(rnd.randrange(0, 120)):
            if GAME.to_act(state) is None:
                break
            GAME.apply(state, pick(rnd, GAME.legal_moves(state)))
        seat = rnd.randrange(players)
        det = GAME.determinize(GAME.view(state, seat), seat, seed)
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
    for _ in range(60):
        if GAME.to_act(copy) is None:
            break
        GAME.apply(copy, pick(rnd, GAME.legal_moves(copy)))
    assert GAME.dump(state) == before


def test_illegal_move_leaves_state_untouched() -> None:
    """A move not in legal_moves raises IllegalMove and changes nothing."""
    state = GAME.new_game({"players": 2}, 3)
    before = GAME.dump(state)
    with pytest.raises(IllegalMove):
        GAME.apply(state, {"type": "place", "worker": 9, "location": "nowhere", "knowledge": 0})
    assert GAME.dump(state) == before


def test_options_are_validated() -> None:
    """Bad options name the option."""
    for options, name in (({"players": 5}, "players"), ({"players": "2"}, "players"),
                          ({"first_game": 1}, "first_game"), ({"colour": 1}, "colour"),
                          ({"players": 2, "alfred": "blue"}, "alfred")):
        with pytest.raises(InvalidOptions) as info:
            GAME.new_game(options, 1)
        assert info.value.option == name
    assert GAME.seat_count({"players": 3}) == 3
    assert GAME.seat_count({"players": 1, "alfred": "blue"}) == 2
    assert GAME.automa_seats({"players": 1}) == {1: "alfred"}
    assert GAME.automa_seats({"players": 4}) == {}


def test_bad_snapshot() -> None:
    """load refuses other games and versions."""
    with pytest.raises(BadSnapshot):
        GAME.load({"game": "toy-pontoon", "version": 1, "state": {}})
    with pytest.raises(BadSnapshot):
        GAME.load({"game": "darwins-journey", "version": 99, "state": {}})


def test_malformed_snapshot_names_what_is_wrong() -> None:
    """A snapshot missing a field, or with one of the wrong shape, is refused, not half-read."""
    good = GAME.dump(GAME.new_game({"players": 2}, 5))
    missing = {**good, "state": {k: v for k, v in good["state"].items() if k != "coins"}}
    with pytest.raises(BadSnapshot, match="coins"):
        GAME.load(missing)
    with pytest.raises(BadSnapshot):
        GAME.load({**good, "state": [1, 2]})
    wrong = {**good, "state": {**good["state"], "seals": 3}}
    with pytest.raises(BadSnapshot):
        GAME.load(wrong)
    assert GAME.dump(GAME.load(good)) == good


def test_secret_draft_moves_and_hidden_hands() -> None:
    """Draft picks are secret moves; a seat's view never shows another seat's hand."""
    state = GAME.new_game({"players": 3}, 11)
    moves = GAME.legal_moves(state)
    assert moves and all(m["type"] == "draft" and m["secret"] for m in moves)
    seat = GAME.to_act(state)
    other = (seat + 1) % 3
    v = GAME.view(state, other)
    assert sorted(m["card"] for m in moves) != v["hand"] or not v["hand"]
    assert "hands" not in v and "obj_decks" in v and isinstance(v["obj_decks"][0], int)


@pytest.mark.parametrize("options", [{"players": 1}, {"players": 2}, {"players": 4}])
def test_a_shared_dump_is_the_same_json(options: dict[str, Any]) -> None:
    """dump_shared (the API stores each move's snapshot with it) serializes as dump, with
    orjson and json alike, at every point of random games, and copies nothing."""
    import orjson

    from core import dump_for_storage

    for seed in range(4):
        state = GAME.new_game(options, seed)
        rnd = random.Random(seed)
        while True:
            shared, copied = GAME.dump_shared(state), GAME.dump(state)
            assert dump_for_storage(GAME, state) == shared
            assert orjson.dumps(shared) == orjson.dumps(copied)
            assert json.dumps(shared, separators=(",", ":")) == \
                json.dumps(copied, separators=(",", ":"))
            if GAME.to_act(state) is None:
                break
            GAME.apply(state, canonical(pick(rnd, GAME.legal_moves(state))))
    assert shared["state"]["hands"] is state.hands
