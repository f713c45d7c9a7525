"""`greedy`: one-ply lookahead — the legal move whose resulting position evaluates best.

The hidden parts are sampled once per decision (`determinize` from the seat's view,
seeded), then every legal move is tried on a copy of that same sample so the moves are
compared on equal terms. In games where a turn is a sequence of decisions (Darwin's
Journey), greedy judges the position after each decision, not after the whole turn.
"""

from __future__ import annotations

import random

from ai_worker.bots.base import (
    Params,
    ParamsSchema,
    check_legal_moves,
    seat_count,
    validate_params,
)
from ai_worker.bots.evaluation import advantage, get_evaluation
from core.contract import Game, IllegalMove, Move, View

# Values closer than this are a tie, broken by the seeded generator.
_TIE = 1e-9


class GreedyBot:
    """Plays the move with the best evaluation one decision ahead."""

    name = "greedy"
    title = "Greedy"
    automa_only = False
    description = ("One-ply lookahead: tries each legal move on one sampled position and plays "
                   "the one leaving the best evaluation (points now plus the estimated worth of "
                   "resources and progress). Fast; a sparring partner.")

    def params_schema(self) -> ParamsSchema:
        """No parameters."""
        return {}

    def choose(self, game: Game, view: View, seat: int, legal_moves: list[Move],
               params: Params, seed: int) -> Move:
        """The legal move whose result evaluates best for `seat` (ties broken by `seed`)."""
        validate_params(self.name, self.params_schema(), params)
        check_legal_moves(self.name, legal_moves)
        if len(legal_moves) == 1:
            return legal_moves[0]
        rng = random.Random(seed)
        sample = game.determinize(view, seat, rng.getrandbits(63))
        seats = seat_count(game, view, sample)
        evaluation = get_evaluation(game.name)
        best: list[int] = []
        best_value = float("-inf")
        for i, move in enumerate(legal_moves):
            after = game.clone(sample)
            try:
                game.apply(after, move)
            except IllegalMove:
                continue  # only if a sample disagrees with the view; never pick blindly
            value = advantage(game, after, evaluation, seats, seat)
            if value > best_value + _TIE:
                best, best_value = [i], value
            elif value >= best_value - _TIE:
                best.append(i)
        if not best:
            return legal_moves[0]
        return legal_moves[best[rng.randrange(len(best))]]
