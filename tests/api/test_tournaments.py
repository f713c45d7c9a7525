"""Tournaments through the API with the scheduler job run in-process (no workers): external
entrants play their seats by token; plan, validation, standings maths, chart, cancel."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from ai_worker.tournaments import advance
from api import keys
from api.standings import interval, standings, superiority
from api.tournament_plan import slots
from clients.verify import verify_record
from tests.api.conftest import problem

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _externals(names: list[str], **extra: Any) -> dict[str, Any]:
    return {"game": "toy-pontoon", "options": {"players": 2}, "seed": 11,
            "entrants": [{"kind": "external", "name": n} for n in names], **extra}


def _play_out(client: FlaskClient, redis_client: redis.Redis, tournament_id: str,
              tokens: dict[str, str], rng: random.Random) -> None:
    """Play every created game's seats with random legal moves, advancing the scheduler."""
    for _ in range(200):
        advance(tournament_id, redis_client)
        body = client.get(f"/v1/tournaments/{tournament_id}").get_json()
        if body["status"] != "active":
            return
        for token in tokens.values():
            games = client.get(f"/v1/tournaments/{tournament_id}/games",
                               headers={"Authorization": f"Bearer {token}"}).get_json()
            for game in games["games"]:
                if game["status"] != "active":
                    continue
                for seat_token in game.get("tokens", {}).values():
                    auth = {"Authorization": f"Bearer {seat_token}"}
                    view = client.get(f"/v1/games/{game['game_id']}", headers=auth).get_json()
                    if view["status"] == "active" and view["to_act"] == view["seat"]:
                        client.post(f"/v1/games/{game['game_id']}/moves", headers=auth,
                                    json={"move": rng.choice(view["legal_moves"]),
                                          "version": view["version"]})
    raise AssertionError("the tournament did not end")


def test_round_robin_of_external_entrants(client: FlaskClient,
                                          redis_client: redis.Redis) -> None:
    created = client.post("/v1/tournaments", json=_externals(["ann", "bob", "cy"], deals=2,
                                                             max_parallel=3))
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    tournament_id = body["id"]
    assert body["progress"] == {"status": "active", "total": 12, "finished": 0,
                                "in_progress": 0}
    assert set(body["entrant_tokens"]) == {"ann", "bob", "cy"}
    assert all("token_sha256" not in e for e in body["entrants"])
    # The API enqueued the scheduler job (no worker runs it here).
    assert redis_client.exists(keys.tournament_kick(tournament_id))
    advance(tournament_id, redis_client)
    games = client.get(f"/v1/tournaments/{tournament_id}/games").get_json()["games"]
    # Deal 0's (ann, bob) and deal 1's: every other game of a deal seats ann or bob too, so
    # it waits for the one in progress (tournament_secrecy), places free or not.
    assert len(games) == 12 and [i for i, g in enumerate(games) if g["game_id"]] == [0, 6]
    assert all("tokens" not in g for g in games)  # no entrant token: no seat tokens
    assert client.get(f"/v1/tournaments/{tournament_id}/games",
                      headers={"Authorization": "Bearer nope"}).status_code == 401
    _play_out(client, redis_client, tournament_id, body["entrant_tokens"], random.Random(3))
    final = client.get(f"/v1/tournaments/{tournament_id}").get_json()
    assert final["status"] == "finished" and final["progress"]["finished"] == 12
    games = client.get(f"/v1/tournaments/{tournament_id}/games").get_json()["games"]
    ids = [g["game_id"] for g in games]
    assert len(set(ids)) == 12 and all(g["status"] == "finished" for g in games)
    seeds = {deal: {json.loads(redis_client.get(keys.game_meta(g["game_id"])))["seed"]
                    for g in games if g["deal"] == deal} for deal in (0, 1)}
    assert all(len(found) == 1 for found in seeds.values())  # one seed per deal
    assert seeds[0] != seeds[1]
    table = final["standings"]
    assert sum(e["games"] for e in table["entrants"]) == 24
    for entry in table["entrants"]:
        assert entry["wins"] + entry["draws"] + entry["losses"] == entry["games"] == 8
    assert client.get(f"/v1/tournaments/{tournament_id}/chart.png").data.startswith(PNG_MAGIC)


def test_plan_rotates_seats_of_each_deal() -> None:
    spec = {"format": "round_robin", "seat_count": 3, "automa_seats": {}, "deals": 2,
            "options": {}, "entrants": [{"name": n, "kind": "bot", "bot": "random"}
                                        for n in "abcd"]}
    plan = slots(spec)
    assert len(plan) == 2 * 4 * 3
    for block in {p["block"] for p in plan}:
        seatings = [p["labels"] for p in plan if p["block"] == block]
        assert len(seatings) == 3
        for seat in range(3):  # every entrant of the group in every seat of this deal
            assert len({s[seat] for s in seatings}) == 3
    gauntlet = {"format": "gauntlet", "seat_count": 2, "automa_seats": {"1": "alfred"},
                "deals": 2, "options": {"players": 1},
                "automa": {"option": "alfred", "levels": ["white", "green"]},
                "entrants": [{"name": "r", "kind": "bot", "bot": "random"},
                             {"name": "g", "kind": "bot", "bot": "greedy"}]}
    plan = slots(gauntlet)
    assert len(plan) == 8
    assert Counter(p["labels"][1] for p in plan) == {"alfred:white": 4, "alfred:green": 4}
    assert plan[1]["options"] == {"players": 1, "alfred": "white"}


def test_creation_is_validated(client: FlaskClient) -> None:
    bots = [{"bot": "random"}, {"bot": "greedy"}]
    problem(client.post("/v1/tournaments", json={"game": "nope", "entrants": bots}),
            422, "validation-error")
    problem(client.post("/v1/tournaments", json={"game": "toy-pontoon", "entrants": bots,
                                                 "options": {"players": 3}}),
            422, "validation-error")  # 3 seats, 2 entrants
    problem(client.post("/v1/tournaments", json={"game": "toy-pontoon",
                                                 "entrants": [{"bot": "random"}] * 2}),
            422, "validation-error")  # the same name twice
    problem(client.post("/v1/tournaments", json={"game": "toy-pontoon", "format": "gauntlet",
                                                 "entrants": bots}), 422, "validation-error")
    problem(client.post("/v1/tournaments", json={"game": "toy-pontoon", "entrants": [
        {"bot": "nobot"}, {"bot": "random"}]}), 422, "validation-error")
    problem(client.get("/v1/tournaments/nope"), 404, "not-found")


def test_cancel_needs_the_creator_token(client: FlaskClient,
                                        redis_client: redis.Redis) -> None:
    # Two deals: their first rotations run at once, each second one waits for its first.
    body = client.post("/v1/tournaments", json=_externals(["ann", "bob"], deals=2)).get_json()
    url = f"/v1/tournaments/{body['id']}"
    advance(body["id"], redis_client)
    problem(client.delete(url), 401, "unauthorized")
    auth = {"Authorization": f"Bearer {body['creator_token']}"}
    cancelled = client.delete(url, headers=auth)
    assert cancelled.get_json() == {"status": "cancelled", "aborted": 2}
    problem(client.delete(url, headers=auth), 409, "tournament-over")
    advance(body["id"], redis_client)
    games = client.get(f"{url}/games").get_json()["games"]
    assert [g["status"] for g in games] == ["aborted", "scheduled", "aborted", "scheduled"]
    assert client.get(url).get_json()["status"] == "cancelled"


def test_event_stream_reports_progress(client: FlaskClient) -> None:
    body = client.post("/v1/tournaments", json=_externals(["ann", "bob"])).get_json()
    client.delete(f"/v1/tournaments/{body['id']}",
                  headers={"Authorization": f"Bearer {body['creator_token']}"})
    text = client.get(f"/v1/tournaments/{body['id']}/events").get_data(as_text=True)
    assert "event: progress" in text and '"status":"cancelled"' in text


def test_standings_maths() -> None:
    games = [{"slot": 0, "block": "0", "labels": ["a", "b"],
              "result": {"scores": [10, 4], "places": [1, 2]}},
             {"slot": 1, "block": "0", "labels": ["b", "a"],
              "result": {"scores": [6, 6], "places": [1, 1]}},
             {"slot": 2, "block": "1", "labels": ["a", "b"],
              "result": {"scores": [8, 2], "ranking": [0, 1]}}]
    table = standings(["a", "b"], games)
    a, b = table["entrants"]
    assert (a["name"], a["wins"], a["draws"], a["losses"]) == ("a", 2, 1, 0)
    assert (b["wins"], b["draws"], b["losses"]) == (0, 1, 2)
    assert a["rating"]["mu"] > b["rating"]["mu"]
    assert table["head_to_head"]["a"]["b"] == {"wins": 2, "draws": 1, "losses": 0}
    assert table["superiority"][0]["better"] == "a"
    assert table["superiority"][0]["likelihood"] > 0.9
    # The margin CI is over deals: block 0 averages (6 + 0) / 2, block 1 is 6.
    assert a["mean_margin"] == pytest.approx(4.5)
    assert standings(["a", "b"], list(reversed(games))) == table  # order-independent
    assert interval([1.0]) is None and interval([2.0, 2.0]) == [2.0, 2.0]
    low, high = interval([1.0, 2.0, 3.0])
    assert low < 2 < high
    assert superiority(0, 0) is None and superiority(5, 5) == pytest.approx(0.5)


def test_a_stale_claim_is_settled_to_its_game_or_freed(client: FlaskClient,
                                                        redis_client: redis.Redis) -> None:
    """A scheduler killed between claiming a slot and settling it: the next one adopts the
    game it created (found by its metadata), or frees the slot when none was stored."""
    import core
    from ai_worker.tournaments import services_for
    from api.creation import start_game
    from api.tournament_plan import deal_of
    from api.tournament_store import TournamentStore

    body = client.post("/v1/tournaments", json={
        "game": "toy-pontoon", "entrants": [{"bot": "random"}, {"bot": "greedy"}],
        "max_parallel": 2}).get_json()
    tournament_id = body["id"]
    store = TournamentStore(redis_client)
    info = store.info(tournament_id)
    assert info is not None
    plan = slots(info["spec"])
    assert store.claim(tournament_id, 0, "claim:0:dead")  # made long ago, then died...
    orphan = start_game(services_for(redis_client), core.get_game("toy-pontoon"),
                        plan[0]["options"], plan[0]["seats"],
                        deal_of(info["spec"], info["nonce"], 0, "00"),
                        {"tournament": {"id": tournament_id, "slot": 0}})["id"]
    assert store.claim(tournament_id, 1, "claim:0:dead")  # ... and this one before creating
    advance(tournament_id, redis_client)
    games = store.games(tournament_id)
    assert games[0] == orphan
    assert games[1] != orphan and not games[1].startswith("claim:")
    metas = [name for name in redis_client.scan_iter(match="bgb:game:*:meta")]
    assert len(metas) == 2  # no third game: slot 0 was not created again


def test_a_forfeit_is_stored_with_its_move_and_shown(client: FlaskClient,
                                                     redis_client: redis.Redis) -> None:
    """A bot worker reports a move over its budget with the move: the log entry and the game
    read both show it, written by the move's own atomic commit; nobody else may report one."""
    from api import botauth
    from tests.api.conftest import create

    created = create(client, seats=[{"kind": "bot", "bot": "mcts", "params": {"ms": 5}},
                                    {"kind": "human"}])
    url = f"/v1/games/{created.id}"
    claim = {"bot": "mcts", "elapsed_ms": 900, "budget_ms": 5, "grace_ms": 100}
    bot = {"Authorization": f"Bearer {botauth.bot_token(redis_client, created.id, 0)}"}
    assert client.get(url).get_json()["forfeits"] == []
    # A human seat's token may not report a forfeit (nor may anyone but the bot's worker).
    client.post(f"{url}/moves", json={"move": {"type": "draw"}, "version": 0}, headers=bot)
    problem(client.post(f"{url}/moves", headers=created.auth(1),
                        json={"move": {"type": "draw"}, "version": 1, "forfeit": claim}),
            403, "forbidden")
    client.post(f"{url}/moves", json={"move": {"type": "draw"}, "version": 1},
                headers=created.auth(1))
    moved = client.post(f"{url}/moves", headers=bot,
                        json={"move": {"type": "draw"}, "version": 2, "forfeit": claim})
    assert moved.status_code == 200, moved.get_json()
    expected = dict(claim, seat=0, version=2)
    body = client.get(url).get_json()
    assert body["forfeits"] == [expected]
    assert client.get(url, headers=created.auth(1)).get_json()["forfeits"] == [expected]
    log = client.get(f"{url}/moves").get_json()["moves"]
    assert [entry.get("forfeit") for entry in log] == [None, None, expected]
    assert json.loads(redis_client.hget(keys.game_forfeits(created.id), "2")) == expected
    problem(client.post(f"{url}/moves", headers=bot, json={
        "move": {"type": "draw"}, "version": 3, "forfeit": {"bot": "mcts"}}),
        422, "validation-error")  # an incomplete report


def test_an_ended_tournament_expires_with_its_games(redis_client: redis.Redis, redis_url: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Finished or cancelled, a tournament's keys expire BGB_RETAIN_FINISHED after its end
    (the results its scheduler records after a cancellation too); active, they do not."""
    from api import create_app
    from tests.api.conftest import NO_RATE_LIMITS

    monkeypatch.setenv("BGB_RETAIN_FINISHED", "2h")  # the workers' (here: advance's) setting
    client = create_app({"REDIS_URL": redis_url, "TESTING": True, "RETAIN_FINISHED": 7200,
                         **NO_RATE_LIMITS}).test_client()
    body = client.post("/v1/tournaments", json=_externals(["ann", "bob"])).get_json()
    tournament_id = body["id"]
    advance(tournament_id, redis_client)
    names = [keys.tournament(tournament_id), keys.tournament_games(tournament_id),
             keys.tournament_tokens(tournament_id)]
    assert [redis_client.pttl(name) for name in names] == [-1, -1, -1]
    assert not redis_client.exists(keys.tournament_results(tournament_id))
    client.delete(f"/v1/tournaments/{tournament_id}",
                  headers={"Authorization": f"Bearer {body['creator_token']}"})
    advance(tournament_id, redis_client)  # records the aborted games
    names.append(keys.tournament_results(tournament_id))
    for name in names:
        assert 7000 * 1000 < redis_client.pttl(name) <= 7200 * 1000, name
    game_id = client.get(f"/v1/tournaments/{tournament_id}/games").get_json()["games"][0][
        "game_id"]
    assert 7000 * 1000 < redis_client.pttl(keys.game_state(game_id)) <= 7200 * 1000


def _play_game(client: FlaskClient, game_id: str, tokens: dict[str, str],
               rng: random.Random) -> dict[str, Any]:
    """Play one game to its end with random legal moves of the given seats' tokens; the
    answer to its last move."""
    last: dict[str, Any] = {}
    for _ in range(100):
        for seat_token in tokens.values():
            auth = {"Authorization": f"Bearer {seat_token}"}
            view = client.get(f"/v1/games/{game_id}", headers=auth).get_json()
            if view["status"] != "active":
                return last
            if view["to_act"] == view["seat"]:
                last = client.post(f"/v1/games/{game_id}/moves", headers=auth,
                                   json={"move": rng.choice(view["legal_moves"]),
                                         "version": view["version"]}).get_json()
    raise AssertionError("the game did not end")


def test_a_deal_in_play_is_held_back_from_external_entrants(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    """Two rotations of one deal share its seed: while one is in play, the other's state,
    log, seed and result are out of an external entrant's reach, and the two never run at
    once for one entrant (api.tournament_secrecy)."""
    created = client.post("/v1/tournaments", json={
        "game": "toy-secret", "options": {"players": 2}, "seed": 5, "max_parallel": 4,
        "entrants": [{"kind": "external", "name": "ann"}, {"kind": "external", "name": "bob"}]
    }).get_json()
    tournament_id, entrants = created["id"], created["entrant_tokens"]
    url = f"/v1/tournaments/{tournament_id}"
    ann = {"Authorization": f"Bearer {entrants['ann']}"}
    advance(tournament_id, redis_client)
    games = client.get(f"{url}/games", headers=ann).get_json()["games"]
    # Both rotations seat ann (and bob): the second waits for the first, places or not.
    assert [g["game_id"] is not None for g in games] == [True, False]
    first = games[0]["game_id"]
    for path in ("", "/moves"):  # no spectator reads a game of a deal in play
        problem(client.get(f"/v1/games/{first}{path}"), 403, "forbidden")
    problem(client.get(f"/v1/games/{first}?wait_version=0&timeout=1"), 403, "forbidden")
    seat_tokens = {}
    for name, token in entrants.items():
        row = client.get(f"{url}/games", headers={"Authorization": f"Bearer {token}"}
                         ).get_json()["games"][0]
        seat_tokens.update({f"{name}{seat}": t for seat, t in row["tokens"].items()})
    assert client.get(f"/v1/games/{first}", headers={
        "Authorization": f"Bearer {seat_tokens['ann0']}"}).status_code == 200
    last = _play_game(client, first, seat_tokens, random.Random(1))
    assert last["status"] == "finished" and last["result"] is None  # the deal is in play
    advance(tournament_id, redis_client)  # records the first, starts the second
    games = client.get(f"{url}/games").get_json()["games"]
    assert [g["status"] for g in games] == ["finished", "active"]
    assert games[0]["result"] is None and "forfeits" not in games[0]  # the deal is in play
    assert all(e["games"] == 0 for e in client.get(url).get_json()["standings"]["entrants"])
    # Ended, the first game still keeps the deal's secrets, even from its own seats.
    auth = {"Authorization": f"Bearer {seat_tokens['ann0']}"}
    read = client.get(f"/v1/games/{first}", headers=auth).get_json()
    assert read["status"] == "finished" and read["deal"]["revealed"] is None
    assert read["result"] is None  # the other seat's final hand is the second game's
    over = problem(client.post(f"/v1/games/{first}/moves", headers=auth, json={
        "move": {"type": "stop"}, "version": read["version"]}), 409, "game-over")
    assert over["result"] is None
    log = client.get(f"/v1/games/{first}/moves", headers=auth).get_json()["moves"]
    assert any(e.get("redacted") for m in log if m["seat"] == 1 for e in m["events"])
    problem(client.get(f"/v1/games/{first}"), 403, "forbidden")
    # Nor does a replay or the record (api.replays): the seat's own past views only.
    replay = client.get(f"/v1/games/{first}?at={read['version']}", headers=auth).get_json()
    assert replay["result"] is None and replay["deal"]["revealed"] is None
    assert replay["view"]["hands"][0] is not None and replay["view"]["hands"][1] is None
    problem(client.get(f"/v1/games/{first}?at=1&seat=1", headers=auth), 403, "forbidden")
    problem(client.get(f"/v1/games/{first}?at=1"), 403, "forbidden")
    problem(client.get(f"/v1/games/{first}/record"), 409, "game-active")
    second = games[1]["game_id"]
    problem(client.get(f"/v1/games/{second}"), 403, "forbidden")
    seat_tokens = {}
    for name, token in entrants.items():
        row = client.get(f"{url}/games", headers={"Authorization": f"Bearer {token}"}
                         ).get_json()["games"][1]
        seat_tokens.update({f"{name}{seat}": t for seat, t in row["tokens"].items()})
    _play_game(client, second, seat_tokens, random.Random(2))
    advance(tournament_id, redis_client)
    # The deal played out (and the tournament with it): everything is shown.
    body = client.get(url).get_json()
    assert body["status"] == "finished"
    assert all(e["games"] == 2 for e in body["standings"]["entrants"])
    games = client.get(f"{url}/games").get_json()["games"]
    assert all(g["result"] is not None for g in games)
    read = client.get(f"/v1/games/{first}").get_json()
    assert read["result"] is not None
    assert read["deal"]["revealed"]["seed"] == json.loads(
        redis_client.get(keys.game_meta(second)))["seed"]
    log = client.get(f"/v1/games/{first}/moves").get_json()["moves"]
    assert not any(e.get("redacted") for m in log for e in m["events"])
    record = client.get(f"/v1/games/{first}/record").get_json()
    assert verify_record(record).ok and record["result"] == read["result"]
    opened = client.get(f"/v1/games/{first}?at={read['version']}&seat=1").get_json()
    assert opened["view"]["hands"][1] is not None and opened["seat"] == 1


def test_bots_fill_the_places_an_external_entrant_leaves() -> None:
    """Only the games of one deal seating the same external entrant wait for each other."""
    from api.tournament_secrecy import busy_entrants, open_deals, waits_for_sibling

    spec = {"format": "round_robin", "seat_count": 2, "automa_seats": {}, "deals": 2,
            "options": {}, "entrants": [{"name": "ann", "kind": "external"},
                                        {"name": "r", "kind": "bot", "bot": "random"},
                                        {"name": "g", "kind": "bot", "bot": "greedy"}]}
    plan = slots(spec)
    busy: set[tuple[int, int]] = set()
    started = []
    for entry in plan:
        if not waits_for_sibling(entry, busy):
            started.append(entry["slot"])
            busy |= busy_entrants(spec, plan, [entry["slot"]])
    # Deal 0: (ann, r) starts, its rotation and (ann, g) both ways wait, (r, g) both run;
    # deal 1 the same.
    assert [plan[s]["labels"] for s in started[:3]] == [["ann", "r"], ["r", "g"], ["g", "r"]]
    assert len(started) == 6 and all(plan[s]["deal"] == 1 for s in started[3:])
    assert open_deals(spec, "active", {0: {}, 1: {}}) == set()
    assert open_deals(spec, "active", {s: {} for s in range(6)}) == {0}
    assert open_deals(spec, "cancelled", {}) is None
    assert open_deals(dict(spec, entrants=spec["entrants"][1:]), "active", {}) is None
