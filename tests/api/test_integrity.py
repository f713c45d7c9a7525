"""What the server holds stays true: a lost write in Redis is never papered over by a
process's cache, and a move matches a legal move by JSON type as well as value (issue 18)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

import core
from api import create_app, keys
from tests.api.conftest import NO_RATE_LIMITS, create, move, problem


def _replay(redis_client: redis.Redis, game_id: str) -> dict[str, Any]:
    """The game rebuilt from its stored seed and move log, dumped."""
    meta = json.loads(redis_client.get(keys.game_meta(game_id)))
    game = core.get_game(meta["game"])
    state = game.new_game(meta["options"], meta["seed"])
    for raw in redis_client.lrange(keys.move_log(game_id), 0, -1):
        game.apply(state, json.loads(raw)["move"])
    return game.dump(state)


def test_a_lost_write_is_not_served_from_a_process_cache(
        app: Flask, redis_client: redis.Redis, redis_url: str) -> None:
    first = app.test_client()   # one API process
    # another process:
    other = create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS}).test_client()
    created = create(first, players=2)
    assert move(first, created, 0, 0).status_code == 200
    # Redis as it was at version 1: what a lagging replica or a backup would hold.
    state_key, log_key = keys.game_state(created.id), keys.move_log(created.id)
    saved_state = redis_client.hgetall(state_key)
    # The first process stores version 2 (seat 1 draws) and caches it.
    assert move(first, created, 1, 1).status_code == 200
    # The write is lost behind the server's back: Redis is at version 1 again ...
    redis_client.delete(state_key)
    redis_client.hset(state_key, mapping=saved_state)
    redis_client.ltrim(log_key, 0, 0)
    # ... and another process stores a different version 2 (seat 1 stops).
    assert move(other, created, 1, 1, "stop").status_code == 200
    # The first process must serve what Redis holds, not its cached version 2.
    mine = first.get(f"/v1/games/{created.id}", headers=created.auth(1)).get_json()
    theirs = other.get(f"/v1/games/{created.id}", headers=created.auth(1)).get_json()
    assert mine["version"] == theirs["version"] == 2
    assert mine["view"] == theirs["view"]
    assert mine["view"]["stopped"][1] is True
    # A move accepted against it keeps the log replayable.
    assert move(first, created, 0, 2).status_code == 200
    stored = json.loads(redis_client.hget(state_key, "snapshot"))
    assert _replay(redis_client, created.id) == stored


def _spelled_otherwise(value: Any) -> list[Any]:
    """Values Python's == takes for `value` that are other JSON."""
    if value is True:
        return [1, 1.0]
    if value is False:
        return [0, 0.0]
    if type(value) is int:
        return [float(value)] + ([True] if value == 1 else []) + ([False] if value == 0 else [])
    return []


def test_moves_match_by_json_type_and_value(client: FlaskClient) -> None:
    """`true` is not 1 and 4.0 is not 4, though Python's == says so."""
    created = create(client, game="darwins-journey", players=2)
    body = client.get(f"/v1/games/{created.id}", headers=created.auth(0)).get_json()
    tried = 0
    for legal in body["legal_moves"][:3]:
        canonical = {k: v for k, v in legal.items() if k != "label"}
        for field, value in canonical.items():
            for other in _spelled_otherwise(value):
                response = client.post(f"/v1/games/{created.id}/moves",
                                       json={"move": dict(canonical, **{field: other}),
                                             "version": 0},
                                       headers=created.auth(0))
                problem(response, 422, "illegal-move")
                tried += 1
    assert tried >= 2
    assert client.get(f"/v1/games/{created.id}").get_json()["version"] == 0


def test_same_json_is_strict() -> None:
    assert core.contract.same_json({"a": [1, {"b": 2}]}, {"a": (1, {"b": 2})})
    assert not core.contract.same_json({"a": 1}, {"a": True})
    assert not core.contract.same_json({"a": 4}, {"a": 4.0})
    assert not core.contract.same_json({"a": 1}, {"a": 1, "b": None})
    assert core.find_move([{"type": "x", "n": 1, "label": "X"}], {"type": "x", "n": 1}) \
        is not None
    assert core.find_move([{"type": "x", "n": 1}], {"type": "x", "n": True}) is None


def _roll_back(redis_client: redis.Redis, game_id: str, saved_state: dict[bytes, bytes],
               log_length: int) -> None:
    """Redis loses the game's later writes (a restored backup, a lagging replica), but not
    the idempotency records written with them: the partial rollback of issue 27."""
    state_key = keys.game_state(game_id)
    redis_client.delete(state_key)
    redis_client.hset(state_key, mapping=saved_state)
    if log_length:
        redis_client.ltrim(keys.move_log(game_id), 0, log_length - 1)
    else:
        redis_client.delete(keys.move_log(game_id))


def test_a_rolled_back_move_is_not_replayed_for_its_idempotency_key(
        app: Flask, redis_client: redis.Redis, redis_url: str) -> None:
    client = app.test_client()
    created = create(client, players=2)
    assert move(client, created, 0, 0).status_code == 200
    saved_state = redis_client.hgetall(keys.game_state(created.id))
    key = {"Idempotency-Key": "seat-1-draw"}
    first = move(client, created, 1, 1, **key)
    assert first.status_code == 200 and first.get_json()["version"] == 2
    assert move(client, created, 1, 1, **key).headers.get("Idempotent-Replayed") == "true"
    _roll_back(redis_client, created.id, saved_state, 1)
    # Another process (no cache of the lost version) and this one: the retry is no replay
    # of a move the log no longer holds; it is a new request, and stored as one.
    other = create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS})
    again = move(other.test_client(), created, 1, 1, "stop", **key)
    assert again.status_code == 200, again.get_json()
    assert again.headers.get("Idempotent-Replayed") is None
    log = [json.loads(raw) for raw in redis_client.lrange(keys.move_log(created.id), 0, -1)]
    assert [entry["move"]["type"] for entry in log] == ["draw", "stop"]
    # Its key now stands for the move the game holds.
    replayed = move(client, created, 1, 1, "stop", **key)
    assert replayed.headers.get("Idempotent-Replayed") == "true"
    assert replayed.get_json() == again.get_json()


def test_a_refused_retry_after_a_rollback_is_not_answered_200(
        app: Flask, redis_client: redis.Redis) -> None:
    """The same key on a request the game now refuses (here: not seat 1's turn any more,
    the rollback went back two moves) is refused as it is, not replayed."""
    client = app.test_client()
    created = create(client, players=2)
    saved_state = redis_client.hgetall(keys.game_state(created.id))
    assert move(client, created, 0, 0).status_code == 200
    key = {"Idempotency-Key": "k"}
    assert move(client, created, 1, 1, **key).status_code == 200
    _roll_back(redis_client, created.id, saved_state, 0)
    problem(move(client, created, 1, 1, **key), 409, "stale-version")
    assert redis_client.llen(keys.move_log(created.id)) == 0
    # A record whose move is gone is dropped, not kept to answer later.
    assert redis_client.keys(keys.idempotency(created.id, 1, "k")) == []


def test_a_replay_after_later_moves_still_answers_the_first_answer(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client, players=2)
    key = {"Idempotency-Key": "early"}
    first = move(client, created, 0, 0, **key)
    assert move(client, created, 1, 1).status_code == 200
    assert move(client, created, 0, 2).status_code == 200
    again = move(client, created, 0, 0, **key)
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert again.headers.get("Idempotent-Replayed") == "true"


def test_metadata_changed_behind_the_server_is_served_at_the_next_request(
        app: Flask, redis_client: redis.Redis) -> None:
    """Issue 27: a process served a game's old metadata (and so its old revealed seed) for
    as long as it lived after `bgb:game:{ID}:meta` changed in Redis."""
    client = app.test_client()
    created = create(client, players=1)
    assert move(client, created, 0, 0, "stop").status_code == 200  # over: the deal shows
    url = f"/v1/games/{created.id}"
    meta_key = keys.game_meta(created.id)
    for query in ("", "?lang=pt-BR"):  # the fast lane's read, then the app's
        first = client.get(url + query).get_json()
        meta = json.loads(redis_client.get(meta_key))
        seed = meta["deal"]["seed"] + 1
        meta["deal"]["seed"] = seed
        meta["rematch_of"] = f"changed{query and '-pt'}"
        redis_client.set(meta_key, json.dumps(meta))
        after = client.get(url + query).get_json()
        assert first["deal"]["revealed"]["seed"] != seed
        assert after["deal"]["revealed"]["seed"] == seed
        assert after["rematch_of"] == meta["rematch_of"]
    # A move too is decided on the metadata Redis holds (the fast lane's from memory, checked
    # by its commit): a seat's token replaced in it opens the seat, the old one no longer.
    game = create(client, players=2)
    assert move(client, game, 0, 0).status_code == 200
    assert client.get(f"/v1/games/{game.id}", headers=game.auth(1)).status_code == 200
    meta_key = keys.game_meta(game.id)
    meta = json.loads(redis_client.get(meta_key))
    meta["seats"][1]["token_sha256"] = hashlib.sha256(b"replaced").hexdigest()
    redis_client.set(meta_key, json.dumps(meta))
    problem(client.get(f"/v1/games/{game.id}", headers=game.auth(1)), 401, "unauthorized")
    problem(move(client, game, 1, 1), 401, "unauthorized")
    assert redis_client.llen(keys.move_log(game.id)) == 1
    replaced = {"Authorization": "Bearer replaced"}
    assert client.post(f"/v1/games/{game.id}/moves", headers=replaced,
                       json={"move": {"type": "draw"}, "version": 1}).status_code == 200
    # With it gone, the game is unknown (and nothing is stored).
    game = create(client, players=2)
    assert move(client, game, 0, 0).status_code == 200
    redis_client.delete(keys.game_meta(game.id))
    problem(move(client, game, 1, 1), 404, "not-found")
    assert redis_client.llen(keys.move_log(game.id)) == 1
