"""Derived credentials of bot seats (ai_worker may import this module).

A bot seat's token is never stored: it is hex HMAC-SHA256(bot_secret, f"{game_id}:{seat}"),
where bot_secret is env BGB_BOT_SECRET or, if unset, a random secret created once in Redis
at keys.bot_secret() (SET NX, so every process agrees on the first one written).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

import redis

from api import keys

ENV_SECRET = "BGB_BOT_SECRET"


def bot_secret(client: redis.Redis) -> bytes:
    """The secret bot tokens are derived from (env BGB_BOT_SECRET, else the one in Redis)."""
    configured = os.environ.get(ENV_SECRET)
    if configured:
        return configured.encode("utf-8")
    stored = client.get(keys.bot_secret())
    if stored is None:
        client.set(keys.bot_secret(), secrets.token_hex(32), nx=True)
        stored = client.get(keys.bot_secret())
    if isinstance(stored, str):
        return stored.encode("utf-8")
    return bytes(stored)


def derive(secret: bytes, game_id: str, seat: int) -> str:
    """The token of `seat` in `game_id` under `secret`."""
    return hmac.new(secret, f"{game_id}:{seat}".encode(), hashlib.sha256).hexdigest()


def bot_token(client: redis.Redis, game_id: str, seat: int) -> str:
    """The bearer token a bot playing `seat` of `game_id` presents to the API."""
    return derive(bot_secret(client), game_id, seat)


class BotTokenVerifier:
    """Checks bot tokens with a per-process cached secret, re-read once on a mismatch.

    The re-read covers a secret created or replaced after this process cached it (a flushed
    test database, a first start racing another process).
    """

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._secret: bytes | None = None

    def seat_of(self, token: str, game_id: str, seats: list[int]) -> int | None:
        """The bot seat among `seats` whose derived token is `token`, or None."""
        if not seats:
            return None
        if self._secret is None:
            self._secret = bot_secret(self._client)
        found = _match(self._secret, token, game_id, seats)
        if found is None:
            fresh = bot_secret(self._client)
            if fresh != self._secret:
                self._secret = fresh
                found = _match(fresh, token, game_id, seats)
        return found


def _match(secret: bytes, token: str, game_id: str, seats: list[int]) -> int | None:
    # Compared as bytes: compare_digest refuses a str with non-ASCII characters (TypeError).
    presented = token.encode("utf-8", "replace")
    for seat in seats:
        if hmac.compare_digest(derive(secret, game_id, seat).encode("ascii"), presented):
            return seat
    return None
