"""The Darwin's Journey evaluation: points now plus a fair estimate of what the position holds.

Points now are the engine's own final scoring applied to the current position
(`scoring.breakdown`: game VP, objectives, 5th/6th seals, tents, books x museum
modifier, coins/5, knowledge). On top come estimates, in VP, of what will still turn
into points, weighted by the share `t` of the game's action rounds still to come:

- the Beagle goals still to be scored, counted with what the seat holds now (counts
  only grow), minus the delay penalties its ship would suffer (Alfred: his board
  value x round, as his procedure scores it);
- coins, knowledge, regular seals (and rows close to their 5th/6th seal), researched
  specimens, stamps in envelopes, reserve objectives, lenses, tents, explorers and
  ship progress, the 5th worker, progress toward the next evolution book;
- workers still at home this round and the actions already earned but not yet
  resolved (frames on the decision stack), so that a one-ply search sees the worth of
  a placement before its actions are chosen.

The weights live in data/darwins_journey_weights.json, fitted by
bench/fit_evaluation.py to the final scores of played games at the positions where the
search's rollouts stop (`quiet`); the rest of that file is hand-set.
`features` gives the terms before weighting, in `FEATURES` order.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ai_worker.bots.evaluation import Evaluation, register_evaluation
from core.contract import Game, Move
from core.darwins_journey import scoring
from core.darwins_journey.data import DATA
from core.darwins_journey.rules import regular_seals
from core.darwins_journey.state import State

WEIGHTS_FILE = Path(__file__).parent / "data" / "darwins_journey_weights.json"
ROUNDS = 5
# The terms of the evaluation, in the order `features` returns them.
FEATURES = ("points", "beagle_future", "book_progress", "coins", "knowledge", "seals",
            "seal_rows_near", "research", "stamps", "reserve_objectives", "lenses", "tents",
            "explorers", "track_steps", "worker5", "workers_at_home", "pending")


def load_weights(path: Path = WEIGHTS_FILE) -> dict[str, Any]:
    """The weights file, checked to name every feature."""
    data = json.loads(path.read_text())
    missing = set(FEATURES) ^ set(data["weights"])
    if missing:
        raise ValueError(f"{path}: weights must name exactly the features; check {sorted(missing)}")
    return data


WEIGHTS: tuple[float, ...] = ()
SEAL_ROW_NEAR_BONUS: dict[int, float] = {}
FUTURE_DELAY_WEIGHT = 0.0
PENDING_ACTION: dict[str, float] = {}


def use_weights(path: Path = WEIGHTS_FILE) -> None:
    """Evaluate with the weights file at `path` from now on, in this process (benchmarks
    trying a fitted file: bench/tune_mcts.py's `weights` variant key)."""
    global WEIGHTS, SEAL_ROW_NEAR_BONUS, FUTURE_DELAY_WEIGHT, PENDING_ACTION
    data = load_weights(path)
    WEIGHTS = tuple(float(data["weights"][name]) for name in FEATURES)
    SEAL_ROW_NEAR_BONUS = {int(k): float(v) for k, v in data["seal_row_near_bonus"].items()}
    FUTURE_DELAY_WEIGHT = float(data["future_delay_weight"])
    PENDING_ACTION = {k: float(v) for k, v in data["pending_action"].items()}


use_weights()
_SIZED = {"explore", "navigate", "correspond"}
_NEXT_BOOK = [next((j for j in range(i, len(DATA.books)) if DATA.books[j] > DATA.books[i]), i)
              for i in range(len(DATA.books))]


def _action_value(action: tuple[Any, ...]) -> float:
    kind = action[0]
    value = PENDING_ACTION.get(kind, 1.0)
    if kind in _SIZED and len(action) > 1 and isinstance(action[1], int):
        value *= action[1]
    return value


def pending_actions(s: State, seat: int) -> float:
    """The worth of the seat's actions earned but not yet resolved (decision stack frames)."""
    total = 0.0
    for frame in s.stack:
        if frame[1] != seat:
            continue
        kind = frame[0]
        if kind in ("acts", "defer"):  # defer: rewards queued behind the current actions
            actions = frame[2]
            total += sum(_action_value(a) for a in actions)
        elif kind in PENDING_ACTION:
            size = frame[2] if kind in _SIZED and isinstance(frame[2], int) else 1
            total += PENDING_ACTION[kind] * (size if kind in _SIZED else 1)
    return total


def rounds_left(s: State) -> int:
    """Action phases still to come, the current one included."""
    if s.phase == "over":
        return 0
    current = 1 if s.phase in ("draft", "start_objectives", "actions") else 0
    return ROUNDS - s.round + current


def _first_unscored_goal(s: State) -> int:
    if s.phase == "over":
        return ROUNDS
    if s.phase == "rewards" and not any(f[0] == "beagle" for f in s.stack):
        return s.beagle + 1
    return s.beagle


def _goal_count(s: State, seat: int, goal_id: int) -> int:
    goal = DATA.beagle_goals[goal_id]
    kind = goal.kind
    if kind == "seals":
        return regular_seals(s, seat, goal.what)
    if kind == "specimen_kind":
        return sum(1 for c in range(4) if s.research[seat] >> (c * 4 + goal.what) & 1)
    if kind == "empty_stacks":
        return s.stamps[seat].count(0)
    if kind == "lenses":
        return s.lenses[seat]
    if kind == "objectives":
        return sum(1 for x in s.obj_slots[seat] if x < 0)
    return s.tents[seat]


def _delay(s: State, seat: int, goal_index: int) -> int:
    cap = 2 if s.obj_slots[seat][8] < 0 else 99
    ship = s.ship[seat]
    return sum(min(cap, DATA.delay_penalties[j]) for j in range(goal_index + 1)
               if ship < DATA.beagle_spaces[j])


def beagle_future(s: State, seat: int) -> float:
    """The Beagle goal points still to come for the seat, from what it holds now."""
    first = _first_unscored_goal(s)
    alfred_value = None
    if s.solo and seat == 1 and s.alfred is not None:
        from core.darwins_journey import alfred

        alfred_value = alfred.board(s)["beagle"]
    total = 0.0
    for j in range(first, min(ROUNDS, len(s.goals))):
        delay = _delay(s, seat, j)
        if alfred_value is not None:
            gross = alfred_value * (j + 1)  # goal j is scored in round j + 1
        else:
            gross = _goal_count(s, seat, s.goals[j]) * DATA.beagle_goals[s.goals[j]].vp
        if j == s.beagle and s.phase == "rewards":
            total += max(0, gross - delay)  # about to be scored as it stands
        else:
            # Not clamped at 0: a ship left behind costs points on every later goal, and
            # the goal counts keep growing, so catching up is worth it even while behind.
            total += gross - FUTURE_DELAY_WEIGHT * delay
    return total


def features(s: State, seat: int) -> tuple[float, ...]:
    """The evaluation's terms for one seat before weighting, in `FEATURES` order."""
    points = float(scoring.breakdown(s, seat)["total"])
    if s.phase == "over":
        return (points,) + (0.0,) * (len(FEATURES) - 1)
    left = rounds_left(s)
    t = left / ROUNDS
    seals = 0
    rows_near = 0.0
    for row in s.seals[seat]:
        seals += sum(1 for c in row if c != "P")
        rows_near += SEAL_ROW_NEAR_BONUS.get(len(row), 0.0)
    explorers = [x for x in s.explorers[seat] if x >= 0]
    evo = s.evo[seat]
    nxt = _NEXT_BOOK[evo]
    book_progress = 0.0
    if nxt > evo:
        # steps already taken toward the next book, as a share of the gap
        level = DATA.books.index(DATA.books[evo])  # first step of the current book count
        book_progress = (2 + scoring.completed_museum_rows(s)) * (evo - level) / (nxt - level)
    return (
        points,
        beagle_future(s, seat),
        book_progress,
        t * s.coins[seat],
        t * s.tk[seat],
        t * seals,
        t * rows_near,
        t * bin(s.research[seat]).count("1"),
        t * sum(env[seat] for env in s.envelopes),
        t * len(s.reserve[seat]),
        t * s.lenses[seat],
        t * s.tents[seat],
        t * len(explorers),
        t * (sum(explorers) + s.ship[seat]),
        float(max(0, left - 1)) if s.worker5[seat] else 0.0,
        float(len(s.home[seat])) if s.phase == "actions" else 0.0,
        pending_actions(s, seat),
    )


def seat_value(s: State, seat: int, weights: tuple[float, ...] | None = None) -> float:
    """The evaluation of one seat, in VP: the weighted sum of its features (by default
    with the weights in use, see `use_weights`)."""
    return sum(w * f for w, f in zip(weights or WEIGHTS, features(s, seat), strict=True))


def evaluate(game: Game, state: State, seat: int) -> float:
    """The seat's estimated final score (points now plus the worth of what it holds)."""
    return seat_value(state, seat)


def evaluate_all(game: Game, state: State) -> list[float]:
    """Every seat's estimated final score."""
    return [seat_value(state, p) for p in range(state.n)]


# Moves that give up something already earned (an action, the rest of a location).
_PASSIVE = frozenset(("skip", "done", "pass", "end_turn"))
ROLLOUT_PASSIVE_CHANCE = 0.1


def rollout_move(game: Game, state: State, legal: list[Move], rng: random.Random) -> Move:
    """Cheap rollout policy: uniform, but rarely throwing away an action already earned."""
    if len(legal) == 1:
        return legal[0]
    active = [m for m in legal if m["type"] not in _PASSIVE]
    if active and (len(active) == len(legal) or rng.random() >= ROLLOUT_PASSIVE_CHANCE):
        return active[rng.randrange(len(active))]
    return legal[rng.randrange(len(legal))]


def quiet(game: Game, state: State, seat: int) -> bool:
    """A fair place to stop a rollout for `seat`: its turn is over, every action of it
    resolved, and the next seat's turn has not begun (or the game is over).

    Stopping anywhere scores some moves after one more of the rival's turns than others
    (Alfred's value grows by about 3 points a turn beyond what `workers_at_home` credits
    him), and mid-turn its actions are only estimated (`pending`). Stopping at the seat's
    own next placement instead measured worse: −17.1 ± 6.3 margin on 17 deals at 1 s
    (bench/results/tuning-darwins-journey.md, stop 10).
    """
    if state.phase == "over":
        return True
    if state.phase != "actions" or state.stack or game.to_act(state) == seat:
        return False
    # another seat's turn starts: a player's placement, or Alfred before drawing his card
    return not state.alfred or state.alfred.get("card") is None


EVALUATION = register_evaluation(
    "darwins-journey",
    # Measured (bench, solo vs green Alfred, 250 ms, ~16 games each): scale 15 left the
    # search blind once it was 20+ points behind in mid-game estimates (mean score 103);
    # scale 40-80 with the exploration scaled down alike scored 127-136. Scale 80 and
    # exploration 0.2 (c 0.15 -> 0.03) keep UCT's exploration at about 7 points of margin
    # (c 0.35 since stop 10: 0.07, about 16 points, measured better at 1 s with `quiet`).
    Evaluation(evaluate=evaluate, scale=80.0, exploration=0.2, evaluate_all=evaluate_all,
               rollout_policy=rollout_move, quiet=quiet),
)
