"""Benchmark of a rules engine (default Darwin's Journey): random full games through the contract.

Prints, for each multiplayer count the game allows (Darwin's Journey 2-4, Flotilla 3-5): full
random games per second and decisions per second on one core (process CPU time, median of
several runs), peak traced memory of one game, and the size of `dump` in bytes mid-game. Policy
"uniform" picks any legal move; "active" avoids skips 90% of the time (longer games that use
more rules).
Usage: python3 bench/engine.py [--game NAME] [--games N] [--runs R] [--policy uniform|active]
       [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import time
import tracemalloc
from typing import Any

from core import get_game

GAME = get_game("darwins-journey")  # --game chooses another


PASSIVE = {"skip", "done", "end_turn", "pass"}
POLICY = {"name": "uniform"}


def choose(rnd: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The benchmark policy's move."""
    if POLICY["name"] == "active" and rnd.random() < 0.9:
        active = [m for m in moves if m["type"] not in PASSIVE]
        if active:
            return rnd.choice(active)
    return rnd.choice(moves)


def random_game(players: int, seed: int) -> tuple[int, Any]:
    """Play one random game; returns (decisions, final state)."""
    state = GAME.new_game({"players": players}, seed)
    rnd = random.Random(seed)
    decisions = 0
    to_act, legal, apply = GAME.to_act, GAME.legal_moves, GAME.apply
    while to_act(state) is not None:
        apply(state, choose(rnd, legal(state)))
        decisions += 1
    return decisions, state


def run(players: int, games: int, seed0: int) -> tuple[float, float]:
    """(games/s, decisions/s) over `games` games."""
    start = time.process_time()  # CPU time: robust to other load on the machine
    decisions = 0
    for i in range(games):
        decisions += random_game(players, seed0 + i)[0]
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="darwins-journey",
                        help="registered game (default darwins-journey; e.g. flotilla)")
    parser.add_argument("--games", type=int, default=100, help="games per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per player count (median)")
    parser.add_argument("--policy", choices=["uniform", "active"], default="uniform")
    parser.add_argument("--profile", action="store_true",
                        help="profile games at the smallest player count")
    args = parser.parse_args()
    global GAME
    GAME = get_game(args.game)
    POLICY["name"] = args.policy
    # Multiplayer counts only: solo games pit the engine against its automa.
    counts = range(max(2, GAME.min_players), GAME.max_players + 1)
    if args.profile:
        cProfile.runctx("run(players, games, 0)", globals(),
                        {"games": args.games, "players": counts[0]}, "/tmp/engine.prof")
        pstats.Stats("/tmp/engine.prof").sort_stats("tottime").print_stats(25)
        return
    print(f"{GAME.name} engine, {args.games} {args.policy} random games x {args.runs} runs"
          " per player count (CPU time of this process)")
    print(f"{'players':>7} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}"
          f" {'peak KiB':>9} {'dump bytes':>11}")
    for players in counts:
        figures = [run(players, args.games, 10_000 * r) for r in range(args.runs)]
        gps = statistics.median(f[0] for f in figures)
        dps = statistics.median(f[1] for f in figures)
        tracemalloc.start()
        decisions, state = random_game(players, 123)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        mid = GAME.new_game({"players": players}, 7)
        rnd = random.Random(7)
        for _ in range(decisions // 2):
            GAME.apply(mid, choose(rnd, GAME.legal_moves(mid)))
        size = len(json.dumps(GAME.dump(mid), separators=(",", ":")))
        print(f"{players:>7} {gps:>9.1f} {dps:>12.0f} {decisions:>15} {peak / 1024:>9.0f}"
              f" {size:>11}")


if __name__ == "__main__":
    main()
