"""Players: an identity across games for apps (a mobile backend), with webhooks.

A player is optional: anonymous seat tokens keep working. A player has a secret key
(`bgbp_<id>_<secret>`, stored as a sha256 only) sent as `Authorization: Bearer <key>` on
`/v1/players/me…`, when creating a game with claimed seats, and when claiming a seat or
asking a seat's new token. The key names the player, so it is checked with one read.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import time
from typing import Any

from flask import Response
from flask.views import MethodView

from api import keys, outbound, timestamps
from api.auth import bearer_token, player_of_key, token_hash
from api.notify import enqueue_delivery
from api.parsing import Blueprint, require_json_body
from api.problems import Problem, validation_error
from api.schemas import (
    CreatedPlayerSchema,
    CreatedWebhookSchema,
    DeletedPlayerSchema,
    DeliveriesSchema,
    NewPlayerSchema,
    NewWebhookSchema,
    PlayerGamesQuerySchema,
    PlayerGamesSchema,
    PlayerKeySchema,
    PlayerSchema,
    QueuedDeliverySchema,
    WebhooksSchema,
)
from api.seats import effective_seat, seat_states, update_seat
from api.services import services
from api.timestamps import maybe_rfc3339, rfc3339

blp = Blueprint("players", __name__, url_prefix="/v1",
                description="Players: one identity across games, their games, and webhooks "
                            "for \"your turn\" and \"game over\".")

PLAYER_AUTH = [{"playerKey": []}]
MAX_WEBHOOKS = 10
# Seconds a deleted player's data may outlive a deletion that failed half-way.
DELETED_DATA_TTL = 3600
_WEBHOOK_ID = re.compile(r"^wh_[A-Za-z0-9_-]{8,32}$")


def _key_hash(key: str) -> str:
    return token_hash(key)


def _unauthorized(detail: str) -> Problem:
    return Problem(401, "unauthorized", "Unauthorized", detail,
                   headers={"WWW-Authenticate": 'Bearer realm="boardgamesbot-players"'})


def current_player() -> str:
    """The calling player's id; 401 unless the request carries a valid player key."""
    player_id = player_of_key(bearer_token())
    if player_id is None:
        raise _unauthorized("this needs 'Authorization: Bearer <player key>' (POST /v1/players)")
    return player_id


def own_seat(player_id: str, game_id: str, seat: int, created: float) -> None:
    """Record that `player_id` owns `seat` of `game_id` (seats hash and the player's index)."""
    from api.seats import update_seat

    svc = services()
    # Two owners (on a cluster two slots, on one node two writes): the index first, so that
    # no owned seat is ever missing from it; an entry whose seat write then failed is
    # skipped by the listing (which checks each game's seats) and dropped once the game is.
    svc.redis.zadd(keys.player_games(player_id), {game_id: created})
    update_seat(svc.redis, game_id, seat, player=player_id)


def _id(alphabet_size: int = 16) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(alphabet_size))


def _json(body: Any, status: int = 200) -> Response:
    return Response(json.dumps(body, separators=(",", ":")), status=status,
                    mimetype="application/json")


@blp.route("/players")
class Players(MethodView):
    """Creating players."""

    @blp.arguments(NewPlayerSchema(), example={"name": "Ada"})
    @blp.response(201, CreatedPlayerSchema, example={
        "id": "Xq3f9LmQ2aZk7WcP", "name": "Ada", "created": "2026-12-02T08:00:00.000Z",
        "key": "bgbp_Xq3f9LmQ2aZk7WcP_8dGk…"})
    @blp.problem(429, "rate-limited")
    @blp.body_problems()
    @blp.unavailable()
    def post(self, body: dict[str, Any]) -> Response:
        """A new player; its secret key is shown only in this answer (keep it)."""
        require_json_body()
        svc = services()
        player_id = _id()
        key = f"bgbp_{player_id}_{secrets.token_urlsafe(32)}"
        created = time.time()
        svc.redis.hset(keys.player(player_id), mapping={
            "name": body.get("name", ""), "key_sha256": _key_hash(key), "created": created})
        return _json({"id": player_id, "name": body.get("name"), "created": rfc3339(created),
                      "key": key}, 201)


@blp.route("/players/me")
class Me(MethodView):
    """The calling player."""

    @blp.response(200, PlayerSchema, example={"id": "Xq3f9LmQ2aZk7WcP", "name": "Ada",
                                             "created": "2026-12-02T08:00:00.000Z"})
    @blp.problem(401, "no or a wrong player key")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def get(self) -> Response:
        """Who the key belongs to."""
        player_id = current_player()
        raw = services().redis.hgetall(keys.player(player_id))
        return _json({"id": player_id, "name": raw.get(b"name", b"").decode() or None,
                      "created": rfc3339(float(raw.get(b"created", 0)))})


    @blp.response(200, DeletedPlayerSchema, example={"id": "Xq3f9LmQ2aZk7WcP", "resigned": [
        {"game_id": "eXknnuBu1J0EBrVv", "seat": 0, "version": 13, "status": "finished"}]})
    @blp.problem(401, "no or a wrong player key")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def delete(self) -> Response:
        """Delete the calling player: its key stops working at once, each of its seats in an
        active game resigns (as `POST /v1/games/{id}/resign`: a game of two seats ends, in
        a larger one the `random` bot plays the seat), and its games list, challenges, webhooks and
        their delivery logs are deleted. Its finished games keep their seats until they
        expire with the game (`BGB_RETAIN_FINISHED`), no longer tied to the player."""
        from api.lifecycle import resign_seat  # lifecycle imports this module

        player_id = current_player()
        svc = services()
        # The key first: from now on nothing acts as this player, the deletion included
        # if it is asked again meanwhile.
        svc.redis.delete(keys.player(player_id))
        resigned: list[dict[str, Any]] = []
        index = keys.player_games(player_id)
        hooks = svc.redis.hkeys(keys.player_webhooks(player_id))
        rest = [index, keys.player_webhooks(player_id), keys.player_challenges(player_id),
                *(keys.webhook_deliveries(player_id, h.decode() if isinstance(h, bytes) else h)
                  for h in hooks)]
        # Should this request die half-way, what is left expires anyway (nothing can ask
        # again: the key is gone).
        pipe = svc.redis.pipeline(transaction=False)
        for key in rest:
            pipe.expire(key, DELETED_DATA_TTL)
        pipe.execute()
        for raw in svc.redis.zrange(index, 0, -1):
            game_id = raw.decode() if isinstance(raw, bytes) else raw
            meta = svc.store.meta(game_id)
            if meta is None:
                continue  # expired
            states = seat_states(svc.redis, game_id)
            for seat in sorted(s for s, st in states.items() if st.get("player") == player_id):
                head = svc.store.head(game_id)
                if head is not None and head.status == "active" and \
                        effective_seat(meta, states, seat)["kind"] == "human":
                    try:
                        version, status = resign_seat(svc, game_id, meta, seat)
                    except Problem:
                        pass  # the game ended meanwhile (or by this player's other seat)
                    else:
                        resigned.append({"game_id": game_id, "seat": seat,
                                         "version": version, "status": status})
                update_seat(svc.redis, game_id, seat, player=None)
        # One DEL per key: they are the player's, but in as many hash slots (a multi-key
        # DEL would cross slots on a cluster); each is idempotent and expiring anyway.
        pipe = svc.redis.pipeline(transaction=False)
        for key in rest:
            pipe.delete(key)
        pipe.execute()
        return _json({"id": player_id, "resigned": resigned})


@blp.route("/players/me/key")
class MyKey(MethodView):
    """The calling player's key."""

    @blp.response(200, PlayerKeySchema, example={
        "id": "Xq3f9LmQ2aZk7WcP", "key": "bgbp_Xq3f9LmQ2aZk7WcP_Jd7…"})
    @blp.problem(401, "no or a wrong player key")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def post(self) -> Response:
        """A new key for the calling player (shown only in this answer); the key that asked
        stops working at once, everywhere (game reads and moves included)."""
        player_id = current_player()
        key = f"bgbp_{player_id}_{secrets.token_urlsafe(32)}"
        svc = services()
        # Only if the player still exists (a deletion meanwhile must not revive it).
        replaced = svc.redis.eval(_ROTATE, 1, keys.player(player_id), _key_hash(key))
        if not replaced:
            raise _unauthorized("this player was deleted")
        return _json({"id": player_id, "key": key})


# Sets the player's key hash if the player still exists: 1, else 0.
_ROTATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'key_sha256', ARGV[1])
return 1
"""


@blp.route("/players/me/games")
class MyGames(MethodView):
    """The calling player's games."""

    @blp.arguments(PlayerGamesQuerySchema(), location="query")
    @blp.response(200, PlayerGamesSchema, example={"games": [{
        "id": "eXknnuBu1J0EBrVv", "game": "darwins-journey", "options": {"players": 2},
        "created": "2026-12-02T08:00:00.000Z", "version": 12, "status": "active", "to_act": 0,
        "seats": [0], "my_turn": True}], "next": None})
    @blp.problem(401, "no or a wrong player key")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def get(self, query: dict[str, Any]) -> Response:
        """The games with a seat of the caller's, newest first, filtered by status or turn.

        A page holds at most `limit` games; filters apply within the newest games before
        `before`, so a filtered page may be short: follow `next` until it is null."""
        player_id = current_player()
        svc = services()
        index = keys.player_games(player_id)
        high = f"({query['before']}" if "before" in query else "+inf"
        window = query["limit"] * (4 if "status" in query or "my_turn" in query else 1)
        found = svc.redis.zrevrangebyscore(index, high, "-inf", start=0, num=window,
                                           withscores=True)
        games: list[dict[str, Any]] = []
        gone: list[str] = []
        pipe = svc.redis.pipeline(transaction=False)
        ids = [(raw.decode() if isinstance(raw, bytes) else raw, score) for raw, score in found]
        for game_id, _ in ids:
            pipe.get(keys.game_meta(game_id))
            pipe.hmget(keys.game_state(game_id), ["version", "to_act", "status"])
        answers = pipe.execute()
        last_score: float | None = None
        for position, (game_id, score) in enumerate(ids):
            last_score = score
            meta_raw, (version, to_act, status) = answers[2 * position], answers[2 * position + 1]
            if meta_raw is None or version is None:
                gone.append(game_id)  # expired: its keys are gone
                continue
            meta = json.loads(meta_raw)
            states = seat_states(svc.redis, game_id)
            mine = sorted(s for s, st in states.items() if st.get("player") == player_id)
            if not mine:
                continue  # listed ahead of a seat write that failed (`own_seat`)
            status_text = status.decode() if status else "active"
            seat_to_act = int(to_act) if to_act not in (None, b"") else None
            entry = {"id": game_id, "game": meta["game"], "options": meta["options"],
                     "created": rfc3339(score), "version": int(version), "status": status_text,
                     "to_act": seat_to_act,
                     "seats": mine, "my_turn": status_text == "active" and seat_to_act in mine}
            if "status" in query and entry["status"] != query["status"]:
                continue
            if "my_turn" in query and entry["my_turn"] != query["my_turn"]:
                continue
            games.append(entry)
            if len(games) == query["limit"]:
                break
        if gone:
            svc.redis.zrem(index, *gone)
        more = len(found) == window or len(games) == query["limit"]
        return _json({"games": games, "next": last_score if more and last_score else None})


@blp.route("/players/me/webhooks")
class Webhooks(MethodView):
    """The calling player's webhooks."""

    @blp.arguments(NewWebhookSchema(), example={"url": "https://push.example.com/bgb",
                                                "events": ["your_turn", "game_over"]})
    @blp.response(201, CreatedWebhookSchema, example={
        "id": "wh_3kQ9x7LmZp2V", "url": "https://push.example.com/bgb",
        "events": ["game_over", "your_turn"], "created": "2026-12-02T08:00:00.000Z",
        "secret": "whsec_MfKQ9r8GKYqXJ0y7Z1s2Wm3bq5c6d7e8"})
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(409, "too-many-webhooks")
    @blp.body_problems()
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def post(self, body: dict[str, Any]) -> Response:
        """Register a webhook; its signing secret is shown only in this answer."""
        require_json_body()
        player_id = current_player()
        _check_target(body["url"])
        svc = services()
        if svc.redis.hlen(keys.player_webhooks(player_id)) >= MAX_WEBHOOKS:
            raise Problem(409, "too-many-webhooks", "Too many webhooks",
                          f"a player has at most {MAX_WEBHOOKS} webhooks; delete one first")
        webhook_id = "wh_" + secrets.token_urlsafe(12)
        secret = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode("ascii")
        hook = {"id": webhook_id, "url": body["url"], "events": sorted(set(body["events"])),
                "secret": secret, "created": time.time()}
        svc.redis.hset(keys.player_webhooks(player_id), webhook_id, json.dumps(hook))
        return _json(_shown_hook(hook), 201)

    @blp.response(200, WebhooksSchema, example={"webhooks": [{
        "id": "wh_3kQ9x7LmZp2V", "url": "https://push.example.com/bgb",
        "events": ["game_over", "your_turn"], "created": "2026-12-02T08:00:00.000Z"}]})
    @blp.problem(401, "no or a wrong player key")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def get(self) -> Response:
        """The player's webhooks (without their secrets)."""
        player_id = current_player()
        raw = services().redis.hgetall(keys.player_webhooks(player_id))
        hooks = sorted((json.loads(v) for v in raw.values()), key=lambda h: h["created"])
        return _json({"webhooks": [{k: v for k, v in _shown_hook(h).items() if k != "secret"}
                                   for h in hooks]})


def _shown_hook(hook: dict[str, Any]) -> dict[str, Any]:
    """A stored webhook as answers show it (its Unix time of creation as RFC 3339)."""
    return {**hook, "created": maybe_rfc3339(hook["created"])}


def _check_target(url: str) -> None:
    """422 unless the server may post to `url` (api.outbound; a host that does not resolve
    yet passes: every delivery checks again)."""
    try:
        outbound.check_url(url, require_address=False)
    except outbound.ForbiddenUrl as exc:
        detail = str(exc)
        raise validation_error({"json": {"url": [detail]}}, detail) from None


def coarse_attempt(entry: dict[str, Any]) -> dict[str, Any]:
    """A logged delivery attempt as players see it: its coarse outcome only. Attempts logged
    before outcomes existed (exact status, error kind, milliseconds) are told the same way."""
    status = entry.get("status")
    if "outcome" in entry:
        outcome, status_class = entry["outcome"], entry.get("status_class")
    elif isinstance(status, int):
        outcome = "delivered" if 200 <= status < 300 else "refused"
        status_class = f"{status // 100}xx"
    else:
        outcome, status_class = "unreachable", None
    return {"message_id": entry.get("message_id"), "at": maybe_rfc3339(entry.get("at")),
            "event": entry.get("event"), "outcome": outcome, "status_class": status_class,
            "ok": outcome == "delivered"}


def _webhook(player_id: str, webhook_id: str) -> dict[str, Any]:
    raw = (services().redis.hget(keys.player_webhooks(player_id), webhook_id)
           if _WEBHOOK_ID.match(webhook_id) else None)
    if raw is None:
        raise Problem(404, "not-found", "Not found", f"no webhook {webhook_id!r}")
    return json.loads(raw)


@blp.route("/players/me/webhooks/<webhook_id>")
class Webhook(MethodView):
    """One webhook."""

    @blp.response(204)
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(404, "no such webhook")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def delete(self, webhook_id: str) -> Response:
        """Stop sending to this webhook (queued deliveries are dropped)."""
        player_id = current_player()
        _webhook(player_id, webhook_id)
        svc = services()
        svc.redis.hdel(keys.player_webhooks(player_id), webhook_id)
        svc.redis.delete(keys.webhook_deliveries(player_id, webhook_id))
        return Response(status=204)


@blp.route("/players/me/webhooks/<webhook_id>/deliveries")
class Deliveries(MethodView):
    """A webhook's delivery log."""

    @blp.response(200, DeliveriesSchema, example={"deliveries": [
        {"message_id": "msg_f3Kq9x7LmZp2Vb1c", "at": "2026-12-02T08:00:12.000Z",
         "event": "your_turn", "outcome": "delivered", "status_class": "2xx", "ok": True},
        {"message_id": "msg_f3Kq9x7LmZp2Vb1c", "at": "2026-12-02T08:00:02.000Z",
         "event": "your_turn", "outcome": "refused", "status_class": "5xx", "ok": False}]})
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(404, "no such webhook")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def get(self, webhook_id: str) -> Response:
        """Each attempt, newest first: message id, event, time and a coarse outcome."""
        player_id = current_player()
        _webhook(player_id, webhook_id)
        raw = services().redis.lrange(keys.webhook_deliveries(player_id, webhook_id), 0, -1)
        return _json({"deliveries": [coarse_attempt(json.loads(r)) for r in raw]})


@blp.route("/players/me/webhooks/<webhook_id>/test")
class TestDelivery(MethodView):
    """A test delivery."""

    @blp.response(202, QueuedDeliverySchema, example={"message_id": "msg_f3Kq9x7LmZp2Vb1c"})
    @blp.problem(401, "no or a wrong player key")
    @blp.problem(404, "no such webhook")
    @blp.unavailable()
    @blp.doc(security=PLAYER_AUTH)
    def post(self, webhook_id: str) -> Response:
        """Queue a signed `ping` delivery to this webhook (see its deliveries for the outcome)."""
        player_id = current_player()
        _webhook(player_id, webhook_id)
        message_id = enqueue_delivery(services().queue_redis, player_id, webhook_id, {
            "type": "ping", "timestamp": timestamps.now(),
            "data": {"webhook_id": webhook_id}})
        return _json({"message_id": message_id}, 202)
