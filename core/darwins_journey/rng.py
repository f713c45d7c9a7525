"""A tiny deterministic PRNG (splitmix64) whose whole state is one int kept in `state.rng`."""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


def seed_value(seed: int) -> int:
    """The PRNG state for a game seed."""
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next64(state: Any) -> int:
    """Advance `state.rng` and return 64 random bits."""
    state.rng = (state.rng + 0x9E3779B97F4A7C15) & _MASK
    z = state.rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def randbelow(state: Any, n: int) -> int:
    """A random int in [0, n) drawn from the state's PRNG."""
    return next64(state) % n


def shuffle(state: Any, items: list[Any]) -> None:
    """Shuffle `items` in place with the state's PRNG (Fisher-Yates).

    `next64` is inlined on a local copy of the PRNG state (written back once): every MCTS
    iteration shuffles the hidden decks in `determinize`, a function call per draw showed up
    in profiles. The draws are exactly `next64`'s.
    """
    x = state.rng
    mask = _MASK  # a local: read on every draw
    for i in range(len(items) - 1, 0, -1):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    state.rng = x
