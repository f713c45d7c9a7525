"""The Encyclopedia evaluation: points now plus a rough worth of what the position holds.

Points now are the engine's own final scoring of the current position
(`scoring.breakdown`: VP track, category and continent collections, seals, coins/2,
tokens, end-game experts, the solo AI's scoring card). On top, in VP:

- unpublished animal cards (a future continent-collection card each, and every research
  cube on them a publication waiting to be made: the grid VP of its type);
- reputation (each space brings the next bonus closer);
- the decision the seat is in the middle of (a taken die, an expert or animal to take, points
  of research left, a publication under way), so that a one-ply search sees an action's
  worth before its last sub-choice is made.

Hand-set weights: estimates, not fitted.
"""

from __future__ import annotations

import random
from typing import Any

from ai_worker.bots.evaluation import Evaluation, register_evaluation
from core.contract import Game, Move
from core.encyclopedia import scoring
from core.encyclopedia.data import DATA
from core.encyclopedia.state import State

CARD_WORTH = 1.2  # an unpublished card: half a continent-collection step and a seal to come
CUBE_SHARE = 0.8  # of the grid VP a researched cube is worth before it is published
REP_WORTH = 0.35  # per reputation space (about one bonus every 2 spaces, worth ~1.5 VP)
FRAME_WORTH = {"xpick": 3.0, "xplace": 3.0, "apick": 2.5, "focus": 3.0, "pub": 1.0,
               "continental": 1.0}
DIE_WORTH = 1.5  # a die in hand before its action: worth a little more per pip
PIP_WORTH = 0.4
RESEARCH_PIP = 0.55


def _pending(s: State, seat: int) -> float:
    value = 0.0
    for frame in s.stack:
        if frame[1] != seat:
            continue
        kind = frame[0]
        if kind == "mod":
            value += DIE_WORTH + PIP_WORTH * (frame[4] + frame[5])
        elif kind == "research":
            value += RESEARCH_PIP * frame[3]
        else:
            value += FRAME_WORTH.get(kind, 0.0)
    return value


def evaluate(game: Game, state: Any, seat: int) -> float:
    """Points now plus the estimated worth of cards, cubes, reputation and the pending step."""
    s: State = state
    value = float(scoring.breakdown(s, seat)["total"])
    if s.phase == "over":
        return value
    for card in s.hand[seat]:
        value += CARD_WORTH
        mask = s.cubes[card]
        for t in range(4):
            if mask >> t & 1:
                value += CUBE_SHARE * DATA.publish_vp[t]
    value += REP_WORTH * s.rep[seat]
    return value + _pending(s, seat)


_MODIFIERS = {"coin", "boost", "recolour", "seal_die", "seal_coins"}
_EAGER = {"join": 0, "discard": 0, "research": 0}


def rollout_policy(game: Game, state: Any, moves: list[Move], rnd: random.Random) -> Move:
    """A cheap policy closer to real play than uniform: usually act on a die without
    modifiers, research the highest affordable slot, let every eligible cube join."""
    first = moves[0]
    kind = first["type"]
    if kind == "act" and rnd.random() < 0.85:
        acts = [m for m in moves if m["type"] == "act"]
        useful = [m for m in acts if m["action"] not in ("bank", "embassy")]
        return rnd.choice(useful if useful and rnd.random() < 0.7 else acts)
    if kind in _EAGER:
        if kind == "research":  # the last move is "stop" (absent from the AI's one move)
            return max((m for m in moves if m["type"] == "research"), key=lambda m: m["slot"])
        return first
    return rnd.choice(moves)


def quiet(game: Game, state: Any, seat: int) -> bool:
    """A fair place to stop a rollout: the searching seat is about to take a die."""
    s: State = state
    return not s.stack and s.phase == "turns" and game.to_act(state) == seat


EVALUATION = register_evaluation(
    "encyclopedia", Evaluation(evaluate=evaluate, scale=12.0, rollout_policy=rollout_policy,
                               quiet=quiet))
