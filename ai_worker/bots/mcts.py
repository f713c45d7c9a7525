"""`mcts`: single-observer information-set MCTS (SO-ISMCTS) with evaluation cut-offs.

Algorithm (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
Search"), one tree for the whole search, seen from the searching seat:

- every iteration samples a fresh full state with `game.determinize(view, seat, ...)`
  from the seat's view only: hidden cards, the opponents' hands and the state's RNG
  (hence every chance outcome inside `apply`) differ from one iteration to the next;
- selection walks the tree restricted to the moves legal in that sample; a child's
  UCB uses its *availability* count (how often it was legal when its parent was
  visited) instead of the parent's visit count, as ISMCTS prescribes;
- one new node per iteration, chosen at random among the untried legal moves (no
  generation-order bias);
- a rollout with a cheap policy (uniform random, or the game's/evaluation's
  rollout hook) for at most `rollout_depth` decisions (with `quiet`, on to the
  evaluation's next quiet position for the searching seat), then the position is scored
  with the game's pluggable evaluation, turned into per-seat rewards in [0, 1]
  (see `evaluation.rewards`); every node backs up the reward of the seat that chose
  its move, so any number of seats (and automa seats) is handled;
- progressive widening at the root: the root moves are ranked once by a one-ply
  evaluation (on one sample) and only the best `widening + sqrt(root visits)` of them
  are searched, so a small budget is not spread thin over 30+ placements;
- the move played is the most visited root child; once no other child can catch up
  with it in the budget left, the move cannot change any more: the search then stops
  early, or (`ponder`, when the same seat decides again after that move with nothing
  revealed) spends the rest of the budget below that child alone, which is the tree
  the next decision starts from (see tree reuse);
- tree reuse: when the move played leaves the same seat to decide again with nothing
  new revealed (Darwin's Journey: a placement, then the actions it earned), the
  chosen child's subtree is kept, keyed by the seat's view after the move, and the
  next search starts from it instead of from nothing. A view that differs (chance,
  another seat's move) simply finds nothing kept.

Budget: `iterations` and/or `ms` (wall clock, checked before every iteration). With
an iteration budget only and `reuse` off, the search is fully determined by `seed`;
with `reuse` on it is determined by the seed and the searches this bot made before.
It knows only the core contract and the evaluation registry, so any game works.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ai_worker.bots.base import (
    Params,
    ParamsSchema,
    check_legal_moves,
    move_key,
    seat_count,
    validate_params,
)
from ai_worker.bots.evaluation import Evaluation, get_evaluation, margins, rewards, seat_values
from core.contract import Game, IllegalMove, Move, View

DEFAULT_ITERATIONS = 1000
KEPT_TREES = 32  # subtrees kept for reuse (LRU): a worker may be playing many games at once
EARLY_STOP_EVERY = 16  # iterations between checks whether the best move can still change
TREE_WIDENING = False  # widen every node too: measured weaker (fewer iterations), so root only


class _Node:
    """A tree node: the move that led here, seen by the seat that chose it."""

    __slots__ = ("seat", "visits", "avail", "total", "children", "rank")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who chose the move leading here; `total` is in their reward
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Any, _Node] = {}
        self.rank: dict[Any, int] | None = None  # move key -> one-ply rank (widening)


@dataclass
class SearchStats:
    """What one search did: for benchmarks and logs."""

    iterations: int = 0
    seconds: float = 0.0
    nodes: int = 0
    reused: int = 0  # root visits carried over from the previous decision's tree
    stopped_early: bool = False  # the best move was settled before the budget ran out
    pondered: int = 0  # iterations spent below the settled move, for the next decision

    @property
    def per_second(self) -> float:
        """Iterations (simulations) per second."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class RootEstimate:
    """One root move after a search (`MCTSBot.estimate`): what its simulations came to."""

    index: int  # in the caller's legal moves
    visits: int
    reward: float  # mean reward in [0, 1] of the searching seat
    margin: float  # mean lead in points over the best rival (alone: its own points) where
    # the simulations stopped, by the game's evaluation (final scores when over)


class MCTSBot:
    """Information-set Monte Carlo tree search over sampled determinizations."""

    name = "mcts"
    title = "Monte Carlo search"
    automa_only = False
    description = ("Information-set Monte Carlo tree search (SO-ISMCTS): samples the hidden parts "
                   "from its own view each iteration, UCT selection, short random rollouts cut "
                   "off by the game's evaluation. Budget in iterations and/or milliseconds, "
                   "a ceiling: once its choice can no longer change it stops, or spends the "
                   "rest on its seat's next decision when that follows with nothing revealed, "
                   "and keeps its tree between such consecutive decisions.")

    def params_schema(self) -> ParamsSchema:
        """iterations, ms, c, rollout_depth, quiet, widening, ponder, reuse."""
        return {
            "iterations": {"type": "int", "default": 0, "min": 0, "max": 10_000_000,
                           "description": "iterations per decision; 0 = no iteration cap "
                                          f"(if ms is 0 too, {DEFAULT_ITERATIONS} iterations)"},
            "ms": {"type": "int", "default": 0, "min": 0, "max": 600_000,
                   "description": "wall-clock milliseconds per decision; 0 = no time limit"},
            # c 0.35 and quiet on (stop 10): together 88% of deals 0-49 and 86% of fresh
            # deals 50-99 against green Alfred at 1 s, where c 0.35 alone won 76% of the
            # 100 and stop 9's c 0.15 78% of 0-49; see bench/results/tuning-darwins-journey.md
            "c": {"type": "float", "default": 0.35, "min": 0.0, "max": 10.0,
                  "description": "UCT exploration constant (rewards are in [0, 1]; the "
                                 "game's evaluation may scale it to its reward spread)"},
            # 20, not 10: at the ~1,000 iterations a 1 s search now runs, 20 scored +14 +- 7
            # margin more against green Alfred on 16 paired deals (at 250 iterations the two
            # were within noise); see bench/results/tuning-darwins-journey.md
            "rollout_depth": {"type": "int", "default": 20, "min": 0, "max": 100_000,
                              "description": "decisions played by the rollout policy before "
                                             "the evaluation scores the position"},
            "quiet": {"type": "bool", "default": True,
                      "description": "after rollout_depth decisions, play on (at most as "
                                     "many again) until the game's evaluation calls the "
                                     "position quiet for the searching seat (Darwin's "
                                     "Journey: its turn just over, the next seat's not "
                                     "begun), so that every rollout is scored at the same "
                                     "point of the turn cycle; no effect for games that "
                                     "define no quiet positions"},
            "widening": {"type": "int", "default": 4, "min": 0, "max": 1000,
                         "description": "progressive widening at the root: the moves are "
                                        "ranked by a one-ply evaluation and only the best "
                                        "widening + sqrt(root visits) are searched; 0 = off"},
            "ponder": {"type": "bool", "default": True,
                       "description": "once the move is settled, spend the rest of the "
                                      "budget on the decision that follows it (when the same "
                                      "seat decides again, nothing revealed, and reuse is on) "
                                      "instead of stopping early"},
            "reuse": {"type": "bool", "default": True,
                      "description": "keep the subtree of the move played when the same seat "
                                     "decides again with nothing new revealed, and start the "
                                     "next search from it"},
        }

    def __init__(self) -> None:
        # view key -> subtree searched for that view (see `_view_key`), least recent first
        self._kept: OrderedDict[str, _Node] = OrderedDict()
        self._kept_lock = threading.Lock()  # one bot instance may serve several threads

    def choose(self, game: Game, view: View, seat: int, legal_moves: list[Move],
               params: Params, seed: int) -> Move:
        """The most visited root move after searching within the budget."""
        return self.search(game, view, seat, legal_moves, params, seed)[0]

    def search(self, game: Game, view: View, seat: int, legal_moves: list[Move],
               params: Params, seed: int) -> tuple[Move, SearchStats]:
        """`choose`, also returning what the search did."""
        p = validate_params(self.name, self.params_schema(), params)
        check_legal_moves(self.name, legal_moves)
        if len(legal_moves) == 1:
            return legal_moves[0], SearchStats()
        search, stats = self._run(game, view, seat, legal_moves, p, seed, reuse=p["reuse"])
        best = search.best_index()
        if p["reuse"]:
            self._keep(game, seat, legal_moves[best], search, p)
        return legal_moves[best], stats

    def estimate(self, game: Game, view: View, seat: int, legal_moves: list[Move],
                 params: Params, seed: int) -> tuple[int, list[RootEstimate]]:
        """Search as `search` does (never reusing or keeping a tree, so that the seed alone
        decides it under an iteration budget) and say what every searched root move came
        to: the index of the move `search` would play, and the root moves' estimates, most
        visited first. For analysis (ai_worker.analysis); a single move is searched too."""
        p = validate_params(self.name, self.params_schema(), params)
        check_legal_moves(self.name, legal_moves)
        search, _ = self._run(game, view, seat, legal_moves, p, seed, reuse=False,
                              track_margins=True)
        estimates = [RootEstimate(index, child.visits, child.total / child.visits,
                                  search.margin_totals.get(key, 0.0) / child.visits)
                     for key, index in search.allowed.items()
                     for child in [search.root.children.get(key)]
                     if child is not None and child.visits]
        estimates.sort(key=lambda e: (-e.visits, e.index))
        return search.best_index(), estimates

    def _run(self, game: Game, view: View, seat: int, legal_moves: list[Move], p: Params,
             seed: int, reuse: bool, track_margins: bool = False) -> tuple[_Search, SearchStats]:
        """Grow one decision's tree within the budget of the checked params `p`."""
        stats = SearchStats()
        iterations = p["iterations"]
        if iterations == 0 and p["ms"] == 0:
            iterations = DEFAULT_ITERATIONS
        start = time.perf_counter()
        root = None
        if reuse:
            with self._kept_lock:
                root = self._kept.pop(_view_key(game, seat, view, p), None)
        search = _Search(game, view, seat, legal_moves, p["c"], p["rollout_depth"],
                         p["widening"], seed, root, quiet=p["quiet"],
                         track_margins=track_margins)
        stats.reused = search.root.visits
        deadline = start + p["ms"] / 1000.0 if p["ms"] else math.inf
        while True:
            if iterations and stats.iterations >= iterations:
                break
            now = time.perf_counter()
            # The first iteration always runs, so even a tiny time budget yields a choice.
            if stats.iterations and now >= deadline:
                break
            if stats.iterations and stats.iterations % EARLY_STOP_EVERY == 0:
                left = iterations - stats.iterations if iterations else math.inf
                if deadline < math.inf:
                    rate = stats.iterations / max(now - start, 1e-9)
                    left = min(left, rate * (deadline - now))
                if not stats.stopped_early and search.settled(left):
                    stats.stopped_early = True
                    if not (p["ponder"] and reuse and search.focus_on_best()):
                        break
            if stats.stopped_early:
                stats.pondered += 1
            search.iterate()
            stats.iterations += 1
        stats.seconds = time.perf_counter() - start
        stats.nodes = search.nodes
        return search, stats

    def _keep(self, game: Game, seat: int, move: Move, search: _Search, p: Params) -> None:
        """Keep the subtree of `move` if the seat decides again next with nothing revealed."""
        child = search.root.children.get(move_key(move))
        if child is None or not child.children:
            return
        # Any sample will do: if the move reveals nothing, every sample leads to the same
        # view; if it does reveal something, the key will not match the next real view.
        view = search.view_after(move)
        if view is None:
            return
        key = _view_key(game, seat, view, p)
        with self._kept_lock:
            self._kept[key] = child
            while len(self._kept) > KEPT_TREES:
                self._kept.popitem(last=False)


def _view_key(game: Game, seat: int, view: View, p: Params) -> str:
    """What identifies a decision for reuse: the game, the seat, its view, the search knobs."""
    knobs = (p["c"], p["rollout_depth"], p["widening"], p["quiet"])
    text = json.dumps([game.name, seat, knobs, view], sort_keys=True, separators=(",", ":"),
                      default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class _Search:
    """One decision's tree and the loop that grows it."""

    def __init__(self, game: Game, view: View, seat: int, legal_moves: list[Move],
                 c: float, rollout_depth: int, widening: int, seed: int,
                 root: _Node | None = None, quiet: bool = False,
                 track_margins: bool = False) -> None:
        self.game = game
        self.view = view
        self.seat = seat
        self.c = c
        self.rollout_depth = rollout_depth
        self.rng = random.Random(seed)
        if root is not None:
            root.rank = None  # ranked again on a sample of this decision
        self.root = root or _Node(seat)
        self.nodes = 1
        # Root moves are those the caller offered; the sample must not add any.
        self.legal = legal_moves
        self.allowed = {move_key(m): i for i, m in enumerate(legal_moves)}
        self.evaluation: Evaluation = get_evaluation(game.name)
        hook = getattr(game, "rollout_move", None)
        self.policy = self.evaluation.rollout_policy
        if self.policy is None and callable(hook):
            self.policy = lambda _game, state, legal, rng: hook(state, legal, rng)
        self.seats: int | None = None
        self.widening = widening
        self.quiet = self.evaluation.quiet if quiet else None
        # root move key -> sum of the searching seat's margins (`estimate` only: it costs
        # a second evaluation of every simulation's last position)
        self.track_margins = track_margins
        self.margin_totals: dict[Any, float] = {}

    def iterate(self) -> None:
        """One determinization, selection, expansion, rollout and backup."""
        game, rng = self.game, self.rng
        to_act, legal_moves, apply = game.to_act, game.legal_moves, game.apply
        state = game.determinize(self.view, self.seat, rng.getrandbits(63))
        if self.seats is None:
            self.seats = seat_count(game, self.view, state)
        node = self.root
        path = [node]
        c = self.c * self.evaluation.exploration
        while True:
            actor = to_act(state)
            if actor is None:
                break
            legal = legal_moves(state)
            keys = [move_key(m) for m in legal]
            if node is self.root:
                pairs = [(m, k) for m, k in zip(legal, keys, strict=True) if k in self.allowed]
                legal, keys = [m for m, _ in pairs], [k for _, k in pairs]
                if not legal:
                    break  # a sample at odds with the view: score it as it stands
            if self.widening and len(keys) > self.widening and (node is self.root or TREE_WIDENING):
                if node.rank is None:
                    node.rank = self._rank(state, legal, keys, actor)
                width = self.widening + int(math.sqrt(node.visits))
                if width < len(keys):
                    # the best-ranked moves legal in this sample (another sample may lack some)
                    rank, last = node.rank, len(node.rank)
                    order = sorted(range(len(keys)), key=lambda i: rank.get(keys[i], last))
                    kept = sorted(order[:width])
                    legal, keys = [legal[i] for i in kept], [keys[i] for i in kept]
            children = node.children
            untried: list[int] = []
            for i, key in enumerate(keys):
                child = children.get(key)
                if child is None:
                    untried.append(i)
                else:
                    child.avail += 1
            if untried:
                i = untried[rng.randrange(len(untried))]
                child = _Node(actor)
                children[keys[i]] = child
                self.nodes += 1
                apply(state, legal[i])
                path.append(child)
                self._rollout(state)
                break
            best_child = node
            best_ucb = -math.inf
            best_i = 0
            for i, key in enumerate(keys):
                child = children[key]
                ucb = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits)
                if ucb > best_ucb:
                    best_ucb, best_child, best_i = ucb, child, i
            apply(state, legal[best_i])
            node = best_child
            path.append(node)
        reward = rewards(game, state, self.evaluation, self.seats)
        if self.track_margins and len(path) > 1:
            key = next(k for k, child in self.root.children.items() if child is path[1])
            lead = margins(seat_values(game, state, self.evaluation, self.seats))[self.seat]
            self.margin_totals[key] = self.margin_totals.get(key, 0.0) + lead
        self.root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.total += reward[visited.seat]

    def _rank(self, state: Any, legal: list[Move], keys: list[Any], actor: int) -> dict[Any, int]:
        """The moves ranked best first for `actor` by a one-ply evaluation on this sample."""
        game = self.game
        scored = []
        for i, move in enumerate(legal):
            after = game.clone(state)
            try:
                game.apply(after, move)
                value = rewards(game, after, self.evaluation, self.seats or 1)[actor]
            except IllegalMove:
                value = -1.0
            # ties keep a random order: no bias toward the engine's generation order
            scored.append((-value, self.rng.random(), i))
        scored.sort()
        return {keys[i]: r for r, (_, _, i) in enumerate(scored)}

    def _rollout(self, state: Any) -> None:
        """Play the cheap policy for `rollout_depth` decisions (with `quiet`: then on to
        the next quiet position, at most `rollout_depth` decisions more)."""
        game, rng, policy = self.game, self.rng, self.policy
        to_act, legal_moves, apply = game.to_act, game.legal_moves, game.apply
        depth, quiet, seat = self.rollout_depth, self.quiet, self.seat
        limit = depth if quiet is None else 2 * depth
        for played in range(limit):
            if to_act(state) is None:
                return
            if played >= depth and quiet is not None and quiet(game, state, seat):
                return
            legal = legal_moves(state)
            if policy is None:
                move = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
            else:
                move = policy(game, state, legal, rng)
            apply(state, move)

    def view_after(self, move: Move) -> View | None:
        """The seat's view after `move` on a fresh sample, if the seat decides again then."""
        state = self.game.determinize(self.view, self.seat, self.rng.getrandbits(63))
        try:
            self.game.apply(state, move)
        except IllegalMove:
            return None  # a sample at odds with the view
        if self.game.to_act(state) != self.seat:
            return None
        return self.game.view(state, self.seat)

    def focus_on_best(self) -> bool:
        """Search only below the most visited root move from now on, if the same seat
        decides again after it with nothing revealed (so that its tree will be reused)."""
        best = self.best_index()
        move = self.legal[best]
        key = move_key(move)
        if key not in self.root.children:
            return False
        # two samples: if the move reveals something hidden, their views after it differ
        first = self.view_after(move)
        if first is None or first != self.view_after(move):
            return False
        self.allowed = {key: best}
        return True

    def settled(self, left: float) -> bool:
        """True when no root child can overtake the most visited one in `left` iterations."""
        first = second = 0
        for key, child in self.root.children.items():
            if key not in self.allowed:
                continue
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
        return first - second > left

    def best_index(self) -> int:
        """The index (in the caller's legal moves) of the most visited root child."""
        best_key = None
        best = (-1, -math.inf)
        for key, child in self.root.children.items():
            if key not in self.allowed:
                continue
            score = (child.visits, child.total / child.visits if child.visits else 0.0)
            if score > best:
                best, best_key = score, key
        return 0 if best_key is None else self.allowed[best_key]
