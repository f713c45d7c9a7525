"""Darwin's Journey's tracks drawn as a board (issue 30: "spaces show icons and numbers, not
sentences; the words stay available as the accessible name and in a tooltip, in both
languages"): on a seeded solo game, every ocean and island space that gives something shows
the project's icons (clients/web/js/icons.js) with numbers and none of the sentence, while
the space's accessible name and tooltip say it in the page's language ("2 points, 1
temporary knowledge" / "2 Pontos de Vitória, 1 Conhecimento Temporário"). Every icon is
either a named image or hidden beside words that name it. Screenshots of the tracks on a
phone and a desktop in test-artifacts/web/.
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
# Each drawn track space: its id, accessible name, tooltip, the visible text of what it gives
# and that part's icons.
SPACES = """() => [...document.querySelectorAll('#board .dj-tracks .space')].map((el) => {
    const gives = el.querySelector('.space-actions');
    return {id: el.dataset.space, name: el.getAttribute('aria-label') || '',
            title: el.getAttribute('title') || '', shown: gives ? gives.innerText : '',
            icons: gives ? gives.querySelectorAll('svg.icon').length : 0};
  })"""
# Icons that are neither a named image nor hidden (a screen reader would meet a blank).
UNNAMED_ICONS = """() => [...document.querySelectorAll('#board svg.icon')].filter((svg) =>
    !(svg.getAttribute('role') === 'img' && svg.getAttribute('aria-label'))
    && svg.getAttribute('aria-hidden') !== 'true'
    && !svg.closest('[role=img][aria-label]')).length"""


def action_words(action: dict[str, Any], messages: dict[str, str]) -> str:
    """A track action in words, as the page's catalog says it (its singular for one)."""
    key = f"dj.action.{action['a']}"
    if abs(action.get("n", 0)) == 1 and f"{key}.one" in messages:
        key += ".one"
    return messages[key].replace("{n}", str(action.get("n", "")))


def expected_words(lang: str) -> dict[str, str]:
    """Each track space that gives something: what it gives in `lang`'s words."""
    messages = web_messages.messages(lang)
    spaces = [*LAYOUT["ocean"], *(s for track in LAYOUT["islands"].values() for s in track)]
    words = {}
    for space in spaces:
        actions = [a for a in space["actions"] if a["a"] != "campsite"]
        if actions:
            words[space["id"]] = ", ".join(action_words(a, messages) for a in actions)
    return words


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "pt-BR"),
                                              ("desktop", "en"), ("phone", "pt-BR")])
def test_track_spaces_show_icons_and_are_named_in_words(browser: Any, stack: Stack,
                                                        shots: Shots, device: str,
                                                        lang: str) -> None:
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
        drawn = {s["id"]: s for s in page.evaluate(SPACES)}
        expected = expected_words(lang)
        assert len(drawn) == len(LAYOUT["ocean"]) + sum(map(len, LAYOUT["islands"].values()))
        assert expected, "the layout has spaces that give something"
        for space_id, words in expected.items():
            space = drawn[space_id]
            assert space["icons"] >= 1, space
            assert re.fullmatch(r"[\d\s/−]*", space["shown"]), f"words drawn in {space}"
            assert words in space["name"] and words in space["title"], (words, space)
        # The names a screen reader gets (computed by the browser): every space's words.
        snapshot = page.locator("#board .dj-tracks").aria_snapshot()
        assert [w for w in expected.values() if w not in snapshot] == []
        assert page.evaluate(UNNAMED_ICONS) == 0
        page.locator("#board .dj-tracks").scroll_into_view_if_needed()
        shots(page, f"tracks-{device}-{lang}", full_page=False)
        page.locator("#board .dj-tracks").screenshot(
            path=str(shots.directory / f"tracks-{device}-{lang}-section.png"))
        assert errors == []
    finally:
        ctx.close()
