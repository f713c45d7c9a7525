"""Every code block the docs mark to run (```` ```python { .exec } ```` or
```` ```console { .exec } ````) runs against a real server, so no example rots.

Python blocks run as scripts; console blocks run their `$ ` commands in bash, one block in
one shell, and when a block shows output after its commands, the output must be that.
`localhost:8000` in a block stands for the test's server.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, Stack

pytestmark = pytest.mark.e2e

# The pages that must have blocks to run; a marked block on any other page runs too.
PAGES = ("docs/getting-started.md", "docs/bots.md", "docs/tournaments.md", "README.md")
FENCE = re.compile(r"^```(python|console) \{ \.exec \}\n(.*?)^```$", re.DOTALL | re.MULTILINE)
SERVER = re.compile(r"(https?://)?(localhost|127\.0\.0\.1):8000")


@dataclass(frozen=True)
class Example:
    """One marked block of a page."""

    page: str
    line: int
    language: str
    code: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def examples() -> list[Example]:
    """The marked blocks of the pages, in page order."""
    found = []
    every_page = sorted(str(path.relative_to(REPO)) for path in (REPO / "docs").rglob("*.md"))
    for page in [*PAGES, *(page for page in every_page if page not in PAGES)]:
        text = (REPO / page).read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(Example(page, line, match.group(1), match.group(2)))
    return found


def console_parts(code: str) -> tuple[str, list[str]]:
    """A console block's commands (as one bash script) and the output it shows."""
    commands: list[str] = []
    shown: list[str] = []
    continued = False
    for line in code.splitlines():
        if continued:
            commands.append(line)
        elif line.startswith("$ "):
            commands.append(line[2:])
        else:
            shown.append(line)
            continue
        continued = line.endswith("\\")
    return "\n".join(commands), shown


def test_the_pages_have_examples() -> None:
    marked = {example.page for example in examples()}
    assert marked >= set(PAGES), f"pages without a block to run: {set(PAGES) - marked}"


@pytest.mark.parametrize("example", examples(), ids=str)
def test_example_runs(example: Example, stack: Stack, tmp_path: Path) -> None:
    code = SERVER.sub(stack.api_url, example.code)
    env = dict(stack.env)
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    if example.language == "python":
        command = [sys.executable, "-c", code]
        shown: list[str] = []
    else:
        if shutil.which("jq") is None:
            pytest.skip("the console examples use jq: apt-get install -y jq")
        script, shown = console_parts(code)
        command = ["bash", "-euo", "pipefail", "-c", script]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, (
        f"{example} failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    if shown:
        assert done.stdout.strip().splitlines() == shown, f"{example} printed {done.stdout!r}"
