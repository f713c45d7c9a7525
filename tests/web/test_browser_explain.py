"""Tap-to-explain (issue 30: the words of an icon-only board "stay available … in a tooltip or
tap-to-explain panel, in both languages"; legal places have "a short explanation on
hover/long-press"): on a 390×844 phone with touch, in English and in Portuguese, a seeded solo
Darwin's Journey game. A tap on a track space that chooses nothing shows its words (its
accessible name and tooltip) in a panel at the bottom of the screen and plays nothing; a tap
elsewhere, Escape and a redraw of the board close it. A long-press on a place a move is
chosen on (the browser's contextmenu, and a real touch held through CDP) shows its words and
its number of moves instead of choosing it; a tap on it still chooses. axe-core finds nothing
with the panel open. Screenshots in test-artifacts/web/.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from clients import web_messages
from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY, aria_pressed_problems, click_move, version
from tests.web.test_browser import watch_errors
from tests.web.test_browser_board_play import PHONE
from tests.web.test_browser_player import AXE, axe_violations, game_and_token, seat_link

pytestmark = pytest.mark.e2e

SEED = 30
PANEL = "#explain"
# A track space that chooses nothing and gives something: its id, tooltip and name.
QUIET_SPACE = """() => {
    const el = [...document.querySelectorAll('#board .dj-tracks .space')].find((s) =>
      !s.matches('.choosable, .last-move, .occupied') && s.querySelector('.space-actions'));
    return el && {id: el.dataset.space, title: el.getAttribute('title'),
                  name: el.getAttribute('aria-label')};
}"""
# What the page shows of the chosen state: a confirmation, a worker being placed, a press.
CHOSEN = """() => ({
    confirm: !document.querySelector('#confirm-bar').hidden,
    placing: Boolean(document.querySelector('#dj-place-bar, #board .dj-target, #board .selected')),
    pressed: document.querySelectorAll('#board [aria-pressed=true], #board .chosen').length})"""
NOTHING_CHOSEN = {"confirm": False, "placing": False, "pressed": 0}


def _moves_here(lang: str, count: int) -> str:
    """The panel's line of a place's moves, as the catalog says it."""
    messages = web_messages.messages(lang)
    key = "explain.moves.one" if count == 1 else "explain.moves"
    return f"{messages[key].replace('{count}', str(count))} {messages['explain.choose']}"


def _settled(page: Any) -> None:
    """Wait until the board stays drawn (a second read of a version may draw it again, which
    closes the panel by design)."""
    drawn = "document.querySelector('#board').firstElementChild"
    for _ in range(30):
        page.evaluate(f"() => {{ {drawn}.dataset.probe = '1'; }}")
        page.wait_for_timeout(400)
        if page.evaluate(f"() => {drawn}?.dataset.probe === '1'"):
            return
    raise AssertionError("the board kept being drawn again")


def _to_a_placement(page: Any, stack: Stack, game_id: str, token: str) -> dict[str, Any]:
    """Moves from the list until this seat places a worker; the game then."""
    rng = random.Random(SEED)
    for _ in range(40):
        page.wait_for_selector(READY, timeout=30000)
        body = stack.client.get_game(game_id, token)
        if body["to_act"] == 0 and any(m["type"] == "place" for m in body["legal_moves"]):
            page.wait_for_function(
                "([v]) => Number(document.querySelector('#status').dataset.version) === v",
                arg=[body["version"]], timeout=20000)
            page.wait_for_selector("#board [data-home-worker].choosable")
            _settled(page)
            return body
        click_move(page, rng)
    raise AssertionError("no placement of a worker within 40 moves")


def _touch_hold(page: Any, cdp: Any, selector: str) -> None:
    """A finger put on the middle of `selector` and held there until the explanation shows
    (as a person holds on until something answers: a fixed hold fails on a busy machine,
    where the page's long-press timer can run after the finger is lifted), then lifted."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    assert box is not None
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_selector(PANEL)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(300)  # a click the browser may send after it


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_tap_explains_a_space_and_a_long_press_a_place(browser: Any, stack: Stack,
                                                         shots: Shots, lang: str) -> None:
    ctx = browser.new_context(**PHONE, locale=lang, bypass_csp=True)  # bypass: axe's script
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(seat_link(stack, "darwins-journey", {"players": 1}, None, lang=lang, seed=SEED))
        page.wait_for_selector(READY)
        game_id, token = game_and_token(page)
        assert page.get_attribute("#explain-live", "aria-live") == "polite"
        assert page.locator(PANEL).count() == 0
        _settled(page)

        # A tap on a track space that chooses nothing: its words, nothing played.
        space = page.evaluate(QUIET_SPACE)
        assert space and space["title"] == space["name"], space
        before = version(page)
        page.locator(f"#board [data-space='{space['id']}']").tap()
        page.wait_for_selector(PANEL)
        assert page.inner_text("#explain-words") == space["title"]
        assert page.locator("#explain-moves").count() == 0
        assert version(page) == before
        assert page.evaluate(CHOSEN) == NOTHING_CHOSEN
        box = page.locator(PANEL).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
        assert box["y"] + box["height"] <= 844 + 1  # on the screen
        shots(page, f"space-explained-{lang}", full_page=False)
        page.locator("h1").tap()  # a tap elsewhere closes it
        assert page.locator(PANEL).count() == 0
        page.locator(f"#board [data-space='{space['id']}']").tap()
        page.wait_for_selector(PANEL)
        page.keyboard.press("Escape")
        assert page.locator(PANEL).count() == 0
        page.locator(f"#board [data-space='{space['id']}']").tap()
        page.locator("#explain-close").tap()
        assert page.locator(PANEL).count() == 0
        assert version(page) == before

        # A long-press on a worker at home (a tap would start placing it): its words and
        # its number of moves, nothing chosen.
        body = _to_a_placement(page, stack, game_id, token)
        worker = min(m["worker"] for m in body["legal_moves"] if m["type"] == "place")
        count = sum(m["type"] == "place" and m["worker"] == worker for m in body["legal_moves"])
        piece = f"#board [data-home-worker='{worker}']"
        name = page.inner_text(f"{piece} strong")
        before = version(page)
        page.locator(piece).scroll_into_view_if_needed()
        page.locator(piece).dispatch_event("contextmenu")
        page.wait_for_selector(PANEL)
        assert page.inner_text("#explain-words").startswith(name)
        assert page.inner_text("#explain-moves") == _moves_here(lang, count)
        assert page.evaluate(CHOSEN) == NOTHING_CHOSEN
        assert version(page) == before
        assert aria_pressed_problems(page) == []
        shots(page, f"worker-explained-{lang}", full_page=False)
        page.add_script_tag(path=str(AXE))
        assert axe_violations(page) == []
        page.keyboard.press("Escape")
        assert page.locator(PANEL).count() == 0

        # The same held by a real finger (CDP touch events): explained, not chosen (headless
        # Chromium sends no contextmenu for it but a click after the finger is lifted, which
        # must choose nothing).
        cdp = ctx.new_cdp_session(page)
        _touch_hold(page, cdp, piece)
        page.wait_for_selector(PANEL)
        assert page.inner_text("#explain-words").startswith(name)
        assert page.evaluate(CHOSEN) == NOTHING_CHOSEN
        assert version(page) == before
        # A tap still chooses it (and closes the panel).
        page.locator(piece).tap()
        page.wait_for_selector("#dj-place-bar")
        assert page.locator(PANEL).count() == 0
        assert page.get_attribute(piece, "aria-pressed") == "true"
        # With a move waiting for its confirmation, the panel sits above the confirm bar, and
        # Escape closes the panel only.
        page.locator("#board .dj-target").first.tap()
        page.wait_for_selector("#confirm-bar:not([hidden])")
        page.locator(f"#board [data-space='{space['id']}']").tap()
        page.wait_for_selector(PANEL)
        panel, bar = page.locator(PANEL).bounding_box(), page.locator("#confirm-bar").bounding_box()
        assert panel is not None and bar is not None
        assert panel["y"] + panel["height"] <= bar["y"] + 1, (panel, bar)
        shots(page, f"above-the-confirm-bar-{lang}", full_page=False)
        page.keyboard.press("Escape")
        assert page.locator(PANEL).count() == 0 and page.is_visible("#confirm-bar")
        assert version(page) == before
        page.locator("#confirm-cancel").tap()
        page.locator("#dj-place-cancel").tap()
        assert page.evaluate(CHOSEN) == NOTHING_CHOSEN

        # The board redrawn (a move played elsewhere, here through the API): the panel goes.
        page.locator(f"#board [data-space='{space['id']}']").tap()
        page.wait_for_selector(PANEL)
        move = next(m for m in body["legal_moves"] if m["type"] == "place")
        stack.client.move(game_id, token, move, body["version"])
        page.wait_for_function(
            "([v]) => Number(document.querySelector('#status').dataset.version) > v",
            arg=[before], timeout=20000)
        page.wait_for_selector(PANEL, state="detached")
        assert errors == []
    finally:
        ctx.close()


def test_a_desktop_click_on_a_place_chooses_it_and_explains_nothing(browser: Any, stack: Stack,
                                                                    shots: Shots) -> None:
    """A mouse keeps its tooltip: a click on a choosable place chooses as before (no panel),
    a right-click keeps the browser's menu; "?" on a focused place explains it."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(seat_link(stack, "darwins-journey", {"players": 1}, None, seed=SEED))
        page.wait_for_selector(READY)
        game_id, token = game_and_token(page)
        body = _to_a_placement(page, stack, game_id, token)
        worker = min(m["worker"] for m in body["legal_moves"] if m["type"] == "place")
        piece = f"#board [data-home-worker='{worker}']"
        page.locator(piece).click(button="right")
        assert page.locator(PANEL).count() == 0
        page.locator(piece).click()
        page.wait_for_selector("#dj-place-bar")
        assert page.locator(PANEL).count() == 0
        page.locator("#dj-place-cancel").click()
        page.locator(piece).focus()
        page.keyboard.press("?")
        page.wait_for_selector(PANEL)
        assert page.evaluate(CHOSEN) == NOTHING_CHOSEN
        shots(page, "worker-explained-desktop", full_page=False)
        page.keyboard.press("Escape")
        assert page.locator(PANEL).count() == 0
        assert errors == []
    finally:
        ctx.close()


# A Flotilla hex that chooses nothing and has words (an SVG <title>), away from the centre
# (whose "Hub" label is drawn over it): its cell and its words as the panel says them.
QUIET_HEX = """() => {
    const hexes = [...document.querySelectorAll('#board .fl-map g[data-cell]')].filter((g) =>
      !g.matches('.choosable') && g.querySelector(':scope > title'));
    const g = hexes.at(-1);
    return g && {cell: g.dataset.cell, words: [...g.querySelectorAll(':scope > title')]
      .map((t) => t.textContent.trim()).join(' · ')};
}"""


def test_a_tap_on_a_flotilla_hex_says_its_words(browser: Any, stack: Stack, shots: Shots) -> None:
    """The panel is every game's: a hex of Flotilla's map (an SVG <title>) explained too."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random", "params": {}}] * 2
    ctx = browser.new_context(**PHONE, locale="pt-BR")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(seat_link(stack, "flotilla", {"players": 3}, seats, lang="pt-BR", seed=5))
        page.wait_for_selector(READY)
        _settled(page)
        hexagon = page.evaluate(QUIET_HEX)
        assert hexagon, "no hex with words"
        before = version(page)
        page.locator(f"#board .fl-map g[data-cell='{hexagon['cell']}']").tap()
        page.wait_for_selector(PANEL)
        assert page.inner_text("#explain-words") == hexagon["words"]
        assert version(page) == before and page.is_hidden("#confirm-bar")
        shots(page, "hex-explained", full_page=False)
        page.keyboard.press("Escape")
        assert page.locator(PANEL).count() == 0
        assert errors == []
    finally:
        ctx.close()
