#!/usr/bin/env python3
"""Print the README's set-up commands, one a line, in order (serve, then test): the
indented lines of its "Set-up" section. `.ci/run` runs them exactly as written, so the
README cannot drift from what CI checks."""

from __future__ import annotations

import sys
from pathlib import Path


def setup_commands(readme: str) -> list[str]:
    """The 4-space-indented lines of the section whose heading starts "## Set-up"."""
    commands: list[str] = []
    inside = False
    for line in readme.splitlines():
        if line.startswith("## "):
            inside = line.startswith("## Set-up")
        elif inside and line.startswith("    ") and line.strip():
            commands.append(line.strip())
    return commands


def main() -> int:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md")
    commands = setup_commands(path.read_text(encoding="utf-8"))
    if len(commands) != 2:
        print(f"{path}: expected 2 set-up commands, found {commands}", file=sys.stderr)
        return 1
    print("\n".join(commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
