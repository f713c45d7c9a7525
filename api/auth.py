"""Seat credentials: random human tokens (only their sha256 is stored) and derived bot tokens."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

from flask import has_request_context, request

from api import keys
from api.botauth import BotTokenVerifier
from api.problems import Problem, validation_error
from api.seats import SeatStates, seat_of_token

# A player's key: `bgbp_<player id>_<secret>` (api.players), stored as a sha256 only.
PLAYER_KEY = re.compile(r"^bgbp_([A-Za-z0-9]{16})_([A-Za-z0-9_-]{20,64})$")

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


def player_of_key(key: str | None) -> str | None:
    """The id of the player whose key this is, or None (no key, not a player key, a rotated
    key, a deleted player)."""
    if key is None:
        return None
    match = PLAYER_KEY.match(key)
    if match is None:
        return None
    from api.services import services  # the services need the app built first

    player_id = match.group(1)
    stored = services().redis.hget(keys.player(player_id), "key_sha256")
    if stored is None:
        return None
    stored_text = stored.decode() if isinstance(stored, bytes) else stored
    return player_id if hmac.compare_digest(stored_text, token_hash(key)) else None


def asked_seat() -> int | None:
    """The seat the request names (`?seat=N`: which of a player's seats it acts for), None
    when it names none; 422 for a value that is no seat number."""
    if not has_request_context():
        return None
    raw = request.args.get("seat")
    if raw is None:
        return None
    from api.schemas import MAX_SEATS

    if (not raw.isdigit() or len(raw) > 3 or (len(raw) > 1 and raw.startswith("0"))
            or int(raw) >= MAX_SEATS):
        raise validation_error({"query": {"seat": ["not a seat number"]}},
                               "`seat` must be a seat number (0, 1, ...)")
    return int(raw)


def not_your_seat(detail: str) -> Problem:
    """The 403 for a seat the caller does not hold."""
    return Problem(403, "not-your-seat", "Not your seat", detail)


def _seat_of_player(player_id: str, meta: dict[str, Any], states: SeatStates,
                    asked: int | None) -> int:
    """The seat of a game that `player_id` acts for: the one it owns, or the one `asked`
    among several (a hot-seat game); 403 for a seat it does not own, 400 without `?seat`
    when it owns several."""
    mine = sorted(s for s in range(len(meta["seats"]))
                  if states.get(s, {}).get("player") == player_id)
    if asked is not None:
        if asked not in mine:
            raise not_your_seat(f"seat {asked} of this game is not claimed by this player")
        return asked
    if not mine:
        raise not_your_seat("this player owns no seat of this game")
    if len(mine) > 1:
        raise Problem(400, "seat-required", "Seat required",
                      f"this player owns seats {mine} of this game: say which with ?seat=N",
                      seats=mine)
    return mine[0]


def seat_of(token: str, game_id: str, meta: dict[str, Any], bots: BotTokenVerifier,
            states: SeatStates | None = None, *, player_keys: bool = False) -> int:
    """The seat of `game_id` that `token` belongs to (with the seats' changes since the
    creation, `states`: rotated tokens, resigned seats bots took over); 401 if none.

    With `player_keys` (the game's reads, its log, moves and resigning), a player's key
    opens the seats its player owns (`_seat_of_player`, `?seat=N` choosing among several).
    A seat token opens its own seat whatever `?seat` says (as before player keys: a
    replay's `seat` names whose view it shows)."""
    states = states or {}
    if player_keys and PLAYER_KEY.match(token):
        asked = asked_seat()
        player_id = player_of_key(token)
        if player_id is None:
            raise unauthorized("this player key is not valid (rotated, or its player deleted)")
        return _seat_of_player(player_id, meta, states, asked)
    found = seat_of_token(token, game_id, meta, states, bots)
    if found is None:
        raise unauthorized("this token is not a seat token of this game")
    return found
