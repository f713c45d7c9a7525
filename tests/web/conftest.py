"""Browser fixtures: Debian's Chromium driven by Playwright against the e2e stack.

The API and real bot workers come from `tests/e2e/conftest.py` (one stack per test module).
Playwright never downloads a browser here: it launches the system's `chromium`. Without
Playwright or Chromium the browser tests are skipped, saying which is missing.
Screenshots of every step go to `test-artifacts/web/<test>/` (git-ignored).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import REPO, Stack, stack  # noqa: F401  (the e2e stack, reused)

ARTIFACTS = Path(os.environ.get("BGB_TEST_ARTIFACTS", REPO / "test-artifacts")) / "web"
CHROMIUM_PATHS = ("chromium", "chromium-browser", "/usr/bin/chromium", "/usr/lib/chromium/chromium")


def chromium_path() -> str | None:
    """The system Chromium, or None."""
    configured = os.environ.get("BGB_CHROMIUM")
    for candidate in ([configured] if configured else []) + list(CHROMIUM_PATHS):
        found = shutil.which(candidate)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium (the system's), or a skip naming what is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser tests need Playwright: pip install -e '.[test]'")
    executable = chromium_path()
    if executable is None:
        pytest.skip("browser tests need Chromium: apt-get install -y chromium")
    with sync_playwright() as playwright:
        launched = launch_chromium(playwright, executable)
        yield launched
        launched.close()


def launch_chromium(playwright: Any, executable: str) -> Any:
    """A headless Chromium of `playwright` (an instance of the calling thread: Playwright's
    objects are used only by the thread that made them)."""
    # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    return playwright.chromium.launch(executable_path=executable,
                                      args=["--no-sandbox", "--disable-dev-shm-usage"])


class Shots:
    """Numbered screenshots of one test's steps."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.count = 0

    def __call__(self, page: Any, step: str, full_page: bool = True, jpeg: bool = False) -> Path:
        """Save `page` as `NN-step.png` (one pixel a CSS px: a phone's screen at its device
        scale would be two to three times as big on disk); the path. A `jpeg` is taken in
        half the time of a PNG: for the hundreds of steps of a whole game."""
        self.count += 1
        path = self.directory / f"{self.count:02d}-{step}.{'jpeg' if jpeg else 'png'}"
        if jpeg:
            page.screenshot(path=str(path), full_page=full_page, scale="css", type="jpeg",
                            quality=80)
        else:
            page.screenshot(path=str(path), full_page=full_page, scale="css")
        return path


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Shots:
    """Where this test saves its screenshots."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    directory = ARTIFACTS / name
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    return Shots(directory)


@pytest.fixture
def site(stack: Stack) -> str:  # noqa: F811  (the e2e fixture of that name)
    """The server's base URL."""
    return stack.api_url
