"""A tiny deterministic PRNG (splitmix64) whose whole state is one int kept in `state["rng"]`."""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


def seed_value(seed: int) -> int:
    """The PRNG state for a game seed."""
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def randbelow(s: dict[str, Any], n: int) -> int:
    """A random int in [0, n) drawn from the state's PRNG."""
    x = (s["rng"] + 0x9E3779B97F4A7C15) & _MASK
    s["rng"] = x
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) % n


def shuffle(s: dict[str, Any], items: list[Any]) -> None:
    """Shuffle `items` in place (Fisher-Yates) with the state's PRNG."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(s, i + 1)
        items[i], items[j] = items[j], items[i]


def draw(s: dict[str, Any], bag: list[Any]) -> Any:
    """Take a random item out of `bag` (bags are kept sorted: only the draw is random)."""
    return bag.pop(randbelow(s, len(bag)))
