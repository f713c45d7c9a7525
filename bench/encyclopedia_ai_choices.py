"""What remembering the Encyclopedia AI's choices (core.encyclopedia.ai.CHOICES_KEPT) saves
`mcts` playing against the AI: the CPU time of the first N decisions of `mcts` (at the
strength bench's budget: 60 iterations, rollout depth 4) in a solo game, with the memory
off and on, alternated on the same deals in one run, and whether both played the same moves.

    nice -n 5 python3 bench/encyclopedia_ai_choices.py --decisions 12 --seeds 1 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import core  # noqa: E402
from ai_worker.bots import get_bot  # noqa: E402
from core.encyclopedia import ai  # noqa: E402
from core.encyclopedia.rules import AI_SEAT  # noqa: E402

MCTS = {"iterations": 60, "rollout_depth": 4}


def opening(decisions: int, seed: int, behaviour: int, level: int) -> list[dict[str, Any]]:
    """The moves of a solo game until `mcts` has made `decisions` decisions."""
    game = core.get_game("encyclopedia")
    state = game.new_game({"players": 1, "behaviour": behaviour, "scoring": level}, seed)
    bot = get_bot("mcts")
    made, moves = 0, []
    while (seat := game.to_act(state)) is not None and made < decisions:
        legal = game.legal_moves(state)
        if seat == AI_SEAT:
            move = legal[0]
        else:
            move = bot.choose(game, game.view(state, seat), seat, legal, MCTS,
                              seed * 1000 + len(moves))
            made += 1
        moves.append(move)
        game.apply(state, move)
    return moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=12)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--behaviour", type=int, default=1)
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2, help="off/on pairs per seed")
    args = parser.parse_args()
    kept = ai.CHOICES_KEPT
    print(f"mcts {MCTS} vs behaviour {args.behaviour} level {args.level}, "
          f"{args.decisions} mcts decisions; CPU seconds")
    for seed in args.seeds:
        times: dict[int, list[float]] = {0: [], kept: []}
        played: dict[int, list[Any]] = {}
        for _ in range(args.rounds):
            for size in (0, kept):
                ai.CHOICES_KEPT = size
                ai._CHOICES.clear()
                started = time.process_time()
                played[size] = opening(args.decisions, seed, args.behaviour, args.level)
                times[size].append(time.process_time() - started)
        print(f"seed {seed}: off {[round(t, 1) for t in times[0]]}, "
              f"on ({kept} kept) {[round(t, 1) for t in times[kept]]}; "
              f"same moves: {played[0] == played[kept]}")
    ai.CHOICES_KEPT = kept
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
