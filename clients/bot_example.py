"""A complete external bot: plays a tournament entrant's seats from its account stream alone.

    BGB_API_URL=http://127.0.0.1:8000 python -m clients.bot_example TOURNAMENT ENTRANT_TOKEN

No polling, no reads: each `your_turn` brings the seat's game (`view=True`), each move's
answer the legal moves of a turn that goes on. Replace `choose` with a real bot."""

from __future__ import annotations

import random
import sys
from typing import Any

from clients.sdk import Client, GameOver, StaleVersion


def choose(legal_moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The move to play: any legal one."""
    return random.choice(legal_moves)


def play(client: Client, tournament: str, entrant_token: str) -> None:
    """Play every turn of the entrant until its tournament is finished."""
    tokens: dict[str, str] = {}  # game id -> the seat token its game_started brought
    for event in client.account_events(entrant_token, tournament=tournament, view=True):
        if event["type"] == "game_started":
            tokens[event["game_id"]] = event["token"]
        elif event["type"] == "your_turn":
            answer, seat = event["current"], event["seat"]
            while answer["status"] == "active" and answer["to_act"] == seat:
                try:
                    answer = client.move(event["game_id"], tokens[event["game_id"]],
                                         choose(answer["legal_moves"]), answer["version"])
                except (StaleVersion, GameOver):
                    break  # the turn is gone: the stream says what comes next


if __name__ == "__main__":
    play(Client(), sys.argv[1], sys.argv[2])
