"""One stream per account: server-sent events of every game an account has a seat in.

An account is a player (its key) or a tournament's external entrant (its token, with
`?tournament=<id>`). `api.notify.notify_players` appends the account's events to a capped
Redis stream (`game_started`, `your_turn`, `game_over`, `tournament_started`,
`tournament_finished`; the sweeper's `notify_deadline` adds `deadline_soon`) and announces
them on the version channels, so this process's one pub/sub listener
(`api.events.VersionWatcher`) wakes the account's open streams: an idle stream reads nothing
from Redis and, under gevent, holds no thread. Each event's `id:` is
its Redis stream id: a client resumes with Last-Event-ID and loses nothing the stream still
holds (its latest `MAX_ACCOUNT_EVENTS`, for a week); without one, a stream starts with all
the account still holds.

A `your_turn` is sent only while it is current (the game still at its version): a client
that resumes, or a bot that was slow, never plays a turn that is gone. With `?view=1` it
carries the seat's game as `GET /v1/games/<id>` with the seat's token answers (view and
legal moves), so a bot plays on the stream alone: no read of the game. A `deadline_soon`
(the game's clock: docs/clocks.md) is also sent only while the game is at its version.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterator
from typing import Any

import redis
from flask import Response, request
from flask.views import MethodView

import core
from api import keys
from api.auth import bearer_token
from api.connections import client_group
from api.events import ClientGone, ClientSocket
from api.games import _game_answer, _problem_doc, _state
from api.notify import ACCOUNT_EVENTS, entrant_account, player_account
from api.parsing import Blueprint, query_flag
from api.players import current_player, player_of_key
from api.problems import Problem
from api.services import Services, services
from api.tournaments import _tournament, entrant_of
from api.watchers import _client_socket, _Released, admission

log = logging.getLogger(__name__)

blp = Blueprint("accounts", __name__, url_prefix="/v1",
                description="One event stream per account (a player, or a tournament's "
                            "external entrant): its games started, its turns, its games over.")

# Entries read from Redis at a time.
BATCH = 100
_STREAM_ID = re.compile(r"^[0-9]{1,20}-[0-9]{1,20}$")

# One server-sent event as clients parse it (see api.games.SSE_EVENT_SCHEMA).
ACCOUNT_EVENT_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["data"],
    "properties": {
        "id": {"type": "string", "description": "the event's stream id (`<ms>-<n>`): resume "
                                                "after it with Last-Event-ID"},
        "event": {"type": "string", "enum": list(ACCOUNT_EVENTS)},
        "data": {"type": "string", "description": "JSON AccountEvent"},
        "retry": {"type": "string"},
    },
}


def _query() -> tuple[str | None, bool]:
    """The `tournament` and `view` query parameters (422 for a `view` that is no boolean)."""
    return request.args.get("tournament"), query_flag("view")


def _account(tournament_id: str | None) -> tuple[str, bool]:
    """The caller's account, and whether its stream ends with its tournament; 401 without
    valid credentials, 403 for a player key with `tournament`, 404 for an unknown
    tournament."""
    if tournament_id is None:
        return player_account(current_player()), False
    info = _tournament(services(), tournament_id)
    token = bearer_token()
    if token is None:
        raise Problem(401, "unauthorized", "Unauthorized",
                      "this needs 'Authorization: Bearer <entrant token>' of the tournament",
                      headers={"WWW-Authenticate": 'Bearer realm="boardgamesbot"'})
    if player_of_key(token) is not None:
        # A valid credential, of another account: a player's stream is its own.
        raise Problem(403, "forbidden", "Forbidden",
                      "a player key opens its player's stream (without `tournament`); a "
                      "tournament's stream needs one of its external entrants' tokens")
    return entrant_account(tournament_id, entrant_of(info, token)), True


def _last_event_id(header: str | None) -> str:
    """The stream id to resume after ("0-0": from the oldest event held); 400 for anything
    but an id this stream sent."""
    if header is None:
        return "0-0"
    if not _STREAM_ID.fullmatch(header):
        raise Problem(400, "bad-request", "Bad request",
                      "Last-Event-ID must be an id this stream sent (`<ms>-<n>`)")
    return header


@blp.route("/players/me/stream")
class AccountStream(MethodView):
    """The caller's account events as server-sent events."""

    @blp.doc(
        security=[{"playerKey": []}, {"seatToken": []}],
        parameters=[{"in": "query", "name": "tournament", "schema": {"type": "string"},
                     "description": "the tournament whose external entrant's token (Bearer) "
                                    "opens the stream; without it, a player key does"},
                    {"in": "query", "name": "view",
                     "schema": {"type": "string", "enum": ["0", "1", "false", "true"],
                                "default": "0"},
                     "description": "1: each `your_turn` carries the seat's game (`current`: "
                                    "its view and legal moves), as the seat's read answers"},
                    {"in": "header", "name": "Last-Event-ID",
                     "schema": {"type": "string", "pattern": _STREAM_ID.pattern},
                     "description": "resume after this event (an `id:` this stream sent; "
                                    "anything else is 400)"}],
        responses={"200": {"description": "`id: <stream id>`, `event: <type>`, `data: "
                                          "<AccountEvent JSON>` per event, oldest first; "
                                          "comment heartbeats. Text: read it line by line.",
                           "content": {"text/event-stream": {"schema": ACCOUNT_EVENT_SCHEMA}}},
                   "400": _problem_doc("a Last-Event-ID that is no stream id"),
                   "401": _problem_doc("no player key, or no entrant token of the tournament"),
                   "403": _problem_doc("a player key with `tournament`: a tournament's stream "
                                       "is its external entrants'"),
                   "404": _problem_doc("no such tournament"),
                   "422": _problem_doc("validation-error: a `view` other than 1, 0, true or "
                                       "false"),
                   "429": _problem_doc("too-many-streams: this client holds as many long "
                                       "polls and streams as it may (Retry-After)"),
                   "503": _problem_doc("service-unavailable: the store does not answer, or "
                                       "the server holds all the streams it can "
                                       "(Retry-After)")})
    def get(self) -> Response:
        """The account's events: games started (with the seat's token), your turn (with
        `?view=1` the seat's game), game over, tournament started and finished. Resumable
        with Last-Event-ID; an entrant's stream ends with its tournament."""
        tournament_id, view = _query()
        account, ends = _account(tournament_id)
        after = _last_event_id(request.headers.get("Last-Event-ID"))
        svc = services()
        release = admission().enter(client_group(request.remote_addr), "stream")
        try:
            chunks = account_events(svc, account, after, view, ends,
                                    _client_socket())
            return Response(_Released(chunks, release), mimetype="text/event-stream",
                            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        except BaseException:
            release()
            raise


def account_events(svc: Services, account: str, after: str, view: bool, ends: bool,
                   client: ClientSocket | None = None) -> Iterator[str]:
    """Server-sent events of the account after stream id `after`, then each new one;
    heartbeats while idle; ends after `SSE_MAX_SECONDS`, when the client goes, when Redis
    stops answering (clients resume with Last-Event-ID), or (`ends`) after
    `tournament_finished`."""
    deadline = time.monotonic() + float(svc.config["SSE_MAX_SECONDS"])
    heartbeat = float(svc.config["SSE_HEARTBEAT_SECONDS"])
    key = keys.account_events(account)
    yield "retry: 1000\n\n"
    try:
        with svc.watcher.subscribe(keys.account_watch_id(account), client) as subscription:
            while True:
                # Cleared before reading: an event appended while we read wakes the wait.
                subscription.clear()
                found = svc.redis.xread({key: after}, count=BATCH)
                entries = found[0][1] if found else []
                for entry_id, entry in entries:
                    after = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
                    event = json.loads(entry[b"event"] if b"event" in entry else entry["event"])
                    shown = _current(svc, event, view)
                    if shown is not None:
                        data = json.dumps(shown, separators=(",", ":"))
                        yield f"id: {after}\nevent: {event['type']}\ndata: {data}\n\n"
                    if ends and event["type"] == "tournament_finished":
                        return
                if len(entries) == BATCH:
                    continue
                # Heartbeats until woken: an idle stream reads nothing from Redis.
                while True:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return
                    if subscription.wait(min(heartbeat, remaining)):
                        break
                    if time.monotonic() < deadline:
                        yield ": heartbeat\n\n"
    except ClientGone:
        return
    except redis.RedisError as exc:
        # The answer has started: ending it makes the client resume with Last-Event-ID.
        log.warning("event stream of account %s ended: Redis unavailable (%r)", account, exc)


def _current(svc: Services, event: dict[str, Any], view: bool) -> dict[str, Any] | None:
    """The event as sent, None for a `your_turn` or `deadline_soon` that is gone (the game
    moved on, or is gone); with `view`, a `your_turn` carries the seat's game at its
    version."""
    if event["type"] not in ("your_turn", "deadline_soon"):
        return event
    game_id = event["game_id"]
    if not view or event["type"] == "deadline_soon":
        version = svc.redis.hget(keys.game_state(game_id), "version")
        return event if version is not None and int(version) == event["version"] else None
    meta = svc.store.meta(game_id)
    if meta is None:
        return None
    game = core.get_game(meta["game"])
    try:
        now = _state(svc, game, game_id)
    except Problem:
        return None  # gone meanwhile
    head = now.head
    if head is None or head.version != event["version"] or head.to_act != event["seat"]:
        return None
    return dict(event, current=_game_answer(svc, game, game_id, meta, now, event["seat"], ""))
