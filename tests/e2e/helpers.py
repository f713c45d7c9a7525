"""Driving whole games through the SDK, and checking their logs."""

from __future__ import annotations

import random
import time
from typing import Any

from clients.sdk import Client, StaleVersion


def play_humans(client: Client, game_id: str, tokens: dict[int, str], seed: int,
                timeout: float = 60.0) -> dict[str, Any]:
    """Play every human seat with random legal moves until the game ends; the final body."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    any_token = next(iter(tokens.values()))
    while time.monotonic() < deadline:
        body = client.get_game(game_id, any_token)
        if body["status"] != "active":
            return body
        seat = body["to_act"]
        if seat not in tokens:
            client.wait_for_version(game_id, body["version"], any_token, timeout=5)
            continue
        mine = client.get_game(game_id, tokens[seat])
        if mine["to_act"] != seat or not mine["legal_moves"]:
            continue
        try:
            client.move(game_id, tokens[seat], rng.choice(mine["legal_moves"]), mine["version"])
        except StaleVersion:
            continue
    raise TimeoutError(f"game {game_id} still running after {timeout} s")


def wait_finished(client: Client, game_id: str, timeout: float = 60.0) -> dict[str, Any]:
    """Long-poll a game until it finishes; the final spectator body."""
    deadline = time.monotonic() + timeout
    body = client.get_game(game_id)
    while body["status"] == "active":
        if time.monotonic() > deadline:
            raise TimeoutError(f"game {game_id} stuck at version {body['version']}")
        body = client.wait_for_version(game_id, body["version"], timeout=5)
    return body


def check_log(client: Client, game_id: str, final_version: int) -> list[dict[str, Any]]:
    """The full move log, checked: one entry per version, no gap, no duplicate."""
    log = list(client.iter_moves(game_id))
    assert [m["index"] for m in log] == list(range(final_version))
    assert [m["version"] for m in log] == list(range(1, final_version + 1))
    return log
