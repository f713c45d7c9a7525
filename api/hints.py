"""Hints in practice games: the search's top moves for the seat to act, on request.

`POST /v1/games/{id}/hint` (the seat to act, Bearer: its token) queues
`ai_worker.hints.suggest` on the bots' queue with the seat's view and legal moves at this
version (what the seat sees, never the hidden cards: the search samples them as a bot's
does); `GET` answers the seat's last hint. Only unranked games outside tournaments take
hints, and a seat that asks for one is marked assisted for good: its seat in every answer,
the game's result and its record say so (docs/analysis.md).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from marshmallow import fields, validate

from api import settings
from api.analysis_store import load_hint, store_hint
from api.auth import bearer_token, seat_of, unauthorized
from api.botqueue import enqueue_hint
from api.games import SEAT_AUTH, SEAT_REQUIRED, _game_meta, _rules, _state
from api.parsing import Blueprint
from api.problems import Problem
from api.seats import effective_seat, update_seat
from api.services import services
from api.store import OVER, json_text

blp = Blueprint("hints", __name__, url_prefix="/v1",
                description="Hints in unranked practice games: the search's top three moves "
                            "for the seat to act, from that seat's view.")

STATUSES = ("queued", "done", "failed")
SEAT_PARAMETER = {"in": "query", "name": "seat", "required": False,
                  "schema": {"type": "integer", "minimum": 0},
                  "description": "with a player key: which of the player's seats (needed "
                                 "when it owns several); ignored with a seat token"}
# How many of the search's moves a hint shows.
TOP = 3


class HintBudgetSchema(ma.Schema):
    """A hint's search budget."""

    iterations = fields.Integer(required=True, metadata={
        "description": "search iterations (BGB_HINT_ITERATIONS)"})
    ms = fields.Integer(required=True, metadata={
        "description": "wall-clock ceiling (BGB_HINT_MS)"})


class SuggestedMoveSchema(ma.Schema):
    """One of the search's top moves."""

    move = fields.Dict(required=True, metadata={"description": "a legal move of the seat"})
    margin = fields.Float(required=True, metadata={
        "description": "expected final-score margin after it (points: the lead over the "
                       "best rival, the score alone in a solo game)"})
    visits = fields.Integer(required=True, metadata={
        "description": "the search's simulations through it (the first move has most)"})


class HintSchema(ma.Schema):
    """A seat's hint: asked at one version, then the search's top moves."""

    game_id = fields.String(required=True)
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True, metadata={
        "description": "the version the hint was asked at"})
    current = fields.Boolean(required=True, metadata={
        "description": "false once the game has moved on from that version"})
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    budget = fields.Nested(HintBudgetSchema, required=True)
    moves = fields.List(fields.Nested(SuggestedMoveSchema), required=True, metadata={
        "description": "the search's best move first, then the next most searched (at most "
                       "three; empty until done)"})
    error = fields.String(allow_none=True)
    requested = fields.Float(required=True, metadata={"description": "Unix time"})


def budget() -> dict[str, int]:
    """BGB_HINT_ITERATIONS and BGB_HINT_MS, bounded by BGB_MAX_BOT_MS."""
    ceiling = max(1, int(settings.value("BGB_MAX_BOT_MS")))
    return {"iterations": min(max(1, int(settings.value("BGB_HINT_ITERATIONS"))), 1_000_000),
            "ms": min(max(1, int(settings.value("BGB_HINT_MS"))), ceiling)}


def hint_job_id(game_id: str, seat: int, version: int) -> str:
    """The id of the job searching a seat's hint at a version (a repeated ask collapses)."""
    return f"hint-{game_id}-{seat}-{version}"


def hint_seed(game_id: str, seat: int, version: int) -> int:
    """The search's seed: the same hint for the same question."""
    digest = hashlib.sha256(f"hint:{game_id}:{seat}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _answer(record: dict[str, Any], version: int, status: int) -> Response:
    shown = {k: v for k, v in record.items() if k != "job"}
    shown["current"] = record["version"] == version
    return Response(json_text(shown), status=status, mimetype="application/json")


def _seat(game_id: str, meta: dict[str, Any], states: dict[int, dict[str, Any]]) -> int:
    """The caller's seat (Bearer: its token, or its player's key with `?seat=N` among
    several); 401 without one, 403 for a bot's seat."""
    svc = services()
    token = bearer_token()
    if token is None:
        raise unauthorized("a hint needs 'Authorization: Bearer <seat token>'")
    seat = seat_of(token, game_id, meta, svc.bot_tokens, states, player_keys=True)
    if effective_seat(meta, states, seat)["kind"] != "human":
        raise Problem(403, "forbidden", "Forbidden", "hints are for human seats")
    return seat


@blp.route("/games/<game_id>/hint")
class Hint(MethodView):
    """The search's suggestion for the seat to act in a practice game."""

    @blp.response(202, HintSchema)
    @blp.alt_response(200, schema=HintSchema,
                      description="a hint for this version was asked for already")
    @blp.problem(400, SEAT_REQUIRED)
    @blp.problem(401, "no or a wrong seat token")
    @blp.problem(403, "forbidden (a ranked or tournament game, a bot's seat), "
                      "not-your-turn, or not-your-seat (a player key's)")
    @blp.problem(404, "no such game")
    @blp.problem(409, "game-over")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH, parameters=[SEAT_PARAMETER])
    def post(self, game_id: str) -> Response:
        """Ask for a hint for the caller's seat, which is to act, in an unranked game outside
        tournaments: 202 and the search queued (GET the hint). The seat is marked assisted
        for the rest of the game (its seat, the result and the record say so)."""
        svc = services()
        meta = _game_meta(svc, game_id)
        game = _rules(meta)
        now = _state(svc, game, game_id)
        head = now.head
        assert head is not None
        seat = _seat(game_id, meta, now.seats)
        if "tournament" in meta or not (meta.get("deal") or {}).get("unranked"):
            raise Problem(403, "forbidden", "Forbidden",
                          "hints are for unranked practice games (create the game with "
                          "\"unranked\": true), never in a tournament")
        if head.status in OVER:
            raise Problem(409, "game-over", "Game over", "the game is over: ask for its "
                          "analysis instead (POST /v1/games/{id}/analysis)")
        if head.to_act != seat:
            raise Problem(403, "not-your-turn", "Not your turn",
                          f"a hint is for the seat to act (seat {head.to_act})")
        record = load_hint(svc.redis, game_id, seat)
        if record is not None and record["version"] == head.version \
                and record["status"] != "failed":
            return _answer(record, head.version, 200)
        # Marked before the search is queued: a hint asked for is assistance, answered or not.
        if not now.seats.get(seat, {}).get("assisted"):
            update_seat(svc.redis, game_id, seat, assisted=True)
        view = dict(game.view(now.state, seat))
        view.setdefault("options", meta["options"])
        record = {"game_id": game_id, "game": meta["game"], "seat": seat,
                  "version": head.version, "status": "queued", "budget": budget(),
                  "moves": [], "error": None, "requested": time.time(),
                  "job": hint_job_id(game_id, seat, head.version)}
        store_hint(svc.redis, game_id, seat, record)
        enqueue_hint(svc.queue_redis, record["job"],
                     (game_id, seat, head.version, meta["game"], view,
                      game.legal_moves(now.state), record["budget"],
                      hint_seed(game_id, seat, head.version)),
                     f"hint for seat {seat} of {game_id} at version {head.version}")
        return _answer(record, head.version, 202)

    @blp.response(200, HintSchema)
    @blp.problem(400, SEAT_REQUIRED)
    @blp.problem(401, "no or a wrong seat token")
    @blp.problem(403, "forbidden: a bot's seat; not-your-seat (a player key's)")
    @blp.problem(404, "no such game, or no hint asked for")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH, parameters=[SEAT_PARAMETER])
    def get(self, game_id: str) -> Response:
        """The caller's seat's last hint: queued, then the search's top moves (`current`:
        whether the game is still at the version it was asked at)."""
        svc = services()
        meta = _game_meta(svc, game_id)
        game = _rules(meta)
        now = _state(svc, game, game_id)
        assert now.head is not None
        seat = _seat(game_id, meta, now.seats)
        record = load_hint(svc.redis, game_id, seat)
        if record is None:
            raise Problem(404, "not-found", "Not found",
                          "this seat has asked for no hint: POST to ask for one")
        return _answer(record, now.head.version, 200)
