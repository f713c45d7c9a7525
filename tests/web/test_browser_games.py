"""Encyclopedia and Flotilla in a real Chromium: created in the lobby, played by clicking, their
own boards drawn (no raw JSON), on a phone and in Portuguese. Each step is saved as a
screenshot in test-artifacts/web/<test>/."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import Shots
from tests.web.helpers import READY, click_move
from tests.web.test_browser import DESKTOP, PHONE, fits, watch_errors

pytestmark = pytest.mark.e2e

# Raw JSON or a value the renderer failed to name, anywhere a player reads.
RAW = re.compile(r'"\w+"\s*:|\{"|\[\[|\bundefined\b|\bnull\b|\bNaN\b|\[object ')


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh desktop browser context."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    yield ctx
    ctx.close()


def create(page: Any, site: str, game: str, players: int, bots: dict[int, str],
           lang: str = "en") -> str:
    """Create `game` in the lobby with `bots` seated, and open the human seat 1's link; the
    spectator link."""
    page.goto(f"{site}/play/?lang={lang}")
    page.wait_for_selector("#create-game")
    page.select_option("#game-select", game)
    page.select_option("#option-players", label=str(players))
    for seat, bot in bots.items():
        page.select_option(f"#seat-{seat}", bot)
    page.click("#create-game")
    page.wait_for_selector(".created:not([hidden]) .join a")
    spectator = str(page.get_attribute("a.spectate", "href"))
    page.click(".join a >> nth=0")
    page.wait_for_selector(READY)
    return spectator


def too_wide(page: Any) -> list[str]:
    """The innermost elements reaching past the screen's right edge (what breaks `fits`);
    a table's box (.table-wrap) and a zoomed map's (.scroll-x) scroll them inside."""
    return list(page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll('body *')]
          .filter((el) => !el.closest('.table-wrap, .scroll-x')
            && el.getBoundingClientRect().right > width + 1
            && ![...el.children].some((c) => c.getBoundingClientRect().right > width + 1))
          .slice(0, 8)
          .map((el) => `${el.tagName}.${el.className} ${el.textContent.slice(0, 40)}`);
    }"""))


def readable(page: Any) -> str:
    """The page's text, checked for raw JSON and unnamed values."""
    text = page.inner_text("main")
    found = RAW.search(text)
    assert found is None, text[max(0, found.start() - 200):found.end() + 200]
    return text


def play(page: Any, clicks: int, seed: int, check_every: int = 10) -> int:
    """Click up to `clicks` random moves (fewer if the game ends), the page checked readable
    every `check_every` clicks; the number clicked."""
    rng = random.Random(seed)
    done = 0
    while done < clicks:
        page.wait_for_selector(READY, timeout=60000)
        if page.is_visible("#result"):
            break
        if done % check_every == 0:
            readable(page)
        click_move(page, rng)
        done += 1
    return done


# ------------------------------------------------------------------ Encyclopedia


@pytest.mark.slow
def test_encyclopedia_solo_against_the_ai_played_by_clicking(context: Any, site: str,
                                                            shots: Shots) -> None:
    """The board drawn, then the first rounds played from the move list (the game to its
    result, on the board, in tests/web/test_browser_board_play.py)."""
    page = context.new_page()
    errors = watch_errors(page)
    create(page, site, "encyclopedia", 1, {})
    shots(page, "first-decision")
    assert page.query_selector("#my-animals") is None, "no animals before the draft"
    # What is drawn as icons says its words to a screen reader (and in a tooltip).
    board = page.inner_text("#board") + page.locator("#board").aria_snapshot()
    for part in ("#enc-round", "#enc-main-board", "#enc-continents", "#enc-experts", "#enc-animals",
                 "#enc-publications", "#ai-board"):
        assert page.is_visible(part), part
    assert len(page.query_selector_all("#enc-main-board .area")) == 5  # four areas and Publish
    assert len(page.query_selector_all("#enc-continents .continent")) == 5
    assert len(page.query_selector_all("#enc-experts .card-box")) == 6
    assert page.query_selector_all("#enc-animals .card-box"), "the animal display"
    for words in ("Set-up", "Bank", "Embassy", "University", "Academy", "Expedition",
                  "Reputation track", "Behaviour card", "Continent priority", "AI"):
        assert words in board, words
    readable(page)
    # The starting animals: each button names the two cards with their categories.
    assert page.inner_text("#moves").count("I ") >= 2
    clicks = play(page, 30, seed=7)
    shots(page, "after-30-moves")
    assert clicks == 30
    assert len(page.query_selector_all("#log > li")) > clicks, "the AI's moves are in the log too"
    readable(page)
    assert errors == []


def test_encyclopedia_on_a_phone_and_in_portuguese(browser: Any, site: str, shots: Shots) -> None:
    ctx = browser.new_context(**PHONE, locale="pt-BR")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        create(page, site, "encyclopedia", 1, {}, lang="pt-BR")
        shots(page, "phone-pt-first", full_page=False)
        assert fits(page), too_wide(page)
        text = readable(page) + page.locator("#board").aria_snapshot()
        for term in ("Sua vez", "Preparação", "Banco", "Embaixada", "Universidade", "Academia",
                     "Expedição", "Trilha de reputação", "Fichas de Expedição", "Selos Reais",
                     "Tabuleiro da IA", "Especialistas disponíveis", "Animais disponíveis"):
            assert term in text, term
        for english in ("Your turn", "Main board", "Reputation track", "Behaviour card"):
            assert english not in text, english
        play(page, 12, seed=2)
        shots(page, "phone-pt-after-moves", full_page=False)
        shots(page, "phone-pt-after-moves-full")
        assert fits(page), too_wide(page)
        readable(page)
        log = page.inner_text("#log")
        assert "Rodada" in log or "compra" in log, log[:500]
        assert errors == []
    finally:
        ctx.close()


def test_encyclopedia_two_players_against_a_bot(context: Any, site: str, shots: Shots) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    create(page, site, "encyclopedia", 2, {1: "greedy"})
    assert page.query_selector("#ai-board") is None, "no AI board without the AI"
    assert len(page.query_selector_all(".enc-player")) == 2
    play(page, 15, seed=4)
    shots(page, "after-moves")
    readable(page)
    # The round is drawn as an icon and "1/6": its words are its name.
    text = page.locator("#enc-round").aria_snapshot()
    assert "Round 1 of 6" in text or "Round 2 of 6" in text
    assert errors == []


# ------------------------------------------------------------------ Flotilla


@pytest.mark.slow
def test_flotilla_three_players_one_human_and_two_bots_played_by_clicking(
        context: Any, site: str, shots: Shots) -> None:
    """The board drawn, a spectator's view, then the first rounds played from the move list
    (the game to its result, on the board, in tests/web/test_browser_board_play.py)."""
    page = context.new_page()
    errors = watch_errors(page)
    spectator = create(page, site, "flotilla", 3, {1: "greedy", 2: "random"})
    shots(page, "first-decision")
    for part in ("#fl-round", "#fl-hand", "#fl-ocean", "#fl-hub", "#fl-market", "#fl-tracks",
                 "#fl-wheels", "#fl-objectives"):
        assert page.is_visible(part), part
    assert len(page.query_selector_all("#hand li")) == 6, "the six starting Crew Cards"
    assert len(page.query_selector_all("#fl-ocean svg polygon.hex")) == 169, "the whole ocean"
    assert len(page.query_selector_all(".fl-player")) == 3
    assert len(page.query_selector_all("#fl-wheels .wheel")) == 4
    board = readable(page)
    for words in ("The Captain", "Navigation", "Sinkside", "Speakers", "Traders", "Founders",
                  "Delvers", "Market", "Sonar track", "Survivor track", "Outposts", "Skiff"):
        assert words in board, words
    clicks = play(page, 20, seed=11)
    shots(page, "after-20-moves")
    # A spectator sees the same table and nobody's hand.
    watcher = context.new_page()
    watcher.goto(spectator)
    watcher.wait_for_selector("#fl-ocean svg")
    assert watcher.query_selector("#hand") is None
    assert watcher.locator('#board .fl-player [role=img][aria-label="Cards in hand"]').count() == 3
    readable(watcher)
    shots(watcher, "spectator")
    watcher.close()
    readable(page)
    assert len(page.query_selector_all("#log > li")) > clicks, "the bots' moves are in the log too"
    clicks += play(page, 40, seed=12)
    shots(page, "after-60-moves")
    assert clicks == 60
    readable(page)
    assert errors == []


def test_flotilla_on_a_phone_and_in_portuguese(browser: Any, site: str, shots: Shots) -> None:
    ctx = browser.new_context(**PHONE, locale="pt-BR")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        create(page, site, "flotilla", 3, {1: "random", 2: "random"}, lang="pt-BR")
        shots(page, "phone-pt-first", full_page=False)
        shots(page, "phone-pt-first-full")
        assert fits(page), too_wide(page)
        text = readable(page)
        # Words drawn as icons (a player's Toxicity) are the drawings' names.
        named = text + page.locator("#board").aria_snapshot()
        for term in ("Lado Submarino", "Esquife", "Roda dos Oradores", "Mercado",
                     "Trilha de Sobreviventes", "Trilha de Sonar", "Cartas de Tripulação",
                     "Postos Avançados", "Toxicidade", "Navegação", "Tabuleiro Central"):
            assert term in named, term
        for english in ("Your hand", "Market", "Survivor track", "Sinkside"):
            assert english not in text, english
        # The ocean is zoomed to hexes a finger taps, scrolling inside its box of the
        # screen's width (tests/web/test_browser_tap_size.py measures the hexes).
        box = page.query_selector("#fl-ocean .scroll-x").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        play(page, 8, seed=5)
        shots(page, "phone-pt-after-moves", full_page=False)
        assert fits(page), too_wide(page)
        readable(page)
        assert errors == []
    finally:
        ctx.close()


def test_darwins_journey_still_gets_its_own_board(context: Any, site: str, shots: Shots) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    create(page, site, "darwins-journey", 1, {})
    assert page.is_visible("#hand") and "Main board" in page.inner_text("#board")
    click_move(page, random.Random(3))
    shots(page, "dj-after-a-move")
    readable(page)
    assert errors == []
