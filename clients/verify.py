"""`bgb verify GAME|RECORD.json`: check a finished game's deal and replay it from its seed and
log, from the server or offline from a record file (docs/records.md).

The server commits to a game's effective seed when the game is created and reveals it when
the game is over (`core.deals`). Verifying checks, with nothing but public answers of the
API: the revealed seed and salt match the commitment; a ranked game's seed is the client's
seed mixed with the server's nonce; and replaying the rules from the seed and the full move
log reproduces every move's events and the result. A game on a server is verified from its
record (`GET /v1/games/{id}/record`), so a record file and a server's game are checked by the
same code, `core.records` (the API's `POST /v1/records/replay` checks a posted record with it
too). It is the one client feature that needs the rules engine itself (`core`): checking a
replay means running the rules.
"""

from __future__ import annotations

import json
from typing import Any

from clients.sdk import Client
from core.records import RECORD_FORMAT, RECORD_FORMAT_VERSION, Verification, verify_record

__all__ = ["RECORD_FORMAT", "RECORD_FORMAT_VERSION", "Verification", "load_record",
           "verify_game", "verify_record"]


def verify_game(client: Client, game_id: str) -> Verification:
    """Verify a finished or aborted game of the server `client` talks to, from its record."""
    from clients.sdk import GameActive

    try:
        record = client.get_record(game_id)
    except GameActive:
        report = Verification(game_id)
        report.faults.append("the game is still active: its deal is revealed when it ends")
        return report
    return verify_record(record)


def load_record(path: str) -> dict[str, Any]:
    """A record file's JSON document (ValueError when it is not JSON or not an object)."""
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    if not isinstance(document, dict):
        raise ValueError(f"{path}: a record is a JSON object")
    return document
