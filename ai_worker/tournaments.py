"""Tournament scheduling: the RQ job `advance(tournament_id)` and the sweeper's `poll`.

`advance` records the games of the tournament that ended, then creates the next slots' games
(inside the server, with `api.creation.start_game`, bypassing the per-client limits) until
`max_parallel` are in progress, and marks the tournament finished once every slot has its
result. It is idempotent and safe to run twice at once: a lock lets one run at a time, each
slot is claimed in Redis before its game is created (`api.tournament_store`), and results are
recorded once per slot.

What runs it:
- the API enqueues it when a tournament is created;
- `play_turn` runs it, in the worker, when a bot's move ended a tournament game (no wait
  for the next game; `game_ended`);
- the sweeper thread of every worker (one elected pass a second) calls `poll`, which
  enqueues it for any active tournament with a game ended by a human move, a free place, or
  a claim left by a killed worker: a tournament resumes by itself after any restart.

Two Redis: the tournaments and their games are in the game store (`games`: one node or a
Redis Cluster), the scheduler's job and its "kicked" mark on the queues' Redis (`queues`,
BGB_QUEUE_URL); on one node both are the same client.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
import uuid
from typing import Any

import redis
from rq import get_current_job

import core
from api import keys
from api.botauth import BotTokenVerifier
from api.botqueue import BotQueue
from api.creation import start_game
from api.events import VersionWatcher
from api.notify import entrant_account, entrant_accounts, notify_tournament
from api.redis_conn import GameClient, worker_games
from api.services import Services
from api.store import OVER, Retention, StateCache, Store
from api.tournament_plan import deal_of, slots
from api.tournament_secrecy import busy_entrants, waits_for_sibling
from api.tournament_store import ACTIVE, TournamentStore, claim_age, is_claim, kick

log = logging.getLogger(__name__)

# A run takes milliseconds; a scheduler killed while holding the lock delays the next run
# by this much at most.
LOCK_MS = 10_000
LOCK_WAIT_SECONDS = 3.0
# A claim older than this belongs to a scheduler that died between claiming and settling
# (creating a game takes milliseconds).
CLAIM_STALE_SECONDS = 15.0
POLL_LOCK = f"{keys.PREFIX}:tournament-poll-lock"

# KEYS: lock; ARGV: token -> deletes the lock only if it is still ours
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _connections() -> tuple[GameClient, redis.Redis]:
    """(the game store, the queues' Redis) of the running RQ job."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("advance runs as an RQ job (or pass a connection)")
    return worker_games(job.connection), job.connection


def retention() -> Retention:
    """Games' retention as the API's environment sets it (BGB_ABANDON_AFTER,
    BGB_RETAIN_FINISHED): the games a worker creates expire as the API's do."""
    from api import DEFAULTS, parse_duration

    def seconds(name: str) -> float:
        text = os.environ.get(f"BGB_{name}")
        return parse_duration(text) if text else float(DEFAULTS[name])

    return Retention(abandon_after_ms=int(seconds("ABANDON_AFTER") * 1000),
                     retain_finished_ms=int(seconds("RETAIN_FINISHED") * 1000))


def tournament_store(connection: GameClient) -> TournamentStore:
    """The tournaments in the game store, ended ones kept as long as games."""
    return TournamentStore(connection, retention().retain_finished_ms)


def services_for(connection: GameClient, queues: redis.Redis | None = None) -> Services:
    """The API's services on the worker's game store and queues (for `start_game`)."""
    store = Store(connection, retention=retention())
    queue_client: Any = connection if queues is None else queues
    return Services(redis=connection, store=store, cache=StateCache(8),  # type: ignore[arg-type]
                    bot_queue=BotQueue(queue_client),
                    bot_tokens=BotTokenVerifier(connection),  # type: ignore[arg-type]
                    watcher=VersionWatcher(connection, store),  # type: ignore[arg-type]
                    config={}, queues=queue_client)


def advance(tournament_id: str, connection: GameClient | None = None,
            queues: redis.Redis | None = None) -> str:
    """Record ended games, start the next ones, finish the tournament when all are played;
    returns what it did (for the job log). `connection`: the game store, `queues`: the
    queues' Redis (default: the same); both the running job's when not given."""
    if connection is None:
        connection, queues = _connections()
    queue_client: Any = connection if queues is None else queues
    queue_client.delete(keys.tournament_kick(tournament_id))
    token = uuid.uuid4().hex
    lock = keys.tournament_lock(tournament_id)
    # Another run holds the lock for milliseconds: wait for it rather than leave the game
    # that just ended to the next poll (a second later).
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while not connection.set(lock, token, nx=True, px=LOCK_MS):
        if time.monotonic() > deadline:
            return "busy"  # the next poll does the work
        time.sleep(0.02)
    try:
        return _advance(tournament_store(connection), connection, queue_client, tournament_id)
    finally:
        connection.eval(_UNLOCK, 1, lock, token)


def _advance(store: TournamentStore, connection: GameClient, queues: redis.Redis,
             tournament_id: str) -> str:
    info = store.info(tournament_id)
    if info is None:
        return "gone"
    spec = info["spec"]
    plan = _plan(tournament_id, spec)
    games = store.games(tournament_id)
    results = store.recorded(tournament_id)
    now = time.time()
    for slot, value in list(games.items()):
        if is_claim(value) and claim_age(value, now) > CLAIM_STALE_SECONDS:
            _recover(store, connection, tournament_id, plan[slot], value)
    games = store.games(tournament_id)
    recorded = _record_ended(store, connection, tournament_id, games, results)
    if info["status"] != ACTIVE:
        store.follow_expiry(tournament_id)  # the results just recorded expire with the rest
        return f"{info['status']}; recorded {recorded}"
    running = [slot for slot in games if slot not in results]
    in_progress = len(running)
    # Two games of one deal never seat the same external entrant at once (its seats in both
    # would show it two seats' hidden cards of one deal): see api.tournament_secrecy.
    busy = busy_entrants(spec, plan, running)
    started = 0
    svc: Services | None = None
    for entry in plan:
        if in_progress >= int(spec["max_parallel"]):
            break
        if entry["slot"] in games or waits_for_sibling(entry, busy):
            continue
        svc = svc or services_for(connection, queues)
        if _start(store, svc, tournament_id, info["nonce"], spec, entry):
            started += 1
        in_progress += 1
        busy |= busy_entrants(spec, plan, [entry["slot"]])
    if len(results) >= len(plan) and store.end(tournament_id, "finished"):
        notify_tournament(connection, tournament_id, entrant_accounts(tournament_id, spec),
                          "tournament_finished", "finished")
        return f"finished; recorded {recorded}"
    if started:
        store.announce(tournament_id)
    return f"recorded {recorded}, started {started}"


def _start(store: TournamentStore, svc: Services, tournament_id: str, nonce: str,
           spec: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Claim a slot and create its game; False if the slot was not ours to start."""
    slot = entry["slot"]
    claim = f"claim:{time.time()}:{secrets.token_hex(4)}"
    if not store.claim(tournament_id, slot, claim):
        return False
    game = core.get_game(spec["game"])
    deal = deal_of(spec, nonce, entry["deal"], secrets.token_hex(16))
    # The seats of external entrants belong to their accounts: their streams hear of the
    # game from start_game on (api.notify).
    accounts = {str(seat): entrant_account(tournament_id, index)
                for seat, index in enumerate(entry["entrants"])
                if index is not None and spec["entrants"][index]["kind"] == "external"}
    created = start_game(svc, game, entry["options"], entry["seats"], deal,
                         {"tournament": {"id": tournament_id, "slot": slot},
                          **({"accounts": accounts} if accounts else {})},
                         clock=spec.get("clock"))
    tokens = {int(s["seat"]): str(s["token"]) for s in created["seats"] if s.get("token")}
    if tokens:
        store.save_tokens(tournament_id, slot, tokens)
    if not store.swap(tournament_id, slot, claim, created["id"]):
        # Our claim was taken over (we stalled past CLAIM_STALE_SECONDS): this game must not
        # be played beside the one the slot got.
        _abort(svc.store, created["id"])
        return False
    if store.status(tournament_id) != ACTIVE:
        _abort(svc.store, created["id"])  # cancelled while we created it
    return True


def _abort(store: Store, game_id: str) -> None:
    from api.store import new_epoch

    store.abort(game_id, {"seat": None, "move": {"type": "abort"},
                          "events": [{"type": "aborted", "by": "tournament"}]}, new_epoch())


def _recover(store: TournamentStore, connection: GameClient, tournament_id: str,
             entry: dict[str, Any], claim: str) -> None:
    """Settle a dead scheduler's claim: to the game it created if one was stored (and its
    external seats' tokens were kept), else free the slot for a fresh game."""
    slot = entry["slot"]
    game_id = find_game(connection, tournament_id, slot)
    needs_tokens = any(seat["kind"] == "human" for seat in entry["seats"])
    if game_id is not None and needs_tokens and slot not in store.tokens(tournament_id):
        _abort(Store(connection), game_id)  # nobody can play its external seats
        game_id = None
    if game_id is not None:
        store.swap(tournament_id, slot, claim, game_id)
    else:
        store.swap(tournament_id, slot, claim, "")
    log.warning("tournament %s slot %s: stale claim settled to %s", tournament_id, slot,
                game_id or "a fresh game")


def find_game(connection: GameClient, tournament_id: str, slot: int) -> str | None:
    """The game created for a slot, found by its metadata (a scan of every game's metadata,
    on every master of a cluster: only ever needed after a scheduler died mid-creation)."""
    wanted = {"id": tournament_id, "slot": slot}
    names = list(connection.scan_iter(match=keys.game_meta("*"), count=1000))
    for start in range(0, len(names), 500):
        batch = names[start:start + 500]
        pipe = connection.pipeline(transaction=False)  # GETs: keys of many slots
        for name in batch:
            pipe.get(name)
        for name, raw in zip(batch, pipe.execute(), strict=True):
            if raw is None or b'"tournament"' not in raw:
                continue
            if json.loads(raw).get("tournament") == wanted:
                text = name.decode() if isinstance(name, bytes) else name
                return text.split("{", 1)[1].split("}", 1)[0]
    return None


def _record_ended(store: TournamentStore, connection: GameClient, tournament_id: str,
                  games: dict[int, str], results: set[int]) -> int:
    """Record every ended game not recorded yet (adding its slot to `results`); how many."""
    pending = [(slot, game_id) for slot, game_id in sorted(games.items())
               if slot not in results and not is_claim(game_id)]
    if not pending:
        return 0
    pipe = connection.pipeline(transaction=False)
    for _, game_id in pending:
        pipe.hget(keys.game_state(game_id), "status")
    recorded = 0
    for (slot, game_id), status in zip(pending, pipe.execute(), strict=True):
        text = status.decode() if isinstance(status, bytes) else status
        if text not in OVER:
            continue
        record = ended_game(connection, game_id, text)
        if store.record(tournament_id, slot, record):
            recorded += 1
        results.add(slot)
    return recorded


def ended_game(connection: GameClient, game_id: str, status: str) -> dict[str, Any]:
    """What a tournament keeps of an ended game: its status, result and forfeits."""
    result = None
    if status == "finished":
        meta = json.loads(connection.get(keys.game_meta(game_id)) or "{}")
        snapshot = connection.hget(keys.game_state(game_id), "snapshot")
        game = core.get_game(meta["game"])
        result = game.result(game.load(json.loads(snapshot)))
    forfeits = sorted((json.loads(f) for f in
                       connection.hvals(keys.game_forfeits(game_id))),
                      key=lambda f: f["version"])
    return {"game_id": game_id, "status": status, "result": result, "forfeits": forfeits}


def poll(connection: redis.Redis, interval_ms: int = 900,
         game_store: GameClient | None = None) -> list[str]:
    """Kick the scheduler of every active tournament that has something to do (a game ended,
    a free place, a stale claim); one elected poller per pass. The tournaments kicked.
    `connection`: the queues' Redis (the election, the jobs); `game_store`: the games and
    tournaments (default: the same)."""
    if not connection.set(POLL_LOCK, "1", nx=True, px=interval_ms):
        return []
    store = TournamentStore(connection if game_store is None else game_store)
    kicked = []
    now = time.time()
    for tournament_id in store.active():
        info = store.info(tournament_id)
        if info is None or (store.split and info["status"] != ACTIVE):
            # Gone, or (a cluster) ended by a process that died before unlisting it.
            store.forget(tournament_id)
            continue
        games = store.games(tournament_id)
        results = store.recorded(tournament_id)
        pending = [g for s, g in games.items() if s not in results]
        due = (len(pending) < int(info["spec"]["max_parallel"]) and len(games) < info["total"]
               and _startable(tournament_id, info["spec"], games, results)
               ) or len(results) >= info["total"]
        due = due or any(is_claim(g) and claim_age(g, now) > CLAIM_STALE_SECONDS
                         for g in pending)
        if not due:
            ids = [g for g in pending if not is_claim(g)]
            pipe = store.client.pipeline(transaction=False)
            for game_id in ids:
                pipe.hget(keys.game_state(game_id), "status")
            due = any((s.decode() if isinstance(s, bytes) else s) in OVER
                      for s in pipe.execute())
        if due and kick(connection, tournament_id):
            kicked.append(tournament_id)
    return kicked


_PLANS: dict[str, list[dict[str, Any]]] = {}


def _plan(tournament_id: str, spec: dict[str, Any]) -> list[dict[str, Any]]:
    """A tournament's slots, computed once per process (a spec never changes; never mutated)."""
    plan = _PLANS.get(tournament_id)
    if plan is None:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        plan = _PLANS[tournament_id] = slots(spec)
    return plan


def _startable(tournament_id: str, spec: dict[str, Any], games: dict[int, str],
               results: set[int]) -> bool:
    """Whether some unscheduled slot may start now (not one waiting for a sibling game of
    its deal to end)."""
    plan = _plan(tournament_id, spec)
    busy = busy_entrants(spec, plan, [slot for slot in games if slot not in results])
    return any(entry["slot"] not in games and not waits_for_sibling(entry, busy)
               for entry in plan)


def game_ended(connection: GameClient, game_id: str, queues: redis.Redis | None = None) -> None:
    """A game just ended (a bot's last move): its tournament, if any, records it and starts
    the next game now, in this worker.

    Not by a scheduler job queued behind the bot turns: with every worker busy with a
    game's turns (a job plays them for up to half a second), that job waited its turn and
    the tournament ran with fewer games than `max_parallel` meanwhile. Should this fail, or
    another run hold the tournament's lock too long, the job is queued as before."""
    raw = connection.get(keys.game_meta(game_id))
    if raw is None or b'"tournament"' not in raw:
        return
    tournament = json.loads(raw).get("tournament")
    if not isinstance(tournament, dict) or not tournament.get("id"):
        return
    tournament_id = str(tournament["id"])
    queue_client: Any = connection if queues is None else queues
    try:
        done = advance(tournament_id, connection, queue_client)
    except Exception:  # the move is stored whatever happens here: leave it to a job
        log.exception("scheduling tournament %s after game %s", tournament_id, game_id)
        done = "busy"
    if done == "busy":
        kick(queue_client, tournament_id)
