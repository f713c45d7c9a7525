"""The project's own search on a client machine: a move for a game as the API answers it.

A bot written against the API gets the seat's game (a read, or `current` on the account
stream's `your_turn` with `view=1`): its `view`, `options`, `seat` and `legal_moves`. The
server's bots search from exactly that (hidden parts sampled with the rules' `determinize`,
never read), so the same search runs here, with this package installed:

    from clients.remote_search import search
    move = search(event["current"], ms=500)
"""

from __future__ import annotations

import random
from typing import Any

import core
from ai_worker.bots import get_bot


def search(answer: dict[str, Any], bot: str = "mcts", ms: int = 500,
           seed: int | None = None) -> dict[str, Any]:
    """The move `bot` (`mcts`, `greedy`, `random`) picks from a game answer of the API
    (`GET /v1/games/{id}` as the seat to act): one of its `legal_moves`, as it is."""
    rules = core.get_game(str(answer["game"]))
    # Automa bots read the game's options from the view; an answer carries them beside it
    # (as the server's own bot jobs do: a view that has them keeps its own).
    view = dict(answer["view"])
    view.setdefault("options", answer.get("options") or {})
    params = {"ms": ms} if bot == "mcts" else {}
    return dict(get_bot(bot).choose(rules, view, int(answer["seat"]), answer["legal_moves"],
                                    params, random.randrange(2**63) if seed is None else seed))
