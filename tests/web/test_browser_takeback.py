"""The page's "Take back" (issue 30): offered after your own move while the game allows it
(a practice game, nobody has acted since, the move drew and revealed nothing), in English and
Portuguese; a take-back returns the game to before the move and the log says so."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY, version
from tests.web.test_browser import DESKTOP, watch_errors

pytestmark = pytest.mark.e2e

NEWER = "([v]) => Number(document.querySelector('#status').dataset.version) > v"


def _toy_game(stack: Stack, unranked: bool = True) -> dict[str, Any]:
    """A 3-seat toy-pontoon game, every seat human: no bot answers a move by itself."""
    return stack.client.create_game("toy-pontoon", {"players": 3}, seed=11, unranked=unranked)


def _open(browser: Any, stack: Stack, created: dict[str, Any], lang: str) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    page.goto(f"{stack.api_url}/play/games/{created['id']}?lang={lang}#token={token}")
    page.wait_for_selector(READY)
    return ctx, page


def _play(page: Any, label: str) -> None:
    before = version(page)
    page.locator("button.move:not([disabled])", has_text=label).first.click()
    page.wait_for_function(NEWER, arg=[before], timeout=15000)


@pytest.mark.parametrize(("lang", "stop", "take_back", "logged"), [
    ("en", "Stop drawing", "Take back", "took back move 1"),
    ("pt-BR", "Stop drawing", "Desfazer", "desfez a jogada 1"),  # the toy game has no texts
])
def test_take_back_your_own_move_before_the_next_seat_acts(
        browser: Any, stack: Stack, shots: Shots, lang: str, stop: str, take_back: str,
        logged: str) -> None:
    created = _toy_game(stack)
    ctx, page = _open(browser, stack, created, lang)
    errors = watch_errors(page)
    assert page.query_selector("#takeback") is None, "nothing to take back yet"
    _play(page, stop)
    page.wait_for_selector("#takeback")
    assert page.inner_text("#takeback") == take_back
    shots(page, "offered", full_page=False)
    before = version(page)
    page.click("#takeback")
    page.wait_for_function(NEWER, arg=[before], timeout=15000)
    page.wait_for_selector(READY)
    assert page.query_selector("#takeback") is None
    assert page.locator("button.move:not([disabled])").count() == 2, "seat 0 to act again"
    assert logged in page.inner_text("#log")
    assert page.locator("#log li.taken-back").count() == 1
    shots(page, "taken-back", full_page=False)
    game = stack.client.get_game(created["id"])
    assert game["to_act"] == 0 and game["version"] == 2
    assert errors == []
    ctx.close()


def test_no_take_back_once_the_next_seat_acted_or_after_a_draw(browser: Any, stack: Stack,
                                                               shots: Shots) -> None:
    created = _toy_game(stack)
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    ctx, page = _open(browser, stack, created, "en")
    _play(page, "Stop drawing")
    page.wait_for_selector("#takeback")
    # Seat 1 answers (another client): the offer goes with the next version.
    stack.client.move(created["id"], tokens[1], {"type": "draw"}, 1)
    page.wait_for_function(NEWER, arg=[1], timeout=15000)
    page.wait_for_function("() => !document.querySelector('#takeback')", timeout=15000)
    shots(page, "answered", full_page=False)
    ctx.close()
    # A draw shows a hidden card: never offered.
    created = _toy_game(stack)
    ctx, page = _open(browser, stack, created, "en")
    _play(page, "Draw the top card")
    page.wait_for_timeout(300)
    assert page.query_selector("#takeback") is None
    ctx.close()
    # A ranked game: never offered.
    created = _toy_game(stack, unranked=False)
    ctx, page = _open(browser, stack, created, "en")
    _play(page, "Stop drawing")
    page.wait_for_timeout(300)
    assert page.query_selector("#takeback") is None
    ctx.close()
