"""`bgb player`, `bgb games`, `bgb resign`, `bgb rematch` and their SDK calls (issue 15)."""

from __future__ import annotations

import json
import re

import pytest

from clients.cli import main
from tests.e2e.conftest import Stack

pytestmark = pytest.mark.e2e


def test_player_games_resign_and_rematch_from_the_command_line(
        stack: Stack, capsys: pytest.CaptureFixture) -> None:
    url = ["--url", stack.api_url]
    assert main(["player", "--name", "Ada", *url]) == 0
    key = re.search(r"(bgbp_\S+)", capsys.readouterr().out).group(1)
    client = stack.client
    assert client.me(key)["name"] == "Ada"
    created = client.create_game("toy-pontoon", {"players": 2})
    client.claim_seat(created["id"], 0, key, created["seats"][0]["token"])
    assert main(["games", "--key", key, "--json", *url]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(g["id"], g["seats"], g["my_turn"]) for g in listed["games"]] == [
        (created["id"], [0], True)]
    fresh = client.new_seat_token(created["id"], 0, key)
    assert main(["resign", created["id"], "--token", fresh, *url]) == 0
    assert "finished" in capsys.readouterr().out
    assert main(["rematch", created["id"], "--token", fresh, *url]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["rematch_of"] == created["id"]
    mine = client.my_games(key)["games"]
    assert [g["id"] for g in mine] == [again["id"], created["id"]]
    assert main(["games", "--key", key, "--my-turn", *url]) == 0
    assert again["id"] in capsys.readouterr().out
