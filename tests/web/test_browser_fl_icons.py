"""Flotilla's Guild Wheels, tracks and players' counts drawn as a board (issue 30: "spaces
show icons and numbers, not sentences; the words stay available as the accessible name and
in a tooltip, in both languages").

On a seeded 3-seat game, every wheel space with an effect shows the project's icons (a
laurel for VP, a coin, a Survivor's life ring, an Ocean Tile, a Resource of any colour, a
Guild Seal, a Crew Card to recruit) with amounts and no words, named and titled by its
effect in the page's language ("rescue 1 Survivor + +1 VP" / "resgate 1 Sobrevivente + +1
PV"); the Survivor and Sonar tracks likewise (a Milestone's flag, Toxicity's drop, one more
die); each player's counts (VP, coins, Toxicity, Survivors, cards in hand) are named icons
with numbers. Nothing reaches past the screen, and on a phone the wheels take two rows of
five spaces each. Screenshots in test-artifacts/web/.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from clients import web_messages
from tests.e2e.conftest import REPO, Stack
from tests.web.conftest import Shots
from tests.web.test_browser_dj_icons import game_page
from tests.web.test_browser_enc_icons import EMPTY_ICONS, UNNAMED_ICONS, drawn, say
from tests.web.test_browser_games import too_wide

pytestmark = pytest.mark.e2e

DATA = json.loads((REPO / "clients" / "web" / "data" / "flotilla.json").read_text("utf-8"))
SEED = 30
# What a drawn space may show as text: amounts, "+" between effects, the arrow's "↷".
FIGURES = re.compile(r"[\d\s+↷]*")
# The counts each player's board draws as icons, in order, and what their names say.
STAT_KEYS = ("fl.vp", "fl.coins", "fl.toxicity", "fl.survivors", "fl.hand_size")
STATS = """() => [...document.querySelectorAll('.fl-player .stats.icons')].map((list) =>
    [...list.children].map((li) =>
      li.querySelector('svg.icon[role=img]')?.getAttribute('aria-label')
      + (/^\\d+$/.test(li.innerText.trim()) ? '' : ' (not a number)')))"""
# Where each drawn wheel space is, in the page's order, and how tall a wheel's spaces are.
SPACES = """() => [...document.querySelectorAll('#fl-wheels .wheel-track')].map((track) =>
    [...track.children].map((li) => Math.round(li.getBoundingClientRect().top)))"""


def assert_pictured(places: list[dict[str, Any]], words: list[str]) -> None:
    """Each place drawn with icons and figures only, named and titled by its words."""
    assert len(places) == len(words), (places, words)
    for place, said in zip(places, words, strict=True):
        assert place["role"] == "img" and place["icons"] >= 1, place
        assert FIGURES.fullmatch(place["shown"]), f"words drawn in {place}"
        assert place["name"] == said and place["title"] == said, (place, said)


def op_words(messages: dict[str, str], op: list[Any]) -> str:
    """One effect in words, as the page says it (renderers/flotilla.js, `opText`)."""
    kind, amount = op[0], op[1] if len(op) > 1 else None
    if kind == "seal":
        return messages["fl.op.seal"]
    n = amount if isinstance(amount, int) else 1
    return say(messages, f"fl.op.{kind}", n=n)


def space_words(messages: dict[str, str], ops: list[list[Any]], index: int) -> str:
    """A wheel space's effects in words, with the arrow's note on its space."""
    words = " + ".join(op_words(messages, op) for op in ops)
    return f"{words} {messages['fl.arrow']}" if index == DATA["arrow_space"] else words


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "pt-BR")])
def test_the_guild_wheels_and_tracks_show_icons_and_are_named_in_words(
        browser: Any, stack: Stack, shots: Shots, device: str, lang: str) -> None:
    created = stack.client.create_game("flotilla", {"players": 3}, [{"kind": "human"}] * 3,
                                       seed=SEED, unranked=True)
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    messages = web_messages.messages(lang)
    # Seat 0 need not be the first to act: the page is ready once the wheels are drawn.
    with game_page(browser, stack, created["id"], token, device, lang,
                   ready="#fl-wheels .rep-bonus") as (page, errors):
        expected = [space_words(messages, ops, i)
                    for wheel in DATA["wheels"] for i, ops in enumerate(wheel) if ops]
        assert_pictured(drawn(page, "#fl-wheels .rep-bonus[role=img]"), expected)
        # The top space gives nothing: a dash, in no picture.
        assert page.locator("#fl-wheels .rep-bonus:not([role])").all_inner_texts() == \
            ["—"] * len(DATA["wheels"])
        words = " ".join(page.locator("#fl-wheels .wheel-track").all_inner_texts())
        for op in ("fl.op.vp", "fl.op.seal", "fl.op.tile", "fl.op.recruit"):
            sentence = messages[op].replace("+{n} ", "")
            assert sentence not in words, f"{sentence!r} written on a wheel"
        # The Survivor track of this seat count (a Milestone's flag is named by its words)
        # and the Sonar track's results.
        track = DATA["survivor_tracks"]["3"]
        assert_pictured(drawn(page, "#fl-tracks .fl-survivors .rep-bonus"), [
            messages["fl.milestone"] if op[0] == "milestone" else op_words(messages, op)
            for op in track])
        assert_pictured(drawn(page, "#fl-tracks .fl-sonar .sonar-gives"), [
            " + ".join(op_words(messages, op) for op in space["icon"]) for space in DATA["sonar"]])
        # Each player's counts: an icon named by its words, and the number.
        counts = page.evaluate(STATS)
        assert len(counts) == 3 and all(c == [messages[k] for k in STAT_KEYS] for c in counts)
        assert page.evaluate(UNNAMED_ICONS) == 0
        assert page.evaluate(EMPTY_ICONS) == []
        rows = [len(set(tops)) for tops in page.evaluate(SPACES)]
        assert rows == [2 if device == "phone" else 1] * len(DATA["wheels"]), rows
        assert not too_wide(page), too_wide(page)
        page.locator("#fl-wheels").scroll_into_view_if_needed()
        shots(page, f"wheels-{device}-{lang}", full_page=False)
        assert errors == []
