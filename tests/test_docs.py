"""The documentation site builds in strict mode (a broken link, a missing page or a stale
settings table fails it), and the README stays a front door."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs tools: pip install -e '.[docs]'")
    pytest.importorskip("material", reason="the docs tools: pip install -e '.[docs]'")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-6000:]
    assert (tmp_path / "reference" / "openapi.json").is_file()
    configuration = (tmp_path / "operating" / "index.html").read_text(encoding="utf-8")
    assert "BGB_MAX_BOT_MS" in configuration
    # The pages the catalog's rules links (and the web page's rules panel) open are built.
    from api.catalog import rules_pages

    for game, path in rules_pages().items():
        assert (tmp_path / path / "index.html").is_file(), f"{game}'s rules page {path}"


def test_the_readme_is_short() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move detail to docs/"


def test_the_readme_links_exist() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert targets, "the README links to the docs"
    missing = [t for t in targets if "://" not in t and not (REPO / t).exists()]
    assert not missing, f"README.md links to missing files: {missing}"
