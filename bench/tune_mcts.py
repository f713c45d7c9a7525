"""Paired experiments with `mcts` settings: is a variant stronger than the first one?

Every variant plays the same deals (game seeds) solo against the game's automa, on an
iteration budget, so a busy machine (another bench on the other core) changes no
result. Prints per variant the games, win rate, mean margin and score, the mean paired
difference in margin from the first variant with its standard error (the same deals
remove the setup's share of the noise, not the search's), and where the subject's
points came from when the game's result has a breakdown. Records go to a JSON-lines
file, so a run resumes, and several processes can share a plan with --shard.

    python3 bench/tune_mcts.py --iterations 250 --games 16 \\
        --variant base='{}' --variant c35='{"c": 0.35}'
    python3 bench/tune_mcts.py ... --shard 1/2 --state bench/.state/tune-b.jsonl

A variant's `weights` key (Darwin's Journey only) plays it with another evaluation
weights file, e.g. one written by bench/fit_evaluation.py --write --weights FILE:

    python3 bench/tune_mcts.py --variant base='{}' --variant fit='{"weights": "w.json"}'

What was tried this way, and what came of it: bench/results/tuning-darwins-journey.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import core  # noqa: E402
from bench.strength import STATE_DIR, Matchup, games_to_play, play_one  # noqa: E402

DEFAULT_OPTIONS = {"players": 1, "alfred": "green"}


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """NAME=JSON (mcts parameters) into (name, params)."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise ValueError(f"a variant is NAME=JSON, e.g. c35='{{\"c\": 0.35}}', not {text!r}")
    params = json.loads(raw or "{}")
    if not isinstance(params, dict):
        raise ValueError(f"variant {name!r}: the parameters must be a JSON object")
    return name, params


def variant_matchups(game: core.Game, options: dict[str, Any],
                     variants: list[tuple[str, dict[str, Any]]], iterations: int,
                     games: int) -> list[Matchup]:
    """One matchup per variant: mcts on the free seat, the automa on its own seats."""
    automa = game.automa_seats(options)
    seats = game.seat_count(options)
    free = [s for s in range(seats) if s not in automa]
    if len(free) != 1:
        raise ValueError(f"{game.name} with {options} must leave exactly one seat to the "
                         f"bot (automa seats: {sorted(automa)})")
    out = []
    for name, params in variants:
        full = {"iterations": iterations, **params}
        weights = full.pop("weights", None)
        table = [(automa[s], {}) if s in automa else ("mcts", full) for s in range(seats)]
        # the key holds everything that decides a game, so a changed variant never
        # mixes its records with those of the old one under the same name
        decides: list[Any] = [options, full]
        if weights is not None:
            if game.name != "darwins-journey":
                raise ValueError("the `weights` key is for Darwin's Journey's evaluation only")
            decides.append({"weights": weights_digest(Path(weights))})
            WEIGHTS_OF[f"{game.name}/tune/{name}/"] = Path(weights)
        knobs = json.dumps(decides, sort_keys=True, separators=(",", ":"))
        out.append(Matchup(f"{game.name}/tune/{name}/{knobs}", options,
                           lambda _i, table=table: (table, free[0]), games))
    return out


def weights_digest(path: Path) -> str:
    """What in a weights file decides a game (its values, not its notes or layout)."""
    from ai_worker.bots import eval_darwins_journey as ev

    values = {k: v for k, v in ev.load_weights(path).items() if not k.startswith("_")}
    text = json.dumps(values, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


# matchup key prefix -> the evaluation weights file its games are played with
WEIGHTS_OF: dict[str, Path] = {}


def use_variant_weights(key: str) -> None:
    """Evaluate with the weights of the matchup `key`'s variant (the default file if none)."""
    from ai_worker.bots import eval_darwins_journey as ev

    prefix = key[:key.index("/[") + 1]
    ev.use_weights(WEIGHTS_OF.get(prefix, ev.WEIGHTS_FILE))


def report(console: Console, names: list[str], matchups: list[Matchup]) -> None:
    """Win rate, margins, paired difference from the first variant, score breakdown."""
    table = Table(title="mcts variants, same deals (subject's point of view)")
    for column in ("variant", "games", "win rate", "mean margin", "mean score",
                   "paired diff vs first", "where the points came from"):
        table.add_column(column, overflow="fold")
    first = {r["index"]: r["margin"] for r in matchups[0].records}
    for name, m in zip(names, matchups, strict=True):
        rs = m.records
        if not rs:
            table.add_row(name, "0", "-", "-", "-", "-", "-")
            continue
        diffs = [r["margin"] - first[r["index"]] for r in rs if r["index"] in first]
        paired = "-"
        if m is not matchups[0] and len(diffs) > 1:
            se = statistics.stdev(diffs) / math.sqrt(len(diffs))
            paired = f"{statistics.mean(diffs):+.1f} ± {se:.1f} ({len(diffs)} deals)"
        table.add_row(name, str(len(rs)), f"{sum(r['win'] for r in rs) / len(rs):.0%}",
                      f"{statistics.mean(r['margin'] for r in rs):+.1f}",
                      f"{statistics.mean(r['scores'][r['subject']] for r in rs):.1f}",
                      paired, _sources(rs))
    console.print(table)


def _sources(records: list[dict[str, Any]]) -> str:
    """The subject's mean score by part, when the records carry a breakdown."""
    parts: dict[str, list[float]] = {}
    for r in records:
        breakdown = r.get("breakdown")
        if not isinstance(breakdown, list):
            return "-"
        for part, value in breakdown[r["subject"]].items():
            if part != "total" and isinstance(value, int | float):
                parts.setdefault(part, []).append(value)
    return " ".join(f"{part} {statistics.mean(v):.1f}" for part, v in parts.items()) or "-"


def main(argv: list[str] | None = None) -> int:
    """Play the variants' games (or what is left of them) and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="darwins-journey")
    parser.add_argument("--options", default=json.dumps(DEFAULT_OPTIONS),
                        help="game options (JSON); one seat for the bot, the rest automa")
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME=JSON mcts parameters; repeat; the first is the reference")
    parser.add_argument("--iterations", type=int, default=250, help="iterations per decision")
    parser.add_argument("--games", type=int, default=16, help="deals per variant")
    parser.add_argument("--state", type=Path, default=STATE_DIR / "tune.jsonl")
    parser.add_argument("--shard", default="0/1", help="K/N: play only the deals whose index "
                        "is K modulo N (each process with its own --state)")
    parser.add_argument("--report-only", action="store_true", help="print stored figures")
    args = parser.parse_args(argv)
    console = Console() if Console().is_terminal else Console(width=160)
    try:
        variants = [parse_variant(v) for v in args.variant or ["default={}"]]
        shard, shards = (int(x) for x in args.shard.split("/"))
        if not 0 <= shard < shards:
            raise ValueError(f"--shard must be K/N with 0 <= K < N, not {args.shard!r}")
        game = core.get_game(args.game)
        matchups = variant_matchups(game, json.loads(args.options), variants,
                                    args.iterations, args.games)
    except (ValueError, OSError, core.UnknownGame) as exc:
        parser.error(str(exc))
    todo = games_to_play(matchups, args.state, shard, shards)
    if not args.report_only:
        # deal by deal, every variant in turn: stopping early still leaves paired games
        todo.sort(key=lambda mi: (mi[1], matchups.index(mi[0])))
        with args.state.open("a") as out:
            for n, (m, i) in enumerate(todo, 1):
                if WEIGHTS_OF:
                    use_variant_weights(m.key)
                record = play_one(game, m, i)
                out.write(json.dumps(record) + "\n")
                out.flush()
                m.records.append(record)
                console.print(f"[{n}/{len(todo)}] {m.key.split('/')[2]} deal {i}: "
                              f"margin {record['margin']:+.0f}")
    report(console, [name for name, _ in variants], matchups)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
