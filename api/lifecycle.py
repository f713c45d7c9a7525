"""A game's seats and life after its creation: claiming a seat for a player, a seat's new
token, resigning, and a rematch."""

from __future__ import annotations

import json
import secrets
from typing import Any

import redis
from flask import Response
from flask.views import MethodView

import core
from api import keys
from api.auth import bearer_token, new_human_token, seat_of, token_hash, unauthorized
from api.bots import automa_only, known_bot_names
from api.creation import start_game
from api.notify import notify_players
from api.parsing import Blueprint, require_json_body
from api.players import PLAYER_AUTH, current_player, own_seat
from api.problems import Problem, validation_error
from api.schemas import (
    MAX_SEATS,
    ClaimedSchema,
    ClaimSchema,
    RematchSchema,
    RematchTokenSchema,
    ResignedSchema,
    ResignSchema,
    SeatTokenSchema,
)
from api.seats import effective_seat, require_owner, seat_states, update_seat
from api.services import Services, services
from api.store import OVER, Head, new_epoch
from core import records
from core.deals import SEED_BITS, make_deal

blp = Blueprint("lifecycle", __name__, url_prefix="/v1",
                description="After creation: claim a seat for a player, rotate a seat's "
                            "token, resign, ask for a rematch.")

SEAT_AUTH = [{"seatToken": []}]


def _json(body: Any, status: int = 200) -> Response:
    return Response(json.dumps(body, separators=(",", ":")), status=status,
                    mimetype="application/json")


def _meta(game_id: str) -> dict[str, Any]:
    from api.games import _game_meta

    return _game_meta(services(), game_id)


def _seat_number(meta: dict[str, Any], seat: int) -> int:
    if not 0 <= seat < len(meta["seats"]):
        raise Problem(404, "not-found", "Not found", f"this game has no seat {seat}")
    return seat


def _head(game_id: str) -> Head:
    head = services().store.head(game_id)
    if head is None:
        raise Problem(404, "not-found", "Not found", f"no game {game_id!r}")
    return head


@blp.route("/games/<game_id>/seats/<int:seat>/claim")
class Claim(MethodView):
    """A player taking a seat it was given."""

    @blp.arguments(ClaimSchema(), example={"token": "SS4vtftMzt2T9nq1hVQ0cB3yG1dQ8eYJ3sOe2iVx5Wk"})
    @blp.response(200, ClaimedSchema, example={"seat": 0, "player": "Xq3f9LmQ2aZk7WcP"})
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(403, "the token is not this seat's")
    @blp.problem(404, "no such game or seat")
    @blp.problem(409, "seat-claimed: another player owns the seat")
    @blp.body_problems()
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def post(self, body: dict[str, Any], game_id: str, seat: int) -> Response:
        """The calling player (Bearer: its key) owns `seat` from now on, proven by the seat's
        token (from the creation or a join link): the game joins the player's games, and the
        player can get the seat's token again (`…/token`) and its webhooks fire for it."""
        require_json_body()
        player_id = current_player()
        svc = services()
        meta = _meta(game_id)
        _seat_number(meta, seat)
        states = seat_states(svc.redis, game_id)
        opened = None
        try:
            opened = seat_of(body["token"], game_id, meta, svc.bot_tokens, states)
        except Problem:
            opened = None
        if opened != seat or effective_seat(meta, states, seat)["kind"] != "human":
            raise Problem(403, "forbidden", "Forbidden",
                          f"the token given is not the token of human seat {seat}")
        current = states.get(seat, {}).get("player")
        if current not in (None, player_id):
            raise Problem(409, "seat-claimed", "Seat claimed",
                          f"seat {seat} belongs to another player")
        own_seat(player_id, game_id, seat, float(meta.get("created", 0)))
        return _json({"seat": seat, "player": player_id})


@blp.route("/games/<game_id>/seats/<int:seat>/token")
class SeatToken(MethodView):
    """A seat's token, issued again to its owner."""

    @blp.response(200, SeatTokenSchema, example={
        "seat": 0, "token": "t7Jx0Qm4b8Kd2Yp6Vn1Rs5Wc9Hz3Lg7Fa2Ue6Io0Py4"})
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(403, "not-your-seat")
    @blp.problem(404, "no such game or seat")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def post(self, game_id: str, seat: int) -> Response:
        """A new token for a seat the calling player owns; the previous token stops working
        (on a new device, or after a token leaked)."""
        player_id = current_player()
        svc = services()
        meta = _meta(game_id)
        _seat_number(meta, seat)
        require_owner(seat_states(svc.redis, game_id), seat, player_id)
        token, digest = new_human_token()
        update_seat(svc.redis, game_id, seat, token_sha256=digest)
        return _json({"seat": seat, "token": token})


@blp.route("/games/<game_id>/resign")
class Resign(MethodView):
    """A seat giving up."""

    @blp.arguments(ResignSchema(), example={"bot": "greedy"})
    @blp.response(200, ResignedSchema, example={"version": 41, "status": "active", "seat": 2})
    @blp.problem(401, "no or a wrong seat token, or a rotated or deleted player key")
    @blp.problem(403, "not a human seat; not-your-seat: a player key naming a seat its "
                      "player does not own")
    @blp.problem(404, "no such game")
    @blp.problem(409, "game-over, or already-resigned")
    @blp.problem(422, "validation-error: an unknown bot")
    @blp.body_problems()
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH + PLAYER_AUTH, parameters=[
        {"in": "query", "name": "seat", "required": False,
         "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
         "description": "with a player key: which of the player's seats resigns (needed "
                        "when it owns several); ignored with a seat token"}])
    def post(self, body: dict[str, Any], game_id: str) -> Response:
        """The caller's seat (Bearer: its token, or its player's key with `?seat=N` when the
        player owns several) resigns and ranks last. In a game of two
        seats (or solo) the game ends; otherwise a bot (`bot`, default `random`) plays the
        seat's remaining turns. The result lists who resigned."""
        require_json_body()
        svc = services()
        meta = _meta(game_id)
        token = bearer_token()
        if token is None:
            raise unauthorized("resigning needs 'Authorization: Bearer <seat token>'")
        states = seat_states(svc.redis, game_id)
        seat = seat_of(token, game_id, meta, svc.bot_tokens, states, player_keys=True)
        if effective_seat(meta, states, seat)["kind"] != "human":
            raise Problem(403, "forbidden", "Forbidden", "only a human seat can resign")
        bot = body.get("bot", "random")
        if bot not in known_bot_names() or automa_only(bot):
            raise validation_error({"json": {"bot": [f"not a bot that can take a seat: {bot!r}"]}},
                                   f"unknown bot {bot!r}")
        version, status = resign_seat(svc, game_id, meta, seat, bot)
        return _json({"version": version, "status": status, "seat": seat})


def resign_seat(svc: Services, game_id: str, meta: dict[str, Any], seat: int,
                bot: str = "random") -> tuple[int, str]:
    """Human `seat` resigns and ranks last: in a game of two seats (or solo) the game ends,
    otherwise `bot` plays its remaining turns. The game's new version and status; 409
    game-over when it is over already (the seat then is as it was)."""
    states = seat_states(svc.redis, game_id)
    entry = records.resign_entry(seat)
    ends = len(meta["seats"]) <= 2
    before = states.get(seat, {})  # what a refusal hands back (a resignation before it)
    # The seat is handed over first (so its bot's first job finds it), then the game's
    # new version is written if nothing moved meanwhile (else: again, on the new head);
    # a refusal hands the seat back, so that it changes nothing.
    update_seat(svc.redis, game_id, seat, resigned=True,
                bot=None if ends else {"bot": bot, "params": {}})
    while True:
        head = _head(game_id)
        acting = None if ends or head.to_act is None else \
            effective_seat(meta, seat_states(svc.redis, game_id), head.to_act)
        bot_acts = acting is not None and acting["kind"] == "bot"
        done, outcome = svc.store.mark(game_id, entry, new_epoch(),
                                       "finished" if ends else "active",
                                       None if ends else head.to_act, bot_to_act=bot_acts,
                                       expected=head.version)
        if outcome != "stale":
            break
    if not done:
        update_seat(svc.redis, game_id, seat, resigned=bool(before.get("resigned")),
                    bot=before.get("bot"))
        raise Problem(409, "game-over", "Game over", f"the game is {outcome}", result=None)
    if acting is not None and bot_acts and head.to_act is not None:
        # The resigned seat's substitute, or a bot whose queued turn the new version
        # supersedes: its turn is queued at the new version.
        svc.bot_queue.enqueue(game_id, head.to_act, int(outcome), acting["bot"])
    status = "finished" if ends else "active"
    notify_players(svc, game_id, meta, seat_states(svc.redis, game_id), head.to_act,
                   Head(int(outcome), None if ends else head.to_act, status),
                   result=_result_now(svc, game_id, meta, seat) if ends else None)
    return int(outcome), status


def _result_now(svc: Services, game_id: str, meta: dict[str, Any],
                seat: int) -> dict[str, Any] | None:
    """The result of a game just ended, as `seat` reads it (null while held back)."""
    from api.games import _held_back, _rules, final_result

    if _held_back(svc, meta, seat):
        return None
    return final_result(svc, _rules(meta), game_id)


@blp.route("/games/<game_id>/rematch")
class Rematch(MethodView):
    """The same game again."""

    @blp.response(201, RematchSchema)
    @blp.problem(401, "no token of this game (a seat's, or the creator's)")
    @blp.problem(404, "no such game")
    @blp.problem(409, "game-active (not over yet), or rematch-exists (with its id)")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH)
    def post(self, game_id: str) -> Response:
        """A new game with the same options and seat kinds (bots with their parameters),
        players keeping their seats, and a new deal; the two games name each other
        (`rematch_of`, `rematch`). Once per game. The answer is a creation answer holding
        only the caller's secrets: its own seat's new token (asked with a seat token), or
        the new creator token (asked with the creator token). Every other human seat gets
        its new token from its own old token, once (`POST …/rematch/token`); a claimed seat
        is in its player's games at once (and its webhooks), and the player can also take
        a new token there (`…/seats/{seat}/token`)."""
        svc = services()
        meta = _meta(game_id)
        token = bearer_token()
        if token is None:
            raise unauthorized("a rematch needs a seat token or the creator token")
        states = seat_states(svc.redis, game_id)
        creator = meta.get("creator_sha256")
        by_creator = bool(creator and secrets.compare_digest(creator, token_hash(token)))
        # 401 if no seat's either
        caller = None if by_creator else seat_of(token, game_id, meta, svc.bot_tokens, states)
        head = _head(game_id)
        if head.status not in OVER:
            raise Problem(409, "game-active", "Game active",
                          "a rematch is for a game that is over")
        state_key = keys.game_state(game_id)
        if not svc.redis.hsetnx(state_key, "rematch", "pending"):
            existing = svc.redis.hget(state_key, "rematch")
            raise Problem(409, "rematch-exists", "Rematch exists",
                          "this game already has its rematch",
                          rematch=existing.decode() if existing else None)
        game = core.get_game(meta["game"])
        specs = [{"kind": "human"} if s["kind"] == "human" else
                 {"kind": "bot", "bot": s["bot"], "params": s.get("params", {})}
                 for s in meta["seats"]]
        deal = make_deal(None, False, server_nonce=secrets.token_hex(32),
                         salt=secrets.token_hex(16),
                         fallback_seed=secrets.randbelow(2**SEED_BITS))
        extra: dict[str, Any] = {"rematch_of": game_id}
        if not by_creator and creator:
            # The new creator token is the original creator's only: its old one aborts the
            # rematch, and no one else is handed a way to.
            extra["creator_sha256"] = creator
        try:
            created = start_game(svc, game, meta["options"], specs, deal, extra,
                                 clock=meta.get("clock"))
        except Exception:
            svc.redis.hdel(state_key, "rematch")
            raise
        if caller is not None:
            # The caller's seat has its token in this answer: its old token redeems nothing.
            _mark_redeemed(svc.redis, game_id, caller)
        svc.redis.hset(state_key, "rematch", created["id"])
        new_meta = svc.store.meta(created["id"]) or {}
        for seat, changes in states.items():
            if changes.get("player"):
                own_seat(changes["player"], created["id"], seat,
                         float(new_meta.get("created", 0)))
        notify_players(svc, created["id"], new_meta, seat_states(svc.redis, created["id"]),
                       None, Head(0, created["to_act"], created["status"]), started=True)
        seats = [spec if spec["seat"] == caller else
                 {name: value for name, value in spec.items() if name != "token"}
                 for spec in created["seats"]]
        return _json(dict(created, seats=seats, rematch_of=game_id,
                          creator_token=created["creator_token"] if by_creator else None), 201)


def _mark_redeemed(client: redis.Redis, game_id: str, seat: int) -> bool:
    """Mark `seat` of the finished game `game_id` as having had its rematch's token; whether
    it had not yet. The mark expires with the game's other keys."""
    key = keys.rematch_redeemed(game_id)
    first = bool(client.hsetnx(key, str(seat), "1"))
    ttl = client.pttl(keys.game_state(game_id))
    if first and ttl > 0:
        client.pexpire(key, ttl)
    return first


@blp.route("/games/<game_id>/rematch/token")
class RematchToken(MethodView):
    """A seat's token in the game's rematch, for the seat's token of this game."""

    @blp.response(200, RematchTokenSchema, example={
        "game": "Qm4b8Kd2Yp6Vn1Rs", "seat": 1, "token": "t7Jx0Qm4b8Kd2Yp6Vn1Rs5Wc9Hz3Lg7Fa2Ue"})
    @blp.problem(401, "no token of a seat of this game")
    @blp.problem(403, "not a human seat's token (a bot's)")
    @blp.problem(404, "no such game, or it has no rematch (yet)")
    @blp.problem(409, "conflict: this seat already had its rematch token")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH)
    def post(self, game_id: str) -> Response:
        """The caller's seat's token in this game's rematch (Bearer: the seat's token of
        this game), once per seat: how the seats the rematch answer does not give a token
        to (all but its asker's) get theirs. The seat's token is a new one; any token
        the seat had in the rematch stops working."""
        svc = services()
        meta = _meta(game_id)
        token = bearer_token()
        if token is None:
            raise unauthorized("redeeming a rematch token needs this game's seat token")
        seat = seat_of(token, game_id, meta, svc.bot_tokens, seat_states(svc.redis, game_id))
        if meta["seats"][seat]["kind"] != "human" or \
                svc.bot_tokens.seat_of(token, game_id, [seat]) is not None:
            raise Problem(403, "forbidden", "Forbidden",
                          "only a human seat's own token redeems its rematch token")
        found = svc.redis.hget(keys.game_state(game_id), "rematch")
        rematch = found.decode() if found and found != b"pending" else None
        if rematch is None or svc.store.current_meta(rematch) is None:
            raise Problem(404, "not-found", "Not found", "this game has no rematch")
        if not _mark_redeemed(svc.redis, game_id, seat):
            raise Problem(409, "conflict", "Conflict",
                          f"seat {seat} already had its token in the rematch {rematch}")
        new_token, digest = new_human_token()
        update_seat(svc.redis, rematch, seat, token_sha256=digest)
        return _json({"game": rematch, "seat": seat, "token": new_token})
