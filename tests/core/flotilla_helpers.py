"""Helpers of the Flotilla tests: random games through the contract, invariants, set-ups."""

from __future__ import annotations

import random
from typing import Any

from core import get_game
from core.contract import canonical
from core.flotilla import data as D

GAME = get_game("flotilla")
PASSIVE = {"skip", "done"}
GUILD_CARDS = [c["id"] for c in D.CARDS if c["id"] not in D.STARTER_CARDS]


def pick(rnd: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A random move, a passive one (skip, done) only one time in ten."""
    active = [m for m in moves if m["type"] not in PASSIVE]
    if active and rnd.random() < 0.9:
        return rnd.choice(active)
    return rnd.choice(moves)


def check_invariants(state: Any) -> None:
    """Component counts conserved and no negative supplies, read through `dump`."""
    s = GAME.dump(state)["state"]
    n = s["n"]
    tiles = list(s["ocean_bag"]) + [e[0] for e in s["board"].values() if e[0] >= 0]
    for p in range(n):
        tiles += s["tiles"][p]
    for frame in s["stack"]:
        if frame[0] == "place":
            tiles += frame[1]
        elif frame[0] == "place_at":
            tiles.append(frame[1])
    assert sorted(tiles) == list(range(len(D.TILES))), "every Ocean Tile exactly once"
    arts = list(s["art_bag"]) + list(s["art_box"]) + [a for hub in s["hub"] for a in hub]
    arts += [f[1] for f in s["stack"] if f[0] == "hub"]  # drawn, its reward resolving
    assert sorted(arts) == list(range(len(D.ARTIFACTS)))
    playing = [f[1] for f in s["stack"] if f[0] == "finish"]
    owned = list(s["crew_box"]) + [c for st in s["crew"] for c in st] + playing
    for p in range(n):
        owned += s["hand"][p] + s["discard"][p] + s["retired"][p]
    guild = sorted(c for c in owned if c not in D.STARTER_CARDS)
    assert guild == GUILD_CARDS, "every guild Crew Card exactly once"
    assert sum(1 for c in owned if c in D.STARTER_CARDS) == 6 * n
    assert s["vp_supply"] >= 0
    for p in range(n):
        assert s["coins"][p] >= 0
        assert min(s["reserve"][p]) >= 0
        assert all(min(c) >= 0 and sum(c) <= 4 for c in s["cargo"][p])
        assert 0 <= s["outposts"][p] <= 6
        assert sum(s["seals"][p]) <= 10
        assert 0 <= s["tox"][p] < D.TOX_TRACK and 0 <= s["penalty"][p] < len(D.PENALTY)
        assert len(s["skiffs"][p]) == 4
        if s["sky"][p]:
            assert all(c < 0 for c in s["skiffs"][p])
    assert all(1 <= d <= 4 for d in s["dials"])
    assert 0 <= s["sonar"] < len(D.SONAR)
    for cell, e in s["board"].items():
        assert (e[0] < 0) == (e[0] == -1 - e[2] and int(cell) == s["home"][e[2]])


def play(seed: int, players: int, checks: bool = True, options: dict[str, Any] | None = None
         ) -> tuple[Any, list[dict[str, Any]]]:
    """One random game; returns the final state and the move log."""
    state = GAME.new_game({"players": players, **(options or {})}, seed)
    rnd = random.Random(seed)
    log: list[dict[str, Any]] = []
    while GAME.to_act(state) is not None:
        moves = GAME.legal_moves(state)
        assert moves, "a seat to act always has a move"
        move = canonical(pick(rnd, moves))
        GAME.apply(state, move)
        log.append(move)
        if checks:
            check_invariants(state)
        assert len(log) < 20000
    return state, log


def fresh(players: int = 3, seed: int = 1, **options: Any) -> dict[str, Any]:
    """A new game's state."""
    return GAME.new_game({"players": players, **options}, seed)


def moves_of(state: Any, kind: str) -> list[dict[str, Any]]:
    return [m for m in GAME.legal_moves(state) if m["type"] == kind]


def do(state: Any, move_type: str, /, **fields: Any) -> list[dict[str, Any]]:
    """Apply the legal move of type `move_type` whose fields match (the first one)."""
    for m in GAME.legal_moves(state):
        if m["type"] == move_type and all(m.get(k) == v for k, v in fields.items()):
            return GAME.apply(state, canonical(m))
    raise AssertionError(f"no legal {move_type} {fields}: {GAME.legal_moves(state)}")


def run(state: dict[str, Any], p: int, ops: list[list[Any]]) -> list[dict[str, Any]]:
    """Resolve printed effects for seat `p` mid-turn (a "play" frame below keeps the turn)."""
    from core.flotilla import rules

    state["turn"] = p
    state["stack"] = [["play"], ["ops", [list(op) for op in ops], 0]]
    events: list[dict[str, Any]] = []
    rules.settle(state, events)
    return events


def top(state: dict[str, Any]) -> list[Any]:
    return state["stack"][-1]


def put(state: dict[str, Any], p: int, tile: int, cell: int, rot: int = 0) -> None:
    """Lay an Ocean Tile of seat `p` on the table (taken out of the bag)."""
    if tile in state["ocean_bag"]:
        state["ocean_bag"].remove(tile)
    state["board"][cell] = [tile, rot, p, 0, 0]


def tile_where(pred: Any) -> int:
    """The first Ocean Tile id whose data satisfies `pred`."""
    return next(t["id"] for t in D.TILES if pred(t))


def finish_turn(state: dict[str, Any], prefer: dict[str, Any] | None = None) -> None:
    """Resolve the rest of the turn: `prefer`red moves when legal, else "done"/"skip", else
    the first legal move."""
    seat = state["turn"]
    while state["turn"] == seat and not state["over"] and state["stack"] != [["play"]]:
        moves = GAME.legal_moves(state)
        chosen = None
        if prefer:
            chosen = next((m for m in moves if all(m.get(k) == v for k, v in prefer.items())),
                          None)
        chosen = chosen or next((m for m in moves if m["type"] in PASSIVE), moves[0])
        GAME.apply(state, canonical(chosen))


def end_turn(state: dict[str, Any]) -> None:
    """End the current turn now (whatever is pending is dropped)."""
    from core.flotilla import rules

    state["stack"] = []
    rules.settle(state, [])
