"""A whole solo Encyclopedia game played on a phone (390×844, touch) by tapping the board
(issue 30: "moves chosen on the board"), with a screenshot of every step in
test-artifacts/web/<test>/.

Every move that has a board place (the renderer's `placeOf`: a die, an animal, an expert) is
chosen by tapping that place: a place of one move chooses it and the confirm bar plays it,
a place of several narrows the list to its moves. Moves the renderer gives no place yet
(paying coins, actions of a card, "stop", ...) are tapped in the list, and the test counts
them by type: what is left for the renderer to draw (the report names them). The test
fails if a move with a place was ever played from the whole list, or if the board offered
no place while a legal move had one.
"""

from __future__ import annotations

import collections
import random
from typing import Any

import pytest

from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY, version
from tests.web.test_browser_games import too_wide

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the browser fixture skips without Playwright
    PlaywrightError = Exception  # type: ignore[misc,assignment]

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
NEWER = ("([v]) => Number(document.querySelector('#status').dataset.version) > v"
         " || !document.querySelector('#notice').hidden")
MAX_STEPS = 800


def _step(page: Any, rng: random.Random, from_list: collections.Counter[str]) -> str:
    """One move of the seat: on the board when any legal move has a place there, else from
    the list (counted by type). What was tapped: "board" or "list"."""
    before = version(page)
    places = page.locator("#board .choosable")
    if places.count():
        place = places.nth(rng.randrange(places.count()))
        place.scroll_into_view_if_needed()
        place.tap(timeout=3000)
        if not page.is_visible("#confirm-bar"):
            # A place of several moves: the list shows that place's moves only.
            page.wait_for_selector("#all-moves", timeout=3000)
            shown = page.locator("button.move:not([disabled])")
            shown.nth(rng.randrange(shown.count())).tap(timeout=3000)
        page.wait_for_selector("#confirm-bar:not([hidden])", timeout=3000)
        page.tap("#confirm-play", timeout=3000)
        where = "board"
    else:
        placed = page.locator("button.move[data-place]:not([disabled])").count()
        assert placed == 0, "a move with a board place, but no place to tap on the board"
        buttons = page.locator("button.move:not([disabled])")
        button = buttons.nth(rng.randrange(buttons.count()))
        from_list[str(button.get_attribute("data-type"))] += 1
        button.tap(timeout=3000)
        page.wait_for_selector("#confirm-bar:not([hidden])", timeout=3000)
        page.tap("#confirm-play", timeout=3000)
        where = "list"
    page.wait_for_function(NEWER, arg=[before], timeout=20000)
    return where


def test_a_solo_encyclopedia_game_played_by_tapping_the_board(browser: Any, stack: Stack,
                                                              shots: Shots) -> None:
    created = stack.client.create_game("encyclopedia", {"players": 1}, seed=30, unranked=True)
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    ctx = browser.new_context(**PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{stack.api_url}/play/games/{created['id']}?lang=en#token={token}")
        page.wait_for_selector(READY)
        assert page.is_checked("#confirm-setting"), "a touch screen confirms by default"
        rng = random.Random(30)
        from_list: collections.Counter[str] = collections.Counter()
        taps = collections.Counter()
        for step in range(MAX_STEPS):
            page.wait_for_selector(READY, timeout=30000)
            if page.is_visible("#result"):
                break
            try:
                where = _step(page, rng, from_list)
            except PlaywrightError:
                # Redrawn under the finger (the AI moved meanwhile): look again.
                page.wait_for_timeout(300)
                continue
            taps[where] += 1
            shots(page, f"{step:03d}-{where}", full_page=False)
            assert not too_wide(page), too_wide(page)
        else:
            raise AssertionError(f"no result after {MAX_STEPS} steps")
        shots(page, "result")
        assert page.is_visible("#winner")
        assert taps["board"] > 0, taps
        assert errors == []
        # What the renderer has no place for yet, for the record (and the report).
        print(f"board taps {taps['board']}, list taps {taps['list']}: {dict(from_list)}")
    finally:
        ctx.close()
