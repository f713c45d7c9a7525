"""The API's own cost of a move, in process: no gunicorn, no sockets to the client.

    python3 bench/api_inprocess.py [--moves 3000] [--gevent] [--profile]
    python3 bench/api_inprocess.py --instructions --moves 1000 [--gevent]

Plays the request mix of `bench/api.py` (create a game with every seat human, read the view
of the seat to act when the last answer did not give its legal moves, post a random legal
move) by calling the WSGI app (fast lane included) against a private redis-server, and
prints the CPU time per move: the app's, by request kind, and this driver's in all.
`--gevent` patches the standard library first, as the API's gevent workers do.

On a machine whose speed drifts (a shared VM), CPU times of two variants run minutes apart
differ by more than most changes: `--instructions` runs the same mix twice under valgrind's
cachegrind (N moves and none, same seeds, unranked deals) and prints the instructions a move
costs, which are the same from run to run (the kernel's work, such as socket calls, is not
counted). Compare two checkouts with it: `python3 A/bench/api_inprocess.py --instructions`
and the same with B.
"""

from __future__ import annotations

import sys

if "--gevent" in sys.argv:  # before anything imports socket or threading
    from gevent import monkey

    monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from werkzeug.test import EnvironBuilder  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import NO_RATE_LIMITS, private_redis  # noqa: E402

GAME = {"game": "darwins-journey", "options": {"players": 2}}


class Driver:
    """Requests straight to the WSGI app; CPU time spent in it by request kind."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.app_cpu: dict[str, float] = {}

    def call(self, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        environ = EnvironBuilder(path=path, method=method, json=body, headers=headers,
                                 environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_environ()
        statuses: list[str] = []
        started = time.thread_time()
        answer = b"".join(self.app(environ, lambda status, *_: statuses.append(status)))
        target = "move" if path.endswith("/moves") else "game" if "/games/" in path else "create"
        kind = f"{method} {target}"
        self.app_cpu[kind] = self.app_cpu.get(kind, 0.0) + time.thread_time() - started
        return int(statuses[0][:3]), json.loads(answer)

    def play(self, moves: int, rng: random.Random) -> int:
        """Play `moves` moves as bench/api.py's clients do; the number played."""
        played = 0
        while played < moves:
            status, created = self.call("POST", "/v1/games", {
                **GAME, "seed": rng.randrange(2**31), "unranked": True})
            assert status == 201, created
            tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
            game_id, to_act, version = created["id"], created["to_act"], 0
            legal: list[Any] = []
            while to_act is not None and played < moves:
                if not legal:
                    status, body = self.call("GET", f"/v1/games/{game_id}",
                                             token=tokens[to_act])
                    legal = body["legal_moves"]
                status, answer = self.call("POST", f"/v1/games/{game_id}/moves",
                                           {"move": rng.choice(legal), "version": version},
                                           tokens[to_act])
                assert status == 200, answer
                played += 1
                version, to_act = answer["version"], answer["to_act"]
                legal = answer.get("legal_moves") or []
        return played


def measure(args: argparse.Namespace) -> None:
    """Warm up, then play `args.moves` moves and print their CPU cost."""
    with private_redis(None) as url, tempfile.TemporaryDirectory() as metrics_dir:
        os.environ.update(REDIS_URL=url, PROMETHEUS_MULTIPROC_DIR=metrics_dir,
                          **NO_RATE_LIMITS)
        import api

        driver = Driver(api.create_app())
        driver.play(300, random.Random(0))  # imports, caches, JIT-free warm-up of the paths
        driver.app_cpu.clear()
        profile = None
        if args.profile:
            import cProfile

            profile = cProfile.Profile()
            profile.enable()
        started = time.process_time()
        played = driver.play(args.moves, random.Random(1))
        spent = time.process_time() - started
        if profile is not None:
            import pstats

            profile.disable()
            pstats.Stats(profile).sort_stats(args.sort).print_stats(40)
        if played:
            print(f"{played} moves: {spent / played * 1e6:.0f} us CPU a move in all (this "
                  "driver's JSON included); the app's: " + ", ".join(
                      f"{kind} {seconds / played * 1e6:.0f}"
                      for kind, seconds in sorted(driver.app_cpu.items()))
                  + f", total {sum(driver.app_cpu.values()) / played * 1e6:.0f} us")


def instructions(args: argparse.Namespace) -> None:
    """Instructions a move costs: cachegrind's count with `args.moves` moves less without."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    counts = []
    for moves in (args.moves, 0):
        command = [valgrind, "--tool=cachegrind", "--cache-sim=no",
                   "--cachegrind-out-file=/dev/null", sys.executable, __file__,
                   "--moves", str(moves)] + (["--gevent"] if args.gevent else [])
        run = subprocess.run(command, capture_output=True, text=True, check=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
        if found is None:
            raise SystemExit(f"no instruction count from valgrind:\n{run.stderr[-2000:]}")
        counts.append(int(found[1].replace(",", "")))
    print(f"{(counts[0] - counts[1]) / args.moves / 1e6:.3f} million instructions a move "
          f"({args.moves} moves{', gevent' if args.gevent else ''}; the driver's included)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--gevent", action="store_true", help="patch as gevent workers do")
    parser.add_argument("--profile", action="store_true", help="cProfile the measured moves")
    parser.add_argument("--sort", default="tottime", help="the profile's order")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind (slow: ~1 minute a run)")
    args = parser.parse_args()
    if args.instructions:
        instructions(args)
    else:
        measure(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
