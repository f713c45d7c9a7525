"""`bgb verify` on a game whose rules this bgb does not have: a clear fault, no traceback."""
# The server's answer is its game record (GET /v1/games/{id}/record, docs/records.md).

from __future__ import annotations

from typing import Any

import pytest

from clients.cli import main
from clients.verify import RECORD_FORMAT, RECORD_FORMAT_VERSION, verify_game
from core.deals import make_deal


class _Server:
    """What a server answers about one aborted game of `game` (with a genuine deal)."""

    def __init__(self, game: str, options: dict[str, Any]) -> None:
        deal = make_deal(3, True, server_nonce="n" * 64, salt="s" * 32, fallback_seed=3)
        self.record = {"format": RECORD_FORMAT, "format_version": RECORD_FORMAT_VERSION,
                       "id": "g1", "game": game, "options": options, "status": "aborted",
                       "result": None,
                       "deal": {"commitment": deal.commitment, "unranked": True,
                                "revealed": deal.to_json()},
                       "moves": [{"index": 0, "seat": 0, "move": {"type": "draw"},
                                  "events": []}]}

    def get_record(self, game_id: str) -> dict[str, Any]:
        return self.record


def test_verify_names_a_game_whose_rules_it_lacks() -> None:
    report = verify_game(_Server("toy-from-another-server", {}), "g1")  # type: ignore[arg-type]
    assert not report.ok
    assert any("the seed matches the commitment" in check for check in report.checks)
    assert report.faults and "has no rules for 'toy-from-another-server'" in report.faults[0]


def test_verify_names_options_that_start_no_game() -> None:
    report = verify_game(_Server("darwins-journey", {"players": "many"}),  # type: ignore[arg-type]
                         "g1")
    assert not report.ok and "do not start a game" in report.faults[0]


def test_bgb_verify_prints_the_fault(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    server = _Server("toy-from-another-server", {})
    monkeypatch.setattr("clients.cli.Client", lambda url: server)
    assert main(["verify", "g1"]) == 1
    out = capsys.readouterr().out
    assert "has no rules for" in out and "not verified" in out and "Traceback" not in out
