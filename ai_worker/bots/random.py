"""`random`: a uniformly random legal move, seeded — the baseline every bot must beat."""

from __future__ import annotations

import random as _random

from ai_worker.bots.base import Params, ParamsSchema, check_legal_moves, validate_params
from core.contract import Game, Move, View


class RandomBot:
    """Picks uniformly among the legal moves with a generator seeded by `seed`."""

    name = "random"
    title = "Random"
    automa_only = False
    description = "Plays a uniformly random legal move (seeded). A baseline, not an opponent."

    def params_schema(self) -> ParamsSchema:
        """No parameters."""
        return {}

    def choose(self, game: Game, view: View, seat: int, legal_moves: list[Move],
               params: Params, seed: int) -> Move:
        """A uniformly random one of `legal_moves`."""
        validate_params(self.name, self.params_schema(), params)
        check_legal_moves(self.name, legal_moves)
        return legal_moves[_random.Random(seed).randrange(len(legal_moves))]
