"""The analysis record of a game in Redis (written by the API and the analysis job; ai_worker
may import this module): JSON under `keys.game_analysis`, expiring with the game."""

from __future__ import annotations

import json
from typing import Any

import redis

from api import keys


def store(client: redis.Redis, game_id: str, record: dict[str, Any]) -> None:
    """Write the record with the game's own remaining lifetime (none when the game has none:
    kept as long as it)."""
    ttl = client.pttl(keys.game_state(game_id))
    text = json.dumps(record, separators=(",", ":"))
    if isinstance(ttl, int) and ttl > 0:
        client.set(keys.game_analysis(game_id), text, px=ttl)
    else:
        client.set(keys.game_analysis(game_id), text)


def load(client: redis.Redis, game_id: str) -> dict[str, Any] | None:
    """The analysis record of a game, if one was asked for."""
    raw = client.get(keys.game_analysis(game_id))
    return None if raw is None else json.loads(raw)
