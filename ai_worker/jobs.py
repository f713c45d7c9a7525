"""RQ jobs: a bot seat's turn, played through the same HTTP API a human client uses.

`play_turn(game_id, seat, version)` is idempotent: it reads the seat's view with the seat's
derived token, does nothing when the game has moved on, and posts its move with the version
and the Idempotency-Key f"bot-{game_id}-{version}", so a duplicate or retried job can never
move twice. Transient failures (server unreachable, 5xx) raise, so RQ retries with back-off.
A job plays on through the game's next bot turns for up to `chain_seconds()` (see
`play_turn`), each one posted through the API as the first.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import redis
from rq import Queue, get_current_job

from ai_worker import local_api
from ai_worker.bots import get_bot
from api import botauth, keys, settings
from api.botqueue import JOB_FUNCTION as JOB_FUNC  # noqa: F401  (re-exported)
from api.botqueue import QUEUE_NAME as QUEUE  # noqa: F401  (re-exported)
from api.botqueue import enqueue_turn, job_id  # noqa: F401  (re-exported)
from api.redis_conn import GameClient, worker_games
from clients.sdk import (
    Client,
    Forbidden,
    GameOver,
    IdempotencyKeyReused,
    NotFound,
    NotYourTurn,
    StaleVersion,
    TransportError,
    Unauthorized,
)

log = logging.getLogger(__name__)

def turn_seed(game_id: str, version: int) -> int:
    """The bot's seed for this turn: the same on every retry, different on every turn."""
    digest = hashlib.sha256(f"{game_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _redis() -> GameClient:
    """The game store (api.redis_conn: the job's own connection when it is the queues' too)."""
    job = get_current_job()
    return worker_games(None if job is None else job.connection)


_client: Client | None = None


def api_client() -> Client:
    """The worker process's one client of the API (its session keeps connections alive)."""
    global _client
    if _client is None:
        import requests

        session = requests.Session()
        # The worker talks to its own API: no proxy or .netrc from the environment, whose
        # look-up (every variable, on every request) was a fifth of a random bot's turn.
        session.trust_env = False
        # BGB_BOT_API=local: the API app in this process (ai_worker.local_api), else HTTP.
        base_url = local_api.mount(session) if local_api.wanted() else \
            os.environ.get("BGB_API_URL")
        _client = Client(base_url, retries=2, timeout=30.0, session=session)
    return _client


def choose_move(game_name: str, bot_name: str, view: dict[str, Any], seat: int,
                legal_moves: list[dict[str, Any]], params: dict[str, Any],
                seed: int) -> dict[str, Any]:
    """The move the named bot picks among `legal_moves`, from the seat's view only."""
    import core

    game = core.get_game(game_name)
    bot = get_bot(bot_name)
    return dict(bot.choose(game, view, seat, legal_moves,
                           capped_budget(bot.params_schema(), params), seed))


def grace_ms() -> int:
    """How far past its `ms` budget a bot may run before its move is forfeited
    (BGB_BOT_GRACE_MS, default 1 s: scheduling noise on a loaded machine is not a fault)."""
    return int(settings.value("BGB_BOT_GRACE_MS"))


def timed_move(game_name: str, bot_name: str, view: dict[str, Any], seat: int,
               legal_moves: list[dict[str, Any]], params: dict[str, Any],
               seed: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The bot's move and, when the bot overran its `ms` budget by more than the grace, a
    forfeit record: the move is then the fallback's (a `random` legal move) instead.

    The budget is checked after `choose` returns rather than by abandoning a thread at the
    deadline: a Python thread cannot be stopped, so an abandoned one would go on burning the
    worker's CPU; the bots honour their budget themselves, and this catches those that do
    not (a slow bot holds its worker for its overrun, and loses the move).
    """
    import core

    started = time.monotonic()
    move = choose_move(game_name, bot_name, view, seat, legal_moves, params, seed)
    elapsed_ms = (time.monotonic() - started) * 1000
    limit = capped_budget(get_bot(bot_name).params_schema(), params).get("ms") or 0
    if limit <= 0 or elapsed_ms <= limit + grace_ms():
        return move, None
    fallback = dict(get_bot("random").choose(core.get_game(game_name), view, seat,
                                             legal_moves, {}, seed))
    log.warning("%s overran its budget (%.0f ms of %s ms): random move instead", bot_name,
                elapsed_ms, limit)
    return fallback, {"bot": bot_name, "elapsed_ms": round(elapsed_ms),
                      "budget_ms": int(limit), "grace_ms": grace_ms()}


def max_bot_ms() -> int:
    """The ceiling on a bot's thinking time a decision (BGB_MAX_BOT_MS, default 10 s)."""
    return int(settings.value("BGB_MAX_BOT_MS"))


def capped_budget(schema: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """`params` with a time budget no larger than the ceiling. A bot with an `ms` parameter
    that was given an iteration budget alone gets the ceiling as its time limit too, so that
    `iterations: 10000000` cannot hold a worker for an hour (with neither, a bot's default
    budget is small and stays as it is). The API refuses larger `ms` at creation; this also
    bounds games created before a ceiling was lowered."""
    if "ms" not in schema:
        return params
    ceiling = max_bot_ms()
    ms = params.get("ms") or 0
    if ms > 0:
        return dict(params, ms=min(ms, ceiling))
    if (params.get("iterations") or 0) > 0:
        return dict(params, ms=ceiling)
    return params


def chain_seconds() -> float:
    """How long one job goes on playing a game's consecutive bot turns before it leaves the
    next one to a job of its own, at the back of the queue (BGB_BOT_CHAIN_SECONDS, default
    0.5 s; 0 queues a job for every turn)."""
    return float(settings.value("BGB_BOT_CHAIN_SECONDS"))


def play_turn(game_id: str, seat: int, version: int) -> str:
    """Play `seat`'s turn of `game_id` at `version`, then the game's next bot turns while the
    job is younger than `chain_seconds()`; returns what happened (for the job log).

    "moved" ("forfeited" when the bot overran its budget and a random move was played), or
    "stale"/"gone" when there was nothing to do; "moved 12 turns, then stale" (what ended
    it) when the job played on.

    Playing on spares a turn the RQ job's own cost (its enqueue, dequeue and bookkeeping,
    most of a random bot's turn in Redis commands): the move tells the API, with `bot_job`,
    that this job plays the next bot turn, and the API then queues none. The game's state
    names the job meanwhile, so the sweeper leaves the turn to it while it lives, and takes
    it back as it does any lost turn when it does not. The time limit keeps the queue fair:
    a long game yields its worker to the other games' turns twice a second.
    """
    job = get_current_job()
    # Whether to hold the next turn is decided when a move is posted, after the bot thought.
    hold = None if job is None else (job.id, time.monotonic() + chain_seconds())
    turn: Turn | None = Turn(seat, version)
    outcomes: list[str] = []
    try:
        while turn is not None:
            outcome, turn = _play_turn(game_id, turn, hold)
            outcomes.append(outcome)
    except BaseException:
        if len(outcomes) > 0 and turn is not None:
            # This job holds the turn it failed on: a job of its own plays it now, rather
            # than the sweeper after its grace.
            queue = Queue(QUEUE, connection=job.connection if job is not None else _redis())
            enqueue_turn(queue, game_id, turn.seat, turn.version,
                         f"seat {turn.seat} of {game_id} at version {turn.version} "
                         "(handed back)")
        raise
    finally:
        _reconnect()
    if len(outcomes) == 1:
        return outcomes[0]
    moved = sum(outcome in ("moved", "forfeited") for outcome in outcomes)
    return f"moved {moved} turns, then {outcomes[-1]}"


# The worker's keep-alive connection binds it to one API process: two workers whose
# connections landed on the same gunicorn process had all their turns served by that one
# (one core, one GIL) while the other idled (in bench/tournament.py's set-up, 85% of the
# API's CPU on one of its two processes, run after run). Each job therefore connects afresh:
# the process that accepts is the first to wake, usually one that is not busy with another
# worker's turn. A job plays a game's consecutive bot turns (up to `chain_seconds()`), so the
# connection's set-up is a small part of it.
def _reconnect() -> None:
    """Drop the worker's connection to the API: the next request connects afresh."""
    api_client().session.close()


@dataclass(frozen=True)
class Turn:
    """A bot turn to play: the seat to act at `version`, and the game as that seat reads it
    when the API sent it with the move before (else the turn reads it)."""

    seat: int
    version: int
    body: dict[str, Any] | None = None


def _play_turn(game_id: str, turn: Turn,
               hold: tuple[str, float] | None = None) -> tuple[str, Turn | None]:
    """One bot turn: what happened, and the next turn when the API left it to the job of
    `hold` (its id, and the time until which it may hold one)."""
    seat, version = turn.seat, turn.version
    api = api_client()
    client = _redis()
    token = _bot_token(client, game_id, seat)
    body = turn.body
    while body is None:
        try:
            body = api.get_game(game_id, token)
        except NotFound:
            return "gone", None
        except (Unauthorized, Forbidden):
            # The secret may have changed since this process cached it: read it once more.
            fresh = _bot_token(client, game_id, seat, reread=True)
            if fresh == token:
                log.warning("bot token refused for %s seat %s", game_id, seat)
                # The token no longer opens this seat: retrying cannot help.
                return "refused", None
            token = fresh
    if (body.get("status") != "active" or body.get("version") != version
            or body.get("to_act") != seat or body.get("seat") != seat):
        return "stale", None
    legal = list(body.get("legal_moves") or [])
    if not legal:
        return "stale", None
    spec = _seat_spec(body, seat)
    if "params" not in spec:
        stored = _stored_seat_spec(client, game_id, seat)
        # A seat created human that resigned is played by the bot its public seat names.
        if stored is not None and stored.get("kind") == "bot":
            spec = stored
    bot_name = str(spec.get("bot") or "random")
    params = dict(spec.get("params") or {})
    view = dict(body.get("view") or {})
    # The game's options are public (every read body has them) and automa bots need them to
    # know their seats; a view that leaves them out gets them from the body.
    view.setdefault("options", body.get("options") or {})
    move, forfeit = timed_move(str(body["game"]), bot_name, view, seat, legal, params,
                               turn_seed(game_id, version))
    bot_job = hold[0] if hold is not None and time.monotonic() < hold[1] else None
    try:
        # A forfeit is stored with the move, by the same atomic write (its log entry, the
        # game's `forfeits`), so no reader ever sees the move without it.
        answer = api.move(game_id, token, move, version,
                          idempotency_key=f"bot-{game_id}-{version}", forfeit=forfeit,
                          bot_job=bot_job)
    except (StaleVersion, GameOver, NotFound, NotYourTurn):
        return "stale", None
    except IdempotencyKeyReused:
        # A duplicate job chose another move for this version and stored it first.
        return "stale", None
    except TransportError:
        raise  # RQ retries; the same Idempotency-Key makes the retry safe
    if answer.get("status") != "active":
        from ai_worker.tournaments import game_ended

        job = get_current_job()
        # A tournament's next game starts now, not at a poll (its job, if queued, on the
        # queues' Redis).
        game_ended(client, game_id, None if job is None else job.connection)
    held = None
    if bot_job is not None and answer.get("bot_job") == bot_job:
        held = Turn(int(answer["to_act"]), int(answer["version"]), answer.get("next"))
    return "forfeited" if forfeit is not None else "moved", held


def _seat_spec(body: dict[str, Any], seat: int) -> dict[str, Any]:
    for entry in body.get("seats") or []:
        if entry.get("seat") == seat:
            return dict(entry)
    return {}


# Per worker process, so that a turn costs no Redis round trip of its own: the bot secret
# (read again when the API refuses a token derived from it) and the seats' bots (immutable).
_secret: bytes | None = None
_SEAT_SPECS: OrderedDict[tuple[str, int], dict[str, Any] | None] = OrderedDict()
_SEAT_SPECS_SIZE = 4096


def _bot_token(client: redis.Redis, game_id: str, seat: int, reread: bool = False) -> str:
    global _secret
    if _secret is None or reread:
        _secret = botauth.bot_secret(client)
    return botauth.derive(_secret, game_id, seat)


def _stored_seat_spec(client: redis.Redis, game_id: str, seat: int) -> dict[str, Any] | None:
    # The game body may leave bot params out; the immutable metadata has them.
    if (game_id, seat) in _SEAT_SPECS:
        return _SEAT_SPECS[(game_id, seat)]
    raw = client.get(keys.game_meta(game_id))
    if raw is None:
        return None
    try:
        meta = json.loads(raw)
    except ValueError:
        return None
    for entry in meta.get("seats") or []:
        _SEAT_SPECS[(game_id, int(entry.get("seat", -1)))] = {
            k: v for k, v in entry.items() if k != "token_sha256"}
    while len(_SEAT_SPECS) > _SEAT_SPECS_SIZE:
        _SEAT_SPECS.popitem(last=False)
    return _SEAT_SPECS.get((game_id, seat))
