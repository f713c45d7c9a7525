"""The Flotilla evaluation: final score now plus a rough worth of what will still score.

Points now are the engine's own final scoring of the current position (`scoring.breakdown`:
VP, coins/5, Resources/2, the Toxicity penalty, Seal majorities). On top come hand-set
estimates, in VP, of assets that turn into points later, weighted by the share `t` of the
game still to come (the VP supply left): Crew Cards owned, Skiffs in play and their Cargo,
Influence progress, coins and Resources beyond their end-game rate, Skyside tiles waiting in
the Reserve, and Toxicity close to the next Score Penalty step. Search bots normalise it.
"""

from __future__ import annotations

import random
from typing import Any

from ai_worker.bots.evaluation import Evaluation, register_evaluation
from core.contract import Game, Move
from core.flotilla import data as D
from core.flotilla import scoring

# VP a unit of each asset is worth when the whole game is still to come (hand-set).
CREW = 2.0
SKIFF = 3.0
CARGO = 0.8
INFLUENCE = 0.6
COIN = 0.15
RESOURCE = 0.6
RESOURCE_SKY = 1.6  # a Skyside player builds with them
SKY_TILE = 2.0
TOXICITY = 0.4
_PASSIVE = {"done", "skip"}


def _future_share(state: dict[str, Any]) -> float:
    total = D.BOARDS["supply"]["vp_per_player"] * state["n"]
    return max(0.0, min(1.0, state["vp_supply"] / total)) if not state["over"] else 0.0


# VP-worth of effects still waiting on the decision stack (the turn is a chain of decisions:
# a one-ply search must see the worth of a card before its effects are resolved).
OP_WORTH = {"influence": 2.0, "transactions": 0.8, "draw_place": 1.5, "draw": 1.2,
            "build": 3.0, "dive": 3.0, "research": 0.8, "survivor": 2.5, "recruit_any": 2.0,
            "seal": 1.5, "resource_any": 1.0, "skiff": 3.0, "dial": 1.5, "retire": 2.0,
            "discard_type": 1.0}
FRAME_WORTH = {"build_at": 4.0, "district": 1.0, "survivor": 2.5, "artifact": 3.0,
               "recruit_any": 2.0, "resource_any": 1.0,
               "seal_any": 1.5, "arrow": 2.0, "dial": 1.5}


def _op_worth(op: list[Any]) -> float:
    kind = op[0]
    if kind == "vp":
        return float(op[1])
    if kind == "coins":
        return COIN * op[1] + op[1] / 5
    unit = OP_WORTH.get(kind, 0.0)
    if kind in ("influence", "transactions", "build", "survivor", "resource_any"):
        return unit * op[1]
    if kind == "draw_place":
        return unit * op[2]
    if kind == "research":
        return unit * op[1]
    return unit


def pending(state: dict[str, Any]) -> float:
    """What the effects still on the stack are worth to the seat to act."""
    total = 0.0
    for frame in state["stack"]:
        kind = frame[0]
        if kind == "ops":
            total += sum(_op_worth(op) for op in frame[1][frame[2]:])
        elif kind == "influence":
            total += OP_WORTH["influence"] * frame[1]
        elif kind == "trans":
            total += OP_WORTH["transactions"] * frame[1]
        elif kind == "place":
            total += OP_WORTH["draw_place"] * min(frame[2], len(frame[1]))
        elif kind == "place_at":
            total += OP_WORTH["draw_place"]
        elif kind == "build":
            total += OP_WORTH["build"] * frame[1]
        elif kind == "dive":
            total += sum(0.8 if r[0] == "R" else 2.5 if r[0] == "S" else 0.0 for r in frame[1])
        elif kind == "research":
            total += OP_WORTH["research"] * len(frame[1])
        else:
            total += FRAME_WORTH.get(kind, 0.0)
    return total


def _value(state: dict[str, Any], seat: int, seals: list[int], t: float) -> float:
    points = scoring.breakdown(state, seat, seals)["total"]
    if t <= 0:
        return float(points)
    crew = len(D.STARTER_CARDS) - len(state["hand"][seat]) - len(state["discard"][seat])
    crew = -crew  # cards recruited beyond the six starters
    skiffs = sum(1 for c in state["skiffs"][seat] if c >= 0)
    cargo = sum(map(sum, state["cargo"][seat]))
    influence = sum(state["wheel"][seat])
    future = (CREW * crew + SKIFF * skiffs + CARGO * cargo + INFLUENCE * influence
              + COIN * state["coins"][seat]
              + (RESOURCE_SKY if state["sky"][seat] else RESOURCE) * sum(state["reserve"][seat])
              + SKY_TILE * len(state["tiles"][seat]) - TOXICITY * state["tox"][seat])
    now = pending(state) if seat == state["turn"] and not state["over"] else 0.0
    return points + t * future + now


def evaluate_all(game: Game, state: dict[str, Any]) -> list[float]:
    """Every seat's value."""
    seals = scoring.seal_awards(state)
    t = _future_share(state)
    return [_value(state, p, seals, t) for p in range(state["n"])]


def evaluate(game: Game, state: dict[str, Any], seat: int) -> float:
    """One seat's value."""
    return evaluate_all(game, state)[seat]


def rollout_move(game: Game, state: dict[str, Any], legal: list[Move],
                 rng: random.Random) -> Move:
    """Uniform, but rarely a stop/skip when something active is on offer."""
    if len(legal) == 1:
        return legal[0]
    active = [m for m in legal if m["type"] not in _PASSIVE]
    if active and rng.random() < 0.9:
        return active[rng.randrange(len(active))]
    return legal[rng.randrange(len(legal))]


def quiet(game: Game, state: dict[str, Any], seat: int) -> bool:
    """A fair place to stop a rollout: between turns (a fresh turn's card choice)."""
    return bool(state["over"]) or state["stack"] == [["play"]]


EVALUATION = register_evaluation(
    "flotilla",
    Evaluation(evaluate=evaluate, scale=30.0, exploration=0.4, evaluate_all=evaluate_all,
               rollout_policy=rollout_move, quiet=quiet),
)
