"""Game clocks through the API: creation, the clock moved by each move, late moves refused."""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue

from ai_worker import clocks as ai_clocks
from ai_worker.tournaments import advance
from api import clocks, keys
from api.store import Store
from tests.api.conftest import create, move, problem


def _clock(client: FlaskClient, game_id: str) -> dict[str, Any]:
    return client.get(f"/v1/games/{game_id}").get_json()["clock"]


def _when(stamp: str) -> float:
    """An RFC 3339 timestamp as epoch seconds."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


@pytest.mark.parametrize("clock", [
    {},  # neither per_move nor main
    {"per_move": 60},  # no on_timeout
    {"per_move": 0, "on_timeout": "bot"},
    {"per_move": -5, "on_timeout": "bot"},
    {"per_move": 1.5, "on_timeout": "bot"},
    {"per_move": "60", "on_timeout": "bot"},
    {"per_move": True, "on_timeout": "bot"},
    {"per_move": 10**9, "on_timeout": "bot"},
    {"per_move": 60, "on_timeout": "pass"},
    {"increment": 5, "on_timeout": "resign"},  # an increment without main time
    {"main": 60, "increment": -1, "on_timeout": "resign"},
    {"main": 60, "on_timeout": "resign", "byoyomi": 5},  # unknown field
    "fast",
])
def test_a_bad_clock_is_refused_and_creates_nothing(client: FlaskClient,
                                                    redis_client: redis.Redis,
                                                    clock: Any) -> None:
    response = client.post("/v1/games", json={"game": "toy-pontoon",
                                               "options": {"players": 2}, "clock": clock})
    body = problem(response, 422, "validation-error")
    assert "clock" in body["errors"]["json"]
    assert response.content_type == "application/problem+json"
    assert redis_client.keys("bgb:game:*") == []


def test_a_game_without_a_clock_shows_none(client: FlaskClient,
                                           redis_client: redis.Redis) -> None:
    created = create(client)
    assert _clock(client, created.id) is None
    assert move(client, created, 0, 0).status_code == 200
    assert redis_client.zcard(keys.clock_deadlines()) == 0


def test_a_correspondence_clock_shows_the_deadline_of_the_seat_to_act(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    before = time.time()
    created = create(client, clock={"per_move": 86400, "on_timeout": "bot"})
    shown = _clock(client, created.id)
    assert (shown["per_move"], shown["main"], shown["on_timeout"]) == (86400, None, "bot")
    deadline = _when(shown["deadline"])
    assert before + 86400 - 1 <= deadline <= time.time() + 86400 + 1
    assert shown["seats"][0]["deadline"] == shown["deadline"]
    assert shown["seats"][1]["deadline"] is None
    assert redis_client.zscore(keys.clock_deadlines(), created.id) == \
        pytest.approx(deadline * 1000, abs=1)
    assert move(client, created, 0, 0).status_code == 200
    after = _clock(client, created.id)
    assert after["seats"][0]["deadline"] is None
    assert after["seats"][1]["deadline"] == after["deadline"]
    assert _when(after["deadline"]) >= deadline  # seat 1's day began with its turn
    # The game over: no deadline runs, none waits for the sweeper.
    for version, seat in ((1, 1), (2, 0)):
        assert move(client, created, seat, version, "stop").status_code == 200
    over = client.get(f"/v1/games/{created.id}").get_json()
    assert over["status"] == "finished" and over["clock"]["deadline"] is None
    assert redis_client.zscore(keys.clock_deadlines(), created.id) is None


def test_a_bot_seat_is_not_clocked(client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client, clock={"per_move": 60, "on_timeout": "resign"},
                     seats=[{"kind": "bot", "bot": "random"}, {"kind": "human"}])
    shown = _clock(client, created.id)
    assert [s["clocked"] for s in shown["seats"]] == [False, True]
    assert shown["deadline"] is None  # the bot is to act
    assert redis_client.zscore(keys.clock_deadlines(), created.id) is None


def test_a_live_clock_spends_main_time_and_adds_the_increment(client: FlaskClient) -> None:
    created = create(client, clock={"main": 60, "increment": 5, "on_timeout": "resign"})
    start = _clock(client, created.id)
    assert start["seats"][1]["remaining_ms"] == 60000
    assert 59000 <= start["seats"][0]["remaining_ms"] <= 60000
    time.sleep(0.3)
    assert move(client, created, 0, 0).status_code == 200
    after = _clock(client, created.id)
    spent_and_gained = after["seats"][0]["remaining_ms"]
    # 60 s, less what the move took (0.3 s and up), plus the 5 s increment
    assert 60000 < spent_and_gained <= 65000 - 300
    deadline = _when(after["deadline"])
    assert deadline == pytest.approx(time.time() + 60, abs=2)


def test_a_move_after_the_deadline_is_refused(client: FlaskClient,
                                               redis_client: redis.Redis) -> None:
    created = create(client, clock={"per_move": 1, "on_timeout": "resign"})
    time.sleep(1.2)
    body = problem(move(client, created, 0, 0), 409, "time-out")
    assert "ran out of time" in body["detail"]
    # Nothing changed: the sweeper applies on_timeout.
    read = client.get(f"/v1/games/{created.id}").get_json()
    assert read["version"] == 0 and read["status"] == "active"
    assert redis_client.zscore(keys.clock_deadlines(), created.id) is not None


def test_the_clock_arithmetic() -> None:
    control = {"per_move": 10, "main": 30, "increment": 2, "on_timeout": "bot"}
    clock = clocks.new_clock(control, [0, 1], 0, True, 1000)
    assert clock["deadline_ms"] == 1000 + 10000  # the tighter of the two
    same = clocks.after_move(control, clock, 0, True, 0, True, 4000)  # a turn of two moves
    assert same["remaining_ms"]["0"] == 27000 and same["turn_ms"] == 1000
    assert same["deadline_ms"] == 11000
    passed = clocks.after_move(control, same, 0, True, 1, True, 6000)
    assert passed["remaining_ms"]["0"] == 27000 - 2000 + 2000
    assert passed["deadline_ms"] == 6000 + 10000
    assert not clocks.timed_out(passed, 16000) and clocks.timed_out(passed, 16001)
    to_bot = clocks.after_move(control, passed, 1, True, 0, False, 7000)
    assert to_bot["deadline_ms"] is None
    assert clocks.rfc3339(0) == "1970-01-01T00:00:00.000Z"


def test_the_sweeper_times_out_a_seat_once_and_a_racing_move_wins_or_loses_whole(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client, players=3, clock={"per_move": 1, "on_timeout": "bot"})
    queue = Queue("bots", connection=redis_client)
    first, second = Store(redis_client), Store(redis_client)
    now = int(time.time() * 1000)
    assert ai_clocks.sweep_clocks(first, queue, now) == []  # not due yet
    late = now + 1500
    # A move stored before the sweep: the version the sweeper read is gone, nothing happens.
    head = first.head(created.id)
    assert move(client, created, 0, 0).status_code == 200
    assert not ai_clocks.time_out(first, queue, created.id, late, head)
    # Two sweepers past seat 1's deadline: one times it out, the other finds nothing due.
    late = int(time.time() * 1000) + 1500
    assert ai_clocks.sweep_clocks(first, queue, late) == [created.id]
    assert ai_clocks.sweep_clocks(second, queue, late) == []
    read = client.get(f"/v1/games/{created.id}").get_json()
    assert read["version"] == 2 and read["to_act"] == 1
    assert read["seats"][1] == {"seat": 1, "kind": "bot", "bot": "greedy"}
    assert read["clock"]["deadline"] is None and not read["clock"]["seats"][1]["clocked"]
    assert redis_client.zscore(keys.clock_deadlines(), created.id) is None
    entry = client.get(f"/v1/games/{created.id}/moves").get_json()["moves"][-1]
    assert entry["move"] == {"type": "timeout"} and entry["system"] is True
    assert entry["events"][0]["type"] == "timed_out" and entry["events"][0]["seat"] == 1
    assert queue.fetch_job(f"play-{created.id}-2") is not None  # the bot's turn is queued
    problem(move(client, created, 1, 2), 409, "time-out")


def test_a_tournament_of_external_entrants_takes_a_clock(client: FlaskClient,
                                                         redis_client: redis.Redis) -> None:
    clock = {"per_move": 3600, "on_timeout": "resign"}
    spec = {"game": "toy-pontoon", "options": {"players": 2}, "seed": 11,
            "entrants": [{"kind": "external", "name": "ann"}, {"kind": "bot", "bot": "random"}]}
    problem(client.post("/v1/tournaments", json=dict(spec, clock={"per_move": 0})), 422,
            "validation-error")
    created = client.post("/v1/tournaments", json=dict(spec, clock=clock))
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert body["clock"] == clock
    advance(body["id"], redis_client)
    games = client.get(f"/v1/tournaments/{body['id']}/games").get_json()["games"]
    game_id = next(g["game_id"] for g in games if g["game_id"])
    read = client.get(f"/v1/games/{game_id}",
                      headers={"Authorization": f"Bearer {_a_seat_token(client, body)}"},
                      ).get_json()
    shown = read["clock"]
    assert shown["per_move"] == 3600 and shown["on_timeout"] == "resign"
    # The external entrant's seat is clocked, the bot's is not.
    assert [s["clocked"] for s in shown["seats"]] == \
        [s["kind"] == "human" for s in read["seats"]] and len(read["seats"]) == 2


def _a_seat_token(client: FlaskClient, tournament: dict[str, Any]) -> str:
    """The seat token of the external entrant's first game."""
    token = tournament["entrant_tokens"]["ann"]
    games = client.get(f"/v1/tournaments/{tournament['id']}/games",
                       headers={"Authorization": f"Bearer {token}"}).get_json()["games"]
    return next(iter(next(g for g in games if g.get("tokens"))["tokens"].values()))


def test_a_rematch_keeps_the_clock(client: FlaskClient) -> None:
    clock = {"main": 600, "increment": 5, "on_timeout": "bot"}
    created = create(client, clock=clock)
    for version, seat in ((0, 0), (1, 1)):
        assert move(client, created, seat, version, "stop").status_code == 200
    again = client.post(f"/v1/games/{created.id}/rematch", headers=created.auth(0))
    assert again.status_code == 201, again.get_json()
    shown = _clock(client, again.get_json()["id"])
    assert (shown["main"], shown["increment"], shown["on_timeout"]) == (600, 5, "bot")


def test_the_player_of_the_seat_to_act_is_warned_once_before_its_deadline(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    answer = client.post("/v1/players", json={"name": "Ada"}).get_json()
    player_id, auth = answer["id"], {"Authorization": f"Bearer {answer['key']}"}
    response = client.post("/v1/games", headers=auth, json={
        "game": "toy-pontoon", "options": {"players": 2},
        "seats": [{"kind": "human", "claim": True}, {"kind": "human"}],
        "clock": {"per_move": 100, "on_timeout": "resign"}})
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["id"]
    for hook, events in (("wh_warned", ["deadline_soon"]), ("wh_turns", ["your_turn"])):
        redis_client.hset(keys.player_webhooks(player_id), hook, json.dumps({
            "id": hook, "url": "https://push.example.com/bgb", "events": events,
            "created": 1796100000.0, "secret": "whsec_" + "A" * 32}))
    webhooks = Queue("webhooks", connection=redis_client)
    before = len(webhooks.job_ids)
    bots = Queue("bots", connection=redis_client)
    deadline = _when(_clock(client, game_id)["deadline"]) * 1000
    store = Store(redis_client)
    assert ai_clocks.sweep_clocks(store, bots, int(deadline - 25000)) == []
    assert len(webhooks.job_ids) == before  # a fifth of 100 s: 20 s before the deadline
    assert ai_clocks.sweep_clocks(store, bots, int(deadline - 15000)) == []
    assert len(webhooks.job_ids) == before + 1
    job = webhooks.fetch_job(webhooks.job_ids[-1])
    assert job is not None and job.args[1] == "wh_warned"
    payload = json.loads(job.args[3])
    assert payload["type"] == "deadline_soon" and payload["data"]["seat"] == 0
    assert _when(payload["data"]["deadline"]) * 1000 == pytest.approx(deadline, abs=1)
    # Once: a second sweeper (or pass) finds nothing to warn of.
    assert ai_clocks.sweep_clocks(Store(redis_client), bots, int(deadline - 14000)) == []
    assert len(webhooks.job_ids) == before + 1
    assert client.get(f"/v1/games/{game_id}").get_json()["version"] == 0


def test_your_turn_carries_the_seats_deadline(client: FlaskClient,
                                              redis_client: redis.Redis) -> None:
    answer = client.post("/v1/players", json={"name": "Bo"}).get_json()
    player_id, auth = answer["id"], {"Authorization": f"Bearer {answer['key']}"}
    redis_client.hset(keys.player_webhooks(player_id), "wh_turns", json.dumps({
        "id": "wh_turns", "url": "https://push.example.com/bgb", "events": ["your_turn"],
        "created": 1796100000.0, "secret": "whsec_" + "A" * 32}))
    response = client.post("/v1/games", headers=auth, json={
        "game": "toy-pontoon", "options": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "human", "claim": True}],
        "clock": {"per_move": 600, "on_timeout": "bot"}})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    webhooks = Queue("webhooks", connection=redis_client)
    assert webhooks.job_ids == []  # seat 0 acts first: nobody's turn to tell
    assert client.post(f"/v1/games/{created['id']}/moves", headers={
        "Authorization": f"Bearer {token}"}, json={"move": {"type": "draw"},
                                                    "version": 0}).status_code == 200
    payload = json.loads(webhooks.fetch_job(webhooks.job_ids[-1]).args[3])
    assert payload["type"] == "your_turn" and payload["data"]["seat"] == 1
    assert payload["data"]["deadline"] == _clock(client, created["id"])["deadline"]


def test_the_account_stream_carries_the_deadline_and_warns_before_it(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    key = client.post("/v1/players", json={"name": "Cy"}).get_json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    response = client.post("/v1/games", headers=auth, json={
        "game": "toy-pontoon", "options": {"players": 2},
        "seats": [{"kind": "human", "claim": True}, {"kind": "human"}],
        "clock": {"per_move": 100, "on_timeout": "bot"}})
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["id"]
    deadline = _clock(client, game_id)["deadline"]
    started, turn = (e["data"] for e in _read_stream(client, auth, 2))
    assert started["type"] == "game_started" and turn["type"] == "your_turn"
    assert turn["deadline"] == deadline
    late = int(_when(deadline) * 1000) - 15000  # within the last fifth
    ai_clocks.sweep_clocks(Store(redis_client), Queue("bots", connection=redis_client), late)
    warned = _read_stream(client, auth, 3)[2]
    assert warned["event"] == "deadline_soon"
    assert (warned["data"]["seat"], warned["data"]["version"]) == (0, 0)
    assert warned["data"]["deadline"] == deadline


def _read_stream(client: FlaskClient, auth: dict[str, str], count: int) -> list[dict[str, Any]]:
    """The first `count` events of the account's stream."""
    response = client.get("/v1/players/me/stream", headers=auth, buffered=False)
    assert response.status_code == 200, response.data[:300]
    text, events = "", []
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        events = [{"event": block.split("event: ", 1)[1].split("\n", 1)[0],
                   "data": json.loads(block.split("data: ", 1)[1].split("\n", 1)[0])}
                  for block in text.split("\n\n") if "event: " in block and "data: " in block]
        if len(events) >= count:
            break
    response.close()
    return events[:count]


def test_a_resignation_stops_the_clock_of_the_seat_a_bot_takes(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client, players=3, clock={"per_move": 60, "on_timeout": "resign"})
    assert redis_client.zscore(keys.clock_deadlines(), created.id) is not None
    resigned = client.post(f"/v1/games/{created.id}/resign", headers=created.auth(0),
                           json={"bot": "greedy"})
    assert resigned.status_code == 200, resigned.get_json()
    shown = _clock(client, created.id)
    assert shown["deadline"] is None and not shown["seats"][0]["clocked"]
    assert redis_client.zrange(keys.clock_deadlines(), 0, -1) == []
    # A stale entry (no clock runs for it) is dropped by the sweeper, not looked at for ever.
    redis_client.zadd(keys.clock_deadlines(), {created.id: 1000})
    bots = Queue("bots", connection=redis_client)
    assert ai_clocks.sweep_clocks(Store(redis_client), bots) == []
    assert redis_client.zrange(keys.clock_deadlines(), 0, -1) == []
