"""Timestamps in answers: one format everywhere, RFC 3339 in UTC with milliseconds and "Z"
("2026-12-05T08:06:31.123Z"), as JSON strings (issue 28). The server keeps Unix times where
it stores them (sorting, expiry); they become RFC 3339 only in what a client reads. The
Standard Webhooks `webhook-timestamp` header stays Unix seconds, as that convention says."""

from __future__ import annotations

import time
from datetime import UTC, datetime

# What the OpenAPI document says of each timestamp field (api.schemas.timestamp).
EXAMPLE = "2026-12-05T08:06:31.123Z"


def rfc3339(unix: float) -> str:
    """The Unix time `unix` (seconds) as RFC 3339: UTC, milliseconds, "Z"."""
    moment = datetime.fromtimestamp(float(unix), UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def maybe_rfc3339(unix: float | str | None) -> str | None:
    """`rfc3339` of a stored time that may be missing (None stays None) or already text (a
    record written in RFC 3339 already)."""
    if unix is None or unix == "":
        return None
    if isinstance(unix, str):
        try:
            unix = float(unix)
        except ValueError:
            return unix
    return rfc3339(unix)


def now() -> str:
    """The current time, RFC 3339."""
    return rfc3339(time.time())
