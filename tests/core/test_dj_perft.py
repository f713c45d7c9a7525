"""'Perft' fixtures: seeded random games pinned to their length, scores and final digest.

They catch unintended changes of the rules engine. After an intended rules or data change,
regenerate the table with `python3 tests/core/test_dj_perft.py` and review the differences.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from core import get_game

GAME = get_game("darwins-journey")

# (players, seed, first_game, legal moves at start, decisions, final scores, dump digest)
FIXTURES = [
    (2, 1, False, 4, 74, [5, 6], "b9738de030ce033c"),
    (3, 2, False, 4, 121, [6, 0, 9], "963026ef0396fbaf"),
    (4, 3, False, 4, 146, [4, 6, 3, 11], "dcdf59c9b10daad5"),
    (2, 4, True, 2, 79, [7, 24], "b30029ae585392a9"),
]

# solo against Alfred: (Alfred's colour, seed, legal moves at start, decisions, scores, digest)
SOLO_FIXTURES = [
    ("white", 11, 5, 74, [10, 82], "df1f449577a4c33f"),
    ("blue", 12, 5, 91, [16, 111], "8b82d162bcf436c7"),
    ("yellow", 13, 5, 79, [3, 149], "f26918a5f175033c"),
    ("green", 14, 5, 75, [6, 162], "28ccdb202d7027e7"),
]


def digest_game(players: int, seed: int, first_game: bool,
                alfred: str = "") -> tuple[int, int, list[int], str]:
    """Play the seeded uniformly random game (solo against `alfred` when given); its figures."""
    options: dict[str, Any] = {"players": players, "first_game": first_game}
    if alfred:
        options["alfred"] = alfred
    state = GAME.new_game(options, seed)
    rnd = random.Random(seed)
    first = len(GAME.legal_moves(state))
    decisions = 0
    while GAME.to_act(state) is not None:
        GAME.apply(state, rnd.choice(GAME.legal_moves(state)))
        decisions += 1
    dump = json.dumps(GAME.dump(state), sort_keys=True).encode()
    return first, decisions, GAME.result(state)["scores"], hashlib.sha256(dump).hexdigest()[:16]


@pytest.mark.parametrize("players,seed,first_game,first,decisions,scores,digest", FIXTURES)
def test_perft(players: int, seed: int, first_game: bool, first: int, decisions: int,
               scores: list[int], digest: str) -> None:
    """The pinned game plays exactly as recorded."""
    assert digest_game(players, seed, first_game) == (first, decisions, scores, digest)


@pytest.mark.parametrize("colour,seed,first,decisions,scores,digest", SOLO_FIXTURES)
def test_solo_perft(colour: str, seed: int, first: int, decisions: int, scores: list[int],
                    digest: str) -> None:
    """The pinned solo game (Alfred's moves included) plays exactly as recorded."""
    assert digest_game(1, seed, False, colour) == (first, decisions, scores, digest)


if __name__ == "__main__":
    for players, seed, first_game, *_ in FIXTURES:
        print((players, seed, first_game, *digest_game(players, seed, first_game)))
    for colour, seed, *_ in SOLO_FIXTURES:
        print((colour, seed, *digest_game(1, seed, False, colour)))
