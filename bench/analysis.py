"""Benchmark a game's analysis: seconds per decision, classes found, and reproducibility.

Usage: python3 bench/analysis.py [--game darwins-journey] [--seed 12] [--iterations 400]
                                 [--moves N] [--twice]
Plays a seeded solo game (greedy against the automa where the game has one), then analyses
the player's decisions among the first N log entries with `ai_worker.analysis.analyse_record`
at the given iteration budget; prints the time per decision, the classes, the accuracy and,
with --twice, whether a second analysis gives the same numbers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before bench/ itself: bench/api.py is not the api package

import core  # noqa: E402
from ai_worker.analysis import Budget, analyse_record  # noqa: E402
from ai_worker.bots import get_bot  # noqa: E402

OPTIONS: dict[str, dict[str, Any]] = {"darwins-journey": {"players": 1, "alfred": "green"},
                                      "flotilla": {"players": 3},
                                      "encyclopedia": {"players": 1}}


def played(game: core.Game, options: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """The log of a game: greedy seats, automa seats by their procedure."""
    state = game.new_game(options, seed)
    automa = game.automa_seats(options)
    rng = random.Random(seed)
    entries: list[dict[str, Any]] = []
    while (seat := game.to_act(state)) is not None:
        bot = get_bot(automa[seat]) if seat in automa else get_bot("greedy")
        move = bot.choose(game, game.view(state, seat), seat, game.legal_moves(state), {},
                          rng.getrandbits(32))
        entries.append({"index": len(entries), "version": len(entries) + 1, "seat": seat,
                        "move": move})
        game.apply(state, move)
    return entries


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="darwins-journey", choices=sorted(OPTIONS))
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--moves", type=int, default=0, help="log entries (0: all)")
    parser.add_argument("--twice", action="store_true", help="analyse twice and compare")
    args = parser.parse_args()
    game = core.get_game(args.game)
    options = OPTIONS[args.game]
    entries = played(game, options, args.seed)
    entries = entries[:args.moves] if args.moves else entries
    seats = [s for s in range(game.seat_count(options)) if s not in game.automa_seats(options)]
    budget = Budget(args.iterations, 60_000)
    start = time.perf_counter()
    found = analyse_record(game, options, args.seed, entries, seats, budget)
    seconds = time.perf_counter() - start
    decisions = len(found["moves"])
    print(f"{args.game} seed {args.seed}: {decisions} decisions of seats {seats} at "
          f"{args.iterations} iterations: {seconds:.1f} s, "
          f"{seconds / max(decisions, 1):.2f} s a decision")
    print("classes:", dict(Counter(m["classification"] for m in found["moves"])))
    print("accuracy:", found["accuracy"])
    if args.twice:
        again = analyse_record(game, options, args.seed, entries, seats, budget)
        print("the same numbers twice:", again == found)


if __name__ == "__main__":
    main()
