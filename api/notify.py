"""Notifications of accounts: each account's event stream, and players' webhooks ("your
turn", "game over" and "deadline soon", a game's clock: docs/clocks.md), queued, never sent
inline.

`notify_players` is the one place a game's news reaches accounts: the API calls it when a
game is created, after every stored move and when a game ends, whoever made the move (a
person, or a bot worker through the API). It appends the events to the event stream of each
account with a seat in the game (`api.account_stream`: a player, or an external entrant of
a tournament), and queues the webhook deliveries of players. `notify_deadline` is the
sweeper's (ai_worker.clocks): the seat to act's time runs out soon.

A request that changes a game only enqueues deliveries (RQ queue `webhooks`); a worker
(`ai_worker/webhooks.py`) signs and posts them, retrying with back-off for a day. So a slow,
failing or hanging receiver never slows or blocks a move.

Payloads follow the Standard Webhooks convention: `{"type", "timestamp", "data"}`, signed
by the worker with the webhook's secret (headers `webhook-id`, `webhook-timestamp`,
`webhook-signature`).
"""

from __future__ import annotations

import json
import os
import secrets
from typing import Any

import redis
from rq import Queue

from api import keys, timestamps
from api.clocks import rfc3339
from api.redis_conn import GameClient, announce
from api.retries import retry_options
from api.seats import SeatStates, owner
from api.services import Services
from api.store import Head

# An account's stream keeps about its latest MAX_ACCOUNT_EVENTS events (XADD MAXLEN ~), and
# expires a week after its last one.
MAX_ACCOUNT_EVENTS = 1000
ACCOUNT_EVENTS_TTL_SECONDS = 7 * 24 * 3600
ACCOUNT_EVENTS = ("game_started", "your_turn", "deadline_soon", "game_over",
                  "tournament_started", "tournament_finished", "challenge")

QUEUE_NAME = "webhooks"
JOB_FUNCTION = "ai_worker.webhooks.deliver"
# Seconds between attempts: a failing receiver is retried for about a day (23.6 h).
RETRY_INTERVALS = [10, 60, 300, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600]


def retry_intervals() -> list[int]:
    """The back-off between attempts (BGB_WEBHOOK_RETRY_INTERVALS: seconds, comma-separated;
    tests shorten it)."""
    raw = os.environ.get("BGB_WEBHOOK_RETRY_INTERVALS", "")
    return [int(x) for x in raw.split(",") if x.strip()] or RETRY_INTERVALS


EVENTS = ("your_turn", "game_over", "deadline_soon")


def new_message_id() -> str:
    """A delivery's id (the same on every retry of it: receivers deduplicate on it)."""
    return "msg_" + secrets.token_urlsafe(18)


def enqueue_delivery(client: redis.Redis, player_id: str, webhook_id: str,
                     payload: dict[str, Any]) -> str:
    """Queue one delivery of `payload` to one webhook; its message id."""
    message_id = new_message_id()
    body = json.dumps(payload, separators=(",", ":"))
    Queue(QUEUE_NAME, connection=client).enqueue(
        JOB_FUNCTION, player_id, webhook_id, message_id, body,
        job_id=f"webhook-{message_id}", result_ttl=3600, failure_ttl=7 * 24 * 3600,
        **retry_options(retry_intervals()))
    return message_id


def _payload(kind: str, game_id: str, meta: dict[str, Any], seat: int,
             head: Head, result: dict[str, Any] | None = None) -> dict[str, Any]:
    data = {"game_id": game_id, "game": meta["game"], "seat": seat, "version": head.version,
            "status": head.status, "to_act": head.to_act, "url": f"/v1/games/{game_id}"}
    if kind == "game_over":
        # As a game read shows it (null while a tournament deal holds it back).
        data["result"] = result
    deadline = None if head.clock is None else head.clock.get("deadline_ms")
    if deadline is not None and seat == head.to_act and head.status == "active":
        data["deadline"] = rfc3339(int(deadline))  # the game's clock: when the seat's time ends
    return {"type": kind, "timestamp": timestamps.now(), "data": data}


def player_account(player_id: str) -> str:
    """The account of a player."""
    return f"player:{player_id}"


def entrant_account(tournament_id: str, entrant: int) -> str:
    """The account of a tournament's external entrant (by its index among the entrants)."""
    return f"entrant:{tournament_id}:{entrant}"


def entrant_accounts(tournament_id: str, spec: dict[str, Any]) -> list[str]:
    """The accounts of a tournament's external entrants."""
    return [entrant_account(tournament_id, index)
            for index, entrant in enumerate(spec["entrants"]) if entrant["kind"] == "external"]


def seat_accounts(meta: dict[str, Any], states: SeatStates) -> dict[int, str]:
    """The account of each seat that has one: its owner (a player), else the account the
    game was created for it with (`meta["accounts"]`: a tournament's external entrant)."""
    accounts = {int(seat): str(account) for seat, account in meta.get("accounts", {}).items()}
    for seat in range(len(meta["seats"])):
        player_id = owner(states, seat)
        if player_id:
            accounts[seat] = player_account(player_id)
    return accounts


def publish(client: GameClient, events: list[tuple[str, dict[str, Any]]]) -> None:
    """Append each (account, event) to its account's stream, and wake the account's open
    streams (one pipeline; stream ids give the order)."""
    if not events:
        return
    pipe = client.pipeline(transaction=False)
    for account, event in events:
        key = keys.account_events(account)
        pipe.xadd(key, {"event": json.dumps(event, separators=(",", ":"))},
                  maxlen=MAX_ACCOUNT_EVENTS, approximate=True)
        pipe.expire(key, ACCOUNT_EVENTS_TTL_SECONDS)
    for account in dict.fromkeys(account for account, _ in events):
        announce(pipe, keys.version_channel(keys.account_watch_id(account)), "event")
    pipe.execute()


def notify_tournament(client: GameClient, tournament_id: str, accounts: list[str], kind: str,
                      status: str) -> None:
    """Tell a tournament's external entrants it started or ended (`status`)."""
    publish(client, [(account, {"type": kind, "tournament_id": tournament_id,
                                "status": status}) for account in accounts])


def _account_event(kind: str, game_id: str, meta: dict[str, Any], seat: int, head: Head,
                   result: Any, tokens: dict[int, str]) -> dict[str, Any]:
    event = {"type": kind, "game_id": game_id, "game": meta["game"], "seat": seat,
             "version": head.version, "status": head.status, "to_act": head.to_act}
    if kind == "game_started":
        event["token"] = tokens.get(seat)
        if "tournament" in meta:
            event["tournament_id"] = meta["tournament"]["id"]
    elif kind == "game_over":
        event["result"] = result
    deadline = None if head.clock is None else head.clock.get("deadline_ms")
    if kind == "your_turn" and deadline is not None:
        event["deadline"] = rfc3339(int(deadline))  # the game's clock: when the seat's ends
    return event


def notify_deadline(client: GameClient, game_id: str, meta: dict[str, Any],
                    states: SeatStates, head: Head, deadline: str,
                    queues: redis.Redis | None = None) -> list[str]:
    """Tell the account of the seat to act (a player, or a tournament's external entrant)
    that its clock runs out at `deadline` (RFC 3339): an event on its stream, and its
    player's webhooks that want "deadline_soon". The message ids of the deliveries queued."""
    account = None if head.to_act is None else seat_accounts(meta, states).get(head.to_act)
    if account is None or head.to_act is None:
        return []
    event = _account_event("deadline_soon", game_id, meta, head.to_act, head, None, {})
    event["deadline"] = deadline
    publish(client, [(account, event)])
    if not account.startswith("player:"):
        return []
    payload = _payload("deadline_soon", game_id, meta, head.to_act, head)
    payload["data"]["deadline"] = deadline
    return _deliver(client, account.removeprefix("player:"), "deadline_soon", payload, queues)


def _deliver(client: GameClient, player_id: str, kind: str, payload: dict[str, Any],
             queues: redis.Redis | None = None) -> list[str]:
    """Queue `payload` (on `queues`, the queues' Redis; default: `client`) to each of the
    player's webhooks that takes `kind`."""
    sent = []
    # Without `queues`, one node: the game store is the queues' Redis too.
    queue_client: Any = client if queues is None else queues
    for webhook_id, raw in client.hgetall(keys.player_webhooks(player_id)).items():
        if kind in json.loads(raw)["events"]:
            hook_id = webhook_id.decode() if isinstance(webhook_id, bytes) else webhook_id
            sent.append(enqueue_delivery(queue_client, player_id, hook_id, payload))
    return sent


def notify_players(svc: Services, game_id: str, meta: dict[str, Any], states: SeatStates,
                   previous_to_act: int | None, head: Head, *, started: bool = False,
                   tokens: dict[int, str] | None = None, result: Any = None) -> list[str]:
    """Tell the accounts of a game's seats what its new `head` calls for: "game started"
    (`started`, with the seat's token where `tokens` has it), "your turn" to the account of
    the seat now to act (when the turn changed hands), "game over" (with `result`, None when
    it is held back) to every account of the game once it is over. Each goes to the
    account's stream, and to its player's webhooks that want it. Returns the message ids of
    the webhook deliveries queued."""
    accounts = seat_accounts(meta, states)
    if not accounts:
        return []
    targets: list[tuple[str, int, str]] = []  # (event, seat, account)
    if started:
        targets = [("game_started", seat, account) for seat, account in accounts.items()]
    if head.status != "active":
        targets += [("game_over", seat, account) for seat, account in accounts.items()]
    elif head.to_act is not None and head.to_act != previous_to_act and head.to_act in accounts:
        targets.append(("your_turn", head.to_act, accounts[head.to_act]))
    publish(svc.redis, [(account, _account_event(kind, game_id, meta, seat, head, result,
                                                 tokens or {}))
                        for kind, seat, account in targets])
    sent: list[str] = []
    for kind, seat, account in targets:
        if kind not in EVENTS or not account.startswith("player:"):
            continue
        sent += _deliver(svc.redis, account.removeprefix("player:"), kind,
                         _payload(kind, game_id, meta, seat, head, result), svc.queue_redis)
    return sent
