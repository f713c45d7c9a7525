"""Every script of a game runs on keys of one hash slot: a game played through the API on
a Redis Cluster (a script on two slots would be refused CROSSSLOT), every script call
recorded and its keys' slots compared."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
import redis
from flask import Flask

from api import keys as key_names
from api import store
from api.redis_conn import GameScript
from tests.api.conftest import create, move

pytestmark = pytest.mark.cluster


def test_every_game_script_touches_one_slot(cluster_app: Flask,
                                            cluster_client: redis.RedisCluster,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, tuple[Any, ...]]] = []
    names = {text: name for name, text in vars(store).items()
             if name.startswith("_") and isinstance(text, str) and "KEYS" in text}
    real = GameScript.__call__

    def recorded(self: GameScript, keys: Sequence[Any], args: Sequence[Any],
                 durable: bool = False) -> Any:
        calls.append((names.get(self.text, "get"), tuple(keys)))
        return real(self, keys, args, durable)

    monkeypatch.setattr(GameScript, "__call__", recorded)
    client = cluster_app.test_client()
    human = create(client, clock={"per_move": 86400, "on_timeout": "bot"},
                   seats=[{"kind": "human"}, {"kind": "human"}])
    assert move(client, human, 0, 0, **{"Idempotency-Key": "k1"}).status_code == 200
    assert move(client, human, 0, 0, **{"Idempotency-Key": "k1"}).status_code == 200  # replay
    resigned = client.post(f"/v1/games/{human.id}/resign", headers=human.auth(1), json={})
    assert resigned.status_code == 200, resigned.get_json()
    with_bot = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert move(client, with_bot, 0, 0).status_code == 200
    assert client.get(f"/v1/games/{with_bot.id}").status_code == 200

    used = {name for name, _ in calls}
    assert {"_CREATE", "_READ", "_COMMIT", "_MARK", "get"} <= used, used
    for name, script_keys in calls:
        slots = {cluster_client.keyslot(key) for key in script_keys}
        assert len(slots) == 1, (name, script_keys)
    # The global indexes are written ahead, outside the game's slot (docs/scaling.md).
    assert cluster_client.zscore(key_names.bot_turns(), with_bot.id) is not None
    assert cluster_client.zscore(key_names.clock_deadlines(), human.id) is not None
