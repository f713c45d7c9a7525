"""Benchmark Alfred: final score per difficulty against a random (and greedy) player; his speed.

Usage: python3 bench/alfred.py [--games N] [--seed S]
Prints, per difficulty and opponent (random; greedy from ai_worker.bots, else a one-step
lookahead stand-in): Alfred's mean / standard deviation / min / max final score, the player's
mean, Alfred's win rate, and the mean time Alfred takes per turn (draw + act, legal_moves + apply).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import core

DIFFICULTIES = ("white", "blue", "yellow", "green")


Move = dict[str, Any]


def random_player(game: Any, state: Any, legal: list[Move], rnd: random.Random) -> Move:
    """A uniformly random legal move."""
    return rnd.choice(legal)


def greedy_player() -> Callable[..., dict[str, Any]] | None:
    """The `greedy` bot of ai_worker.bots, when it exists."""
    try:
        from ai_worker.bots import get_bot
        bot = get_bot("greedy")
    except Exception:  # noqa: BLE001 - the bot may not be there yet
        return None

    def choose(game: Any, state: Any, legal: list[Move], rnd: random.Random) -> Move:
        view = game.view(state, 0)
        return bot.choose(game, view, 0, legal, {}, rnd.randrange(1 << 30))

    return choose


def _potential(state: Any) -> float:
    """The player's final score so far plus a rough worth of the resources still to be used."""
    from core.darwins_journey import scoring

    seals = sum(len(row) for row in state.seals[0])
    explored = sum(x for x in state.explorers[0] if x > 0)
    stamps = sum(envelope[0] for envelope in state.envelopes)
    return (scoring.breakdown(state, 0)["total"] + 0.4 * state.coins[0] + 3 * seals
            + 3 * bin(state.research[0]).count("1") + 1.5 * stamps + 0.7 * state.ship[0]
            + 0.7 * explored + 2 * state.tk[0] + 2 * state.tents[0])


def one_step_player(game: Any, state: Any, legal: list[Move], rnd: random.Random) -> Move:
    """A stand-in for `greedy`: the best potential one decision ahead (ties random)."""
    best: list[Move] = []
    top = None
    for move in legal:
        after = game.clone(state)
        game.apply(after, move)
        value = _potential(after)
        if top is None or value > top:
            top, best = value, [move]
        elif value == top:
            best.append(move)
    return rnd.choice(best)


def play(colour: str, seed: int, player: Callable[..., Move]) -> tuple[dict[str, Any], float, int]:
    """One solo game; (result, seconds spent on Alfred's turns, Alfred turns)."""
    game = core.get_game("darwins-journey")
    state = game.new_game({"players": 1, "alfred": colour}, seed)
    rnd = random.Random(seed)
    alfred_time = 0.0
    alfred_turns = 0
    while (seat := game.to_act(state)) is not None:
        if seat == 1:
            t0 = time.perf_counter()
            move = game.legal_moves(state)[0]
            game.apply(state, move)
            alfred_time += time.perf_counter() - t0
            alfred_turns += move["type"] == "alfred"
        else:
            game.apply(state, player(game, state, game.legal_moves(state), rnd))
    return game.result(state), alfred_time, alfred_turns


def _score(result: dict[str, Any], seat: int) -> int:
    return result["scores"][seat]


def run(name: str, player: Callable[..., dict[str, Any]], games: int, seed: int) -> None:
    """Print the table of one opponent."""
    print(f"\nAlfred vs {name} player, {games} games per difficulty")
    print(f"{'board':8} {'mean':>7} {'sd':>6} {'min':>5} {'max':>5} {'player':>7} "
          f"{'alfred wins':>12} {'ms/turn':>8}")
    for colour in DIFFICULTIES:
        scores, human, wins, total_t, turns = [], [], 0, 0.0, 0
        for g in range(games):
            result, t, n = play(colour, seed + g, player)
            scores.append(_score(result, 1))
            human.append(_score(result, 0))
            wins += result["ranking"][0] == 1
            total_t += t
            turns += n
        print(f"{colour:8} {statistics.mean(scores):7.1f} {statistics.pstdev(scores):6.1f} "
              f"{min(scores):5d} {max(scores):5d} {statistics.mean(human):7.1f} "
              f"{wins / games:11.0%} {1000 * total_t / max(1, turns):8.3f}")


def main() -> None:
    """Parse arguments and print the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run("random", random_player, args.games, args.seed)
    greedy = greedy_player()
    try:
        if greedy is None:
            raise RuntimeError("not importable from ai_worker.bots")
        play("white", args.seed, greedy)  # fails early (no table header) if the bot can't play
        run("greedy", greedy, max(1, args.games // 4), args.seed)
    except Exception as exc:  # noqa: BLE001 - the bot (or its evaluation) may not exist yet
        print(f"\n(greedy bot unavailable: {exc!r}; using the one-step stand-in instead)")
        run("one-step", one_step_player, max(1, args.games // 4), args.seed)


if __name__ == "__main__":
    main()
