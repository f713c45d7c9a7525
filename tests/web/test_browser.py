"""The web page in a real Chromium: lobby, whole games by clicking, secrecy, live updates,
stale moves, the phone viewport, Portuguese. Each step is saved as a screenshot."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from clients.sdk import StaleVersion
from tests.e2e.conftest import Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY, click_move, create_in_lobby, play_to_the_end, version

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh desktop browser context (no shared storage between tests)."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    yield ctx
    ctx.close()


def watch_errors(page: Any) -> list[str]:
    """Collect the page's script errors (a test fails on any)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def token_of(link: str) -> str:
    """The seat token of a join link (it lives in the fragment only)."""
    address, fragment = link.split("#", 1)
    # (the query carries the page's language only, ?lang=, when the lobby had one)
    assert "token" not in address, "a token must never travel in a query string"
    assert fragment.startswith("token=")
    return fragment.removeprefix("token=")


@pytest.mark.slow
def test_solo_game_against_alfred_created_in_the_lobby_and_played_to_the_result(
        context: Any, site: str, shots: Shots) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/")
    assert page.url.endswith("/play/")
    page.wait_for_selector("#create-game")
    page.select_option("#option-players", label="1")
    page.select_option("#option-alfred", label="green (advanced)")
    shots(page, "lobby")
    page.click("#create-game")
    page.wait_for_selector(".join a")
    shots(page, "created")
    page.click(".join a")
    page.wait_for_selector(READY)
    assert page.is_visible("#hand"), "the crew draft shows my hand"
    assert "Alfred" in page.inner_text("#board")
    shots(page, "first-decision")
    rng_seed = 5
    clicks = play_to_the_end(page, rng_seed)
    shots(page, "result")
    assert clicks > 10
    result = page.inner_text("#result")
    assert "Winner" in result and "Total" in result and "Theory of Evolution" in result
    assert page.inner_text("#status").count("Game over") == 1
    assert page.query_selector_all("#log > li"), "the move log lists the game"
    assert errors == []


def test_two_players_join_by_their_links_see_only_their_cards_and_each_others_moves(
        browser: Any, context: Any, site: str, stack: Stack, shots: Shots) -> None:
    lobby = context.new_page()
    links = create_in_lobby(lobby, site, {"players": "2"})
    assert sorted(links["seats"]) == [0, 1]
    pages = {}
    contexts = []
    for seat, link in links["seats"].items():
        ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(link)
        page.wait_for_selector("#status[data-version]")
        page.wait_for_selector("#hand")
        pages[seat] = page
    try:
        hands = {seat: {c.get_attribute("data-card")
                        for c in page.query_selector_all("#hand [data-card]")}
                 for seat, page in pages.items()}
        assert all(hands.values()) and not hands[0] & hands[1], "each sees only its own hand"
        for seat, page in pages.items():
            shots(page, f"seat{seat + 1}-hand")
        spectator = context.new_page()
        spectator.goto(links["spectator"])
        spectator.wait_for_selector("#status[data-version]")
        assert spectator.query_selector("#hand") is None, "a spectator sees no hidden card"
        shots(spectator, "spectator")

        # Moves appear in the other seat's page as they are played (the event stream).
        for _ in range(4):
            body = stack.client.get_game(links_id(links), None)
            mover = body["to_act"]
            other = pages[1 - mover]
            before = version(other)
            pages[mover].wait_for_selector("button.move:not([disabled])")
            click_move(pages[mover], random.Random(mover))
            stored = time.monotonic()  # the mover's page shows the new version: it is stored
            # The page never polls: only the event stream's notice makes it read the game.
            # Typically ~0.1 s here; printed, not asserted (a loaded machine is slower).
            other.wait_for_function(
                "([v]) => Number(document.querySelector('#status').dataset.version) > v",
                arg=[before], timeout=10000)
            print(f"the other page showed the move after {time.monotonic() - stored:.2f} s")
        kept = {seat: {c.get_attribute("data-card")
                       for c in page.query_selector_all("#kept [data-card]")}
                for seat, page in pages.items()}
        assert not kept[0] & kept[1], "each sees only the crew cards it kept"
        shots(pages[0], "seat1-after-moves")
        shots(pages[1], "seat2-after-moves")
    finally:
        for ctx in contexts:
            ctx.close()


def links_id(links: dict[str, Any]) -> str:
    """The game id of the lobby's links."""
    return links["spectator"].split("?")[0].rstrip("/").rsplit("/", 1)[1]


def test_a_stale_move_is_answered_with_a_clear_message(
        browser: Any, site: str, stack: Stack, shots: Shots) -> None:
    page_lobby = browser.new_page(viewport=DESKTOP)
    links = create_in_lobby(page_lobby, site, {"players": "2"})
    page_lobby.close()
    game_id = links_id(links)
    body = stack.client.get_game(game_id)
    mover = body["to_act"]
    token = token_of(links["seats"][mover])
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        # This page hears nothing of the game's progress: its buttons go stale.
        ctx.route("**/events", lambda route: route.abort())
        page = ctx.new_page()
        page.goto(links["seats"][mover])
        page.wait_for_selector("button.move:not([disabled])")
        mine = stack.client.get_game(game_id, token)
        try:
            stack.client.move(game_id, token, mine["legal_moves"][0], mine["version"])
        except StaleVersion:  # pragma: no cover - nobody else plays this game
            raise
        page.click("button.move >> nth=0")
        page.wait_for_selector("#notice:not([hidden])")
        notice = page.inner_text("#notice")
        assert "moved on" in notice and "Nothing was played" in notice
        page.wait_for_function(
            "() => Number(document.querySelector('#status').dataset.version) >= 1")
        shots(page, "stale-move-message")
    finally:
        ctx.close()


def test_the_servers_own_events_read_in_the_servers_words(
        browser: Any, site: str, stack: Stack) -> None:
    """An event no renderer words (here the creator's abort) shows the log's `text`, the
    server's words in the page's language, not its raw fields."""
    created = stack.client.create_game("toy-pontoon", {"players": 2})
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    ctx = browser.new_context(viewport=DESKTOP, locale="pt-BR")
    try:
        page = ctx.new_page()
        page.goto(f"{site}/play/games/{created['id']}#token={tokens[0]}")
        page.wait_for_selector(READY)
        stack.client.abort(created["id"], created["creator_token"])
        page.wait_for_selector("#log li >> text=O jogo foi cancelado por quem o criou")
        assert "creator" not in page.inner_text("#log")
    finally:
        ctx.close()


def test_phone_viewport_lobby_and_game_fit_the_screen(
        browser: Any, site: str, shots: Shots) -> None:
    ctx = browser.new_context(**PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        links = create_in_lobby(page, site, {"players": "1"})
        shots(page, "phone-lobby", full_page=False)
        assert fits(page)
        page.goto(links["seats"][0])
        page.wait_for_selector(READY)
        shots(page, "phone-game", full_page=False)
        shots(page, "phone-game-full")
        assert fits(page), "nothing wider than the phone's screen"
        button = page.query_selector("button.move")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 40, "move buttons are big enough to tap"
        click_move(page, random.Random(1))
        assert errors == []
    finally:
        ctx.close()


def fits(page: Any) -> bool:
    """Whether the page needs no sideways scrolling."""
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"))


def test_keyboard_only_and_portuguese(browser: Any, site: str, shots: Shots) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="pt-BR")
    try:
        page = ctx.new_page()
        page.goto(f"{site}/play/")
        page.wait_for_selector("#create-game")
        assert page.inner_text("h1") == "Novo jogo", "the browser's language is the default"
        shots(page, "pt-lobby")
        links = create_in_lobby(page, site, {"players": "1"}, lang="pt-BR")
        page.goto(links["seats"][0])
        page.wait_for_selector(READY)
        # What is drawn as icons (a crew card's wax seals) says its words as its name.
        text = page.inner_text("main") + page.locator("main").aria_snapshot()
        for term in ("Sua vez", "Tabuleiro Central", "Diário Principal", "Lupa", "Selo de Cera"):
            assert term in text, term
        shots(page, "pt-game")
        # Keyboard only: Tab to the first move, Enter plays it.
        before = version(page)
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('move')"):
                break
        else:
            raise AssertionError("no move button reachable with Tab")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "([v]) => Number(document.querySelector('#status').dataset.version) > v",
            arg=[before], timeout=15000)
        # The focus stays in the moves: Enter again plays the next one once it is our turn.
        page.wait_for_selector("button.move:not([disabled])")
        page.wait_for_function("() => document.activeElement.classList.contains('move')")
        before = version(page)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "([v]) => Number(document.querySelector('#status').dataset.version) > v",
            arg=[before], timeout=15000)
        # The switch changes the language and keeps the seat (its token is in the fragment).
        page.select_option("#lang-select", "en")
        page.wait_for_selector("#status[data-version]")
        assert "lang=en" in page.url and "#token=" in page.url
        assert page.inner_text("h2 >> nth=0")
        assert "Main board" in page.inner_text("main")
        shots(page, "switched-to-english")
    finally:
        ctx.close()


def test_a_game_without_its_own_renderer_plays_readably_against_a_bot(
        context: Any, site: str, shots: Shots) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/play/?lang=en")
    page.wait_for_selector("#create-game")
    page.select_option("#game-select", "toy-pontoon")
    page.select_option("#option-players", label="2")
    page.select_option("#seat-1", "random")
    assert page.input_value("#seat-1") == "random"
    shots(page, "lobby-with-a-bot")
    page.click("#create-game")
    page.wait_for_selector(".join a")
    assert len(page.query_selector_all(".join a")) == 1, "only the human seat gets a link"
    page.click(".join a")
    page.wait_for_selector(READY)
    shots(page, "generic-board")
    board = page.inner_text("#board")
    assert board.strip() and "{" not in board and '":' not in board, "no raw JSON"
    play_to_the_end(page, seed=3)
    shots(page, "generic-result")
    assert "Total" in page.inner_text("#result")
    assert "{" not in page.inner_text("main")
    assert errors == []


def test_a_wrong_link_says_what_is_wrong(context: Any, site: str, shots: Shots) -> None:
    page = context.new_page()
    page.goto(f"{site}/play/games/NoSuchGame123")
    page.wait_for_selector(".error")
    assert "no such game" in page.inner_text(".error").lower()
    lobby = context.new_page()
    links = create_in_lobby(lobby, site, {"players": "2"})
    page.goto(links["seats"][0].split("#")[0] + "#token=not-a-token")
    page.wait_for_selector(".error")
    assert "does not belong to this game" in page.inner_text(".error")
    shots(page, "wrong-token")


def test_a_move_whose_answer_is_lost_is_retried_and_played_once(
        browser: Any, site: str, stack: Stack, shots: Shots) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = ctx.new_page()
        links = create_in_lobby(page, site, {"players": "1"})
        game_id = links_id(links)
        posts: list[str] = []

        def lose_first_answer(route: Any) -> None:
            if route.request.method != "POST":
                route.continue_()
                return
            posts.append(route.request.headers.get("idempotency-key", ""))
            if len(posts) == 1:
                route.fetch()  # the server plays the move; its answer never arrives
                route.abort()
            else:
                route.continue_()

        page.route("**/moves", lose_first_answer)
        page.goto(links["seats"][0])
        page.wait_for_selector(READY)
        before = len(list(stack.client.iter_moves(game_id)))
        click_move(page, random.Random(4))
        for _ in range(100):  # the retry follows a pause
            if len(posts) >= 2:
                break
            page.wait_for_timeout(100)
        page.wait_for_selector(READY)
        assert len(posts) == 2 and posts[0] == posts[1], "retried with the same key"
        assert page.is_hidden("#notice"), "nothing to tell the player"
        assert len(list(stack.client.iter_moves(game_id))) >= before + 1
        log = list(stack.client.iter_moves(game_id))
        assert [m["seat"] for m in log[before:]].count(0) == 1, "played once"
        shots(page, "after-lost-answer")
    finally:
        ctx.close()


def _four_draws(stack: Stack) -> tuple[dict[str, Any], dict[int, str]]:
    """A two-seat toy-pontoon game four draws in (versions 0-4 to step through); the game and
    its seats' tokens."""
    created = stack.client.create_game("toy-pontoon", {"players": 2})
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    for _ in range(4):
        body = stack.client.get_game(created["id"], tokens[0])
        seat = body["to_act"]
        mine = stack.client.get_game(created["id"], tokens[seat])
        draw = next(m for m in mine["legal_moves"] if m["type"] == "draw")
        stack.client.move(created["id"], tokens[seat], draw, mine["version"])
    return created, tokens


def test_a_seat_steps_through_its_past_views_from_the_log(
        browser: Any, site: str, stack: Stack, shots: Shots) -> None:
    """A log entry's "Show" puts the board as the seat saw it at that version (GET ?at=N),
    hides the moves, steps back and forth, and "Back to the game" returns to the game now."""
    created, tokens = _four_draws(stack)
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{site}/play/games/{created['id']}#token={tokens[0]}")
        page.wait_for_selector(READY)
        live_board = page.inner_text("#board")
        page.click("#log button.replay-at[data-version='1']")
        page.wait_for_selector("#replay:not([hidden]) #replay-at[data-version='1']")
        assert page.is_hidden("#moves")
        assert "as you saw it then" in page.inner_text("#replay-at"), "in play: its own view"
        past = stack.client.get_game_at(created["id"], 1, tokens[0])
        board = page.inner_text("#board")
        assert board != live_board
        assert past["view"]["hand_sizes"] == [1, 0]
        shots(page, "replay-1")
        page.click("#replay button.replay-next")
        page.wait_for_selector("#replay-at[data-version='2']")
        page.click("#replay button.replay-previous")
        page.wait_for_selector("#replay-at[data-version='1']")
        slider = page.locator("#replay-slider")
        now = stack.client.get_game(created["id"], tokens[0])["version"]
        assert slider.get_attribute("max") == str(now)
        slider.fill("3")  # the slider, let go at version 3
        page.wait_for_selector("#replay-at[data-version='3']")
        assert page.input_value("#replay-slider") == "3"
        page.focus("#replay-slider")
        page.keyboard.press("ArrowLeft")  # a keyboard steps it too, and keeps its place
        page.wait_for_selector("#replay-at[data-version='2']")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#replay-at[data-version='1']")
        page.click("#replay button.replay-back")
        page.wait_for_selector("#replay", state="hidden")
        page.wait_for_selector(READY)
        assert page.inner_text("#board") == live_board
        assert not errors, errors
    finally:
        ctx.close()


def test_arrow_keys_step_through_the_replay(browser: Any, site: str, stack: Stack,
                                           shots: Shots) -> None:
    """Issue 30: ← → step through a replay (as on an analysis board) and ← starts one from a
    finished game's end; the slider keeps its own arrows (one step a press, not two), and a
    running game's arrows start nothing. The replay bar and the log say that the keys exist."""
    created, tokens = _four_draws(stack)
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{site}/play/games/{created['id']}#token={tokens[0]}")
        page.wait_for_selector(READY)
        page.locator("#game-title").click()  # nothing focused that owns the arrows
        page.keyboard.press("ArrowLeft")  # a running game: its moves stay, no replay starts
        page.wait_for_timeout(300)
        assert page.is_hidden("#replay") and page.is_visible("#moves")
        assert page.is_hidden("#log-keys")
        page.click("#log button.replay-at[data-version='1']")
        page.wait_for_selector("#replay:not([hidden]) #replay-at[data-version='1']")
        assert "← and →" in page.inner_text("#replay-keys")
        previous = page.get_attribute("#replay button.replay-previous", "aria-keyshortcuts")
        assert previous == "ArrowLeft"
        assert page.get_attribute("#replay button.replay-next", "aria-keyshortcuts") == "ArrowRight"
        assert "→" in str(page.get_attribute("#replay button.replay-next", "title"))
        board_at_1 = page.inner_text("#board")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#replay-at[data-version='2']")
        assert "version 2 of" in page.inner_text("#replay-at")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#replay-at[data-version='3']")
        assert "version 3 of" in page.inner_text("#replay-at")
        assert page.inner_text("#board") != board_at_1, "the board shows the later version"
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#replay-at[data-version='2']")
        page.focus("#confirm-setting")  # an input: its arrows are its own, the replay stays
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(300)
        assert page.get_attribute("#replay-at", "data-version") == "2"
        page.locator("#game-title").click()
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")  # two quick presses: two steps, the older answer dropped
        page.wait_for_selector("#replay-at[data-version='0']")
        page.keyboard.press("ArrowLeft")  # nothing before the start
        page.wait_for_timeout(300)
        assert page.get_attribute("#replay-at", "data-version") == "0"
        shots(page, "replay-by-keys")
        page.focus("#replay-slider")
        page.keyboard.press("ArrowRight")  # the slider's own arrow: one step, not two
        page.wait_for_selector("#replay-at[data-version='1']")
        page.wait_for_timeout(300)
        assert page.get_attribute("#replay-at", "data-version") == "1"
        assert page.input_value("#replay-slider") == "1"
        page.click("#replay button.replay-back")
        page.wait_for_selector("#replay", state="hidden")
        page.wait_for_selector(READY)
        assert not errors, errors
    finally:
        ctx.close()
    # A finished game: ← from its end steps back, → forward to the end and out of the replay.
    finished = stack.client.create_game("toy-pontoon", {"players": 2},
                                        [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    token = finished["seats"][0]["token"]
    stack.client.move(finished["id"], token, {"type": "stop"}, int(finished["version"]))
    deadline = time.monotonic() + 60
    while stack.client.get_game(finished["id"], token)["status"] == "active":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    last = int(stack.client.get_game(finished["id"], token)["version"])
    ctx = browser.new_context(viewport=DESKTOP, locale="pt-BR")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{site}/play/games/{finished['id']}#token={token}")
        page.wait_for_selector("#result:not([hidden])")
        assert "←" in page.inner_text("#log-keys") and "Tecle" in page.inner_text("#log-keys")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f"#replay:not([hidden]) #replay-at[data-version='{last - 1}']")
        assert "teclas ← e →" in page.inner_text("#replay-keys")
        assert page.is_hidden("#log-keys")
        page.keyboard.press("ArrowRight")  # the last step forward: the game as it ended
        page.wait_for_selector("#replay", state="hidden")
        assert page.is_visible("#log-keys")
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("locale", ["en-US", "pt-BR"])
def test_a_finished_game_is_analysed_on_the_page_and_its_blunder_shown(
        browser: Any, site: str, stack: Stack, shots: Shots, locale: str) -> None:
    """"Analyse the game" queues the analysis, the page follows its progress, then draws the
    evaluation graph, the accuracy, the planted blunder (a stop on an empty hand) with the
    better move, marks it in the log, and shows that moment on the board."""
    created = stack.client.create_game("toy-pontoon", {"players": 2},
                                       [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    token = created["seats"][0]["token"]
    stack.client.move(created["id"], token, {"type": "stop"}, int(created["version"]))
    deadline = time.monotonic() + 60
    while stack.client.get_game(created["id"], token)["status"] == "active":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    ctx = browser.new_context(viewport=DESKTOP, locale=locale)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{site}/play/games/{created['id']}#token={token}")
        page.wait_for_selector("#analysis:not([hidden]) #analyse")
        page.click("#analyse")
        page.wait_for_selector("#analysis-marked, #analysis .error", timeout=120_000)
        assert page.is_hidden("#analysis .error"), page.inner_text("#analysis")
        shots(page, f"analysis-{locale}")
        marked = page.locator("#analysis-marked li").first
        assert marked.get_attribute("data-index") == "0"
        assert marked.get_attribute("class") in ("mistake", "blunder")
        assert page.locator("#eval-graph polyline.seat-line").count() >= 1
        assert page.locator("#eval-graph circle.mark").count() >= 1
        assert page.locator("#log li.marked").count() >= 1
        words = page.inner_text("#analysis")
        assert ("accuracy" in words) if locale == "en-US" else ("precisão" in words), words
        assert ("better" in words) if locale == "en-US" else ("melhor" in words), words
        marked.locator("button.show-better").click()
        page.wait_for_selector("#replay:not([hidden]) #replay-at[data-version='0']")
        assert page.inner_text("#better-move").strip()
        assert not errors, errors
    finally:
        ctx.close()
