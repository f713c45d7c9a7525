"""Views and determinize (F35): what each seat may see, and hidden parts resampled."""

from __future__ import annotations

import json
import random

import pytest

from core.contract import canonical
from core.flotilla import data as D
from tests.core.flotilla_helpers import GAME, pick

HIDDEN = ("rng", "crew", "crew_box", "art_bag", "art_box")


def states(players: int, seed: int, every: int = 7):
    state = GAME.new_game({"players": players}, seed)
    rnd = random.Random(seed)
    k = 0
    while GAME.to_act(state) is not None:
        if k % every == 0:
            yield state
        GAME.apply(state, canonical(pick(rnd, GAME.legal_moves(state))))
        k += 1
    yield state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_f35_2_view_hides_orders_and_removed_components(players: int) -> None:
    """F35.1, F35.2, F35.3: no RNG, no crew stack order below the top, no removed cards or
    Artifacts, no Artifact bag contents; F35.4: dice are rolled from the hidden RNG."""
    for state in states(players, players, every=25):
        for seat in [None, *range(players)]:
            v = GAME.view(state, seat)
            assert not set(HIDDEN) & set(v)
            json.dumps(v)
            assert v["crew_top"] == [st[-1] if st else None for st in state["crew"]]
            assert v["seat_count"] == players and v["automa_seats"] == {}
            text = json.dumps(v)
            assert '"rng"' not in text


@pytest.mark.parametrize("players", [3, 4, 5])
def test_determinize_is_consistent_with_the_view(players: int) -> None:
    """view(determinize(view, seat, s), seat) == view, and the sample is a playable state."""
    for state in states(players, 40 + players, every=31):
        for seat in range(players):
            v = GAME.view(state, seat)
            for seed in (1, 2):
                sample = GAME.determinize(v, seat, seed)
                assert GAME.view(sample, seat) == v
                if seat == GAME.to_act(state):  # the seat to act knows all it can do
                    assert GAME.legal_moves(sample) == GAME.legal_moves(state)
        if GAME.to_act(state) is not None:
            sample = GAME.determinize(GAME.view(state, 0), 0, 9)
            rnd = random.Random(1)
            for _ in range(30):
                if GAME.to_act(sample) is None:
                    break
                GAME.apply(sample, canonical(pick(rnd, GAME.legal_moves(sample))))


def test_determinize_samples_hidden_stacks() -> None:
    """Different seeds give different hidden orders for the same view (F35.2)."""
    state = GAME.new_game({"players": 3}, 4)
    v = GAME.view(state, 0)
    a = GAME.determinize(v, 0, 1)
    b = GAME.determinize(v, 0, 2)
    assert [st[-1] for st in a["crew"]] == [st[-1] for st in b["crew"]]
    assert a["crew"] != b["crew"] or a["art_bag"] != b["art_bag"]
    for g, stack in enumerate(a["crew"]):
        assert all(D.card_guild(c) == g for c in stack)


def test_f35_1_hands_hidden_by_default_open_by_option() -> None:
    """F35.1: hands are deducible, so open on request (`open_hands`); by default a seat sees
    its own hand and only the sizes of the others; discard piles and coins are open."""
    state = GAME.new_game({"players": 3}, 4)
    rnd = random.Random(4)
    for _ in range(120):
        GAME.apply(state, canonical(pick(rnd, GAME.legal_moves(state))))
    v = GAME.view(state, 1)
    assert v["hand"][1] == state["hand"][1]
    assert v["hand"][0] == [] and v["hand"][2] == []
    assert v["hand_sizes"] == [len(h) for h in state["hand"]]
    assert v["discard"] == state["discard"] and v["coins"] == state["coins"]
    others = {c for p in (0, 2) for c in state["hand"][p] if c >= 6}
    visible = others & ({c for p in range(3) for c in state["discard"][p]}
                        | {c for st in state["crew"] for c in st[-1:]} | set(state["hand"][1]))
    named = {int(c) for c in v["catalog"]["cards"]}
    assert not (others - visible) & named  # the catalog names no card only a hand holds
    spectator = GAME.view(state, None)
    assert all(h == [] for h in spectator["hand"])
    open_state = GAME.new_game({"players": 3, "open_hands": True}, 4)
    assert GAME.view(open_state, 1)["hand"] == open_state["hand"]


def test_terminal_renderer_draws_from_the_view_alone() -> None:
    """`bgb play flotilla` draws the board from a view (its catalog names what is in sight)."""
    from rich.console import Console

    from clients import board_flotilla
    from clients.board import render_view

    state = GAME.new_game({"players": 4}, 8)
    rnd = random.Random(8)
    for _ in range(150):
        GAME.apply(state, canonical(pick(rnd, GAME.legal_moves(state))))
    view = json.loads(json.dumps(GAME.view(state, 2)))
    console = Console(width=160, record=True)
    console.print(board_flotilla.flotilla_view(view))
    text = console.export_text()
    assert "Flotilla" in text and "Players" in text and "S2" in text
    assert render_view("flotilla", view) is not None
