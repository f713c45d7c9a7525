"""`bgb play` in a pseudo-terminal of 80×24 against a real server: readable, no raw JSON.

The command runs as a person runs it (a child process on a pty whose window is 80 columns
by 24 rows, so rich wraps to it); the tests read what it writes, escape codes removed.
"""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import REPO, Stack, _start

pytestmark = pytest.mark.e2e

COLUMNS, ROWS = 80, 24
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>()][0-9A-Za-z]?")
# What raw JSON looks like on screen: a quoted key, an object or a nested list.
RAW_JSON = re.compile(r'"\w+"\s*:|\{"|\[\[|\{\}|":\s*[\[{0-9"]')
PROMPT = "q = quit>"
PROMPT_PT = "q = sair>"


class Terminal:
    """A `bgb` command on a pseudo-terminal of COLUMNS×ROWS."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        terminal_env = {**env, "TERM": "xterm-256color", "COLUMNS": str(COLUMNS),
                        "LINES": str(ROWS)}
        self.process = subprocess.Popen([sys.executable, "-m", "clients.cli", *args],
                                        stdin=slave, stdout=slave, stderr=slave, cwd=REPO,
                                        env=terminal_env, start_new_session=True)
        os.close(slave)
        self.raw = ""  # everything written so far
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.seen = 0  # how much of the screen `expect` has consumed

    @property
    def screen(self) -> str:
        """What was written, escape codes removed (from the whole text: a code may come in
        two reads)."""
        return ANSI.sub("", self.raw).replace("\r", "")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the child closed the terminal
            return False
        self.raw += self.decoder.decode(data)
        return bool(data)

    def expect(self, text: str, timeout: float = 30.0) -> str:
        """Read until `text` appears; returns what was written since the last expect."""
        deadline = time.monotonic() + timeout
        while text not in self.screen[self.seen:]:
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never came; the screen:\n{self.screen[-3000:]}")
            if not self._read(0.2) and self.process.poll() is not None:
                self._read(0.1)
                if text not in self.screen[self.seen:]:
                    raise AssertionError(f"exited before {text!r}:\n{self.screen[-3000:]}")
        end = self.screen.index(text, self.seen) + len(text)
        chunk, self.seen = self.screen[self.seen:end], end
        return chunk

    def send(self, line: str) -> None:
        """Type a line."""
        os.write(self.master, (line + "\n").encode())

    def finish(self, timeout: float = 30.0) -> str:
        """Wait for the command to end; returns the rest of what it wrote."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        while self._read(0.1):
            pass
        rest, self.seen = self.screen[self.seen:], len(self.screen)
        return rest

    def close(self) -> None:
        """End the command if it still runs."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        os.close(self.master)


def assert_readable(screen: str) -> None:
    """No raw JSON, no line wider than the terminal."""
    assert not RAW_JSON.search(screen), RAW_JSON.search(screen)
    wide = [line for line in screen.split("\n") if len(line) > COLUMNS]
    assert not wide, wide


@pytest.fixture(scope="module")
def stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The API and one bot worker (Alfred's moves)."""
    running = _start(redis_url, tmp_path_factory.mktemp("terminal-logs"), workers=1)
    yield running
    running.stop()


@pytest.fixture
def run(stack: Stack) -> Iterator:
    """Start `bgb` commands on terminals; each is ended after the test."""
    started: list[Terminal] = []
    env = {k: v for k, v in stack.env.items() if k not in ("LANG", "LANGUAGE", "LC_ALL",
                                                             "LC_MESSAGES")}

    def start(*args: str, lang: str | None = None) -> Terminal:
        terminal = Terminal(list(args), {**env, **({"LANG": lang} if lang else {})})
        started.append(terminal)
        return terminal

    yield start
    for terminal in started:
        terminal.close()


def test_play_against_alfred_reads_well_and_can_be_resumed(run) -> None:
    term = run("play", "darwins-journey", "--vs", "alfred:white", "--seed", "4")
    first = term.expect(PROMPT)
    assert "Main board" in first and "Alfred" in first and "Your turn" in first
    assert "Keep crew card" in first  # the draft, with the cards' texts
    assert_readable(first)
    for _ in range(3):  # three draft choices, then on into the rounds
        term.send("1")
        after = term.expect(PROMPT)
        assert "Main board" not in after  # only what changed: the moves and their events
        assert "You: Keep crew card" in after
        assert_readable(after)
    term.send("b")
    assert "Main board" in term.expect(PROMPT)
    term.send("q")
    rest = term.finish()
    assert_readable(rest)
    found = re.search(r"bgb play --game (\S+)\s+--token (\S+)", rest)
    assert found, rest
    back = run("play", "--game", found.group(1), "--token", found.group(2))
    again = back.expect(PROMPT)
    assert "Main board" in again and "Your turn" in again
    assert "Keep crew card" not in again  # the moves before are not printed again
    assert_readable(again)
    back.send("q")
    back.finish()


def test_portuguese_from_the_option_or_the_locale(run) -> None:
    term = run("--lang", "pt-BR", "play", "darwins-journey", "--vs", "alfred", "--seed", "2")
    screen = term.expect(PROMPT_PT)
    assert "Sua vez" in screen and "Tabuleiro Central" in screen and "Rodada 1 de 5" in screen
    # the move labels too, from the API (Accept-Language), with the cards' texts
    assert "Ficar com a Carta de Tripulação" in screen and "Ganhe" in screen
    assert "Your turn" not in screen and "Main board" not in screen
    assert "Keep crew card" not in screen
    assert_readable(screen)
    term.send("q")
    term.finish()
    by_locale = run("play", "darwins-journey", "--vs", "alfred", lang="pt_BR.UTF-8")
    assert "Sua vez" in by_locale.expect(PROMPT_PT)
    by_locale.send("q")
    by_locale.finish()


def test_a_refused_command_shows_the_servers_detail(run) -> None:
    term = run("show", "no-such-game")
    screen = term.finish()
    assert "Not found: no game 'no-such-game' (404)" in screen
    portuguese = run("--lang", "pt-BR", "show", "no-such-game").finish()
    assert "Não encontrado" in portuguese


def test_version(run) -> None:
    assert re.search(r"bgb \d+\.\d+", run("--version").finish())


def test_show_and_watch_a_finished_toy_game(run, stack: Stack) -> None:
    created = stack.client.create_game("toy-pontoon", {"players": 2},
                                       [{"kind": "bot", "bot": "random", "params": {}}] * 2)
    stack.client.wait_for_version(created["id"], 0)
    deadline = time.monotonic() + 20
    while stack.client.get_game(created["id"])["status"] == "active":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    for command in ("show", "watch"):
        screen = run(command, created["id"]).finish()
        assert "Result" in screen
        assert_readable(screen)



def test_a_number_is_its_move_and_a_filter_waits_for_enter(run) -> None:
    """Issue 30: "5" with four moves listed was read as a filter and played its only match."""
    term = run("play", "darwins-journey", "--vs", "alfred:white", "--seed", "4")
    first = term.expect(PROMPT)
    cards = re.findall(r"^\s*\d+\s+Keep crew card (\d+):", first, re.M)
    assert len(cards) >= 2, first
    past = len(re.findall(r"^\s*\d+\s+\S", first.split("Your moves")[-1], re.M)) + 1
    term.send(str(past))
    refused = term.expect(PROMPT)
    assert f"no move {past}; moves are numbered 1 to {past - 1}" in refused
    assert "You: Keep crew card" not in refused
    term.send("Keep crew card")  # every draft move: the list narrows, nothing is played
    assert "You: Keep crew card" not in term.expect(PROMPT)
    term.send(f"crew card {cards[1]}:")  # one move: shown, and Enter plays it
    single = term.expect(PROMPT)
    assert f"Enter plays move 2: Keep crew card {cards[1]}" in single
    assert "You: Keep crew card" not in single
    term.send("")
    assert f"You: Keep crew card {cards[1]}" in term.expect(PROMPT)
    term.send("q")
    term.finish()
