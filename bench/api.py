"""Benchmark of the HTTP API under gunicorn: moves/s, move latency, idle streams held, bot
answer latency.

    python bench/api.py [--seconds 10] [--clients 8] [--workers 2] [--idle-steps 1000,5000]

Starts a private redis-server (or uses --redis-url), gunicorn on a free 127.0.0.1 port as
`bgb serve` runs it (gevent workers; `--threads T` for gthread), and a load generator
(--procs processes x --clients threads, one keep-alive connection each) that plays many
concurrent games: each client creates a game with every seat human, reads the seat to act's
view (its legal moves) and posts a random legal move, game after game (a seat still to act
after its move plays on with the legal moves of the move's answer, as any client may; the
figures count every request, reads and creations included). Prints moves/s and
p50/p99 of the POST move latency; then, holding more and more idle event streams (raw
sockets of a helper process), the move latency again at each step, and the most streams
held while the move p99 stays under 100 ms; then the same load generator's requests/s
against a plain Flask "hello" app under the same gunicorn settings, and moves/s as a
fraction of it, with the CPU time of a move (the API's, Redis's, the load generator's) and
of a hello (on a machine shared with other jobs, the CPU times move less than the rates).
When ai_worker.jobs exists, also starts RQ workers and times a human move -> the bot's
answer (seat 1 a bot), observed by long polls. Uses the toy game when Darwin's
Journey is not registered (BGB_GAME_MODULES=tests.toygame). Rate limits are off (the load
generator is one client address), except in the flood run: first, another client's move
latency while one address floods the API with game creations far over its rate limit
(every answer a 429), against the same client alone (--flood-seconds, --only-flood). That
run keeps the defaults of everything the flood meets (creation and other limits, fair
turns, the connection cap) but lifts the move and read limits, and creates the other
client's games from addresses of their own: it plays as fast as it can, more than 1,200
moves and 30 games a minute.

    python bench/api.py --cluster [--seconds 30] [--rounds 3]

runs only the store comparison (issue 29): the same move load against the API on one
redis-server and on a local Redis Cluster (tools/redis_cluster.py: 3 masters, 3 replicas,
its queues on a Redis of their own), without and with BGB_MIN_REPLICAS=1, in alternating
rounds within one run; prints each one's moves/s, p50/p99, and per move the CPU of the API
and of Redis, Redis's commands and its network bytes in and out; then the memory one game
and one log entry take in Redis (MEMORY USAGE of a sample of the games played).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.client
import json
import multiprocessing as mp
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    """A TCP port free on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 20.0) -> None:
    """Block until something listens on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout}s")


# The processes the bench started, for their CPU time: gunicorn masters by port, Redis by URL.
SERVER_PIDS: dict[int | str, int] = {}


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds used so far by process `pid` and its live descendants (from
    /proc; 0 where there is none)."""
    total, pending = 0.0, [pid] if pid else []
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, ValueError, IndexError):
            continue
    return total


def children_cpu_seconds() -> float:
    """CPU seconds of this process's ended children (the load generator's processes)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def private_redis(url: str | None, binary: str | None = None) -> Iterator[str]:
    """The given Redis URL, or a throwaway redis-server (`binary`, default PATH's first) on a
    free port."""
    if url:
        yield url
        return
    binary = binary or shutil.which("redis-server")
    if binary is None:
        raise SystemExit("no redis-server on PATH: pass --redis-url")
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="bgb-bench-redis-")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", workdir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port)
        SERVER_PIDS[f"redis://127.0.0.1:{port}/0"] = proc.pid
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


@contextmanager
def gunicorn(app: str, env: dict[str, str], workers: int, threads: int,
             config: bool = True) -> Iterator[int]:
    """gunicorn serving `app` on a free local port as `bgb serve` does (gevent workers when
    `threads` is 0), with the API's gunicorn_conf when `config`."""
    from clients.cli import gunicorn_command

    port = free_port()
    command = gunicorn_command("127.0.0.1", port, workers, threads)
    if not config:
        at = command.index("--config")
        del command[at:at + 2]
    command[-1:] = ["--log-level", "warning", "--keep-alive", "30", app]
    proc = subprocess.Popen(command, env=env, cwd=env.get("BENCH_CWD", str(ROOT)))
    SERVER_PIDS[port] = proc.pid
    try:
        wait_port(port)
        time.sleep(0.5)  # let every worker finish booting
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=20)


class Http:
    """A keep-alive HTTP/1.1 connection speaking JSON (from the local address `source`)."""

    def __init__(self, port: int, source: str | None = None) -> None:
        self.port = port
        self.source = None if source is None else (source, 0)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                               source_address=self.source)

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """(status, decoded JSON or None); reconnects once if the server closed the socket."""
        data = None if body is None else json.dumps(body).encode()
        hdrs = dict(headers or {})
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                                       source_address=self.source)
                if attempt:
                    raise
        ctype = response.getheader("Content-Type", "")
        return response.status, (json.loads(raw) if "json" in ctype and raw else None)


def pick_game(port: int, wanted: str | None) -> tuple[str, dict[str, Any]]:
    """`wanted`, else Darwin's Journey when the server has it, else toy-pontoon (2 players)."""
    status, catalog = Http(port).call("GET", "/v1/games-catalog")
    names = [g["name"] for g in catalog["games"]]
    if wanted is not None:
        if wanted not in names:
            raise SystemExit(f"the server has no game {wanted!r}; it has {names}")
        return wanted, {"players": 2}
    if "darwins-journey" in names:
        return "darwins-journey", {"players": 2}
    return "toy-pontoon", {"players": 2}


def play_client(port: int, game: str, options: dict[str, Any], seconds: float, seed: int,
                out: Any, source: str | None = None, creators: str | None = None) -> None:
    """One client: play games (every seat human) until `seconds` pass; report latencies.
    With `creators` (an address prefix, "127.0.1."), each game is created from an address
    of its own: a client that plays at full speed creates more games than one address may."""
    rng = random.Random(seed)
    http_ = Http(port, source)
    latencies: list[float] = []
    other = 0
    games = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        games += 1
        creator = http_ if creators is None else Http(port, f"{creators}{games % 250 + 1}")
        status, created = creator.call("POST", "/v1/games",
                                       {"game": game, "options": options,
                                        "seed": rng.randrange(2**31)})
        if creator is not http_:
            creator.conn.close()
        if status != 201:
            out.put(("error", f"create {status} {created}"))
            return
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s["kind"] == "human"}
        gid, to_act, version = created["id"], created["to_act"], 0
        legal: list[Any] = []
        while to_act is not None and time.monotonic() < deadline:
            auth = {"Authorization": f"Bearer {tokens[to_act]}"}
            if not legal:
                # Another seat's turn: read its view. A seat still to act after its move
                # has its legal moves in the move's answer, as any client may use them.
                status, body = http_.call("GET", f"/v1/games/{gid}", headers=auth)
                other += 1
                legal = body["legal_moves"]
            move = rng.choice(legal)
            started = time.perf_counter()
            status, answer = http_.call("POST", f"/v1/games/{gid}/moves",
                                        {"move": move, "version": version}, auth)
            latencies.append(time.perf_counter() - started)
            if status != 200:
                out.put(("error", f"move {status} {answer}"))
                return
            version, to_act = answer["version"], answer["to_act"]
            legal = answer.get("legal_moves") or []
        other += 1
    out.put(("moves", latencies, other))


FLOOD_SOURCE = "127.0.0.3"  # the flooding client's address
PLAYER_SOURCE = "127.0.0.2"  # the other client's
CREATOR_SOURCES = "127.0.1."  # where the other client's games are created from


def flood_client(port: int, seconds: float, out: Any) -> None:
    """One flooding connection from FLOOD_SOURCE: create games as fast as it can (over the
    creation limit within a second: 429 after 429); reports its answers by status."""
    http_ = Http(port, FLOOD_SOURCE)
    statuses: dict[int, int] = {}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, _ = http_.call("POST", "/v1/games", {"game": "toy-pontoon"})
        statuses[status] = statuses.get(status, 0) + 1
    out.put(("flood", statuses))


def flood_run(args: argparse.Namespace, env: dict[str, str], game: str,
              options: dict[str, Any]) -> None:
    """Another client's move latency while one address floods the API with requests over
    its rate limit (the API with its default rate limits), against the same client alone."""
    import threading

    limited_env = {k: v for k, v in env.items() if k not in NO_RATE_LIMITS}
    # The player is the probe, not the subject: at full speed it makes more moves than
    # their per-client limit allows (1200/minute) and would measure its own 429s; its
    # games are created from other addresses (CREATOR_SOURCES) for the same reason.
    limited_env.update({name: "off" for name in PLAYER_LIMITS})
    seconds = args.flood_seconds
    print(f"one-address flood ({args.flood_procs} processes x {args.flood_clients} "
          f"keep-alive connections from {FLOOD_SOURCE} creating games, creation limit on), "
          f"another client ({PLAYER_SOURCE}) playing, {seconds:.0f}s each:")
    with gunicorn("api:create_app()", limited_env, args.workers, args.threads) as port:
        figures: dict[str, list[float]] = {}
        for phase in ("alone", "flooded"):
            out: Any = mp.Queue()
            flood: list[Any] = []
            if phase == "flooded":
                flood = [mp.Process(target=_threads_in_process, args=(
                    flood_client, [(port, seconds + 2)] * args.flood_clients, out))
                    for _ in range(args.flood_procs)]
                for proc in flood:
                    proc.start()
                time.sleep(1.0)  # the flood under way (and over its limit) first
            player: Any = mp.Queue()
            thread = threading.Thread(target=play_client, args=(
                port, game, options, seconds, 7, player, PLAYER_SOURCE, CREATOR_SOURCES))
            thread.start()
            thread.join()
            found = player.get()
            if found[0] != "moves":
                print(f"  {phase}: the player failed: {found[1][:300]}")
                return
            figures[phase] = found[1]
            refused = ""
            if flood:
                totals: dict[int, int] = {}
                for _ in range(args.flood_procs * args.flood_clients):
                    for status, count in out.get()[1].items():
                        totals[status] = totals.get(status, 0) + count
                for proc in flood:
                    proc.join()
                answered = sum(totals.values())
                refused = (f"; the flood: {answered / (seconds + 2):.0f} requests/s, "
                           + ", ".join(f"{n} x {s}" for s, n in sorted(totals.items())))
            latencies = figures[phase]
            print(f"  {phase}: {len(latencies)} moves, move latency p50 "
                  f"{percentile(latencies, 0.5) * 1000:.1f} ms, p99 "
                  f"{percentile(latencies, 0.99) * 1000:.1f} ms{refused}")
        alone, flooded = figures["alone"], figures["flooded"]
        print(f"  the flood multiplies the other client's move latency by "
              f"{percentile(flooded, 0.5) / percentile(alone, 0.5):.1f} (p50), "
              f"{percentile(flooded, 0.99) / percentile(alone, 0.99):.1f} (p99)")


def hello_client(port: int, seconds: float, out: Any) -> None:
    """One client: GET /hello as fast as it can for `seconds`."""
    http_ = Http(port)
    count = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        http_.call("GET", "/hello")
        count += 1
    out.put(("hello", count))


def bot_client(port: int, game: str, options: dict[str, Any], bot: str, seconds: float,
               seed: int, out: Any) -> None:
    """One client against a bot: time from posting a human move to seeing the bot's move."""
    rng = random.Random(seed)
    http_ = Http(port)
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}]
        status, created = http_.call("POST", "/v1/games", {"game": game, "options": options,
                                                           "seats": seats,
                                                           "seed": rng.randrange(2**31)})
        if status != 201:
            out.put(("error", f"create {status} {created}"))
            return
        auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        gid = created["id"]
        status, body = http_.call("GET", f"/v1/games/{gid}?wait_version=-1", headers=auth)
        while body["status"] == "active" and time.monotonic() < deadline:
            if body["to_act"] != 0:
                status, body = http_.call(
                    "GET", f"/v1/games/{gid}?wait_version={body['version']}&timeout=10",
                    headers=auth)
                continue
            move = rng.choice(body["legal_moves"])
            started = time.perf_counter()
            status, answer = http_.call("POST", f"/v1/games/{gid}/moves",
                                        {"move": move, "version": body["version"]}, auth)
            if status != 200:
                out.put(("error", f"move {status} {answer}"))
                return
            if answer["to_act"] == 1:
                status, body = http_.call(
                    "GET", f"/v1/games/{gid}?wait_version={answer['version']}&timeout=10",
                    headers=auth)
                if body["version"] > answer["version"]:
                    latencies.append(time.perf_counter() - started)
            else:
                status, body = http_.call("GET", f"/v1/games/{gid}", headers=auth)
    out.put(("bot", latencies))


def _threads_in_process(target: Any, args_list: list[tuple[Any, ...]], out: Any) -> None:
    import threading

    threads = [threading.Thread(target=target, args=(*args, out)) for args in args_list]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def run_load(target: Any, args_for: Any, procs: int, clients: int) -> list[Any]:
    """Run `clients` threads in each of `procs` processes; collect what they report."""
    out: Any = mp.Queue()
    processes = []
    for p in range(procs):
        args_list = [args_for(p * clients + c) for c in range(clients)]
        proc = mp.Process(target=_threads_in_process, args=(target, args_list, out))
        proc.start()
        processes.append(proc)
    results = [out.get() for _ in range(procs * clients)]
    for proc in processes:
        proc.join()
    return results


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report_errors(results: list[Any]) -> None:
    """Print the errors the clients reported, if any."""
    errors = [r[1] for r in results if r[0] == "error"]
    if errors:
        print(f"  {len(errors)} client errors, first: {errors[0][:300]}")


HELLO_APP = textwrap.dedent("""
    from flask import Flask
    app = Flask(__name__)

    @app.get("/hello")
    def hello():
        return {"hello": "world"}
""")


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--procs", type=int, default=2, help="load generator processes")
    parser.add_argument("--clients", type=int, default=8, help="client threads per process")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=0,
                        help="threads per gunicorn worker (gthread); 0: gevent, as bgb serve")
    parser.add_argument("--idle-steps", default="1000,2500,5000,7500",
                        help="idle event streams held at each step of the streams run "
                             "(comma-separated, increasing; empty to skip)")
    parser.add_argument("--idle-seconds", type=float, default=4.0,
                        help="move load at each step of the streams run")
    parser.add_argument("--idle-clients", type=int, default=4,
                        help="keep-alive clients playing moves in the streams run (a load "
                             "whose p99 is well under 100 ms without streams)")
    parser.add_argument("--bot-workers", type=int, default=2, help="RQ worker processes")
    parser.add_argument("--bot", default=None, help="bot for the bot-latency run "
                                                    "(default: alfred in DJ solo, else random)")
    parser.add_argument("--game", default=None, help="game of the move run (2 players)")
    parser.add_argument("--bot-game", default=None, help="game of the bot run (2 players)")
    parser.add_argument("--redis-url", default=None, help="default: a private redis-server")
    parser.add_argument("--flood-seconds", type=float, default=10.0,
                        help="seconds of each phase of the one-address flood run (0 skips it)")
    parser.add_argument("--flood-procs", type=int, default=2, help="flooding processes")
    parser.add_argument("--flood-clients", type=int, default=8,
                        help="flooding keep-alive connections per flooding process")
    parser.add_argument("--only-flood", action="store_true",
                        help="run the one-address flood run alone")
    parser.add_argument("--cluster", action="store_true",
                        help="only the store comparison: one redis-server against a local "
                             "Redis Cluster (without and with BGB_MIN_REPLICAS=1)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds of the --cluster comparison")
    args = parser.parse_args()
    if args.cluster:
        return cluster_comparison(args)
    steps = [int(x) for x in args.idle_steps.split(",") if x.strip()]
    raise_open_files(max(steps, default=0) + 1024)

    with private_redis(args.redis_url) as redis_url, \
            tempfile.TemporaryDirectory(prefix="bgb-bench-prom-") as prom_dir, \
            tempfile.TemporaryDirectory(prefix="bgb-bench-hello-") as hello_dir:
        env = dict(os.environ, REDIS_URL=redis_url, PROMETHEUS_MULTIPROC_DIR=prom_dir,
                   PYTHONPATH=str(ROOT), **NO_RATE_LIMITS)
        env.setdefault("BGB_GAME_MODULES", "tests.toygame")
        # Per process: room for every step's streams however gunicorn spreads them.
        env.setdefault("BGB_MAX_WATCHERS", str(max(steps, default=0) + 1000))
        env.setdefault("BGB_MAX_STREAMS_PER_CLIENT", str(max(steps, default=0) + 1000))
        Path(hello_dir, "hello_app.py").write_text(HELLO_APP)
        hello_env = dict(env, BENCH_CWD=hello_dir)
        serving = (f"-k gthread --threads {args.threads}" if args.threads > 0 else "-k gevent")
        print(f"gunicorn -w {args.workers} {serving}; load: {args.procs} processes x "
              f"{args.clients} keep-alive clients; {args.seconds:.0f}s per run; "
              f"{os.cpu_count()} CPUs")
        if args.flood_seconds > 0:
            with gunicorn("api:create_app()", env, args.workers, args.threads) as port:
                game, options = pick_game(port, args.game)
            flood_run(args, env, game, options)
        if args.only_flood:
            return 0
        with gunicorn("api:create_app()", env, args.workers, args.threads) as port, \
                gunicorn("hello_app:app", hello_env, args.workers, args.threads,
                         config=False) as hello_port:
            game, options = pick_game(port, args.game)
            compare_with_hello(args, port, hello_port, game, options,
                               SERVER_PIDS.get(redis_url))
            if steps:
                streams_run(args, port, game, options, steps)
            if args.bot_workers < 1:
                print("bot answer latency: skipped (--bot-workers 0)")
            elif _has_workers():
                bot_run(args, env, port, game, options)
            else:
                print("bot answer latency: skipped (ai_worker.jobs not importable)")
    return 0


def compare_with_hello(args: argparse.Namespace, port: int, hello_port: int, game: str,
                       options: dict[str, Any], redis_pid: int | None = None,
                       rounds: int = 3) -> None:
    """Moves/s and their latency, and a plain Flask "hello" app's requests/s under the same
    gunicorn settings and load generator, in alternating rounds (a busy machine then slows
    both alike); and the CPU time each takes (the API's, Redis's and the load generator's),
    which other jobs on the machine disturb less than the rates."""
    latencies: list[float] = []
    reads, move_time, hellos, hello_time = 0, 0.0, 0, 0.0
    move_cpu = {"API": 0.0, "Redis": 0.0, "load generator": 0.0}
    hello_cpu = {"server": 0.0, "load generator": 0.0}
    for _ in range(rounds):
        before = (cpu_seconds(SERVER_PIDS.get(port)), cpu_seconds(redis_pid),
                  children_cpu_seconds())
        found, elapsed = move_load(args, port, game, options, args.seconds / rounds)
        move_cpu["API"] += cpu_seconds(SERVER_PIDS.get(port)) - before[0]
        move_cpu["Redis"] += cpu_seconds(redis_pid) - before[1]
        move_cpu["load generator"] += children_cpu_seconds() - before[2]
        latencies += found[0]
        reads += found[1]
        move_time += elapsed
        before = (cpu_seconds(SERVER_PIDS.get(hello_port)), children_cpu_seconds())
        started = time.monotonic()
        results = run_load(hello_client, lambda i: (hello_port, args.seconds / rounds),
                           args.procs, args.clients)
        hello_time += time.monotonic() - started
        hello_cpu["server"] += cpu_seconds(SERVER_PIDS.get(hello_port)) - before[0]
        hello_cpu["load generator"] += children_cpu_seconds() - before[1]
        hellos += sum(r[1] for r in results if r[0] == "hello")
    moves = len(latencies)
    rate, hello = moves / move_time, hellos / hello_time
    print(f"{game} {options}: {moves} moves in {move_time:.1f}s = {rate:.0f} moves/s "
          f"({(moves + reads) / move_time:.0f} requests/s incl. view reads and creations)")
    print(f"  move latency p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms")
    print(f"baseline plain Flask hello: {hello:.0f} requests/s; moves/s are {rate / hello:.0%} "
          f"of it (goal: 30%)")
    if moves and hellos and move_cpu["API"] > 0:
        per_move = sum(move_cpu.values()) / moves
        per_hello = sum(hello_cpu.values()) / hellos
        print("  CPU per move: " + ", ".join(f"{name} {seconds / moves * 1e6:.0f} us"
                                             for name, seconds in move_cpu.items())
              + "; per hello: " + ", ".join(f"{name} {seconds / hellos * 1e6:.0f} us"
                                            for name, seconds in hello_cpu.items())
              + f" (a hello's CPU is {per_hello / per_move:.0%} of a move's)")


def _redis_cluster_tool() -> Any:
    """tools/redis_cluster.py as a module (tools/ is no package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("redis_cluster",
                                                  ROOT / "tools" / "redis_cluster.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class StoreCounters:
    """CPU seconds, commands and network bytes of a set of redis-server processes (the
    masters' commands and bytes: a replica's are the masters' writes again)."""

    def __init__(self, pids: list[int], master_ports: list[int]) -> None:
        self.pids = pids
        self.master_ports = master_ports

    def read(self) -> tuple[float, int, int, int]:
        """(CPU seconds, commands, bytes in, bytes out) so far."""
        import redis

        commands = bytes_in = bytes_out = 0
        for port in self.master_ports:
            stats = redis.Redis(port=port).info("stats")
            commands += int(stats["total_commands_processed"])
            bytes_in += int(stats["total_net_input_bytes"])
            bytes_out += int(stats["total_net_output_bytes"])
        return sum(cpu_seconds(pid) for pid in self.pids), commands, bytes_in, bytes_out


def _masters(ports: list[int]) -> list[int]:
    import redis

    return [port for port in ports
            if redis.Redis(port=port).info("replication")["role"] == "master"]


def cluster_comparison(args: argparse.Namespace) -> int:
    """The same move load on one redis-server and on a local Redis Cluster (replicas
    unconfirmed, then confirmed), alternating rounds; prints the figures of each."""
    tool = _redis_cluster_tool()
    reason = tool.available()
    if reason:
        print(f"no local cluster here: {reason}")
        return 1
    server = tool.binaries()[0]  # the cluster's Redis 7 for the single node too: one build
    print(f"store comparison: gunicorn -w {args.workers} -k gevent per API; load: "
          f"{args.procs} processes x {args.clients} keep-alive clients; {args.rounds} rounds "
          f"of {args.seconds / args.rounds:.0f}s each; {os.cpu_count()} CPUs; "
          f"{subprocess.run([server, '--version'], capture_output=True, text=True).stdout}")
    with private_redis(args.redis_url, server) as single_url, tool.LocalCluster() as cluster, \
            tempfile.TemporaryDirectory(prefix="bgb-bench-prom-") as prom_dir:
        base = dict(os.environ, PYTHONPATH=str(ROOT), **NO_RATE_LIMITS)
        base.setdefault("BGB_GAME_MODULES", "tests.toygame")
        single_port = int(single_url.rsplit(":", 1)[1].split("/")[0])
        cluster_pids = [process.pid for process in cluster.processes.values()]
        setups = {
            "one redis-server": (dict(base, REDIS_URL=single_url),
                                 StoreCounters([SERVER_PIDS[single_url]], [single_port])),
            "cluster, 3 masters": (dict(base, REDIS_URL=cluster.url,
                                        BGB_QUEUE_URL=cluster.queue_url),
                                   StoreCounters(cluster_pids, _masters(cluster.ports))),
            "cluster, BGB_MIN_REPLICAS=1": (dict(base, REDIS_URL=cluster.url,
                                                 BGB_QUEUE_URL=cluster.queue_url,
                                                 BGB_MIN_REPLICAS="1"),
                                            StoreCounters(cluster_pids,
                                                          _masters(cluster.ports))),
        }
        totals: dict[str, dict[str, Any]] = {
            name: {"latencies": [], "time": 0.0, "api": 0.0, "redis": 0.0, "commands": 0,
                   "in": 0, "out": 0} for name in setups}
        with contextlib.ExitStack() as servers:
            ports = {}
            for index, (name, (env, _)) in enumerate(setups.items()):
                env = dict(env, PROMETHEUS_MULTIPROC_DIR=str(Path(prom_dir, str(index))))
                Path(env["PROMETHEUS_MULTIPROC_DIR"]).mkdir()
                ports[name] = servers.enter_context(
                    gunicorn("api:create_app()", env, args.workers, 0))
            game, options = pick_game(next(iter(ports.values())), args.game)
            for _ in range(args.rounds):
                for name, (_, counters) in setups.items():
                    port = ports[name]
                    api_before = cpu_seconds(SERVER_PIDS.get(port))
                    before = counters.read()
                    found, elapsed = move_load(args, port, game, options,
                                               args.seconds / args.rounds)
                    after = counters.read()
                    total = totals[name]
                    total["latencies"] += found[0]
                    total["time"] += elapsed
                    total["api"] += cpu_seconds(SERVER_PIDS.get(port)) - api_before
                    total["redis"] += after[0] - before[0]
                    total["commands"] += after[1] - before[1]
                    total["in"] += after[2] - before[2]
                    total["out"] += after[3] - before[3]
        print(f"{game} {options}, every seat human (a move is 1 POST, plus a read when the "
              "seat to act changes, plus the game's creation now and then):")
        for name, total in totals.items():
            moves = len(total["latencies"]) or 1
            print(f"  {name}: {moves / total['time']:.0f} moves/s, move latency p50 "
                  f"{percentile(total['latencies'], 0.5) * 1000:.1f} ms, p99 "
                  f"{percentile(total['latencies'], 0.99) * 1000:.1f} ms; per move: API CPU "
                  f"{total['api'] / moves * 1e6:.0f} us, Redis CPU "
                  f"{total['redis'] / moves * 1e6:.0f} us (every node), "
                  f"{total['commands'] / moves:.1f} commands, "
                  f"{total['in'] / moves:.0f} bytes in, {total['out'] / moves:.0f} bytes out "
                  "(masters)")
        game_sizes(single_url)
        queue_cost(cluster.queue_url, cluster.processes[cluster.queue_port].pid)
    return 0


def queue_cost(url: str, pid: int, jobs: int = 3000) -> None:
    """Print what one RQ job costs the queues' Redis (enqueued with a bot turn's options,
    taken and finished by RQ's SimpleWorker in this process, as a bgb worker runs it): its
    CPU, commands and bytes."""
    import redis
    from rq import Queue, SimpleWorker

    client = redis.Redis.from_url(url)
    counters = StoreCounters([pid], [int(url.rsplit(":", 1)[1].split("/")[0])])
    queue = Queue("bench-queue-cost", connection=client)
    before = counters.read()
    started = time.monotonic()
    for index in range(jobs):
        queue.enqueue_call("time.sleep", args=(0,), job_id=f"bench-{index}", timeout=60,
                           result_ttl=60, failure_ttl=3600)
    enqueued = time.monotonic() - started
    SimpleWorker([queue], connection=client).work(burst=True, logging_level="WARNING")
    elapsed = time.monotonic() - started - enqueued
    cpu, commands, bytes_in, bytes_out = (b - a for a, b in zip(before, counters.read(),
                                                              strict=True))
    print(f"  the queues' Redis, one job (enqueued, taken and finished; {jobs} jobs): CPU "
          f"{cpu / jobs * 1e6:.0f} us, {commands / jobs:.0f} commands, "
          f"{bytes_in / jobs:.0f} bytes in, {bytes_out / jobs:.0f} bytes out; one worker "
          f"ran {jobs / elapsed:.0f} jobs/s, one client enqueued {jobs / enqueued:.0f}/s")


def game_sizes(url: str, sample: int = 300) -> None:
    """Print what a game and a log entry take in Redis's memory (MEMORY USAGE of every key
    of a sample of the games stored at `url`)."""
    import redis

    client = redis.Redis.from_url(url)
    logs = []
    for name in client.scan_iter(match="bgb:game:*:moves", count=1000):
        logs.append(name.decode())
        if len(logs) >= sample:
            break
    if not logs:
        return
    game_bytes, entries, log_bytes = [], 0, 0
    for log_key in logs:
        prefix = log_key.removesuffix(":moves")
        names = list(client.scan_iter(match=prefix.replace("{", "[{]").replace("}", "[}]")
                                      + ":*", count=100))
        game_bytes.append(sum(client.memory_usage(n) or 0 for n in names))
        length = client.llen(log_key)
        if length:
            entries += length
            log_bytes += client.memory_usage(log_key, samples=0) or 0
    print(f"  in Redis ({len(logs)} games sampled): {sum(game_bytes) / len(game_bytes):.0f} "
          f"bytes a game (all its keys, {entries / len(logs):.1f} log entries on average), "
          f"{log_bytes / max(entries, 1):.0f} bytes a log entry")


# The load generator is one client address: the API's rate limits, its fair turns and its
# connection cap would hold it back (the flood run keeps them).
NO_RATE_LIMITS = {"BGB_RATE_LIMIT_CREATE": "off", "BGB_RATE_LIMIT_MOVES": "off",
                  "BGB_RATE_LIMIT_MOVES_PER_SEAT": "off", "BGB_RATE_LIMIT_READS": "off",
                  "BGB_RATE_LIMIT_OTHER": "off", "BGB_REQUESTS_PER_CLIENT": "off",
                  "BGB_MAX_CONNECTIONS_PER_CLIENT": "off"}
# Those the flood run lifts too: the flood only creates games; its probe only plays.
PLAYER_LIMITS = ("BGB_RATE_LIMIT_MOVES", "BGB_RATE_LIMIT_MOVES_PER_SEAT", "BGB_RATE_LIMIT_READS")


def raise_open_files(needed: int) -> None:
    """Raise this process's open-file limit (inherited by the helpers) to fit `needed`."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard == resource.RLIM_INFINITY else min(hard, max(soft, needed))
    if soft != resource.RLIM_INFINITY and target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def move_load(args: argparse.Namespace, port: int, game: str, options: dict[str, Any],
              seconds: float) -> tuple[tuple[list[float], int], float]:
    """Play moves for `seconds`: ((move latencies, other requests), elapsed seconds)."""
    started = time.monotonic()
    results = run_load(play_client, lambda i: (port, game, options, seconds, i),
                       args.procs, args.clients)
    elapsed = time.monotonic() - started
    report_errors(results)
    latencies = [x for r in results if r[0] == "moves" for x in r[1]]
    return (latencies, sum(r[2] for r in results if r[0] == "moves")), elapsed


def hold_streams(port: int, game_ids: list[str], commands: Any, reports: Any) -> None:
    """A helper process: on each count received, open idle event streams of `game_ids` up
    to that many (raw asyncio sockets, heartbeats read and dropped) and report how many are
    open; None closes them all."""
    import asyncio

    class Idle(asyncio.Protocol):
        def __init__(self, game_id: str) -> None:
            self.game_id = game_id
            self.started = asyncio.get_running_loop().create_future()

        def connection_made(self, transport: Any) -> None:
            transport.write(f"GET /v1/games/{self.game_id}/events HTTP/1.1\r\n"
                            "Host: 127.0.0.1\r\n\r\n".encode())

        def data_received(self, data: bytes) -> None:
            if not self.started.done():
                self.started.set_result(data.startswith(b"HTTP/1.1 200"))

        def connection_lost(self, exc: Exception | None) -> None:
            if not self.started.done():
                self.started.set_result(False)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        held: list[tuple[Any, Idle]] = []
        while True:
            wanted = await loop.run_in_executor(None, commands.get)
            if wanted is None:
                break
            while len(held) < wanted:
                first = len(held)
                batch = [loop.create_connection(
                    functools.partial(Idle, game_ids[(first + i) % len(game_ids)]),
                    "127.0.0.1", port) for i in range(min(200, wanted - first))]
                opened = await asyncio.gather(*batch)
                await asyncio.gather(*(protocol.started for _, protocol in opened))
                held.extend(opened)
            alive = sum(1 for transport, protocol in held if not transport.is_closing()
                        and protocol.started.result())
            reports.put(alive)
        for transport, _ in held:
            transport.abort()

    asyncio.run(run())


def streams_run(args: argparse.Namespace, port: int, game: str, options: dict[str, Any],
                steps: list[int]) -> None:
    """Move latency while holding more and more idle event streams (on 100 games)."""
    http_ = Http(port)
    game_ids = []
    for _ in range(100):
        status, created = http_.call("POST", "/v1/games", {"game": game, "options": options})
        if status != 201:
            print(f"streams run: skipped (create answered {status})")
            return
        game_ids.append(created["id"])
    commands: Any = mp.Queue()
    reports: Any = mp.Queue()
    helper = mp.Process(target=hold_streams, args=(port, game_ids, commands, reports))
    helper.start()
    best = 0
    light = argparse.Namespace(**{**vars(args), "procs": 1, "clients": args.idle_clients})
    print(f"idle event streams (each step: {args.idle_seconds:.0f}s of moves by "
          f"{args.idle_clients} clients):")
    try:
        for wanted in [0, *steps]:
            commands.put(wanted)
            held = reports.get(timeout=300)
            (latencies, _), elapsed = move_load(light, port, game, options, args.idle_seconds)
            p99 = percentile(latencies, 0.99)
            print(f"  {held} idle streams held: {len(latencies) / elapsed:.0f} moves/s, move "
                  f"latency p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
                  f"p99 {p99 * 1000:.1f} ms")
            if held < wanted:
                print(f"  only {held} of {wanted} streams could be opened")
                break
            if p99 < 0.1:
                best = max(best, held)
    finally:
        commands.put(None)
        helper.join(timeout=30)
    print(f"idle streams held while moves keep p99 under 100 ms: {best} (goal: 5000)")


def _has_workers() -> bool:
    try:
        import ai_worker.jobs  # noqa: F401
    except ImportError:
        return False
    return True


def bot_run(args: argparse.Namespace, env: dict[str, str], port: int, game: str,
            options: dict[str, Any]) -> None:
    """Start RQ workers and time human move -> bot answer."""
    bot = args.bot
    if game == "darwins-journey" and bot in (None, "alfred"):
        game_options: dict[str, Any] = {"players": 1}
        bot = "alfred"
    else:
        game_options = options
        bot = bot or "random"
    if args.bot_game:
        game, game_options = args.bot_game, {"players": 2}
    worker_env = dict(env, BGB_API_URL=f"http://127.0.0.1:{port}")
    worker_log = tempfile.NamedTemporaryFile(prefix="bgb-bench-workers-", suffix=".log",
                                             delete=False)
    workers = [subprocess.Popen([sys.executable, "-m", "ai_worker.worker"], env=worker_env,
                                cwd=str(ROOT), stdout=worker_log, stderr=worker_log)
               for _ in range(args.bot_workers)]
    try:
        time.sleep(1.0)
        started = time.monotonic()
        results = run_load(bot_client,
                           lambda i: (port, game, game_options, bot, args.seconds, 1000 + i),
                           1, max(1, args.clients // 2))
        elapsed = time.monotonic() - started
        report_errors(results)
        latencies = [x for r in results if r[0] == "bot" for x in r[1]]
        print(f"bot answer ({bot}, {args.bot_workers} RQ workers): {len(latencies)} answers "
              f"in {elapsed:.1f}s; human move -> bot move seen p50 "
              f"{percentile(latencies, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms (worker log: {worker_log.name})")
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.kill()


if __name__ == "__main__":
    sys.exit(main())
