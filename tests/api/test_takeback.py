"""Taking back a move (api.takeback): allowed only for the seat's own last move in a practice
game, while nobody else has acted and when the move drew and revealed nothing; stored like a
move (CAS, log entry, new version, Idempotency-Key); replays and `bgb verify` follow it.

toy-pontoon: `stop` changes nothing hidden (it may be taken back), `draw` takes the deck's
top card into a hidden hand (it never may)."""

from __future__ import annotations

import copy
from typing import Any

import redis
from flask.testing import FlaskClient

from clients.verify import verify_record
from tests.api.conftest import Created, create, move, problem, snapshot


def takeback(client: FlaskClient, created: Created, seat: int, version: int,
             **headers: str) -> Any:
    """Post a take-back for `seat` at `version`."""
    return client.post(f"/v1/games/{created.id}/takeback", json={"version": version},
                       headers={**created.auth(seat), **headers})


def version_of(client: FlaskClient, created: Created) -> int:
    return int(client.get(f"/v1/games/{created.id}").get_json()["version"])


def test_a_seat_takes_back_its_stop_before_the_next_seat_acts(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client, unranked=True)
    before = snapshot(redis_client, created.id)
    assert move(client, created, 0, 0, "stop").status_code == 200
    read = client.get(f"/v1/games/{created.id}", headers=created.auth(0)).get_json()
    assert read["takeback"] == 0, "the read offers the take-back of move 0"
    other = client.get(f"/v1/games/{created.id}", headers=created.auth(1)).get_json()
    assert other["takeback"] is None
    assert client.get(f"/v1/games/{created.id}").get_json()["takeback"] is None  # spectator

    response = takeback(client, created, 0, 1)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body == {"game": "toy-pontoon", "version": 2, "taken_back": 0, "status": "active",
                    "to_act": 0, "legal_moves": body["legal_moves"]}
    assert [m["type"] for m in body["legal_moves"]] == ["draw", "stop"]
    assert response.headers["ETag"] == '"2"'
    assert snapshot(redis_client, created.id) == before, "the state before the move again"

    log = client.get(f"/v1/games/{created.id}/moves", headers=created.auth(0)).get_json()
    entry = log["moves"][1]
    assert entry["takeback"] == 0 and entry["seat"] == 0 and entry["version"] == 2
    assert entry["move"] == {"type": "takeback", "index": 0}
    assert entry["events"][0]["type"] == "taken_back"
    assert entry["events"][0]["text"] == "You took back a move"
    pt = client.get(f"/v1/games/{created.id}/moves?lang=pt-BR").get_json()
    assert pt["moves"][1]["events"][0]["text"] == "Jogador 1 desfez uma jogada"
    # Play goes on from there: seat 0 is to act again, at the new version.
    assert move(client, created, 0, 2, "draw").status_code == 200
    assert client.get(f"/v1/games/{created.id}?at=2", headers=created.auth(0)
                      ).get_json()["to_act"] == 0, "a replay at the take-back's version"


def _refused(client: FlaskClient, created: Created, seat: int, version: int,
             words: str) -> None:
    """A take-back refused with 409 takeback-refused naming `words`, and nothing changed."""
    response = takeback(client, created, seat, version)
    body = problem(response, 409, "takeback-refused")
    assert words in body["detail"], body["detail"]
    assert version_of(client, created) == version


def test_no_take_back_once_the_next_seat_acted(client: FlaskClient) -> None:
    created = create(client, unranked=True, players=3)
    assert move(client, created, 0, 0, "stop").status_code == 200
    assert move(client, created, 1, 1, "draw").status_code == 200
    _refused(client, created, 0, 2, "another seat's")
    # nor after the other seat took its own move back: it acted
    created = create(client, unranked=True, players=3)
    assert move(client, created, 0, 0, "stop").status_code == 200
    assert move(client, created, 1, 1, "stop").status_code == 200
    assert takeback(client, created, 1, 2).status_code == 200
    _refused(client, created, 0, 3, "another seat has acted")


def test_no_take_back_of_a_move_that_drew_a_hidden_card(client: FlaskClient) -> None:
    created = create(client, unranked=True)
    assert move(client, created, 0, 0, "draw").status_code == 200
    assert client.get(f"/v1/games/{created.id}", headers=created.auth(0)
                      ).get_json()["takeback"] is None
    _refused(client, created, 0, 1, "drew or revealed")


def test_only_the_seat_that_moved_takes_it_back(client: FlaskClient) -> None:
    created = create(client, unranked=True)
    assert move(client, created, 0, 0, "stop").status_code == 200
    _refused(client, created, 1, 1, "another seat's")
    response = client.post(f"/v1/games/{created.id}/takeback", json={"version": 1})
    problem(response, 401, "unauthorized")
    response = client.post(f"/v1/games/{created.id}/takeback", json={"version": 1},
                           headers={"Authorization": "Bearer nope"})
    problem(response, 401, "unauthorized")
    _refused(client, create(client, unranked=True), 0, 0, "no move to take back")


def test_a_stale_version_is_refused_and_changes_nothing(client: FlaskClient) -> None:
    created = create(client, unranked=True)
    assert move(client, created, 0, 0, "stop").status_code == 200
    body = problem(takeback(client, created, 0, 0), 409, "stale-version")
    assert body["current"]["version"] == 1
    problem(client.post(f"/v1/games/{created.id}/takeback", json={},
                        headers=created.auth(0)), 422, "validation-error")
    problem(client.post(f"/v1/games/{created.id}/takeback", json={"version": "1"},
                        headers=created.auth(0)), 422, "validation-error")
    assert version_of(client, created) == 1
    # If-Match instead of the body's version
    response = client.post(f"/v1/games/{created.id}/takeback", json={},
                           headers={**created.auth(0), "If-Match": '"1"'})
    assert response.status_code == 200, response.get_json()


def test_ranked_games_never_take_back(client: FlaskClient) -> None:
    created = create(client)  # ranked: the server mixes its own randomness in the deal
    assert move(client, created, 0, 0, "stop").status_code == 200
    assert client.get(f"/v1/games/{created.id}", headers=created.auth(0)
                      ).get_json()["takeback"] is None
    _refused(client, created, 0, 1, "a ranked game")


def test_a_take_back_is_idempotent_with_its_key(client: FlaskClient) -> None:
    created = create(client, unranked=True)
    assert move(client, created, 0, 0, "stop").status_code == 200
    first = takeback(client, created, 0, 1, **{"Idempotency-Key": "tb-1"})
    assert first.status_code == 200
    again = takeback(client, created, 0, 1, **{"Idempotency-Key": "tb-1"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert version_of(client, created) == 2, "taken back once"
    # the same key for another request (a move at another version) is refused
    problem(move(client, created, 0, 2, "stop", **{"Idempotency-Key": "tb-1"}), 422,
            "idempotency-key-reused")
    assert version_of(client, created) == 2


def test_a_game_with_take_backs_verifies(client: FlaskClient) -> None:
    created = create(client, unranked=True)
    assert move(client, created, 0, 0, "stop").status_code == 200      # v1, taken back
    assert takeback(client, created, 0, 1).status_code == 200           # v2
    for version, (seat, kind) in enumerate([(0, "draw"), (1, "stop"), (0, "stop")], start=2):
        assert move(client, created, seat, version, kind).status_code == 200
    record = client.get(f"/v1/games/{created.id}/record").get_json()
    assert record["moves"][1]["takeback"] == 0
    report = verify_record(record)
    assert report.ok, report.faults
    assert "1 take-backs, each of a move that could be" in report.checks
    # A record claiming a take-back of a draw (which showed a card) fails.
    tampered = copy.deepcopy(record)
    tampered["moves"][0] = {**tampered["moves"][0], "move": {"type": "draw"}}
    report = verify_record(tampered)
    assert not report.ok
    # A record leaving the take-back out fails too (the stop stands: seat 1 to act).
    dropped = copy.deepcopy(record)
    del dropped["moves"][1]
    for index, entry in enumerate(dropped["moves"]):
        entry["index"] = index
    assert not verify_record(dropped).ok


def test_an_analysis_replays_the_log_through_its_take_backs(client: FlaskClient) -> None:
    import core
    from ai_worker.analysis import replay

    created = create(client, unranked=True)
    assert move(client, created, 0, 0, "stop").status_code == 200   # taken back
    assert takeback(client, created, 0, 1).status_code == 200
    assert move(client, created, 0, 2, "draw").status_code == 200
    assert move(client, created, 1, 3, "stop").status_code == 200
    record = client.get(f"/v1/games/{created.id}/moves").get_json()["moves"]
    game = core.get_game("toy-pontoon")
    seen = [(entry["index"], game.to_act(state)) for entry, state in
            replay(game, {"players": 2}, 7, record)]
    assert seen == [(0, 0), (2, 0), (3, 1)], "the draw is played on the state before the stop"


def test_a_take_back_and_the_next_seats_move_never_both_succeed(
        app: Any, redis_client: redis.Redis) -> None:
    """Racing at one version, the take-back and the next seat's move: exactly one is stored
    (the same compare-and-set), and the log has one entry per version."""
    import threading

    from api import keys

    client = app.test_client()
    for _ in range(8):
        created = create(client, unranked=True, players=3)
        assert move(client, created, 0, 0, "stop").status_code == 200
        answers: dict[str, int] = {}
        start = threading.Barrier(2)

        def run(name: str, call: Any, start: threading.Barrier = start,
                answers: dict[str, int] = answers) -> None:
            own = app.test_client()
            start.wait()
            answers[name] = call(own).status_code

        racers = [threading.Thread(target=run, args=("takeback", lambda c, g=created:
                                                     takeback(c, g, 0, 1))),
                  threading.Thread(target=run, args=("move", lambda c, g=created:
                                                     move(c, g, 1, 1, "draw")))]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        assert sorted(answers.values()) == [200, 409], answers
        assert version_of(client, created) == 2
        assert redis_client.llen(keys.move_log(created.id)) == 2
