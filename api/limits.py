"""Abuse is refused, not queued: request rate limits, bot budgets and bot games per creator.

Rate limits use Flask-Limiter on the game store's Redis (so every API process shares the
counts), by category of request:

- game creation, per client address;
- moves, per client address and per seat token (a player's credential until players
  exist);
- reads (game reads and long polls, event streams, the log: each on its own count), per
  client address.

A request over a limit gets 429 problem+json `rate-limited` with `Retry-After`. Requests of
the server's own bot workers (a valid derived bot token) are never limited: bots must keep
their path to the API whatever clients do. Every limit is a Flask-Limiter string such as
"30/minute;300/hour", set by an environment variable (see `SETTINGS`), "off" to disable.

The client address is the connection's peer address; behind a reverse proxy, set
`BGB_TRUSTED_PROXIES` to the number of proxies in front of the API so that the address comes
from X-Forwarded-For (werkzeug's ProxyFix), never from a header a client chose.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import time
from typing import Any

import redis
from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from werkzeug.middleware.proxy_fix import ProxyFix

from api import keys
from api.problems import Problem

log = logging.getLogger(__name__)

# app config key -> (environment variable, default). Limits are Flask-Limiter strings.
SETTINGS: dict[str, tuple[str, Any]] = {
    "RATE_LIMIT_CREATE": ("BGB_RATE_LIMIT_CREATE", "30/minute;300/hour"),
    "RATE_LIMIT_MOVES": ("BGB_RATE_LIMIT_MOVES", "1200/minute"),
    "RATE_LIMIT_MOVES_PER_SEAT": ("BGB_RATE_LIMIT_MOVES_PER_SEAT", "300/minute"),
    "RATE_LIMIT_READS": ("BGB_RATE_LIMIT_READS", "3000/minute"),
    "MAX_BOT_MS": ("BGB_MAX_BOT_MS", 10_000),
    "MAX_BOT_GAMES_PER_CREATOR": ("BGB_MAX_BOT_GAMES_PER_CREATOR", 16),
    "TRUSTED_PROXIES": ("BGB_TRUSTED_PROXIES", 0),
}

# The request rate limits among SETTINGS.
LIMITS = ("RATE_LIMIT_CREATE", "RATE_LIMIT_MOVES", "RATE_LIMIT_MOVES_PER_SEAT",
          "RATE_LIMIT_READS")

# Set in a request's WSGI environ once it is counted (by api.fastlane, which may then hand
# the request on to the app): the app's own hook does not count it twice.
COUNTED = "bgb.rate_limits.counted"

_GAME_PATH = re.compile(r"^/v1/games/([A-Za-z0-9_-]{1,64})(/[a-z]+)?$")


def settings_from_environment() -> dict[str, Any]:
    """The limits' settings: each from its environment variable, else its default."""
    found: dict[str, Any] = {}
    for name, (variable, default) in SETTINGS.items():
        raw = os.environ.get(variable)
        if raw is None or raw.strip() == "":
            found[name] = default
        elif isinstance(default, int):
            found[name] = int(raw)
        else:
            found[name] = raw.strip()
    return found


def client_address() -> str:
    """The caller's address (after ProxyFix, when trusted proxies are configured)."""
    return request.remote_addr or "unknown"


def _seat_key() -> str:
    """A seat token's identity for its own limits (a hash: tokens are never stored)."""
    header = request.headers.get("Authorization", "")
    return "seat:" + hashlib.sha256(header.encode("utf-8", "replace")).hexdigest()[:32]


def _active(limit: str) -> bool:
    return bool(limit) and limit.strip().lower() not in ("off", "none", "0")


def _category(method: str, path: str) -> str | None:
    """Which limits a request counts against: create, move, read, or none (docs, health)."""
    if path in ("/v1/games", "/v1/players") and method == "POST":
        return "create"
    if _GAME_PATH.match(path):
        if method == "POST" and path.endswith("/moves"):
            return "move"
        if method in ("GET", "HEAD"):
            return "read"
    return None


def counts_against(method: str, path: str) -> str | None:
    """The rate limits (create, move, read) a request of `method` on `path` counts against,
    or None: what the OpenAPI document declares a 429 rate-limited answer for."""
    return _category(method.upper(), path)


class Limits:
    """The rate limiter of one app, and the checks of bot budgets and bot games."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.config = app.config
        # With every limit off (a load test, a private server) nothing is counted: no
        # limiter hooks on any request.
        limited = any(_active(str(app.config[name])) for name in LIMITS)
        self.limiter = Limiter(
            enabled=limited,
            key_func=client_address, app=app, storage_uri=app.config["REDIS_URL"],
            storage_options={"socket_timeout": app.config.get("REDIS_TIMEOUT", 0.5),
                             "socket_connect_timeout": app.config.get("REDIS_TIMEOUT", 0.5),
                             "key_prefix": f"{keys.PREFIX}:limits"},
            # Retry-After is set on 429s only, by our problem answer (Flask-Limiter would put
            # it on every answer).
            strategy="moving-window", headers_enabled=False,
            # `check` decides what a fault of the counting does (below).
            swallow_errors=False)
        if not limited:
            return
        # Every count is taken by `check`, by category, with `limiter.limit`: this app has
        # no default or decorated limits, so Flask-Limiter's own hook before every request
        # finds none (it stays: removing it would need Flask-Limiter's private names).
        app.before_request(self.check)

    def _is_bot(self) -> bool:
        """Whether the request carries a bot token of the game in its path: a token derived
        from the server's bot secret, which only the server's own workers hold (any seat's:
        the seats bots play now are checked by the request itself; this needs no read)."""
        header = request.headers.get("Authorization", "")
        match = _GAME_PATH.match(request.path)
        if not header.lower().startswith("bearer ") or match is None:
            return False
        from api.services import services  # the services need the app built first

        svc = services()
        game_id = match.group(1)
        meta = svc.store.meta(game_id)  # a RedisError: see `check`
        if meta is None:
            return False
        token = header.strip()[len("bearer "):].strip()
        seats = list(range(len(meta["seats"])))
        return svc.bot_tokens.seat_of(token, game_id, seats) is not None

    def check(self) -> None:
        """Count the current request against its category's limits (a hook before every
        request; api.fastlane calls it for the requests it answers); 429 over a limit. A
        request counted already (COUNTED in its environ) is not counted again.

        Redis not answering (a RedisError) is raised at once: every request counted here
        needs the game store, so the app answers its 503 now, after one timeout rather than
        one for the count and another in the view. Any other fault of the counting is
        logged and the request goes on uncounted: counting must not take the API down."""
        if not self.limiter.enabled or request.environ.get(COUNTED):
            return
        category = _category(request.method, request.path)
        if category is None:
            return
        checks: list[tuple[str, str, Any]] = []
        if category == "create":
            checks.append((self.config["RATE_LIMIT_CREATE"], "create", client_address))
        elif category == "move":
            checks.append((self.config["RATE_LIMIT_MOVES"], "moves", client_address))
            if request.headers.get("Authorization"):
                checks.append((self.config["RATE_LIMIT_MOVES_PER_SEAT"], "moves-per-seat",
                               _seat_key))
        else:
            checks.append((self.config["RATE_LIMIT_READS"], "reads", client_address))
        self._hit(checks)

    def charge_reads(self, cost: int) -> None:
        """Count `cost` more reads of the current request against the read limit (a replay
        that made the server replay many moves, api.replays); 429 over the limit."""
        if self.limiter.enabled and cost > 0:
            self._hit([(self.config["RATE_LIMIT_READS"], "reads", client_address)], cost)

    def _hit(self, checks: list[tuple[str, str, Any]], cost: int = 1) -> None:
        """Count the current request `cost` times against each (limit, scope, key) of
        `checks`; 429 over one (see `check` for Redis faults)."""
        checks = [c for c in checks if _active(str(c[0]))]
        if not checks or self._is_bot():
            return
        for limit, scope, key_func in checks:
            try:
                with self.limiter.limit(limit, scope=scope, key_func=key_func, cost=cost):
                    pass
            except RateLimitExceeded as exc:
                current = self.limiter.current_limit
                wait = max(1, int(current.reset_at - time.time())) if current else 1
                raise Problem(429, "rate-limited", "Too many requests",
                              f"over the limit of {exc.description} for {scope} "
                              f"(see the README's rate limits); retry after {wait} s",
                              headers={"Retry-After": str(wait)}, retry_after=wait) from None
            except redis.RedisError:
                raise
            except Exception:
                log.exception("a request was not counted against its rate limit")

    def check_bot_budget(self, seat: int, params: dict[str, Any]) -> str | None:
        """Why a bot seat's parameters ask more time than the ceiling allows, or None."""
        ceiling = int(self.config["MAX_BOT_MS"])
        ms = params.get("ms")
        if isinstance(ms, int) and not isinstance(ms, bool) and ms > ceiling:
            return (f"seat {seat}: ms {ms} is over this server's ceiling of {ceiling} ms a "
                    f"decision (BGB_MAX_BOT_MS)")
        return None

    def check_bot_games(self, client: redis.Redis, creator: str) -> None:
        """429 when `creator` already has the most games with search bots in progress."""
        ceiling = int(self.config["MAX_BOT_GAMES_PER_CREATOR"])
        if ceiling <= 0:
            return
        key = keys.creator_bot_games(creator)
        game_ids = [g.decode() if isinstance(g, bytes) else g for g in client.smembers(key)]
        if len(game_ids) < ceiling:
            return
        pipe = client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(keys.game_state(game_id), "status")
        statuses = pipe.execute()
        over = [g for g, status in zip(game_ids, statuses, strict=True)
                if status is None or status != b"active"]
        if over:
            client.srem(key, *over)
        if len(game_ids) - len(over) >= ceiling:
            raise Problem(429, "too-many-bot-games", "Too many bot games",
                          f"this client already has {ceiling} games with bot seats in progress "
                          "(BGB_MAX_BOT_GAMES_PER_CREATOR); finish or abort one first",
                          headers={"Retry-After": "30"}, retry_after=30)

    def count_bot_game(self, client: redis.Redis, creator: str, game_id: str) -> None:
        """Remember a new game with search bots for its creator's ceiling."""
        key = keys.creator_bot_games(creator)
        pipe = client.pipeline(transaction=False)
        pipe.sadd(key, game_id)
        pipe.expire(key, 7 * 24 * 3600)
        pipe.execute()


def current() -> Limits:
    """The limits of the current app."""
    return current_app.extensions["bgb-limits"]


def install(app: Flask) -> Limits:
    """Rate limits on `app` (and ProxyFix when proxies are trusted)."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    limits = Limits(app)
    app.extensions["bgb-limits"] = limits
    return limits
