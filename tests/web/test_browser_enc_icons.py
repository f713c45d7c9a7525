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
from collections import Counter
from typing import Any

import pytest

from clients import web_messages
from core.encyclopedia.data import DATA as CORE
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


# The round summary may show counts too ("×12").
SUMMARY_FIGURES = re.compile(r"[\dIV\s–:+·→/—›×]*")


def with_published(view: dict[str, Any]) -> None:
    """`view` with animals in both published piles (the human's two, the AI's one): cards of
    its catalog (the display's), so the page draws published animals without a game played
    to a Publish action."""
    shown = view["adisplay"]
    view["published"] = [shown[:2], shown[2:3]]
    view["continent_vp"] = [continent_vp(pile) for pile in view["published"]]


def continent_vp(pile: list[int]) -> int:
    """What a pile of published animals (no experts) scores by continent (E20.2(b))."""
    counts = Counter(CORE.animals[card].colour for card in pile)
    table = CORE.continent_collection
    return sum(table[min(n, len(table) - 1)] for n in counts.values())


@pytest.mark.parametrize(("device", "lang"), [("phone", "pt-BR"), ("desktop", "en"),
                                              ("desktop", "pt-BR"), ("phone", "en")])
def test_the_round_the_piles_and_the_ai_level_are_drawn(
        browser: Any, stack: Stack, shots: Shots, device: str, lang: str) -> None:
    """The round summary (round, phase, round tile, turn order, bag, decks, supply), each
    published animal (its continent's colour and its categories' icons) and the AI's level
    card (its level and its end VP per published animal) are icons and figures; their words
    are their accessible names and tooltips in the page's language."""
    created = stack.client.create_game("encyclopedia", {"players": 1, "behaviour": 1,
                                                        "scoring": 3}, seed=SEED, unranked=True)
    game_id, token = created["id"], created["seats"][0]["token"]
    view = stack.client.get_game(game_id, token)["view"]
    screen = PHONE if device == "phone" else {"viewport": DESKTOP["viewport"]}
    ctx = browser.new_context(**screen, locale=lang)
    messages = web_messages.messages(lang)

    def piles(route: Any) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        response = route.fetch()
        if "json" not in response.headers.get("content-type", ""):
            route.fulfill(response=response)  # the page itself
            return
        body = response.json()
        if isinstance(body, dict) and isinstance(body.get("view"), dict):
            with_published(body["view"])
        route.fulfill(response=response, json=body)

    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.route(re.compile(rf"/games/{game_id}(\?.*)?$"), piles)
        page.goto(f"{stack.api_url}/play/games/{game_id}?lang={lang}#token={token}")
        page.wait_for_selector(READY)
        # The round summary: no words drawn, each drawing named by them.
        shown = page.evaluate("""() => [...document.querySelectorAll(
            '#enc-round .enc-legend')].map((p) => p.innerText)""")
        assert len(shown) == 3 and all(SUMMARY_FIGURES.fullmatch(text) for text in shown), shown
        summary = drawn(page, "#enc-round .gains")
        assert len(summary) == 7, summary
        for place in summary:
            assert place["role"] == "img" and place["icons"] >= 1, place
            assert place["name"] == place["title"] and re.search(r"\w{3}", place["name"]), place
        rounds = DATA["rounds"]
        round_words = (say(messages, "enc.round", round=min(view["round"], rounds), rounds=rounds)
                       if view["round"] else messages["enc.setup"])
        decks = say(messages, "enc.decks",
                    experts=say(messages, "enc.deck_experts", n=view["xdeck"]),
                    animals=say(messages, "enc.deck_animals", n=view["adeck"]))
        names = [place["name"] for place in summary]
        assert names[0] == round_words and names[1] == messages[f"enc.phase.{view['phase']}"]
        assert names[2].startswith(messages["enc.round_tile"])
        assert names[3] == f"{messages['enc.round_tile']} " + say(
            messages, "enc.tiles_left", n=view["tiles_left"])
        assert names[4].startswith(messages["enc.turn_order"])
        assert names[5].startswith(messages["enc.bag"])
        assert sum(int(n) for n in re.findall(r"×(\d+)", names[5])) == sum(view["bag"])
        assert names[6] == decks
        # This seat's supply: each an icon and its number, named "Your supply: Coins 5".
        supply = drawn(page, "#enc-supply .supply")
        assert [(p["name"], p["title"]) for p in supply] == [
            (f"{messages['enc.your_supply']} {messages[k]} {view[kind][0]}",) * 2
            for k, kind in (("enc.coins", "coins"), ("enc.tokens", "tokens"),
                            ("enc.seals", "seals"))]
        assert all(p["icons"] == 1 and p["shown"].strip().isdigit() for p in supply), supply
        # Each published animal: a card in its continent's colour, its categories' icons in
        # type order (from the catalog's stable category_ids), named by its words.
        cards = page.evaluate("""() => [...document.querySelectorAll('.pub-animal')].map((el) =>
            ({name: el.getAttribute('aria-label'), title: el.getAttribute('title'),
              role: el.getAttribute('role'), shown: el.innerText.trim(), edge: el.className,
              icons: [...el.querySelectorAll('svg.icon')].map((svg) =>
                svg.getAttribute('class').split(' ')[1].replace('icon-', ''))}))""")
        published = view["adisplay"][:3]
        assert len(cards) == len(published) == 3, cards
        catalog = view["catalog"]["animals"]
        for card, id_ in zip(cards, published, strict=True):
            animal = catalog[str(id_)]
            keys = [DATA["categories"][t][k].lower() for t, k in
                    enumerate(animal["category_ids"])]
            assert card["role"] == "img" and card["shown"] == "", card
            assert card["icons"] == ["animal-card", *keys], card
            assert f"c{animal['colour']}-edge" in card["edge"], card
            assert card["name"] == card["title"] and "I " in card["name"], card
            if lang == "en":
                assert card["name"].startswith(animal["name"]), card
                assert all(c in card["name"] for c in animal["categories"]), card
        # What each pile (and the experts, none yet) scores at the end by continent (G30):
        # colours with counts and the VP, named in words.
        for board, pile in ((".enc-player.mine", published[:2]), ("#ai-board", published[2:])):
            vp = continent_vp(pile)  # the view's continent_vp, as with_published set it
            [score] = drawn(page, f"{board} .pile-score")
            assert score["role"] == "img" and score["icons"] == 2, score
            assert SUMMARY_FIGURES.fullmatch(score["shown"].replace("=", "")), score
            assert score["shown"].split()[-1] == str(vp), score
            assert score["name"] == score["title"] and f": {vp} " in score["name"], score
            assert score["name"].startswith(messages["enc.pile_score"].split("(")[0]), score
        # The AI's level card: its level as bars and its end VP, named by its sentence.
        [level] = drawn(page, "#ai-board .ai-level")
        scoring = DATA["scorings"]["3"]
        assert level["role"] == "img" and level["icons"] >= 3, level
        assert FIGURES.fullmatch(level["shown"]), f"words drawn in {level}"
        assert level["name"] == level["title"], level
        for words in (messages["enc.scoring_card"], messages["enc.scoring.3"],
                      say(messages, "enc.level_of", n=3, max=len(DATA["scorings"])),
                      say(messages, "enc.ai_scoring", published=scoring["per_published"])):
            assert words in level["name"], (words, level)
        assert page.evaluate(UNNAMED_ICONS) == 0
        assert page.evaluate(EMPTY_ICONS) == []
        for part in ("#enc-round", "#ai-board"):
            page.locator(part).first.scroll_into_view_if_needed()
            shots(page, f"summary-{part.strip('#')}-{device}-{lang}", full_page=False)
        if device == "phone":
            pile = page.locator(".pub-animal").first
            pile.scroll_into_view_if_needed()
            pile.tap()
            page.wait_for_selector("#explain-words")
            assert page.inner_text("#explain-words") == cards[0]["name"]
            page.locator("#explain-close").tap()
            page.set_viewport_size({"width": 360, "height": 800})
            page.wait_for_timeout(200)
            assert too_wide(page) == []
            shots(page, f"summary-360-{lang}")
        assert errors == []
    finally:
        ctx.close()
