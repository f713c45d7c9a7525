"""The tournament client: requests, journal, rows and CSV (no server: a stub client)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients import cli
from clients.tournament import Entrant, rows, run, standings_of, to_csv

BODY: dict[str, Any] = {
    "id": "t1", "game": "toy-pontoon", "status": "finished",
    "standings": {
        "games": 4,
        "entrants": [
            {"name": "greedy", "games": 4, "wins": 3, "draws": 0, "losses": 1,
             "mean_score": 17.5, "score_ci": [14.0, 21.0], "mean_margin": 4.25,
             "margin_ci": None, "rating": {"mu": 27.1, "sigma": 6.2, "ordinal": 8.5}},
            {"name": "random", "games": 4, "wins": 1, "draws": 0, "losses": 3,
             "mean_score": 9.0, "score_ci": None, "mean_margin": -4.25, "margin_ci": None,
             "rating": {"mu": 22.9, "sigma": 6.2, "ordinal": 4.3}}],
        "head_to_head": {"greedy": {"random": {"wins": 3, "draws": 0, "losses": 1}},
                         "random": {"greedy": {"wins": 1, "draws": 0, "losses": 3}}},
        "superiority": [{"better": "greedy", "worse": "random", "likelihood": 0.92}]}}


class StubClient:
    """Answers like the server, records the tournaments asked for."""

    def __init__(self) -> None:
        self.created: list[dict[str, Any]] = []

    def create_tournament(self, game: str, entrants: list[dict[str, Any]],
                          options: dict[str, Any] | None = None, **settings: Any
                          ) -> dict[str, Any]:
        self.created.append({"game": game, "entrants": entrants, "options": options,
                             **settings})
        tokens = {e["name"]: f"tok-{e['name']}" for e in entrants if e["kind"] == "external"}
        self.cancelled: list[tuple[str, str]] = []
        return {"id": "t1", "progress": {"total": 4}, "entrant_tokens": tokens,
                "creator_token": "creator-secret"}

    def cancel_tournament(self, tournament_id: str, creator_token: str) -> dict[str, Any]:
        self.cancelled = [(tournament_id, creator_token)]
        return {"id": tournament_id, "status": "cancelled"}

    def tournament_events(self, tournament_id: str) -> Iterator[dict[str, Any]]:
        for finished in range(5):
            yield {"status": "active" if finished < 4 else "finished", "total": 4,
                   "finished": finished, "in_progress": min(2, 4 - finished)}

    def tournament(self, tournament_id: str) -> dict[str, Any]:
        return BODY

    def tournament_chart(self, tournament_id: str) -> bytes:
        return b"\x89PNG..."


def test_run_asks_the_server_and_reads_its_standings(tmp_path: Path) -> None:
    client = StubClient()
    seen: list[int] = []
    entrants = [Entrant("mcts:ms=5", "mcts", {"ms": 5}), Entrant("alice", None)]
    journal = tmp_path / "t.json"
    standings = run(client,  # type: ignore[arg-type]
                    "toy-pontoon", entrants, games=4, options={"players": 2}, seed=3,
                    journal=journal, progress=lambda e: seen.append(e["finished"]))
    assert client.created == [{
        "game": "toy-pontoon", "options": {"players": 2}, "format": "auto", "seed": 3,
        "max_parallel": 4, "games": 4,
        "entrants": [{"kind": "bot", "name": "mcts:ms=5", "bot": "mcts", "params": {"ms": 5}},
                     {"kind": "external", "name": "alice"}]}]
    assert seen == [0, 1, 2, 3, 4]
    assert [label for label, _ in standings.ordered()] == ["greedy", "random"]
    assert standings.records["greedy"].win_rate == 0.75 and not standings.errors
    # The journal makes a rerun follow the same tournament; another request is refused.
    again = StubClient()
    run(again, "toy-pontoon", entrants, games=4, options={"players": 2},  # type: ignore[arg-type]
        seed=3, journal=journal)
    assert again.created == []
    assert len(client.created) == 1
    with pytest.raises(ValueError, match="another tournament"):
        run(again, "toy-pontoon", entrants, games=6,  # type: ignore[arg-type]
            options={"players": 2}, journal=journal)


def test_rows_and_csv() -> None:
    found = rows(BODY)
    assert [r["entrant"] for r in found] == ["greedy", "random"]
    assert found[0]["superiority_over_next"] == 0.92 and found[1]["score_ci_low"] is None
    parsed = list(csv.DictReader(io.StringIO(to_csv(found))))
    assert parsed[0]["entrant"] == "greedy" and parsed[0]["wins"] == "3"
    assert standings_of(dict(BODY, status="cancelled")).errors


def test_cli_prints_table_and_writes_exports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "Client", lambda url=None: StubClient())
    out_csv, out_png = tmp_path / "s.csv", tmp_path / "c.png"
    code = cli.main(["tournament", "toy-pontoon", "--bot", "random", "--bot", "greedy",
                     "--games", "4", "--csv", str(out_csv), "--chart", str(out_png)])
    assert code == 0
    assert "greedy" in capsys.readouterr().out
    assert out_csv.read_text().startswith("entrant,games,wins")
    assert out_png.read_bytes().startswith(b"\x89PNG")
    args = cli.build_parser().parse_args(["tournament", "darwins-journey", "--bot", "random",
                                          "--players", "1", "--levels", "alfred=white,green"])
    assert args.levels == "alfred=white,green" and args.format == "auto"


def test_cli_gives_external_entrants_a_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    stub = StubClient()
    monkeypatch.setattr(cli, "Client", lambda url=None: stub)
    assert cli.main(["tournament", "toy-pontoon", "--bot", "random", "--external", "ann",
                     "--games", "2", "--per-move", "60", "--on-timeout", "resign"]) == 0
    assert stub.created[-1]["clock"] == {"per_move": 60, "on_timeout": "resign"}
    assert cli.main(["tournament", "toy-pontoon", "--bot", "random", "--external", "ann",
                     "--games", "2"]) == 0
    assert "clock" not in stub.created[-1]  # no clock asked: none sent


def test_cli_prints_the_creator_token_of_an_external_tournament_and_cancels_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    stub = StubClient()
    monkeypatch.setattr(cli, "Client", lambda url=None: stub)
    assert cli.main(["tournament", "toy-pontoon", "--bot", "random", "--external", "ann",
                     "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "external entrant ann: token tok-ann" in out
    assert "bgb tournament --cancel t1 --token creator-secret" in out
    assert cli.main(["tournament", "--cancel", "t1", "--token", "creator-secret"]) == 0
    assert stub.cancelled == [("t1", "creator-secret")]
    assert "cancelled" in capsys.readouterr().out
    assert cli.main(["tournament", "--cancel", "t1"]) == 2  # no token: nothing sent
