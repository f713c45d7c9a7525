"""Placing a Darwin's Journey worker on the board, step by step (issue 30: "a worker then a
location"): on a 390×844 phone with touch, this seat's workers at home are drawn above the
locations with the legal ones highlighted; a tap on one highlights exactly the locations its
legal moves name; a tap on one of those draws the worker there and waits for the page's
confirmation; Cancel goes back a step, the bar's Cancel puts the board back as it was, and
Confirm posts exactly that legal move, which the game's log then shows. Several placements
of a seeded solo game (against Alfred) are played that way; every other decision from the
move list. The tracks sit in zoomed boxes that scroll sideways inside the screen.
Every toggle on the way says whether it is pressed (aria-pressed): the workers at home, and
the locations while a confirmation waits. Screenshots in test-artifacts/web/.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY, aria_pressed_problems, click_move
from tests.web.test_browser import watch_errors
from tests.web.test_browser_board_play import PHONE
from tests.web.test_browser_tap_size import TAP, check_the_tracks_scroll_in_their_boxes

pytestmark = pytest.mark.e2e

PLACEMENTS = 4  # placements played on the board (the first also cancelled, both ways)
NEWER = "([v]) => Number(document.querySelector('#status').dataset.version) > v"


def _boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    """Each element of `selector` in the board: its data attributes and size (CSS px)."""
    return list(page.evaluate("""(selector) =>
      [...document.querySelectorAll(selector)].map((el) => {
        const box = el.getBoundingClientRect();
        return {data: {...el.dataset}, width: box.width, height: box.height,
                pressed: el.getAttribute('aria-pressed')};
    })""", f"#board {selector}"))


def _place_on_the_board(page: Any, stack: Stack, game_id: str, token: str, rng: random.Random,
                        shots: Shots, n: int, cancel_first: bool) -> dict[str, Any]:
    """One placement by a tap on a worker, then on a location, then on Confirm: checked on
    the way; the move posted."""
    body = stack.client.get_game(game_id, token)
    # The page on this version (a read after Alfred's moves may still redraw the board: each
    # tap below goes through a locator, found again in a new draw).
    page.wait_for_function(
        "([v]) => Number(document.querySelector('#status').dataset.version) === v",
        arg=[body["version"]], timeout=20000)
    places = [m for m in body["legal_moves"] if m["type"] == "place"]
    home = body["view"]["home"][0]
    drawn = _boxes(page, "[data-home-worker]")
    assert sorted(int(d["data"]["homeWorker"]) for d in drawn) == sorted(home)
    legal = _boxes(page, "[data-home-worker].choosable")
    assert {int(d["data"]["homeWorker"]) for d in legal} == {m["worker"] for m in places}
    assert all(d["width"] >= TAP and d["height"] >= TAP for d in legal), legal
    worker = rng.choice(sorted({m["worker"] for m in places}))
    mine = {m["location"]: m for m in places if m["worker"] == worker}
    before = page.inner_html("#board")
    # Toggles (a worker at home; with confirmation on, a place of one move) say so, unpressed.
    assert aria_pressed_problems(page) == []
    assert {d["data"]["homeWorker"]: d["pressed"] for d in legal} == {
        str(m["worker"]): "false" for m in places}

    piece = page.locator(f"#board [data-home-worker='{worker}']")
    piece.tap()
    page.wait_for_selector("#dj-place-bar")
    assert piece.get_attribute("aria-pressed") == "true"
    assert [d["pressed"] for d in _boxes(page, "[data-home-worker].choosable")].count("true") == 1
    assert aria_pressed_problems(page) == []
    targets = _boxes(page, ".dj-target")
    # Each location picks its move (the confirmation then waits): a toggle, unpressed.
    assert {d["pressed"] for d in targets} == {"false"}
    assert {d["data"]["location"] for d in targets} == set(mine)  # exactly this worker's
    assert all(d["width"] >= TAP and d["height"] >= TAP for d in targets), targets
    assert page.locator("#board .dj-ghost").count() == 0
    shots(page, f"{n}-worker-{worker + 1}", full_page=False)

    location = rng.choice(sorted(mine))
    target = page.locator(f"#board .dj-target[data-location='{location}']")
    if cancel_first:
        # A location tapped: the worker drawn there, waiting; Cancel: back to its locations.
        target.tap()
        page.wait_for_selector("#confirm-bar:not([hidden])")
        assert page.locator(f"#board [data-location='{location}'] .dj-ghost").count() == 1
        assert page.inner_text("#confirm-what") == f"Play: {mine[location]['label']}"
        page.tap("#confirm-cancel")
        assert page.is_hidden("#confirm-bar")
        assert page.locator("#board .dj-ghost").count() == 0
        assert {d["pressed"] for d in _boxes(page, ".dj-target")} == {"false"}
        assert piece.get_attribute("aria-pressed") == "true"
        assert aria_pressed_problems(page) == []
        assert {d["data"]["location"] for d in _boxes(page, ".dj-target")} == set(mine)
        # The bar's Cancel: the board exactly as it was.
        page.tap("#dj-place-cancel")
        assert page.locator("#dj-place-bar").count() == 0
        assert page.inner_html("#board") == before
        # The worker tapped twice puts the board back too.
        piece.tap()
        page.wait_for_selector("#dj-place-bar")
        piece.tap()
        assert page.inner_html("#board") == before
        piece.tap()
        page.wait_for_selector("#dj-place-bar")
    target.tap()
    page.wait_for_selector("#confirm-bar:not([hidden])")
    assert "chosen" in str(target.get_attribute("class"))
    assert target.get_attribute("aria-pressed") == "true"
    assert [d["pressed"] for d in _boxes(page, ".dj-target")].count("true") == 1
    assert aria_pressed_problems(page) == []
    assert page.locator(f"#board [data-location='{location}'] .dj-ghost").count() == 1
    shots(page, f"{n}-previewed-{location}", full_page=False)
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/moves")) as sent:
        page.tap("#confirm-play")
    posted = sent.value.post_data_json
    expected = {k: v for k, v in mine[location].items() if k != "label"}
    assert posted["move"] == expected
    assert posted["version"] == body["version"]
    page.wait_for_function(NEWER, arg=[body["version"]], timeout=20000)
    return mine[location]


def test_workers_are_placed_on_the_board_by_a_worker_then_a_location(
        browser: Any, stack: Stack, shots: Shots) -> None:
    created = stack.client.create_game("darwins-journey", {"players": 1}, seed=12, unranked=True)
    game_id = created["id"]
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    ctx = browser.new_context(**PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{game_id}#token={token}")
        rng = random.Random(12)
        placed = []
        for _ in range(200):
            page.wait_for_selector(READY, timeout=30000)
            assert not page.is_visible("#result"), "the game ended before enough placements"
            moves = stack.client.get_game(game_id, token)["legal_moves"]
            if not any(m["type"] == "place" for m in moves):
                click_move(page, rng)  # a draft, an action of the location, ...
                continue
            move = _place_on_the_board(page, stack, game_id, token, rng, shots, len(placed),
                                       cancel_first=not placed)
            # The game's log has the move played, and the page's log shows it.
            logged = [e for e in stack.client.iter_moves(game_id, token) if e["seat"] == 0]
            assert logged[-1]["move"]["worker"] == move["worker"]
            assert logged[-1]["move"]["location"] == move["location"]
            line = f"#log li[value='{logged[-1]['index'] + 1}']"
            page.wait_for_selector(line)
            assert page.inner_text(f"{line} .what") == move["label"]
            placed.append(move)
            if len(placed) == PLACEMENTS:
                break
        assert len(placed) == PLACEMENTS, placed
        check_the_tracks_scroll_in_their_boxes(page, PHONE["viewport"]["width"])
        shots(page, "tracks", full_page=False)
        assert errors == []
    finally:
        ctx.close()

