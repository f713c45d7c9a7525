"""Taking back a move: `POST /v1/games/{id}/takeback` (docs/api.md, "Taking back a move").

A seat takes back its own last move while nobody else has acted since, in a practice game
(unranked, outside tournaments, without a clock), and only a move that drew and revealed
nothing (`core.takeback`: the game says what of its state is hidden). The take-back is
stored like a move, by the same compare-and-set script (`Store.commit_move`): at the version
the caller names, as one new log entry (`"takeback": N`), a new version that watchers see,
and the snapshot of the state before entry N, replayed from the game's seed and log
(`api.replays.state_at`, which replays take-backs too). An Idempotency-Key makes a retry
answer the first answer; any refusal changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from typing import Any, cast

import marshmallow as ma
from flask import Response, request
from flask.views import MethodView
from marshmallow import fields, validate

import core
from api import keys, replays
from api.auth import bearer_token, seat_of, unauthorized
from api.games import (
    _IF_MATCH_PATTERN,
    MOVE_ATTEMPTS,
    SEAT_AUTH,
    SEAT_REQUIRED,
    Decided,
    ReplayFound,
    _commit,
    _decided_on,
    _expected_version,
    _game_meta,
    _idempotency_key,
    _json,
    _not_found,
    _remember,
    _replay,
    _rules,
    _stale,
    _state,
    takeback_refusal,
)
from api.notify import notify_players
from api.parsing import Blueprint, require_json_body
from api.presenters import status_of
from api.problems import Problem, service_unavailable
from api.schemas import STATUSES, StrictInt
from api.services import Services, services
from api.store import OVER, Cached, Head, json_text, new_epoch
from core.takeback import takeback_entry, takeback_of

log = logging.getLogger(__name__)

blp = Blueprint("takeback", __name__, url_prefix="/v1",
                description="Take back your last move in a practice game, while nobody else "
                            "has acted and the move drew and revealed nothing.")

# How far back a chain of take-backs is followed in the log before giving up (each
# take-back of a chain is one entry to read).
MAX_CHAIN = 200


class TakebackRequestSchema(ma.Schema):
    """The version the caller takes back from (the game's current version)."""

    version = StrictInt(validate=validate.Range(min=0), metadata={
        "description": "the game's version now, whose last move the seat takes back: "
                       'required unless the request carries it as `If-Match: "<version>"` '
                       "(422 when neither does; both must agree)"})


class TakebackResultSchema(ma.Schema):
    """The answer to a stored take-back."""

    game = fields.String(required=True, metadata={"description": "the game's name"})
    version = fields.Integer(required=True, metadata={"description": "the new version"})
    taken_back = fields.Integer(required=True, metadata={
        "description": "the index in the move log of the move taken back: the game is now "
                       "as it was before it (at version `taken_back`)"})
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    to_act = fields.Integer(allow_none=True, required=True, metadata={
        "description": "the seat to act: the caller again"})
    legal_moves = fields.List(fields.Dict(), required=True, metadata={
        "description": "the caller's legal moves now (a game read's `legal_moves`)"})


def refused(detail: str) -> Problem:
    """The 409 of a take-back the game does not allow now (nothing changed)."""
    return Problem(409, "takeback-refused", "Take-back refused", detail)


def takeback_target(svc: Services, game_id: str, meta: dict[str, Any], version: int,
                    seat: int) -> tuple[int | None, str]:
    """The index of the log entry `seat` may take back at `version` and "", or None and why
    not: the last move still standing (after any take-backs) must be the seat's own, nobody
    else may have acted since, and it must have drawn and revealed nothing (its entry says
    so: `revertible`, recorded when it was played)."""
    why = takeback_refusal(meta)
    if why:
        return None, why
    at = version - 1
    entry: dict[str, Any] | None = None
    for _ in range(MAX_CHAIN):
        if at < 0:
            return None, "there is no move to take back"
        raw = svc.redis.lindex(keys.move_log(game_id), at)
        if raw is None:
            return None, "there is no move to take back"
        entry = json.loads(cast(bytes, raw))  # a sync client: never an awaitable
        back = takeback_of(entry)
        if back is None:
            break
        if entry.get("seat") != seat:
            return None, "another seat has acted since your move"
        at = back - 1
    else:
        return None, "too many take-backs in a row"
    assert entry is not None
    if entry.get("system") or entry.get("seat") is None:
        return None, "the last change of the game is not a move (a resignation, a time-out)"
    if entry["seat"] != seat:
        return None, ("the last move is another seat's: only your own last move, before "
                      "anyone else acts")
    if not entry.get("revertible"):
        return None, ("that move drew or revealed something hidden (a card, a die, a tile, "
                      "a hand) or ended the game: it stands")
    return at, ""


def _fingerprint(expected: int) -> str:
    """What an Idempotency-Key of a take-back stands for (never a move's: its text differs)."""
    text = json.dumps({"takeback": True, "version": expected}, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _decide(svc: Services, game: core.Game, game_id: str, meta: dict[str, Any], token: str,
            body: dict[str, Any], now: Cached) -> Decided:
    """The take-back the request asks, decided on the game as `now` holds it; raises the
    Problem refusing it, or ReplayFound for the retry of a stored one."""
    head, states = now.head, now.seats
    assert head is not None
    seat = seat_of(token, game_id, meta, svc.bot_tokens, states, player_keys=True)
    expected = _expected_version(body, request.headers.get("If-Match"))
    key = _idempotency_key(request.headers.get("Idempotency-Key"))
    idempotency = (seat, key) if key is not None else None
    fingerprint = _fingerprint(expected)

    def refuse(problem: Problem) -> Problem:
        """`problem`, unless this request retries a stored take-back (see api.games)."""
        record = svc.store.record(game_id, idempotency) if idempotency else None
        if record is not None:
            raise ReplayFound(_replay(record, fingerprint))
        return problem

    if states.get(seat, {}).get("resigned"):
        raise refuse(Problem(403, "resigned", "Resigned",
                             f"seat {seat} resigned: a bot plays its turns now"))
    if head.status in OVER:
        raise refuse(Problem(409, "game-over", "Game over",
                             f"the game is {head.status}; nothing is taken back",
                             result=None))
    if expected != head.version:
        raise refuse(_stale(game, game_id, meta, seat, head, now.state, expected, states))
    target, why = takeback_target(svc, game_id, meta, head.version, seat)
    if target is None:
        raise refuse(refused(why))
    after = game.clone(replays.state_at(svc, game, game_id, meta, target))
    to_act = game.to_act(after)
    if to_act != seat:  # the replay must give the game back to the seat that moved
        log.error("game %s: the state before move %d has seat %s to act, not %s",
                  game_id, target, to_act, seat)
        raise Problem(500, "internal-error", "Internal error",
                      "the game's log does not replay to your move")
    now_ms = int(time.time() * 1000)
    new_head = Head(head.version + 1, to_act, status_of(to_act), now_ms, head.forfeits,
                    head.clock)
    entry = {"index": head.version, "version": new_head.version,
             **takeback_entry(seat, target)}
    answer = {"game": meta["game"], "version": new_head.version, "taken_back": target,
              "status": new_head.status, "to_act": to_act,
              "legal_moves": game.legal_moves(after)}
    return Decided(seat, fingerprint, idempotency, after, new_head,
                   json_text(core.dump_for_storage(game, after)), entry, answer, None, None,
                   new_epoch())


@blp.route("/games/<game_id>/takeback")
class Takeback(MethodView):
    """Taking back the caller's last move."""

    @blp.arguments(TakebackRequestSchema())
    @blp.response(200, TakebackResultSchema, headers={"ETag": {
        "description": 'the new version, quoted: "<version>"', "schema": {"type": "string"}}})
    @blp.problem(400, "the body is not valid JSON; " + SEAT_REQUIRED)
    @blp.problem(401, "no or a wrong seat token, or a rotated or deleted player key")
    @blp.problem(403, "resigned, or not-your-seat: a player key naming a seat its player "
                      "does not own")
    @blp.problem(404, "no such game")
    @blp.problem(409, "takeback-refused (a ranked, tournament or clocked game; another seat "
                      "acted since; the move drew or revealed something; nothing to take "
                      "back), stale-version (with `current`), or game-over")
    @blp.problem(413, "the body is larger than 64 KiB")
    @blp.problem(415, "not JSON")
    @blp.problem(422, "validation-error or idempotency-key-reused")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH, parameters=[
        {"in": "header", "name": "If-Match",
         "schema": {"type": "string", "pattern": _IF_MATCH_PATTERN},
         "description": 'the version exactly as its ETag: "<version>" (else 422): required '
                        "when the body has no `version` (both given: they must agree)"},
        {"in": "header", "name": "Idempotency-Key", "schema": {"type": "string"},
         "description": "a retry with the same key replays the first answer"},
        {"in": "query", "name": "seat", "required": False,
         "schema": {"type": "integer", "minimum": 0},
         "description": "with a player key: which of the player's seats takes back (needed "
                        "when it owns several); ignored with a seat token"}])
    def post(self, body: dict[str, Any], game_id: str) -> Response:
        """Take back the caller's last move: the game returns to the state before it, as a
        new version with its own log entry. Only in practice games (unranked, outside
        tournaments, without a clock), only while no other seat has acted since, and only a
        move that drew and revealed nothing (docs/api.md)."""
        require_json_body()
        svc = services()
        meta = _game_meta(svc, game_id)
        token = bearer_token()
        if token is None:
            raise unauthorized("a take-back needs 'Authorization: Bearer <seat token>'")
        game = _rules(meta)
        now, fresh = _decided_on(svc, game, game_id)
        for _ in range(MOVE_ATTEMPTS):
            try:
                decided = _decide(svc, game, game_id, meta, token, body, now)
            except ReplayFound as found:
                return found.response
            except Problem:
                if fresh:
                    raise
                now, fresh = _state(svc, game, game_id), True
                continue
            commit = _commit(svc, game_id, now, decided)
            if commit.outcome == "replay" and commit.record is not None:
                return _replay(commit.record, decided.fingerprint)
            if commit.outcome == "ok":
                break
            if commit.read is None:
                raise _not_found(game_id)
            now, fresh = _remember(svc, game, game_id, commit.read, now), True
        else:
            raise service_unavailable("the game changed under this take-back every time it "
                                      "was tried; try again")
        head = decided.head
        svc.cache.put(game_id, head.version, decided.epoch, decided.after, head, now.seats,
                      now.seats_seen)
        assert now.head is not None
        notify_players(svc, game_id, meta, now.seats, now.head.to_act, head)
        return _json(decided.answer, 200, {"ETag": f'"{head.version}"'})
