"""Delivering webhooks (RQ queue `webhooks`): sign, post, log, and let RQ retry on failure.

Signatures follow Standard Webhooks: the secret is `whsec_<base64 key>`; the signed text is
`<webhook-id>.<webhook-timestamp>.<body>`; `webhook-signature` is `v1,<base64 HMAC-SHA256>`.
A receiver checks the signature and that the timestamp is recent, and deduplicates on the
id (a retry keeps it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import time
from typing import Any

import redis
import requests

from api import keys

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 5.0  # a hanging receiver holds a webhook worker this long at most
LOG_LENGTH = 100  # attempts kept per webhook


class DeliveryFailed(Exception):
    """The receiver did not accept the delivery; RQ retries the job with back-off."""


def sign(secret: str, message_id: str, timestamp: int, body: str) -> str:
    """The `webhook-signature` header value of a delivery."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    text = f"{message_id}.{timestamp}.{body}".encode()
    digest = hmac.new(key, text, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def verify(secret: str, headers: dict[str, str], body: str, tolerance: float = 300.0) -> bool:
    """A receiver's check of a delivery (what the README shows; the tests use it)."""
    message_id = headers.get("webhook-id", "")
    timestamp = headers.get("webhook-timestamp", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > tolerance:
        return False
    expected = sign(secret, message_id, int(timestamp), body).split(",", 1)[1]
    offered = [s.split(",", 1)[1] for s in headers.get("webhook-signature", "").split()
               if s.startswith("v1,")]
    return any(hmac.compare_digest(expected, s) for s in offered)


def _redis() -> redis.Redis:
    return redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))


def _record(client: redis.Redis, player_id: str, webhook_id: str, entry: dict[str, Any]) -> None:
    key = keys.webhook_deliveries(player_id, webhook_id)
    pipe = client.pipeline(transaction=False)
    pipe.lpush(key, json.dumps(entry, separators=(",", ":")))
    pipe.ltrim(key, 0, LOG_LENGTH - 1)
    pipe.expire(key, 30 * 24 * 3600)
    pipe.execute()


def deliver(player_id: str, webhook_id: str, message_id: str, body: str) -> str:
    """Post one delivery; raises DeliveryFailed (RQ retries) unless the receiver answered 2xx.
    "gone" when the webhook was deleted meanwhile."""
    client = _redis()
    raw = client.hget(keys.player_webhooks(player_id), webhook_id)
    if raw is None:
        return "gone"
    hook = json.loads(raw)
    timestamp = int(time.time())
    headers = {"content-type": "application/json", "user-agent": "BoardGamesBot-Webhooks/1",
               "webhook-id": message_id, "webhook-timestamp": str(timestamp),
               "webhook-signature": sign(hook["secret"], message_id, timestamp, body)}
    started = time.monotonic()
    entry: dict[str, Any] = {"message_id": message_id, "at": timestamp,
                             "event": json.loads(body).get("type")}
    try:
        response = requests.post(hook["url"], data=body.encode("utf-8"), headers=headers,
                                 timeout=TIMEOUT_SECONDS, allow_redirects=False)
        entry.update(status=response.status_code, ok=200 <= response.status_code < 300)
    except requests.RequestException as exc:
        entry.update(status=None, ok=False, error=type(exc).__name__)
    entry["ms"] = round((time.monotonic() - started) * 1000)
    _record(client, player_id, webhook_id, entry)
    if not entry["ok"]:
        raise DeliveryFailed(f"{hook['url']}: {entry.get('status') or entry.get('error')}")
    return "delivered"
