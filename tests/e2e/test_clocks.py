"""Game clocks through the real server and real workers: the workers' sweeper applies
`on_timeout` once a seat's deadline passes (docs/clocks.md)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from clients.sdk import ApiError, Client, seat_token
from tests.e2e.conftest import Stack
from tests.e2e.helpers import check_log, wait_finished

pytestmark = pytest.mark.e2e


def _wait_log(client: Client, game_id: str, found: Any, timeout: float = 30) -> list[Any]:
    """The game's log once `found(log)` holds (the sweeper passes every second)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = list(client.iter_moves(game_id))
        if found(log):
            return log
        time.sleep(0.2)
    raise TimeoutError(f"game {game_id}: log never matched: {log}")


def _timed_out(log: list[Any], seat: int) -> int | None:
    """The index of the entry timing `seat` out, if any."""
    return next((m["index"] for m in log if m.get("system") and any(
        e.get("type") == "timed_out" and e.get("seat") == seat for e in m["events"])), None)


def test_a_passed_correspondence_deadline_hands_the_seat_to_a_bot(stack: Stack) -> None:
    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 3}, seed=4,
                                 clock={"per_move": 1, "on_timeout": "bot"})
    game_id, token = created["id"], seat_token(created, 0)

    def bot_played_for_seat_0(log: list[Any]) -> bool:
        index = _timed_out(log, 0)
        return index is not None and any(m["seat"] == 0 and not m.get("system")
                                         for m in log[index + 1:])

    log = _wait_log(client, game_id, bot_played_for_seat_0)
    entry = log[_timed_out(log, 0) or 0]
    assert entry["move"] == {"type": "timeout"}
    assert entry["events"][0]["action"] == "bot" and entry["events"][0]["bot"] == "greedy"
    read = client.get_game(game_id)
    assert read["seats"][0]["kind"] == "bot" and not read["seats"][0].get("resigned")
    with pytest.raises(ApiError) as refused:
        client.move(game_id, token, {"type": "draw"}, read["version"])
    assert refused.value.status == 409 and refused.value.problem["type"].endswith("time-out")
    # Every seat times out in turn and the bots finish the game: nothing stalls.
    final = wait_finished(client, game_id, timeout=60)
    check_log(client, game_id, final["version"])


def test_a_passed_correspondence_deadline_resigns_the_seat(stack: Stack) -> None:
    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 2}, seed=6,
                                 clock={"per_move": 1, "on_timeout": "resign"})
    final = wait_finished(client, created["id"], timeout=30)
    assert final["result"]["resigned"] == [0] and final["result"]["ended_by"] == "resignation"
    assert final["result"]["winners"] == [1]
    log = check_log(client, created["id"], final["version"])
    assert log[-1]["move"] == {"type": "resign"}
    assert [e["type"] for e in log[-1]["events"]] == ["timed_out", "resigned"]


def test_a_live_clock_with_an_increment_runs_out(stack: Stack) -> None:
    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 2}, seed=9,
                                 clock={"main": 2, "increment": 1, "on_timeout": "resign"})
    game_id = created["id"]
    tokens = {seat: seat_token(created, seat) for seat in (0, 1)}
    answer = client.move(game_id, tokens[0], {"type": "draw"}, 0)
    assert answer["to_act"] == 1
    shown = client.get_game(game_id)["clock"]
    # Seat 0's 2 s, less its move's time, plus the 1 s increment (a move takes well under 1 s)
    assert 2000 < shown["seats"][0]["remaining_ms"] <= 3000
    client.move(game_id, tokens[1], {"type": "draw"}, 1)
    # Seat 0 does not move again: its main time runs out and it resigns.
    final = wait_finished(client, game_id, timeout=30)
    assert final["result"]["resigned"] == [0]
    log = check_log(client, game_id, final["version"])
    assert _timed_out(log, 0) == 2
