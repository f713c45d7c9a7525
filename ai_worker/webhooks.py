"""Delivering webhooks (RQ queue `webhooks`): sign, post, log, and let RQ retry on failure.

Signatures follow Standard Webhooks: the secret is `whsec_<base64 key>`; the signed text is
`<webhook-id>.<webhook-timestamp>.<body>`; `webhook-signature` is `v1,<base64 HMAC-SHA256>`.
A receiver checks the signature and that the timestamp is recent, and deduplicates on the
id (a retry keeps it).

Each attempt checks the URL again, its host resolved now, and connects to an address it
checked (api.outbound, on ssrfguard): a webhook whose name has come to point inside is not
delivered, and its log says "forbidden", nothing finer (docs/webhooks-security.md).
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import json
import logging
import time
from typing import Any

import redis
import requests
import ssrfguard
from rq import get_current_job

from api import keys, outbound
from api.redis_conn import GameClient, worker_games

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 5.0  # a hanging receiver holds a webhook worker this long at most
LOG_LENGTH = 100  # attempts kept per webhook
# urllib3's debug lines carry a request's path and query (its "url"): none while posting a
# webhook, whose query may hold the receiver's secret (BGB_LOG_LEVEL=DEBUG would show it).
URLLIB3_LOGGERS = ("urllib3.connectionpool", "urllib3.connection", "urllib3.util.retry",
                   "urllib3.poolmanager", "urllib3.response")
_posting = contextvars.ContextVar("posting_webhook", default=False)


class _NotWhilePosting(logging.Filter):
    """Drops urllib3's records emitted while this thread posts a webhook."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not _posting.get()


for _name in URLLIB3_LOGGERS:
    logging.getLogger(_name).addFilter(_NotWhilePosting())


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


def _redis() -> GameClient:
    """The game store (api.redis_conn: the job's own connection when it is the queues' too)."""
    job = get_current_job()
    return worker_games(None if job is None else job.connection)


def _record(client: redis.Redis, player_id: str, webhook_id: str, entry: dict[str, Any]) -> None:
    key = keys.webhook_deliveries(player_id, webhook_id)
    pipe = client.pipeline(transaction=False)
    pipe.lpush(key, json.dumps(entry, separators=(",", ":")))
    pipe.ltrim(key, 0, LOG_LENGTH - 1)
    pipe.expire(key, 30 * 24 * 3600)
    pipe.execute()


def _post(target: outbound.Target, body: str, headers: dict[str, str]) -> requests.Response:
    """One POST through the guarded session (api.outbound.session: the name resolved once,
    every answer checked, the socket opened to a checked address), no redirect followed, the
    answer unread. Raises ssrfguard.SSRFGuardError when an address is not allowed."""
    posting = _posting.set(True)
    try:
        with outbound.session() as session:
            response = session.post(target.url, data=body.encode("utf-8"), headers=headers,
                                    timeout=TIMEOUT_SECONDS, allow_redirects=False, stream=True)
            response.close()
            return response
    finally:
        _posting.reset(posting)


def attempt(url: str, body: str, headers: dict[str, str]) -> tuple[str, str | None]:
    """Check `url` again and post to an address its host resolves to now, checked: the
    attempt's outcome (api.outbound.OUTCOMES) and the class of the receiver's status."""
    try:
        target = outbound.check(url)
        status = _post(target, body, headers).status_code
    except (outbound.ForbiddenUrl, ssrfguard.SSRFGuardError):
        return "forbidden", None
    except requests.RequestException:  # no answer: the name does not resolve, no connection
        return "unreachable", None
    return ("delivered" if 200 <= status < 300 else "refused"), f"{status // 100}xx"


def deliver(player_id: str, webhook_id: str, message_id: str, body: str) -> str:
    """Post one delivery and log its outcome; raises DeliveryFailed (RQ retries) when the
    receiver refused it or could not be reached. "gone" when the webhook was deleted
    meanwhile, "forbidden" (never retried) when its URL may not be reached."""
    client = _redis()
    raw = client.hget(keys.player_webhooks(player_id), webhook_id)
    if raw is None:
        return "gone"
    hook = json.loads(raw)
    timestamp = int(time.time())
    headers = {"content-type": "application/json", "user-agent": "BoardGamesBot-Webhooks/1",
               "webhook-id": message_id, "webhook-timestamp": str(timestamp),
               "webhook-signature": sign(hook["secret"], message_id, timestamp, body)}
    outcome, status_class = attempt(hook["url"], body, headers)
    _record(client, player_id, webhook_id, {
        "message_id": message_id, "at": timestamp, "event": json.loads(body).get("type"),
        "outcome": outcome, "status_class": status_class, "ok": outcome == "delivered"})
    where = outbound.redact(hook["url"])  # never a password or a query's secret in a log
    if outcome == "forbidden":
        log.warning("webhook %s of player %s: %s is not a public address; not delivered",
                    webhook_id, player_id, where)
        return outcome
    if outcome != "delivered":
        raise DeliveryFailed(f"webhook {webhook_id}: {where}: {outcome} {status_class or ''}"
                             .rstrip())
    return outcome
