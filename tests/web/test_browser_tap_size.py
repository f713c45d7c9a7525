"""Phone first (issue 30): on a phone's screen every board place a move is chosen on is big
enough for a finger, and the page never scrolls sideways; what is too wide for the screen
(Flotilla's ocean map, Darwin's Journey's ocean and island tracks) scrolls inside its own box
(`.scroll-x`), while the status and the
jumps to the moves stay on screen (sticky).

Each game is a seeded unranked game of seat 0 at 360 px wide (the narrowest phone the
issue names) with touch; a few moves are played from the list, and at each decision every
highlighted place (`#board .choosable`) is measured. Screenshots in test-artifacts/web/.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY, PlaywrightError, aria_pressed_problems, click_move, version
from tests.web.test_browser import watch_errors

pytestmark = pytest.mark.e2e

TAP = 32  # CSS px: the smallest side of a place a finger taps (issue 30)
NARROW_PHONE = {"viewport": {"width": 360, "height": 780}, "device_scale_factor": 2,
                "is_mobile": True, "has_touch": True}

# Each choosable place: what it is and its size in CSS px (an SVG hex by its drawn box).
PLACES = """() => [...document.querySelectorAll('#board .choosable')].map((el) => {
    const box = el.getBoundingClientRect();
    const what = el.getAttribute('aria-label') || el.textContent.trim().slice(0, 40);
    return {what: `${el.tagName}${el.dataset.cell ? ' hex ' + el.dataset.cell : ''} ${what}`,
            width: box.width, height: box.height, hex: el.dataset.cell !== undefined};
})"""

# The innermost elements reaching past the screen's right edge, outside a box that scrolls
# them (a zoomed map's .scroll-x, a table's .table-wrap).
OVERFLOWING = """() => {
    const width = document.documentElement.clientWidth;
    const past = (el) => el.getBoundingClientRect().right > width + 1;
    return [...document.querySelectorAll('body *')]
      .filter((el) => !el.closest('.scroll-x, .table-wrap') && past(el)
        && ![...el.children].some(past))
      .map((el) => `${el.tagName}.${el.className} ${el.textContent.slice(0, 40)}`);
}"""

GAMES = [
    pytest.param("encyclopedia", {"players": 1}, None, id="encyclopedia"),
    pytest.param("darwins-journey", {"players": 1}, None, id="darwins-journey"),
    pytest.param("flotilla", {"players": 3},
                 [{"kind": "human"}] + [{"kind": "bot", "bot": "random", "params": {}}] * 2,
                 id="flotilla"),
]


def _check_decision(page: Any, game: str) -> list[dict[str, Any]]:
    """The places of this decision, each asserted big enough; nothing wider than the
    screen outside a scroll box, and the page itself never scrolls sideways; the toggles
    among them (confirmation is on with touch) say whether they are pressed."""
    places = page.evaluate(PLACES)
    small = [p for p in places if p["width"] < TAP or p["height"] < TAP]
    assert not small, f"{game}: places smaller than {TAP}×{TAP} px: {small[:6]}"
    assert page.evaluate(OVERFLOWING) == []
    assert page.evaluate("document.documentElement.scrollWidth"
                         " <= document.documentElement.clientWidth + 1")
    assert aria_pressed_problems(page) == [], game
    return list(places)


@contextmanager
def _seat_zero_on_a_phone(browser: Any, stack: Stack, game: str, options: dict[str, Any],
                          seats: list[dict[str, Any]] | None,
                          seed: int) -> Iterator[tuple[Any, list[str]]]:
    """A seeded unranked game opened at seat 0 on a narrow touch phone: its page and the
    page's errors so far."""
    created = stack.client.create_game(game, options, seats, seed=seed, unranked=True)
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    ctx = browser.new_context(**NARROW_PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{created['id']}#token={token}")
        yield page, errors
    finally:
        ctx.close()


@pytest.mark.parametrize(("game", "options", "seats"), GAMES)
def test_every_board_place_is_big_enough_to_tap_on_a_phone(
        browser: Any, stack: Stack, shots: Shots, game: str, options: dict[str, Any],
        seats: list[dict[str, Any]] | None) -> None:
    with _seat_zero_on_a_phone(browser, stack, game, options, seats, seed=31) as (page, errors):
        page.wait_for_selector(READY)
        rng = random.Random(31)
        measured = 0
        hexes = 0
        for step in range(60):
            page.wait_for_selector(READY, timeout=30000)
            # A dozen decisions, and in Flotilla on until a hex is to be chosen.
            if page.is_visible("#result") or (step >= 12 and (game != "flotilla" or hexes)):
                break
            places = _check_decision(page, game)
            measured += len(places)
            hexes += sum(p["hex"] for p in places)
            if step == 0:
                shots(page, "first-decision", full_page=False)
            click_move(page, rng)
        shots(page, "after-moves", full_page=False)
        assert measured > 0, "the board offered no place to tap"
        if game == "flotilla":
            assert hexes > 0, "no hex to choose came up"
            _check_the_map_scrolls_in_its_box(page)
        if game == "darwins-journey":
            check_the_tracks_scroll_in_their_boxes(page, NARROW_PHONE["viewport"]["width"])
        _check_the_status_stays_on_screen(page)
        _check_the_log_scrolls_in_its_box(page)
        assert errors == []


def _check_the_map_scrolls_in_its_box(page: Any) -> None:
    """Flotilla's ocean is wider than the screen, inside a box of the screen's width that
    scrolls it sideways (the page does not move)."""
    # Found and measured in one script run: a late redraw of the board (a bot's move
    # arriving) may replace the box between a locator finding it and measuring it, and a
    # detached element measures 0 × 0.
    sizes = page.evaluate("""() => [...document.querySelectorAll('#fl-ocean .scroll-x')]
      .map((el) => ({client: el.clientWidth, scroll: el.scrollWidth,
                     right: el.getBoundingClientRect().right}))""")
    assert len(sizes) == 1, sizes
    assert sizes[0]["right"] <= 360 + 1, sizes
    assert sizes[0]["scroll"] > sizes[0]["client"], f"the map is not zoomed: {sizes}"
    moved = page.evaluate("""() => { const el = document.querySelector('#fl-ocean .scroll-x');
      el.scrollLeft = 0; el.scrollLeft = 80; return el.scrollLeft; }""")  # one run: as above
    assert moved > 0, "the map does not scroll inside its box"
    assert page.evaluate("window.scrollX") == 0


def check_the_tracks_scroll_in_their_boxes(page: Any, width: int) -> None:
    """On a phone `width` px wide, Darwin's Journey's ocean and islands are zoomed: each a box
    no wider than the screen that scrolls its spaces (each big enough to tap) sideways, while
    the page does not move."""
    # Scrolled to and measured in script runs: a late redraw of the board (a bot's move
    # arriving) may replace the element a locator found before it is reached.
    page.evaluate("document.querySelector('#board .dj-track-wrap').scrollIntoView()")
    boxes = page.evaluate("""() => [...document.querySelectorAll('#board .dj-track-wrap')]
      .map((el) => ({
        client: el.clientWidth, scroll: el.scrollWidth, right: el.getBoundingClientRect().right,
        scrollX: el.matches('.scroll-x'),
        space: Math.min(...[...el.querySelectorAll('.space')]
          .map((s) => s.getBoundingClientRect().width))}))""")
    assert len(boxes) == 4, boxes  # the ocean and islands A, B and C
    for box in boxes:
        assert box["scrollX"] and box["right"] <= width + 1, box
        assert box["scroll"] > box["client"], f"a track is not zoomed: {box}"
        assert box["space"] >= TAP, box
    # In one script run, so that a late redraw of the board cannot detach the box between
    # finding it and scrolling it (a detached element does not scroll: scrollLeft stays 0).
    moved = page.evaluate("""() => { const el = document.querySelector('#board .dj-track-wrap');
      el.scrollLeft = 0; el.scrollLeft = 80; return el.scrollLeft; }""")
    assert moved > 0, "a track does not scroll inside its box"
    assert page.evaluate("window.scrollX") == 0
    assert page.evaluate("document.documentElement.scrollWidth"
                         " <= document.documentElement.clientWidth + 1")


def _check_the_status_stays_on_screen(page: Any) -> None:
    """Scrolled to the page's end, the status and the jump to the moves are still on screen."""
    # Scrolled and read in one script run: nothing between them (a redraw) moves the page.
    scrolled = page.evaluate("""() => {
      const page = document.documentElement;
      window.scrollTo(0, page.scrollHeight);
      return {y: window.scrollY, height: page.scrollHeight, screen: window.innerHeight}; }""")
    assert scrolled["height"] > scrolled["screen"], f"a phone's page is longer: {scrolled}"
    assert scrolled["y"] > 0, f"the page scrolls to its end: {scrolled}"
    status = page.locator("#status").bounding_box()
    assert status is not None and 0 <= status["y"] < 780
    jump = page.locator(".jumps .jump-to").first
    assert jump.is_visible()
    jump.tap()
    page.wait_for_function(
        "() => document.querySelector('#moves').getBoundingClientRect().top < 780")


def _check_the_log_scrolls_in_its_box(page: Any) -> None:
    """Below the board, the log scrolls in a box of at most 60% of the screen's height: a
    long game's log does not make a phone's page thousands of pixels longer."""
    log = page.evaluate("""() => { const el = document.querySelector('#log');
      return {height: el.clientHeight, content: el.scrollHeight,
              overflow: getComputedStyle(el).overflowY}; }""")
    assert log["height"] <= 0.6 * NARROW_PHONE["viewport"]["height"] + 1, log
    assert log["overflow"] == "auto", log


# Scrolled to the page's end: where the page is and how far it can go now.
TO_THE_END = """() => { window.scrollTo(0, document.documentElement.scrollHeight);
  return window.scrollY; }"""
WHERE = """() => ({y: window.scrollY,
  end: document.documentElement.scrollHeight - window.innerHeight,
  version: Number(document.querySelector('#status').dataset.version)})"""


def test_the_others_moves_do_not_move_a_phone_players_page(
        browser: Any, stack: Stack, shots: Shots) -> None:
    """A player who taps a move and scrolls down to watch the board stays where they scrolled
    while the bots' answers are drawn: the focus goes back to the moves without scrolling."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random", "params": {}}] * 2
    with _seat_zero_on_a_phone(browser, stack, "flotilla", {"players": 3}, seats,
                               seed=33) as (page, errors):
        watched = 0  # decisions where another seat's move was drawn after the scroll
        for _ in range(12):
            page.wait_for_selector(READY, timeout=30000)
            if page.is_visible("#result") or watched >= 3:
                break
            before = version(page)
            try:
                page.locator("button.move:not([disabled])").first.tap(timeout=2000)
                page.tap("#confirm-play", timeout=2000)  # confirmation is on with touch
            except PlaywrightError:
                continue  # redrawn under the finger: look again, as a person would
            page.wait_for_function(
                "([v]) => Number(document.querySelector('#status').dataset.version) > v",
                arg=[before], timeout=15000)
            scrolled_at = version(page)
            y = page.evaluate(TO_THE_END)
            page.wait_for_selector(READY, timeout=30000)
            now = page.evaluate(WHERE)
            if now["version"] == scrolled_at:
                continue  # the bots answered before the scroll: nothing to watch
            watched += 1
            # The page may only have moved up as far as it got shorter.
            assert now["y"] >= min(y, now["end"]) - 2, (
                f"the page jumped from {y} to {now} while the others moved")
        assert watched > 0, "no other seat's move came after a scroll"
        shots(page, "scrolled-while-the-others-moved", full_page=False)
        assert errors == []


# Each of Encyclopedia's dice on the board: its name, its pips, whether it is to be chosen.
DICE = """() => [...document.querySelectorAll('#board [data-die]')].map((el) => ({
    die: el.dataset.die, name: el.getAttribute('aria-label') || '',
    pips: el.querySelectorAll('svg.pips circle').length, choosable: el.matches('.choosable'),
}))"""


def test_encyclopedias_dice_are_drawn_as_dice_and_chosen_by_a_tap(
        browser: Any, stack: Stack, shots: Shots) -> None:
    """A die is drawn with its pips (its words its accessible name), and where a move takes
    a die, a tap on that die chooses among that die's moves only."""
    with _seat_zero_on_a_phone(browser, stack, "encyclopedia", {"players": 1}, None,
                               seed=32) as (page, errors):
        rng = random.Random(32)
        for _ in range(30):
            page.wait_for_selector(READY, timeout=30000)
            dice = page.evaluate(DICE)
            if any(d["choosable"] for d in dice):
                break
            click_move(page, rng)
        else:
            raise AssertionError("no die to choose in 30 decisions")
        assert dice
        for drawn in dice:
            value = re.search(r"\bdie (\d)\b", drawn["name"])
            assert value, f"a die named by its colour and value: {drawn}"
            assert drawn["pips"] == int(value.group(1)), drawn
        for _ in range(5):
            chosen = next(d for d in dice if d["choosable"])
            place = f'[data-die="{chosen["die"]}"]'
            try:
                page.locator(f"#board {place}").scroll_into_view_if_needed(timeout=5000)
                shots(page, "dice", full_page=False)
                page.locator(f"#board {place}").tap(timeout=5000)
                break
            except PlaywrightError:
                # Redrawn while being reached (a late update of the page): look again, as a
                # person would.
                page.wait_for_selector(READY, timeout=30000)
                dice = page.evaluate(DICE)
        else:
            raise AssertionError("no die stayed long enough to be tapped")
        page.wait_for_selector("#confirm-bar:not([hidden]), #all-moves")
        if page.is_visible("#confirm-bar"):  # one move on that die: chosen, waiting to confirm
            assert page.locator(f"#board {place}.chosen").count() == 1
        else:
            listed = page.locator("button.move")
            assert listed.count() >= 1
            assert {listed.nth(i).get_attribute("data-place")
                    for i in range(listed.count())} == {place}
        shots(page, "die-tapped", full_page=False)
        assert errors == []
