"""The bot worker's local API (ai_worker.local_api): the SDK's requests answered by the API app
in process, exactly as over HTTP (statuses, headers, problem+json refusals), and a worker
job playing bot turns through it (no API server at all)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
import requests

from ai_worker import jobs, local_api
from ai_worker.jobs import Turn
from api import create_app
from clients.sdk import Client, NotFound, NotYourTurn, StaleVersion, Unauthorized


@pytest.fixture
def app(redis_url: str, redis_client: redis.Redis) -> Any:
    """The API app on the test Redis (emptied by redis_client)."""
    return create_app({"REDIS_URL": redis_url, "TESTING": True})


@pytest.fixture
def local(app: Any) -> Client:
    """An SDK client whose session hands every request to `app` in process."""
    session = requests.Session()
    return Client(local_api.mount(session, app), retries=0, session=session)


def _toy_game(client: Client) -> dict[str, Any]:
    return client.create_game("toy-pontoon", {"players": 2}, seed=7)


def test_the_local_api_answers_as_the_app_does_over_http(app: Any, local: Client) -> None:
    created = _toy_game(local)
    token = next(s["token"] for s in created["seats"] if s["seat"] == created["to_act"])
    via_local = local.session.get(f"{local.base_url}/v1/games/{created['id']}",
                                  headers={"Authorization": f"Bearer {token}"})
    via_app = app.test_client().get(f"/v1/games/{created['id']}",
                                    headers={"Authorization": f"Bearer {token}"})
    assert via_local.status_code == via_app.status_code == 200
    assert via_local.json() == via_app.get_json()
    assert via_local.headers["ETag"] == via_app.headers["ETag"] == '"0"'
    assert via_local.headers["Content-Type"] == "application/json"

    move = via_local.json()["legal_moves"][0]
    answer = local.move(created["id"], token, move, 0)
    assert answer["version"] == 1
    # The refusals are the app's problem+json, raised by the SDK as over HTTP.
    with pytest.raises(StaleVersion):
        local.move(created["id"], token, move, 0)
    other = next(s["token"] for s in created["seats"] if s["seat"] != answer["to_act"])
    with pytest.raises((NotYourTurn, StaleVersion)):
        local.move(created["id"], other, move, 1)
    with pytest.raises(Unauthorized):
        local.get_game(created["id"], "not-a-token")
    with pytest.raises(NotFound):
        local.get_game("no-such-game")


def test_a_worker_job_plays_bot_turns_through_the_local_api(
        monkeypatch: pytest.MonkeyPatch, app: Any, local: Client,
        redis_client: redis.Redis) -> None:
    """A bot-vs-bot game played to its end by the job's turns, each posted through the
    app in process: the move log holds every turn once, made by the seats' derived tokens."""
    created = local.create_game("toy-pontoon", {"players": 2},
                                seats=[{"kind": "bot", "bot": "random"},
                                       {"kind": "bot", "bot": "random"}], seed=3)
    game_id = created["id"]
    monkeypatch.setattr(jobs, "_client", local)
    monkeypatch.setattr(jobs, "_redis", lambda: redis_client)
    turn: Turn | None = Turn(created["to_act"], 0)
    played = 0
    while turn is not None and played < 190:
        outcome, turn = jobs._play_turn(game_id, turn)
        assert outcome == "moved"
        played += 1
        # No job holds the next turn here (no `hold`): the API queued a job for it; play it.
        body = local.get_game(game_id)
        if body["status"] == "active":
            turn = Turn(body["to_act"], body["version"])
    final = local.get_game(game_id)
    assert final["status"] == "finished"
    log = local.moves(game_id, limit=200)["moves"]
    assert [entry["version"] for entry in log] == list(range(1, played + 1))
    assert final["version"] == played


def test_bgb_bot_api_is_http_unless_set_to_local(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BGB_BOT_API", raising=False)
    assert local_api.wanted() is False
    monkeypatch.setenv("BGB_BOT_API", "Local")
    assert local_api.wanted() is True
    monkeypatch.setenv("BGB_BOT_API", "socket")
    with pytest.raises(ValueError, match="BGB_BOT_API"):
        local_api.wanted()
