"""How does Encyclopedia's solo AI play? Solo games in-process (no HTTP), per behaviour card
and level, against `random` and `greedy` (and, with --opponents mcts, `mcts`) at the human's
seat, then each level's rate over the behaviour cards.

Prints, per (behaviour, level, opponent): the AI's win rate (the human wins only with
strictly more VP, E21.3.8), its mean margin (AI total minus the human's), its mean score and
the animals it published per game (cards that took part in a Publish, A35(b)), plus the
share of its actions by kind. Deal k uses seed k for every configuration, so the
configurations meet the same deals.

    nice -n 10 python3 bench/encyclopedia_ai.py --deals 50
    nice -n 10 python3 bench/encyclopedia_ai.py --deals 10 --behaviours 1 --levels 3 \
        --opponents greedy

A long run (`--opponents mcts`) plays several games at once with `--jobs N` and keeps each
game in `--jsonl FILE` as it ends: run again, it plays only the games not yet in the file
(so a run stopped in one session goes on in the next), and `--report FILE` prints the
pooled tables without playing:

    nice -n 19 python3 bench/encyclopedia_ai.py --opponents mcts --jobs 2 \
        --jsonl bench/results/encyclopedia-ai-mcts-procedure4.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import core  # noqa: E402
from ai_worker.bots import get_bot  # noqa: E402
from core.encyclopedia.data import DATA  # noqa: E402
from core.encyclopedia.rules import AI_SEAT  # noqa: E402

OPPONENT_PARAMS: dict[str, dict[str, Any]] = {
    "random": {}, "greedy": {}, "mcts": {"iterations": 60, "rollout_depth": 4}}


def play(behaviour: int, level: int, opponent: str, seed: int) -> dict[str, Any]:
    """One solo game; the AI's and the human's totals, published count and action mix."""
    start = time.perf_counter()
    game = core.get_game("encyclopedia")
    state = game.new_game({"players": 1, "behaviour": behaviour, "scoring": level}, seed)
    bot = get_bot(opponent)
    actions: Counter[str] = Counter()
    theirs: Counter[str] = Counter()
    step = 0
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_moves(state)
        if seat == AI_SEAT:
            move = legal[0]
            if move["type"] == "act":
                actions[move["action"]] += 1
        else:
            move = bot.choose(game, game.view(state, seat), seat, legal,
                              OPPONENT_PARAMS[opponent], seed * 1000 + step)
            if move["type"] == "act":
                theirs[move["action"]] += 1
        game.apply(state, move)
        step += 1
    result = game.result(state)
    ai, human = result["scores"][AI_SEAT], result["scores"][0]
    return {"procedure": state.ai["procedure"], "seconds": round(time.perf_counter() - start, 2),
            "ai": ai, "human": human, "ai_wins": result["winners"] == [AI_SEAT],
            "published": result["published"][AI_SEAT], "actions": actions,
            "theirs": theirs, "their_beyond": state.rep[0]}


def _shares(games: list[dict[str, Any]], key: str) -> str:
    mix: Counter[str] = Counter()
    for g in games:
        mix.update(g[key])
    total = sum(mix.values()) or 1
    return " ".join(f"{a[:3]} {100 * k // total}%" for a, k in mix.most_common())


def _append(path: Path, behaviour: int, level: int, opponent: str, seed: int,
            game: dict[str, Any]) -> None:
    """One game's line in a JSON Lines file (counters as plain dicts)."""
    line = {"behaviour": behaviour, "level": level, "opponent": opponent, "seed": seed,
            **{k: dict(v) if isinstance(v, Counter) else v for k, v in game.items()}}
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line, sort_keys=True) + "\n")


def _row(behaviour: int, level: int, opponent: str, games: list[dict[str, Any]]) -> str:
    """One configuration's line of the Markdown table."""
    n = len(games)
    wins = sum(g["ai_wins"] for g in games)
    margin = sum(g["ai"] - g["human"] for g in games) / n
    return (f"| {behaviour} | {level} | {opponent} | {n} | {100 * wins / n:.0f}% | "
            f"{margin:+.1f} | {sum(g['ai'] for g in games) / n:.1f} | "
            f"{sum(g['human'] for g in games) / n:.1f} | "
            f"{sum(g['published'] for g in games) / n:.1f} | {_shares(games, 'actions')} | "
            f"{_shares(games, 'theirs')} |")


HEADER = ("| behaviour | level | vs | deals | AI wins | mean margin | AI mean | human mean | "
          "published/game | AI actions (share) | human actions (share) |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def _per_level(per_level: dict[tuple[int, str], list[dict[str, Any]]]) -> None:
    """Each level's rate over every behaviour card asked (the issue's targets are per level)."""
    print("\n| level | vs | games | AI wins | mean margin | published/game |")
    print("|---|---|---|---|---|---|")
    for (level, opponent), games in sorted(per_level.items()):
        n = len(games)
        print(f"| {level} | {opponent} | {n} | {100 * sum(g['ai_wins'] for g in games) / n:.0f}% | "
              f"{sum(g['ai'] - g['human'] for g in games) / n:+.1f} | "
              f"{sum(g['published'] for g in games) / n:.1f} |")


def report(path: Path) -> None:
    """The tables of the games recorded in a JSON Lines file at the newest AI procedure
    version in it (older versions' games are counted, not pooled); a seed counts once per
    configuration, so runs split over processes or sessions pool without double counting."""
    games = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    newest = max(game["procedure"] for game in games)
    configs: dict[tuple[int, int, str], dict[int, dict[str, Any]]] = {}
    for game in games:
        if game["procedure"] == newest:
            key = (game["behaviour"], game["level"], game["opponent"])
            configs.setdefault(key, {})[game["seed"]] = game
    print(f"AI procedure {newest}; {sum(g['procedure'] != newest for g in games)} games of "
          "older procedures left out\n")
    per_level: dict[tuple[int, str], list[dict[str, Any]]] = {}
    print(HEADER)
    for (behaviour, level, opponent), by_seed in sorted(configs.items()):
        seeds = sorted(by_seed)
        played = [by_seed[seed] for seed in seeds]
        print(_row(behaviour, level, opponent, played) + f" <!-- seeds {seeds[0]}-{seeds[-1]} -->")
        per_level.setdefault((level, opponent), []).extend(played)
    _per_level(per_level)


def main() -> None:
    """Run the plan and print one line per configuration (Markdown table rows)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--behaviours", type=int, nargs="*", default=[1, 2, 3])
    parser.add_argument("--levels", type=int, nargs="*", default=[1, 2, 3])
    parser.add_argument("--opponents", nargs="*", default=["random", "greedy"])
    parser.add_argument("--first-deal", type=int, default=0,
                        help="deal k is seed k: play seeds first-deal .. first-deal+deals-1")
    parser.add_argument("--jsonl", type=Path, default=None,
                        help="also append each game's figures to this file as it ends (runs "
                             "split over processes or sessions are pooled from it)")
    parser.add_argument("--report", type=Path, default=None,
                        help="play nothing: print the tables of the games in this JSON Lines "
                             "file")
    parser.add_argument("--jobs", type=int, default=1,
                        help="games played at once, each in its own process")
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    # Deal by deal over every configuration, so a run stopped early has met each of them;
    # a game already in --jsonl (this procedure) is not played again: a run resumes.
    done = set()
    if args.jsonl and args.jsonl.exists():
        for line in args.jsonl.read_text(encoding="utf-8").splitlines():
            g = json.loads(line)
            if g.get("procedure") == DATA.procedure:
                done.add((g["behaviour"], g["level"], g["opponent"], g["seed"]))
    plan = [(behaviour, level, opponent, k)
            for k in range(args.first_deal, args.first_deal + args.deals)
            for behaviour in args.behaviours for level in args.levels
            for opponent in args.opponents if (behaviour, level, opponent, k) not in done]
    print(f"<!-- {len(plan)} games to play, {args.jobs} at a time -->", file=sys.stderr)
    played: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
    with multiprocessing.Pool(args.jobs) as pool:
        for task, game in pool.imap_unordered(_play_task, plan):
            played.setdefault(task[:3], []).append(game)
            if args.jsonl:
                _append(args.jsonl, *task, game)
    if args.jsonl:
        report(args.jsonl)
        return
    per_level: dict[tuple[int, str], list[dict[str, Any]]] = {}
    print(HEADER)
    for (behaviour, level, opponent), games in sorted(played.items()):
        per_level.setdefault((level, opponent), []).extend(games)
        print(_row(behaviour, level, opponent, games))
    _per_level(per_level)


def _play_task(task: tuple[int, int, str, int]) -> tuple[tuple[int, int, str, int],
                                                         dict[str, Any]]:
    return task, play(*task)


if __name__ == "__main__":
    main()
