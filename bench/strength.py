"""How strong are the bots? Plays games in-process through the core contract (no HTTP).

Prints, per difficulty of the game's automa (Alfred's colours, or the configuration
`--solo-options` names), the solo win rate and mean margin of `mcts` at 250 ms and 1 s per
decision and of `greedy`; at the table, `mcts` vs `greedy` and `greedy` vs `random` in
2-player games with seats alternated, or, for a game of 3 or more, the subject against
`greedy`/`random` in every other seat with each deal played once from every seat (the
same deal in every seat rotation cancels its luck); MCTS simulations per second
and the mean time a search took (less than the budget when it stopped early). Every
finished game is appended to a JSON-lines file under bench/.state/, so an interrupted
run resumes where it stopped (same seeds, same games).

    python3 bench/strength.py                       # the full plan (hours)
    python3 bench/strength.py --games 4 --only solo-mcts-250,greedy-vs-random
    python3 bench/strength.py --shard 1/2 --state bench/.state/b.jsonl   # second core
    BGB_GAME_MODULES=tests.toygame python3 bench/strength.py --game toy-pontoon --games 20
    python3 bench/strength.py --game flotilla --only mcts-vs-greedy --games 60
    python3 bench/strength.py --game encyclopedia --only solo-mcts-1000,mcts-vs-greedy \
        --solo-options '{"behaviour": 3, "scoring": 3}' --games 50   # the hardest AI
    python3 bench/strength.py --only solo-mcts-1000 --difficulties green \
        --deals-from 50000 --games 100   # fresh deals no one tuned on

Deals are seeded 1000, 1001, ... unless `--deals-from N` (then N, N+1, ...; the matchups'
names say so, so their records stay apart). Win rates carry a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import (  # noqa: E402
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table  # noqa: E402

import core  # noqa: E402
from ai_worker.bots import get_bot  # noqa: E402
from ai_worker.bots.evaluation import final_scores, margins, win_shares  # noqa: E402
from ai_worker.bots.mcts import MCTSBot  # noqa: E402

STATE_DIR = ROOT / "bench" / ".state"
DEFAULT_DIFFICULTIES = ["white", "blue", "yellow", "green"]
# Matchup kinds: (subject bot, params) for solo; (subject, opponent) for 2 players.
SOLO = {
    "solo-mcts-250": ("mcts", {"ms": 250}),
    "solo-mcts-1000": ("mcts", {"ms": 1000}),
    "solo-greedy": ("greedy", {}),
}
DUEL = {
    "mcts-vs-greedy": (("mcts", {"ms": 1000}), ("greedy", {})),
    "greedy-vs-random": (("greedy", {}), ("random", {})),
}
DEFAULT_GAMES = {"solo": 50, "duel": 100}


# The first deal's seed of every matchup (deal i is seeded DEFAULT_FIRST_DEAL + i).
DEFAULT_FIRST_DEAL = 1000


@dataclass
class Matchup:
    """One line of the report: who plays whom, how, and how many games."""

    key: str
    options: dict[str, Any]
    seats_for: Any  # game index -> list of (bot, params) per seat, subject's seat
    games: int
    records: list[dict[str, Any]] = field(default_factory=list)
    # game index -> its deal's seed; the same deals for every matchup: paired comparisons
    deal_for: Callable[[int], int] = lambda index: DEFAULT_FIRST_DEAL + index


def with_mcts_params(bot: str, params: dict[str, Any], ms: int | None,
                     extra: dict[str, Any]) -> dict[str, Any]:
    """The subject's params with the --ms and --mcts-params overrides (mcts only)."""
    if bot != "mcts":
        return params
    return {**params, **({"ms": ms} if ms is not None else {}), **extra}


def variant_label(ms: int | None, extra: dict[str, Any]) -> str:
    """What the overrides add to a matchup's name, so their records stay apart."""
    return (f"@{ms}ms" if ms is not None else "") + (json.dumps(extra, sort_keys=True)
                                                      if extra else "")


def solo_configurations(game: core.Game, solo_options: dict[str, Any] | None
                        ) -> list[tuple[str, dict[str, Any]]]:
    """(label, options) of each solo set-up to play: the named one, else each of Alfred's
    colours when the game has that option, else the game's defaults."""
    if solo_options is not None:
        label = ",".join(f"{k}={v}" for k, v in sorted(solo_options.items())) or "default"
        return [(label, {"players": 1, **solo_options})]
    schema = game.options_schema().get("alfred")
    if schema is None:
        return [("default", {"players": 1})]
    return [(d, {"players": 1, "alfred": d})
            for d in schema.get("choices", DEFAULT_DIFFICULTIES) if d]


def solo_matchups(game: core.Game, only: set[str], games: int | None, ms: int | None,
                  console: Console, extra: dict[str, Any],
                  solo_options: dict[str, Any] | None = None) -> list[Matchup]:
    """Subject bots alone against each difficulty of the automa (skipped if none)."""
    kinds = [k for k in SOLO if not only or k in only]
    if not kinds or game.min_players > 1:
        return []
    out = []
    for difficulty, options in solo_configurations(game, solo_options):
        try:
            game.new_game(options, seed=0)
            automa = game.automa_seats(options)
        except core.RulesError as exc:
            console.print(f"[yellow]skip solo vs {difficulty}: {exc}")
            continue
        if not automa:
            console.print(f"[yellow]skip solo vs {difficulty}: {game.name} has no automa seat")
            continue
        for kind in kinds:
            bot, params = SOLO[kind]
            params = with_mcts_params(bot, params, ms, extra)

            def seats(i: int, bot: str = bot, params: dict = params,
                      automa: dict = automa, n: int = game.seat_count(options)
                      ) -> tuple[list[tuple[str, dict]], int]:
                subject = next(s for s in range(n) if s not in automa)
                table = [(automa[s], {}) if s in automa else (bot, params) for s in range(n)]
                return table, subject

            label = kind
            if bot == "mcts" and ms is not None:
                label = f"solo-mcts-{ms}"
            if bot == "mcts":
                label += variant_label(None, extra)
            if any(m.key == f"{game.name}/{difficulty}/{label}" for m in out):
                continue  # with --ms both mcts budgets are the same matchup
            out.append(Matchup(f"{game.name}/{difficulty}/{label}", options, seats,
                               games or DEFAULT_GAMES["solo"]))
    return out


def table_matchups(game: core.Game, only: set[str], games: int | None,
                   ms: int | None, extra: dict[str, Any]) -> list[Matchup]:
    """The subject against its opponent at the table: two bots face to face with seats
    alternated game by game, or, where the game needs 3 or more, the subject against the
    opponent bot in every other seat, each deal played from every seat in turn."""
    players = 2 if game.min_players <= 2 <= game.max_players else game.min_players
    out = []
    for kind, (subject, opponent) in DUEL.items():
        if only and kind not in only:
            continue
        subject = (subject[0], with_mcts_params(*subject, ms, extra))

        def seats(i: int, subject: tuple = subject, opponent: tuple = opponent
                  ) -> tuple[list[tuple[str, dict]], int]:
            seat = i % players
            return [subject if s == seat else opponent for s in range(players)], seat

        label = kind + (variant_label(ms, extra) if subject[0] == "mcts" else "")
        matchup = Matchup(f"{game.name}/{players}p/{label}", {"players": players}, seats,
                          games or DEFAULT_GAMES["duel"])
        if players > 2:  # one deal per seat rotation (2 players keep their old deals)
            matchup.deal_for = lambda index, n=players: DEFAULT_FIRST_DEAL + index // n
        out.append(matchup)
    return out


def play_one(game: core.Game, matchup: Matchup, index: int) -> dict[str, Any]:
    """Play game `index` of `matchup` to the end and return its record."""
    seed = matchup.deal_for(index)
    table, subject = matchup.seats_for(index)
    state = game.new_game(matchup.options, seed)
    mcts = MCTSBot()
    decisions = searched = 0
    iterations = 0
    search_seconds = 0.0
    start = time.perf_counter()
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_moves(state)
        bot, params = table[seat]
        view = game.view(state, seat)
        bot_seed = seed * 100_003 + decisions
        if bot == "mcts":
            move, stats = mcts.search(game, view, seat, legal, params, bot_seed)
            if stats.iterations:
                searched += 1
                iterations += stats.iterations
                search_seconds += stats.seconds
        else:
            move = get_bot(bot).choose(game, view, seat, legal, params, bot_seed)
        game.apply(state, move)
        decisions += 1
    seats = len(table)
    scores = final_scores(game, state)
    breakdown = game.result(state).get("breakdown")  # where the points came from, if told
    return {
        "matchup": matchup.key, "index": index, "seed": seed, "subject": subject,
        "bots": [b for b, _ in table], "scores": scores,
        "win": win_shares(game, state, seats)[subject],
        "margin": margins(scores)[subject], "decisions": decisions,
        "searched": searched, "iterations": iterations, "search_seconds": search_seconds,
        "seconds": time.perf_counter() - start,
        **({"breakdown": breakdown} if breakdown is not None else {}),
    }


def load_records(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """The games already played, by (matchup key, game index)."""
    done: dict[tuple[str, int], dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                done[(record["matchup"], record["index"])] = record
    return done


def games_to_play(matchups: list[Matchup], path: Path, shard: int,
                  shards: int) -> list[tuple[Matchup, int]]:
    """Load the games `path` already holds into `matchups`; the rest of this shard's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    done = load_records(path)
    todo = []
    for m in matchups:
        for i in range(m.games):
            if (m.key, i) in done:
                m.records.append(done[(m.key, i)])
            elif i % shards == shard:
                todo.append((m, i))
    return todo


def per_game(records: list[dict[str, Any]]) -> str:
    """Mean seconds a game took, over the records that timed themselves."""
    timed = [r["seconds"] for r in records if r.get("seconds") is not None]
    return f"{sum(timed) / len(timed):.1f}" if timed else "-"


def with_deals_from(matchups: list[Matchup], first: int) -> None:
    """Deal the matchups' games from seed `first` on (in place), named apart."""
    for m in matchups:
        m.deal_for = (lambda index, old=m.deal_for, shift=first - DEFAULT_FIRST_DEAL:
                      old(index) + shift)
        m.key += f"@deals{first}"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default; shared wins count as
    their share)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(console: Console, matchups: list[Matchup]) -> None:
    """The figures: win rate, mean margin, games, and MCTS simulations per second."""
    table = Table(title="Bot strength (subject bot's point of view)")
    for column in ("matchup", "games", "win rate", "95% interval", "mean margin", "sims/s",
                   "ms/search",
                   "s/game"):
        table.add_column(column, justify="left" if column == "matchup" else "right",
                         overflow="fold")
    for m in matchups:
        rs = m.records
        if not rs:
            table.add_row(m.key, "0", "-", "-", "-", "-", "-", "-")
            continue
        seconds = sum(r["search_seconds"] for r in rs)
        searches = sum(r["searched"] for r in rs)
        sims = f"{sum(r['iterations'] for r in rs) / seconds:,.0f}" if seconds else "-"
        # under the budget when the search stopped early (its move could no longer change)
        per_search = f"{1000 * seconds / searches:.0f}" if searches else "-"
        wins = sum(r["win"] for r in rs)
        low, high = wilson(wins, len(rs))
        table.add_row(m.key, str(len(rs)), f"{wins / len(rs):.0%}", f"{low:.0%}-{high:.0%}",
                      f"{sum(r['margin'] for r in rs) / len(rs):+.1f}", sims, per_search,
                      per_game(rs))
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark plan (or the chosen part of it) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="darwins-journey")
    parser.add_argument("--games", type=int, help="games per matchup (default 50 solo, 100 2p)")
    parser.add_argument("--only", default="", help="comma-separated matchups: "
                        + ", ".join([*SOLO, *DUEL]))
    parser.add_argument("--difficulties", default="", help="comma-separated Alfred colours")
    parser.add_argument("--solo-options", help="JSON object: the solo set-up to play "
                        "instead of each Alfred colour, e.g. "
                        "'{\"behaviour\": 3, \"scoring\": 3}'")
    parser.add_argument("--deals-from", type=int, default=None, metavar="N",
                        help="deal the games from seed N on (default 1000): fresh deals")
    parser.add_argument("--ms", type=int, help="override mcts ms per decision (all matchups)")
    parser.add_argument("--mcts-params", default="{}", help="JSON object merged into every "
                        "mcts subject's params, e.g. '{\"c\": 0.35}'; it names the matchups "
                        "apart from the defaults")
    parser.add_argument("--state", type=Path, help="results file (JSON lines); "
                        "default bench/.state/strength-<game>.jsonl")
    parser.add_argument("--report-only", action="store_true", help="print stored figures")
    parser.add_argument("--shard", default="0/1", help="K/N: play only the games whose index "
                        "is K modulo N, so N processes (each with its own --state) share a "
                        "plan; report with all the files concatenated")
    args = parser.parse_args(argv)
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)  # a log file still gets whole matchup names
    only = {k.strip() for k in args.only.split(",") if k.strip()}
    try:
        shard, shards = (int(x) for x in args.shard.split("/"))
        assert 0 <= shard < shards
    except (ValueError, AssertionError):
        parser.error(f"--shard must be K/N with 0 <= K < N, not {args.shard!r}")
    try:
        extra = json.loads(args.mcts_params)
        assert isinstance(extra, dict)
    except (ValueError, AssertionError):
        parser.error(f"--mcts-params must be a JSON object, not {args.mcts_params!r}")
    unknown = only - set(SOLO) - set(DUEL)
    if unknown:
        parser.error(f"unknown matchup(s) {sorted(unknown)}; known: {[*SOLO, *DUEL]}")
    try:
        game = core.get_game(args.game)
    except core.UnknownGame as exc:
        console.print(f"[yellow]skip everything: {exc}")
        return 0
    try:
        solo_options = None if args.solo_options is None else json.loads(args.solo_options)
        assert solo_options is None or isinstance(solo_options, dict)
    except (ValueError, AssertionError):
        parser.error(f"--solo-options must be a JSON object, not {args.solo_options!r}")
    matchups = solo_matchups(game, only, args.games, args.ms, console, extra, solo_options)
    if args.difficulties:
        wanted = {d.strip() for d in args.difficulties.split(",")}
        matchups = [m for m in matchups if m.options.get("alfred") in wanted]
    if game.max_players >= 2:
        matchups += table_matchups(game, only, args.games, args.ms, extra)
    if args.deals_from is not None and args.deals_from != DEFAULT_FIRST_DEAL:
        with_deals_from(matchups, args.deals_from)
    path = args.state or STATE_DIR / f"strength-{game.name}.jsonl"
    todo = games_to_play(matchups, path, shard, shards)
    if todo and not args.report_only:
        console.print(f"{len(todo)} games to play; results appended to {path}")
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console) as progress, path.open("a") as out:
            task = progress.add_task("games", total=len(todo))
            for m, i in todo:
                progress.update(task, description=f"{m.key} #{i}")
                record = play_one(game, m, i)
                out.write(json.dumps(record) + "\n")
                out.flush()
                m.records.append(record)
                progress.advance(task)
    report(console, matchups)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
