"""Webhook notifications of players: "your turn" and "game over", queued, never sent inline.

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
from rq import Queue, Retry

from api import keys, timestamps
from api.seats import SeatStates, owner
from api.services import Services
from api.store import Head

QUEUE_NAME = "webhooks"
JOB_FUNCTION = "ai_worker.webhooks.deliver"
# Seconds between attempts: a failing receiver is retried for about a day (23.6 h).
RETRY_INTERVALS = [10, 60, 300, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600]


def retry_intervals() -> list[int]:
    """The back-off between attempts (BGB_WEBHOOK_RETRY_INTERVALS: seconds, comma-separated;
    tests shorten it)."""
    raw = os.environ.get("BGB_WEBHOOK_RETRY_INTERVALS", "")
    return [int(x) for x in raw.split(",") if x.strip()] or RETRY_INTERVALS
EVENTS = ("your_turn", "game_over")


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
        retry=Retry(max=len(retry_intervals()), interval=retry_intervals()))
    return message_id


def _payload(kind: str, game_id: str, meta: dict[str, Any], seat: int,
             head: Head, result: dict[str, Any] | None = None) -> dict[str, Any]:
    data = {"game_id": game_id, "game": meta["game"], "seat": seat,
            "version": head.version, "status": head.status, "to_act": head.to_act,
            "url": f"/v1/games/{game_id}"}
    if kind == "game_over":
        # As a game read shows it (null while a tournament deal holds it back).
        data["result"] = result
    return {"type": kind, "timestamp": timestamps.now(), "data": data}


def notify_players(svc: Services, game_id: str, meta: dict[str, Any], states: SeatStates,
                   previous_to_act: int | None, head: Head,
                   result: dict[str, Any] | None = None) -> list[str]:
    """Queue the notifications a game's new `head` calls for: "your turn" to the player of
    the seat now to act (when the turn changed hands), "game over" (with the game's
    `result`) to every player of the game once it is over. Returns the message ids
    queued."""
    owners = {seat: owner(states, seat) for seat in range(len(meta["seats"]))}
    owners = {seat: player for seat, player in owners.items() if player}
    if not owners:
        return []
    targets: list[tuple[str, int, str]] = []  # (event, seat, player)
    if head.status != "active":
        targets = [("game_over", seat, player) for seat, player in owners.items()]
    elif head.to_act is not None and head.to_act != previous_to_act and head.to_act in owners:
        targets = [("your_turn", head.to_act, owners[head.to_act])]
    sent: list[str] = []
    for kind, seat, player_id in targets:
        for webhook_id, raw in svc.redis.hgetall(keys.player_webhooks(player_id)).items():
            hook = json.loads(raw)
            if kind in hook["events"]:
                hook_id = webhook_id.decode() if isinstance(webhook_id, bytes) else webhook_id
                payload = _payload(kind, game_id, meta, seat, head, result)
                sent.append(enqueue_delivery(svc.redis, player_id, hook_id, payload))
    return sent
