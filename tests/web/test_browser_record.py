"""Records and replays on the page (issue 28): a record file chosen in the lobby, verified by
the server (POST /v1/records/replay) and stepped through with the finished game's replay
controls, in English and Portuguese, a tampered file refused with verify's fault; a finished
game's record downloaded from its page (and not before its end), which `bgb verify` accepts;
and a replay's own address (`?at=N`), which a reload or another browser opens at that move."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from clients.sdk import GameActive
from tests.e2e.conftest import REPO, Stack
from tests.web.conftest import Shots
from tests.web.helpers import READY
from tests.web.test_browser_player import AXE, axe_violations

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def record(stack: Stack) -> dict[str, Any]:
    """The downloaded record of a game of Encyclopedia the workers' bots played to its end."""
    created = stack.client.create_game("encyclopedia", {"players": 2}, [
        {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}], seed=5)
    deadline = time.monotonic() + 180
    while stack.client.get_game(created["id"])["status"] == "active":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.3)
    return stack.client.get_record(created["id"])


@pytest.fixture
def record_file(record: dict[str, Any], tmp_path: Path) -> Path:
    """The record saved as a file, as a browser's download leaves it."""
    path = tmp_path / f"{record['id']}.json"
    path.write_text(json.dumps(record))
    return path


def _open(browser: Any, site: str, locale: str) -> Iterator[tuple[Any, list[str]]]:
    ctx = browser.new_context(viewport=DESKTOP, locale=locale)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{site}/play/")
        page.wait_for_selector("#record-file")
        yield page, errors
    finally:
        ctx.close()


@pytest.mark.parametrize(("locale", "words"), [
    ("en-US", ("Replay a game record", "verified", "Replay: the game at version")),
    ("pt-BR", ("Rever o registro de um jogo", "conferido", "Replay: o jogo na versão")),
])
def test_a_record_file_chosen_in_the_lobby_is_stepped_through(
        browser: Any, site: str, stack: Stack, shots: Shots, record: dict[str, Any],
        record_file: Path, locale: str, words: tuple[str, str, str]) -> None:
    last = len(record["moves"])
    for page, errors in _open(browser, site, locale):
        assert words[0] in page.inner_text("#record")
        shots(page, f"lobby-{locale}")
        page.set_input_files("#record-file", str(record_file))
        page.wait_for_selector("#replay:not([hidden]) #replay-at[data-version='0']")
        assert words[1] in page.inner_text("#record-checks")
        assert words[2] in page.inner_text("#replay-at")
        assert page.is_hidden("#moves") and page.is_hidden("#analysis")
        assert page.locator("#log > li").count() == last
        slider = page.locator("#replay-slider")
        assert slider.get_attribute("max") == str(last)
        dealt = page.inner_text("#board")
        shots(page, f"record-0-{locale}")
        # Step by step: each step is the server's view after that entry of the record.
        page.click("#replay button.replay-next")
        page.wait_for_selector("#replay-at[data-version='1']")
        page.click("#replay button.replay-next")
        page.wait_for_selector("#replay-at[data-version='2']")
        assert page.inner_text("#board") != dealt
        page.click("#replay button.replay-previous")
        page.wait_for_selector("#replay-at[data-version='1']")
        slider.fill(str(last // 2))  # the slider, let go half-way
        page.wait_for_selector(f"#replay-at[data-version='{last // 2}']")
        shots(page, f"record-half-{locale}")
        # A log entry's "Show" steps there too; "Back" shows the game over, with its result.
        page.click("#log button.replay-at[data-version='3']")
        page.wait_for_selector("#replay-at[data-version='3']")
        page.click("#replay button.replay-previous")
        page.wait_for_selector("#replay-at[data-version='2']")
        page.click("#replay button.replay-back")
        page.wait_for_selector("#replay", state="hidden")
        page.wait_for_selector("#result:not([hidden]) #winner")
        shots(page, f"record-end-{locale}")
        assert not errors, errors


def test_a_tampered_record_file_is_refused_with_its_fault(
        browser: Any, site: str, record: dict[str, Any], tmp_path: Path) -> None:
    tampered = json.loads(json.dumps(record))
    tampered["deal"]["revealed"]["seed"] += 1
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered))
    garbage = tmp_path / "notes.json"
    garbage.write_text("not a record")
    for page, errors in _open(browser, site, "en-US"):
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector("#record-error:not([hidden])")
        text = page.inner_text("#record-error")
        assert "refused" in text and "do not match the published commitment" in text, text
        assert page.is_visible("#create-game"), "the lobby stays"
        page.set_input_files("#record-file", str(garbage))
        page.wait_for_function(
            "() => document.querySelector('#record-error').textContent.includes('not JSON')")
        assert not errors, errors


def _watch(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def _bgb_verify(stack: Stack, path: Path) -> subprocess.CompletedProcess[str]:
    """`bgb verify FILE` as a person runs it, with no server to ask (the API address given to
    it answers nothing): the file alone is checked."""
    env = dict(stack.env, BGB_API_URL="http://127.0.0.1:9")
    bgb = Path(sys.executable).parent / "bgb"
    return subprocess.run([str(bgb), "verify", str(path)], cwd=REPO, env=env, text=True,
                          capture_output=True, timeout=120, check=False)


@pytest.mark.parametrize(("locale", "lang", "download"), [
    ("en-US", "en", "Download the record"),
    ("pt-BR", "pt-BR", "Baixar o registro"),
])
def test_a_finished_games_record_is_downloaded_from_its_page(
        browser: Any, site: str, stack: Stack, shots: Shots, tmp_path: Path,
        locale: str, lang: str, download: str) -> None:
    """No download while the game runs (the API has no record then: 409); the player ends it on
    the page, the link appears, and its file is the API's record, which `bgb verify` accepts
    offline (and refuses once edited)."""
    created = stack.client.create_game("toy-pontoon", {"players": 2}, [
        {"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=3)
    game_id, token = created["id"], created["seats"][0]["token"]
    ctx = browser.new_context(viewport=DESKTOP, locale=locale)
    try:
        page = ctx.new_page()
        errors = _watch(page)
        page.goto(f"{site}/play/games/{game_id}?lang={lang}#token={token}")
        page.wait_for_selector(READY)
        assert page.is_visible("#actions #new-game")
        assert page.locator("#download-record").count() == 0, "no record while the game runs"
        with pytest.raises(GameActive):
            stack.client.get_record(game_id)
        page.click("button.move[data-type='stop']")
        if page.is_visible("#confirm-bar"):
            page.click("#confirm-play")
        # The bot plays on to the end; the page follows and offers the record then.
        page.wait_for_selector("#result:not([hidden])", timeout=60_000)
        link = page.get_by_role("link", name=download)
        link.wait_for()
        assert page.get_attribute("#download-record", "aria-describedby") == "download-record-help"
        assert "bgb verify" in page.inner_text("#download-record-help")
        shots(page, f"download-{locale}")
        with page.expect_download() as downloading:
            link.click()
        got = downloading.value
        assert got.suggested_filename == f"toy-pontoon-{game_id}.json"
        path = tmp_path / got.suggested_filename
        got.save_as(str(path))
        assert json.loads(path.read_text()) == stack.client.get_record(game_id)
        assert not errors, errors
    finally:
        ctx.close()
    verified = _bgb_verify(stack, path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "verified" in verified.stdout and "FAILED" not in verified.stdout
    tampered = json.loads(path.read_text())
    assert tampered["moves"][0]["move"]["type"] == "stop", "the move played on the page"
    tampered["moves"][0]["move"] = {"type": "draw", "label": "Draw the top card"}
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(tampered))
    refused = _bgb_verify(stack, edited)
    assert refused.returncode == 1 and "FAILED" in refused.stdout, refused.stdout


def _finished_by_hand(stack: Stack) -> tuple[str, str, int]:
    """A two-seat toy-pontoon game played through the API to its end: four draws, then both
    seats stop (versions 0-6 to step through); its id, seat 0's token and its last version."""
    created = stack.client.create_game("toy-pontoon", {"players": 2}, seed=4)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    body = stack.client.get_game(created["id"], tokens[0])
    played = 0
    while body["status"] == "active":
        seat = body["to_act"]
        mine = stack.client.get_game(created["id"], tokens[seat])
        wanted = "draw" if played < 4 else "stop"
        move = next(m for m in mine["legal_moves"] if m["type"] == wanted)
        stack.client.move(created["id"], tokens[seat], move, mine["version"])
        played += 1
        body = stack.client.get_game(created["id"], tokens[0])
    return created["id"], tokens[0], int(body["version"])


def _query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


def test_a_replay_has_an_address_of_its_own(
        browser: Any, site: str, stack: Stack, shots: Shots) -> None:
    """Stepping through a finished game's replay (log, buttons, slider, ←) writes the version
    into the address (`?at=N`, the language and the seat's fragment kept); a reload comes back
    to it, its shared link (no token) opens at that move in another browser, and leaving the
    replay or an address past the end shows the game as it ended."""
    game_id, token, last = _finished_by_hand(stack)
    assert last == 6
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = ctx.new_page()
        errors = _watch(page)
        page.goto(f"{site}/play/games/{game_id}?lang=pt-BR#token={token}")
        page.wait_for_selector("#result:not([hidden])")
        end_board = page.inner_text("#board")
        assert "at" not in _query(page.url)
        page.click("#log button.replay-at[data-version='2']")
        page.wait_for_selector("#replay:not([hidden]) #replay-at[data-version='2']")
        assert _query(page.url) == {"lang": ["pt-BR"], "at": ["2"]}
        assert urlsplit(page.url).fragment == f"token={token}", "the seat stays in the fragment"
        page.click("#replay button.replay-next")
        page.wait_for_selector("#replay-at[data-version='3']")
        assert _query(page.url)["at"] == ["3"]
        page.locator("#replay-slider").fill("1")
        page.wait_for_selector("#replay-at[data-version='1']")
        assert _query(page.url)["at"] == ["1"]
        page.locator("#game-title").click()  # nothing focused that owns the arrows
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#replay-at[data-version='2']")
        assert _query(page.url)["at"] == ["2"]
        board_at_2 = page.inner_text("#board")
        assert board_at_2 != end_board
        shared = page.get_attribute("#replay-link", "href")
        assert page.get_attribute("#replay-link", "target") == "_blank"
        assert "Link para esta jogada" in page.inner_text("#replay-link")
        page.reload()  # the address brings the same move back, as the same seat
        page.wait_for_selector("#replay:not([hidden]) #replay-at[data-version='2']")
        assert page.inner_text("#board") == board_at_2
        assert "Replay: o jogo na versão 2 de 6, com todas as mãos abertas" in \
            page.inner_text("#replay-at"), "a game over: every hand open"
        assert page.input_value("#replay-slider") == "2"
        shots(page, "reloaded-at-2")
        page.click("#replay button.replay-back")
        page.wait_for_selector("#replay", state="hidden")
        assert _query(page.url) == {"lang": ["pt-BR"]}
        assert urlsplit(page.url).fragment == f"token={token}"
        assert not errors, errors
    finally:
        ctx.close()
    # The shared link holds no token: another browser opens it as a spectator, at move 2.
    assert shared is not None and "token" not in shared
    assert _query(shared) == {"lang": ["pt-BR"], "at": ["2"]}
    assert urlsplit(shared).path == f"/play/games/{game_id}" and not urlsplit(shared).fragment
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US", bypass_csp=True)  # for axe
    try:
        page = ctx.new_page()
        errors = _watch(page)
        page.goto(shared)
        page.wait_for_selector("#replay:not([hidden]) #replay-at[data-version='2']")
        assert "Replay: o jogo na versão 2 de 6" in page.inner_text("#replay-at")
        assert page.is_visible("#log li.replayed button.replay-at[data-version='2']")
        opened_at_2 = page.inner_text("#board")
        shots(page, "shared-at-2")
        page.add_script_tag(path=str(AXE))
        assert axe_violations(page) == [], "the replay bar, its link and the record's"
        # The same as a spectator who steps there from the game's end.
        page.click("#replay button.replay-back")
        page.wait_for_selector("#replay", state="hidden")
        assert page.inner_text("#board") != opened_at_2
        page.click("#log button.replay-at[data-version='2']")
        page.wait_for_selector("#replay-at[data-version='2']")
        assert page.inner_text("#board") == opened_at_2
        # An address past the end, or no version at all: the game as it ended, `at` dropped.
        for at in ("6", "99", "two"):
            page.goto(f"{site}/play/games/{game_id}?at={at}")
            page.wait_for_selector("#result:not([hidden])")
            assert page.is_hidden("#replay") and "at" not in _query(page.url), at
        assert not errors, errors
    finally:
        ctx.close()
