"""Encyclopedia drawn as a board (issue 30: "spaces show icons and numbers, not sentences;
the words stay available as the accessible name and in a tooltip, in both languages"): on a
seeded solo game, the main board's action areas, the continents' expedition spaces, each
player's die spaces, the reputation track's bonuses and the publication grid show the
project's icons (clients/web/js/icons.js) with numbers and none of the sentences, while
their accessible names and tooltips say them in the page's language ("Take 5 coins; ..." /
"Pegue 5 moedas; ..."). Every icon is either a named image or hidden beside words that name
it, and nothing reaches past a 360 px screen. Screenshots of the main board, the continents
and the player's board on a phone and a desktop in test-artifacts/web/.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from clients import web_messages
from tests.e2e.conftest import REPO, Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY
from tests.web.test_browser import watch_errors
from tests.web.test_browser_board_play import DESKTOP, PHONE
from tests.web.test_browser_games import too_wide
from tests.web.test_browser_player import AXE, axe_violations

pytestmark = pytest.mark.e2e

DATA = json.loads((REPO / "clients" / "web" / "data" / "encyclopedia.json").read_text("utf-8"))
SEED = 30
TYPES = ["I", "II", "III", "IV"]
# What an icon drawing may show as text: numbers and signs, no words.
FIGURES = re.compile(r"[\dIV\s–:+·→/—›]*")
# An expert's effect may say "always" (∞) and "at most" (≤) too.
EFFECT_FIGURES = re.compile(r"[\d\s+/∞≤]*")
# Each drawn thing standing for words: its accessible name, tooltip, text and icons.
PICTURED = """(selector) => [...document.querySelectorAll(selector)].map((el) => ({
    name: el.getAttribute('aria-label') || '', title: el.getAttribute('title') || '',
    role: el.getAttribute('role') || '', shown: el.innerText,
    icons: el.querySelectorAll('svg.icon').length}))"""
# Icons that are neither a named image nor hidden (a screen reader would meet a blank).
UNNAMED_ICONS = """() => [...document.querySelectorAll('#board svg.icon')].filter((svg) =>
    !(svg.getAttribute('role') === 'img' && svg.getAttribute('aria-label'))
    && svg.getAttribute('aria-hidden') !== 'true'
    && !svg.closest('[role=img][aria-label]')).length"""
# Icons drawn empty (a name with no shapes in icons.js).
EMPTY_ICONS = """() => [...document.querySelectorAll('#board svg.icon')]
    .filter((svg) => !svg.querySelector(':scope > :not(title)'))
    .map((svg) => svg.getAttribute('class'))"""


def say(messages: dict[str, str], key: str, n: int | None = None, **params: Any) -> str:
    """`key`'s text in the page's catalog, filled (its singular `.one` for a count of 1)."""
    if n is not None:
        params["n"] = n
        if abs(n) == 1 and f"{key}.one" in messages:
            key += ".one"
    text = messages[key]
    for name, value in params.items():
        text = text.replace(f"{{{name}}}", str(value))
    return text


def value_table(values: list[int]) -> str:
    """The renderer's "1–2: 1 · 3–4: 2 · 5-6: 3" (pairs that agree joined)."""
    parts = []
    for i in range(0, len(values), 2):
        a, b = values[i], values[i + 1]
        parts.append(f"{i + 1}–{i + 2}: {a}" if a == b else f"{i + 1}: {a} · {i + 2}: {b}")
    return " · ".join(parts)


def reward_words(messages: dict[str, str], reward: dict[str, int]) -> str:
    """A reward in words ("coins +2"), or "no effect"."""
    parts = [say(messages, f"enc.res.{kind}", n=n) for kind, n in reward.items()]
    return ", ".join(parts) if parts else messages["enc.no_reward"]


def area_words(messages: dict[str, str]) -> dict[str, str]:
    """Each action area's effect in words, by its data-area ("expedition": the continents')."""
    return {
        "bank": say(messages, "enc.help.bank", n=DATA["bank_coins"]),
        "embassy": say(messages, "enc.help.embassy", table=value_table(DATA["embassy_tokens"])),
        "academy": say(messages, "enc.help.academy", table=value_table(DATA["academy_rep"])),
        "university": messages["enc.help.university"],
        "publish": messages["enc.help.publish"],
        "expedition": say(messages, "enc.help.expedition",
                          costs=" / ".join(map(str, DATA["research_cost"]))),
    }


def drawn(page: Any, selector: str) -> list[dict[str, Any]]:
    return list(page.evaluate(PICTURED, selector))


def assert_pictured(places: list[dict[str, Any]], words: list[str]) -> None:
    """Each place drawn with icons and figures only (a dash for nothing), named and titled
    by its words."""
    assert len(places) == len(words), (places, words)
    for place, said in zip(places, words, strict=True):
        assert place["role"] == "img", place
        assert place["icons"] >= 1 or place["shown"].strip().endswith("—"), place
        assert FIGURES.fullmatch(place["shown"]), f"words drawn in {place}"
        assert place["name"] == said and place["title"] == said, (place, said)


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "pt-BR"),
                                              ("desktop", "en"), ("phone", "pt-BR")])
def test_the_board_shows_icons_and_is_named_in_words(
        browser: Any, stack: Stack, shots: Shots, device: str, lang: str) -> None:
    # The AI's behaviour card chosen (shown), so its order of actions is drawn too.
    created = stack.client.create_game("encyclopedia", {"players": 1, "behaviour": 2},
                                       seed=SEED, unranked=True)
    token = created["seats"][0]["token"]
    screen = PHONE if device == "phone" else {"viewport": DESKTOP["viewport"]}
    ctx = browser.new_context(**screen, locale=lang)
    messages = web_messages.messages(lang)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{stack.api_url}/play/games/{created['id']}?lang={lang}#token={token}")
        page.wait_for_selector(READY)
        areas = area_words(messages)
        order = [*DATA["areas"], "publish"]
        assert_pictured(drawn(page, "#enc-main-board .area-gives > .gains"),
                        [areas[a] for a in order])
        assert_pictured(drawn(page, "#enc-continents .area-gives > .gains"), [areas["expedition"]])
        spaces = [say(messages, "enc.space_reward", rep=s["rep"], bonus=s["bonus"])
                  for s in DATA["continent_spaces"]]
        assert_pictured(drawn(page, "#enc-continents .exp-spaces .gains"), spaces * 5)
        # The human's board and the AI's: their die spaces and the human's reputation track.
        die_spaces = [f"{say(messages, 'enc.die_space', n=i + 1)} "
                      + say(messages, "enc.owner_gets",
                            reward=reward_words(messages, space["reward"]))
                      for i, space in enumerate(DATA["die_spaces"])]
        assert_pictured(drawn(page, ".die-spaces .die-space"), die_spaces * 2)
        bonuses = [reward_words(messages, DATA["reputation"]["bonuses"][k])
                   for k in sorted(DATA["reputation"]["bonuses"], key=int)]
        assert_pictured(drawn(page, ".rep-track .rep-bonus"), bonuses)
        types = ", ".join(f"{TYPES[i]} {n}+" for i, n in enumerate(DATA["publish_min"]))
        assert_pictured(drawn(page, "#enc-publications .area-gives > .gains"), [say(
            messages, "enc.publish_min", continental=DATA["publish_continental"], types=types)])
        # Each expert space: an expert card and its number, named in words.
        assert_pictured(drawn(page, ".enc-player .expert-space"),
                        [say(messages, "enc.expert_space", n=i + 1) for i in range(4)] * 2)
        # The expert display: each card's effect drawn as icons, named by the catalog's words.
        effects = drawn(page, "#enc-experts .expert-effect")
        assert len(effects) == 6, effects
        catalog = stack.client.get_game(created["id"], token)["view"]["catalog"]["experts"]
        english = {card["text"] for card in catalog.values()}
        for effect in effects:
            assert effect["role"] == "img" and effect["icons"] >= 1, effect
            assert EFFECT_FIGURES.fullmatch(effect["shown"]), f"words drawn in {effect}"
            assert effect["title"] == effect["name"] and re.search(r"\w{3}", effect["name"])
            assert (effect["name"] in english) == (lang == "en"), effect
        # The AI's order of actions: the areas' icons, named by the sentence that lists them.
        [ai_order] = drawn(page, "#ai-board .ai-order")
        assert ai_order["role"] == "img" and ai_order["icons"] == 6, ai_order
        assert FIGURES.fullmatch(ai_order["shown"]), ai_order
        assert ai_order["title"] == ai_order["name"], ai_order
        actions = [*DATA["areas"], "publish", "expedition"]
        assert all(messages[f"enc.action.{a}"] in ai_order["name"] for a in actions), ai_order
        # The publication grid: a category is its icon, named.
        categories = page.evaluate("""() => [...document.querySelectorAll(
            '#enc-publications .pub-cell svg.icon')].map((svg) => [svg.getAttribute('role'),
            svg.getAttribute('aria-label'), svg.closest('td').innerText.trim()])""")
        names = [messages[f"enc.category.{c}"] for row in DATA["categories"] for c in row]
        assert [c[:2] for c in categories] == [["img", name] for name in names]
        assert all(FIGURES.fullmatch(text) for _, _, text in categories), categories
        # What a screen reader gets (computed by the browser) holds every one of the words.
        # (YAML: an apostrophe inside single quotes is doubled.)
        snapshot = page.locator("#board .enc").aria_snapshot().replace("''", "'")
        expected = [*areas.values(), *spaces, *die_spaces, *bonuses, *names]
        assert [w for w in expected if w not in snapshot] == [], snapshot[:3000]
        assert page.evaluate(UNNAMED_ICONS) == 0
        assert page.evaluate(EMPTY_ICONS) == []
        # Each research slot of the animals on show: its category's icon, its words its name.
        slots = page.evaluate("""() => [...document.querySelectorAll('#enc-animals .slots .cat')]
            .map((el) => [el.querySelectorAll('svg.icon').length,
                          el.getAttribute('aria-label')])""")
        assert slots and all(n == 1 and name for n, name in slots), slots
        for part in ("#enc-main-board", "#enc-continents", "#enc-publications", ".enc-player.mine",
                     "#ai-board"):
            page.locator(part).first.scroll_into_view_if_needed()
            shots(page, f"{part.strip('#.')}-{device}-{lang}", full_page=False)
        if device == "phone":
            # A phone shows no tooltip: a tap on a drawing says its words (js/explain.js).
            space = page.locator("#enc-continents .exp-spaces .gains").first
            space.scroll_into_view_if_needed()
            space.tap()
            page.wait_for_selector("#explain-words")
            assert page.inner_text("#explain-words") == spaces[0]
            shots(page, f"explained-{lang}", full_page=False)
            page.locator("#explain-close").tap()
            page.set_viewport_size({"width": 360, "height": 800})
            page.wait_for_timeout(200)
            assert too_wide(page) == []
            shots(page, f"360-{lang}")
        assert errors == []
    finally:
        ctx.close()


def test_a_board_in_play_fits_a_360_px_phone(browser: Any, stack: Stack, shots: Shots) -> None:
    """After some moves (animals in hand with their research slots, dice on the board),
    nothing of the board reaches past a 360 px screen, in either language, and axe-core
    finds no violation."""
    created = stack.client.create_game("encyclopedia", {"players": 1, "behaviour": 1},
                                       seed=SEED + 1, unranked=True)
    game_id, token = created["id"], created["seats"][0]["token"]
    played, deadline = 0, time.monotonic() + 60
    while played < 10 and time.monotonic() < deadline:
        body = stack.client.get_game(game_id, token)
        if body.get("status") != "active" or body["to_act"] != 0 or not body["legal_moves"]:
            time.sleep(0.2)  # the AI's turn: its worker plays it
            continue
        stack.client.move(game_id, token, body["legal_moves"][-1], body["version"])
        played += 1
    assert played == 10
    for lang in ("en", "pt-BR"):
        ctx = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 800}},
                                  locale=lang, bypass_csp=True)
        try:
            page = ctx.new_page()
            errors = watch_errors(page)
            page.goto(f"{stack.api_url}/play/games/{game_id}?lang={lang}#token={token}")
            page.wait_for_selector("#my-animals .slots .cat")
            assert too_wide(page) == []
            assert page.evaluate(EMPTY_ICONS) == []
            page.add_script_tag(path=str(AXE))
            assert axe_violations(page) == []
            shots(page, f"in-play-360-{lang}")
            assert errors == []
        finally:
            ctx.close()
