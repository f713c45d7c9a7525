"""Whole games played on the board only (issue 30: "moves chosen on the board"), with a
screenshot of every step in test-artifacts/web/<test>/.

Every legal move has a board place (the renderer's `placeOf`: a die, a card, an action area,
a supply, an expert space, a hex..., or a control drawn on the board for a move with no place
of its own, such as "Finish publishing"). Each step clicks or taps a highlighted place: a
place of one move is chosen at once (a touch screen confirms it in the confirm bar), a place
of several narrows the list to that place's moves, and one of those is chosen (a Flotilla
hex where a tile may go shows the tile there instead, turned on the map and placed; a Darwin's
Journey worker at home highlights the locations it may go to, and one is tapped). A step where
the board offered no place is played from the whole move list and counted by move type: the
test fails if there is any, naming them.

One language per screen size keeps each game to a few minutes on a small machine: a phone
(390×844, touch) in English plays the whole game, and meanwhile a desktop (1280×800, mouse) in
Portuguese (in a thread with its own Playwright and Chromium) plays the first `DESKTOP_STEPS`
moves of its own game, dealt alike: every kind of move of the first rounds by mouse, and
the rest of the game by touch. Two whole games at once kept both cores busy: Flotilla's took
260 s, the phone's alone 160 s (of which Chromium's own metrics counted 132 s of busy page).
"""

from __future__ import annotations

import collections
import random
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import Stack
from tests.web.conftest import Shots, chromium_path, launch_chromium
from tests.web.helpers import READY, version
from tests.web.test_browser_games import readable, too_wide

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the browser fixture skips without Playwright
    PlaywrightError = Exception  # type: ignore[misc,assignment]

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE_EN, DESKTOP_PT = ("phone", "en"), ("desktop", "pt-BR")
NEWER = ("([v]) => Number(document.querySelector('#status').dataset.version) > v"
         " || !document.querySelector('#notice').hidden")
MAX_STEPS = 800
DESKTOP_STEPS = 40  # the desktop's moves: its first rounds (see the module's docstring)
CHECK_EVERY = 10  # steps between the page's checks for raw text and overflow (each ~0.1 s)
# Which of the bars a press on the board may open are shown (visible as Playwright means it:
# a box that is not empty, not visibility:hidden): one round trip, not three.
SHOWN = """() => Object.fromEntries(['fl-place-bar', 'dj-place-bar', 'confirm-bar'].map((id) => {
    const bar = document.getElementById(id);
    const box = bar?.getBoundingClientRect();
    return [id, Boolean(bar && box.width > 0 && box.height > 0
                        && getComputedStyle(bar).visibility !== 'hidden')];
  }))"""


def _press(page: Any, target: Any, touch: bool) -> None:
    """A tap on a touch screen, a click with a mouse."""
    if touch:
        target.tap(timeout=3000)
    else:
        target.click(timeout=3000)


def _step(page: Any, rng: random.Random, touch: bool, from_list: collections.Counter[str],
          shot: Callable[[str], None]) -> str:
    """One move of the seat, on the board when it offers a place, else (counted by type)
    from the whole list; `shot(where)` saves the screen once the move is chosen (its place
    in view, marked). What was pressed: "board" or "list"."""
    before = version(page)
    places = page.locator("#board .choosable")
    count = places.count()
    if count:
        _press(page, places.nth(rng.randrange(count)), touch)  # scrolled into view first
        shown = page.evaluate(SHOWN)
        if shown["fl-place-bar"]:
            # A Flotilla tile built on its hex: turned a few times on the map, then placed.
            for _ in range(rng.randrange(3)):
                if page.is_enabled("#fl-place-rotate"):
                    _press(page, page.locator("#fl-place-rotate"), touch)
            shot("board")
            _press(page, page.locator("#fl-place-confirm"), touch)
            page.wait_for_function(NEWER, arg=[before], timeout=20000)
            return "board"
        if shown["dj-place-bar"]:
            # A Darwin's Journey worker tapped: then one of the locations it may go to.
            targets = page.locator("#board .dj-target")
            _press(page, targets.nth(rng.randrange(targets.count())), touch)
        elif not shown["confirm-bar"]:
            # A place of several moves (or of one, without confirmation): its moves only.
            page.wait_for_selector("#all-moves", timeout=3000)
            listed = page.locator("button.move:not([disabled])")
            _press(page, listed.nth(rng.randrange(listed.count())), touch)
        where = "board"
    else:
        buttons = page.locator("button.move:not([disabled])")
        button = buttons.nth(rng.randrange(buttons.count()))
        from_list[str(button.get_attribute("data-type"))] += 1
        _press(page, button, touch)
        where = "list"
    shot(where)
    if page.is_visible("#confirm-bar"):
        _press(page, page.locator("#confirm-play"), touch)
    page.wait_for_function(NEWER, arg=[before], timeout=20000)
    return where


def play_on_the_board(page: Any, shots: Shots, seed: int,
                      steps: int | None = None) -> tuple[collections.Counter[str],
                                                         collections.Counter[str]]:
    """Play this seat's moves on the board until the result shows (or for `steps` moves):
    the steps by where they were pressed ("board", "list") and the list's steps by move
    type."""
    touch = bool(page.evaluate("navigator.maxTouchPoints > 0"))
    rng = random.Random(seed)
    from_list: collections.Counter[str] = collections.Counter()
    taps: collections.Counter[str] = collections.Counter()
    for step in range(MAX_STEPS):
        page.wait_for_selector(READY, timeout=30000)
        if page.is_visible("#result") or step == steps:
            break
        try:
            where = _step(page, rng, touch, from_list,
                          lambda where, n=step: shots(page, f"{n:03d}-{where}", full_page=False,
                                                      jpeg=True))
        except PlaywrightError:
            # Redrawn under the finger (a bot moved meanwhile): look again.
            page.wait_for_timeout(300)
            continue
        taps[where] += 1
        if step % CHECK_EVERY == 0:
            assert not too_wide(page), too_wide(page)
            readable(page)
    else:
        raise AssertionError(f"no result after {MAX_STEPS} steps")
    assert not too_wide(page), too_wide(page)
    shots(page, "result")
    return taps, from_list


def open_seat(browser: Any, stack: Stack, game: str, options: dict[str, Any], seed: int,
              screen: str, lang: str,
              seats: list[dict[str, Any]] | None = None) -> tuple[Any, Any, list[str]]:
    """A seeded unranked game's seat 0 opened at `screen` size in `lang`: the context, the
    page and the page's errors."""
    created = stack.client.create_game(game, options, seats, seed=seed, unranked=True)
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    ctx = browser.new_context(**(PHONE if screen == "phone" else DESKTOP), locale=lang)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{stack.api_url}/play/games/{created['id']}?lang={lang}#token={token}")
    page.wait_for_selector(READY)
    return ctx, page, errors


def on_both_screens(browser: Any, shots: Shots,
                    play: Callable[[Any, Shots, str, str], None]) -> None:
    """`play(browser, shots, screen, lang)` on the phone in English (here, on the session's
    browser) and on the desktop in Portuguese (meanwhile, in a thread with its own Playwright
    and Chromium); screenshots in a folder per screen. The first failure is raised."""
    from playwright.sync_api import sync_playwright

    failures: list[BaseException] = []

    def on_the_desktop() -> None:
        try:
            with sync_playwright() as playwright:
                own = launch_chromium(playwright, str(chromium_path()))
                try:
                    play(own, Shots(shots.directory / "desktop-pt"), *DESKTOP_PT)
                finally:
                    own.close()
        except BaseException as error:  # raised in the test's thread below
            failures.append(error)

    (shots.directory / "desktop-pt").mkdir()
    (shots.directory / "phone-en").mkdir()
    desktop = threading.Thread(target=on_the_desktop, name="desktop-pt")
    desktop.start()
    try:
        play(browser, Shots(shots.directory / "phone-en"), *PHONE_EN)
    finally:
        desktop.join()
    if failures:
        raise failures[0]


def whole_game(stack: Stack, game: str, players: int, seats: list[dict[str, Any]] | None = None,
               result_words: tuple[str, ...] = (),
               end_words: tuple[str, ...] = ()) -> Callable[[Any, Shots, str, str], None]:
    """A seeded game of `game` played on the board only, at a screen size in a language, with
    the checks every such game passes: on the phone to its result, where the result names the
    `result_words` (the game's own scoring categories) and the page the `end_words`; on the
    desktop for its first `DESKTOP_STEPS` moves."""
    def play(browser: Any, shots: Shots, screen: str, lang: str) -> None:
        ctx, page, errors = open_seat(browser, stack, game, {"players": players}, 30, screen,
                                      lang, seats)
        whole = screen == "phone"
        try:
            assert page.is_checked("#confirm-setting") == (screen == "phone"), \
                "a touch screen confirms"
            taps, from_list = play_on_the_board(page, shots, 30,
                                                None if whole else DESKTOP_STEPS)
            print(f"{game} {screen} {lang}: {dict(taps)}, from the list: {dict(from_list)}")
            if whole:
                assert lang == "en", "the words checked below are English"
                assert page.is_visible("#winner")
                result = page.inner_text("#result")
                for words in ("Winner", "Total", *result_words):
                    assert words in result, words
                assert "Game over" in page.inner_text("#status")
                text = readable(page)
                # Words drawn as icons (Encyclopedia's round) are the drawings' names.
                named = text + page.locator("#board").aria_snapshot()
                for words in end_words:
                    assert words in named, words
                # A round announced as the last is the round shown (Flotilla's end trigger).
                assert "last round" not in text or re.search(
                    r"Round (\d+) · last round: \1\b", text)
                assert page.query_selector_all("#log > li"), "the move log lists the game"
            assert from_list == {}, f"moves with no board place: {dict(from_list)}"
            assert taps["board"] > 0
            assert errors == []
        finally:
            ctx.close()

    return play


@pytest.mark.slow
def test_a_solo_encyclopedia_game_played_on_the_board_only(browser: Any, stack: Stack,
                                                           shots: Shots) -> None:
    on_both_screens(browser, shots, whole_game(stack, "encyclopedia", 1,
                                               result_words=("Continent collections",),
                                               end_words=("Round 6 of 6",)))


@pytest.mark.slow
def test_a_solo_darwins_journey_game_played_on_the_board_only(browser: Any, stack: Stack,
                                                              shots: Shots) -> None:
    """Against Alfred: a worker then a location, the tracks, cards, seals, stamps."""
    on_both_screens(browser, shots, whole_game(stack, "darwins-journey", 1))


@pytest.mark.slow
def test_a_three_seat_flotilla_game_played_on_the_board_only(browser: Any, stack: Stack,
                                                             shots: Shots) -> None:
    """This seat against two random bots: cards, hexes (a tile then a hex), guilds, market."""
    bots = [{"kind": "bot", "bot": "random", "params": {}}] * 2
    on_both_screens(browser, shots, whole_game(stack, "flotilla", 3, [{"kind": "human"}, *bots],
                                               result_words=("Guild Seal majorities",)))
