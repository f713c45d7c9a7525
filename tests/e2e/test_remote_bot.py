"""A remote bot end to end: an external entrant's bot (`clients/bot_example.py`, in its own
process) plays a tournament against `greedy` (real API, real workers) driven by its account
stream alone: one stream, one POST per move of its seats, no read of any game."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, Stack

pytestmark = pytest.mark.e2e

DEALS = 3  # two games a deal (each seat of it once): six games


def test_an_external_bot_plays_a_tournament_from_its_account_stream(stack: Stack,
                                                                    tmp_path: Path) -> None:
    created = stack.client.create_tournament(
        "toy-pontoon", [{"kind": "external", "name": "remote"}, {"bot": "greedy"}],
        {"players": 2}, deals=DEALS, max_parallel=2, seed=3)
    counts = tmp_path / "requests.json"
    bot = subprocess.run(
        [sys.executable, "-m", "tests.e2e.counting_bot", created["id"],
         created["entrant_tokens"]["remote"], str(counts)],
        cwd=REPO, env=stack.env, capture_output=True, text=True, timeout=180)
    assert bot.returncode == 0, bot.stderr[-3000:]
    body = stack.client.tournament(created["id"])
    assert body["status"] == "finished", body
    games = stack.client.tournament_games(created["id"], created["entrant_tokens"]["remote"])
    assert len(games) == 2 * DEALS and all(g["status"] == "finished" for g in games)
    # The moves the bot's seats made, from the games' logs.
    moves = 0
    for game in games:
        mine = {int(seat) for seat in game["tokens"]}
        moves += sum(1 for entry in stack.client.iter_moves(game["game_id"])
                     if entry["seat"] in mine)
    sent = json.loads(counts.read_text())
    kinds = Counter((method, "stream" if path.endswith("/players/me/stream") else
                     "move" if path.endswith("/moves") else path) for method, path, _ in sent)
    assert kinds == {("GET", "stream"): 1, ("POST", "move"): moves}, kinds
    assert moves >= 2 * DEALS  # every game had a turn of the bot's
    assert all(status == 200 for _, _, status in sent), sent
