"""What changes about a game's seats after its creation: rotated tokens, owners, resignations.

A game's metadata (seats, tokens, bots) never changes, and every process caches it. What may
change is kept beside it, in the game's seats hash (`keys.game_seats`): per seat, a rotated
token's hash, the player who owns the seat, whether it resigned and which bot plays it since.
Every request that authenticates a seat reads it (one HGETALL), so a rotation or resignation
holds in every process at once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import redis

from api import keys
from api.botauth import BotTokenVerifier
from api.problems import Problem

SeatStates = dict[int, dict[str, Any]]


def seat_states(client: redis.Redis, game_id: str) -> SeatStates:
    """Every seat's changes since the game's creation (empty for an unchanged game)."""
    raw = client.hgetall(keys.game_seats(game_id))
    return {int(seat): json.loads(value) for seat, value in raw.items()}


def update_seat(client: redis.Redis, game_id: str, seat: int, **changes: Any) -> None:
    """Merge `changes` into one seat's state (a WATCH transaction: concurrent updates of
    other fields of the same seat are never lost)."""
    key = keys.game_seats(game_id)
    with client.pipeline(transaction=True) as pipe:  # one slot: also on a cluster
        while True:
            try:
                pipe.watch(key)
                current = pipe.hget(key, str(seat))
                state = json.loads(current) if current else {}
                state.update(changes)
                pipe.multi()
                pipe.hset(key, str(seat), json.dumps(state, separators=(",", ":")))
                pipe.execute()
                break
            except redis.WatchError:
                continue
    # The seats expire with the game (see the store's retention).
    ttl = client.pttl(keys.game_state(game_id))
    if ttl and ttl > 0:
        client.pexpire(key, ttl)


def effective_seat(meta: dict[str, Any], states: SeatStates, seat: int) -> dict[str, Any]:
    """Who plays `seat` now: its creation spec, or the bot that took over after it resigned."""
    spec = meta["seats"][seat]
    taken = states.get(seat, {}).get("bot")
    if taken:
        return {"seat": seat, "kind": "bot", "bot": taken["bot"],
                "params": taken.get("params", {})}
    return spec


def bot_seats(meta: dict[str, Any], states: SeatStates) -> list[int]:
    """The seats bots play now."""
    return [s for s in range(len(meta["seats"]))
            if effective_seat(meta, states, s)["kind"] == "bot"]


def token_digest(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_of_token(token: str, game_id: str, meta: dict[str, Any], states: SeatStates,
                  bots: BotTokenVerifier) -> int | None:
    """The seat `token` opens (a human seat's current token, or a bot seat's derived token),
    or None. A rotated token replaces the seat's original one."""
    digest = token_digest(token)
    found: int | None = None
    for seat in meta["seats"]:
        number = seat["seat"]
        stored = states.get(number, {}).get("token_sha256") or seat.get("token_sha256")
        # Every human seat is compared (no early exit) so timing does not tell which matched.
        if stored is not None and hmac.compare_digest(stored, digest):
            found = number
    if found is not None:
        return found
    return bots.seat_of(token, game_id, bot_seats(meta, states))


def owner(states: SeatStates, seat: int) -> str | None:
    """The id of the player who owns `seat`, if any."""
    return states.get(seat, {}).get("player")


def resigned(states: SeatStates) -> list[int]:
    """The seats that resigned, in seat order."""
    return sorted(s for s, state in states.items() if state.get("resigned"))


def assisted(states: SeatStates) -> list[int]:
    """The seats that asked for a hint (api.hints), in seat order."""
    return sorted(s for s, state in states.items() if state.get("assisted"))


def adjusted_result(result: dict[str, Any] | None, states: SeatStates,
                    ended_by_resignation: bool) -> dict[str, Any] | None:
    """The game's result with its resigned seats ranked last (in the order they resigned
    among themselves is not known: seat order), and who resigned."""
    gone = resigned(states)
    helped = assisted(states)
    if result is None or not (gone or helped):
        return result
    out = dict(result)
    if helped:
        out["assisted"] = helped
    if not gone:
        return out
    ranking = [s for s in (result.get("ranking") or []) if s not in gone]
    out["ranking"] = ranking + gone
    out["resigned"] = gone
    if isinstance(result.get("places"), list):
        out["places"] = [out["ranking"].index(s) + 1 for s in range(len(result["places"]))]
    if ended_by_resignation:
        out["finished"] = True
        out["ended_by"] = "resignation"
        out["winners"] = ranking[:1]
    return out


def require_owner(states: SeatStates, seat: int, player_id: str) -> None:
    """403 unless `player_id` owns `seat`."""
    if owner(states, seat) != player_id:
        raise Problem(403, "not-your-seat", "Not your seat",
                      f"seat {seat} of this game is not claimed by this player")
