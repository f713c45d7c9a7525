"""A record's entries outside the rules (an abort, a resignation, a time-out, abandonment)
are verified as strictly as its moves: each as the server writes it (core.records' entry
builders, which the API and the workers use), an ending entry last, and the seats the
record lists as resigned exactly those whose resignation it holds (docs/records.md)."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue

from ai_worker import clocks as ai_clocks
from api import create_app
from api.store import Store
from clients.verify import verify_record
from tests.api.conftest import NO_RATE_LIMITS, Created, create, move

Record = dict[str, Any]


def _record(client: FlaskClient, created: Created) -> Record:
    response = client.get(f"/v1/games/{created.id}/record")
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def _abort(client: FlaskClient, created: Created) -> None:
    creator = {"Authorization": f"Bearer {created.body['creator_token']}"}
    assert client.post(f"/v1/games/{created.id}/abort", headers=creator).status_code == 200


def _resign(client: FlaskClient, created: Created, seat: int) -> None:
    answer = client.post(f"/v1/games/{created.id}/resign", json={},
                         headers=created.auth(seat))
    assert answer.status_code == 200, answer.get_json()


def aborted(client: FlaskClient, redis_client: redis.Redis, redis_url: str) -> Record:
    """A toy game of two seats aborted by its creator after a move."""
    created = create(client, players=2)
    assert move(client, created, 0, 0).status_code == 200
    _abort(client, created)
    return _record(client, created)


def resigned(client: FlaskClient, redis_client: redis.Redis, redis_url: str) -> Record:
    """A game of three seats: seat 1 resigns (a bot plays on for it), then the creator
    aborts the game (no worker plays the bot's turns here)."""
    created = create(client, players=3)
    assert move(client, created, 0, 0).status_code == 200
    _resign(client, created, 1)
    _abort(client, created)
    return _record(client, created)


def timed_out(client: FlaskClient, redis_client: redis.Redis, redis_url: str) -> Record:
    """A game of three seats whose seat 0 runs out of time (a bot takes it), then aborted."""
    created = create(client, players=3, clock={"per_move": 1, "on_timeout": "bot"})
    late = int(time.time() * 1000) + 1500
    assert ai_clocks.sweep_clocks(Store(redis_client), Queue("bots", connection=redis_client),
                                  late) == [created.id]
    _abort(client, created)
    return _record(client, created)


def timed_out_resigned(client: FlaskClient, redis_client: redis.Redis, redis_url: str) -> Record:
    """A game of two seats whose seat 0 runs out of time with `resign`: it ends there."""
    created = create(client, players=2, clock={"per_move": 1, "on_timeout": "resign"})
    late = int(time.time() * 1000) + 1500
    assert ai_clocks.sweep_clocks(Store(redis_client), Queue("bots", connection=redis_client),
                                  late) == [created.id]
    return _record(client, created)


def abandoned(client: FlaskClient, redis_client: redis.Redis, redis_url: str) -> Record:
    """A game nobody moved in for the abandon-after time (0.3 s here), after a move."""
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS,
                      "ABANDON_AFTER": 0.3})
    impatient = app.test_client()
    created = create(impatient, players=2)
    assert move(impatient, created, 0, 0).status_code == 200
    time.sleep(0.5)
    return _record(impatient, created)


MAKERS = [aborted, resigned, timed_out, timed_out_resigned, abandoned]


@pytest.mark.parametrize("make", MAKERS, ids=[m.__name__ for m in MAKERS])
def test_a_record_with_entries_outside_the_rules_verifies(
        client: FlaskClient, redis_client: redis.Redis, redis_url: str,
        make: Callable[[FlaskClient, redis.Redis, str], Record]) -> None:
    record = make(client, redis_client, redis_url)
    assert any(entry.get("system") for entry in record["moves"])
    report = verify_record(record)
    assert report.ok, report.faults
    assert any("entries outside the rules" in check for check in report.checks)


def _system(record: Record, kind: str) -> dict[str, Any]:
    return next(e for e in record["moves"] if e.get("system") and e["move"]["type"] == kind)


def _append_copy_of_last(record: Record) -> None:
    extra = copy.deepcopy(record["moves"][-1])
    extra.update(index=len(record["moves"]), version=extra["version"] + 1)
    record["moves"].append(extra)


TAMPERS = [
    ("aborted", lambda r: _system(r, "abort")["events"][0].update(by="seat 1"),
     "the abort entry's events are not those the server writes"),
    ("aborted", lambda r: r.update(status="abandoned"),
     "an abort leaves the game aborted, the record says 'abandoned'"),
    ("aborted", _append_copy_of_last, "the abort ends the game, but entries follow it"),
    ("abandoned", lambda r: _system(r, "abandon")["events"].append({"type": "aborted"}),
     "the abandon entry's events are not those the server writes"),
    ("abandoned", lambda r: r.update(status="finished"),
     "an abandon leaves the game abandoned"),
    ("aborted", lambda r: _system(r, "abort")["move"].update(type="pause"),
     "'pause' is no entry the server writes outside the rules"),
    ("resigned", lambda r: _system(r, "resign")["events"][0].update(seat=2),
     "the resign entry's events are not those the server writes"),
    ("resigned", lambda r: _system(r, "resign").update(seat=7),
     "a 'resign' entry of no seat of the game (7)"),
    ("resigned", lambda r: r["seats"][1].update(resigned=False),
     "the seats the record lists as resigned ([]) are not those whose resignation it holds"),
    ("resigned", lambda r: r["seats"][2].update(resigned=True),
     "the seats the record lists as resigned ([1, 2])"),
    ("timed_out", lambda r: _system(r, "timeout")["events"][0].update(action="resign"),
     "the timeout entry's events are not those the server writes"),
    ("timed_out", lambda r: _system(r, "timeout")["events"][0].pop("bot"),
     "the timeout entry's events are not those the server writes"),
    ("timed_out_resigned", lambda r: _system(r, "resign")["events"][0].update(action="bot"),
     "the resign entry's events are not those the server writes"),
]


@pytest.mark.parametrize(("made_by", "tamper", "fault"), TAMPERS,
                         ids=[f"{made}-{fault[:40]}" for made, _, fault in TAMPERS])
def test_a_tampered_entry_outside_the_rules_fails(
        client: FlaskClient, redis_client: redis.Redis, redis_url: str, made_by: str,
        tamper: Callable[[Record], None], fault: str) -> None:
    record = globals()[made_by](client, redis_client, redis_url)
    assert verify_record(record).ok
    tamper(record)
    report = verify_record(record)
    assert not report.ok
    assert any(fault in text for text in report.faults), report.faults
