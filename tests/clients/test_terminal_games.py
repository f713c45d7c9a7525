"""`bgb play` of Flotilla and Encyclopedia in a pseudo-terminal of 80×24: their boards read as
words and numbers, never raw JSON, and no line is wider than the terminal."""

from __future__ import annotations

import pytest

from tests.clients.test_terminal import PROMPT, PROMPT_PT, assert_readable, run, stack  # noqa: F401

pytestmark = pytest.mark.e2e


def test_encyclopedia_solo_reads_well(run) -> None:  # noqa: F811
    term = run("play", "encyclopedia", "--vs", "alfred", "--seed", "3")
    first = term.expect(PROMPT)
    assert "Main board" in first and "Your turn" in first
    assert "Bank" in first and "reputation" in first and "Set-up" in first
    assert_readable(first)
    for _ in range(6):
        term.send("1")
        after = term.expect(PROMPT)
        assert_readable(after)
    term.send("b")
    board = term.expect(PROMPT)
    assert "Main board" in board
    assert_readable(board)
    term.send("q")
    assert_readable(term.finish())


def test_flotilla_against_two_bots_reads_well(run) -> None:  # noqa: F811
    term = run("play", "flotilla", "--vs", "random", "--vs", "random", "--seed", "5")
    first = term.expect(PROMPT, timeout=60)
    assert "Your turn" in first or "to act" in first.lower()
    assert "The Captain" in first and "Market" in first and "Speakers" in first
    assert "Influence" in first and "Navigation" in first  # the cards' effects
    assert_readable(first)
    for _ in range(6):
        term.send("1")
        after = term.expect(PROMPT, timeout=60)
        assert_readable(after)
    term.send("b")
    board = term.expect(PROMPT, timeout=60)
    assert_readable(board)
    term.send("q")
    assert_readable(term.finish())


def test_encyclopedia_in_portuguese_reads_well(run) -> None:  # noqa: F811
    term = run("--lang", "pt-BR", "play", "encyclopedia", "--vs", "alfred", "--seed", "3")
    screen = term.expect(PROMPT_PT)
    assert "Sua vez" in screen
    assert_readable(screen)
    term.send("q")
    term.finish()


def test_flotilla_in_portuguese_reads_well(run) -> None:  # noqa: F811
    term = run("--lang", "pt-BR", "play", "flotilla", "--vs", "random", "--vs", "random",
               "--seed", "5")
    screen = term.expect(PROMPT_PT, timeout=60)
    assert "Mercado" in screen and "Oradores" in screen and "A Capitã" in screen
    assert "Market" not in screen and "Speakers" not in screen
    assert_readable(screen)
    term.send("1")
    after = term.expect(PROMPT_PT, timeout=60)
    assert "Skiff" not in after and "Ocean Tile" not in after
    assert_readable(after)
    term.send("q")
    term.finish()
