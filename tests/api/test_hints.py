"""POST/GET /v1/games/{id}/hint (docs/analysis.md, "Hints"): only practice games, only the
seat to act, searched from the seat's view alone, and the seat marked assisted in its seat,
the result and the record. The job runs here in the test's process."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue

from ai_worker import hints
from api.botqueue import QUEUE_NAME
from tests.api.conftest import Created, create, move, problem


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    monkeypatch.setenv("BGB_HINT_ITERATIONS", "300")
    monkeypatch.setenv("BGB_HINT_MS", "60000")  # over BGB_MAX_BOT_MS: bounded to it
    monkeypatch.setenv("REDIS_URL", redis_url)  # the job, run here, finds its Redis there


def url(created: Created) -> str:
    return f"/v1/games/{created.id}/hint"


def run_queued(redis_client: redis.Redis) -> list[Any]:
    """Run every queued hint job here, as a worker would; their args."""
    queue = Queue(QUEUE_NAME, connection=redis_client)
    ran = []
    for job in queue.jobs:
        assert job.func_name == "ai_worker.hints.suggest"
        job.perform()
        ran.append(job.args)
        queue.remove(job)
    return ran


def test_a_hint_suggests_the_better_move_and_marks_the_seat_assisted(
        client: FlaskClient, redis_client: redis.Redis, small_budget: None) -> None:
    created = create(client, seed=7, unranked=True)
    asked = client.post(url(created), headers=created.auth(0))
    assert asked.status_code == 202, asked.get_json()
    body = asked.get_json()
    assert body["status"] == "queued" and body["seat"] == 0 and body["version"] == 0
    assert body["current"] is True and body["moves"] == []
    assert body["budget"] == {"iterations": 300, "ms": 10000}
    # Asked again at the same version: the same hint, nothing queued twice.
    again = client.post(url(created), headers=created.auth(0))
    assert again.status_code == 200 and again.get_json()["requested"] == body["requested"]
    assert Queue(QUEUE_NAME, connection=redis_client).count == 1

    (args,) = run_queued(redis_client)
    seen = client.get(f"/v1/games/{created.id}", headers=created.auth(0)).get_json()
    # The search had what the seat sees, and nothing more.
    view = dict(seen["view"], options=seen["options"])
    assert args[4] == view and args[5] == seen["legal_moves"]

    done = client.get(url(created), headers=created.auth(0)).get_json()
    assert done["status"] == "done", done
    assert 1 <= len(done["moves"]) <= 3
    # At a total far under 21, drawing is worth more than stopping.
    assert done["moves"][0]["move"]["type"] == "draw"
    assert done["moves"][0]["visits"] >= done["moves"][-1]["visits"]
    margins = {m["move"]["type"]: m["margin"] for m in done["moves"]}
    assert margins["draw"] > margins.get("stop", -1e9)

    seats = {s["seat"]: s for s in seen["seats"]}
    assert seats[0].get("assisted") is True and "assisted" not in seats[1]
    # The hint's answer expires with the game.
    ttl = redis_client.pttl(f"bgb:game:{{{created.id}}}:hint:0")
    assert 0 < ttl <= redis_client.pttl(f"bgb:game:{{{created.id}}}:state") + 1000

    # After a move, the hint is no longer current; the game's end keeps the mark.
    assert move(client, created, 0, 0, "stop").status_code == 200
    assert client.get(url(created), headers=created.auth(0)).get_json()["current"] is False
    assert move(client, created, 1, 1, "stop").status_code == 200
    over = client.get(f"/v1/games/{created.id}").get_json()
    assert over["status"] == "finished" and over["result"]["assisted"] == [0]
    record = client.get(f"/v1/games/{created.id}/record").get_json()
    assert record["result"]["assisted"] == [0]
    assert [s.get("assisted", False) for s in record["seats"]] == [True, False]


def test_hints_only_in_practice_games_and_for_the_seat_to_act(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    ranked = create(client, seed=None)
    problem(client.post(url(ranked), headers=ranked.auth(0)), 403, "forbidden")
    practice = create(client, seed=7, unranked=True)
    problem(client.post(url(practice), headers=practice.auth(1)), 403, "not-your-turn")
    problem(client.post(url(practice)), 401, "unauthorized")
    problem(client.post(url(practice), headers={"Authorization": "Bearer wrong"}), 401,
            "unauthorized")
    problem(client.get(url(practice), headers=practice.auth(0)), 404, "not-found")
    problem(client.post("/v1/games/nope/hint", headers=practice.auth(0)), 404, "not-found")
    # Refusals change nothing: no job, no assisted mark.
    assert Queue(QUEUE_NAME, connection=redis_client).count == 0
    for created in (ranked, practice):
        seats = client.get(f"/v1/games/{created.id}").get_json()["seats"]
        assert not any(s.get("assisted") for s in seats)
    assert move(client, practice, 0, 0, "stop").status_code == 200
    assert move(client, practice, 1, 1, "stop").status_code == 200
    problem(client.post(url(practice), headers=practice.auth(0)), 409, "game-over")
    over = client.get(f"/v1/games/{practice.id}").get_json()
    assert "assisted" not in over["result"]


def test_the_same_question_gets_the_same_hint(
        client: FlaskClient, redis_client: redis.Redis, small_budget: None) -> None:
    answers = []
    for _ in range(2):
        created = create(client, seed=7, unranked=True)
        assert client.post(url(created), headers=created.auth(0)).status_code == 202
        (args,) = run_queued(redis_client)
        # Another game id seeds another search: compare the searches of the same view.
        answers.append(hints.top_moves(hints.core.get_game(args[3]), args[4], 0, args[5],
                                       args[6], 12345))
    assert answers[0] == answers[1]


def test_the_hint_is_in_the_openapi_document(client: FlaskClient) -> None:
    document = client.get("/v1/openapi.json").get_json()
    path = document["paths"]["/v1/games/{game_id}/hint"]
    assert path["post"]["operationId"] == "requestHint"
    assert path["get"]["operationId"] == "getHint"
    schemas = document["components"]["schemas"]
    assert "Hint" in schemas and "SuggestedMove" in schemas
    assert "assisted" in schemas["Seat"]["properties"]


def test_a_player_key_asks_for_its_seats_hint(
        client: FlaskClient, redis_client: redis.Redis, small_budget: None) -> None:
    key = client.post("/v1/players", json={"name": "Ada"}).get_json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    answer = client.post("/v1/games", headers=auth, json={
        "game": "toy-pontoon", "options": {"players": 2}, "seed": 7, "unranked": True,
        "seats": [{"kind": "human", "claim": True}, {"kind": "human"}]})
    assert answer.status_code == 201, answer.get_json()
    game_id = answer.get_json()["id"]
    asked = client.post(f"/v1/games/{game_id}/hint", headers=auth)
    assert asked.status_code == 202, asked.get_json()
    assert asked.get_json()["seat"] == 0
    # The player owns seat 0 only: another seat is not its own.
    problem(client.get(f"/v1/games/{game_id}/hint?seat=1", headers=auth), 403, "not-your-seat")
    run_queued(redis_client)
    assert client.get(f"/v1/games/{game_id}/hint", headers=auth).get_json()["status"] == "done"
