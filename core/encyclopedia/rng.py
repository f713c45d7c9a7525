"""A tiny deterministic PRNG (splitmix64) whose whole state is one int kept in `state.rng`."""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1
# draws made by this process so far, on any state (ai.py: a choice worked out without a draw
# holds at any `rng`); only ever compared before and after, so another thread's draws can
# only make a choice look as if it drew
_draws = 0


def seed_value(seed: int) -> int:
    """The PRNG state for a game seed."""
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & _MASK


def randbelow(state: Any, n: int) -> int:
    """A random int in [0, n) drawn from the state's PRNG."""
    global _draws
    _draws += 1
    state.rng = x = (state.rng + 0x9E3779B97F4A7C15) & _MASK
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) % n


def draws() -> int:
    """How many draws this process has made so far (see `_draws`)."""
    return _draws
