"""Posting moves: versions, legality, credentials, idempotency, races, bot turns."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
import redis
import rq
from flask import Flask
from flask.testing import FlaskClient

from api import botauth, create_app, keys
from tests.api.conftest import NO_RATE_LIMITS, Created, create, move, problem, snapshot


def _log(client: FlaskClient, created: Created) -> list[dict[str, Any]]:
    return client.get(f"/v1/games/{created.id}/moves?limit=200").get_json()["moves"]


def test_stale_version_is_409_with_the_current_game(client: FlaskClient,
                                                    redis_client: redis.Redis) -> None:
    created = create(client, players=1)
    assert move(client, created, 0, 0).status_code == 200
    before = snapshot(redis_client, created.id)
    body = problem(move(client, created, 0, 0), 409, "stale-version")
    assert body["current"]["version"] == 1 and body["current"]["seat"] == 0
    assert [m["type"] for m in body["current"]["legal_moves"]] == ["draw", "stop"]
    assert "view" in body["current"]
    problem(move(client, created, 0, 7), 409, "stale-version")
    assert snapshot(redis_client, created.id) == before
    assert len(_log(client, created)) == 1


def test_if_match_header_carries_the_version(client: FlaskClient) -> None:
    created = create(client, players=1)
    url = f"/v1/games/{created.id}/moves"
    response = client.post(url, json={"move": {"type": "draw"}},
                           headers={**created.auth(0), "If-Match": '"0"'})
    assert response.status_code == 200 and response.get_json()["version"] == 1
    problem(client.post(url, json={"move": {"type": "draw"}},
                        headers={**created.auth(0), "If-Match": '"0"'}), 409, "stale-version")
    problem(client.post(url, json={"move": {"type": "draw"}},
                        headers={**created.auth(0), "If-Match": "W/\"1\""}),
            422, "validation-error")
    problem(client.post(url, json={"move": {"type": "draw"}, "version": 2},
                        headers={**created.auth(0), "If-Match": '"1"'}),
            422, "validation-error")
    body = problem(client.post(url, json={"move": {"type": "draw"}}, headers=created.auth(0)),
                   422, "validation-error")
    assert "version" in body["errors"]["json"]


def test_illegal_move_is_422_with_the_legal_moves(client: FlaskClient,
                                                  redis_client: redis.Redis) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    for bad in ({"type": "fly"}, {"type": "draw", "extra": 1}, {}, {"type": ["draw"]}):
        response = client.post(f"/v1/games/{created.id}/moves",
                               json={"move": bad, "version": 0}, headers=created.auth(0))
        body = problem(response, 422, "illegal-move")
        assert [m["type"] for m in body["legal_moves"]] == ["draw", "stop"]
    # A label is ignored when matching.
    response = client.post(f"/v1/games/{created.id}/moves",
                           json={"move": {"type": "draw", "label": "whatever"}, "version": 0},
                           headers=created.auth(0))
    assert response.status_code == 200
    after = snapshot(redis_client, created.id)
    assert after != before and len(_log(client, created)) == 1


def test_credentials(client: FlaskClient, redis_client: redis.Redis) -> None:
    created, other = create(client), create(client, seed=8)
    url = f"/v1/games/{created.id}/moves"
    body = {"move": {"type": "draw"}, "version": 0}
    problem(client.post(url, json=body), 401, "unauthorized")
    problem(client.post(url, json=body, headers={"Authorization": "Bearer nope"}),
            401, "unauthorized")
    problem(client.post(url, json=body, headers={"Authorization": "Basic abc"}),
            401, "unauthorized")
    problem(client.post(url, json=body, headers={"Authorization": "Bearer"}), 401,
            "unauthorized")
    # A token of another game opens nothing here, not even for reading.
    problem(client.post(url, json=body, headers=other.auth(0)), 401, "unauthorized")
    problem(client.get(f"/v1/games/{created.id}", headers=other.auth(0)), 401, "unauthorized")
    # Seat 1 cannot move when seat 0 is to act.
    body403 = problem(client.post(url, json=body, headers=created.auth(1)), 403,
                      "not-your-turn")
    assert body403["to_act"] == 0
    # A bot token of this game's seat 0 is no human seat's credential.
    bot0 = botauth.bot_token(redis_client, created.id, 0)
    problem(client.post(url, json=body, headers={"Authorization": f"Bearer {bot0}"}),
            401, "unauthorized")
    problem(client.post("/v1/games/nosuchgame/moves", json=body, headers=created.auth(0)),
            404, "not-found")
    assert len(_log(client, created)) == 0


def test_bot_seat_derived_token(client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client, seats=[{"kind": "bot", "bot": "random"}, {"kind": "human"}])
    queue = rq.Queue("bots", connection=redis_client)
    job = queue.fetch_job(f"play-{created.id}-0")
    assert job is not None and job.func_name == "ai_worker.jobs.play_turn"
    assert job.args == (created.id, 0, 0)
    assert redis_client.zscore(keys.bot_turns(), created.id) is not None
    token0 = botauth.bot_token(redis_client, created.id, 0)
    token1 = botauth.bot_token(redis_client, created.id, 1)
    url = f"/v1/games/{created.id}/moves"
    # The derived token of a seat that is human opens nothing.
    problem(client.post(url, json={"move": {"type": "draw"}, "version": 0},
                        headers={"Authorization": f"Bearer {token1}"}), 401, "unauthorized")
    read = client.get(f"/v1/games/{created.id}",
                      headers={"Authorization": f"Bearer {token0}"}).get_json()
    assert read["seat"] == 0 and read["legal_moves"]
    response = client.post(url, json={"move": {"type": "draw"}, "version": 0},
                           headers={"Authorization": f"Bearer {token0}",
                                    "Idempotency-Key": f"bot-{created.id}-0"})
    assert response.status_code == 200
    # A human is to act now: the pending bot turn is gone.
    assert redis_client.zscore(keys.bot_turns(), created.id) is None
    # The human moves; the bot is to act again at version 2.
    assert move(client, created, 1, 1).status_code == 200
    assert queue.fetch_job(f"play-{created.id}-2").args == (created.id, 0, 2)
    assert redis_client.zscore(keys.bot_turns(), created.id) is not None
    # The bot seat's token cannot move for the human seat.
    problem(client.post(url, json={"move": {"type": "draw"}, "version": 2},
                        headers=created.auth(1)), 403, "not-your-turn")


def test_bot_secret_from_env(client: FlaskClient, redis_client: redis.Redis,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BGB_BOT_SECRET", "s3cret")
    created = create(client, seats=[{"kind": "bot", "bot": "random"}, {"kind": "human"}])
    token = botauth.derive(b"s3cret", created.id, 0)
    assert botauth.bot_token(redis_client, created.id, 0) == token
    response = client.post(f"/v1/games/{created.id}/moves",
                           json={"move": {"type": "draw"}, "version": 0},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200


def test_move_acknowledged_when_enqueue_fails(client: FlaskClient, app: Flask,
                                              redis_client: redis.Redis,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    queue = app.extensions["bgb"].bot_queue._queue

    def refuse(*_: Any, **__: Any) -> None:
        raise redis.ConnectionError("injected hiccup")

    monkeypatch.setattr(queue, "enqueue_call", refuse)
    response = move(client, created, 0, 0)
    assert response.status_code == 200
    # The turn is recorded for the sweeper even though no job exists.
    assert redis_client.zscore(keys.bot_turns(), created.id) is not None
    assert rq.Queue("bots", connection=redis_client).fetch_job(f"play-{created.id}-1") is None


def test_idempotency_key_replays_the_first_answer(client: FlaskClient,
                                                  redis_client: redis.Redis) -> None:
    created = create(client, players=1)
    first = move(client, created, 0, 0, **{"Idempotency-Key": "k-1"})
    assert first.status_code == 200
    again = move(client, created, 0, 0, **{"Idempotency-Key": "k-1"})
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    # The key names the first request: reused for another move or version, it is refused
    # (issue 18: the client must never get 200 for a move it did not send), changing nothing.
    problem(move(client, created, 0, 0, "stop", **{"Idempotency-Key": "k-1"}), 422,
            "idempotency-key-reused")
    problem(move(client, created, 0, 5, **{"Idempotency-Key": "k-1"}), 422,
            "idempotency-key-reused")
    # The label is not part of the request's identity.
    labelled = client.post(f"/v1/games/{created.id}/moves",
                           json={"move": {"type": "draw", "label": "anything"}, "version": 0},
                           headers={**created.auth(0), "Idempotency-Key": "k-1"})
    assert labelled.status_code == 200 and labelled.get_json() == first.get_json()
    assert len(_log(client, created)) == 1
    assert json.loads(redis_client.hget(keys.game_state(created.id), "version")) == 1
    # Another key is a new request: stale now.
    problem(move(client, created, 0, 0, **{"Idempotency-Key": "k-2"}), 409, "stale-version")
    problem(move(client, created, 0, 0, **{"Idempotency-Key": "x" * 300}), 422,
            "validation-error")


def test_idempotency_keys_are_per_seat(client: FlaskClient) -> None:
    created = create(client, players=2)
    assert move(client, created, 0, 0, **{"Idempotency-Key": "same"}).status_code == 200
    # Seat 1 using the same key string makes its own move.
    response = move(client, created, 1, 1, **{"Idempotency-Key": "same"})
    assert response.status_code == 200 and response.get_json()["version"] == 2


def _race(apps: list[Flask], created: Created, rounds: int,
          key: str | None = None) -> list[list[tuple[int, Any]]]:
    """Every app's client posts the same draw on the same version at once, round by round."""
    barrier = threading.Barrier(len(apps), timeout=30)
    outcomes: list[list[tuple[int, Any]]] = [[] for _ in range(rounds)]
    lock = threading.Lock()

    def player(app: Flask) -> None:
        client = app.test_client()
        for version in range(rounds):
            barrier.wait()
            headers = {"Idempotency-Key": f"{key}-{version}"} if key else {}
            response = move(client, created, 0, version, **headers)
            with lock:
                outcomes[version].append((response.status_code, response.get_json()))
            barrier.wait()

    threads = [threading.Thread(target=player, args=(app,)) for app in apps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def test_race_exactly_one_move_per_version(client: FlaskClient, redis_url: str) -> None:
    created = create(client, players=1)
    # Separate apps = separate caches and connection pools, as separate server processes.
    config = {"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS}
    apps = [create_app(config) for _ in range(8)]
    rounds = 12
    outcomes = _race(apps, created, rounds)
    for version, answers in enumerate(outcomes):
        statuses = sorted(status for status, _ in answers)
        assert statuses == [200] + [409] * (len(apps) - 1), (version, statuses)
        winner = next(body for status, body in answers if status == 200)
        assert winner["version"] == version + 1
    log = _log(client, created)
    assert [m["index"] for m in log] == list(range(rounds))
    assert [m["version"] for m in log] == list(range(1, rounds + 1))


def test_race_with_one_idempotency_key_moves_once(client: FlaskClient, redis_url: str) -> None:
    created = create(client, players=1)
    config = {"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS}
    apps = [create_app(config) for _ in range(6)]
    outcomes = _race(apps, created, 4, key="retry")
    for version, answers in enumerate(outcomes):
        bodies = [body for _, body in answers]
        assert all(status == 200 for status, _ in answers), answers
        assert all(body == bodies[0] for body in bodies)
        assert bodies[0]["version"] == version + 1
    assert [m["index"] for m in _log(client, created)] == [0, 1, 2, 3]


def test_a_seat_still_to_act_gets_its_legal_moves_with_the_answer(client: FlaskClient) -> None:
    created = create(client, game="darwins-journey", players=2)
    version, still, other = 0, 0, 0
    while (still == 0 or other == 0) and version < 60:
        to_act = client.get(f"/v1/games/{created.id}").get_json()["to_act"]
        read = client.get(f"/v1/games/{created.id}", headers=created.auth(to_act)).get_json()
        response = client.post(f"/v1/games/{created.id}/moves", headers=created.auth(to_act),
                               json={"move": read["legal_moves"][0], "version": version})
        assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        version = answer["version"]
        now = client.get(f"/v1/games/{created.id}", headers=created.auth(to_act)).get_json()
        # Exactly what a read by the same seat says: its moves when it is to act, else none.
        assert answer["legal_moves"] == now["legal_moves"]
        if answer["to_act"] == to_act:
            still += 1
            assert answer["legal_moves"]
        else:
            other += 1
            assert answer["legal_moves"] == []
    assert still and other


def _other_process(redis_url: str) -> FlaskClient:
    return create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS}).test_client()


def test_a_move_decided_on_an_old_copy_of_the_game_is_decided_again(
        client: FlaskClient, redis_url: str) -> None:
    created = create(client, players=2)
    client.get(f"/v1/games/{created.id}", headers=created.auth(0))  # this process holds v0
    other = _other_process(redis_url)
    assert move(other, created, 0, 0).status_code == 200  # another process stores v1
    # Against the version this process holds, the move is stale: refused, nothing stored.
    body = problem(move(client, created, 0, 0), 409, "stale-version")
    assert body["current"]["version"] == 1
    assert [m["index"] for m in _log(client, created)] == [0]
    # Against the version Redis holds, it is played, though this process held an older one.
    assert move(client, created, 1, 1).status_code == 200
    assert move(other, created, 0, 2).status_code == 200  # and the other process goes on
    assert [m["seat"] for m in _log(client, created)] == [0, 1, 0]


def test_a_token_replaced_in_another_process_stops_working_at_once(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    from api.auth import new_human_token
    from api.seats import update_seat

    created = create(client, players=2)
    assert move(client, created, 0, 0).status_code == 200  # this process holds v1 and seats
    token, digest = new_human_token()
    update_seat(redis_client, created.id, 1, token_sha256=digest)  # as a token rotation does
    problem(move(client, created, 1, 1), 401, "unauthorized")
    assert [m["index"] for m in _log(client, created)] == [0]
    created.tokens[1] = token
    assert move(client, created, 1, 1).status_code == 200


def test_a_game_abandoned_since_this_process_held_it_takes_no_move(
        redis_client: redis.Redis, redis_url: str) -> None:
    import time

    app = create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS,
                      "ABANDON_AFTER": 0.5, "RETAIN_FINISHED": 5.0})
    client = app.test_client()
    created = create(client, players=2)
    assert move(client, created, 0, 0).status_code == 200  # this process holds version 1
    time.sleep(0.7)
    # Straight to a move (no read first): the game is found abandoned, not moved.
    problem(move(client, created, 1, 1), 409, "game-over")
    assert [m["move"]["type"] for m in _log(client, created)] == ["draw", "abandon"]


def _bot_move(client: FlaskClient, redis_client: redis.Redis, created: Created, seat: int,
              version: int, **extra: Any) -> Any:
    token = botauth.bot_token(redis_client, created.id, seat)
    return client.post(f"/v1/games/{created.id}/moves",
                       json={"move": {"type": "draw"}, "version": version, **extra},
                       headers={"Authorization": f"Bearer {token}",
                                "Idempotency-Key": f"bot-{created.id}-{version}"})


def test_a_bot_job_holds_the_next_bot_turn(client: FlaskClient,
                                          redis_client: redis.Redis) -> None:
    created = create(client, seats=[{"kind": "bot", "bot": "random"},
                                    {"kind": "bot", "bot": "random"}])
    queue = rq.Queue("bots", connection=redis_client)
    response = _bot_move(client, redis_client, created, 0, 0, bot_job="play-x-0")
    answer = response.get_json()
    assert response.status_code == 200 and answer["bot_job"] == "play-x-0"
    # The job plays the next turn: none is queued, the state names the job for the sweeper,
    # and the answer brings the game as the seat to act reads it.
    assert queue.fetch_job(f"play-{created.id}-1") is None
    assert redis_client.hget(keys.game_state(created.id), "bot_job") == b"play-x-0"
    assert redis_client.zscore(keys.bot_turns(), created.id) is not None
    token = botauth.bot_token(redis_client, created.id, answer["to_act"])
    read = client.get(f"/v1/games/{created.id}",
                      headers={"Authorization": f"Bearer {token}"}).get_json()
    assert answer["to_act"] == 1 and answer["next"]["seat"] == 1
    assert answer["next"]["legal_moves"] and answer["next"]["view"]
    assert answer["next"] == {name: read[name] for name in answer["next"]}
    # A retry under the same key replays the answer, without the read it carried.
    replay = _bot_move(client, redis_client, created, 0, 0, bot_job="play-x-0")
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.get_json()["bot_job"] == "play-x-0" and "next" not in replay.get_json()
    # A move without it queues the next bot turn again, and the state forgets the job.
    second = _bot_move(client, redis_client, created, 1, 1).get_json()
    assert "bot_job" not in second and "next" not in second
    assert redis_client.hget(keys.game_state(created.id), "bot_job") is None
    assert queue.fetch_job(f"play-{created.id}-2").args == (created.id, 0, 2)


def test_only_a_bot_seat_sends_a_bot_job_and_only_a_bot_turn_is_held(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    before = snapshot(redis_client, created.id)
    body = problem(client.post(f"/v1/games/{created.id}/moves",
                               json={"move": {"type": "draw"}, "version": 0,
                                     "bot_job": "play-x-0"},
                               headers=created.auth(0)), 403, "forbidden")
    assert "bot_job" in body["detail"]
    assert snapshot(redis_client, created.id) == before
    # A human's turn is never held by a bot job.
    mixed = create(client, seats=[{"kind": "bot", "bot": "random"}, {"kind": "human"}])
    answer = _bot_move(client, redis_client, mixed, 0, 0, bot_job="play-y-0").get_json()
    assert answer["to_act"] == 1 and "bot_job" not in answer and "next" not in answer
    assert redis_client.hget(keys.game_state(mixed.id), "bot_job") is None
