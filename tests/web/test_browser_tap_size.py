"""Issue 30, "phone first": every place of the board a player taps is at least 32x32 CSS px
on a 390x844 touch phone, in each game, through the first decisions of a seeded game (the
places change with the decision: cards, workers, tracks, hexes...). Places are tapped as in
test_browser_board_play, so later decisions (Flotilla's hexes) are measured too."""

from __future__ import annotations

import collections
import random
from typing import Any

import pytest

from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY
from tests.web.test_browser_board_play import PHONE, _step
from tests.web.test_browser_games import too_wide

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the browser fixture skips without Playwright
    PlaywrightError = Exception  # type: ignore[misc,assignment]

pytestmark = pytest.mark.e2e

MIN_TAP = 32  # CSS px, each side
STEPS = 30  # the seat's decisions measured in each game
GAMES = [("darwins-journey", {"players": 1}, None),
         ("encyclopedia", {"players": 1}, None),
         ("flotilla", {"players": 3}, [{"kind": "human"}] + [
             {"kind": "bot", "bot": "random", "params": {}}] * 2)]

# The choosable places of the board smaller than MIN_TAP on a side, as a finger meets them.
SMALL_PLACES = """([least]) => [...document.querySelectorAll('#board .choosable')].map((el) => {
    const box = el.getBoundingClientRect();
    const name = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 50);
    return {what: `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${name}`,
            width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10};
  }).filter((p) => p.width < least || p.height < least)"""
ALL_PLACES = "() => document.querySelectorAll('#board .choosable').length"


def measure(page: Any, seed: int) -> tuple[int, list[dict[str, Any]]]:
    """Tap through the seat's first STEPS decisions on the board; the places seen and the
    ones too small (each kind once, its smallest size)."""
    rng = random.Random(seed)
    seen = 0
    small: dict[str, dict[str, Any]] = {}
    steps = 0
    while steps < STEPS:
        page.wait_for_selector(READY, timeout=30000)
        if page.is_visible("#result"):
            break
        page.wait_for_timeout(200)  # the board drawn and marked
        seen += page.evaluate(ALL_PLACES)
        for place in page.evaluate(SMALL_PLACES, [MIN_TAP]):
            kind = place["what"].split(" ")[0]
            if kind not in small or place["width"] * place["height"] < (
                    small[kind]["width"] * small[kind]["height"]):
                small[kind] = place
        try:
            _step(page, rng, True, collections.Counter(), lambda where: None)
        except PlaywrightError:
            page.wait_for_timeout(300)
            continue
        steps += 1
    return seen, list(small.values())


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_every_board_place_is_at_least_32_px_on_a_phone(browser: Any, stack: Stack, shots: Shots,
                                                        game: str, options: dict[str, Any],
                                                        seats: list[dict[str, Any]] | None) -> None:
    created = stack.client.create_game(game, options, seats, seed=30, unranked=True)
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    ctx = browser.new_context(**PHONE, locale="en")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{stack.api_url}/play/games/{created['id']}?lang=en#token={token}")
        page.wait_for_selector(READY)
        shots(page, "opened", full_page=False)
        seen, small = measure(page, 30)
        if page.locator("#fl-map-wrap").count():
            page.locator("#fl-map-wrap").screenshot(path=str(shots.directory / "map.png"))
        shots(page, "measured", full_page=False)
        print(f"{game}: {seen} places seen, too small: {small}")
        assert seen > 0
        assert small == [], small
        assert too_wide(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert errors == []
    finally:
        ctx.close()
