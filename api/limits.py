"""Abuse is refused, not queued: request rate limits, bot budgets and bot games per creator.

Rate limits use Flask-Limiter on the game store's Redis (so every API process shares the
counts), by category of request:

- game creation, per client;
- moves, per client and per seat token (a player's credential until players exist);
- reads (game reads and long polls, event streams, the log: each on its own count), per
  client;
- every other request (the catalog, the OpenAPI document, /healthz, the docs and pages,
  players, tournaments, webhooks), per client, with a high limit: cheap requests, but no
  request is free of a count.

A client is its address, an IPv6 address grouped by its /64 (`api.connections.client_group`):
one host or network gets a whole /64, and would otherwise have as many clients as it likes.
An IPv4 address is a client of its own (a /24 may be many unrelated customers of one
provider; a NAT is one address already).

A client over a limit is refused from this process's memory until its window frees a
place (`Limits.check`): a flood of refused requests costs no Redis round trip, so it slows
other clients' requests as little as possible.

A request over a limit gets 429 problem+json `rate-limited` with `Retry-After`. Every counted
answer carries Flask-Limiter's headers (`headers_enabled`) of the limit it counted against
last: `X-RateLimit-Limit` (the requests the window allows), `X-RateLimit-Remaining` and
`X-RateLimit-Reset` (the Unix time the window frees a place); `Retry-After` only on a 429
(Flask-Limiter would put it on every answer, where it means nothing). They cost one more
Redis read per request (the window's count): `BGB_RATE_LIMIT_HEADERS=off` leaves them out.
Requests of the server's own bot workers (a valid derived bot token) are never limited: bots
must keep their path to the API whatever clients do. Every limit is a Flask-Limiter string
such as "30/minute;300/hour", set by an environment variable (see `SETTINGS`), "off" to
disable.

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
from flask import Flask, Response, current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from werkzeug.middleware.proxy_fix import ProxyFix

from api import keys
from api.connections import client_group
from api.lean_script import retry_policy
from api.problems import Problem
from api.redis_conn import Topology, cluster_nodes

log = logging.getLogger(__name__)

# app config key -> (environment variable, default). Limits are Flask-Limiter strings.
SETTINGS: dict[str, tuple[str, Any]] = {
    "RATE_LIMIT_CREATE": ("BGB_RATE_LIMIT_CREATE", "30/minute;300/hour"),
    "RATE_LIMIT_MOVES": ("BGB_RATE_LIMIT_MOVES", "1200/minute"),
    "RATE_LIMIT_MOVES_PER_SEAT": ("BGB_RATE_LIMIT_MOVES_PER_SEAT", "300/minute"),
    "RATE_LIMIT_READS": ("BGB_RATE_LIMIT_READS", "3000/minute"),
    "RATE_LIMIT_OTHER": ("BGB_RATE_LIMIT_OTHER", "6000/minute"),
    "RATE_LIMIT_HEADERS": ("BGB_RATE_LIMIT_HEADERS", "on"),
    "MAX_BOT_MS": ("BGB_MAX_BOT_MS", 10_000),
    "MAX_BOT_GAMES_PER_CREATOR": ("BGB_MAX_BOT_GAMES_PER_CREATOR", 16),
    "TRUSTED_PROXIES": ("BGB_TRUSTED_PROXIES", 0),
}

# The request rate limits among SETTINGS.
LIMITS = ("RATE_LIMIT_CREATE", "RATE_LIMIT_MOVES", "RATE_LIMIT_MOVES_PER_SEAT",
          "RATE_LIMIT_READS", "RATE_LIMIT_OTHER")

# The X-RateLimit headers of a counted request, in its WSGI environ (`Limits._hit`): the
# app's answer carries them, and so does the fast lane's (in its own request context), or the
# app's if the lane hands the request on (the app does not count it again).
HEADERS = "bgb.rate_limits.headers"
LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")

# Set in a request's WSGI environ once it is counted (by api.fastlane, which may then hand
# the request on to the app): the app's own hook does not count it twice.
COUNTED = "bgb.rate_limits.counted"

# Redis connections of the rate limiter's counts, per process (app config REDIS_CONNECTIONS,
# as the game store's): a request waits for one at most BGB_REDIS_TIMEOUT, then answers 503.
LIMITER_CONNECTIONS = 256
# Clients over a limit remembered at most (past it, the lapsed ones are forgotten, or all).
REFUSED_REMEMBERED = 10_000

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
    """The calling client: its address (after ProxyFix, when trusted proxies are
    configured), an IPv6 address's /64."""
    return client_group(request.remote_addr)


def _seat_key() -> str:
    """A seat token's identity for its own limits (a hash: tokens are never stored)."""
    header = request.headers.get("Authorization", "")
    return "seat:" + hashlib.sha256(header.encode("utf-8", "replace")).hexdigest()[:32]


def _active(limit: str) -> bool:
    return bool(limit) and limit.strip().lower() not in ("off", "none", "0")


def _category(method: str, path: str) -> str:
    """Which limits a request counts against: create, move, read, or other (everything
    else: the catalog, documents, health, players, tournaments)."""
    if path in ("/v1/games", "/v1/players") and method == "POST":
        return "create"
    if _GAME_PATH.match(path):
        if method == "POST" and path.endswith("/moves"):
            return "move"
        if method in ("GET", "HEAD"):
            return "read"
    return "other"


def counts_against(method: str, path: str) -> str | None:
    """The rate limits (create, move, read, other) a request of `method` on `path` counts
    against: what the OpenAPI document declares a 429 rate-limited answer for (every
    request)."""
    return _category(method.upper(), path)


def _over(scope: str, description: str, seconds: float) -> Problem:
    """The 429 answer to a client over the limit `description` of `scope` for `seconds`."""
    wait = max(1, int(seconds))
    return Problem(429, "rate-limited", "Too many requests",
                   f"over the limit of {description} for {scope} "
                   f"(see docs/operating-limits.md); retry after {wait} s",
                   headers={"Retry-After": str(wait)}, retry_after=wait)


def _request_identity() -> str:
    """The name a request is counted under: its endpoint, or "unrouted" without one."""
    return request.endpoint or "unrouted"


class Limits:
    """The rate limiter of one app, and the checks of bot budgets and bot games."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.config = app.config
        # (limit, scope@endpoint, client) -> (until when it is over the limit, its text, the
        # requests its window allows).
        self._refused: dict[tuple[str, str, str], tuple[float, str, int]] = {}
        # With every limit off (a load test, a private server) nothing is counted: no
        # limiter hooks on any request.
        limited = any(_active(str(app.config[name])) for name in LIMITS)
        timeout = float(app.config.get("REDIS_TIMEOUT", 0.5))
        # A blocking pool, as the game store's (api.services): a burst of thousands of
        # requests at once (gevent) queues for a bounded number of Redis connections instead
        # of opening one each, which costs Redis and every request far more than the count.
        topology = Topology.of(app.config["REDIS_URL"],
                               str(app.config.get("REDIS_CLUSTER") or ""),
                               str(app.config.get("QUEUE_URL") or ""))
        storage_uri = app.config["REDIS_URL"]
        options: dict[str, Any] = {"key_prefix": f"{keys.PREFIX}:limits"}
        if topology.cluster:
            # limits' own cluster storage (its redis-py RedisCluster): one counter a key.
            storage_uri = "redis+cluster://" + ",".join(
                f"{node.host}:{node.port}" for node in cluster_nodes(topology.games_url))
            options.update(socket_timeout=timeout, socket_connect_timeout=timeout)
        else:
            options["connection_pool"] = redis.BlockingConnectionPool.from_url(
                app.config["REDIS_URL"],
                max_connections=int(app.config.get("REDIS_CONNECTIONS", LIMITER_CONNECTIONS)),
                timeout=timeout,
                socket_timeout=timeout, socket_connect_timeout=timeout, retry=retry_policy())
        self.headers = limited and _active(str(app.config.get("RATE_LIMIT_HEADERS", "on")))
        app.after_request(self._finish_headers)
        self.limiter = Limiter(
            enabled=limited,
            key_func=client_address, app=app, storage_uri=storage_uri, storage_options=options,
            # X-RateLimit-* are written by `_finish_headers` from the window `_hit` read with
            # the count: Flask-Limiter's own hook reads it after the view, where a Redis lost
            # meanwhile made the view's answer a 500 (issue 27's Redis kill).
            strategy="moving-window", headers_enabled=False,
            # `check` decides what a fault of the counting does (below).
            swallow_errors=False,
            # A request that matches no route (404, 405) is counted too, under its own name:
            # Flask-Limiter exempts a request whose identity is empty, and the default
            # identity is the endpoint, which such a request has none of.
            request_identifier=_request_identity)
        if not limited:
            return
        # Every count is taken by `check`, by category, with `limiter.limit`: this app has
        # no default or decorated limits, so Flask-Limiter's own hook before every request
        # finds none (it stays: removing it would need Flask-Limiter's private names).
        app.before_request(self.check)

    def _finish_headers(self, response: Response) -> Response:
        """An answer's rate-limit headers: the ones its count found (`_hit`), unless it has
        its own (a 429's); Retry-After stays only on the answers it means something on (429,
        503)."""
        found = request.environ.get(HEADERS)
        if found and "X-RateLimit-Limit" not in response.headers:
            for name, value in found:
                response.headers[name] = value
        if response.status_code not in (429, 503):
            response.headers.pop("Retry-After", None)
        return response

    def lane_headers(self) -> list[tuple[str, str]]:
        """The X-RateLimit headers of the limit the current request counted against last, as
        Flask-Limiter would write them (a Redis read of the limit's window)."""
        if not self.headers:
            return []
        current = self.limiter.current_limit
        if current is None:
            return []
        return list(zip(LIMIT_HEADERS, (str(current.limit.amount), str(current.remaining),
                                        str(current.reset_at)), strict=True))

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

        A client found over a limit is refused from memory until the limit's window frees a
        place (nothing can free one sooner): its flood of retries costs no Redis round trip.

        Redis not answering (a RedisError) is raised at once for a game's requests: they
        need the game store, so the app answers its 503 now, after one timeout rather than
        one for the count and another in the view; the other requests (the catalog, health,
        documents) go on uncounted. Any other fault of the counting is logged and the
        request goes on uncounted: counting must not take the API down."""
        if not self.limiter.enabled or request.environ.get(COUNTED):
            return
        category = _category(request.method, request.path)
        checks: list[tuple[str, str, Any]] = []
        if category == "create":
            checks.append((self.config["RATE_LIMIT_CREATE"], "create", client_address))
        elif category == "move":
            checks.append((self.config["RATE_LIMIT_MOVES"], "moves", client_address))
            if request.headers.get("Authorization"):
                checks.append((self.config["RATE_LIMIT_MOVES_PER_SEAT"], "moves-per-seat",
                               _seat_key))
        elif category == "read":
            checks.append((self.config["RATE_LIMIT_READS"], "reads", client_address))
        else:
            checks.append((self.config["RATE_LIMIT_OTHER"], "other", client_address))
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
        now = time.time()
        for limit, scope, key_func in checks:
            # Flask-Limiter counts each endpoint on its own (a game's reads, its log, its
            # events), and so does the memory of refusals.
            known = (limit, f"{scope}@{request.endpoint}", key_func())
            refused = self._refused.get(known)
            if refused is not None and now < refused[0]:
                problem = _over(scope, refused[1], refused[0] - now)
                if self.headers:
                    problem.headers.update(zip(LIMIT_HEADERS, (
                        str(refused[2]), "0", str(int(refused[0]))), strict=True))
                raise problem
            try:
                with self.limiter.limit(limit, scope=scope, key_func=key_func, cost=cost):
                    pass
            except RateLimitExceeded as exc:
                current = self.limiter.current_limit
                until = current.reset_at if current else now + 1
                amount = current.limit.amount if current else 0
                self._remember(known, until, str(exc.description), amount)
                problem = _over(scope, str(exc.description), until - now)
                if self.headers:
                    # Written here too: the fast lane answers its 429 in another request
                    # context, where Flask-Limiter has no count (`_finish_headers` keeps one).
                    problem.headers.update(zip(LIMIT_HEADERS, (
                        str(amount), "0", str(int(until))), strict=True))
                raise problem from None
            except redis.RedisError:
                if scope != "other":  # a game's request needs Redis anyway: 503 now
                    raise
                log.warning("a request was not counted: Redis does not answer")
            except Exception:
                log.exception("a request was not counted against its rate limit")
        if self.headers:
            # The window read now, a Redis fault handled as the count's (`check`).
            try:
                request.environ[HEADERS] = self.lane_headers()
            except redis.RedisError:
                if checks[-1][1] != "other":
                    raise
                log.warning("a request's rate-limit headers were left out: Redis does not "
                            "answer")

    def _remember(self, known: tuple[str, str, str], until: float, description: str,
                  amount: int) -> None:
        """Refuse `known` (limit, scope@endpoint, client) from memory until `until`."""
        if len(self._refused) >= REFUSED_REMEMBERED:
            now = time.time()
            for stale in [k for k, (end, _, _) in self._refused.items() if end <= now]:
                self._refused.pop(stale, None)
            if len(self._refused) >= REFUSED_REMEMBERED:
                self._refused.clear()  # a flood from that many clients: start afresh
        self._refused[known] = (until, description, amount)

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
