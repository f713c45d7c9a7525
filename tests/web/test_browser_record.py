"""A game record file replayed on the page (issue 28): chosen in the lobby, verified by the
server (POST /v1/records/replay) and stepped through with the finished game's replay controls,
in English and Portuguese; a tampered file is refused with verify's fault."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Stack
from tests.web.conftest import Shots

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
