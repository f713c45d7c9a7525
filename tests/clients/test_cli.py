"""`bgb` argument parsing and game planning (no server needed)."""

from __future__ import annotations

import argparse

import pytest

from clients import cli


def test_parse_bot_specs() -> None:
    assert cli.parse_bot("random") == ("random", {}, None)
    assert cli.parse_bot("alfred:green") == ("alfred", {}, "green")
    assert cli.parse_bot("mcts:iterations=200,c=1.4,name=x") == (
        "mcts", {"iterations": 200, "c": 1.4, "name": "x"}, None)
    with pytest.raises(argparse.ArgumentTypeError):
        cli.parse_bot(":x")


def test_parse_seats_and_options() -> None:
    assert cli.parse_seat("human") == {"kind": "human"}
    assert cli.parse_seat("bot:greedy") == {"kind": "bot", "bot": "greedy", "params": {}}
    assert cli.parse_seat("bot:mcts:iterations=50") == {
        "kind": "bot", "bot": "mcts", "params": {"iterations": 50}}
    with pytest.raises(argparse.ArgumentTypeError):
        cli.parse_seat("robot")
    assert cli.parse_pairs(["players=2", "first_game=true", "alfred=green"]) == {
        "players": 2, "first_game": True, "alfred": "green"}
    with pytest.raises(argparse.ArgumentTypeError):
        cli.parse_pairs(["players"])


def test_plan_solo_game_against_alfred() -> None:
    options, seats = cli.plan_game(["alfred:green"], None, {})
    assert options == {"players": 1, "alfred": "green"} and seats is None
    with pytest.raises(argparse.ArgumentTypeError):
        cli.plan_game(["alfred", "random"], None, {})


def test_plan_solo_game_against_the_generic_automa() -> None:
    """`--vs automa` plays any game's automa; its pairs are the game's options (its level)."""
    options, seats = cli.plan_game(["automa:behaviour=2,scoring=3"], None, {})
    assert options == {"players": 1, "behaviour": 2, "scoring": 3} and seats is None
    assert cli.plan_game(["automa"], None, {}) == ({"players": 1}, None)
    with pytest.raises(argparse.ArgumentTypeError):
        cli.plan_game(["automa", "greedy"], None, {})
    with pytest.raises(argparse.ArgumentTypeError):
        cli.plan_game(["automa"], 3, {})


def test_plan_game_against_bots_with_extra_human_seats() -> None:
    options, seats = cli.plan_game(["random", "mcts:iterations=10"], None, {})
    assert options == {"players": 3}
    assert seats == [{"kind": "human"},
                     {"kind": "bot", "bot": "random", "params": {}},
                     {"kind": "bot", "bot": "mcts", "params": {"iterations": 10}}]
    options, seats = cli.plan_game(["random"], 3, {})
    assert [s["kind"] for s in seats or []] == ["human", "human", "bot"]
    with pytest.raises(argparse.ArgumentTypeError):
        cli.plan_game(["random", "random"], 2, {})


def test_plan_game_of_humans_only_lets_the_server_seat_automas() -> None:
    assert cli.plan_game([], None, {}) == ({}, None)
    assert cli.plan_game([], 1, {"alfred": "blue"}) == ({"players": 1, "alfred": "blue"}, None)


def test_parser_reads_every_subcommand() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["serve"])
    assert (args.host, args.port, args.workers, args.bot_workers) == ("127.0.0.1", 8000, 2, 1)
    args = parser.parse_args(["serve", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", 9000)
    args = parser.parse_args(["worker", "--burst", "--count", "3"])
    assert args.burst and args.count == 3
    args = parser.parse_args(["play", "darwins-journey", "--vs", "alfred:green", "--seed", "4"])
    assert args.game == "darwins-journey" and args.vs == ["alfred:green"] and args.seed == 4
    args = parser.parse_args(["watch", "abc", "--url", "http://h:1"])
    assert args.game_id == "abc" and args.url == "http://h:1"
    args = parser.parse_args(["create", "toy-pontoon", "--seat", "human", "--seat", "bot:random",
                              "--option", "players=2"])
    assert args.seat == [{"kind": "human"}, {"kind": "bot", "bot": "random", "params": {}}]
    args = parser.parse_args(["tournament", "darwins-journey", "--bot", "mcts:ms=250",
                              "--bot", "greedy", "--games", "40", "--option", "players=2"])
    assert args.bot == ["mcts:ms=250", "greedy"] and args.games == 40 and args.parallel == 4
    with pytest.raises(SystemExit):
        parser.parse_args([])


def test_server_command_lines() -> None:
    command = cli.gunicorn_command("0.0.0.0", 8123, workers=3, threads=4)
    assert command[-1] == "api:create_app()"
    assert "0.0.0.0:8123" in command
    assert command[command.index("--worker-class") + 1] == "gthread"
    assert cli.worker_command(burst=True)[-3:] == ["-m", "ai_worker.worker", "--burst"]
    assert cli.connect_host("0.0.0.0") == "127.0.0.1"


def test_unreachable_server_is_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["show", "nope", "--url", "http://127.0.0.1:9"])
    assert code == 2
    assert "cannot reach the server" in capsys.readouterr().out
