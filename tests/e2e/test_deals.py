"""Deals no participant can know, verifiable by anyone once the game is over (issue 18)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main
from clients.sdk import GameActive
from clients.verify import verify_game
from core.deals import check_revealed, commitment
from tests.e2e.conftest import Stack
from tests.e2e.helpers import wait_finished

pytestmark = pytest.mark.e2e

GAME = "darwins-journey"
RANDOM = {"kind": "bot", "bot": "random"}


def test_a_ranked_deal_is_committed_revealed_and_replays(stack: Stack,
                                                         capsys: pytest.CaptureFixture) -> None:
    client = stack.client
    created = client.create_game(GAME, {"players": 2}, [RANDOM, RANDOM], seed=42)
    deal = created["deal"]
    assert deal["revealed"] is None and not deal["unranked"] and len(deal["commitment"]) == 64
    # While the game runs nobody sees the seed: not the creator who chose 42, not a seat.
    running = client.get_game(created["id"])
    assert running["deal"]["revealed"] is None
    assert '"server_nonce"' not in json.dumps(running) and '"salt"' not in json.dumps(running)
    final = wait_finished(client, created["id"], timeout=180)
    revealed = final["deal"]["revealed"]
    assert revealed["client_seed"] == 42 and revealed["seed"] != 42
    assert check_revealed(deal["commitment"], revealed) == []
    # Anyone can replay the game from the revealed seed and the (now unredacted) log.
    report = verify_game(client, created["id"])
    assert report.ok, report.faults
    assert any("moves replayed" in check for check in report.checks)
    assert main(["verify", created["id"], "--url", stack.api_url]) == 0
    assert "verified" in capsys.readouterr().out


def test_verify_refuses_a_deal_that_does_not_match(stack: Stack) -> None:
    """A server revealing another seed than it committed to is caught."""
    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 2}, [RANDOM, RANDOM], seed=5)
    final = wait_finished(client, created["id"], timeout=60)
    revealed = dict(final["deal"]["revealed"])
    assert check_revealed(final["deal"]["commitment"], revealed) == []
    forged = dict(revealed, seed=revealed["seed"] + 1)
    assert check_revealed(final["deal"]["commitment"], forged)
    # A forged seed with a matching commitment is still caught: it is not the mixed one.
    forged_commitment = commitment(forged["seed"], forged["salt"])
    assert check_revealed(forged_commitment, forged) == [
        "the seed is not the client's seed mixed with the server's nonce"]


def test_an_unranked_game_is_its_seed_and_verifies(stack: Stack) -> None:
    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 2}, [RANDOM, RANDOM], seed=5,
                                 unranked=True)
    assert created["deal"]["unranked"] is True
    wait_finished(client, created["id"], timeout=60)
    report = verify_game(client, created["id"])
    assert report.ok, report.faults
    assert client.get_game(created["id"])["deal"]["revealed"]["seed"] == 5


def test_verify_says_an_active_game_cannot_be_checked_yet(stack: Stack) -> None:
    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 2})
    report = verify_game(client, created["id"])
    assert not report.ok and "still active" in report.faults[0]
    client.abort(created["id"], created["creator_token"])
    assert verify_game(client, created["id"]).ok


def test_a_game_read_in_portuguese_verifies(stack: Stack) -> None:
    """The log's words (each event's `text`, labels in the reader's language) are not the
    deal: verifying compares what the rules made, whatever language the log was read in."""
    client = stack.client
    created = client.create_game("encyclopedia", {"players": 2}, [RANDOM, RANDOM], seed=8)
    wait_finished(client, created["id"], timeout=180)
    client.session.headers["Accept-Language"] = "pt-BR"
    try:
        log = list(client.iter_moves(created["id"]))
        moved = next(e for entry in log for e in entry["events"] if e["type"] == "move")
        assert moved["text"].startswith("Jogador") and moved["label"] in moved["text"]
        report = verify_game(client, created["id"])
    finally:
        del client.session.headers["Accept-Language"]
    assert report.ok, report.faults


def test_a_downloaded_record_verifies_offline(stack: Stack, tmp_path: Path,
                                              capsys: pytest.CaptureFixture) -> None:
    """The record of a game played by bot workers, saved to a file, verifies with no server;
    a past version of the game reads as any seat's once it is over."""
    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 2}, [RANDOM, RANDOM], seed=9)
    with pytest.raises(GameActive):
        client.get_record(created["id"])
    final = wait_finished(client, created["id"], timeout=60)
    record = client.get_record(created["id"])
    assert record["result"] == final["result"] and record["version"] == final["version"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path), "--url", "http://127.0.0.1:9"]) == 0
    assert "verified" in capsys.readouterr().out
    past = client.get_game_at(created["id"], 2, seat=1)
    assert past["version"] == 2 and past["seat"] == 1
    assert past["view"]["hands"][1] is not None and past["view"]["hands"][0] is None
