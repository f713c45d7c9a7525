"""Bot tournaments over the HTTP API: many all-bot games, standings and Elo ratings.

The server's workers play the games; this module only schedules them (seats rotated so every
entrant plays every seat equally often), waits for their results and tallies them. Games with
an automa (Darwin's Journey solo) seat it themselves; it enters the standings as its bot name.

With a journal (a JSON-lines file) an interrupted tournament resumes: games already
finished are tallied from it, games already created are waited for (the server's workers
went on playing them meanwhile), and only the rest are created.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clients.sdk import Client

ELO_START = 1500.0
ELO_K = 16.0


@dataclass(frozen=True)
class Entrant:
    """A bot with its parameters, named as on the command line (e.g. "mcts:ms=250")."""

    label: str
    bot: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def seat(self) -> dict[str, Any]:
        """The seat spec of this entrant."""
        return {"kind": "bot", "bot": self.bot, "params": dict(self.params)}


@dataclass
class Record:
    """One entrant's results so far."""

    games: int = 0
    wins: float = 0.0
    points: float = 0.0
    margin: float = 0.0
    rating: float = ELO_START

    @property
    def win_rate(self) -> float:
        """Wins (a shared first place counts as a fraction) per game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        """Mean final score."""
        return self.points / self.games if self.games else 0.0

    @property
    def mean_margin(self) -> float:
        """Mean score lead over the best other seat (negative when behind)."""
        return self.margin / self.games if self.games else 0.0


@dataclass
class Standings:
    """Every entrant's record, the finished games and any games that failed."""

    records: dict[str, Record] = field(default_factory=dict)
    games: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def ordered(self) -> list[tuple[str, Record]]:
        """Entrants best first: by rating, then win rate."""
        return sorted(self.records.items(), key=lambda kv: (-kv[1].rating, -kv[1].win_rate))


def schedule(entrants: list[Entrant], players: int, games: int) -> list[list[Entrant]]:
    """The seatings of `games` games: every combination of entrants, each in every rotation."""
    if players <= len(entrants):
        groups = list(itertools.combinations(entrants, players))
    else:  # fewer entrants than seats: entrants fill the seats round the table
        groups = [tuple(entrants[i % len(entrants)] for i in range(players))]
    seatings = []
    for number in range(games):
        group = groups[number % len(groups)]
        turn = (number // len(groups)) % players
        seatings.append(list(group[turn:] + group[:turn]))
    return seatings


def places_of(result: dict[str, Any], seats: int) -> list[int]:
    """Each seat's place (1 = first; shared on a tie) from a game's result."""
    places = result.get("places")
    if isinstance(places, list) and len(places) == seats:
        return [int(p) for p in places]
    ranking = result.get("ranking") or list(range(seats))
    flat = [s for entry in ranking for s in (entry if isinstance(entry, list) else [entry])]
    return [flat.index(s) + 1 if s in flat else seats for s in range(seats)]


def _score(value: Any) -> float:
    if isinstance(value, dict):
        value = value.get("total", 0)
    return float(value) if isinstance(value, int | float) else 0.0


def tally(standings: Standings, labels: list[str], result: dict[str, Any],
          number: int | None = None) -> None:
    """Add one finished game (seat -> entrant label) to the standings, Elo included."""
    seats = len(labels)
    places = places_of(result, seats)
    scores = [_score(s) for s in (result.get("scores") or [0] * seats)]
    firsts = [s for s in range(seats) if places[s] == 1]
    for seat, label in enumerate(labels):
        record = standings.records.setdefault(label, Record())
        record.games += 1
        record.points += scores[seat]
        if seat in firsts:
            record.wins += 1.0 / len(firsts)
        others = [scores[o] for o in range(seats) if o != seat]
        record.margin += scores[seat] - max(others) if others else 0.0
    _rate(standings, labels, places)
    standings.games.append({"number": number, "labels": labels, "result": result})


def _rate(standings: Standings, labels: list[str], places: list[int]) -> None:
    """Elo, pairwise between seats of different entrants, with the ratings from before."""
    seats = len(labels)
    before = {label: standings.records[label].rating for label in labels}
    for a, b in itertools.combinations(range(seats), 2):
        if labels[a] == labels[b]:
            continue
        expected = 1.0 / (1.0 + 10 ** ((before[labels[b]] - before[labels[a]]) / 400.0))
        actual = 1.0 if places[a] < places[b] else 0.0 if places[a] > places[b] else 0.5
        standings.records[labels[a]].rating += ELO_K * (actual - expected)
        standings.records[labels[b]].rating -= ELO_K * (actual - expected)


def rerate(standings: Standings) -> None:
    """Elo again from the start, the games taken in schedule order.

    Elo depends on the order of the games; games end in whatever order the workers
    finish them, so the final ratings are recomputed in schedule order, which makes a
    tournament's table the same however its games were timed or resumed.
    """
    for record in standings.records.values():
        record.rating = ELO_START
    games = sorted(standings.games, key=lambda g: (g["number"] is None, g["number"] or 0))
    for game in games:
        _rate(standings, game["labels"], places_of(game["result"], len(game["labels"])))


class Journal:
    """A tournament's games on disk, one JSON line per event, so a rerun resumes it.

    The first line describes the tournament; a journal of another tournament (other game,
    options, entrants, seed or number of games) is refused rather than mixed in.
    """

    def __init__(self, path: Path, tournament: dict[str, Any]) -> None:
        self.path = path
        self.created: dict[int, str] = {}  # game number -> game id
        self.finished: dict[int, tuple[list[str], dict[str, Any]]] = {}
        self._lock = threading.Lock()
        header = {"tournament": tournament}
        if path.exists() and path.stat().st_size:
            lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            if lines[0] != json.loads(json.dumps(header)):
                raise ValueError(f"{path} is the journal of another tournament: "
                                 f"{lines[0].get('tournament')}")
            for entry in lines[1:]:
                if "result" in entry:
                    self.finished[entry["game"]] = (entry["labels"], entry["result"])
                else:
                    self.created[entry["game"]] = entry["id"]
        else:
            self._append(header)

    def _append(self, entry: dict[str, Any]) -> None:
        with self._lock, self.path.open("a") as out:
            out.write(json.dumps(entry) + "\n")

    def note_created(self, number: int, game_id: str) -> None:
        """Game `number` exists on the server as `game_id`."""
        self._append({"game": number, "id": game_id})

    def note_finished(self, number: int, labels: list[str], result: dict[str, Any]) -> None:
        """Game `number` ended with `result`."""
        self._append({"game": number, "labels": labels, "result": result})


def seat_layout(client: Client, game: str, options: dict[str, Any],
                seed: int) -> list[dict[str, Any] | None]:
    """Which seats the game gives its automa (a seat spec) and which are free (None).

    Learned from one probe game created without seats: the server seats automas itself and
    makes every other seat human. The probe is left unplayed.
    """
    probe = client.create_game(game, options, None, seed)
    return [None if entry.get("kind") == "human"
            else {"kind": "bot", "bot": entry["bot"], "params": entry.get("params") or {}}
            for entry in probe["seats"]]


def play_one(client: Client, game: str, options: dict[str, Any],
             layout: list[dict[str, Any] | None], seating: list[Entrant], seed: int,
             timeout: float, game_id: str | None = None,
             on_created: Callable[[str], None] | None = None
             ) -> tuple[list[str], dict[str, Any]]:
    """Create one all-bot game (unless `game_id` names it already), wait for its end.

    Returns the label of each seat and the result.
    """
    given = iter(seating)
    seats, labels = [], []
    for fixed in layout:
        if fixed is None:
            entrant = next(given)
            seats.append(entrant.seat())
            labels.append(entrant.label)
        else:
            seats.append(fixed)
            labels.append(str(fixed["bot"]))
    if game_id is None:
        game_id = str(client.create_game(game, options, seats, seed)["id"])
        if on_created is not None:
            on_created(game_id)
    body = client.get_game(game_id)
    idle = 0.0
    while body.get("status") == "active":
        if idle > timeout:
            raise TimeoutError(f"game {game_id} made no move for {timeout:.0f} s")
        before = int(body["version"])
        body = client.wait_for_version(game_id, before, timeout=25.0)
        idle = idle + 25.0 if int(body["version"]) == before else 0.0
    return labels, dict(body.get("result") or {})


def run(client: Client, game: str, entrants: list[Entrant], *, games: int,
        options: dict[str, Any] | None = None, seed: int = 0, parallel: int = 4,
        timeout: float = 600.0, journal: Path | None = None,
        progress: Callable[[Standings], None] | None = None) -> Standings:
    """Play `games` games between `entrants` on the server and return the standings.

    With `journal`, games already finished there are tallied first and games already
    created are waited for instead of created again.
    """
    options = dict(options or {})
    log = None
    if journal is not None:
        log = Journal(journal, {"game": game, "options": options, "games": games, "seed": seed,
                                "entrants": [[e.label, e.bot, e.params] for e in entrants]})
    layout = seat_layout(client, game, options, seed)
    free = sum(1 for fixed in layout if fixed is None)
    standings = Standings()
    lock = threading.Lock()
    seatings = schedule(entrants, free, games)
    futures = {}
    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        for number, seating in enumerate(seatings):
            if log is not None and number in log.finished:
                tally(standings, *log.finished[number], number=number)
                if progress is not None:
                    progress(standings)
                continue
            known = log.created.get(number) if log is not None else None
            noted = (lambda game_id, n=number: log.note_created(n, game_id)) if log else None
            futures[pool.submit(play_one, client, game, options, layout, seating,
                                seed + number, timeout, known, noted)] = number
        for future in as_completed(futures):
            with lock:
                try:
                    labels, result = future.result()
                except Exception as exc:  # a failed game is reported, not fatal
                    standings.errors.append(str(exc))
                else:
                    tally(standings, labels, result, futures[future])
                    if log is not None:
                        log.note_finished(futures[future], labels, result)
                if progress is not None:
                    progress(standings)
    rerate(standings)
    return standings
