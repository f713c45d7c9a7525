"""Bot tournaments on the server, from a client: create one, follow it, read its standings.

The server plans, schedules and plays the games (`POST /v1/tournaments`), survives restarts,
and computes the standings; this module only asks for a tournament, follows its progress
events and turns its standings into rows for a table, JSON or CSV.

With a journal file the tournament's id is kept: running again with the same journal follows
the same tournament (its games went on meanwhile) instead of starting another.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clients.sdk import Client


@dataclass(frozen=True)
class Entrant:
    """A bot with its parameters, named as on the command line (e.g. "mcts:ms=250"), or an
    external entrant (a person or a program playing its seats by token)."""

    label: str
    bot: str | None
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The entrant as the API takes it."""
        if self.bot is None:
            return {"kind": "external", "name": self.label}
        return {"kind": "bot", "name": self.label, "bot": self.bot, "params": dict(self.params)}


@dataclass
class Record:
    """One entrant's line of the standings."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    mean_score: float | None = None
    score_ci: list[float] | None = None
    mean_margin: float | None = None
    margin_ci: list[float] | None = None
    mu: float = 0.0
    sigma: float = 0.0
    rating: float = 0.0  # openskill's ordinal: mu - 3 sigma

    @property
    def win_rate(self) -> float:
        """Wins per game."""
        return self.wins / self.games if self.games else 0.0


@dataclass
class Standings:
    """A tournament's standings as the server computed them."""

    tournament: dict[str, Any] = field(default_factory=dict)
    records: dict[str, Record] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def ordered(self) -> list[tuple[str, Record]]:
        """Entrants best first (the server's order: by rating)."""
        return list(self.records.items())


def standings_of(body: dict[str, Any]) -> Standings:
    """The standings in a tournament's body."""
    records = {}
    for row in body.get("standings", {}).get("entrants", []):
        records[row["name"]] = Record(
            games=row["games"], wins=row["wins"], draws=row["draws"], losses=row["losses"],
            mean_score=row["mean_score"], score_ci=row["score_ci"],
            mean_margin=row["mean_margin"], margin_ci=row["margin_ci"],
            mu=row["rating"]["mu"], sigma=row["rating"]["sigma"],
            rating=row["rating"]["ordinal"])
    errors = []
    if body.get("status") == "cancelled":
        errors.append(f"tournament {body.get('id')} was cancelled")
    return Standings(body, records, errors)


def rows(body: dict[str, Any]) -> list[dict[str, Any]]:
    """One flat row per entrant (best first), with the likelihood that it is stronger than
    the next one: for JSON and CSV."""
    table = body.get("standings", {})
    superiority = {pair["better"]: pair["likelihood"] for pair in table.get("superiority", [])}

    def rounded(value: float | None, digits: int = 2) -> float | None:
        return None if value is None else round(value, digits)

    found = []
    for row in table.get("entrants", []):
        score_ci = row["score_ci"] or [None, None]
        margin_ci = row["margin_ci"] or [None, None]
        found.append({
            "entrant": row["name"], "games": row["games"], "wins": row["wins"],
            "draws": row["draws"], "losses": row["losses"],
            "mean_score": rounded(row["mean_score"]), "score_ci_low": rounded(score_ci[0]),
            "score_ci_high": rounded(score_ci[1]), "mean_margin": rounded(row["mean_margin"]),
            "margin_ci_low": rounded(margin_ci[0]), "margin_ci_high": rounded(margin_ci[1]),
            "mu": rounded(row["rating"]["mu"]), "sigma": rounded(row["rating"]["sigma"]),
            "rating": rounded(row["rating"]["ordinal"]),
            "superiority_over_next": rounded(superiority.get(row["name"]), 3)})
    return found


def to_csv(found: list[dict[str, Any]]) -> str:
    """Rows as CSV text with a header line."""
    out = io.StringIO()
    if found:
        writer = csv.DictWriter(out, fieldnames=list(found[0]))
        writer.writeheader()
        writer.writerows(found)
    return out.getvalue()


def _journal_id(journal: Path | None, request: dict[str, Any]) -> str | None:
    """The tournament a journal names, if it was for the same request; ValueError if for
    another."""
    if journal is None or not journal.exists() or not journal.stat().st_size:
        return None
    kept = json.loads(journal.read_text())
    if kept.get("request") != json.loads(json.dumps(request)):
        raise ValueError(f"{journal} is the journal of another tournament: "
                         f"{kept.get('request')}")
    return str(kept["id"])


def follow(client: Client, tournament_id: str,
           progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Follow a tournament's progress events until it ends; its final body."""
    for event in client.tournament_events(tournament_id):
        if progress is not None:
            progress(event)
    return client.tournament(tournament_id)


def run(client: Client, game: str, entrants: list[Entrant], *, games: int | None = None,
        deals: int | None = None, options: dict[str, Any] | None = None, seed: int = 0,
        parallel: int = 4, fmt: str = "auto", automa: dict[str, Any] | None = None,
        journal: Path | None = None,
        progress: Callable[[dict[str, Any]], None] | None = None,
        created: Callable[[dict[str, Any]], None] | None = None,
        clock: dict[str, Any] | None = None) -> Standings:
    """Have the server play a tournament between `entrants`; its final standings.

    `games` asks for at least that many games (whole deals), `deals` for that many deals
    (each played once per seating rotation); `created` sees the creation answer (with the
    external entrants' tokens); `clock` is a time control for the external entrants' seats
    (docs/clocks.md).
    """
    request: dict[str, Any] = {"format": fmt, "seed": seed, "max_parallel": parallel}
    if games is not None:
        request["games"] = games
    elif deals is not None:
        request["deals"] = deals
    if automa:
        request["automa"] = automa
    if clock:
        request["clock"] = clock
    described = {"game": game, "options": dict(options or {}),
                 "entrants": [e.to_json() for e in entrants], **request}
    tournament_id = _journal_id(journal, described)
    if tournament_id is None:
        answer = client.create_tournament(game, described["entrants"], options, **request)
        tournament_id = str(answer["id"])
        if created is not None:
            created(answer)
        if journal is not None:
            journal.write_text(json.dumps({"id": tournament_id, "request": described}) + "\n")
    return standings_of(follow(client, tournament_id, progress))
