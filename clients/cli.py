"""`bgb`: run the server, run workers, play or watch a game in the terminal.

    bgb serve [--host 127.0.0.1] [--port 8000]      API (gunicorn) + one bot worker (+ local Redis)
    bgb worker [--burst] [--count N]                bot workers only (RQ queue "bots" + sweeper)
    bgb play darwins-journey --vs alfred:green      play against bots (any game: --vs automa)
    bgb watch <id>                                  follow a game's moves as they happen
    bgb create <game> [--option k=v] [--seat ...]   create a game, print the answer (tokens!)
    bgb show <id> [--token T]                       print a game as a seat or a spectator sees it
    bgb verify <id>|<record.json>                   check a finished game's deal and replay it
    bgb analyse <id> [--token T] [--seat N]         the engine's analysis of a finished game
    bgb player [--name N]; bgb games [--my-turn]    a player's key; its games ($BGB_PLAYER_KEY)
    bgb resign <id> --token T; bgb rematch <id> --token T
    bgb tournament <game> --bot mcts:ms=250 --bot greedy --games 20   server-run tournament
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from clients import board, i18n
from clients.localredis import LocalRedis, default_data_dir, die_with_parent
from clients.sdk import (
    ApiError,
    Client,
    GameOver,
    TransportError,
)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

# -- argument parsing ------------------------------------------------------------------------


def parse_value(text: str) -> Any:
    """An option value typed on the command line: JSON when it parses (1, true, "x"), else text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_pairs(pairs: list[str] | None) -> dict[str, Any]:
    """`["players=2", "first_game=true"]` -> {"players": 2, "first_game": True}."""
    result: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"expected key=value, got {pair!r}")
        result[key.strip()] = parse_value(value.strip())
    return result


AUTOMA_BOTS = ("automa", "alfred")  # any game's automa; Alfred is Darwin's Journey's


def parse_bot(spec: str) -> tuple[str, dict[str, Any], str | None]:
    """A `--vs` opponent: "random", "mcts:iterations=200,c=1.4", "alfred:green",
    "automa:behaviour=2,scoring=3".

    Returns (bot name, params, level): for Alfred the text after ":" is his difficulty level;
    for `automa` the pairs are the game's options that set its automa (its level).
    """
    name, _, rest = spec.partition(":")
    name = name.strip()
    if not name:
        raise argparse.ArgumentTypeError(f"empty bot name in {spec!r}")
    if name == "alfred":
        return name, {}, rest.strip() or None
    params = parse_pairs([p for p in rest.split(",") if p.strip()]) if rest else {}
    return name, params, None


def parse_seat(spec: str) -> dict[str, Any]:
    """A `--seat` of `bgb create`: "human", "bot:random", "bot:mcts:iterations=100"."""
    if spec == "human":
        return {"kind": "human"}
    kind, _, rest = spec.partition(":")
    if kind != "bot" or not rest:
        raise argparse.ArgumentTypeError(f"a seat is 'human' or 'bot:<name>[:k=v,...]', "
                                         f"got {spec!r}")
    name, params, _ = parse_bot(rest)
    return {"kind": "bot", "bot": name, "params": params}


def plan_game(vs: list[str], players: int | None,
              options: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    """The options and seats of a `bgb play` game: you at seat 0, then the --vs bots.

    With the automa (`automa`, or `alfred` in Darwin's Journey) the game is solo (options
    players=1 and the automa's level: alfred=<level>, or automa's key=value pairs) and the
    server seats it. Seats beyond you and the bots are humans too, played in turn here.
    """
    options = dict(options)
    bots = [parse_bot(spec) for spec in vs]
    automa = [b for b in bots if b[0] in AUTOMA_BOTS]
    others = [b for b in bots if b[0] not in AUTOMA_BOTS]
    if automa:
        if others or len(automa) > 1 or (players not in (None, 1)):
            raise argparse.ArgumentTypeError("the automa is the solo opponent: play it alone "
                                             "(--vs automa[:k=v,...] or --vs alfred[:level] "
                                             "without other bots)")
        options.setdefault("players", 1)
        name, params, level = automa[0]
        if level:
            options["alfred"] = level
        options.update(params)
        return options, None
    if not others:
        # Only humans: let the server seat any automa the options call for (e.g. solo Alfred).
        if players is not None:
            options["players"] = players
        return options, None
    total = players if players is not None else options.get("players", 1 + len(others))
    if not isinstance(total, int) or total < len(others) + 1:
        raise argparse.ArgumentTypeError(f"{len(others)} bots and you need at least "
                                         f"{len(others) + 1} players")
    options["players"] = total
    humans = total - len(others)
    seats: list[dict[str, Any]] = [{"kind": "human"} for _ in range(humans)]
    seats += [{"kind": "bot", "bot": name, "params": params} for name, params, _ in others]
    return options, seats


def package_version() -> str:
    """The installed boardgamesbot version (the source tree's when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("boardgamesbot")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The `bgb` argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="bgb", description="BoardGamesBot: board games over "
                                     "HTTP, bots in RQ workers.")
    parser.add_argument("--version", action="version", version=f"bgb {package_version()}")
    parser.add_argument("--lang", default=None, metavar="LANG",
                        help="en or pt-BR (default: the locale's, $LANG)")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the API and one bot worker")
    serve.add_argument("--host", default=DEFAULT_HOST)
    serve.add_argument("--port", type=int, default=DEFAULT_PORT)
    serve.add_argument("--workers", type=int, default=2, help="gunicorn processes (default 2)")
    serve.add_argument("--threads", type=int, default=0,
                       help="0 (default): gevent workers, where an idle long poll or event "
                            "stream costs no thread; N: N threads per gunicorn process "
                            "(gthread), each long poll or event stream holding one")
    serve.add_argument("--bot-workers", type=int, default=1, help="bot worker processes")
    serve.add_argument("--redis-url", default=None,
                       help="default: $REDIS_URL, else a local Redis kept in --data-dir")
    serve.add_argument("--data-dir", type=Path, default=None,
                       help="where the local Redis keeps its data (default: $BGB_DATA_DIR or "
                            "~/.local/share/bgb)")

    worker = sub.add_parser("worker", help="run bot workers only")
    worker.add_argument("--burst", action="store_true", help="exit once the queue is empty")
    worker.add_argument("--count", type=int, default=1, help="worker processes (default 1)")
    worker.add_argument("--fork", action="store_true", help="fork a work horse per job")
    worker.add_argument("--redis-url", default=None, help="default: $REDIS_URL")

    def add_url(p: argparse.ArgumentParser) -> None:
        p.add_argument("--url", default=None, help="API base URL (default: $BGB_API_URL or "
                       f"http://{DEFAULT_HOST}:{DEFAULT_PORT})")

    play = sub.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("game", nargs="?", default=None,
                      help="e.g. darwins-journey (omit with --game to come back to a game)")
    play.add_argument("--game", dest="game_id", default=None, metavar="ID",
                      help="come back to this game, playing the seat(s) of --token")
    play.add_argument("--token", action="append", default=[], metavar="T",
                      help="with --game: a seat's token (repeat for more seats)")
    play.add_argument("--vs", action="append", default=[], metavar="BOT",
                      help="an opponent: automa[:k=v,...], alfred[:level], random, greedy, "
                           "mcts[:k=v,...]; "
                           "repeat for more")
    play.add_argument("--players", type=int, default=None,
                      help="seats besides Alfred (extra ones are humans at this terminal)")
    play.add_argument("--seed", type=int, default=None,
                      help="replay the same deal: the game is unranked (its deal is the seed)")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    play.add_argument("--practice", action="store_true",
                      help="an unranked practice game: `h` asks the engine for a hint")
    play.add_argument("--auto", action="store_true",
                      help="let a random choice play your seats (a demo)")
    add_url(play)

    watch = sub.add_parser("watch", help="follow a game's moves")
    watch.add_argument("game_id")
    watch.add_argument("--token", default=None, help="watch as this seat")
    add_url(watch)

    create = sub.add_parser("create", help="create a game and print the answer")
    create.add_argument("game")
    create.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    create.add_argument("--seat", action="append", default=None, type=parse_seat,
                        metavar="human|bot:NAME[:k=v,...]")
    create.add_argument("--seed", type=int, default=None,
                        help="mixed with the server's own randomness unless --unranked")
    create.add_argument("--unranked", action="store_true",
                        help="the deal is --seed itself: reproducible, and an unranked game")
    add_url(create)

    verify = sub.add_parser("verify", help="check a finished game's deal and replay its log "
                                           "(a game id, or a record file: offline)")
    verify.add_argument("game_id", metavar="GAME|RECORD.json",
                        help="a game id on the server, or a record file (docs/records.md), "
                             "verified offline")
    add_url(verify)

    analyse = sub.add_parser("analyse", aliases=["analyze"],
                             help="the engine's analysis of a finished game: each move's class "
                                  "and the better move, each seat's accuracy")
    analyse.add_argument("game_id")
    analyse.add_argument("--token", default=None, help="a seat token (not needed once the "
                                                        "game is over)")
    analyse.add_argument("--seat", type=int, action="append", dest="seats", default=None,
                         help="a seat to analyse (repeatable; default: every seat with "
                              "decisions)")
    analyse.add_argument("--timeout", type=float, default=None,
                         help="give up after this many seconds")
    add_url(analyse)

    player = sub.add_parser("player", help="create a player (one identity across games)")
    player.add_argument("--name", default=None)
    add_url(player)

    games = sub.add_parser("games", help="a player's games, newest first")
    games.add_argument("--key", default=None, help="the player's key (default: $BGB_PLAYER_KEY)")
    games.add_argument("--status", choices=["active", "finished", "aborted", "abandoned"])
    games.add_argument("--my-turn", action="store_true", help="only games waiting for you")
    games.add_argument("--limit", type=int, default=20)
    games.add_argument("--json", action="store_true")
    add_url(games)

    resign = sub.add_parser("resign", help="resign a seat (the token's)")
    resign.add_argument("game_id")
    resign.add_argument("--token", required=True)
    resign.add_argument("--bot", default=None, help="3+ seats: the bot that plays on")
    add_url(resign)

    rematch = sub.add_parser("rematch", help="a new game like a finished one")
    rematch.add_argument("game_id")
    rematch.add_argument("--token", required=True, help="a seat's token or the creator token")
    add_url(rematch)

    tour = sub.add_parser("tournament", help="the server plays a bot tournament; standings, "
                                              "ratings, chart")
    tour.add_argument("game", nargs="?", default=None,
                      help="the game (omit with --follow)")
    tour.add_argument("--bot", action="append", default=[], metavar="BOT",
                      help="an entrant: random, greedy, mcts[:ms=250,...]; repeat (an automa "
                           "such as Alfred is seated by the game's options)")
    tour.add_argument("--external", action="append", default=[], metavar="NAME",
                      help="an external entrant that plays its seats through the API (its "
                           "token is printed)")
    tour.add_argument("--games", type=int, default=None,
                      help="at least this many games, in whole deals (default: one deal)")
    tour.add_argument("--deals", type=int, default=None,
                      help="deals; each is played once per seating rotation")
    tour.add_argument("--players", type=int, default=None)
    tour.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    tour.add_argument("--format", choices=["auto", "round_robin", "gauntlet"], default="auto")
    tour.add_argument("--levels", default=None, metavar="OPTION=L1,L2",
                      help="gauntlet: the automa levels, e.g. alfred=white,green")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--parallel", type=int, default=4, help="games in progress at once")
    tour.add_argument("--per-move", type=int, default=None, metavar="SECONDS",
                      help="a clock for the external entrants: seconds per turn "
                           "(docs/clocks.md)")
    tour.add_argument("--main", type=int, default=None, metavar="SECONDS",
                      help="a clock for the external entrants: main time per game")
    tour.add_argument("--increment", type=int, default=None, metavar="SECONDS",
                      help="seconds added to the main time after each turn")
    tour.add_argument("--on-timeout", choices=["bot", "resign"], default="bot",
                      help="what happens to an external seat out of time (default: bot)")
    tour.add_argument("--follow", default=None, metavar="ID",
                      help="follow an existing tournament instead of starting one")
    tour.add_argument("--cancel", default=None, metavar="ID",
                      help="cancel a tournament (with --token, its creator token)")
    tour.add_argument("--token", default=None, help="with --cancel: the creator token")
    tour.add_argument("--json", action="store_true", help="print the standings as JSON")
    tour.add_argument("--csv", type=Path, default=None, metavar="FILE",
                      help="write the standings as CSV")
    tour.add_argument("--chart", type=Path, default=None, metavar="FILE",
                      help="write the PNG chart of score distributions")
    tour.add_argument("--journal", type=Path, default=None, metavar="FILE",
                      help="keep the tournament's id in FILE; the same command again follows "
                           "it instead of starting another")
    add_url(tour)

    show = sub.add_parser("show", help="print a game as a seat or a spectator sees it")
    show.add_argument("game_id")
    show.add_argument("--token", default=None)
    show.add_argument("--json", action="store_true", help="print the raw JSON body")
    add_url(show)
    return parser


# -- serve / worker ----------------------------------------------------------------------------


# gunicorn's own gevent worker; the app puts the body deadline and the per-client caps in
# front of itself under gevent (api.connections, docs/operating-limits.md).
GEVENT_WORKER = "gevent"


def gunicorn_command(host: str, port: int, workers: int = 2, threads: int = 0) -> list[str]:
    """The gunicorn command line serving `api:create_app()`: gevent workers (thousands of
    idle watchers each, `api.gunicorn_conf` sizing their connections), or with `threads`
    > 0 (or no gevent installed) that many threads per worker."""
    if threads <= 0 and not _has_module("gevent"):
        threads = 16
    if threads > 0:
        launcher = "gunicorn"
        concurrency = ["--worker-class", "gthread", "--threads", str(threads)]
    else:  # gevent's patching first, in the master (clients.gunicorn_gevent)
        launcher = "clients.gunicorn_gevent"
        concurrency = ["--worker-class", GEVENT_WORKER]
    command = [sys.executable, "-m", launcher, "--config", "python:api.gunicorn_conf",
               "--bind", f"{host}:{port}", "--workers", str(workers), *concurrency,
               "--timeout", "60", "--graceful-timeout", "10", "--keep-alive", "5"]
    if _gunicorn_version() >= (25, 1):
        # gunicorn 25.1 and later open one control socket per user at a fixed path: several
        # servers on one machine (tests, benches) would fight over it.
        command.append("--no-control-socket")
    return [*command, "api:create_app()"]


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def _gunicorn_version() -> tuple[int, ...]:
    """The installed gunicorn's version, e.g. (25, 0, 1) (its distribution's metadata)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return tuple(int(part) for part in re.findall(r"\d+", version("gunicorn"))[:3])
    except PackageNotFoundError:
        return ()


def worker_command(burst: bool = False, fork: bool = False) -> list[str]:
    """The command line of one bot worker process."""
    command = [sys.executable, "-m", "ai_worker.worker"]
    if burst:
        command.append("--burst")
    if fork:
        command.append("--fork")
    return command


def connect_host(host: str) -> str:
    """The address to reach a server bound to `host` from this machine."""
    return "127.0.0.1" if host in ("0.0.0.0", "", "::") else host


def _port_taken(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) == 0


def _spawn(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    # A session of its own: a Ctrl-C at the terminal reaches only us, and we stop the children
    # in order (workers, then the API, then Redis) instead of all of them at once.
    return subprocess.Popen(command, env=env, start_new_session=True,
                            preexec_fn=die_with_parent)  # noqa: PLW1509


def _stop_all(processes: list[subprocess.Popen[bytes]], timeout: float = 15.0) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + timeout
    for process in processes:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL what is left of a dead process's session (its children)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: Any) -> None:
    raise _Stop()


def _restart_redis(local: LocalRedis, console: Console) -> None:
    """Start the local Redis again (same port, same data directory) after it died: the API
    and the workers reconnect to the same URL, and its append-only file (fsync'd at every
    write) brings back every move the API acknowledged. A failed start is retried at the
    next look."""
    code = local.process.returncode if local.process is not None else None
    console.print(f"[yellow]Redis exited ({code}); restarting it on {local.data_dir}[/]")
    try:
        local.restart()
    except RuntimeError as exc:
        console.print(f"[red]Redis did not restart: {exc}[/]")


def serve(args: argparse.Namespace, console: Console) -> int:
    """Run the API under gunicorn and bot workers until interrupted; restarts a dead Redis
    (the one it started), API (its gunicorn master) or bot worker."""
    if _port_taken(connect_host(args.host), args.port):
        console.print(f"[red]port {args.port} is already in use[/] (another `bgb serve`?)")
        return 1
    env = dict(os.environ)
    local: LocalRedis | None = None
    redis_url = args.redis_url or os.environ.get("REDIS_URL")
    if not redis_url:
        local = LocalRedis(args.data_dir or default_data_dir())
        redis_url = local.start()
        note = "reused" if local.reused else "started"
        console.print(f"[green]Redis[/] {note} at {redis_url} (data in {local.data_dir})")
    env["REDIS_URL"] = redis_url
    api_url = f"http://{connect_host(args.host)}:{args.port}"
    env["BGB_API_URL"] = api_url
    api_env = dict(env)
    metrics_dir = None
    if not env.get("PROMETHEUS_MULTIPROC_DIR"):
        # /metrics then adds up every gunicorn process, not just the one that answers.
        metrics_dir = tempfile.mkdtemp(prefix="bgb-metrics-")
        api_env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    # The workers post through the API app in their own processes (ai_worker.local_api):
    # same machine, same settings, and each worker's turns then need no API process. Their
    # moves are counted in the same metrics directory as the API's.
    env.setdefault("BGB_BOT_API", "local")
    if "PROMETHEUS_MULTIPROC_DIR" in api_env:
        env["PROMETHEUS_MULTIPROC_DIR"] = api_env["PROMETHEUS_MULTIPROC_DIR"]
    signal.signal(signal.SIGTERM, _raise_stop)
    # Even when started with SIGINT ignored (a background job of a script).
    signal.signal(signal.SIGINT, _raise_stop)
    api: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[bytes]] = []
    api_command = gunicorn_command(args.host, args.port, args.workers, args.threads)
    try:
        api = _spawn(api_command, api_env)
        client = Client(api_url)
        deadline = time.monotonic() + 30
        while not client.health():
            if api.poll() is not None or time.monotonic() > deadline:
                console.print("[red]the API did not start[/] (see gunicorn's messages above)")
                return 1
            time.sleep(0.1)
        workers = [_spawn(worker_command(), env) for _ in range(args.bot_workers)]
        console.print(f"[green]BoardGamesBot[/] API at {api_url}/v1  (docs: {api_url}/docs), "
                      f"{args.bot_workers} bot worker(s). Ctrl-C stops.")
        while True:
            time.sleep(0.5)
            if local is not None and local.exited:
                _restart_redis(local, console)
            if api.poll() is not None:
                # gunicorn restarts its own workers; this is its master gone (killed, OOM).
                # Its orphaned workers would hold the port: end its whole process group, then
                # start a new one (gunicorn retries binding while the port frees).
                console.print(f"[yellow]the API exited ({api.returncode}); restarting[/]")
                _kill_group(api)
                api = _spawn(api_command, api_env)
            for index, process in enumerate(workers):
                if process.poll() is not None:
                    # The sweeper of the new worker picks up the turn the dead one dropped.
                    console.print(f"[yellow]bot worker exited ({process.returncode}); "
                                  "restarting[/]")
                    workers[index] = _spawn(worker_command(), env)
    except (KeyboardInterrupt, _Stop):
        console.print("stopping…")
        return 0
    finally:
        _stop_all(workers)
        if api is not None:
            _stop_all([api])
        if local is not None:
            local.stop()
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)


def worker(args: argparse.Namespace) -> int:
    """Run `--count` bot worker processes (one runs in this process when count is 1)."""
    if args.redis_url:
        os.environ["REDIS_URL"] = args.redis_url
    if args.count <= 1:
        from ai_worker.worker import run

        run(burst=args.burst, fork=args.fork)
        return 0
    signal.signal(signal.SIGTERM, _raise_stop)
    processes = [_spawn(worker_command(args.burst, args.fork), dict(os.environ))
                 for _ in range(args.count)]
    try:
        return max(p.wait() for p in processes)
    except (KeyboardInterrupt, _Stop):
        return 0
    finally:
        _stop_all(processes)


# -- play / watch / show ---------------------------------------------------------------------

QUIT_WORDS = ("q", "quit", "exit", "sair")
BOARD_WORDS = ("b", "board", "t", "tabuleiro")
HINT_WORDS = ("h", "hint", "d", "dica")
TAKEBACK_WORDS = ("u", "undo", "takeback", "desfazer")
# What `_choose` returns when the player takes back their last move (never a move).
TAKE_BACK: dict[str, Any] = {"type": "take back"}


def _choose(console: Console, moves: list[dict[str, Any]], ask: Callable[[str], str],
            game: str = "", view: dict[str, Any] | None = None,
            show_board: Callable[[], None] | None = None,
            show_hint: Callable[[], None] | None = None,
            taken_back: str | None = None) -> dict[str, Any] | None:
    """The move the player picks; None to quit. A number always means the move listed with
    that number (numbers never change while a list is filtered); text only narrows the list,
    and a single match waits for Enter: nothing is played that the player did not see.
    `show_hint` (practice games): what `h` does. `taken_back`: the player's last move, when
    the game offers to take it back; `u` then returns TAKE_BACK."""
    texts = [board.move_text(m, game, view) for m in moves]
    everything = list(range(len(moves)))
    shown = everything
    pending: int | None = None  # the move Enter plays (a single match, or a number not shown)
    while True:
        console.print(board.moves_table([moves[i] for i in shown], game=game, view=view,
                                        numbers=[i + 1 for i in shown]))
        if pending is not None:
            console.print(Text(i18n._("Enter plays move {number}: {move}")
                               .format(number=pending + 1, move=texts[pending]), style="bold"))
        if taken_back is not None:
            console.print(Text(i18n._("u = take back your last move: {move}")
                               .format(move=taken_back), style="cyan"))
        prompt = (i18n._("number, text to filter, b = board, h = hint, q = quit> ")
                  if show_hint is not None
                  else i18n._("number, text to filter, b = board, q = quit> "))
        answer = ask(prompt).strip()
        if not answer:
            if pending is not None:
                return moves[pending]
            shown = everything  # Enter alone: the whole list again
            continue
        if answer.lower() in QUIT_WORDS:
            return None
        if answer.lower() in BOARD_WORDS and show_board is not None:
            show_board()
            continue
        if answer.lower() in HINT_WORDS and show_hint is not None:
            show_hint()
            continue
        if answer.lower() in TAKEBACK_WORDS and taken_back is not None:
            return TAKE_BACK
        if answer.isdigit():
            index = int(answer) - 1
            if index in shown:
                return moves[index]
            if 0 <= index < len(moves):  # a move the filter hid: show it, Enter plays it
                shown, pending = [index], index
                continue
            console.print(Text(i18n._("no move {number}; moves are numbered 1 to {count}")
                               .format(number=answer, count=len(moves)), style="red"))
            shown, pending = everything, None
            continue
        matches = [i for i, text in enumerate(texts) if answer.lower() in text.lower()]
        if matches:
            shown = matches
            pending = matches[0] if len(matches) == 1 else None
            continue
        console.print(Text(i18n._("no move reads “{text}”; pick a number from the list")
                           .format(text=answer), style="red"))
        shown, pending = everything, None


def _print_moves(console: Console, client: Client, game_id: str, token: str | None,
                 after: int, game: str = "", view: dict[str, Any] | None = None) -> int:
    """Print the log entries after index `after` (each move and what followed it); returns
    the last index printed."""
    for entry in client.iter_moves(game_id, token, after=after):
        for number, line in enumerate(board.log_lines(game, entry, view)):
            console.print(Text(line, style="dim" if number else ""))
        after = int(entry.get("index", after))
    return after


def _client(args: argparse.Namespace) -> Client:
    """An SDK client asking the server for its texts in the player's language."""
    client = Client(args.url)
    client.session.headers["Accept-Language"] = i18n.http_language()
    return client


def _name_bots(client: Client) -> None:
    """Name bot seats by the server's titles of the bots, in the player's language (as the
    server's own log texts do); their ids if the list cannot be read."""
    try:
        board.use_bot_titles(client.bots())
    except (ApiError, TransportError):
        pass


def _draw(console: Console, body: dict[str, Any]) -> None:
    """The whole picture of a game body: who plays, the board."""
    console.print(board.game_header(body))
    console.print(board.render_view(str(body["game"]), body.get("view") or {}))


def _refused(console: Console, exc: ApiError) -> None:
    """A refused command: the server's own words (its problem's title and detail)."""
    console.print(f"[yellow]{exc.title or exc.slug}: {exc.detail}[/]")


def play(args: argparse.Namespace, console: Console,
         ask: Callable[[str], str] | None = None) -> int:
    """Create a game against bots (or come back to one with --game and --token) and play it
    here until it ends or the player quits. The board is drawn once; after that only what
    changed is printed (the moves and their events), the board again on request."""
    client = _client(args)
    if args.game_id:
        if not args.token:
            raise argparse.ArgumentTypeError(i18n._("--game needs the seat's --token"))
        game_id = str(args.game_id)
        first = client.get_game(game_id, args.token[0])
        tokens = {}
        for token in args.token:
            seat = client.get_game(game_id, token).get("seat")
            if seat is not None:
                tokens[int(seat)] = token
    else:
        if not args.game:
            raise argparse.ArgumentTypeError(i18n._("name a game, or --game ID --token T to "
                                               "come back to one"))
        options, seats = plan_game(args.vs, args.players, parse_pairs(args.option))
        created = client.create_game(args.game, options, seats, args.seed,
                                     unranked=args.seed is not None or args.practice)
        game_id = str(created["id"])
        tokens = {int(e["seat"]): str(e["token"]) for e in created["seats"] if e.get("token")}
        console.print(i18n._("game {id} created; watch it with `bgb watch {id}`")
                      .format(id=game_id))
        first = client.get_game(game_id, next(iter(tokens.values()), None))
    _name_bots(client)
    rng = random.Random(args.seed)
    ask = ask or console.input
    any_token = next(iter(tokens.values()), None)
    game = str(first["game"])
    _draw(console, first)
    logged = -1 if not args.game_id else _last_index(client, game_id, any_token)
    while True:
        body = client.get_game(game_id, any_token)
        board.name_seats(body)
        logged = _print_moves(console, client, game_id, any_token, logged, game,
                              body.get("view"))
        if body.get("status") != "active":
            _draw(console, body)
            console.print(board.result_table(body.get("result") or {}))
            return 0
        seat = body.get("to_act")
        if seat not in tokens:
            client.wait_for_version(game_id, int(body["version"]), any_token)
            continue
        body = client.get_game(game_id, tokens[seat])
        moves = list(body.get("legal_moves") or [])
        if body.get("to_act") != seat or not moves:
            continue
        if args.auto:
            move: dict[str, Any] | None = rng.choice(moves)
        else:
            board.name_seats(body)
            console.print(Text(board.turn_line(body), style="bold green"))
            practice = bool((body.get("deal") or {}).get("unranked"))
            move = _choose(console, moves, ask, game, body.get("view"),
                           show_board=lambda b=body: _draw(console, b),
                           show_hint=(lambda t=tokens[seat], b=body: _hint(
                               console, client, game_id, t, game, b.get("view")))
                           if practice else None,
                           taken_back=_last_move_text(client, game_id, tokens[seat], body))
        if move is None:
            console.print(i18n._("left game {id}; come back with: bgb play --game {id} "
                            "--token {token}").format(id=game_id, token=tokens[seat]))
            return 0
        if move is TAKE_BACK:
            try:
                client.take_back(game_id, tokens[seat], int(body["version"]))
            except GameOver:
                continue
            except ApiError as exc:
                _refused(console, exc)
            continue
        try:
            client.move(game_id, tokens[seat], move, int(body["version"]))
        except GameOver:
            continue
        except ApiError as exc:
            _refused(console, exc)


def _last_move_text(client: Client, game_id: str, token: str,
                    body: dict[str, Any]) -> str | None:
    """The words of the seat's move the game offers to take back (its read's `takeback`),
    or None when it offers none."""
    index = body.get("takeback")
    if not isinstance(index, int) or isinstance(index, bool):
        return None
    entries = client.moves(game_id, token, after=index - 1, limit=1).get("moves") or []
    if not entries:
        return None
    return board.move_text(entries[0].get("move") or {}, str(body["game"]), body.get("view"))


def _hint(console: Console, client: Client, game_id: str, token: str, game: str,
          view: dict[str, Any] | None) -> None:
    """The search's top moves for the seat, from the server (the seat is marked assisted)."""
    console.print(i18n._("asking the engine for a hint…"))
    try:
        answer = client.wait_for_hint(game_id, token)
    except ApiError as exc:
        _refused(console, exc)
        return
    except TimeoutError:
        console.print(i18n._("no hint yet: is a worker running?"))
        return
    if answer["status"] != "done":
        console.print(Text(str(answer.get("error") or answer["status"]), style="red"))
        return
    for number, suggested in enumerate(answer["moves"], 1):
        console.print(i18n._("hint {number}: {move} (expected margin {margin:+.1f})").format(
            number=number, move=board.move_text(suggested["move"], game, view),
            margin=suggested["margin"]))


def _last_index(client: Client, game_id: str, token: str | None) -> int:
    """The index of the newest logged move (-1 for none): what a player coming back has seen."""
    last = -1
    for entry in client.iter_moves(game_id, token):
        last = int(entry.get("index", last))
    return last


def watch(args: argparse.Namespace, console: Console) -> int:
    """Print a game's moves as they are made, until it ends (SSE, long-poll as fallback)."""
    client = _client(args)
    body = client.get_game(args.game_id, args.token)
    game = str(body["game"])
    _name_bots(client)
    console.print(board.game_header(body))
    logged = _print_moves(console, client, args.game_id, args.token, -1, game,
                          body.get("view"))
    last_version = int(body["version"])
    while body.get("status") == "active":
        try:
            for event in client.events(args.game_id, last_event_id=last_version):
                last_version = int(event.get("version", last_version))
                logged = _print_moves(console, client, args.game_id, args.token, logged, game,
                                      body.get("view"))
                if event.get("status") in ("finished", "aborted"):
                    break
        except (ApiError, TransportError):
            body = client.wait_for_version(args.game_id, last_version, args.token)
            last_version = int(body["version"])
            logged = _print_moves(console, client, args.game_id, args.token, logged, game,
                                  body.get("view"))
        body = client.get_game(args.game_id, args.token)
    console.print(board.result_table(body.get("result") or {}))
    return 0


def show(args: argparse.Namespace, console: Console) -> int:
    """Print a game once."""
    client = _client(args)
    body = client.get_game(args.game_id, args.token)
    if args.json:
        console.print_json(data=body)
        return 0
    _name_bots(client)
    _draw(console, body)
    if body.get("legal_moves"):
        console.print(board.moves_table(body["legal_moves"], game=str(body["game"]),
                                        view=body.get("view")))
    if body.get("result"):
        console.print(board.result_table(body["result"]))
    return 0


def tournament(args: argparse.Namespace, console: Console) -> int:
    """Have the server play a tournament (or follow one); print and export the standings."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table

    from clients import tournament as tour

    client = Client(args.url)
    if args.cancel:
        if not args.token:
            console.print("[red]--cancel needs the tournament's creator --token[/]")
            return 2
        try:
            body = client.cancel_tournament(args.cancel, args.token)
        except ApiError as exc:
            _refused(console, exc)
            return 1
        console.print(f"tournament {args.cancel}: {body.get('status', 'cancelled')}")
        return 0
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("ETA"), TimeRemainingColumn()]
    with Progress(*columns, console=console, transient=True, disable=args.json) as bar:
        task = bar.add_task("starting", total=None)

        def progress(event: dict[str, Any]) -> None:
            # Rich's ETA comes from the pace of ended games: it shows from the first one on.
            bar.update(task, total=event["total"], completed=event["finished"],
                       description=f"{event['in_progress']} in progress")

        if args.follow:
            body = tour.follow(client, args.follow, progress)
        else:
            if not args.game or not (args.bot or args.external):
                console.print("[red]name a game and at least one --bot or --external[/]")
                return 2
            entrants = []
            for spec in args.bot:
                name, params, _ = parse_bot(spec)
                entrants.append(tour.Entrant(spec, name, params))
            entrants.extend(tour.Entrant(name, None) for name in args.external)
            options = parse_pairs(args.option)
            if args.players is not None:
                options["players"] = args.players
            automa = None
            if args.levels:
                option, _, levels = args.levels.partition("=")
                automa = {"option": option, "levels": [v for v in levels.split(",") if v]}
            clock: dict[str, Any] = {name: value for name, value in (
                ("per_move", args.per_move), ("main", args.main),
                ("increment", args.increment)) if value is not None}

            def created(answer: dict[str, Any]) -> None:
                bar.update(task, total=answer["progress"]["total"],
                           description=f"tournament {answer['id']}")
                if not args.json:
                    console.print(f"tournament {answer['id']}: {answer['progress']['total']} "
                                  f"games (`bgb tournament --follow {answer['id']}`)")
                for name, token in answer.get("entrant_tokens", {}).items():
                    console.print(f"external entrant {name}: token {token}", soft_wrap=True)
                if answer.get("entrant_tokens") and answer.get("creator_token"):
                    # Only an external entrant's tournament may wait on someone: say how to
                    # stop it (the token is shown once, here).
                    console.print(f"creator token {answer['creator_token']} (cancel: bgb "
                                  f"tournament --cancel {answer['id']} --token "
                                  f"{answer['creator_token']})", soft_wrap=True)

            try:
                standings = tour.run(client, args.game, entrants, games=args.games,
                                     deals=args.deals, options=options, seed=args.seed,
                                     parallel=args.parallel, fmt=args.format, automa=automa,
                                     journal=args.journal, progress=progress, created=created,
                                     clock=dict(clock, on_timeout=args.on_timeout)
                                     if clock else None)
            except ValueError as exc:  # a journal of another tournament
                console.print(f"[red]{exc}")
                return 2
            body = standings.tournament
    found = tour.rows(body)
    if args.csv is not None:
        args.csv.write_text(tour.to_csv(found))
    if args.chart is not None:
        args.chart.write_bytes(client.tournament_chart(str(body["id"])))
    if args.json:
        console.print_json(data={"tournament": body["id"], "status": body["status"],
                                 "standings": found, "errors": [],
                                 "head_to_head": body["standings"]["head_to_head"]})
    else:
        table = Table(title=f"{body['game']}: {body['standings']['games']} games "
                            f"({body['status']})")
        for column in ("entrant", "games", "W-D-L", "mean score (95% CI)",
                       "mean margin (95% CI)", "rating (mu ± sigma)", "LoS > next"):
            table.add_column(column, justify="left" if column == "entrant" else "right")
        for row in found:
            table.add_row(row["entrant"], str(row["games"]),
                          f"{row['wins']}-{row['draws']}-{row['losses']}",
                          _with_ci(row["mean_score"], row["score_ci_low"], row["score_ci_high"]),
                          _with_ci(row["mean_margin"], row["margin_ci_low"],
                                   row["margin_ci_high"]),
                          f"{row['mu']:.1f} ± {row['sigma']:.1f}",
                          "" if row["superiority_over_next"] is None
                          else f"{100 * row['superiority_over_next']:.0f}%")
        console.print(table)
    return 0 if body["status"] == "finished" else 1


def _with_ci(mean: float | None, low: float | None, high: float | None) -> str:
    if mean is None:
        return "-"
    return f"{mean:.1f}" if low is None or high is None else f"{mean:.1f} [{low:.1f}, {high:.1f}]"


def create(args: argparse.Namespace, console: Console) -> int:
    """Create a game and print the server's answer (it holds the human seats' tokens)."""
    created = Client(args.url).create_game(args.game, parse_pairs(args.option), args.seat,
                                           args.seed, unranked=args.unranked)
    console.print_json(data=created)
    return 0


def new_player(args: argparse.Namespace, console: Console) -> int:
    """Create a player and print its key (shown once)."""
    created = Client(args.url).create_player(args.name)
    console.print(f"player [bold]{created['id']}[/] ({created.get('name') or 'no name'})")
    console.print(f"key (shown once; keep it): {created['key']}")
    console.print("then: export BGB_PLAYER_KEY=<key> and `bgb games`")
    return 0


def list_games(args: argparse.Namespace, console: Console) -> int:
    """Print the player's games."""
    key = args.key or os.environ.get("BGB_PLAYER_KEY")
    if not key:
        console.print("[red]a player key is needed:[/] --key or $BGB_PLAYER_KEY "
                      "(`bgb player` makes one)")
        return 2
    page = Client(args.url).my_games(key, status=args.status,
                                     my_turn=True if args.my_turn else None, limit=args.limit)
    if args.json:
        console.print_json(data=page)
        return 0
    table = Table(title="Your games")
    for column in ("game id", "game", "status", "your seats", "to act", "version"):
        table.add_column(column)
    for game in page["games"]:
        turn = "[bold green]you[/]" if game["my_turn"] else (
            "—" if game["to_act"] is None else f"seat {game['to_act']}")
        table.add_row(game["id"], game["game"], game["status"],
                      ", ".join(str(s) for s in game["seats"]), turn, str(game["version"]))
    console.print(table)
    return 0


def resign(args: argparse.Namespace, console: Console) -> int:
    """Resign the token's seat."""
    answer = Client(args.url).resign(args.game_id, args.token, args.bot)
    console.print(f"seat {answer['seat']} resigned; the game is {answer['status']}")
    return 0


def rematch(args: argparse.Namespace, console: Console) -> int:
    """Start a rematch and print its creation answer (the caller's new token only)."""
    console.print_json(data=Client(args.url).rematch(args.game_id, args.token))
    return 0


def verify(args: argparse.Namespace, console: Console) -> int:
    """Check a finished game's deal against its commitment and replay it; 0 if it holds."""
    from clients.verify import load_record, verify_game, verify_record

    if os.path.isfile(args.game_id):  # a record file: verified offline, no server
        try:
            record = load_record(args.game_id)
        except (OSError, ValueError) as exc:
            console.print(f"[red]FAILED[/] {args.game_id}: not a readable record ({exc})")
            return 1
        report = verify_record(record)
    else:
        report = verify_game(Client(args.url), args.game_id)
    for check in report.checks:
        console.print(f"[green]ok[/] {check}")
    for fault in report.faults:
        console.print(f"[red]FAILED[/] {fault}")
    console.print(f"game {report.game_id}: " + ("[green]verified[/]" if report.ok
                                                else "[red]not verified[/]"))
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `bgb` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    i18n.activate(args.lang)
    console = Console()
    try:
        if args.command == "serve":
            return serve(args, console)
        if args.command == "worker":
            return worker(args)
        if args.command == "play":
            return play(args, console)
        if args.command == "watch":
            return watch(args, console)
        if args.command == "create":
            return create(args, console)
        if args.command == "show":
            return show(args, console)
        if args.command == "verify":
            return verify(args, console)
        if args.command in ("analyse", "analyze"):
            from clients.analysis import analyse

            return analyse(_client(args), console, args.game_id, args.token, args.seats,
                           args.timeout)
        if args.command == "player":
            return new_player(args, console)
        if args.command == "games":
            return list_games(args, console)
        if args.command == "resign":
            return resign(args, console)
        if args.command == "rematch":
            return rematch(args, console)
        if args.command == "tournament":
            return tournament(args, console)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    except ApiError as exc:
        # The server's own words: its problem's title and detail (in the asked language).
        console.print(f"[red]{exc.title or exc.slug}: {exc.detail}[/] ({exc.status})")
        return 2
    except TransportError as exc:
        console.print(f"[red]cannot reach the server: {exc}[/] (is `bgb serve` running?)")
        return 2
    except KeyboardInterrupt:
        return 130
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
