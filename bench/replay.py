"""Benchmark replays (api.replays): what `GET /v1/games/{id}?at=N` costs the server.

Usage: python3 bench/replay.py [--games N] [--seed S]
Plays N random games of every registered game (2 and 4 players where the game takes them),
then replays each from its seed and move log as the API does, and prints per game: the moves
a game has (mean, max), a whole replay's time (mean, max, in ms) and the cost per move (us).
A replay from a cached neighbouring state (stepping through a game move by move) costs one
move's apply plus a clone of the state.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import core

MAX_MOVES = 5000  # a random game that never ends is cut here


def _random_game(game: Any, options: dict[str, Any], seed: int,
                 rnd: random.Random) -> list[dict[str, Any]]:
    """The moves of one game of random legal moves."""
    state = game.new_game(options, seed)
    moves: list[dict[str, Any]] = []
    while game.to_act(state) is not None and len(moves) < MAX_MOVES:
        move = rnd.choice(game.legal_moves(state))
        game.apply(state, move)
        moves.append(move)
    return moves


def _replay(game: Any, options: dict[str, Any], seed: int,
            moves: list[dict[str, Any]]) -> tuple[float, float]:
    """Seconds to replay `moves` from the seed, and to clone the final state (one step of a
    cached replay costs a clone and one apply)."""
    started = time.perf_counter()
    state = game.new_game(options, seed)
    for move in moves:
        game.apply(state, move)
    replayed = time.perf_counter() - started
    started = time.perf_counter()
    game.clone(state)
    return replayed, time.perf_counter() - started


def main() -> int:
    """Print the replay figures of every registered game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<18}{'players':>8}{'moves':>8}{'max':>7}{'replay ms':>11}{'max ms':>9}"
          f"{'us/move':>9}{'clone ms':>10}")
    for name in core.game_names():
        game = core.get_game(name)
        for players in (2, 4):
            options = {"players": players}
            try:
                game.new_game(options, 0)
            except core.InvalidOptions:
                continue
            rnd = random.Random(args.seed)
            lengths, times, clones = [], [], []
            for number in range(args.games):
                moves = _random_game(game, options, args.seed + number, rnd)
                replayed, cloned = _replay(game, options, args.seed + number, moves)
                lengths.append(len(moves))
                times.append(replayed)
                clones.append(cloned)
            per_move = sum(times) / max(1, sum(lengths)) * 1e6
            print(f"{name:<18}{players:>8}{statistics.mean(lengths):>8.0f}{max(lengths):>7}"
                  f"{statistics.mean(times) * 1000:>11.1f}{max(times) * 1000:>9.1f}"
                  f"{per_move:>9.0f}{statistics.mean(clones) * 1000:>10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
