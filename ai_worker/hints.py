"""A hint for a practice game's seat: the `mcts` search's top moves from the seat's view.

`suggest(...)` is the RQ job `api.hints` queues on the bots' queue, with the seat's view and
legal moves at the version asked (the search samples every hidden part with
`game.determinize`, as a bot's does: it never sees more than the seat). It writes the top
moves, best first, each with its expected final-score margin, to the seat's hint record,
unless the seat has asked again since (a newer record).
"""

from __future__ import annotations

import logging
from typing import Any

from rq import get_current_job

import core
from ai_worker.bots.mcts import MCTSBot
from api.analysis_store import load_hint, store_hint
from api.redis_conn import GameClient, worker_games

log = logging.getLogger(__name__)

# How many of the search's root moves a hint shows.
TOP = 3


def top_moves(game: core.Game, view: dict[str, Any], seat: int, legal: list[dict[str, Any]],
              budget: dict[str, int], seed: int) -> list[dict[str, Any]]:
    """The search's best move, then the next most searched, with their expected margins."""
    if len(legal) == 1:
        return [{"move": legal[0], "margin": 0.0, "visits": 0}]
    params = {"iterations": budget["iterations"], "ms": budget["ms"], "reuse": False,
              "ponder": False}
    best_at, estimates = MCTSBot().estimate(game, view, seat, legal, params, seed)
    ordered = sorted(estimates, key=lambda e: (e.index != best_at, -e.visits, e.index))
    return [{"move": legal[e.index], "margin": round(e.margin, 2), "visits": e.visits}
            for e in ordered[:TOP]]


def _redis() -> GameClient:
    """The game store (api.redis_conn: the job's own connection when it is the queues' too)."""
    job = get_current_job()
    return worker_games(None if job is None else job.connection)


def suggest(game_id: str, seat: int, version: int, game_name: str, view: dict[str, Any],
            legal: list[dict[str, Any]], budget: dict[str, int], seed: int) -> None:
    """The RQ job: search the seat's hint at `version` and write it to its record."""
    client = _redis()

    def current() -> dict[str, Any] | None:
        record = load_hint(client, game_id, seat)
        return record if record is not None and record["version"] == version else None

    record = current()
    if record is None or record["status"] == "done":
        return  # expired, asked again at a later version, or already answered
    try:
        moves = top_moves(core.get_game(game_name), view, seat, legal, budget, seed)
    except Exception as exc:  # noqa: BLE001 - the record says it failed; a POST asks again
        log.exception("hint for %s seat %s failed", game_id, seat)
        if (record := current()) is not None:
            record.update(status="failed", error=f"{type(exc).__name__}: {exc}")
            store_hint(client, game_id, seat, record)
        raise
    if (record := current()) is not None:
        record.update(status="done", moves=moves)
        store_hint(client, game_id, seat, record)
