"""Darwin's Journey drawn as a board (issue 30: "spaces show icons and numbers, not
sentences; the words stay available as the accessible name and in a tooltip, in both
languages"): on a seeded solo game, every ocean and island space and every main-board
location that gives something shows the project's icons (clients/web/js/icons.js) with
numbers and none of the sentence, while its accessible name and tooltip say it in the page's
language ("2 points, 1 temporary knowledge" / "2 Pontos de Vitória, 1 Conhecimento
Temporário"). Every icon is either a named image or hidden beside words that name it.
Screenshots of the main board and the tracks on a phone and a desktop in
test-artifacts/web/.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from clients import web_messages
from tests.e2e.conftest import REPO, Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY
from tests.web.test_browser import watch_errors
from tests.web.test_browser_board_play import DESKTOP, PHONE

pytestmark = pytest.mark.e2e

LAYOUT = json.loads((REPO / "clients" / "web" / "data" / "darwins-journey.json").read_text("utf-8"))
SEED = 30
LOCATIONS = {loc["id"] for loc in LAYOUT["locations"]}
# Each drawn track space and location: its id, accessible name, tooltip, the visible text of
# what it gives and that part's icons.
PLACES = """() => [...document.querySelectorAll('#board .space, #board .location')].map((el) => {
    const gives = el.querySelector('.space-actions, .loc-actions');
    return {id: el.dataset.space || el.dataset.location, name: el.getAttribute('aria-label') || '',
            title: el.getAttribute('title') || '', shown: gives ? gives.innerText : '',
            icons: gives ? gives.querySelectorAll('svg.icon').length : 0};
  })"""
# Icons that are neither a named image nor hidden (a screen reader would meet a blank).
UNNAMED_ICONS = """() => [...document.querySelectorAll('#board svg.icon')].filter((svg) =>
    !(svg.getAttribute('role') === 'img' && svg.getAttribute('aria-label'))
    && svg.getAttribute('aria-hidden') !== 'true'
    && !svg.closest('[role=img][aria-label]')).length"""


def action_words(action: dict[str, Any], messages: dict[str, str]) -> str:
    """A data action in words, as the page's catalog says it (its singular for one)."""
    kind, count = action["a"], action.get("n")
    if kind == "academy" and action.get("d"):
        kind, count = "academy_discount", action["d"]
    key = f"dj.action.{kind}"
    if count is not None and abs(count) == 1 and f"{key}.one" in messages:
        key += ".one"
    text = messages[key]
    for name in ("n", "d"):
        text = text.replace(f"{{{name}}}", str(action.get(name, "")))
    return text


def expected_words(lang: str) -> dict[str, str]:
    """Each track space and location that gives something: what it gives in `lang`'s words
    (by its data-space or data-location)."""
    messages = web_messages.messages(lang)
    spaces = [*LAYOUT["ocean"], *(s for track in LAYOUT["islands"].values() for s in track)]
    words = {}
    for place in [*spaces, *LAYOUT["locations"]]:
        actions = [a for a in place["actions"] if a["a"] != "campsite"]
        if actions:
            words[place["id"]] = ", ".join(action_words(a, messages) for a in actions)
    return words


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "pt-BR"),
                                              ("desktop", "en"), ("phone", "pt-BR")])
def test_spaces_and_locations_show_icons_and_are_named_in_words(
        browser: Any, stack: Stack, shots: Shots, device: str, lang: str) -> None:
    created = stack.client.create_game("darwins-journey", {"players": 1}, seed=SEED,
                                       unranked=True)
    token = created["seats"][0]["token"]
    screen = PHONE if device == "phone" else {"viewport": DESKTOP["viewport"]}
    ctx = browser.new_context(**screen, locale=lang)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{created['id']}?lang={lang}#token={token}")
        page.wait_for_selector(READY)
        drawn = {p["id"]: p for p in page.evaluate(PLACES)}
        expected = expected_words(lang)
        spaces = len(LAYOUT["ocean"]) + sum(map(len, LAYOUT["islands"].values()))
        assert len([p for p in drawn if p not in LOCATIONS]) == spaces
        assert {loc for loc in LOCATIONS if not loc.startswith("special.")} <= set(expected)
        for place_id, words in expected.items():
            place = drawn[place_id]
            assert place["icons"] >= 1, place
            assert re.fullmatch(r"[\d\s/−]*", place["shown"]), f"words drawn in {place}"
            assert words in place["name"] and words in place["title"], (words, place)
        # The names a screen reader gets (computed by the browser): every place's words.
        snapshot = page.locator("#board .dj").aria_snapshot()
        assert [w for w in expected.values() if w not in snapshot] == []
        assert page.evaluate(UNNAMED_ICONS) == 0
        for part in ("dj-tracks", "dj-page"):
            page.locator(f"#board .{part}").first.scroll_into_view_if_needed()
            shots(page, f"{part}-{device}-{lang}", full_page=False)
        assert errors == []
    finally:
        ctx.close()
