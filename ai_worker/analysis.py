"""Analysis of a finished game: the search's verdict on every decision of the asked seats.

`analyse_game(game_id)` is the RQ job (queue "analysis", see api.analysis): it replays the
revealed record (the game's seed and its whole move log, public once the game is over) and,
for each decision of the asked seats, searches with the `mcts` bot from what that seat knew
then, its view at that moment (the search samples every hidden part with
`game.determinize`, never the true cards). The true state of the replay serves only to
produce those views and the legal moves, which the seat had too.

Per decision, seeded searches within the same budget each:
1. over every legal move: the move the search would play (its best move) and its expected
   final-score margin (`RootEstimate.margin`, in the game's points: the lead over the best
   rival, or the points alone in a solo game);
2. when the seat played another move, one search below each of the two moves alone, so that
   both are estimated on the same footing (UCT would starve a bad move of simulations); the
   loss is best minus played (never below 0; a played move found as good is the best).
The loss is classified like Lichess (inaccuracy / mistake / blunder, thresholds per game in
ai_worker/data/analysis.json), and turned into an accuracy with Lichess's formula, a loss of
the blunder threshold standing for Lichess's blunder, 30 points of win percentage.

Under a worker the job analyses for SLICE_SECONDS (at least one decision), writes what it
found and queues a new job for the rest: a worker runs one job at a time, and a bot turn
queued meanwhile is taken before the next slice, so play never waits long behind an analysis.

Seeds come from the game's seed and the move's index and the budget is in iterations
(BGB_ANALYSIS_ITERATIONS) with a wall-clock ceiling (BGB_ANALYSIS_MS): a game analysed twice
gives the same numbers unless the ceiling cut a search short.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rq import get_current_job

import core
from ai_worker.bots.base import move_key
from ai_worker.bots.mcts import MCTSBot
from api import keys, settings
from api.analysis_store import load, store
from api.botqueue import analysis_job_id, enqueue_analysis
from api.redis_conn import worker_games
from api.store import OVER
from core.takeback import Replay, takeback_of

log = logging.getLogger(__name__)

THRESHOLDS_FILE = Path(__file__).parent / "data" / "analysis.json"
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder", "forced")
# How long one job analyses before it queues the rest as a new job (at least one decision).
SLICE_SECONDS = 5.0


@dataclass(frozen=True)
class Budget:
    """A decision's search budget: iterations, with a wall-clock ceiling in milliseconds."""

    iterations: int
    ms: int

    @classmethod
    def from_settings(cls) -> Budget:
        """BGB_ANALYSIS_ITERATIONS and BGB_ANALYSIS_MS, bounded by BGB_MAX_BOT_MS."""
        ceiling = max(1, int(settings.value("BGB_MAX_BOT_MS")))
        ms = min(max(1, int(settings.value("BGB_ANALYSIS_MS"))), ceiling)
        iterations = min(max(1, int(settings.value("BGB_ANALYSIS_ITERATIONS"))), 1_000_000)
        return cls(iterations, ms)

    def params(self) -> dict[str, Any]:
        """The `mcts` parameters of an analysis search (no tree kept between decisions)."""
        return {"iterations": self.iterations, "ms": self.ms, "reuse": False, "ponder": False}


def thresholds(game_name: str) -> dict[str, float]:
    """The game's loss thresholds (points) of an inaccuracy, a mistake and a blunder."""
    table = json.loads(THRESHOLDS_FILE.read_text(encoding="utf-8"))
    return dict(table.get(game_name, table["default"]))


def classify(loss: float, limits: dict[str, float]) -> str:
    """`blunder`, `mistake`, `inaccuracy` or `good` for a loss in points."""
    for name in ("blunder", "mistake", "inaccuracy"):
        if loss >= limits[name]:
            return name
    return "good"


# Lichess calls a move that loses 30 points of win percentage a blunder: a loss of the
# game's blunder threshold counts as that drop (linearly, capped at 100), so that a move's
# accuracy means the same in a close game and in a lost one (a win percentage is flat there).
BLUNDER_DROP = 30.0


def move_accuracy(loss: float, limits: dict[str, float]) -> float:
    """Lichess's accuracy of a move (0-100) from the win percentage its loss stands for."""
    drop = min(100.0, BLUNDER_DROP * max(0.0, loss) / limits["blunder"])
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def decision_seed(game_name: str, seed: int, index: int) -> int:
    """The search seed of the decision at log `index`: the same on every analysis."""
    digest = hashlib.sha256(f"analysis:{game_name}:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def replay(game: core.Game, options: dict[str, Any], seed: int,
           entries: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Any]]:
    """Each rules move of the log with the true state before it (read it before the next
    one: it is then moved on). System entries (abort, resignation) are skipped; a take-back
    returns to the state before the move it takes back (core.takeback), which was played
    and is judged all the same."""
    # Only a log with take-backs needs the states before its moves kept.
    replay = Replay(game, game.new_game(options, seed),
                    track=any(takeback_of(entry) is not None for entry in entries))
    for entry in entries:
        back = takeback_of(entry)
        if back is not None:
            replay.take_back(entry["seat"], back)
            continue
        if entry.get("system") or entry.get("seat") is None:
            continue
        if game.to_act(replay.state) is None:
            return
        yield entry, replay.state
        replay.move(entry["index"], entry["seat"], entry["move"])


def _rounded(value: float) -> float:
    return round(value, 2)


def judge(game: core.Game, view: dict[str, Any], seat: int, legal: list[dict[str, Any]],
          played: dict[str, Any], budget: Budget, seed: int,
          limits: dict[str, float]) -> dict[str, Any]:
    """The search's verdict on one decision, from the seat's `view` only."""
    keys_ = [move_key(m) for m in legal]
    played_at = keys_.index(move_key(played)) if move_key(played) in keys_ else None
    if played_at is None:
        raise ValueError("the log's move is not among the replay's legal moves")
    if len(legal) == 1:
        return {"move": legal[0], "best": legal[0], "played_margin": None,
                "best_margin": None, "loss": 0.0, "classification": "forced",
                "accuracy": None}
    bot = MCTSBot()
    params = budget.params()
    best_at, estimates = bot.estimate(game, view, seat, legal, params, seed)
    found = {e.index: e for e in estimates}
    best_margin = found[best_at].margin
    if best_at == played_at:
        played_margin = best_margin
    else:
        # Each of the two alone below the root: UCT would starve a bad played move of
        # visits (one unlucky sample, then never again), leaving its margin a guess.
        played_margin = _alone(bot, game, view, seat, legal[played_at], params, seed)
        best_margin = _alone(bot, game, view, seat, legal[best_at], params, seed)
        if played_margin >= best_margin:
            best_at, best_margin = played_at, played_margin  # on a closer look, as good
    loss = max(0.0, best_margin - played_margin)
    classification = "best" if best_at == played_at else classify(loss, limits)
    return {"move": legal[played_at], "best": legal[best_at],
            "played_margin": _rounded(played_margin), "best_margin": _rounded(best_margin),
            "loss": _rounded(loss), "classification": classification,
            "accuracy": _rounded(move_accuracy(loss, limits))}


def _alone(bot: MCTSBot, game: core.Game, view: dict[str, Any], seat: int,
           move: dict[str, Any], params: dict[str, Any], seed: int) -> float:
    """The expected margin of `move` from a search below it alone."""
    _, estimates = bot.estimate(game, view, seat, [move], params, seed)
    return estimates[0].margin


def analyse_record(game: core.Game, options: dict[str, Any], seed: int,
                   entries: list[dict[str, Any]], seats: list[int], budget: Budget,
                   on_progress: Callable[[int, int, list[dict[str, Any]]], None] | None = None,
                   done: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Every decision of `seats` in the record (options, seed, log entries) judged; the
    moves and the accuracy per seat. `on_progress(done, total, moves)` after each one;
    `done`: the decisions an earlier slice judged already (kept, not searched again)."""
    limits = thresholds(game.name)
    total = sum(1 for e in entries if not e.get("system") and e.get("seat") in seats
                and takeback_of(e) is None)  # a take-back is no decision to judge
    moves: list[dict[str, Any]] = list(done or [])
    judged = {m["index"] for m in moves}
    for entry, state in replay(game, options, seed, entries):
        seat = entry["seat"]
        if seat not in seats or entry["index"] in judged:
            continue
        view = game.view(state, seat)
        legal = game.legal_moves(state)
        verdict = judge(game, view, seat, legal, entry["move"], budget,
                        decision_seed(game.name, seed, entry["index"]), limits)
        moves.append({"index": entry["index"], "version": entry["version"], "seat": seat,
                      **verdict})
        if on_progress is not None:
            on_progress(len(moves), total, moves)
    return {"moves": moves, "accuracy": accuracy(moves, seats), "thresholds": limits}


def accuracy(moves: list[dict[str, Any]], seats: list[int]) -> dict[str, float | None]:
    """Each seat's mean move accuracy (forced moves left out; None with no decision)."""
    out: dict[str, float | None] = {}
    for seat in seats:
        values = [m["accuracy"] for m in moves if m["seat"] == seat
                  and m["accuracy"] is not None]
        out[str(seat)] = _rounded(sum(values) / len(values)) if values else None
    return out


class Superseded(Exception):
    """The game's analysis record now belongs to a newer job."""


class SliceOver(Exception):
    """The job has analysed for its slice of time: the rest goes to a new job."""


def analyse_game(game_id: str) -> None:
    """The RQ job: analyse the finished game for the seats its record asks, writing its
    progress and results to Redis as it goes."""
    job = get_current_job()
    client = worker_games(None if job is None else job.connection)  # the game store
    record = load(client, game_id)
    raw_meta = client.get(keys.game_meta(game_id))
    if record is None or raw_meta is None:
        return  # expired meanwhile: nothing to analyse any more
    if job is not None and record.get("job") != job.id:
        return  # superseded before it started: a newer job analyses these seats and more
    meta = json.loads(raw_meta)
    status = client.hget(keys.game_state(game_id), "status")
    if status is None or status.decode() not in OVER:
        record.update(status="failed", error="the game is not over")
        store(client, game_id, record)
        return
    entries = [json.loads(e) for e in client.lrange(keys.move_log(game_id), 0, -1)]
    budget = Budget(**record["budget"])
    seats = list(record["seats"])
    record.update(status="running")
    record.setdefault("started", time.time())
    store(client, game_id, record)

    # Under a worker, a slice of time and then a new job for the rest: a worker takes a
    # waiting bot turn between two slices (SimpleWorker runs one job at a time).
    slice_end = time.monotonic() + SLICE_SECONDS if job is not None else math.inf

    def progress(done: int, total: int, moves: list[dict[str, Any]]) -> None:
        now = load(client, game_id)
        if now is None or now.get("job") != record.get("job"):
            raise Superseded  # a request for more seats queued a new analysis
        record.update(progress={"done": done, "total": total}, moves=moves)
        if done < total and time.monotonic() >= slice_end:
            record["job"] = analysis_job_id(game_id)
            store(client, game_id, record)
            enqueue_analysis(client if job is None else job.connection, game_id, record["job"],
                             f"analysis of {game_id}, from decision {done + 1} of {total}")
            raise SliceOver
        store(client, game_id, record)

    try:
        game = core.get_game(meta["game"])
        seed = int(meta.get("deal", {}).get("seed", meta.get("seed")))
        found = analyse_record(game, meta["options"], seed, entries, seats, budget, progress,
                               done=record.get("moves") or [])
    except (Superseded, SliceOver):
        return  # a newer job goes on: this one's work is in the record
    except Exception as exc:  # noqa: BLE001 - the record says it failed; a POST retries
        log.exception("analysis of %s failed", game_id)
        record.update(status="failed", error=f"{type(exc).__name__}: {exc}")
        store(client, game_id, record)
        raise
    record.update(status="done", finished=time.time(), **found,
                  progress={"done": len(found["moves"]), "total": len(found["moves"])})
    store(client, game_id, record)
