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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from clients import web_messages
from core.darwins_journey import i18n as dj_texts
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


@contextmanager
def game_page(browser: Any, stack: Stack, game_id: str, token: str, device: str,
              lang: str, ready: str = READY) -> Iterator[tuple[Any, list[str]]]:
    """The game's page for `token` on a phone or a desktop in `lang`, once `ready` shows (by
    default: ready for a move), and the list its errors are collected in."""
    screen = PHONE if device == "phone" else {"viewport": DESKTOP["viewport"]}
    ctx = browser.new_context(**screen, locale=lang)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{game_id}?lang={lang}#token={token}")
        page.wait_for_selector(ready)
        yield page, errors
    finally:
        ctx.close()


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
    with game_page(browser, stack, created["id"], token, device, lang) as (page, errors):
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


# Each card or tile drawn as a picture (a Beagle goal, a correspondence tile, a crew card's
# effect in the hand, an objective on display or in a starting pair): its part, the id it is
# drawn for, its accessible name, tooltip, visible text and number of icons.
PICTURES = """() => {
    const parts = {goal: '.goals li', envelope: '[data-envelope]', crew: '#hand [data-card]',
                   objective: '.dj-section [data-objective]', pair: '[data-pair]',
                   special: '[data-location^="special."]'};
    const out = [];
    for (const [part, where] of Object.entries(parts)) {
      for (const el of document.querySelectorAll(`#board ${where}`)) {
        const pics = [...el.querySelectorAll('.dj-pic')];
        out.push({part, id: el.dataset.envelope ?? el.dataset.card ?? el.dataset.objective
                  ?? el.dataset.pair ?? el.dataset.location ?? null, text: el.innerText,
                  pics: pics.map((p) => ({name: p.getAttribute('aria-label') || '',
                                          title: p.getAttribute('title') || '',
                                          role: p.getAttribute('role'), shown: p.innerText,
                                          icons: p.querySelectorAll('svg.icon').length}))});
      }
    }
    return out;
  }"""
# What a picture may show: numbers and a few signs ("/" per or either, "+" and, "→" then,
# "∗" any, "✓" achieved or free, "↻" again, "−" less), never a letter.
SIGNS = r"[\d\s/+→∗✓↻−]*"


def _objective_words(entry: dict[str, Any], messages: dict[str, str]) -> str:
    """An objective in the page's words (the renderer's objectiveText): its number, silver or
    gold, then the catalog's requirements."""
    kind = messages["dj.gold" if entry["gold"] else "dj.silver"]
    head = messages["dj.objective"].replace("{n}", str(entry["tile"])).replace("{kind}", kind)
    return f"{head}: {messages['dj.and'].join(entry['needs'])}"


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "pt-BR"),
                                              ("desktop", "en"), ("phone", "pt-BR")])
def test_goals_tiles_objectives_and_crew_cards_show_icons_named_by_the_catalog(
        browser: Any, stack: Stack, shots: Shots, device: str, lang: str) -> None:
    """The Beagle goals, the correspondence tiles, the objectives (on display and in the
    starting pairs), the crew cards of the hand and the special tiles of the main board are
    drawn as icons with numbers: none of their sentences is drawn, each picture's accessible
    name and tooltip are the catalog's words in the page's language, and a tap on a Beagle
    goal explains it in those words."""
    created = stack.client.create_game("darwins-journey", {"players": 1}, seed=SEED,
                                       unranked=True)
    token = created["seats"][0]["token"]
    view = stack.client.get_game(created["id"], token)["view"]
    english = view["catalog"]
    catalog = english if lang == "en" else dj_texts.catalog(english, "pt_BR")
    messages = web_messages.messages(lang)
    assert view["phase"] == "draft" and view["hand"] and view["start_pairs"], view["phase"]
    with game_page(browser, stack, created["id"], token, device, lang) as (page, errors):
        drawn: dict[str, list[dict[str, Any]]] = {}
        for place in page.evaluate(PICTURES):
            drawn.setdefault(place["part"], []).append(place)
        objectives = {o["tile"]: o for o in catalog["objectives"]}
        crew = {c["card"]: c for c in catalog["crew"]}
        expected = {
            "goal": [[g["text"]] for g in catalog["beagle_goals"]],
            "envelope": [[tile["text"]] for tile in catalog["correspondence"]],
            "crew": [[crew[card]["text"]] for card in view["hand"]],
            "objective": [[_objective_words(objectives[tile], messages)]
                          for tile in [*view["obj_display"][0], *view["obj_display"][1]]],
            "pair": [[_objective_words(objectives[tile], messages) for tile in pair]
                     for pair in view["start_pairs"]],
        }
        # The special tiles, by the location they are on (the board's order).
        special = {f"special.{s['position']}": [s["text"]] for s in catalog["special"]}
        expected["special"] = [special[place["id"]] for place in drawn.get("special", [])]
        assert len(expected["special"]) == len(special)
        for part, names in expected.items():
            assert names, part
            places = drawn.get(part, [])
            assert [[p["name"] for p in place["pics"]] for place in places] == names, part
            for place in places:
                for pic in place["pics"]:
                    assert pic["title"] == pic["name"] and pic["role"] == "img", pic
                    assert pic["icons"] >= 1, (part, pic)
                    assert re.fullmatch(SIGNS, pic["shown"]), f"words drawn in {part}: {pic}"
                for name in (n for names_ in names for n in names_):
                    assert name not in place["text"], f"the sentence drawn in {part}: {name}"
        assert page.evaluate(UNNAMED_ICONS) == 0
        # Tap-to-explain still has the words: a Beagle goal tapped shows its sentence.
        goal = page.locator("#board .goals li .dj-pic").first
        goal.scroll_into_view_if_needed()
        if device == "phone":
            goal.tap()
        else:
            goal.click()
        page.wait_for_selector("#explain")
        assert page.inner_text("#explain-words") == catalog["beagle_goals"][0]["text"]
        page.keyboard.press("Escape")
        for part in (".goals", ".envelopes", "#hand", "[data-location^='special.']"):
            page.locator(f"#board {part}").first.scroll_into_view_if_needed()
            name = part.strip(".#") if part[0] in ".#" else "special"
            shots(page, f"cards-{name}-{device}-{lang}", full_page=False)
        assert errors == []
