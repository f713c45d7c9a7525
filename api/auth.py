"""Seat credentials: random human tokens (only their sha256 is stored) and derived bot tokens."""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from flask import request

from api.botauth import BotTokenVerifier
from api.problems import Problem
from api.seats import SeatStates, seat_of_token

MAX_TOKEN_LENGTH = 256
# RFC 6750's b64token: every token this server issues (url-safe base64, hex) has this form.
_TOKEN = re.compile(r"[A-Za-z0-9._~+/-]+=*")


def new_human_token() -> tuple[str, str]:
    """A fresh secret seat token and the sha256 hex digest that is stored instead of it.

    Never starting with "-": a command line would read it as an option (`bgb resign GAME
    --token -x...` failed for one token in 64, as game ids once did: api.creation)."""
    token = secrets.token_urlsafe(32)
    while token.startswith("-"):
        token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    """The stored form of a human seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def unauthorized(detail: str) -> Problem:
    """A 401 asking for a seat token."""
    return Problem(401, "unauthorized", "Unauthorized", detail,
                   headers={"WWW-Authenticate": 'Bearer realm="boardgamesbot"'})


def bearer_token() -> str | None:
    """The request's bearer token, None without an Authorization header; 401 if malformed."""
    return bearer_of(request.headers.get("Authorization"))


def bearer_of(header: str | None) -> str | None:
    """The bearer token of an Authorization header's value, None without one; 401 if
    malformed."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if (scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_LENGTH
            or not _TOKEN.fullmatch(token)):
        raise unauthorized("the Authorization header must be 'Bearer <seat token>'")
    return token


def seat_of(token: str, game_id: str, meta: dict[str, Any], bots: BotTokenVerifier,
            states: SeatStates | None = None) -> int:
    """The seat of `game_id` that `token` belongs to (with the seats' changes since the
    creation, `states`: rotated tokens, resigned seats bots took over); 401 if none."""
    found = seat_of_token(token, game_id, meta, states or {}, bots)
    if found is None:
        raise unauthorized("this token is not a seat token of this game")
    return found
