"""Fit the Darwin's Journey evaluation's weights to the final scores of played games.

Plays games (solo against Alfred, and 2 players) with `mcts` on a small iteration
budget, records each bot seat's evaluation features (`eval_darwins_journey.features`)
where the search's rollouts are scored (its quiet positions: its turn over, the next
seat's not begun; `--at every` samples every few decisions instead) together with the
score that seat finished with, and fits the weights by ridge regression pulled toward
the current ones:

    minimise  sum (final - points - beagle_future - sum_k w_k f_k)^2
              + ridge * n * sum_k (w_k - current_k)^2

(`points` and `beagle_future` are already in points and stay at 1), plus a free curve
a + b t + c t^2 in t, the share of the game still to come. That curve absorbs what every
position is worth just for the time left; without it the resource weights (all scaled
by t) would learn "early in the game" instead of the worth of the resource. It is the
same for every move of one decision, so the evaluation has no use for it. Prints the current
and fitted weights and how well each predicts the final score on held-out games
(every fifth game). `--write` stores the fit in the weights file; keep it only if
`bench/tune_mcts.py` (a variant's `weights` key) and `bench/strength.py` then show a
stronger bot. Samples are appended to a JSON-lines file under bench/.state/, so more
games can be added later without replaying any; `--shard` splits the games over
processes, `--fit-only` fits on the files given without playing.

    python3 bench/fit_evaluation.py --games 150 --iterations 150 --shard 0/2 --state A
    python3 bench/fit_evaluation.py --games 150 --iterations 150 --shard 1/2 --state B
    python3 bench/fit_evaluation.py --games 150 --iterations 150 --fit-only \
        --state A --state B --weights FILE --write   # 150 iterations: 9-18 s a game

The shipped weights (2026-12-07) are the fit of --games 142 --iterations 150 --fit-only
on bench/results/fit-darwins-journey-2026-12-07-quiet150.jsonl (141 games).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402
from rich.table import Table  # noqa: E402

import core  # noqa: E402
from ai_worker.bots import eval_darwins_journey as ev  # noqa: E402
from ai_worker.bots import get_bot  # noqa: E402
from ai_worker.bots.evaluation import final_scores  # noqa: E402

GAME = "darwins-journey"
FIXED = ("points", "beagle_future")  # already in points: not fitted
FITTED = tuple(name for name in ev.FEATURES if name not in FIXED)
# Game i plays these options: solo against each Alfred in turn, and 2-player games.
TABLES = [{"players": 1, "alfred": "green"}, {"players": 2}, {"players": 1, "alfred": "yellow"},
          {"players": 2}, {"players": 1, "alfred": "blue"}]
HOLD_OUT_EVERY = 5
# Game i is dealt seed FIT_FIRST_SEED + i: apart from bench/strength.py's deals (1000 on,
# the deals the search was tuned on, and 50000 on, the fresh deals its strength is reported
# on), so weights fitted here are never judged on the games they were fitted to.
FIT_FIRST_SEED = 900_000
TIME_CURVE = (0, 1, 2)  # powers of t in the free time curve


def play_game(game: core.Game, index: int, iterations: int, every: int,
              at: str) -> dict[str, Any]:
    """One game's samples: [seat, t, features..., final score of that seat].

    `at` "quiet" samples each bot seat where its rollouts are scored (the evaluation's
    quiet positions: its turn just over, the next seat's not begun); "every" samples
    every `every`-th decision wherever it falls.
    """
    options = TABLES[index % len(TABLES)]
    seed = FIT_FIRST_SEED + index
    state = game.new_game(options, seed=seed)
    automa = game.automa_seats(options)
    mcts = get_bot("mcts")
    params = {"iterations": iterations, "reuse": False}
    bots = [p for p in range(state.n) if p not in automa]
    rows: list[tuple[int, float, tuple[float, ...]]] = []
    decisions = 0
    while (seat := game.to_act(state)) is not None:
        t = ev.rounds_left(state) / ev.ROUNDS
        if at == "quiet":
            rows += [(p, t, ev.features(state, p)) for p in bots if ev.quiet(game, state, p)]
        elif decisions % every == 0:
            rows += [(p, t, ev.features(state, p)) for p in bots]
        legal = game.legal_moves(state)
        view = game.view(state, seat)
        bot = get_bot(automa[seat]) if seat in automa else mcts
        move = bot.choose(game, view, seat, legal, params if bot is mcts else {},
                          index * 100_003 + decisions)
        game.apply(state, move)
        decisions += 1
    finals = final_scores(game, state)
    return {"index": index, "seed": seed, "options": options, "at": at,
            "iterations": iterations, "finals": finals,
            "samples": [[p, t, *f, finals[p]] for p, t, f in rows]}


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x == vector (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("singular system: a feature never varies in the samples")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(samples: list[list[float]], current: dict[str, float],
        ridge: float) -> tuple[dict[str, float], list[float]]:
    """Ridge regression of the final score on the features and the time curve.

    Returns the weights (pulled toward `current`, none below 0: holding more of
    something never costs points, whatever a correlation in the samples says) and the
    time curve's coefficients.
    """
    held = {name: current[name] for name in FIXED}  # weights not fitted, and their values
    while True:
        free = [name for name in FITTED if name not in held]
        weights, curve = _ridge(samples, current, held, free, ridge)
        negative = [name for name in free if weights[name] < 0]
        if not negative:
            return weights, curve
        held.update(dict.fromkeys(negative, 0.0))


def _ridge(samples: list[list[float]], current: dict[str, float], held: dict[str, float],
           free: list[str], ridge: float) -> tuple[dict[str, float], list[float]]:
    """One ridge solve for the `free` weights, the `held` ones at their given values."""
    index = {name: i for i, name in enumerate(ev.FEATURES)}
    k = len(free) + len(TIME_CURVE)
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for sample in samples:
        t, f, final = sample[1], sample[2:-1], sample[-1]
        target = final - sum(value * f[index[name]] for name, value in held.items())
        x = [f[index[name]] for name in free] + [t ** e for e in TIME_CURVE]
        for i in range(k):
            xty[i] += x[i] * target
            for j in range(k):
                xtx[i][j] += x[i] * x[j]
    pull = ridge * max(1, len(samples))
    for i, name in enumerate(free):
        xtx[i][i] += pull
        xty[i] += pull * current[name]
    solution = solve(xtx, xty)
    weights = {**current, **held, **dict(zip(free, solution, strict=False))}
    return weights, solution[len(free):]


def mean_abs_error(samples: list[list[float]], weights: dict[str, float],
                   curve: list[float]) -> float:
    """How far, on average, weights and time curve are from the final score."""
    w = [weights[name] for name in ev.FEATURES]
    errors = []
    for s in samples:
        t, f, final = s[1], s[2:-1], s[-1]
        guess = sum(a * b for a, b in zip(w, f, strict=True))
        guess += sum(c * t ** e for c, e in zip(curve, TIME_CURVE, strict=True))
        errors.append(abs(final - guess))
    return sum(errors) / len(errors) if errors else 0.0


def main(argv: list[str] | None = None) -> int:
    """Play the games still missing, fit, print, and write the weights if asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--iterations", type=int, default=60,
                        help="mcts iterations per decision of the bot seats")
    parser.add_argument("--at", choices=("quiet", "every"), default="quiet",
                        help="sample at each bot seat's quiet positions, or every N-th decision")
    parser.add_argument("--every", type=int, default=4, help="with --at every: every N-th decision")
    parser.add_argument("--shard", default="0/1", help="K/N: play only the games whose index is "
                        "K modulo N (each process with its own --state; fit with every file)")
    parser.add_argument("--ridge", type=float, default=0.05,
                        help="pull toward the current weights, per sample")
    parser.add_argument("--state", type=Path, action="append",
                        help="JSON-lines file of played games; repeat to fit on several "
                        "(games are appended to the first); default bench/.state/fit.jsonl")
    parser.add_argument("--weights", type=Path, default=ev.WEIGHTS_FILE)
    parser.add_argument("--write", action="store_true", help="store the fitted weights")
    parser.add_argument("--fit-only", action="store_true",
                        help="play nothing: fit on the games the --state files hold")
    args = parser.parse_args(argv)
    console = Console() if sys.stdout.isatty() else Console(width=100)
    game = core.get_game(GAME)
    states = args.state or [ROOT / "bench" / ".state" / "fit.jsonl"]
    try:
        shard, shards = (int(x) for x in args.shard.split("/"))
        assert 0 <= shard < shards
    except (ValueError, AssertionError):
        parser.error(f"--shard must be K/N with 0 <= K < N, not {args.shard!r}")
    states[0].parent.mkdir(parents=True, exist_ok=True)
    played: dict[int, dict[str, Any]] = {}
    for path in states:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                # only this plan's games: the deals from FIT_FIRST_SEED, sampled the same way
                if (record.get("seed") == FIT_FIRST_SEED + record["index"]
                        and record.get("at", "every") == args.at
                        and record.get("iterations", args.iterations) == args.iterations):
                    played[record["index"]] = record
    todo = [i for i in range(args.games)
            if i % shards == shard and i not in played and not args.fit_only]
    with Progress(console=console, transient=True) as bar, states[0].open("a") as out:
        task = bar.add_task("games", total=len(todo))
        for i in todo:
            played[i] = play_game(game, i, args.iterations, args.every, args.at)
            out.write(json.dumps(played[i]) + "\n")
            out.flush()
            bar.advance(task)
    missing = [i for i in range(args.games) if i not in played]
    if missing:
        console.print(f"{len(missing)} of the {args.games} games are not played yet "
                      "(another shard's?): fitting on the rest")
    games = [i for i in range(args.games) if i in played]
    train = [s for i in games if i % HOLD_OUT_EVERY for s in played[i]["samples"]]
    held = [s for i in games if i % HOLD_OUT_EVERY == 0 for s in played[i]["samples"]]
    data = json.loads(args.weights.read_text())
    current = {name: float(v) for name, v in data["weights"].items()}
    fitted, curve = fit(train, current, args.ridge)
    # the current weights judged fairly: with the best time curve for them
    fixed = {name: current[name] for name in FIXED}
    _, current_curve = _ridge(train, current, fixed, list(FITTED), 1e9)
    table = Table(title=f"{len(train)} samples fitted, {len(held)} held out")
    for column in ("feature", "current", "fitted"):
        table.add_column(column, justify="left" if column == "feature" else "right")
    for name in ev.FEATURES:
        table.add_row(name, f"{current[name]:.3f}", f"{fitted[name]:.3f}")
    table.add_row("mean |error| held out", f"{mean_abs_error(held, current, current_curve):.2f}",
                  f"{mean_abs_error(held, fitted, curve):.2f}")
    console.print(table)
    if args.write:
        data["weights"] = {name: round(fitted[name], 3) for name in ev.FEATURES}
        args.weights.write_text(json.dumps(data, indent=2) + "\n")
        console.print(f"written to {args.weights}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
