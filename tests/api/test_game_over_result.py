"""A `game_over` webhook delivery carries the game's result (issue 28, an app's account), as
a read of the game shows it: after the last move and after a resignation that ends it."""

from __future__ import annotations

import json
from typing import Any

import redis
import rq
from flask.testing import FlaskClient


def _player_with_hook(client: FlaskClient) -> dict[str, str]:
    key = client.post("/v1/players", json={"name": "Ada"}).get_json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    answer = client.post(
        "/v1/players/me/webhooks",
        headers=auth,
        json={"url": "https://push.example.com/bgb", "events": ["game_over"]},
    )
    assert answer.status_code == 201, answer.get_json()
    return auth


def _game_overs(redis_client: redis.Redis) -> list[dict[str, Any]]:
    jobs = rq.Queue("webhooks", connection=redis_client).jobs
    payloads = [json.loads(job.args[3]) for job in jobs]
    return [p for p in payloads if p["type"] == "game_over"]


def test_the_last_move_delivers_the_result(client: FlaskClient, redis_client: redis.Redis) -> None:
    auth = _player_with_hook(client)
    game = client.post(
        "/v1/games",
        headers=auth,
        json={
            "game": "toy-pontoon",
            "options": {"players": 1},
            "seed": 7,
            "seats": [{"kind": "human", "claim": True}],
        },
    ).get_json()
    version = 0
    while True:
        answer = client.post(
            f"/v1/games/{game['id']}/moves",
            headers=auth,
            json={"move": {"type": "stop" if version >= 2 else "draw"}, "version": version},
        ).get_json()
        version = answer["version"]
        if answer["status"] != "active":
            break
    assert answer["result"] is not None
    [delivery] = _game_overs(redis_client)
    assert delivery["data"]["result"] == answer["result"]
    read = client.get(f"/v1/games/{game['id']}", headers=auth).get_json()
    assert delivery["data"]["result"] == read["result"]


def test_a_resignation_that_ends_the_game_delivers_the_result(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    auth = _player_with_hook(client)
    game = client.post(
        "/v1/games",
        headers=auth,
        json={
            "game": "toy-pontoon",
            "options": {"players": 2},
            "seed": 7,
            "seats": [{"kind": "human", "claim": True}, {"kind": "human"}],
        },
    ).get_json()
    assert _game_overs(redis_client) == []
    resigned = client.post(f"/v1/games/{game['id']}/resign", headers=auth, json={})
    assert resigned.status_code == 200 and resigned.get_json()["status"] == "finished"
    [delivery] = _game_overs(redis_client)
    result = delivery["data"]["result"]
    assert result["resigned"] == [0] and result["winners"] == [1]
    assert result == client.get(f"/v1/games/{game['id']}").get_json()["result"]


def test_the_game_over_event_carries_the_result(client: FlaskClient, monkeypatch: Any) -> None:
    """The rules' `game_over` event (the toy game's, made to end with one as the real games
    do) carries the result in the last move's answer and in the log once it is over."""
    from tests.toygame import ToyPontoon

    plain = ToyPontoon.apply

    def apply_with_end(
        self: ToyPontoon, state: dict[str, Any], move: dict[str, Any]
    ) -> list[dict[str, Any]]:
        events = plain(self, state, move)
        return events + ([{"type": "game_over"}] if self.to_act(state) is None else [])

    monkeypatch.setattr(ToyPontoon, "apply", apply_with_end)
    created = client.post(
        "/v1/games", json={"game": "toy-pontoon", "options": {"players": 1}, "seed": 7}
    ).get_json()
    auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    url = f"/v1/games/{created['id']}"
    first = client.post(
        f"{url}/moves", headers=auth, json={"move": {"type": "draw"}, "version": 0}
    ).get_json()
    assert [e["type"] for e in first["events"]] == ["drew"]
    last = client.post(
        f"{url}/moves", headers=auth, json={"move": {"type": "stop"}, "version": 1}
    ).get_json()
    assert last["status"] == "finished" and last["result"]["finished"] is True
    assert last["events"][-1] == {"type": "game_over", "result": last["result"]}
    log = client.get(f"{url}/moves").get_json()["moves"]
    [over] = [e for m in log for e in m["events"] if e["type"] == "game_over"]
    assert over["result"] == last["result"] == client.get(url).get_json()["result"]


def test_bgb_verify_compares_what_the_rules_made() -> None:
    """The result the API adds to a `game_over` event is no fact of the replay: `bgb verify`
    leaves it out of the comparison (as it leaves out texts), and still sees the rest."""
    from core.records import facts as _facts

    logged = [{"type": "game_over", "result": {"scores": [3]}, "text": "Game over"}]
    assert _facts(logged) == _facts([{"type": "game_over"}]) == [{"type": "game_over"}]
    assert _facts([{"type": "scored", "result": 1}]) == [{"type": "scored", "result": 1}]
