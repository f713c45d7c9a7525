"""Whole toy-pontoon games through the real server and real bot workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients import cli
from clients.sdk import seat_token
from tests.e2e.conftest import Stack
from tests.e2e.helpers import check_log, play_humans, wait_finished

pytestmark = pytest.mark.e2e


def test_human_against_random_bot_to_the_end(stack: Stack) -> None:
    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 2},
                                 [{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=11)
    token = seat_token(created, 0)
    final = play_humans(client, created["id"], {0: token}, seed=5)
    assert final["status"] == "finished" and final["to_act"] is None
    assert final["result"]["finished"] is True
    log = check_log(client, created["id"], final["version"])
    assert {m["seat"] for m in log} <= {0, 1}
    # The human's own view keeps their hand; the bot's hand stays hidden from them.
    mine = client.get_game(created["id"], token)
    assert mine["seat"] == 0 and mine["view"]["hands"][1] is None


def test_two_bots_play_each_other_to_the_end(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    created = client.create_game("toy-pontoon", {"players": 2}, seats, seed=3)
    final = wait_finished(client, created["id"], timeout=60)
    assert final["result"]["finished"] is True
    log = check_log(client, created["id"], final["version"])
    assert {m["seat"] for m in log} == {0, 1} or len(log) <= 2


def test_many_bot_games_at_once_all_finish(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "random"} for _ in range(4)]
    ids = [client.create_game("toy-pontoon", {"players": 4}, seats, seed=s)["id"]
           for s in range(8)]
    for game_id in ids:
        final = wait_finished(client, game_id, timeout=60)
        check_log(client, game_id, final["version"])


def test_events_stream_follows_a_bot_game(stack: Stack) -> None:
    client = stack.client
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    created = client.create_game("toy-pontoon", {"players": 2}, seats, seed=8)
    versions = [e["version"] for e in client.events(created["id"], last_event_id=0)]
    final = client.get_game(created["id"])
    assert final["status"] == "finished"
    assert versions and versions[-1] == final["version"]
    assert versions == sorted(versions)


def test_bgb_play_and_watch_commands(stack: Stack, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["play", "toy-pontoon", "--vs", "random", "--auto", "--seed", "2",
                     "--url", stack.api_url])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Result" in out and "finished" in out
    game_id = out.split("game ", 1)[1].split()[0]
    assert cli.main(["watch", game_id, "--url", stack.api_url]) == 0
    assert "Player 1: " in capsys.readouterr().out  # seat 0, by its one name
    assert cli.main(["show", game_id, "--url", stack.api_url]) == 0


def test_bgb_play_interactive_choices(stack: Stack, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["nonsense", "stop"] + ["2"] * 50)
    args = cli.build_parser().parse_args(["play", "toy-pontoon", "--vs", "random",
                                          "--url", stack.api_url])
    from rich.console import Console

    assert cli.play(args, Console(), ask=lambda prompt: next(answers)) == 0
    out = capsys.readouterr().out
    assert "pick a number" in out and "Result" in out


def test_sdk_raises_typed_errors_from_the_real_api(stack: Stack) -> None:
    from clients import sdk

    client = stack.client
    created = client.create_game("toy-pontoon", {"players": 2},
                                 [{"kind": "human"}, {"kind": "human"}], seed=1)
    game_id, first, second = created["id"], seat_token(created, 0), seat_token(created, 1)
    draw = {"type": "draw"}
    with pytest.raises(sdk.NotYourTurn):
        client.move(game_id, second, draw, 0)
    with pytest.raises(sdk.Unauthorized):
        client.move(game_id, "not-a-token", draw, 0)
    with pytest.raises(sdk.IllegalMoveError) as illegal:
        client.move(game_id, first, {"type": "fly"}, 0)
    assert [m["type"] for m in illegal.value.legal_moves] == ["draw", "stop"]
    answer = client.move(game_id, first, draw, 0, idempotency_key="same-key")
    assert client.move(game_id, first, draw, 0, idempotency_key="same-key") == answer
    with pytest.raises(sdk.StaleVersion) as stale:
        client.move(game_id, second, draw, 0)
    assert stale.value.current["version"] == 1
    with pytest.raises(sdk.NotFound):
        client.get_game("no-such-game")
    with pytest.raises(sdk.ValidationError):
        client.create_game("toy-pontoon", {"players": 9})
    assert client.legal_moves(game_id, second) == [
        {"type": "draw", "label": "Draw the top card"}, {"type": "stop", "label": "Stop drawing"}]
    assert [g["name"] for g in client.catalog()] and [b["name"] for b in client.bots()]


def test_tournament_between_bots(stack: Stack, capsys: pytest.CaptureFixture[str]) -> None:
    from clients import tournament

    entrants = [tournament.Entrant("greedy", "greedy"), tournament.Entrant("random", "random")]
    standings = tournament.run(stack.client, "toy-pontoon", entrants, games=6,
                               options={"players": 2}, seed=1)
    assert not standings.errors
    assert {label: r.games for label, r in standings.records.items()} == {
        "greedy": 6, "random": 6}
    code = cli.main(["tournament", "toy-pontoon", "--bot", "random", "--bot", "greedy",
                     "--games", "4", "--json", "--url", stack.api_url])
    assert code == 0
    assert '"entrant"' in capsys.readouterr().out


def test_tournament_resumes_from_its_journal(stack: Stack, tmp_path: Path) -> None:
    """The server plays a tournament whatever happens to its client: a rerun with the same
    journal follows the tournament it started instead of starting another."""
    from clients import tournament

    entrants = [tournament.Entrant("greedy", "greedy"), tournament.Entrant("random", "random")]
    journal = tmp_path / "tour.json"

    def play(games: int = 4, seed: int = 3) -> tournament.Standings:
        return tournament.run(stack.client, "toy-pontoon", entrants, games=games,
                              options={"players": 2}, seed=seed, journal=journal)

    first = play()
    tournament_id = json.loads(journal.read_text())["id"]
    assert first.tournament["id"] == tournament_id and not first.errors
    resumed = play()
    assert resumed.tournament["id"] == tournament_id  # followed, not started again
    assert {label: r.games for label, r in resumed.records.items()} == {"greedy": 4, "random": 4}
    with pytest.raises(ValueError, match="another tournament"):
        play(games=5)


def _raw_exchange(port: int, raw_request: bytes) -> tuple[bytes, bytes]:
    """Send `raw_request` on a new connection; the answer's head and body once it closes."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(raw_request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


def test_a_target_or_headers_over_the_apis_sizes_get_problem_json(stack: Stack) -> None:
    """gunicorn's own limits are above the API's (api.request_limits), so what a client
    sends too large is answered by the app, problem+json, under gunicorn's own worker."""
    many = b"".join(b"X-Field-%d: x\r\n" % i for i in range(101))
    for raw_request, status, slug in [
        (b"GET /v1/games/" + b"x" * 5000 + b" HTTP/1.1\r\nHost: a\r\n", 414, "uri-too-long"),
        (b"GET /healthz HTTP/1.1\r\nHost: a\r\n" + many, 431,
         "request-header-fields-too-large"),
        (b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Long: " + b"y" * 9000 + b"\r\n", 431,
         "request-header-fields-too-large"),
    ]:
        head, body = _raw_exchange(stack.port, raw_request + b"Connection: close\r\n\r\n")
        assert head.split(b"\r\n")[0].startswith(b"HTTP/1.1 %d" % status), head
        assert b"content-type: application/problem+json" in head.lower()
        problem = json.loads(body)
        assert problem["status"] == status and problem["type"].endswith("/" + slug)
    # Within the sizes: served as usual.
    head, _ = _raw_exchange(stack.port, b"GET /healthz?" + b"q" * 4000 + b" HTTP/1.1\r\n"
                            b"Host: a\r\nConnection: close\r\n\r\n")
    assert not head.startswith((b"HTTP/1.1 414", b"HTTP/1.1 431")), head


def test_a_request_gunicorn_cannot_parse_is_answered_400(stack: Stack) -> None:
    """A header that is not HTTP never reaches the app: gunicorn answers its own 400 (the
    one answer of ours that is not problem+json; docs/operating-limits.md)."""
    head, _ = _raw_exchange(stack.port, b"GET /v1/games HTTP/1.1\r\nHost: a\r\n"
                            b"Bad Header: x\r\n\r\n")
    assert head.split(b"\r\n")[0].startswith(b"HTTP/1.1 400"), head


def test_bgb_play_takes_back_a_move_with_u(stack: Stack) -> None:
    """Darwin's Journey solo, a practice game: after a move that leaves the player to act
    and drew nothing, the terminal offers `u`; the move is taken back (logged) and play goes
    on."""
    import io

    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    args = cli.build_parser().parse_args(["play", "darwins-journey", "--players", "1",
                                          "--seed", "4", "--url", stack.api_url])
    done: list[str] = []

    def ask(prompt: str) -> str:
        screen = out.getvalue()
        if not done and "u = take back your last move" in screen:
            done.append(screen)
            return "u"
        if done:
            return "q"
        return "1"

    assert cli.play(args, console, ask=ask) == 0
    assert done, "a take-back was offered"
    game_id = out.getvalue().split("game ", 1)[1].split()[0]
    log = stack.client.moves(game_id)["moves"]
    assert any(isinstance(entry.get("takeback"), int) for entry in log)
    assert "You: took back move" in out.getvalue()
