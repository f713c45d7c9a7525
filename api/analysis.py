"""The analysis area: ask for the engine's analysis of a finished game and read it.

`POST /v1/games/{id}/analysis` queues `ai_worker.analysis.analyse_game` on the "analysis"
queue (workers take it after bot turns and webhooks); `GET` answers its progress and
results. The record lives in Redis under `keys.game_analysis` and expires with the game. A
game still in play is refused (409 game-active): its deal is not revealed, and an analysis
would be a hint. Who may ask: any seat of the game, or anyone, since only finished games are
analysed and their whole record is public then (a tournament game whose deal is still held
back excepted: api.tournament_secrecy).
"""

from __future__ import annotations

import time
from typing import Any

import marshmallow as ma
import redis
from flask import Response
from flask.views import MethodView
from marshmallow import fields, validate
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

import core
from api import settings
from api.analysis_store import load, store
from api.auth import bearer_token, seat_of
from api.botqueue import analysis_job_id, enqueue_analysis
from api.games import GAME_ID, OPTIONAL_SEAT_AUTH
from api.parsing import Blueprint
from api.problems import Problem, validation_error
from api.schemas import timestamp
from api.seats import seat_states
from api.services import services
from api.store import OVER, json_text
from api.timestamps import maybe_rfc3339
from api.tournament_secrecy import held_back

blp = Blueprint("analysis", __name__, url_prefix="/v1",
                description="The engine's analysis of a finished game: every decision of the "
                            "asked seats searched from that seat's view, classified.")

STATUSES = ("queued", "running", "done", "failed")
CLASSIFICATIONS = ("best", "good", "inaccuracy", "mistake", "blunder", "forced")


class AnalysisRequestSchema(ma.Schema):
    """What to analyse."""

    seats = fields.List(fields.Integer(validate=validate.Range(min=0)),
                        validate=validate.Length(min=1, max=16),
                        metadata={"description": "the seats whose decisions to analyse "
                                                 "(default: every seat but the automa's)"})


class AnalysisBudgetSchema(ma.Schema):
    """A decision's search budget."""

    iterations = fields.Integer(required=True, metadata={
        "description": "search iterations per decision (BGB_ANALYSIS_ITERATIONS)"})
    ms = fields.Integer(required=True, metadata={
        "description": "wall-clock ceiling per decision (BGB_ANALYSIS_MS)"})


class AnalysisProgressSchema(ma.Schema):
    """How far the analysis is."""

    done = fields.Integer(required=True)
    total = fields.Integer(required=True, metadata={"description": "0 until the job starts"})


class AnalysisThresholdsSchema(ma.Schema):
    """The game's losses (points of expected final-score margin) of each class."""

    inaccuracy = fields.Float(required=True)
    mistake = fields.Float(required=True)
    blunder = fields.Float(required=True)


class AnalysedMoveSchema(ma.Schema):
    """One decision judged."""

    index = fields.Integer(required=True, metadata={"description": "the move's log index"})
    version = fields.Integer(required=True, metadata={"description": "the version it made"})
    seat = fields.Integer(required=True)
    move = fields.Dict(required=True, metadata={"description": "the move played"})
    best = fields.Dict(required=True, metadata={"description": "the search's best move"})
    played_margin = fields.Float(required=True, allow_none=True, metadata={
        "description": "expected final-score margin after the move played (points: lead over "
                       "the best rival, the score alone in a solo game); null when forced"})
    best_margin = fields.Float(required=True, allow_none=True, metadata={
        "description": "expected final-score margin after the best move"})
    loss = fields.Float(required=True, metadata={"description": "best_margin - played_margin"})
    classification = fields.String(required=True,
                                   validate=validate.OneOf(CLASSIFICATIONS))
    accuracy = fields.Float(required=True, allow_none=True, metadata={
        "description": "0-100 (Lichess's formula on win percentages); null when forced"})


class AnalysisSchema(ma.Schema):
    """A game's analysis: its progress, then its results."""

    game_id = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    seats = fields.List(fields.Integer(), required=True)
    budget = fields.Nested(AnalysisBudgetSchema, required=True)
    progress = fields.Nested(AnalysisProgressSchema, required=True)
    thresholds = fields.Nested(AnalysisThresholdsSchema, allow_none=True)
    moves = fields.List(fields.Nested(AnalysedMoveSchema), required=True)
    accuracy = fields.Dict(keys=fields.String(), values=fields.Float(allow_none=True),
                           required=True, metadata={
                               "description": "seat (as text) -> mean accuracy of its "
                                              "decisions; empty until done"})
    error = fields.String(allow_none=True)
    requested = timestamp("when the analysis was asked for", required=True)


def _meta(game_id: str) -> dict[str, Any]:
    meta = services().store.meta(game_id) if GAME_ID.match(game_id) else None
    if meta is None:
        raise Problem(404, "not-found", "Not found", f"no game {game_id!r}")
    return meta


def _allowed(game_id: str, meta: dict[str, Any]) -> None:
    """401 for a wrong token, 409 for a game in play, 403/409 while its deal is held back."""
    svc = services()
    token = bearer_token()
    seat = None
    if token is not None:
        seat = seat_of(token, game_id, meta, svc.bot_tokens, seat_states(svc.redis, game_id))
    head = svc.store.head(game_id)
    if head is None:
        raise Problem(404, "not-found", "Not found", f"no game {game_id!r}")
    if head.status not in OVER:
        raise Problem(409, "game-active", "Game active",
                      "a game is analysed once it is over: its deal is revealed then")
    if "tournament" in meta and held_back(svc.redis, meta):
        if seat is None:
            raise Problem(403, "forbidden", "Forbidden",
                          "a game of a tournament deal still in play: wait until every game "
                          "of the deal has ended")
        raise Problem(409, "conflict", "Conflict",
                      "this game's tournament deal is still in play: its record is revealed, "
                      "and analysed, once every game of the deal has ended")


def _decision_seats(meta: dict[str, Any]) -> list[int]:
    """Every seat but the automa's (whose moves its rules dictate)."""
    automa = core.get_game(meta["game"]).automa_seats(meta["options"])
    return [s for s in range(len(meta["seats"])) if s not in automa]


def _asked_seats(meta: dict[str, Any], body: dict[str, Any]) -> list[int]:
    """The seats the request's body asks for (422 for one the game has not)."""
    decided = _decision_seats(meta)
    seats = body.get("seats") or decided
    wrong = sorted(set(seats) - set(decided))
    if wrong:
        raise validation_error({"json": {"seats": [f"seat {wrong[0]} has no decisions to "
                                                   f"analyse (seats: {decided})"]}},
                               "no such seat to analyse")
    return sorted(set(seats))


def _alive(client: redis.Redis, record: dict[str, Any]) -> bool:
    """Whether the record's job is still queued or running (a job lost with its worker is
    not: a new request starts the analysis again)."""
    try:
        job = Job.fetch(record["job"], connection=client)
    except NoSuchJobError:
        return False
    return job.get_status() in (JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED,
                                JobStatus.SCHEDULED)


def _answer(record: dict[str, Any], status: int) -> Response:
    shown = {k: v for k, v in record.items() if k not in ("job", "started", "finished")}
    shown["requested"] = maybe_rfc3339(record.get("requested"))  # stored as Unix time
    return Response(json_text(shown), status=status, mimetype="application/json")


def _budget() -> dict[str, int]:
    ceiling = max(1, int(settings.value("BGB_MAX_BOT_MS")))
    return {"iterations": min(max(1, int(settings.value("BGB_ANALYSIS_ITERATIONS"))),
                              1_000_000),
            "ms": min(max(1, int(settings.value("BGB_ANALYSIS_MS"))), ceiling)}


@blp.route("/games/<game_id>/analysis")
class Analysis(MethodView):
    """The engine's analysis of one finished game."""

    @blp.arguments(AnalysisRequestSchema(), required=False)
    @blp.response(202, AnalysisSchema)
    @blp.alt_response(200, schema=AnalysisSchema,
                      description="the analysis already covers these seats (done or under way)")
    @blp.problem(401, "a token of no seat of this game")
    @blp.problem(403, "forbidden: a tournament game whose deal is still in play")
    @blp.problem(404, "no such game")
    @blp.problem(409, "game-active: the game is not over yet")
    @blp.problem(422, "validation-error: a seat with no decisions")
    @blp.body_problems()
    @blp.unavailable()
    @blp.doc(security=OPTIONAL_SEAT_AUTH)
    def post(self, body: dict[str, Any], game_id: str) -> Response:
        """Ask for the analysis of a finished game (by any of its seats, or anyone): every
        decision of the asked seats is searched from that seat's view at that moment. 202
        and the analysis queued; 200 when one already covers these seats."""
        svc = services()
        meta = _meta(game_id)
        _allowed(game_id, meta)
        seats = _asked_seats(meta, body or {})
        record = load(svc.redis, game_id)
        if record is not None and set(seats) <= set(record["seats"]) and (
                record["status"] == "done" or (record["status"] in ("queued", "running")
                                               and _alive(svc.queue_redis, record))):
            return _answer(record, 200)
        kept: list[dict[str, Any]] = []
        if record is not None and record["status"] != "failed":
            seats = sorted(set(seats) | set(record["seats"]))
            if record["budget"] == _budget():
                kept = record["moves"]  # the same seeds and budget: the same numbers
        requested = time.time()
        record = {"game_id": game_id, "game": meta["game"], "status": "queued", "seats": seats,
                  "budget": _budget(), "progress": {"done": 0, "total": 0},
                  "thresholds": None, "moves": kept, "accuracy": {}, "error": None,
                  "requested": requested, "job": analysis_job_id(game_id)}
        store(svc.redis, game_id, record)
        enqueue_analysis(svc.queue_redis, game_id, record["job"],
                         f"analysis of {game_id} for seats {seats}")
        return _answer(record, 202)

    @blp.response(200, AnalysisSchema)
    @blp.problem(401, "a token of no seat of this game")
    @blp.problem(403, "forbidden: a tournament game whose deal is still in play")
    @blp.problem(404, "no such game, or no analysis asked for")
    @blp.problem(409, "game-active: the game is not over yet")
    @blp.unavailable()
    @blp.doc(security=OPTIONAL_SEAT_AUTH)
    def get(self, game_id: str) -> Response:
        """The analysis's progress and, once done, every analysed decision with its
        classification and the better move, and each seat's accuracy."""
        svc = services()
        meta = _meta(game_id)
        _allowed(game_id, meta)
        record = load(svc.redis, game_id)
        if record is None:
            raise Problem(404, "not-found", "Not found",
                          "no analysis of this game was asked for: POST to ask for one")
        return _answer(record, 200)
