"""The analysis and hint records of a game in Redis (written by the API and the worker's
jobs; ai_worker may import this module): JSON under `keys.game_analysis` and
`keys.game_hint`, expiring with the game."""

from __future__ import annotations

import json
from typing import Any

import redis

from api import keys


def _store(client: redis.Redis, game_id: str, key: str, record: dict[str, Any]) -> None:
    """Write `record` under `key` with the game's own remaining lifetime (none when the game
    has none: kept as long as it)."""
    ttl = client.pttl(keys.game_state(game_id))
    text = json.dumps(record, separators=(",", ":"))
    if isinstance(ttl, int) and ttl > 0:
        client.set(key, text, px=ttl)
    else:
        client.set(key, text)


def _load(client: redis.Redis, key: str) -> dict[str, Any] | None:
    raw = client.get(key)
    return None if raw is None else json.loads(raw)


def store(client: redis.Redis, game_id: str, record: dict[str, Any]) -> None:
    """Write a game's analysis record."""
    _store(client, game_id, keys.game_analysis(game_id), record)


def load(client: redis.Redis, game_id: str) -> dict[str, Any] | None:
    """The analysis record of a game, if one was asked for."""
    return _load(client, keys.game_analysis(game_id))


def store_hint(client: redis.Redis, game_id: str, seat: int, record: dict[str, Any]) -> None:
    """Write a seat's hint record."""
    _store(client, game_id, keys.game_hint(game_id, seat), record)


def load_hint(client: redis.Redis, game_id: str, seat: int) -> dict[str, Any] | None:
    """A seat's last hint record, if it asked for one."""
    return _load(client, keys.game_hint(game_id, seat))
