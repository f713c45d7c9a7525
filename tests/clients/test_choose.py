"""`bgb play`'s choice of a move: a number means the move with that number, and a filter never
plays a move by itself (Enter confirms)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

from rich.console import Console

from clients import cli

# Eighteen moves whose labels share words, as a real list does ("… to explore", "… to …").
PLACES = ("harbour", "explore", "dock")
MOVES = [{"type": "place", "worker": n % 3, "label": f"Worker {n % 3} to {PLACES[n % 3]} space {n}"}
         for n in range(1, 19)]
PROMPT = "<prompt>"


def choose(*answers: str) -> tuple[dict[str, Any] | None, str, list[str]]:
    """What `_choose` returns for the typed answers, what it printed, and the answers it
    did not read."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    left: Iterator[str] = iter(answers)

    def ask(prompt: str) -> str:
        console.print(PROMPT)
        return next(left)

    move = cli._choose(console, MOVES, ask)
    return move, out.getvalue(), list(left)


def test_a_number_is_the_move_with_that_number() -> None:
    move, _, left = choose("5", "never read")
    assert move is MOVES[4] and left == ["never read"]


def test_a_number_past_the_list_is_refused_not_read_as_a_filter() -> None:
    # "19" is in no label's number but "space 1" is in several: a number is never a filter
    move, screen, left = choose("19", "1")
    assert "no move 19; moves are numbered 1 to 18" in screen
    assert move is MOVES[0] and left == []


def test_a_filter_narrows_and_a_number_keeps_its_meaning() -> None:
    # "harbour" lists moves 3, 6, 9, 12, 15 and 18 under their own numbers
    move, screen, left = choose("harbour", "6")
    assert move is MOVES[5] and left == []
    narrowed = screen.split(PROMPT)[1]
    assert re.search(r"^ *6 +Worker 0 to harbour space 6 *$", narrowed, re.M)
    assert re.search(r"^ *18 +Worker 0 to harbour space 18 *$", narrowed, re.M)
    assert "explore" not in narrowed and "dock" not in narrowed


def test_a_number_the_filter_hid_asks_for_enter() -> None:
    move, screen, _ = choose("harbour", "1", "")
    assert "Enter plays move 1: Worker 1 to explore space 1" in screen
    assert move is MOVES[0]
    # anything else than Enter goes on choosing
    move, _, left = choose("harbour", "1", "harbour", "6", "never read")
    assert move is MOVES[5] and left == ["never read"]


def test_a_single_match_waits_for_enter() -> None:
    move, screen, left = choose("space 17", "", "never read")
    assert "Enter plays move 17: Worker 2 to dock space 17" in screen
    assert move is MOVES[16] and left == ["never read"]
    # a single match and then another filter: nothing was played
    move, _, _ = choose("space 17", "space 18", "")
    assert move is MOVES[17]


def test_enter_alone_plays_nothing_and_quit_quits() -> None:
    move, _, left = choose("", "", "q", "never read")
    assert move is None and left == ["never read"]


def test_text_that_matches_nothing_says_so() -> None:
    move, screen, _ = choose("zebra", "3")
    assert "no move reads “zebra”; pick a number from the list" in screen
    assert move is MOVES[2]


def test_h_shows_a_hint_in_a_practice_game_and_plays_nothing() -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    answers = iter(["h", "dica", "2"])
    asked: list[str] = []
    hints: list[int] = []
    move = cli._choose(console, MOVES, lambda prompt: asked.append(prompt) or next(answers),
                       show_hint=lambda: hints.append(1))
    assert move is MOVES[1] and hints == [1, 1]
    assert all("h = hint" in prompt for prompt in asked)
    # Without hints (a ranked game) `h` is only a filter, and the prompt does not offer it.
    answers = iter(["h", "", "1"])  # a filter, then Enter: the whole list again
    asked.clear()
    assert cli._choose(console, MOVES, lambda prompt: asked.append(prompt) or next(answers)) \
        is MOVES[0]
    assert not any("hint" in prompt for prompt in asked)


def test_the_issues_case_a_number_past_a_short_list_plays_nothing() -> None:
    """Issue 30: with 4 moves listed, `5` (in the label "space 5") was read as a filter and
    played its only match; it is refused, and a later Enter alone plays nothing."""
    four = [*MOVES[:3], {"type": "place", "worker": 0, "label": "Worker 0 to dock space 5"}]
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    answers = iter(["5", "", "q"])
    assert cli._choose(console, four, lambda prompt: next(answers)) is None
    assert "no move 5; moves are numbered 1 to 4" in out.getvalue()


def test_u_takes_back_only_when_the_game_offers_it() -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    answers = iter(["u"])
    assert cli._choose(console, MOVES, lambda prompt: next(answers),
                       taken_back="Worker 1 to explore space 1") is cli.TAKE_BACK
    assert "u = take back your last move: Worker 1 to explore space 1" in out.getvalue()
    # Not offered: `u` is only a filter (nothing is played, nothing taken back).
    answers = iter(["u", "", "2"])
    assert cli._choose(console, MOVES, lambda prompt: next(answers)) is MOVES[1]
