"""CORS on /v1: one policy, applied by flask-cors to the app's answers and by the fast lane
(`api.fastlane`) to its own.

Every credential of the API is a Bearer token a page must send on purpose, never a cookie a
browser sends by itself, so any origin may call it by default; BGB_CORS_ORIGINS
(comma-separated origins) restricts it. The policy is ours, in our own terms: flask-cors is
configured from it through its public interface (`CORS(app, resources=..., **options)`),
and the fast lane computes the headers of a simple (non-preflight) answer from the same
fields. Preflights (OPTIONS) always go through flask-cors. `tests/api/test_fastlane.py`
checks that both give the same headers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from flask import Flask
from flask_cors import CORS

# The request headers a page may send, and the answer headers it may read.
ALLOW_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match",
                 "Idempotency-Key", "Last-Event-ID")
EXPOSE_HEADERS = ("ETag", "Location", "Retry-After", "Idempotent-Replayed", "WWW-Authenticate",
                  "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
MAX_AGE_SECONDS = 600


@dataclass(frozen=True)
class CorsPolicy:
    """Which origins may call /v1 from a browser: `origins` None means any."""

    origins: frozenset[str] | None

    @classmethod
    def from_setting(cls, raw: str) -> CorsPolicy:
        """The policy of a BGB_CORS_ORIGINS value: "*" or empty for any origin, else a
        comma-separated list of origins (compared case-insensitively, as flask-cors does)."""
        if raw.strip() in ("", "*"):
            return cls(None)
        return cls(frozenset(o.strip().lower() for o in raw.split(",") if o.strip()))

    def install(self, app: Flask) -> None:
        """Configure flask-cors on the app's /v1 routes with this policy.

        `send_wildcard`: any origin is answered with `*` (no credentials are ever sent, so
        the wildcard is allowed and no Vary is needed); `always_send=False`: a request
        without an Origin header is not a CORS request and gets no CORS headers."""
        origins: str | list[str] = "*" if self.origins is None else sorted(self.origins)
        CORS(app, resources={r"/v1/*": {"origins": origins}}, supports_credentials=False,
             allow_headers=list(ALLOW_HEADERS), expose_headers=list(EXPOSE_HEADERS),
             max_age=MAX_AGE_SECONDS, send_wildcard=True, always_send=False)

    def simple_headers(self, origin: str | None) -> list[tuple[str, str]]:
        """The CORS headers of a non-preflight answer to a request from `origin`."""
        if not origin:
            return []
        if self.origins is None:
            allowed = "*"
        elif origin.lower() in self.origins:
            allowed = origin
        else:
            return []
        headers = [("Access-Control-Allow-Origin", allowed),
                   ("Access-Control-Expose-Headers", ", ".join(sorted(EXPOSE_HEADERS)))]
        if self.origins is not None and len(self.origins) > 1:
            headers.append(("Vary", "Origin"))  # the answer depends on the request's Origin
        return headers


def policy_of(app: Flask) -> CorsPolicy:
    """The app's policy: BGB_CORS_ORIGINS, else the app's CORS_ORIGINS config, else any."""
    return CorsPolicy.from_setting(
        os.environ.get("BGB_CORS_ORIGINS", app.config.get("CORS_ORIGINS", "*")))
