"""Tournaments end to end: the real API (gunicorn) and two real bot workers schedule and play
them; every scheduled game is played exactly once and the standings match the results."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from api.standings import places_of
from clients import cli
from clients.sdk import Client, parse_sse
from core.deals import check_revealed
from tests.e2e.conftest import Stack

pytestmark = pytest.mark.e2e

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MCTS = {"bot": "mcts", "params": {"iterations": 20}, "name": "mcts"}


def wait_ended(client: Client, tournament_id: str, timeout: float = 120.0) -> dict[str, Any]:
    """Poll a tournament until it is over; its final body."""
    deadline = time.monotonic() + timeout
    while True:
        body = client.tournament(tournament_id)
        if body["status"] != "active":
            return body
        if time.monotonic() > deadline:
            raise TimeoutError(f"tournament {tournament_id}: {body['progress']}")
        time.sleep(0.3)


def tournament_games_in_redis(redis_url: str, tournament_id: str) -> list[str]:
    """Every game of the server created for this tournament (its metadata names it)."""
    client = redis.Redis.from_url(redis_url)
    found = []
    for name in client.scan_iter(match="bgb:game:*:meta", count=1000):
        meta = json.loads(client.get(name) or "{}")
        if (meta.get("tournament") or {}).get("id") == tournament_id:
            found.append(name.decode().split("{")[1].split("}")[0])
    return found


def check_played_once(stack: Stack, body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every slot has one finished game, and the server holds no other game of it."""
    games = stack.client.tournament_games(body["id"])
    assert len(games) == body["progress"]["total"] == body["progress"]["finished"]
    assert all(g["status"] == "finished" and g["result"] for g in games), games
    ids = [g["game_id"] for g in games]
    assert len(set(ids)) == len(ids)
    assert sorted(tournament_games_in_redis(stack.redis_url, body["id"])) == sorted(ids)
    return games


def check_standings(body: dict[str, Any], games: list[dict[str, Any]]) -> None:
    """The table agrees with the games' results."""
    table = {row["name"]: row for row in body["standings"]["entrants"]}
    wins: dict[str, int] = {name: 0 for name in table}
    played: dict[str, int] = {name: 0 for name in table}
    for game in games:
        places = places_of(game["result"], len(game["labels"]))
        for seat, label in enumerate(game["labels"]):
            played[label] += 1
            wins[label] += int(places[seat] == 1 and places.count(1) == 1)
    for name, row in table.items():
        assert row["games"] == played[name] and row["wins"] == wins[name], (name, row)
        assert row["wins"] + row["draws"] + row["losses"] == row["games"]
        assert row["rating"]["sigma"] > 0
    ordinals = [row["rating"]["ordinal"] for row in body["standings"]["entrants"]]
    assert ordinals == sorted(ordinals, reverse=True)


@pytest.mark.parametrize("players", [2, 3])
def test_round_robin_of_random_greedy_mcts_in_darwins_journey(stack: Stack,
                                                              players: int) -> None:
    created = stack.client.create_tournament(
        "darwins-journey", [{"bot": "random"}, {"bot": "greedy"}, MCTS],
        {"players": players}, seed=5, max_parallel=4)
    body = wait_ended(stack.client, created["id"], timeout=240)
    assert body["status"] == "finished", body
    games = check_played_once(stack, body)
    # Every group of entrants plays each seat of the deal once.
    assert len(games) == (6 if players == 2 else 3)
    check_standings(body, games)
    assert stack.client.tournament_chart(body["id"]).startswith(PNG_MAGIC)
    # Each game reveals its deal at its end; the rotations of one deal share its seed.
    deals = [stack.client.get_game(g["game_id"])["deal"] for g in games]
    assert all(check_revealed(d["commitment"], d["revealed"]) == [] for d in deals)
    assert len({d["revealed"]["seed"] for d in deals}) == 1  # deal 0 for every game
    assert {d["revealed"]["client_seed"] for d in deals} == {5}


def test_gauntlet_against_alfred_at_two_levels(stack: Stack) -> None:
    created = stack.client.create_tournament(
        "darwins-journey", [{"bot": "random"}, {"bot": "greedy"}], {"players": 1},
        format="gauntlet", automa={"option": "alfred", "levels": ["white", "green"]},
        max_parallel=4)
    body = wait_ended(stack.client, created["id"], timeout=240)
    games = check_played_once(stack, body)
    assert len(games) == 4
    names = {row["name"] for row in body["standings"]["entrants"]}
    assert names == {"random", "greedy", "alfred:white", "alfred:green"}
    check_standings(body, games)


def test_plain_http_client_follows_the_event_stream(stack: Stack) -> None:
    answer = requests.post(f"{stack.api_url}/v1/tournaments", json={
        "game": "toy-pontoon", "options": {"players": 2}, "deals": 3, "max_parallel": 2,
        "entrants": [{"bot": "random"}, {"bot": "greedy"}]}, timeout=10)
    assert answer.status_code == 201, answer.text
    tournament_id = answer.json()["id"]
    seen = []
    with requests.get(f"{stack.api_url}/v1/tournaments/{tournament_id}/events",
                      stream=True, timeout=(5, 60)) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        for event in parse_sse(stream.iter_lines(decode_unicode=True)):
            seen.append(json.loads(event["data"]))
            if seen[-1]["status"] != "active":
                break
    assert seen[-1] == {"status": "finished", "total": 6, "finished": 6, "in_progress": 0}
    finished = [p["finished"] for p in seen]
    assert finished == sorted(finished)
    csv_like = requests.get(f"{stack.api_url}/v1/tournaments/{tournament_id}", timeout=10)
    assert csv_like.json()["standings"]["games"] == 6


def test_cli_runs_a_tournament_on_the_server(stack: Stack, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out_csv, out_png = tmp_path / "standings.csv", tmp_path / "chart.png"
    games_before = _game_count(stack)
    code = cli.main(["tournament", "toy-pontoon", "--bot", "random", "--bot", "greedy",
                     "--games", "4", "--json", "--csv", str(out_csv), "--chart", str(out_png),
                     "--url", stack.api_url])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["status"] == "finished"
    assert sum(row["games"] for row in printed["standings"]) == 8
    parsed = list(csv.DictReader(out_csv.open()))
    assert {row["entrant"] for row in parsed} == {"random", "greedy"}
    assert out_png.read_bytes().startswith(PNG_MAGIC)
    # No probe game: the tournament's 4 games are the only games the run created.
    assert len(tournament_games_in_redis(stack.redis_url, printed["tournament"])) == 4
    assert _game_count(stack) == games_before + 4


def _game_count(stack: Stack) -> int:
    client = redis.Redis.from_url(stack.redis_url)
    return sum(1 for _ in client.scan_iter(match="bgb:game:*:meta", count=1000))
