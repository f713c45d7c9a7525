"""Benchmark of server-run tournaments: games per minute with 1, 2 and 4 bot worker processes.

    python bench/tournament.py [--game darwins-journey] [--games 48] [--workers 1,2,4]
                               [--rounds 3]

Starts a private redis-server and gunicorn (the real API, as `bgb serve` runs it: gevent,
`--api-workers` processes), then for each worker count starts that many bot workers and has
the server play a round robin of two `random` bots (so the rules engine, the API and the
scheduling are what is measured, not a bot's thinking), with `max_parallel` two games a
worker. Prints games/minute from the creation of the tournament (its workers already
listening) to its last game's end, and the speed-up over one worker; `--rounds` times over,
the counts in turn, then each count's median rate and median speed-up (each round's over
that round's one worker). Goal: 2 workers >= 1.7x one (on a machine with at least two free
cores). Each line also says how many cores the stack used and how many the machine's other
processes took meanwhile: a run beside other work says little about the speed-up.

The workers post their moves as `bgb serve` runs them, through the API app in their own
process (`--bot-api http`: over HTTP to the gunicorn API). Redis fsyncs every write, as
`bgb serve` runs it; its append-only file is on tmpfs (/dev/shm) unless `--redis-dir` says
otherwise: on a virtual disk whose fsync takes about a millisecond, Redis spends a fifth of
the time blocked in fsync, each move waits for one, and the disk rather than the server
sets the pace (on the 2-vCPU development VM: 1.2-1.7x on disk, 1.7-2.2x on tmpfs).

`--profile` adds, per worker count, where a bot turn's time goes: CPU milliseconds a turn
of the API (each gunicorn process), of each bot worker, of Redis, and Redis commands a turn
(Linux: read from /proc and Redis's INFO).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from clients.cli import gunicorn_command, worker_command  # noqa: E402
from clients.localredis import LocalRedis, free_port  # noqa: E402
from clients.sdk import Client  # noqa: E402


def spawn(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A process of the stack, its output in `log`."""
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """Stop processes we started (SIGTERM, then wait)."""
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=30)


def cpu_seconds(session: int) -> dict[int, float]:
    """CPU seconds (user + system) of the process `session` and of every process of its
    session, by pid (Linux /proc)."""
    found: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session or int(entry.name) == session:  # field 6: session
            found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    return found


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot (Linux /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class Profile:
    """CPU and Redis commands of the stack's processes between `start` and `stop`, and the
    CPU the rest of the machine used meanwhile (a shared machine's other jobs take the
    cores that a second worker needs: a speed-up measured beside them means little)."""

    def __init__(self, connection: Any, sessions: dict[str, int]) -> None:
        self.connection = connection
        self.sessions = sessions
        self.before: dict[str, dict[int, float]] = {}
        self.busy_before = 0.0

    def start(self) -> None:
        """Note the CPU so far and reset Redis's command counts."""
        self.connection.config_resetstat()
        self.before = {name: cpu_seconds(sid) for name, sid in self.sessions.items()}
        self.busy_before = machine_busy_seconds()

    def cores(self, elapsed: float) -> tuple[float, float]:
        """Cores used on average since `start`: by the stack, and by everything else."""
        stack = sum(seconds - self.before[name].get(pid, 0.0)
                    for name, sid in self.sessions.items()
                    for pid, seconds in cpu_seconds(sid).items())
        busy = machine_busy_seconds() - self.busy_before
        return stack / elapsed, max(0.0, busy - stack) / elapsed

    def report(self, turns: int) -> str:
        """CPU ms a turn per process, and Redis commands a turn."""
        parts = []
        for name, sid in self.sessions.items():
            now = cpu_seconds(sid)
            used = {pid: now[pid] - self.before[name].get(pid, 0.0) for pid in now}
            shown = " + ".join(f"{1000 * u / turns:.1f}" for u in sorted(used.values(),
                                                                       reverse=True)
                               if len(used) == 1 or u > 0.01)
            parts.append(f"{name} {shown or '0'}")
        stats = {name.removeprefix("cmdstat_"): v["calls"]
                 for name, v in self.connection.info("commandstats").items()}
        commands = sum(stats.values())
        top = sorted(stats.items(), key=lambda item: -item[1])[:8]
        return (f"    CPU ms a turn: {', '.join(parts)}; Redis commands a turn: "
                f"{commands / turns:.1f} ("
                + ", ".join(f"{name} {calls / turns:.1f}" for name, calls in top) + ")")


def measure(client: Client, env: dict[str, str], logs: Path, game: str, options: dict,
            games: int, workers: int, sessions: dict[str, int],
            profile: bool = False) -> tuple[float, float, float]:
    """Games per minute of one tournament played by `workers` worker processes (started and
    listening before the clock starts), and the cores the stack (`sessions`: name ->
    session of the API and Redis, plus the workers) and the rest of the machine used
    meanwhile; with `profile`, also prints where a turn's time went."""
    import redis
    from rq import Worker

    connection = redis.Redis.from_url(env["REDIS_URL"])
    procs = [spawn(worker_command(), env, logs / f"worker-{workers}-{i}.log")
             for i in range(workers)]
    try:
        deadline = time.monotonic() + 60
        while len(Worker.all(connection=connection)) < workers:  # every worker listening
            if time.monotonic() > deadline:
                raise SystemExit(f"workers did not start; see {logs}")
            time.sleep(0.1)
        watch = Profile(connection, {**sessions, **{f"worker{i}": p.pid
                                                    for i, p in enumerate(procs)}})
        watch.start()
        created = client.create_tournament(
            game, [{"bot": "random", "name": "a"}, {"bot": "random", "name": "b"}], options,
            games=games, max_parallel=2 * workers)
        started = time.monotonic()
        # Followed on its event stream, not polled: the bench's own reads would take the
        # API's CPU from the games it measures.
        for _ in client.tournament_events(created["id"]):
            pass
        elapsed = time.monotonic() - started
        stack_cores, other_cores = watch.cores(elapsed)
        body = client.tournament(created["id"])
        if profile:
            games_played = client.tournament_games(created["id"])
            turns = sum(client.get_game(g["game_id"])["version"] for g in games_played)
            print(watch.report(max(1, turns)) + f"; {1000 * elapsed / max(1, turns):.1f} ms "
                  "a turn", flush=True)
        return 60.0 * body["progress"]["finished"] / elapsed, stack_cores, other_cores
    finally:
        stop(procs)


def default_redis_dir(logs: Path) -> Path:
    """Where the bench's Redis keeps its append-only file: on tmpfs (/dev/shm) when there is
    one, so that what is measured is the server and the engine, not the machine's disk (Redis
    fsyncs every write, as `bgb serve` runs it, and every move waits for that; see the
    module docstring), else beside the logs."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return Path(tempfile.mkdtemp(prefix="bgb-bench-redis-", dir=shm))
    return logs / "redis"


def main() -> int:
    """Run the benchmark and print one line per worker count."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="darwins-journey")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--rounds", type=int, default=3,
                        help="times the worker counts are measured, in turn (default "
                             "%(default)s): the summary gives each count's median rate and "
                             "median speed-up over the same round's first count")
    parser.add_argument("--api-workers", type=int, default=2,
                        help="gunicorn processes of the API (default %(default)s)")
    parser.add_argument("--api-threads", type=int, default=0,
                        help="threads of each API process (0, the default: gevent, as "
                             "`bgb serve` runs it)")
    parser.add_argument("--bot-api", choices=("local", "http"), default="local",
                        help="how the workers post their moves: through the API app in "
                             "their own process (local, as `bgb serve` runs them), or over "
                             "HTTP to the gunicorn API (BGB_BOT_API)")
    parser.add_argument("--redis-dir", default=None,
                        help="where Redis keeps its append-only file (default: a directory "
                             "in /dev/shm, a tmpfs, when there is one; see above)")
    parser.add_argument("--profile", action="store_true",
                        help="also print CPU ms a turn per process and Redis commands a turn")
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="bgb-bench-tournament-"))
    redis_dir = Path(args.redis_dir) if args.redis_dir else default_redis_dir(logs)
    try:
        return run(args, logs, redis_dir)
    finally:
        if not args.redis_dir:
            shutil.rmtree(redis_dir, ignore_errors=True)  # /dev/shm is memory


def run(args: argparse.Namespace, logs: Path, redis_dir: Path) -> int:
    """Start Redis and the API, then measure each worker count in turn."""
    with LocalRedis(redis_dir, port=free_port()) as local:
        port = free_port()
        env = dict(os.environ, REDIS_URL=local.url, BGB_API_URL=f"http://127.0.0.1:{port}",
                   PYTHONPATH=str(REPO), BGB_LOG_LEVEL="WARNING", BGB_BOT_API=args.bot_api)
        api = spawn(gunicorn_command("127.0.0.1", port, workers=args.api_workers,
                                     threads=args.api_threads), env, logs / "api.log")
        client = Client(f"http://127.0.0.1:{port}")
        try:
            deadline = time.monotonic() + 30
            while not client.health():
                if time.monotonic() > deadline:
                    raise SystemExit(f"the API did not start; see {logs / 'api.log'}")
                time.sleep(0.1)
            print(f"{args.game} ({args.players} players), {args.games} games of two random "
                  f"bots, {os.cpu_count()} CPUs; the workers post through the API "
                  + ("in their own process" if args.bot_api == "local" else "over HTTP")
                  + f"; Redis fsyncs each write to {redis_dir}")
            counts = [int(w) for w in args.workers.split(",")]
            rates: dict[int, list[float]] = {workers: [] for workers in counts}
            for _ in range(args.rounds):
                # The counts in turn, round after round: a machine that slows down or speeds
                # up meanwhile (a shared VM does) touches every count alike.
                base = None
                for workers in counts:
                    sessions = {"API": api.pid}
                    if local.process is not None:
                        sessions["Redis"] = local.process.pid
                    rate, stack, others = measure(client, env, logs, args.game,
                                                  {"players": args.players}, args.games,
                                                  workers, sessions, args.profile)
                    rates[workers].append(rate)
                    base = base or rate
                    print(f"{workers} worker(s): {rate:7.1f} games/minute  "
                          f"({rate / base:.2f}x); cores used: {stack:.2f} by the stack, "
                          f"{others:.2f} by other processes", flush=True)
            # Each round's speed-up is over its own first count, measured a minute before:
            # the paired comparison a drifting machine disturbs least.
            ones = rates[counts[0]]
            print(f"median of {args.rounds} round(s): " + ", ".join(
                f"{workers} worker(s) {statistics.median(found):.1f} games/minute, speed-up "
                f"{statistics.median(r / b for r, b in zip(found, ones, strict=True)):.2f}x"
                for workers, found in rates.items()))
        finally:
            stop([api])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
