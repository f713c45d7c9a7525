"""The speed-up a second chain of the tournament's shape can get on this machine, with no
server at all: the ceiling for `bench/tournament.py`'s 2-worker figure.

    python bench/chain_ceiling.py [--worker-us 600] [--api-us 900] [--redis-us 200]

A bot turn in a server-run tournament is a chain of processes: the worker (the bot's choice,
the HTTP client) -> an API process (half its work before the Redis script, half after) ->
Redis -> the API process -> the worker. One worker keeps one such chain busy at a time, so it
uses about one core; a second worker adds a second chain, which shares Redis and, when both
workers' connections land on the same gunicorn process, that API process too.

This plays the same chain with processes that only spin for each stage's CPU time (the
defaults are the per-turn CPU `bench/tournament.py --profile` reports) over socket pairs,
once with one chain and once with two, and prints the speed-up in three arrangements: each
chain with its own middle process (the best case), both chains through one middle process
(two workers on one API process), and the mix the tournament gets from two API processes
(each pair of workers shares one half the time).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import select
import socket
import time
from typing import Any

SECONDS = 4.0


def spin(microseconds: float) -> None:
    """Busy the CPU for `microseconds`, as a stage's work does."""
    end = time.perf_counter() + microseconds / 1e6
    while time.perf_counter() < end:
        pass


def redis_stage(sockets: list[socket.socket], work_us: float) -> None:
    """One process answering every API process, one request at a time (as Redis does)."""
    while True:
        ready, _, _ = select.select(sockets, [], [])
        for sock in ready:
            if not sock.recv(1):
                return
            spin(work_us)
            sock.send(b"r")


def api_stage(from_workers: list[socket.socket], to_redis: socket.socket,
              work_us: float) -> None:
    """One API process: half its work, a Redis round trip, the other half, the answer."""
    while True:
        ready, _, _ = select.select(from_workers, [], [])
        for sock in ready:
            if not sock.recv(1):
                return
            spin(work_us / 2)
            to_redis.send(b"a")
            to_redis.recv(1)
            spin(work_us / 2)
            sock.send(b"a")


def worker_stage(to_api: socket.socket, work_us: float, out: Any) -> None:
    """One bot worker: its share of a turn, then the API's answer, for SECONDS."""
    turns = 0
    end = time.monotonic() + SECONDS
    while time.monotonic() < end:
        spin(work_us)
        to_api.send(b"w")
        to_api.recv(1)
        turns += 1
    out.put(turns)


def turns_per_second(chains: int, shared_api: bool, args: argparse.Namespace) -> float:
    """Turns a second of `chains` chains, each with its own API process or all through one."""
    out: Any = mp.Queue()
    processes = []
    redis_ends = []
    api_ends: list[list[socket.socket]] = []
    for index in range(chains):
        worker_end, api_end = socket.socketpair()
        processes.append(mp.Process(target=worker_stage, args=(worker_end, args.worker_us, out),
                                    daemon=True))
        if shared_api and index > 0:
            api_ends[0].append(api_end)
        else:
            api_ends.append([api_end])
    for ends in api_ends:
        api_side, redis_side = socket.socketpair()
        redis_ends.append(redis_side)
        processes.append(mp.Process(target=api_stage, args=(ends, api_side, args.api_us),
                                    daemon=True))
    processes.append(mp.Process(target=redis_stage, args=(redis_ends, args.redis_us),
                                daemon=True))
    for process in processes:
        process.start()
    total = sum(out.get() for _ in range(chains))
    for process in processes:
        process.terminate()
    return total / SECONDS


def main() -> int:
    """Measure and print the three speed-ups."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker-us", type=float, default=600.0,
                        help="CPU of a turn in the worker (default %(default)s)")
    parser.add_argument("--api-us", type=float, default=900.0,
                        help="CPU of a turn in the API (default %(default)s)")
    parser.add_argument("--redis-us", type=float, default=200.0,
                        help="CPU of a turn in Redis (default %(default)s)")
    args = parser.parse_args()
    one = turns_per_second(1, False, args)
    apart = turns_per_second(2, False, args) / one
    shared = turns_per_second(2, True, args) / one
    print(f"one chain: {one:.0f} turns/s ({1000 / one:.2f} ms a turn; {args.worker_us:.0f} + "
          f"{args.api_us:.0f} + {args.redis_us:.0f} us of CPU); two chains: {apart:.2f}x "
          f"each with its own API process, {shared:.2f}x through one, "
          f"{(apart + shared) / 2:.2f}x half and half (two API processes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
