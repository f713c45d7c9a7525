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
from typing import Any

import pytest

from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY, aria_pressed_problems, click_move
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


@pytest.mark.parametrize(("game", "options", "seats"), GAMES)
def test_every_board_place_is_big_enough_to_tap_on_a_phone(
        browser: Any, stack: Stack, shots: Shots, game: str, options: dict[str, Any],
        seats: list[dict[str, Any]] | None) -> None:
    created = stack.client.create_game(game, options, seats, seed=31, unranked=True)
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    ctx = browser.new_context(**NARROW_PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{created['id']}#token={token}")
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
        assert errors == []
    finally:
        ctx.close()


def _check_the_map_scrolls_in_its_box(page: Any) -> None:
    """Flotilla's ocean is wider than the screen, inside a box of the screen's width that
    scrolls it sideways (the page does not move)."""
    box = page.locator("#fl-ocean .scroll-x")
    assert box.count() == 1
    sizes = box.evaluate("(el) => ({client: el.clientWidth, scroll: el.scrollWidth,"
                         " right: el.getBoundingClientRect().right})")
    assert sizes["right"] <= 360 + 1, sizes
    assert sizes["scroll"] > sizes["client"], f"the map is not zoomed: {sizes}"
    moved = page.evaluate("""() => { const el = document.querySelector('#fl-ocean .scroll-x');
      el.scrollLeft = 0; el.scrollLeft = 80; return el.scrollLeft; }""")  # one run: as above
    assert moved > 0, "the map does not scroll inside its box"
    assert page.evaluate("window.scrollX") == 0


def check_the_tracks_scroll_in_their_boxes(page: Any, width: int) -> None:
    """On a phone `width` px wide, Darwin's Journey's ocean and islands are zoomed: each a box
    no wider than the screen that scrolls its spaces (each big enough to tap) sideways, while
    the page does not move."""
    page.locator("#board .dj-track-wrap").first.scroll_into_view_if_needed()
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
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0, "a phone's game page is longer than the screen"
    status = page.locator("#status").bounding_box()
    assert status is not None and 0 <= status["y"] < 780
    jump = page.locator(".jumps .jump-to").first
    assert jump.is_visible()
    jump.tap()
    page.wait_for_function(
        "() => document.querySelector('#moves').getBoundingClientRect().top < 780")


# Each of Encyclopedia's dice on the board: its name, its pips, whether it is to be chosen.
DICE = """() => [...document.querySelectorAll('#board [data-die]')].map((el) => ({
    die: el.dataset.die, name: el.getAttribute('aria-label') || '',
    pips: el.querySelectorAll('svg.pips circle').length, choosable: el.matches('.choosable'),
}))"""


def test_encyclopedias_dice_are_drawn_as_dice_and_chosen_by_a_tap(
        browser: Any, stack: Stack, shots: Shots) -> None:
    """A die is drawn with its pips (its words its accessible name), and where a move takes
    a die, a tap on that die chooses among that die's moves only."""
    created = stack.client.create_game("encyclopedia", {"players": 1}, seed=32, unranked=True)
    token = created["seats"][0]["token"]
    ctx = browser.new_context(**NARROW_PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{created['id']}#token={token}")
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
        chosen = next(d for d in dice if d["choosable"])
        place = f'[data-die="{chosen["die"]}"]'
        page.locator(f"#board {place}").scroll_into_view_if_needed()
        shots(page, "dice", full_page=False)
        page.locator(f"#board {place}").tap()
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
    finally:
        ctx.close()
