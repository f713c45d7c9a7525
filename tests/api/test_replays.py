"""Replays (`?at=N`), records (`/record`, `bgb verify RECORD.json`) and unknown query
parameters refused (api.replays, api.queries, clients.verify)."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api import create_app, keys, replays
from clients.cli import main
from clients.verify import verify_record
from tests.api.conftest import NO_RATE_LIMITS, Created, create, move, problem

GAME = "toy-secret"  # a private card event per draw, a secret stop


def _play(client: FlaskClient, created: Created, kinds: list[str],
          ) -> dict[int, dict[int | None, dict[str, Any]]]:
    """Play `kinds` (draw or stop) by whoever is to act; each seat's and a spectator's game
    as read live at every version, by version."""
    url = f"/v1/games/{created.id}"
    seen: dict[int, dict[int | None, dict[str, Any]]] = {}

    def look() -> dict[str, Any]:
        live = {seat: client.get(url, headers=created.auth(seat)).get_json()
                for seat in created.tokens}
        live[None] = client.get(url).get_json()  # type: ignore[index]
        seen[live[0]["version"]] = live  # type: ignore[assignment]
        return live[0]

    body = look()
    for kind in kinds:
        if body["status"] != "active":
            break
        seat = body["to_act"]
        chosen = next(m for m in seen[body["version"]][seat]["legal_moves"]
                      if m["type"] == kind)
        response = client.post(f"{url}/moves", json={"move": chosen,
                                                     "version": body["version"]},
                               headers=created.auth(seat))
        assert response.status_code == 200, response.get_json()
        body = look()
    return seen


def _at(client: FlaskClient, created: Created, at: int, reader: int | None,
        **query: Any) -> Any:
    """A replay read at version `at` by seat `reader` (None: a spectator)."""
    headers = created.auth(reader) if reader is not None else {}
    return client.get(f"/v1/games/{created.id}", query_string={"at": at, **query},
                      headers=headers)


def _seed(redis_client: redis.Redis, game_id: str) -> int:
    return int(json.loads(redis_client.get(keys.game_meta(game_id)))["seed"])


def test_during_play_a_seat_sees_only_its_own_past_views(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client, GAME)
    seen = _play(client, created, ["draw"] * 6)
    version = max(seen)
    seed = str(_seed(redis_client, created.id))
    for at in range(version + 1):
        for seat in (0, 1, None):
            response = _at(client, created, at, seat)
            assert response.status_code == 200, response.get_json()
            body = response.get_json()
            live = seen[at][seat]
            # Exactly what the seat (or a spectator) was shown at that version.
            assert body["view"] == live["view"] and body["legal_moves"] == live["legal_moves"]
            assert body["version"] == at and body["to_act"] == live["to_act"]
            assert body["seat"] == seat and body["status"] == "active"
            hands = body["view"]["hands"]
            assert [hand is not None for hand in hands] == [s == seat for s in (0, 1)]
            assert body["deal"]["revealed"] is None and body["result"] is None
            assert seed not in response.get_data(as_text=True)
        # Another seat's view stays closed while the game runs.
        problem(_at(client, created, at, 0, seat=1), 403, "forbidden")
        problem(_at(client, created, at, None, seat=0), 403, "forbidden")
    assert seen[version][0]["view"]["hands"][0], "the seat drew cards"


def test_after_the_end_every_seat_is_open_at_every_version(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replays, "CHECKPOINT_EVERY", 2)  # replays start from checkpoints too
    created = create(client, GAME)
    seen = _play(client, created, ["draw", "draw", "draw", "stop", "draw", "stop"])
    version = max(seen)
    assert seen[version][None]["status"] == "finished"
    revealed = seen[version][None]["deal"]["revealed"]
    for at in range(version + 1):
        for reader in (0, 1, None):
            for seat in (0, 1):
                body = _at(client, created, at, reader, seat=seat).get_json()
                assert body["view"] == seen[at][seat]["view"], (at, reader, seat)
                assert body["seat"] == seat and body["deal"]["revealed"] == revealed
    final = _at(client, created, version, None).get_json()
    assert final["status"] == "finished" and final["result"] == seen[version][None]["result"]
    # Stepping backwards and forwards replays from this process's states: the same answers.
    for at in [*range(version, -1, -1), *range(version + 1)]:
        assert _at(client, created, at, 1).get_json()["view"] == seen[at][1]["view"]


def test_a_replay_is_bounded_and_alone(client: FlaskClient) -> None:
    created = create(client, GAME)
    _play(client, created, ["draw", "draw"])
    body = problem(_at(client, created, 3, 0), 422, "validation-error")
    assert "version 2" in body["detail"]
    problem(_at(client, created, 0, 0, wait_version=0), 422, "validation-error")
    problem(client.get(f"/v1/games/{created.id}?seat=0"), 422, "validation-error")
    problem(_at(client, created, -1, 0), 422, "validation-error")
    body = problem(_at(client, created, 0, 0, seat=1), 403, "forbidden")
    problem(client.get("/v1/games/nosuchgame?at=0"), 404, "not-found")


def test_unknown_query_parameters_are_refused(client: FlaskClient) -> None:
    created = create(client, GAME)
    url = f"/v1/games/{created.id}"
    before = client.get(url).get_json()["version"]
    for path in (f"{url}?version=5", f"{url}?version=5&lang=pt-BR",
                 f"{url}/moves?limt=10", f"{url}/record?x=1", "/v1/games-catalog?game=x"):
        body = problem(client.get(path, headers=created.auth(0)), 400, "bad-request")
        unknown = next(iter(body["errors"]["query"]))
        assert unknown in body["detail"] and unknown in ("version", "limt", "x", "game")
    refused = move(client, created, 0, before)
    assert refused.status_code == 200  # the same move without the parameter is played
    problem(client.post(f"{url}/moves?dry_run=1", json={"move": {"type": "draw"},
                                                        "version": before + 1},
                        headers=created.auth(1)), 400, "bad-request")
    assert client.get(url).get_json()["version"] == before + 1, "a refused move changed it"
    # What the operations declare still works, `lang` everywhere.
    assert client.get(f"{url}?lang=pt-BR").status_code == 200
    assert client.get(f"{url}/moves?after=0&limit=5&lang=en").status_code == 200
    assert client.get(f"{url}?wait_version=0&timeout=0").status_code == 200


def test_the_openapi_document_declares_the_replay_and_the_record(client: FlaskClient) -> None:
    document = client.get("/v1/openapi.json").get_json()
    read = document["paths"]["/v1/games/{game_id}"]["get"]
    names = {p.get("name") for p in read["parameters"]}
    assert {"at", "seat", "wait_version", "timeout"} <= names
    assert "400" in read["responses"]
    record = document["paths"]["/v1/games/{game_id}/record"]["get"]
    assert record["operationId"] == "getGameRecord"
    assert set(record["responses"]) >= {"200", "400", "404", "409"}
    schema = document["components"]["schemas"]["Record"]
    assert {"format", "game", "options", "deal", "seats", "moves", "result", "rules"} <= set(
        schema["required"])


def _finished_record(client: FlaskClient) -> tuple[Created, dict[str, Any]]:
    created = create(client, GAME)
    url = f"/v1/games/{created.id}/record"
    problem(client.get(url), 409, "game-active")
    _play(client, created, ["draw", "draw", "draw", "stop", "draw", "stop"])
    response = client.get(url)
    assert response.status_code == 200, response.get_json()
    return created, response.get_json()


def test_a_record_holds_the_whole_game_and_verifies_offline(client: FlaskClient) -> None:
    created, record = _finished_record(client)
    assert record["format"] == "bgb-record" and record["format_version"] == 1
    assert record["game"] == GAME and record["status"] == "finished"
    assert record["result"] == client.get(f"/v1/games/{created.id}").get_json()["result"]
    log = client.get(f"/v1/games/{created.id}/moves").get_json()["moves"]
    assert [m["move"] for m in record["moves"]] == [m["move"] for m in log]
    assert record["moves"][3]["move"].get("total") is not None, "the secret stop, revealed"
    assert any(e.get("card") for m in record["moves"] for e in m["events"])
    assert record["rules"]["snapshot"] == 1 and record["rules"]["package"] == "boardgamesbot"
    report = verify_record(record)
    assert report.ok, report.faults
    assert "6 moves replayed with the same events" in report.checks


@pytest.mark.parametrize(("tamper", "fault"), [
    (lambda r: r["moves"][1]["events"][1].update(card=99), "move 1: the replay's events"),
    # No hand of cards 1-10 totals 0: a total of 1 was legal when the hand was one ace.
    (lambda r: r["moves"][2]["move"].update(type="stop", secret=True, total=0),
     "move 2 is not legal"),
    (lambda r: r["result"].update(scores=[-1, -1]), "result differs"),
    (lambda r: r["deal"]["revealed"].update(seed=r["deal"]["revealed"]["seed"] + 1),
     "do not match the published commitment"),
    (lambda r: r["moves"].pop(2), "move 2: the record numbers it 3"),
    (lambda r: r.update(format_version=2), "not a bgb-record record of version 1"),
    (lambda r: r.update(options={"players": 3}), "the rules have seat 2 to act"),
    (lambda r: r.pop("moves"), "the record is malformed"),
])
def test_a_tampered_record_fails(client: FlaskClient, tamper: Any, fault: str) -> None:
    _, record = _finished_record(client)
    tampered = copy.deepcopy(record)
    tamper(tampered)
    report = verify_record(tampered)
    assert not report.ok
    assert any(fault in text for text in report.faults), report.faults


def test_bgb_verify_reads_a_record_file_without_a_server(
        client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, record = _finished_record(client)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    # No server at this URL: an offline check must not need one.
    assert main(["verify", str(path), "--url", "http://127.0.0.1:9"]) == 0
    assert "verified" in capsys.readouterr().out
    record["moves"][0]["events"][0]["seat"] = 1
    path.write_text(json.dumps(record))
    assert main(["verify", str(path), "--url", "http://127.0.0.1:9"]) == 1
    out = " ".join(capsys.readouterr().out.split())  # rich wraps long lines
    assert "FAILED" in out and "move 0: the replay's events differ" in out
    path.write_text("not json")
    assert main(["verify", str(path)]) == 1
    assert "not a readable record" in " ".join(capsys.readouterr().out.split())


def test_a_long_replay_counts_against_the_read_limit(
        redis_client: redis.Redis, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replays, "REPLAY_MOVES_PER_READ", 2)
    monkeypatch.setattr(replays, "CHECKPOINT_EVERY", 2)
    app: Flask = create_app({"REDIS_URL": redis_url, "TESTING": True,
                             **dict(NO_RATE_LIMITS, RATE_LIMIT_READS="7/minute")})
    client = app.test_client()
    games = [create(client, GAME), create(client, GAME)]
    for created in games:
        for version in range(6):  # moves are not reads
            assert move(client, created, version % 2, version).status_code == 200
    first, second = games
    assert _at(client, first, 5, 0).status_code == 200  # 5 moves replayed: 1 + 2 reads
    assert _at(client, first, 4, 0).status_code == 200  # a checkpoint: 1 read
    assert _at(client, first, 3, 0).status_code == 200  # 1 move from a checkpoint: 1 read
    assert _at(client, first, 6, 0).status_code == 200  # the current version: 1 read
    # 6 reads so far: a plain read would be the 7th (allowed); a replay of 4 moves costs 2
    # more.
    problem(_at(client, second, 4, 0), 429, "rate-limited")


# -- a record from anywhere, replayed: POST /v1/records/replay ---------------------------------

REAL_GAMES = [("darwins-journey", 2), ("flotilla", 3), ("encyclopedia", 2)]


def _played_by_bots(client: FlaskClient, game: str, players: int) -> dict[str, Any]:
    """A game of `game` whose seats a bot plays in this process (the worker's own choice of
    move, from each seat's view), to its end; its record."""
    from ai_worker.jobs import choose_move

    created = create(client, game, players, seed=11)
    url = f"/v1/games/{created.id}"
    body = client.get(url).get_json()
    while body["status"] == "active":
        seat = body["to_act"]
        body = client.get(url, headers=created.auth(seat)).get_json()
        chosen = choose_move(game, "random", body["view"], seat, body["legal_moves"], {},
                             body["version"])
        answer = client.post(f"{url}/moves", json={"move": chosen, "version": body["version"]},
                             headers=created.auth(seat))
        assert answer.status_code == 200, answer.get_json()
        body = client.get(url).get_json()
    record = client.get(f"{url}/record")
    assert record.status_code == 200, record.get_json()
    return record.get_json()


@dataclass
class Played:
    """A finished game's record, and how the server that played it answered `?at=N` (a
    spectator's and seat 1's reads) at a few versions."""

    record: dict[str, Any]
    at: dict[tuple[int, int | None], dict[str, Any]]


@pytest.fixture(scope="module")
def real_records(redis_url: str) -> dict[str, Played]:
    """A record of each of the three games, played by bots (once for this module's tests)."""
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, **NO_RATE_LIMITS})
    client = app.test_client()
    played = {}
    for game, players in REAL_GAMES:
        record = _played_by_bots(client, game, players)
        last = len(record["moves"])
        at = {(n, seat): client.get(f"/v1/games/{record['id']}", query_string={
            "at": n, **({} if seat is None else {"seat": seat})}).get_json()
            for n in sorted({0, 1, last // 2, last - 1, last}) for seat in (None, 1)}
        played[game] = Played(record, at)
    redis.Redis.from_url(redis_url).flushdb()
    return played


def _replay(client: FlaskClient, record: Any, **query: Any) -> Any:
    return client.post("/v1/records/replay", json=record, query_string=query)


@pytest.mark.parametrize("game", [game for game, _ in REAL_GAMES])
def test_a_record_of_each_game_is_replayed_move_by_move(
        client: FlaskClient, redis_client: redis.Redis, real_records: dict[str, Played],
        game: str) -> None:
    played = real_records[game]
    record = played.record
    assert redis_client.dbsize() == 0
    for seat in (None, 1):
        response = _replay(client, record, **({} if seat is None else {"seat": seat}))
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        assert body["game"] == game and body["id"] == record["id"] and body["seat"] == seat
        assert f"{len(record['moves'])} moves replayed with the same events" in body["checks"]
        views = body["views"]
        assert [v["version"] for v in views] == list(range(len(record["moves"]) + 1))
        # Each step is what the server that played the game answers for it once it is over.
        for (at, reader), read in played.at.items():
            if reader == seat:
                shown = views[at]
                for member in ("id", "game", "options", "version", "status", "to_act", "seat",
                               "seats", "view", "legal_moves", "result", "deal"):
                    assert shown[member] == read[member], (game, at, seat, member)
        assert views[-1]["status"] == "finished" and views[-1]["result"] == record["result"]
        assert all(v["status"] == "active" for v in views[:-1])
        # The log, in words: every move labelled, every event of the rules described.
        assert [m["index"] for m in body["moves"]] == [m["index"] for m in record["moves"]]
        assert all(m["move"].get("label") for m in body["moves"])
        assert all(e.get("text") for m in body["moves"] for e in m["events"]
                   if e["type"] != "game_over")
    assert redis_client.dbsize() == 0, "a replay of a record stores nothing"
    english = _replay(client, record).get_json()
    portuguese = _replay(client, record, lang="pt-BR").get_json()
    assert portuguese["views"] != english["views"] or game == "flotilla"
    assert [m["move"]["label"] for m in portuguese["moves"]] != [
        m["move"]["label"] for m in english["moves"]]


def _first_with_events(record: dict[str, Any]) -> int:
    return next(m["index"] for m in record["moves"] if m["events"] and not m.get("system"))


@pytest.mark.parametrize(("tamper", "fault"), [
    (lambda r: r["moves"][_first_with_events(r)]["events"].append({"type": "bogus"}),
     "the replay's events differ from the record's"),
    (lambda r: r["moves"][3].update(move={"type": "teleport"}), "move 3 is not legal"),
    (lambda r: r["result"].update(scores=[-1] * len(r["result"]["scores"])),
     "the replay's result differs from the record's"),
    (lambda r: r["deal"]["revealed"].update(seed=r["deal"]["revealed"]["seed"] + 1),
     "do not match the published commitment"),
    (lambda r: r["moves"].pop(2), "move 2: the record numbers it 3"),
    (lambda r: r.update(format_version=2), "not a bgb-record record of version 1"),
    (lambda r: r.update(game="chess"), "this bgb has no rules for 'chess'"),
])
@pytest.mark.parametrize("game", [game for game, _ in REAL_GAMES])
def test_a_tampered_record_is_refused_with_its_fault(
        client: FlaskClient, redis_client: redis.Redis, real_records: dict[str, Played],
        game: str, tamper: Any, fault: str) -> None:
    tampered = copy.deepcopy(real_records[game].record)
    tamper(tampered)
    body = problem(_replay(client, tampered), 422, "validation-error")
    assert fault in body["detail"], body["detail"]
    assert any(fault in text for text in body["errors"]["json"]["record"])
    assert redis_client.dbsize() == 0


def test_what_is_no_record_is_refused(client: FlaskClient,
                                      real_records: dict[str, Played]) -> None:
    record = real_records["encyclopedia"].record
    missing = {k: v for k, v in record.items() if k != "moves"}
    body = problem(_replay(client, missing), 422, "validation-error")
    assert "moves" in body["errors"]["json"]
    problem(_replay(client, {**record, "status": "active"}), 422, "validation-error")
    problem(_replay(client, [record]), 422, "validation-error")
    problem(client.post("/v1/records/replay", data="{not json",
                        content_type="application/json"), 400, "bad-request")
    problem(client.post("/v1/records/replay", data=json.dumps(record),
                        content_type="text/plain"), 415, "unsupported-media-type")
    body = problem(_replay(client, record, seat=len(record["seats"])), 422, "validation-error")
    assert "seat" in body["errors"]["query"]
    problem(_replay(client, record, at=3), 400, "bad-request")
    # A record may be larger than any other body (64 KiB), up to its own limit.
    assert len(json.dumps(real_records["flotilla"].record)) > 64 * 1024
    padded = {**record, "options": {**record["options"], "x": "x" * replays.RECORD_MAX_BYTES}}
    problem(_replay(client, padded), 413, "payload-too-large")
    problem(client.post("/v1/games", json={"game": "toy-pontoon", "x": "x" * 70_000}), 413,
            "payload-too-large")


def test_replaying_records_is_rate_limited(redis_client: redis.Redis, redis_url: str,
                                           real_records: dict[str, Played]) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True,
                      **dict(NO_RATE_LIMITS, RATE_LIMIT_OTHER="2/minute")})
    client = app.test_client()
    record = real_records["encyclopedia"].record
    assert _replay(client, record).status_code == 200
    assert _replay(client, record).status_code == 200
    problem(_replay(client, record), 429, "rate-limited")


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths to every leaf of a JSON document."""
    if isinstance(value, dict) and value:
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))]
    return [path]


def test_mangled_records_are_refused_never_errors(
        client: FlaskClient, real_records: dict[str, Played]) -> None:
    """Any leaf of a real record replaced by an odd value: verified or refused (422), never a
    server error (the record is the client's input, all the way into the rules)."""
    rng = random.Random(28)
    odd = [None, -1, 0, 2**70, "x", "", [], {}, True, 1.5]
    statuses = []
    for game, played in real_records.items():
        paths = _leaves(played.record)
        for _ in range(20):
            mangled = copy.deepcopy(played.record)
            *parents, last = rng.choice(paths)
            holder = mangled
            for key in parents:
                holder = holder[key]
            holder[last] = rng.choice(odd)
            response = _replay(client, mangled)
            assert response.status_code in (200, 422), (game, parents, last,
                                                        response.get_json())
            statuses.append(response.status_code)
    assert 422 in statuses


def test_a_record_with_a_take_back_replays_as_the_server_answers_it(
        client: FlaskClient) -> None:
    created = create(client, "toy-pontoon", unranked=True)
    url = f"/v1/games/{created.id}"
    assert move(client, created, 0, 0, "stop").status_code == 200      # v1, taken back
    assert client.post(f"{url}/takeback", json={"version": 1},
                       headers=created.auth(0)).status_code == 200     # v2
    for version, (seat, kind) in enumerate([(0, "draw"), (1, "stop"), (0, "stop")], start=2):
        assert move(client, created, seat, version, kind).status_code == 200
    record = client.get(f"{url}/record").get_json()
    assert record["moves"][1]["takeback"] == 0
    for seat in (None, 0, 1):
        query = {} if seat is None else {"seat": seat}
        body = _replay(client, record, **query).get_json()
        assert "1 take-backs, each of a move that could be" in body["checks"]
        for at, shown in enumerate(body["views"]):
            read = client.get(url, query_string={"at": at, **query}).get_json()
            assert {k: shown[k] for k in read if k in shown} == {
                k: read[k] for k in shown if k in read}, (at, seat)
        assert body["moves"][1]["events"][0]["text"] == "Player 1 took back a move"


def test_the_sdk_replays_a_record_file(app: Flask, real_records: dict[str, Played],
                                       tmp_path: Path) -> None:
    """`Client.replay_record` on a record read back from a file, through the SDK's HTTP
    stack (the app mounted in this process)."""
    import requests

    from ai_worker.local_api import mount
    from clients.sdk import Client, ValidationError
    from clients.verify import load_record

    session = requests.Session()
    sdk = Client(mount(session, app), session=session)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(real_records["darwins-journey"].record))
    record = load_record(str(path))
    replayed = sdk.replay_record(record, seat=0)
    assert replayed["seat"] == 0 and len(replayed["views"]) == len(record["moves"]) + 1
    assert replayed["views"][-1]["result"] == record["result"]
    record["moves"][4]["seat"] = 1 - record["moves"][4]["seat"]
    with pytest.raises(ValidationError) as refused:
        sdk.replay_record(record)
    assert "move 4: seat" in refused.value.detail
    assert refused.value.errors["json"]["record"] == [refused.value.detail.split(": ", 1)[1]]
