"""'Perft' fixtures: seeded random games pinned to their length, scores and final digest.

They catch unintended changes of the rules engine. After an intended rules or data change,
regenerate the table with `python3 tests/core/test_dj_perft.py` and review the differences.
"""

from __future__ import annotations

import hashlib
import json
import random

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


def digest_game(players: int, seed: int, first_game: bool) -> tuple[int, int, list[int], str]:
    """Play the seeded uniformly random game; its figures."""
    state = GAME.new_game({"players": players, "first_game": first_game}, seed)
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


if __name__ == "__main__":
    for players, seed, first_game, *_ in FIXTURES:
        print((players, seed, first_game, *digest_game(players, seed, first_game)))
