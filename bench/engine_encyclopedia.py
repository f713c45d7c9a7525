"""Benchmark of the Encyclopedia engine and its solo AI.

Default: full uniform-random games per second and decisions per second on one core (process
CPU time, median of several runs) for 1-4 players, and the size of `dump` mid-game.
`--ai`: the solo AI's mean final score and spread for each behaviour x scoring card, against
a `random` and a `greedy` human (and the human's win rate).
Bot strength is `bench/strength.py --game encyclopedia` (resumable, sharded).
Usage: python3 bench/engine_encyclopedia.py [--games N] [--runs R] [--ai]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import time
from typing import Any

from ai_worker.bots import get_bot
from core import get_game

GAME = get_game("encyclopedia")


def random_game(players: int, seed: int) -> tuple[int, Any]:
    """Play one uniform-random game; returns (decisions, final state)."""
    state = GAME.new_game({"players": players}, seed)
    rnd = random.Random(seed)
    decisions = 0
    to_act, legal, apply = GAME.to_act, GAME.legal_moves, GAME.apply
    while to_act(state) is not None:
        apply(state, rnd.choice(legal(state)))
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


def engine(games: int, runs: int) -> None:
    """Print the engine figures."""
    print(f"encyclopedia engine, {games} uniform random games x {runs} runs per player count"
          " (CPU time of this process)")
    print(f"{'players':>7} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}"
          f" {'dump bytes':>11}")
    for players in (1, 2, 3, 4):
        figures = [run(players, games, 10_000 * r) for r in range(runs)]
        gps = statistics.median(f[0] for f in figures)
        dps = statistics.median(f[1] for f in figures)
        decisions, _ = random_game(players, 123)
        mid = GAME.new_game({"players": players}, 7)
        rnd = random.Random(7)
        for _ in range(decisions // 2):
            GAME.apply(mid, rnd.choice(GAME.legal_moves(mid)))
        size = len(json.dumps(GAME.dump(mid), separators=(",", ":")))
        print(f"{players:>7} {gps:>9.1f} {dps:>12.0f} {decisions:>15} {size:>11}")


def solo_game(human: str, behaviour: int, scoring: int, seed: int) -> tuple[int, int]:
    """(human score, AI score) of one solo game."""
    state = GAME.new_game({"players": 1, "behaviour": behaviour, "scoring": scoring}, seed)
    bots = [get_bot(human), get_bot("alfred")]
    step = 0
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_moves(state)
        move = bots[seat].choose(GAME, GAME.view(state, seat), seat, legal, {}, seed + step)
        GAME.apply(state, move)
        step += 1
    scores = GAME.result(state)["scores"]
    return scores[0], scores[1]


def ai_table(games: int) -> None:
    """Print the AI's mean score and spread per behaviour and scoring card."""
    print(f"encyclopedia solo AI, {games} games per cell (same seeds in every cell)")
    print(f"{'human':>7} {'behaviour':>10} {'scoring':>8} {'AI mean':>8} {'AI sd':>6}"
          f" {'human mean':>11} {'human wins':>11}")
    for human in ("random", "greedy"):
        for behaviour in (1, 2, 3):
            for scoring in (1, 2, 3):
                pairs = [solo_game(human, behaviour, scoring, seed) for seed in range(games)]
                ai = [p[1] for p in pairs]
                me = [p[0] for p in pairs]
                wins = sum(1 for h, a in pairs if h > a)
                print(f"{human:>7} {behaviour:>10} {scoring:>8} {statistics.mean(ai):>8.1f}"
                      f" {statistics.pstdev(ai):>6.1f} {statistics.mean(me):>11.1f}"
                      f" {wins / games:>10.0%}")


def duel(options: dict[str, Any], bots: list[tuple[str, dict[str, Any]]],
         seed: int) -> list[int]:
    """The final scores of one game between `bots` (an automa seat relays its AI)."""
    state = GAME.new_game(options, seed)
    step = 0
    while (seat := GAME.to_act(state)) is not None:
        name, params = bots[seat]
        legal = GAME.legal_moves(state)
        move = get_bot(name).choose(GAME, GAME.view(state, seat), seat, legal, params,
                                    seed * 7919 + step)
        GAME.apply(state, move)
        step += 1
    return list(GAME.result(state)["scores"])


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per run (per AI cell)")
    parser.add_argument("--runs", type=int, default=3, help="runs per player count (median)")
    parser.add_argument("--ai", action="store_true", help="the solo AI table instead")
    parser.add_argument("--profile", action="store_true", help="profile 2-player games")
    args = parser.parse_args()
    if args.profile:
        cProfile.runctx("run(2, games, 0)", globals(), {"games": args.games}, "/tmp/enc.prof")
        pstats.Stats("/tmp/enc.prof").sort_stats("tottime").print_stats(25)
    elif args.ai:
        ai_table(args.games)
    else:
        engine(args.games, args.runs)


if __name__ == "__main__":
    main()
