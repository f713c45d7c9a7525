"""The contract tests' random player: any legal move, rarely a skip, so games use many rules."""

from __future__ import annotations

import random
from typing import Any

PASSIVE = {"skip", "done", "end_turn", "pass"}


def pick(rnd: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A random move, a passive one (skip, done, end of turn, pass) only one time in ten."""
    active = [m for m in moves if m["type"] not in PASSIVE]
    if active and rnd.random() < 0.9:
        return rnd.choice(active)
    return rnd.choice(moves)
