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
    (2, 1, False, 4, 80, [6, 7], "4fa1b9a2768ea85f"),
    (3, 2, False, 4, 117, [0, 10, 11], "594f5f56e6b8645d"),
    (4, 3, False, 4, 146, [4, 6, 3, 11], "c4f393911334fd1a"),
    (2, 4, True, 2, 86, [7, 27], "3f3f54f38c3d179b"),
]

# solo against Alfred: (Alfred's colour, seed, legal moves at start, decisions, scores, digest)
SOLO_FIXTURES = [
    ("white", 11, 5, 90, [15, 110], "50d41b3a8366db63"),
    ("blue", 12, 5, 87, [17, 139], "df2230e197bef4fd"),
    ("yellow", 13, 5, 84, [12, 107], "4dfdf302145b6190"),
    ("green", 14, 5, 72, [7, 119], "a3b599ace2af2320"),
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
