"""What a burst of new connections costs the connection cap's counts (`api.connections`).

    python3 bench/connection_counts.py [--connections 2300] [--rounds 3]

Starts its own Redis with the game store's durability (`appendonly yes`, `appendfsync
always`), then, under gevent as the API's workers run, admits a burst of connections from
20 clients at once through the same pool the worker uses (64 connections, waited for), and
one more connection arriving just behind them (a health check). Two variants, alternated in
the same run on the same Redis:

- `batched`: `SharedCounts.admit`, as the server does (counts waiting share one pipeline);
- `one-by-one`: the same admission script called once per connection, as before batching.

Prints, per round, the time until every admission was answered and the wait of the one
behind them.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import redis  # noqa: E402

# This directory holds an api.py of its own: the project's package comes first.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.connections import COUNTS_CONNECTIONS, SharedCounts  # noqa: E402
from clients.localredis import free_port  # noqa: E402

CAP = 200
CLIENTS = 20


class OneByOne(SharedCounts):
    """The admission script called once per connection (the server before batching)."""

    def admit(self, group: str, cap: int) -> bool:
        total = int(self._admit(keys=[self._key(group), self._holders],
                                args=[self.holder, cap, time.time(), self.stale_after,
                                      int(self.stale_after * 10)]))
        return total >= 0


def burst(counts: SharedCounts, connections: int) -> tuple[float, float]:
    """Seconds until `connections` admissions are answered; the wait of one more behind."""
    counts.heartbeat()
    started = time.perf_counter()
    greenlets = [gevent.spawn(counts.admit, f"198.51.100.{i % CLIENTS}", CAP)
                 for i in range(connections)]
    gevent.sleep(0)  # every one of them has asked
    behind = time.perf_counter()
    counts.admit("203.0.113.1", CAP)
    behind = time.perf_counter() - behind
    gevent.joinall(greenlets)
    return time.perf_counter() - started, behind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=2300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--save", "", "--appendonly", "yes",
             "--appendfsync", "always", "--dir", data], stdout=subprocess.DEVNULL)
        try:
            url = f"redis://127.0.0.1:{port}/0"
            deadline = time.monotonic() + 10
            while True:
                try:
                    redis.Redis.from_url(url).ping()
                    break
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            for round_ in range(args.rounds):
                for name, kind in (("one-by-one", OneByOne), ("batched", SharedCounts)):
                    client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
                        url, max_connections=COUNTS_CONNECTIONS, timeout=10))
                    counts = kind(client, f"bench-{round_}-{name}")
                    took, behind = burst(counts, args.connections)
                    print(f"round {round_ + 1} {name:>10}: {args.connections} admissions "
                          f"{took:.3f} s; one arriving behind them waited "
                          f"{behind * 1000:.0f} ms")
                    client.close()
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
