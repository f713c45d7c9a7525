"""Flotilla strength: `mcts` against two `greedy` seats in 3-player games, seats rotated.

Plays in-process through the core contract (no HTTP), each seat choosing from its own view.
Prints mcts's win share (a shared win counts as a fraction; a random seat would win 1/3),
its mean place and mean margin over the best greedy seat.

    python3 bench/strength_flotilla.py --games 60 --ms 1000     # the issue's plan (hours)
    python3 bench/strength_flotilla.py --games 6 --ms 100       # a quick look
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import core  # noqa: E402
from ai_worker.bots import get_bot  # noqa: E402


def play(seed: int, mcts_seat: int, params: dict) -> dict:
    """One game; the mcts seat's share of the win, place and margin."""
    game = core.get_game("flotilla")
    state = game.new_game({"players": 3}, seed)
    step = 0
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_moves(state)
        name = "mcts" if seat == mcts_seat else "greedy"
        move = get_bot(name).choose(game, game.view(state, seat), seat, legal,
                                    params if name == "mcts" else {}, seed * 7919 + step)
        game.apply(state, move)
        step += 1
    result = game.result(state)
    winners = result["winners"]
    scores = result["scores"]
    best_other = max(s for p, s in enumerate(scores) if p != mcts_seat)
    return {"seed": seed, "seat": mcts_seat, "win": (1 / len(winners)) if mcts_seat in winners
            else 0.0, "place": result["places"][mcts_seat],
            "margin": scores[mcts_seat] - best_other, "scores": scores}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--ms", type=int, default=100, help="mcts milliseconds per decision")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    params = {"ms": args.ms}
    rows = []
    start = time.monotonic()
    for i in range(args.games):
        row = play(args.seed + i // 3, i % 3, params)
        rows.append(row)
        print(json.dumps(row), flush=True)
    wins = sum(r["win"] for r in rows)
    print(f"mcts ({args.ms} ms) vs 2 greedy, {len(rows)} games: wins {wins:.1f} "
          f"({100 * wins / len(rows):.0f}%), mean place "
          f"{statistics.mean(r['place'] for r in rows):.2f}, mean margin "
          f"{statistics.mean(r['margin'] for r in rows):+.1f}, "
          f"{time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
