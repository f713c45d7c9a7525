"""Nobody mutates a legal move: the engine hands out the same move dicts again and again.

Darwin's Journey interns its moves (placements, seals, actions…) and caches legal-move
lists across clones, so a bot or an `apply` that changed one would change it for every
game in the process. This plays seeded games where the engine applies the moves and the
bots search from views, and checks every move it was ever handed is as it was.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import core
from ai_worker.bots import get_bot

GAME = core.get_game("darwins-journey")
BOTS: dict[str, dict[str, Any]] = {
    "greedy": {}, "mcts": {"iterations": 8, "rollout_depth": 4},
}


@pytest.mark.parametrize("options,seed", [({"players": 2}, 21), ({"players": 1,
                                                                 "alfred": "green"}, 22)])
def test_legal_moves_are_never_mutated(options: dict[str, Any], seed: int) -> None:
    """After a whole game of applies and searches, every move handed out is unchanged."""
    state = GAME.new_game(options, seed)
    automa = GAME.automa_seats(options)
    rnd = random.Random(seed)
    handed: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}  # id -> (move, its copy)
    step = 0
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_moves(state)
        for move in legal:
            handed.setdefault(id(move), (move, copy.deepcopy(move)))
        if seat in automa:
            move = get_bot("alfred").choose(GAME, GAME.view(state, seat), seat, legal, {}, step)
        elif step % 5 == 0:  # a search now and then: the bots see the same move objects
            name = "mcts" if step % 10 == 0 else "greedy"
            bot = type(get_bot(name))()
            move = bot.choose(GAME, GAME.view(state, seat), seat, legal, BOTS[name], step)
        else:
            move = rnd.choice(legal)
        GAME.apply(state, move)
        step += 1
    changed = [before for move, before in handed.values() if move != before]
    assert not changed, f"{len(changed)} legal moves were mutated, e.g. {changed[0]}"
    assert len(handed) > 50  # the game really handed out moves
