"""Challenges: a seat's holder invites a player to take the seat, or opens it to any player
(issue 28, an app's account).

A game's seat, human and not yet claimed by a player, is offered to a player by whoever
holds its seat token (`POST /v1/games/{id}/seats/{seat}/invite {"player": id}`). The
invited player sees it in `GET /v1/players/me/challenges` and accepts it (it then owns the
seat and gets a new seat token: the inviter's stops working) or declines it. A challenge
whose game ended or whose seat was claimed meanwhile is dropped from the list, and refused
409 on acceptance. Challenges expire with the player's other data: `CHALLENGE_TTL` after
the newest one, or when the player is deleted.

An open seat (`POST /v1/games/{id}/seats/{seat}/open`, Bearer: the seat's token) is listed
in the lobby, `GET /v1/open-seats` (anyone; `?game=` narrows it), until a player takes it
(`POST /v1/open-seats/{game_id}/{seat}/take` with its key: as an accepted challenge), its
holder closes it (`DELETE …/open`), or its game ends.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from typing import Any

from flask import Response
from flask.views import MethodView

from api import keys
from api.auth import bearer_token, new_human_token, seat_of, unauthorized
from api.notify import player_account, publish
from api.parsing import Blueprint, require_json_body
from api.players import PLAYER_AUTH, current_player, own_seat
from api.problems import Problem
from api.schemas import (
    AcceptedChallengeSchema,
    ChallengeSchema,
    ChallengesSchema,
    InviteSchema,
    OpenSeatSchema,
    OpenSeatsQuerySchema,
    OpenSeatsSchema,
)
from api.seats import effective_seat, owner, seat_states, update_seat
from api.services import Services, services
from api.timestamps import rfc3339

blp = Blueprint(
    "challenges",
    __name__,
    url_prefix="/v1",
    description="Challenges: invite a player to a seat of a game; the player "
    "accepts (and owns the seat) or declines.",
)

SEAT_AUTH = [{"seatToken": []}]
# A player's pending challenges are kept this long after the newest (seconds).
CHALLENGE_TTL = 30 * 86400
MAX_CHALLENGES = 100
# The lobby holds at most this many open seats (stale ones are dropped as it is read).
MAX_OPEN_SEATS = 10_000
# A lobby answer lists at most this many seats, oldest first.
LOBBY_PAGE = 100
_CHALLENGE_ID = re.compile(r"^ch_[A-Za-z0-9_-]{16}$")
_PLAYER_ID = re.compile(r"^[A-Za-z0-9]{16}$")


def _json(body: Any, status: int = 200) -> Response:
    return Response(
        json.dumps(body, separators=(",", ":")), status=status, mimetype="application/json"
    )


def _open_seat(svc: Services, game_id: str, meta: dict[str, Any], seat: int) -> str | None:
    """Why `seat` of `game_id` cannot be offered or taken now, or None."""
    head = svc.store.head(game_id)
    if head is None or head.status != "active":
        return "the game is over"
    states = seat_states(svc.redis, game_id)
    if effective_seat(meta, states, seat)["kind"] != "human":
        return f"seat {seat} is not a human seat"
    if owner(states, seat) is not None:
        return f"seat {seat} already belongs to a player"
    return None


def _shown(challenge: dict[str, Any]) -> dict[str, Any]:
    return {**challenge, "created": rfc3339(challenge["created"])}


@blp.route("/games/<game_id>/seats/<int:seat>/invite")
class Invite(MethodView):
    """Offering a seat to a player."""

    @blp.arguments(InviteSchema(), example={"player": "Xq3f9LmQ2aZk7WcP"})
    @blp.response(
        201,
        ChallengeSchema,
        example={
            "id": "ch_Jd7Qm4b8Kd2Yp6Vn",
            "game_id": "eXknnuBu1J0EBrVv",
            "game": "darwins-journey",
            "seat": 1,
            "created": "2026-12-05T08:06:31.123Z",
        },
    )
    @blp.problem(401, "no or a wrong seat token")
    @blp.problem(403, "forbidden: the token is not this seat's")
    @blp.problem(404, "no such game, seat or player")
    @blp.problem(
        409,
        "conflict: the game is over, or the seat is a bot's or already claimed; "
        "or the player has too many challenges",
    )
    @blp.body_problems()
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH)
    def post(self, body: dict[str, Any], game_id: str, seat: int) -> Response:
        """Invite `player` to take this seat (Bearer: the seat's token): the challenge is
        listed in that player's challenges until accepted, declined or the seat is gone."""
        require_json_body()
        from api.games import _game_meta

        svc = services()
        meta = _game_meta(svc, game_id)
        if not 0 <= seat < len(meta["seats"]):
            raise Problem(404, "not-found", "Not found", f"this game has no seat {seat}")
        token = bearer_token()
        if token is None:
            raise unauthorized(
                "inviting needs the seat's token: 'Authorization: Bearer <seat token>'"
            )
        if seat_of(token, game_id, meta, svc.bot_tokens, seat_states(svc.redis, game_id)) != seat:
            raise Problem(403, "forbidden", "Forbidden", f"this token is not seat {seat}'s")
        player_id = body["player"]
        if not _PLAYER_ID.match(player_id) or not svc.redis.exists(keys.player(player_id)):
            raise Problem(404, "not-found", "Not found", f"no player {player_id!r}")
        why = _open_seat(svc, game_id, meta, seat)
        if why is not None:
            raise Problem(409, "conflict", "Conflict", f"seat {seat} cannot be offered: {why}")
        index = keys.player_challenges(player_id)
        if svc.redis.hlen(index) >= MAX_CHALLENGES:
            raise Problem(
                409,
                "conflict",
                "Conflict",
                f"this player has {MAX_CHALLENGES} challenges pending already",
            )
        challenge = {
            "id": "ch_" + secrets.token_urlsafe(12),
            "game_id": game_id,
            "game": meta["game"],
            "seat": seat,
            "created": time.time(),
        }
        pipe = svc.redis.pipeline(transaction=True)  # one key: one slot
        pipe.hset(index, challenge["id"], json.dumps(challenge))
        pipe.expire(index, CHALLENGE_TTL)
        pipe.execute()
        # The player hears of it on its account stream (no polling of the challenges list).
        shown = _shown(challenge)
        publish(svc.redis, [(player_account(player_id),
                             {"type": "challenge", "challenge_id": shown.pop("id"), **shown})])
        return _json(_shown(challenge), 201)


@blp.route("/players/me/challenges")
class Challenges(MethodView):
    """The calling player's challenges."""

    @blp.response(
        200,
        ChallengesSchema,
        example={
            "challenges": [
                {
                    "id": "ch_Jd7Qm4b8Kd2Yp6Vn",
                    "game_id": "eXknnuBu1J0EBrVv",
                    "game": "darwins-journey",
                    "seat": 1,
                    "created": "2026-12-05T08:06:31.123Z",
                }
            ]
        },
    )
    @blp.problem(401, "no or a wrong player key")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def get(self) -> Response:
        """The seats offered to the player, oldest first (those whose game ended or seat
        was taken meanwhile are dropped)."""
        player_id = current_player()
        svc = services()
        index = keys.player_challenges(player_id)
        found = [json.loads(raw) for raw in svc.redis.hvals(index)]
        kept, gone = [], []
        for challenge in sorted(found, key=lambda c: c["created"]):
            meta = svc.store.meta(challenge["game_id"])
            if (
                meta is None
                or _open_seat(svc, challenge["game_id"], meta, challenge["seat"]) is not None
            ):
                gone.append(challenge["id"])
            else:
                kept.append(_shown(challenge))
        if gone:
            svc.redis.hdel(index, *gone)
        return _json({"challenges": kept})


def _challenge(svc: Services, player_id: str, challenge_id: str) -> dict[str, Any]:
    raw = (
        svc.redis.hget(keys.player_challenges(player_id), challenge_id)
        if _CHALLENGE_ID.match(challenge_id)
        else None
    )
    if raw is None:
        raise Problem(404, "not-found", "Not found", f"no challenge {challenge_id!r}")
    return json.loads(raw)


@blp.route("/players/me/challenges/<challenge_id>/accept")
class Accept(MethodView):
    """Taking an offered seat."""

    @blp.response(
        200,
        AcceptedChallengeSchema,
        example={
            "game_id": "eXknnuBu1J0EBrVv",
            "seat": 1,
            "token": "t7Jx0Qm4b8Kd2Yp6Vn1Rs5Wc9Hz3Lg7Fa2Ue6Io0Py4",
        },
    )
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(404, "no such challenge")
    @blp.problem(409, "conflict: the game is over or the seat was taken meanwhile")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def post(self, challenge_id: str) -> Response:
        """The player owns the seat from now on and gets its new token (the inviter's token
        stops working); the game joins the player's games, and its key plays the seat."""
        player_id = current_player()
        svc = services()
        challenge = _challenge(svc, player_id, challenge_id)
        svc.redis.hdel(keys.player_challenges(player_id), challenge_id)
        game_id, seat = challenge["game_id"], challenge["seat"]
        meta = svc.store.meta(game_id)
        why = "the game is gone" if meta is None else _open_seat(svc, game_id, meta, seat)
        if why is not None or meta is None:
            raise Problem(409, "conflict", "Conflict", f"seat {seat} cannot be taken: {why}")
        token, digest = new_human_token()
        # Claimed only if nobody claimed it meanwhile (a WATCH transaction of the seat).
        if not _claim_if_free(svc, game_id, seat, player_id, digest):
            raise Problem(409, "conflict", "Conflict", f"seat {seat} was taken meanwhile")
        own_seat(player_id, game_id, seat, float(meta.get("created", 0)))
        return _json({"game_id": game_id, "seat": seat, "token": token})


def _claim_if_free(svc: Services, game_id: str, seat: int, player_id: str, digest: str) -> bool:
    """Give `seat` to `player_id` with a new token digest, unless a player owns it now."""
    import redis as redis_errors

    key = keys.game_seats(game_id)
    with svc.redis.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(key)
                current = pipe.hget(key, str(seat))
                state = json.loads(current) if current else {}
                if state.get("player"):
                    pipe.reset()
                    return False
                state.update(player=player_id, token_sha256=digest)
                pipe.multi()
                pipe.hset(key, str(seat), json.dumps(state, separators=(",", ":")))
                pipe.execute()
                break
            except redis_errors.WatchError:
                continue
    update_seat(svc.redis, game_id, seat)  # sets the seats' expiry with the game's
    return True


@blp.route("/players/me/challenges/<challenge_id>/decline")
class Decline(MethodView):
    """Refusing an offered seat."""

    @blp.response(204)
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(404, "no such challenge")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def post(self, challenge_id: str) -> Response:
        """Drop the challenge (the seat stays with whoever holds its token)."""
        player_id = current_player()
        svc = services()
        _challenge(svc, player_id, challenge_id)
        svc.redis.hdel(keys.player_challenges(player_id), challenge_id)
        return Response(status=204)


def _holder_seat(svc: Services, game_id: str, seat: int) -> dict[str, Any]:
    """The game's metadata, once the caller's Bearer token is `seat`'s (404, 401, 403)."""
    from api.games import _game_meta

    meta = _game_meta(svc, game_id)
    if not 0 <= seat < len(meta["seats"]):
        raise Problem(404, "not-found", "Not found", f"this game has no seat {seat}")
    token = bearer_token()
    if token is None:
        raise unauthorized("opening a seat needs its token: 'Authorization: Bearer <seat "
                           "token>'")
    if seat_of(token, game_id, meta, svc.bot_tokens, seat_states(svc.redis, game_id)) != seat:
        raise Problem(403, "forbidden", "Forbidden", f"this token is not seat {seat}'s")
    return meta


def _lobby_field(game_id: str, seat: int) -> str:
    return f"{game_id}:{seat}"


def _open_shown(entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "created": rfc3339(entry["created"])}


@blp.route("/games/<game_id>/seats/<int:seat>/open")
class OpenSeat(MethodView):
    """A seat open to any player."""

    @blp.response(201, OpenSeatSchema, example={
        "game_id": "eXknnuBu1J0EBrVv", "game": "flotilla", "seat": 2, "players": 3,
        "created": "2026-12-05T08:06:31.123Z"})
    @blp.alt_response(200, schema=OpenSeatSchema, description="the seat was open already")
    @blp.problem(401, "no or a wrong seat token")
    @blp.problem(403, "forbidden: the token is not this seat's")
    @blp.problem(404, "no such game or seat")
    @blp.problem(409, "conflict: the game is over, or the seat is a bot's or already "
                      "claimed; or the lobby is full")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH)
    def post(self, game_id: str, seat: int) -> Response:
        """Open this seat to any player (Bearer: the seat's token): it is listed in the
        lobby until a player takes it, the token's holder closes it or the game ends."""
        svc = services()
        meta = _holder_seat(svc, game_id, seat)
        why = _open_seat(svc, game_id, meta, seat)
        if why is not None:
            raise Problem(409, "conflict", "Conflict", f"seat {seat} cannot be opened: {why}")
        field = _lobby_field(game_id, seat)
        found = svc.redis.hget(keys.open_seats(), field)
        if found is not None:
            return _json(_open_shown(json.loads(found)), 200)
        if svc.redis.hlen(keys.open_seats()) >= MAX_OPEN_SEATS:
            raise Problem(409, "conflict", "Conflict", "the lobby is full: try again later")
        entry = {"game_id": game_id, "game": meta["game"], "seat": seat,
                 "players": len(meta["seats"]), "created": time.time()}
        svc.redis.hset(keys.open_seats(), field, json.dumps(entry))
        return _json(_open_shown(entry), 201)

    @blp.response(204)
    @blp.problem(401, "no or a wrong seat token")
    @blp.problem(403, "forbidden: the token is not this seat's")
    @blp.problem(404, "no such game or seat")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH)
    def delete(self, game_id: str, seat: int) -> Response:
        """Close the seat: it leaves the lobby (nothing else changes)."""
        svc = services()
        _holder_seat(svc, game_id, seat)
        svc.redis.hdel(keys.open_seats(), _lobby_field(game_id, seat))
        return Response(status=204)


@blp.route("/open-seats")
class Lobby(MethodView):
    """The seats open to any player."""

    @blp.arguments(OpenSeatsQuerySchema(), location="query")
    @blp.response(200, OpenSeatsSchema)
    @blp.unavailable()
    def get(self, query: dict[str, Any]) -> Response:
        """The open seats, oldest first (at most 100; `?game=` narrows them to one game);
        those whose game ended or seat was taken meanwhile are dropped."""
        svc = services()
        entries = sorted((json.loads(raw) for raw in svc.redis.hvals(keys.open_seats())),
                         key=lambda e: e["created"])
        kept, gone = [], []
        for entry in entries:
            if query.get("game") not in (None, entry["game"]):
                continue
            if len(kept) >= LOBBY_PAGE:
                break
            meta = svc.store.meta(entry["game_id"])
            if meta is None or _open_seat(svc, entry["game_id"], meta, entry["seat"]):
                gone.append(_lobby_field(entry["game_id"], entry["seat"]))
            else:
                kept.append(_open_shown(entry))
        if gone:
            svc.redis.hdel(keys.open_seats(), *gone)
        return _json({"seats": kept})


@blp.route("/open-seats/<game_id>/<int:seat>/take")
class TakeSeat(MethodView):
    """Taking an open seat."""

    @blp.response(200, AcceptedChallengeSchema)
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(404, "no such open seat")
    @blp.problem(409, "conflict: the game is over or the seat was taken meanwhile")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def post(self, game_id: str, seat: int) -> Response:
        """The player owns the open seat from now on and gets its new token (its former
        holder's stops working); the game joins the player's games."""
        player_id = current_player()
        svc = services()
        field = _lobby_field(game_id, seat)
        # Taken off the lobby first: of two players racing, one claims it (below), and the
        # other finds it gone.
        if not svc.redis.hdel(keys.open_seats(), field):
            raise Problem(404, "not-found", "Not found", f"seat {seat} of {game_id!r} is not open")
        meta = svc.store.meta(game_id)
        why = "the game is gone" if meta is None else _open_seat(svc, game_id, meta, seat)
        if why is not None or meta is None:
            raise Problem(409, "conflict", "Conflict", f"seat {seat} cannot be taken: {why}")
        token, digest = new_human_token()
        if not _claim_if_free(svc, game_id, seat, player_id, digest):
            raise Problem(409, "conflict", "Conflict", f"seat {seat} was taken meanwhile")
        own_seat(player_id, game_id, seat, float(meta.get("created", 0)))
        return _json({"game_id": game_id, "seat": seat, "token": token})
