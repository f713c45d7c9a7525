"""Tournaments in Redis: spec and status, the game of each slot, the results, progress.

A slot's game is created at most once: a scheduler first *claims* the slot (a Lua
compare-and-set from nothing to "claim:<time>:<nonce>", refused once the tournament is no
longer active), then creates the game with the slot in the game's metadata, then *settles*
the claim to the game id (compare-and-set from its own claim). A scheduler killed between
the two leaves a stale claim; the next one finds the game by its metadata (or, if none was
stored, releases the claim) before scheduling anything else. A settle that finds its claim
gone (taken over after it stalled) aborts the game it created: no slot is ever played twice.

On a Redis Cluster (docs/scaling.md) a tournament's own keys share its id as a hash tag, so
its scripts run on one slot; the set of active tournaments is global (another slot) and its
progress channel is named after the tournament's watch id (another slot again). There the
set is written around the creation (before and after the tournament's hash: never missing an
active tournament) and cleared after the end script; the sweeper's `poll` drops what a died
process left behind (a tournament that ended or never was). The end is announced after the
script (a lost announcement costs a stream one heartbeat).
"""

from __future__ import annotations

import json
import time
from typing import Any

import redis
from redis.cluster import RedisCluster

from api import keys
from api.redis_conn import GameClient, announce

ACTIVE = "active"
ENDED = ("finished", "cancelled")

# KEYS: tournament hash, games hash; ARGV: slot, claim -> 1 if claimed
_CLAIM = """
if redis.call('HGET', KEYS[1], 'status') ~= 'active' then return 0 end
return redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
"""

# KEYS: games hash; ARGV: slot, expected value, new value ("" deletes) -> 1 if swapped
_SWAP = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1])
else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1
"""

# KEYS: tournament hash, active set, channel, then its other keys (games, results, tokens)
# ARGV: new status, now, id, retention (ms; 0 keeps it for ever), split ("1": the set and the
# channel are the caller's, in other slots; KEYS[2] and KEYS[3] are then the hash again)
_END = """
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'active' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'finished_at', ARGV[2])
if ARGV[5] ~= '1' then redis.call('SREM', KEYS[2], ARGV[3]) end
if tonumber(ARGV[4]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  for i = 4, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
end
if ARGV[5] ~= '1' then redis.call('PUBLISH', KEYS[3], 'end') end
return 1
"""

# KEYS: tournament hash, then its other keys -> gives the others the hash's expiry (a key
# written after the tournament ended, e.g. the results of the games its cancellation aborted)
_FOLLOW_EXPIRY = """
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return 0 end
for i = 2, #KEYS do
  if redis.call('PTTL', KEYS[i]) == -1 then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1
"""

# The default retention of an ended tournament: as long as an ended game's (api.store).
DEFAULT_RETAIN_MS = 90 * 24 * 3600 * 1000


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


def is_claim(value: str) -> bool:
    """Whether a slot's value is a claim (its game not known yet) rather than a game id."""
    return value.startswith("claim:")


def claim_age(value: str, now: float) -> float:
    """Seconds since a claim was made."""
    try:
        return now - float(value.split(":")[1])
    except (IndexError, ValueError):
        return float("inf")


class TournamentStore:
    """Tournaments in one Redis database.

    Retention: an active tournament's keys never expire (it ends by itself: its games are
    abandoned at the latest); once finished or cancelled, all its keys expire `retain_ms`
    after its end (BGB_RETAIN_FINISHED, as an ended game's; 0 keeps them for ever). Its
    games expire on their own clock, each that long after it ended; the tournament's results
    keep what the standings need.
    """

    def __init__(self, client: GameClient, retain_ms: int = DEFAULT_RETAIN_MS,
                 split: bool | None = None) -> None:
        self.client = client
        self.retain_ms = retain_ms
        # On a cluster the active set and the progress channel are in other slots than the
        # tournament's keys: written beside its scripts, not by them (see the module's doc).
        self.split = isinstance(client, RedisCluster) if split is None else split
        self._claim = client.register_script(_CLAIM)
        self._swap = client.register_script(_SWAP)
        self._end = client.register_script(_END)
        self._follow_expiry = client.register_script(_FOLLOW_EXPIRY)

    def create(self, tournament_id: str, spec: dict[str, Any], nonce: str,
               creator_sha256: str, total: int) -> None:
        """Store a new active tournament."""
        fields = {"spec": json.dumps(spec, separators=(",", ":")), "status": ACTIVE,
                  "nonce": nonce, "creator_sha256": creator_sha256, "created": time.time(),
                  "total": total}
        if self.split:
            # Two slots: listed ahead (a process dying next leaves an entry `poll` drops),
            # stored, listed again (in case a poll dropped it as unknown in between).
            self.client.sadd(keys.tournaments_active(), tournament_id)
            self.client.hset(keys.tournament(tournament_id), mapping=fields)
            self.client.sadd(keys.tournaments_active(), tournament_id)
            return
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(keys.tournament(tournament_id), mapping=fields)
        pipe.sadd(keys.tournaments_active(), tournament_id)
        pipe.execute()

    def info(self, tournament_id: str) -> dict[str, Any] | None:
        """{"spec", "status", "nonce", "creator_sha256", "created", "finished_at", "total"},
        or None for an unknown tournament."""
        raw = self.client.hgetall(keys.tournament(tournament_id))
        if not raw:
            return None
        found = {_text(k): _text(v) for k, v in raw.items()}
        return {"spec": json.loads(found["spec"] or "{}"), "status": found["status"],
                "nonce": found["nonce"], "creator_sha256": found.get("creator_sha256"),
                "created": float(found.get("created") or 0),
                "finished_at": float(found["finished_at"]) if found.get("finished_at")
                else None, "total": int(found.get("total") or 0)}

    def status(self, tournament_id: str) -> str | None:
        """A tournament's status (None for an unknown one)."""
        return _text(self.client.hget(keys.tournament(tournament_id), "status"))

    def active(self) -> list[str]:
        """The ids of the tournaments being played."""
        return sorted(_text(t) or "" for t in self.client.smembers(keys.tournaments_active()))

    def games(self, tournament_id: str) -> dict[int, str]:
        """Slot -> game id (or claim) of every scheduled slot."""
        raw = self.client.hgetall(keys.tournament_games(tournament_id))
        return {int(k): _text(v) or "" for k, v in raw.items()}

    def results(self, tournament_id: str) -> dict[int, dict[str, Any]]:
        """Slot -> {"game_id", "status", "result"} of every ended game."""
        raw = self.client.hgetall(keys.tournament_results(tournament_id))
        return {int(k): json.loads(v) for k, v in raw.items()}

    def recorded(self, tournament_id: str) -> set[int]:
        """The slots whose ended game is recorded (their results unread: the scheduler and
        the sweeper need only which)."""
        return {int(k) for k in self.client.hkeys(keys.tournament_results(tournament_id))}

    def progress(self, tournament_id: str) -> dict[str, Any] | None:
        """{"status", "total", "finished", "in_progress"} (one round trip), None if unknown."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hmget(keys.tournament(tournament_id), ["status", "total"])
        pipe.hlen(keys.tournament_games(tournament_id))
        pipe.hlen(keys.tournament_results(tournament_id))
        (status, total), scheduled, ended = pipe.execute()
        if status is None:
            return None
        return {"status": _text(status), "total": int(total or 0), "finished": int(ended),
                "in_progress": int(scheduled) - int(ended)}

    def claim(self, tournament_id: str, slot: int, claim: str) -> bool:
        """Claim an unscheduled slot of an active tournament."""
        return bool(self._claim(keys=[keys.tournament(tournament_id),
                                      keys.tournament_games(tournament_id)],
                                args=[slot, claim]))

    def swap(self, tournament_id: str, slot: int, expected: str, new: str) -> bool:
        """Replace a slot's value if it is still `expected` ("" for `new` frees the slot)."""
        return bool(self._swap(keys=[keys.tournament_games(tournament_id)],
                               args=[slot, expected, new]))

    def record(self, tournament_id: str, slot: int, record: dict[str, Any]) -> bool:
        """Record a slot's ended game once; True if this call recorded it."""
        done = bool(self.client.hsetnx(keys.tournament_results(tournament_id), str(slot),
                                       json.dumps(record, separators=(",", ":"))))
        if done:
            self.announce(tournament_id)
        return done

    def save_tokens(self, tournament_id: str, slot: int, tokens: dict[int, str]) -> None:
        """Keep the seat tokens of a slot's external entrants (they fetch them by their own
        entrant token)."""
        self.client.hset(keys.tournament_tokens(tournament_id), str(slot),
                         json.dumps({str(s): t for s, t in tokens.items()}))

    def tokens(self, tournament_id: str) -> dict[int, dict[int, str]]:
        """Slot -> {seat: token} of the external entrants' seats."""
        raw = self.client.hgetall(keys.tournament_tokens(tournament_id))
        return {int(k): {int(s): t for s, t in json.loads(v).items()} for k, v in raw.items()}

    def end(self, tournament_id: str, status: str) -> bool:
        """Mark an active tournament finished or cancelled; False if it was not active."""
        channel = keys.version_channel(keys.tournament_watch_id(tournament_id))
        hash_key = keys.tournament(tournament_id)
        ended = bool(self._end(
            keys=[hash_key, hash_key if self.split else keys.tournaments_active(),
                  hash_key if self.split else channel, *self._data_keys(tournament_id)],
            args=[status, time.time(), tournament_id, self.retain_ms,
                  "1" if self.split else "0"]))
        if ended and self.split:
            # Its other slots: a process dying here leaves an ended tournament listed as
            # active, which `poll` drops.
            self.client.srem(keys.tournaments_active(), tournament_id)
            announce(self.client, channel, "end")
        return ended

    def forget(self, tournament_id: str) -> None:
        """Drop a tournament that ended or is gone from the active set (the sweeper's repair
        of an end or a creation a process did not finish)."""
        self.client.srem(keys.tournaments_active(), tournament_id)

    def follow_expiry(self, tournament_id: str) -> None:
        """Give an ended tournament's keys written since its end the expiry of the others."""
        self._follow_expiry(keys=[keys.tournament(tournament_id),
                                  *self._data_keys(tournament_id)])

    @staticmethod
    def _data_keys(tournament_id: str) -> list[str]:
        return [keys.tournament_games(tournament_id), keys.tournament_results(tournament_id),
                keys.tournament_tokens(tournament_id)]

    def announce(self, tournament_id: str) -> None:
        """Wake the tournament's event streams (its progress changed)."""
        announce(self.client, keys.version_channel(keys.tournament_watch_id(tournament_id)),
                 "progress")


SCHEDULER_FUNCTION = "ai_worker.tournaments.advance"
KICK_SECONDS = 10


def kick(client: redis.Redis, tournament_id: str) -> bool:
    """Enqueue the tournament's scheduler job unless one is already waiting on the queue
    (the job clears the mark as it starts; the mark expires if the job is lost). `client`
    is the queues' Redis (BGB_QUEUE_URL; the mark lives beside the job)."""
    from rq import Queue

    from api.botqueue import QUEUE_NAME
    from api.retries import retry_options

    if not client.set(keys.tournament_kick(tournament_id), "1", nx=True, ex=KICK_SECONDS):
        return False
    Queue(QUEUE_NAME, connection=client).enqueue_call(
        SCHEDULER_FUNCTION, args=(tournament_id,), timeout=300, result_ttl=60,
        failure_ttl=24 * 3600, **retry_options([1, 2, 5]),
        description=f"schedule the games of tournament {tournament_id}")
    return True
