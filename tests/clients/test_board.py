"""The terminal board: every view renders, generically or with its game's renderer."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

import core
from clients import board


def _text(renderable: object) -> str:
    console = Console(record=True, width=200)
    console.print(renderable)
    return console.export_text()


def test_generic_view_shows_facts_tables_and_trees() -> None:
    view = {"game": "x", "round": 2, "hands": [[1, 2], None],
            "players": [{"name": "a", "coins": 3}, {"name": "b", "coins": 5, "vp": 1}],
            "board": {"north": {"owner": 1, "items": [1, 2]}, "south": None}}
    text = _text(board.render_view("unknown-game", view))
    assert "round" in text and "coins" in text and "north" in text and "owner" in text


def test_moves_table_numbers_labels() -> None:
    text = _text(board.moves_table([{"type": "draw", "label": "Draw a card"}, {"type": "stop"}]))
    assert "1  Draw a card" in text and '2  {"type":"stop"}' in text


def test_toy_game_views_render() -> None:
    game = core.get_game("toy-pontoon")
    state = game.new_game({"players": 2}, 1)
    text = _text(board.render_view(game.name, game.view(state, 0)))
    assert "deck_size" in text


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 1, "alfred": "green"}])
def test_darwins_journey_views_render_through_a_game(options: dict) -> None:
    game = core.get_game("darwins-journey")
    state = game.new_game(options, 3)
    rng = random.Random(0)
    for step in range(400):
        seat = game.to_act(state)
        if seat is None:
            break
        if step % 40 == 0:
            text = _text(board.render_view(game.name, game.view(state, seat)))
            assert "Round" in text and "Explorers" in text  # the game's own renderer
        game.apply(state, rng.choice(game.legal_moves(state)))
    assert "Result" in _text(board.result_table(game.result(state)))


def test_a_renderer_that_fails_falls_back_to_the_generic_one() -> None:
    @board.renderer("broken-game")
    def broken(view: dict) -> str:
        raise KeyError("layout changed")

    assert "round" in _text(board.render_view("broken-game", {"round": 1}))
