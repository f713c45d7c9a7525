"""Pluggable position evaluations, per game, and the rewards search bots back up.

An evaluation is `evaluate(game, state, seat) -> float`: an estimate, in the game's
points, of what the position is worth to `seat` (points now plus the value of
resources that will turn into points). Games register one here under their
registry name; any other game gets the generic fallback (final scores once the
game is over, 0 before). Search bots turn those values into per-seat rewards in
[0, 1] with `rewards`, so search code never knows which game it plays.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.contract import Game, Move

Evaluate = Callable[[Game, Any, int], float]
EvaluateAll = Callable[[Game, Any], list[float]]
RolloutPolicy = Callable[[Game, Any, list[Move], random.Random], Move]
Quiet = Callable[[Game, Any, int], bool]


@dataclass(frozen=True)
class Evaluation:
    """A game's evaluation and the facts search needs to normalise it."""

    evaluate: Evaluate
    # Rewards use tanh(margin / scale): about linear within +-scale/2 points, flat beyond.
    # Too small a scale flattens the rewards of a seat far behind (or ahead) and the
    # search loses its gradient; too large makes a lead of a few points hard to see.
    scale: float = 10.0
    # Multiplies the search's UCT constant, so that `c` means the same thing whatever the
    # spread of this evaluation's rewards (a large `scale` wants a smaller exploration).
    exploration: float = 1.0
    # Optional: all seats at once when that is cheaper than one call per seat.
    evaluate_all: EvaluateAll | None = None
    # Optional cheap rollout policy; None means uniform random over legal moves.
    rollout_policy: RolloutPolicy | None = None
    # Optional: whether a position is a fair place to stop a rollout for `seat` (the
    # searching seat), e.g. the start of its next turn. Search bots may play on past their
    # rollout depth until one, so that every rollout stops at the same point of the turn
    # cycle; None means every position is.
    quiet: Quiet | None = None


# Evaluations living in their own modules, imported on first use so that importing
# the bots never imports an engine that is not needed.
_MODULES = {"darwins-journey": "ai_worker.bots.eval_darwins_journey",
            "encyclopedia": "ai_worker.bots.eval_encyclopedia",
            "flotilla": "ai_worker.bots.eval_flotilla"}
_REGISTRY: dict[str, Evaluation] = {}


def register_evaluation(game_name: str, evaluation: Evaluation) -> Evaluation:
    """Use `evaluation` for the game registered as `game_name`."""
    _REGISTRY[game_name] = evaluation
    return evaluation


def final_scores(game: Game, state: Any) -> list[float]:
    """Each seat's final score from `game.result` (totals when scores carry a breakdown)."""
    scores = game.result(state)["scores"]
    if isinstance(scores, dict):
        scores = [scores[k] for k in sorted(scores, key=int)]
    out = []
    for score in scores:
        if isinstance(score, dict):
            score = score.get("total", 0)
        out.append(float(score or 0))
    return out


def generic_evaluate(game: Game, state: Any, seat: int) -> float:
    """Fallback evaluation: the seat's final score once the game is over, else 0."""
    if game.to_act(state) is not None:
        return 0.0
    return final_scores(game, state)[seat]


GENERIC = Evaluation(evaluate=generic_evaluate, scale=10.0)


def get_evaluation(game_name: str) -> Evaluation:
    """The evaluation registered for `game_name`, or the generic fallback."""
    if game_name not in _REGISTRY and game_name in _MODULES:
        try:
            importlib.import_module(_MODULES[game_name])
        except ModuleNotFoundError as exc:
            # The engine itself may be missing (still being written): fall back quietly.
            if not (exc.name or "").startswith("core"):
                raise
    return _REGISTRY.get(game_name, GENERIC)


def seat_values(game: Game, state: Any, evaluation: Evaluation, seats: int) -> list[float]:
    """Every seat's value: final scores when the game is over, else the evaluation."""
    if game.to_act(state) is None:
        return final_scores(game, state)
    if evaluation.evaluate_all is not None:
        return list(evaluation.evaluate_all(game, state))
    return [evaluation.evaluate(game, state, s) for s in range(seats)]


def win_shares(game: Game, state: Any, seats: int) -> list[float]:
    """1 for the winner of a finished game, 0 for the others; tied winners share it."""
    result = game.result(state)
    ranking = result.get("ranking") or []
    winners: list[int]
    if isinstance(result.get("winners"), list) and result["winners"]:
        winners = list(result["winners"])  # the game says who shares the win
    elif ranking and isinstance(ranking[0], list):
        winners = list(ranking[0])  # tied groups, best first
    elif ranking and isinstance(ranking[0], dict):
        winners = [r["seat"] for r in ranking if r.get("rank", 1) == 1]
    elif ranking:
        winners = [ranking[0]]
    else:
        scores = final_scores(game, state)
        best = max(scores)
        winners = [s for s in range(seats) if scores[s] == best]
    shares = [0.0] * seats
    for s in winners:
        shares[s] = 1.0 / len(winners)
    return shares


def margins(values: list[float]) -> list[float]:
    """Each seat's lead over the best other seat (its own value when alone)."""
    if len(values) == 1:
        return list(values)
    out = []
    for s, v in enumerate(values):
        best_other = max(values[:s] + values[s + 1:])
        out.append(v - best_other)
    return out


def shares(values: list[float]) -> list[float]:
    """Each seat's share of the points held by it and its best rival (0.5 when both hold 0)."""
    out = []
    for s, v in enumerate(values):
        mine = max(v, 0.0)
        rival = max(max(values[:s] + values[s + 1:]), 0.0)
        out.append(mine / (mine + rival) if mine + rival > 0 else 0.5)
    return out


def rewards(game: Game, state: Any, evaluation: Evaluation, seats: int) -> list[float]:
    """Per-seat rewards in [0, 1].

    Mostly the lead over the best rival squashed by tanh(margin / scale) (close to linear
    for a large scale, close to a win probability for a small one), plus a smaller term
    from the seat's share of the points, which keeps a gradient where the tanh is flat.
    Once the game is over, the real outcome (win, tie-breaks included) counts for half.
    """
    values = seat_values(game, state, evaluation, seats)
    scale = evaluation.scale
    if seats == 1:
        # Alone (no automa): no one to beat, more points are simply better.
        v = max(values[0], 0.0)
        return [v / (v + scale)]
    lead = [0.5 + 0.5 * math.tanh(m / scale) for m in margins(values)]
    estimate = [0.7 * x + 0.3 * y for x, y in zip(lead, shares(values), strict=True)]
    if game.to_act(state) is not None:
        return estimate
    return [0.5 * w + 0.5 * x for w, x in zip(win_shares(game, state, seats), estimate,
                                                strict=True)]


def advantage(game: Game, state: Any, evaluation: Evaluation, seats: int, seat: int) -> float:
    """Greedy's score of a position for `seat`: its lead in points (plus the win itself)."""
    values = seat_values(game, state, evaluation, seats)
    lead = margins(values)[seat]
    if game.to_act(state) is None and seats > 1:
        lead += win_shares(game, state, seats)[seat]  # breaks ties the way the rules rank
    return lead
