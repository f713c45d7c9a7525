"""POST/GET /v1/games/{id}/analysis: refused while the game runs, queued on its own queue,
and its job's results read back (the job run here in the test's process)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue

from ai_worker import analysis
from api.botqueue import ANALYSIS_QUEUE_NAME
from tests.api.conftest import Created, create, move, problem


def finished_game(client: FlaskClient) -> Created:
    """A toy-pontoon game where seat 0 stops at once (a blunder) and seat 1 draws to 16."""
    created = create(client, seed=7, unranked=True)
    version = 0
    while True:
        body = client.get(f"/v1/games/{created.id}", headers=created.auth(0)).get_json()
        if body["status"] != "active":
            return created
        seat = body["to_act"]
        mine = client.get(f"/v1/games/{created.id}", headers=created.auth(seat)).get_json()
        total = sum(mine["view"]["hands"][seat])
        kind = "stop" if seat == 0 or total >= 16 else "draw"
        version = body["version"]
        assert move(client, created, seat, version, kind).status_code == 200


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    monkeypatch.setenv("BGB_ANALYSIS_ITERATIONS", "150")
    monkeypatch.setenv("BGB_ANALYSIS_MS", "60000")  # over BGB_MAX_BOT_MS: bounded to it
    monkeypatch.setenv("REDIS_URL", redis_url)  # the job, run here, finds its Redis there


def test_the_analysis_of_a_running_game_is_refused(client: FlaskClient,
                                                   redis_client: redis.Redis) -> None:
    created = create(client, seed=7, unranked=True)
    url = f"/v1/games/{created.id}/analysis"
    problem(client.post(url, json={}, headers=created.auth(0)), 409, "game-active")
    problem(client.get(url, headers=created.auth(0)), 409, "game-active")
    assert Queue(ANALYSIS_QUEUE_NAME, connection=redis_client).count == 0


def test_an_unknown_game_and_a_wrong_token(client: FlaskClient) -> None:
    problem(client.post("/v1/games/nope/analysis", json={}), 404, "not-found")
    created = finished_game(client)
    problem(client.post(f"/v1/games/{created.id}/analysis", json={},
                        headers={"Authorization": "Bearer wrong"}), 401, "unauthorized")
    problem(client.get(f"/v1/games/{created.id}/analysis"), 404, "not-found")


def test_the_request_body_is_optional_as_documented(client: FlaskClient,
                                                    redis_client: redis.Redis) -> None:
    """No body reads as `{}` (the document says the body is optional); a body that is
    there is still JSON."""
    created = finished_game(client)
    url = f"/v1/games/{created.id}/analysis"
    document = client.get("/v1/openapi.json").get_json()
    assert not document["paths"]["/v1/games/{game_id}/analysis"]["post"]["requestBody"].get(
        "required", False)
    problem(client.post(url, data="seats", content_type="application/json"), 400,
            "bad-request")
    asked = client.post(url)
    assert asked.status_code == 202, asked.get_json()
    assert asked.get_json()["seats"] == [0, 1]
    assert client.post(url, json={}).status_code == 200  # the same seats: already under way
    assert Queue(ANALYSIS_QUEUE_NAME, connection=redis_client).count == 1


def test_a_seat_without_decisions_is_refused(client: FlaskClient,
                                             redis_client: redis.Redis) -> None:
    created = finished_game(client)
    url = f"/v1/games/{created.id}/analysis"
    problem(client.post(url, json={"seats": [5]}), 422, "validation-error")
    problem(client.post(url, json={"seats": "all"}), 422, "validation-error")
    assert Queue(ANALYSIS_QUEUE_NAME, connection=redis_client).count == 0


def test_a_finished_game_is_analysed_and_its_blunder_found(
        client: FlaskClient, redis_client: redis.Redis, small_budget: None) -> None:
    created = finished_game(client)
    url = f"/v1/games/{created.id}/analysis"
    asked = client.post(url, json={})  # anyone, once the game is over
    assert asked.status_code == 202, asked.get_json()
    body = asked.get_json()
    assert body["status"] == "queued" and body["seats"] == [0, 1]
    assert body["budget"] == {"iterations": 150, "ms": 10000}
    queue = Queue(ANALYSIS_QUEUE_NAME, connection=redis_client)
    assert queue.count == 1
    # Asked again while queued: the same analysis, nothing queued twice.
    again = client.post(url, json={"seats": [0]}, headers=created.auth(0))
    assert again.status_code == 200 and again.get_json()["requested"] == body["requested"]
    assert queue.count == 1
    job = queue.jobs[0]
    assert job.func_name == "ai_worker.analysis.analyse_game" and job.args == (created.id,)
    analysis.analyse_game(created.id)
    done: dict[str, Any] = client.get(url, headers=created.auth(1)).get_json()
    assert done["status"] == "done", done
    assert done["progress"]["done"] == done["progress"]["total"] == len(done["moves"])
    first = done["moves"][0]
    assert first["seat"] == 0 and first["move"]["type"] == "stop"
    assert first["classification"] == "blunder" and first["best"]["type"] == "draw"
    assert set(done["accuracy"]) == {"0", "1"}
    assert done["thresholds"]["blunder"] > done["thresholds"]["mistake"]
    # Cached: asked again, the stored analysis is the answer and nothing is queued.
    assert client.post(url, json={}).status_code == 200
    # It expires with the game.
    ttl = redis_client.pttl(f"bgb:game:{{{created.id}}}:analysis")
    assert 0 < ttl <= redis_client.pttl(f"bgb:game:{{{created.id}}}:state") + 1000


def test_the_analysis_is_in_the_openapi_document(client: FlaskClient) -> None:
    document = client.get("/v1/openapi.json").get_json()
    path = document["paths"]["/v1/games/{game_id}/analysis"]
    assert path["post"]["operationId"] == "requestAnalysis"
    assert path["get"]["operationId"] == "getAnalysis"
    schemas = document["components"]["schemas"]
    assert "Analysis" in schemas and "AnalysedMove" in schemas
    assert set(schemas["AnalysedMove"]["properties"]["classification"]["enum"]) >= {
        "inaccuracy", "mistake", "blunder"}


def test_asking_for_more_seats_queues_one_analysis_of_them_all(
        client: FlaskClient, redis_client: redis.Redis, small_budget: None) -> None:
    created = finished_game(client)
    url = f"/v1/games/{created.id}/analysis"
    first = client.post(url, json={"seats": [1]}, headers=created.auth(1))
    assert first.status_code == 202 and first.get_json()["seats"] == [1]
    second = client.post(url, json={"seats": [0]}, headers=created.auth(0))
    assert second.status_code == 202 and second.get_json()["seats"] == [0, 1]
    queue = Queue(ANALYSIS_QUEUE_NAME, connection=redis_client)
    assert queue.count == 2
    # The first job, run as a worker runs it, sees it was superseded and does nothing.
    older = queue.jobs[0]
    older.perform()
    assert client.get(url).get_json()["status"] == "queued"
    queue.jobs[1].perform()
    done = client.get(url).get_json()
    assert done["status"] == "done" and {m["seat"] for m in done["moves"]} == {0, 1}


def test_a_worker_analyses_in_slices_and_finds_the_same_numbers(
        client: FlaskClient, redis_client: redis.Redis, small_budget: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a worker each job analyses one slice and queues the rest, so that a bot turn
    queued meanwhile goes first; the slices add up to the analysis of one go."""
    created = finished_game(client)
    url = f"/v1/games/{created.id}/analysis"
    client.post(url, json={})
    analysis.analyse_game(created.id)  # in one go (no worker: no slices)
    whole = client.get(url).get_json()
    assert whole["status"] == "done"
    redis_client.delete(f"bgb:game:{{{created.id}}}:analysis")
    queue = Queue(ANALYSIS_QUEUE_NAME, connection=redis_client)
    queue.empty()
    monkeypatch.setattr(analysis, "SLICE_SECONDS", 0.0)  # one decision a job
    assert client.post(url, json={}).status_code == 202
    slices = 0
    while queue.count:
        queue.jobs[0].perform()
        queue.remove(queue.jobs[0])
        slices += 1
        state = client.get(url).get_json()
        assert state["progress"]["done"] == min(slices, len(whole["moves"]))
    assert slices == len(whole["moves"])
    sliced = client.get(url).get_json()
    assert sliced["status"] == "done"
    assert sliced["moves"] == whole["moves"] and sliced["accuracy"] == whole["accuracy"]
