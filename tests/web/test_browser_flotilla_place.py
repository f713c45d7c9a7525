"""Placing a Flotilla tile on the board, step by step (issue 30: "a tile then a hex then a
rotation, with a live preview"): on a 360 px phone with touch, a highlighted hex is tapped,
the tile is drawn on it at its first legal turn, "Rotate" goes through exactly that hex's legal
turns, "Cancel" puts the map back as it was, and "Place here" posts exactly the legal move of
that hex and turn. A Skyside tile is built the same way (at 1280×800, with a mouse): its
preview draws the tile's own Watercraft and Sonar piece at each legal turn, and "Build here"
posts exactly that build. Screenshots in test-artifacts/web/.

Each game is a seeded unranked 3-seat game of people, played through the API up to seat 0's
first tile placement (a tile to place is always picked when offered) or first build.
axe-core finds no violation with either preview open, on a desktop and on a phone.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from api.play import web_root
from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY, aria_pressed_problems
from tests.web.test_browser import watch_errors
from tests.web.test_browser_board_play import DESKTOP, PHONE
from tests.web.test_browser_player import AXE, axe_violations
from tests.web.test_browser_tap_size import NARROW_PHONE, TAP

pytestmark = pytest.mark.e2e

TILES = json.loads((web_root() / "data" / "flotilla.json").read_text("utf-8"))["tiles"]


def _to_a_tile_placement(stack: Stack, game_id: str, tokens: dict[int, str],
                         seed: int) -> dict[str, Any]:
    """Every seat's moves played through the API (a tile to place picked whenever offered,
    else a random move) until seat 0 must place a tile; the game as seat 0 then sees it."""
    rng = random.Random(seed)
    for _ in range(400):
        seat = stack.client.get_game(game_id)["to_act"]
        body = stack.client.get_game(game_id, tokens[seat])
        assert body["status"] == "active", "the game ended before a tile was placed"
        moves = body["legal_moves"]
        if seat == 0 and any(m["type"] == "place" for m in moves):
            return body
        picks = [m for m in moves if m["type"] == "pick_tile"]
        move = picks[0] if picks else rng.choice(moves)
        stack.client.move(game_id, tokens[seat], {k: v for k, v in move.items() if k != "label"},
                          body["version"])
    raise AssertionError("no tile placement came up")


def _preview(page: Any, cell: int) -> dict[str, Any]:
    """The preview on `cell`'s hex: its turn, its wedges (corner, direction from the hex's
    centre), and its centre and the hex's (CSS px)."""
    return dict(page.evaluate("""(cell) => {
        const g = document.querySelector(`#fl-map-wrap svg [data-cell="${cell}"]`);
        const preview = document.querySelector(
            `#fl-map-wrap svg .fl-preview[data-preview-cell="${cell}"]`);
        if (!preview) return null;
        const centre = (el) => { const b = el.getBoundingClientRect();
                                 return [b.left + b.width / 2, b.top + b.height / 2]; };
        const [x, y] = centre(g.querySelector('polygon'));
        // Each wedge by the direction it lies in from the hex's centre (degrees, y down).
        const wedges = [...preview.querySelectorAll('.wedge')].map((w) => {
            const [wx, wy] = centre(w);
            const angle = Math.atan2(wy - y, wx - x) * 180 / Math.PI;
            return [Number(w.dataset.vertex), (angle + 360) % 360];
        });
        return {rot: Number(preview.dataset.rot), wedges,
                at: centre(preview.querySelector('polygon.hex')), hex: [x, y]};
    }""", cell) or {})


def test_a_tile_is_placed_on_the_map_with_a_live_preview(browser: Any, stack: Stack,
                                                         shots: Shots) -> None:
    created = stack.client.create_game("flotilla", {"players": 3}, seed=7, unranked=True)
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    token = tokens[0]
    body = _to_a_tile_placement(stack, created["id"], tokens, 7)
    tile = body["view"]["stack"][-1][1]
    places = [m for m in body["legal_moves"] if m["type"] == "place"]
    # The hex offering the most turns of the tile.
    cell = max({m["cell"] for m in places}, key=lambda c: (sum(m["cell"] == c for m in places), -c))
    turns = sorted(m["rot"] for m in places if m["cell"] == cell)

    ctx = browser.new_context(**NARROW_PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{created['id']}?lang=pt-BR#token={token}")
        page.wait_for_selector(READY)
        hex_place = page.locator(f"#fl-map-wrap svg [data-cell='{cell}'].choosable")
        map_before = page.inner_html("#fl-map-wrap svg")
        # A hex whose tile is built there is no toggle (a tap previews, a second turns it);
        # a board control of one move is (confirmation is on with touch).
        assert hex_place.get_attribute("aria-pressed") is None
        assert aria_pressed_problems(page) == []

        # A tap on the hex: the tile drawn there at its first legal turn, from its own data.
        hex_place.tap()
        page.wait_for_selector("#fl-place-bar")
        assert aria_pressed_problems(page) == []
        seen = [_preview(page, cell)]
        assert seen[0]["rot"] == turns[0]
        assert all(abs(a - b) < 1 for a, b in zip(seen[0]["at"], seen[0]["hex"], strict=True))
        shots(page, "preview", full_page=False)
        controls = {name: page.locator(f"#fl-place-{name}")
                    for name in ("rotate", "confirm", "cancel")}
        for name, control in controls.items():
            box = control.bounding_box()
            assert box and box["width"] >= TAP and box["height"] >= TAP, (name, box)
            assert control.get_attribute("aria-label") or control.inner_text().strip(), name
        assert controls["confirm"].inner_text() == "Colocar aqui"  # the page's language
        assert "Girar a peça" in str(controls["rotate"].get_attribute("aria-label"))

        # "Rotate" goes through exactly this hex's legal turns, then back to the first.
        for _ in turns:
            controls["rotate"].tap()
            seen.append(_preview(page, cell))
        assert [s["rot"] for s in seen] == turns + [turns[0]]
        for s in seen:
            # The tile's own wedges, turned: the engine's corner k lies between its edges k
            # and k + 1, edge e towards -60e° on the map (y down), so corner k at -(60k + 30)°.
            assert sorted(v for v, _ in s["wedges"]) == sorted(
                (v + s["rot"]) % 6 for v, _ in TILES[tile]["wedges"])
            for vertex, angle in s["wedges"]:
                expected = -(60 * vertex + 30) % 360
                assert min(abs(angle - expected), 360 - abs(angle - expected)) < 10, (vertex, angle)
        assert page.locator("#fl-map-wrap .fl-preview").count() == 1

        # "Cancel": the map as it was.
        controls["cancel"].tap()
        assert page.locator("#fl-place-bar").count() == 0
        assert page.inner_html("#fl-map-wrap svg") == map_before

        # Again, one turn on, and "Place here": exactly that legal move is posted.
        hex_place.tap()
        page.wait_for_selector("#fl-place-bar")
        if len(turns) > 1:
            controls["rotate"].tap()
        chosen = turns[1 % len(turns)]
        shots(page, "turned", full_page=False)
        with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/moves")) as sent:
            controls["confirm"].tap()
        posted = sent.value.post_data_json
        assert posted["move"] == {"type": "place", "cell": cell, "rot": chosen}
        assert posted["version"] == body["version"]
        page.wait_for_function(
            "([v]) => Number(document.querySelector('#status').dataset.version) > v",
            arg=[body["version"]], timeout=20000)
        board = stack.client.get_game(created["id"], token)["view"]["board"]
        assert board[str(cell)][:2] == [tile, chosen]
        shots(page, "placed", full_page=False)
        assert errors == []
    finally:
        ctx.close()


def _to_a_build(stack: Stack, game_id: str, tokens: dict[int, str],
                seed: int) -> dict[str, Any]:
    """Seat 0 played towards a Skyside build through the API (tiles placed whenever
    offered, the Flotilla joined once two of its tiles are out and it has two Resources, a
    tile to build picked whenever offered), the other seats at random and on the Sinkside,
    until seat 0 must build a tile on the map; the game as seat 0 then sees it."""
    rng = random.Random(seed)
    for _ in range(900):
        seat = stack.client.get_game(game_id)["to_act"]
        body = stack.client.get_game(game_id, tokens[seat])
        assert body["status"] == "active", "the game ended before a tile was built"
        moves = body["legal_moves"]
        if seat == 0 and any(m["type"] == "build" for m in moves):
            return body
        v = body["view"]
        ready = (sum(e[2] == 0 and e[0] >= 0 for e in v["board"].values()) >= 2
                 and sum(v["reserve"][0]) >= 2)
        stay = [m for m in moves if m["type"] != "join"] or moves
        picks = [m for m in moves if m["type"] == "pick_tile"]
        joins = [m for m in moves if m["type"] == "join"]
        regroups = [m for m in moves if m["type"] == "regroup"]  # a Captain play offers joining
        if seat == 0 and ready and (joins or regroups):
            move = (joins or regroups)[0]
        else:
            move = picks[0] if picks else rng.choice(stay)
        stack.client.move(game_id, tokens[seat], {k: v for k, v in move.items() if k != "label"},
                          body["version"])
    raise AssertionError("no Skyside build came up")


def _sky_preview(page: Any, cell: int) -> dict[str, Any]:
    """The Skyside preview on `cell`'s hex: its side and turn, its Watercraft bands (edge,
    direction from the hex's centre), its Sonar piece (corner, direction) and its letters."""
    return dict(page.evaluate("""(cell) => {
        const g = document.querySelector(`#fl-map-wrap svg [data-cell="${cell}"]`);
        const preview = document.querySelector(
            `#fl-map-wrap svg .fl-preview[data-preview-cell="${cell}"]`);
        if (!preview) return null;
        const centre = (el) => { const b = el.getBoundingClientRect();
                                 return [b.left + b.width / 2, b.top + b.height / 2]; };
        const [x, y] = centre(g.querySelector('polygon'));
        const towards = (el) => {
            const [ex, ey] = centre(el);
            return (Math.atan2(ey - y, ex - x) * 180 / Math.PI + 360) % 360;
        };
        const sonar = preview.querySelector('.sonar-piece');
        return {side: preview.dataset.side, rot: Number(preview.dataset.rot),
                bands: [...preview.querySelectorAll('.watercraft')].map(
                    (l) => [Number(l.dataset.edge), towards(l)]),
                sonar: sonar ? [Number(sonar.dataset.vertex), towards(sonar)] : null,
                letters: preview.querySelector('.hex-label')?.textContent ?? '',
                wedges: preview.querySelectorAll('.wedge').length};
    }""", cell) or {})


def _built_watercraft(page: Any, cell: int) -> list[int]:
    """The Watercraft edges the map draws on `cell`'s built tile."""
    return list(page.evaluate("""(cell) => [...document.querySelectorAll(
        `#fl-map-wrap svg [data-marks="${cell}"] .watercraft`)]
        .map((l) => Number(l.dataset.edge))""", cell))


def _near(angle: float, expected: float) -> bool:
    d = abs(angle - expected % 360)
    return min(d, 360 - d) < 10


def test_a_skyside_tile_is_built_on_the_map_with_a_live_preview(browser: Any, stack: Stack,
                                                                shots: Shots) -> None:
    """Issue 30: a Skyside build (a tile, then a hex, then a turn) is previewed on the map as
    a placement is: the tile's own Watercraft and Sonar piece turned as each legal turn of
    that hex says, and "Build here" posts exactly that move."""
    created = stack.client.create_game("flotilla", {"players": 3}, seed=11, unranked=True)
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    token = tokens[0]
    body = _to_a_build(stack, created["id"], tokens, 11)
    tile = body["view"]["stack"][-1][1]
    sky = TILES[tile]["sky"]
    builds = [m for m in body["legal_moves"] if m["type"] == "build"]
    cell = max({m["cell"] for m in builds}, key=lambda c: (sum(m["cell"] == c for m in builds), -c))
    turns = sorted(m["rot"] for m in builds if m["cell"] == cell)

    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{created['id']}#token={token}")
        page.wait_for_selector(READY)
        hex_place = page.locator(f"#fl-map-wrap svg [data-cell='{cell}'].choosable")
        map_before = page.inner_html("#fl-map-wrap svg")

        hex_place.click()
        page.wait_for_selector("#fl-place-bar")
        seen = [_sky_preview(page, cell)]
        shots(page, "build-preview", full_page=False)
        confirm = page.locator("#fl-place-confirm")
        assert confirm.inner_text() == "Build here"
        assert page.get_attribute("#fl-place-bar", "aria-label") == "Build the tile on this hex"
        for _ in turns:
            if len(turns) > 1:
                page.click("#fl-place-rotate")
            seen.append(_sky_preview(page, cell))
        expected_turns = turns + [turns[0]] if len(turns) > 1 else turns * 2
        assert [s["rot"] for s in seen] == expected_turns
        letters = "".join({"red": "R", "yellow": "Y", "green": "G", "blue": "B"}[c]
                          for c in sky["districts"])
        for s in seen:
            assert s["side"] == "sky" and s["wedges"] == 0  # the Skyside, not the Sinkside
            assert s["letters"] == letters
            # The tile's own Watercraft, turned: edge e lies towards -60e° (y down).
            assert sorted(e for e, _ in s["bands"]) == sorted(
                (e + s["rot"]) % 6 for e in sky["watercraft_edges"])
            for edge, angle in s["bands"]:
                assert _near(angle, -60 * edge), (edge, angle)
            if sky["sonar"] is None:
                assert s["sonar"] is None
            else:
                vertex, angle = s["sonar"]
                assert vertex == (sky["sonar"] + s["rot"]) % 6
                assert _near(angle, -(60 * vertex + 30)), (vertex, angle)

        page.click("#fl-place-cancel")
        assert page.locator("#fl-place-bar").count() == 0
        assert page.inner_html("#fl-map-wrap svg") == map_before

        hex_place.click()
        page.wait_for_selector("#fl-place-bar")
        if len(turns) > 1:
            page.click("#fl-place-rotate")
        chosen = turns[1 % len(turns)]
        with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/moves")) as sent:
            page.click("#fl-place-confirm")
        posted = sent.value.post_data_json
        assert posted["move"] == {"type": "build", "cell": cell, "rot": chosen}
        assert posted["version"] == body["version"]
        page.wait_for_function(
            "([v]) => Number(document.querySelector('#status').dataset.version) > v",
            arg=[body["version"]], timeout=20000)
        assert stack.client.get_game(created["id"], token)["view"]["board"][str(cell)][:2] == [
            tile, chosen]
        # Built, the tile is drawn on the map as its preview was.
        built = _built_watercraft(page, cell)
        assert sorted(built) == sorted((e + chosen) % 6 for e in sky["watercraft_edges"])
        shots(page, "built", full_page=False)
        assert errors == []
    finally:
        ctx.close()



@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("step", ["place", "build"])
def test_axe_finds_no_violation_with_a_tile_previewed(browser: Any, stack: Stack, shots: Shots,
                                                      step: str, device: str) -> None:
    """The preview open (a tile picked, a hex tapped, its turn drawn, its bar of controls on
    the map): axe-core, as on each game's page (test_browser_player)."""
    seed = 7 if step == "place" else 11
    created = stack.client.create_game("flotilla", {"players": 3}, seed=seed, unranked=True)
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    reach = _to_a_tile_placement if step == "place" else _to_a_build
    body = reach(stack, created["id"], tokens, seed)
    cell = next(m["cell"] for m in body["legal_moves"] if m["type"] == step)
    ctx = browser.new_context(**(DESKTOP if device == "desktop" else PHONE), locale="en-US",
                              bypass_csp=True)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{created['id']}#token={tokens[0]}")
        page.wait_for_selector(READY)
        page.wait_for_timeout(300)  # the analysis panel and the stream's first word
        page.locator(f"#fl-map-wrap svg [data-cell='{cell}'].choosable").click()
        page.wait_for_selector("#fl-place-bar")
        shots(page, f"{step}-preview", full_page=False)
        page.add_script_tag(path=str(AXE))
        assert axe_violations(page) == []
        # No hex the page makes a button holds drawn text (the preview's Depth or Districts,
        # a tile's): a visible label its name ("3 moves here") lacks.
        assert page.locator("#fl-map-wrap svg [data-cell][role=button] text").count() == 0
        assert page.locator("#fl-place-bar").count() == 1  # still open: axe read the preview
        assert errors == []
    finally:
        ctx.close()
