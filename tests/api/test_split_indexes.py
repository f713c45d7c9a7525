"""The global indexes as a cluster keeps them (api.store `split_indexes`), on one node: written
ahead of the commit, never removed by the API, checked by the sweepers against the game."""

from __future__ import annotations

import time

import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import Queue

from ai_worker import clocks, sweeper
from api import keys
from tests.api.conftest import create, move


def _split(app: Flask) -> None:
    app.extensions["bgb"].store.split_indexes = True


def test_a_bot_turn_is_indexed_ahead_and_a_stale_one_dropped_by_the_sweeper(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    _split(app)
    with_bot = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert move(client, with_bot, 0, 0).status_code == 200
    assert redis_client.zscore(keys.bot_turns(), with_bot.id) is not None  # a bot acts next
    humans = create(client)
    assert move(client, humans, 0, 0).status_code == 200
    # An entry a failed or overtaken write left: a human is to act.
    redis_client.zadd(keys.bot_turns(), {humans.id: time.time() - 60})
    keeper = sweeper.Sweeper(redis_client)
    keeper.store.split_indexes = True
    assert keeper.sweep_once(now=time.time() + 10, elect=False) == []
    assert redis_client.zscore(keys.bot_turns(), humans.id) is None  # dropped
    assert redis_client.zscore(keys.bot_turns(), with_bot.id) is not None  # kept: its job waits
    assert Queue("bots", connection=redis_client).job_ids == [f"play-{with_bot.id}-1"]


def test_a_wrong_deadline_entry_is_set_right_by_the_clock_sweeper(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    _split(app)
    created = create(client, clock={"per_move": 3600, "on_timeout": "bot"})
    assert move(client, created, 0, 0).status_code == 200
    store = app.extensions["bgb"].store
    real = int(store.head(created.id).clock["deadline_ms"])
    assert redis_client.zscore(keys.clock_deadlines(), created.id) == real  # written ahead
    now_ms = int(time.time() * 1000)
    redis_client.zadd(keys.clock_deadlines(), {created.id: now_ms - 1000})  # an overtaken write
    assert clocks.sweep_clocks(store, Queue("bots", connection=redis_client), now_ms) == []
    assert redis_client.zscore(keys.clock_deadlines(), created.id) == real
    assert store.head(created.id).version == 1  # nobody timed out
