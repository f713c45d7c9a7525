"""The games in Redis: metadata, the latest snapshot and version, the move log, idempotency.

A move is stored by one Lua script that checks the version and writes the snapshot, the
version, the log entry, the idempotency record, the pending bot turn and the version
announcement together: two racing writers can never both succeed on one version, and
nothing is acknowledged before the script returned.

Every write of a snapshot also writes a fresh random `epoch`. Processes cache a loaded state
under (version, epoch), never the version alone: if Redis ever loses an acknowledged write
(failover to a lagging replica, a restored backup), the version it falls back to comes with
another epoch, so no process goes on serving, or accepting moves against, a state that
Redis no longer holds.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from redis.cluster import RedisCluster

from api import keys
from api.lean_script import Held
from api.redis_conn import Durability, GameClient, GameScript

try:
    import orjson
except ImportError:  # a dependency; without it the standard library's encoder does
    orjson = None  # type: ignore[assignment]

IDEMPOTENCY_TTL_SECONDS = 24 * 3600

# A game as a request needs it: its head, its snapshot unless the caller holds the current one,
# its seats. read_game(state hash, seats hash, version the caller holds, its epoch; "" for
# none) -> false for an unknown game, else {version, to_act, status, snapshot or false when
# the caller's (version, epoch) is current, epoch, the seats hash as a flat list, updated,
# number of forfeited bot moves, clock state ("" for none: api.clocks)}
_READ_GAME = """
local function read_game(state_key, seats_key, cached_version, cached_epoch)
  local head = redis.call('HMGET', state_key, 'version', 'to_act', 'status', 'epoch',
                          'updated', 'forfeits', 'clock')
  if not head[1] then return false end
  local epoch = head[4] or ''
  local snapshot = false
  if head[1] ~= cached_version or epoch ~= cached_epoch then
    snapshot = redis.call('HGET', state_key, 'snapshot')
  end
  return {head[1], head[2], head[3], snapshot, epoch, redis.call('HGETALL', seats_key),
          head[5] or '0', head[6] or '0', head[7] or ''}
end
"""

# A process may answer from the metadata it read at an earlier request if the script that
# reads (or writes) the game's state checks, in the same step, that Redis still holds that
# metadata: meta_is(meta key, sha1 hex of the metadata's text; "" for no check).
_META_IS = """
local function meta_is(meta_key, digest)
  if digest == '' then return true end
  local meta = redis.call('GET', meta_key)
  return meta ~= false and redis.sha1hex(meta) == digest
end
"""

# KEYS: state hash, idempotency record (or a dummy key in the same slot), seats hash, meta
# ARGV: version the caller has cached ("" for none), "1" to read the idempotency record,
#       epoch the caller has cached, sha1 of the metadata the caller holds ("" for none)
# -> false for an unknown game, else {the game as read_game reads it, idempotency record or
#    false, 1 if the metadata is the caller's (or unchecked) else 0}
_READ = _READ_GAME + _META_IS + """
local game = read_game(KEYS[1], KEYS[3], ARGV[1], ARGV[3])
if not game then return false end
local record = false
if ARGV[2] == '1' then record = redis.call('GET', KEYS[2]) end
return {game, record, meta_is(KEYS[4], ARGV[4]) and 1 or 0}
"""

# Every write sets the expiry of all of a game's keys (retention, README): while the game
# runs, abandon-after + retain-finished from its last write; once over, retain-finished.
# KEYS[1] is always the state hash; the others listed in EXPIRE_KEYS are passed after the
# script's own keys.
_EXPIRE = """
local function expire_game(first, ttl_ms)
  if tonumber(ttl_ms) <= 0 then return end
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
  for i = first, #KEYS do redis.call('PEXPIRE', KEYS[i], ttl_ms) end
end
"""

# An idempotency record stands for a stored move only while the game's log holds that move's
# entry: a game rolled back (a restored backup, a failover to a lagging replica) may hold an
# older log than its records, and a retry must not be answered 200 for a move the game no
# longer has. A record starts with {"log_index": N, "entry_sha1": "<sha1 of the entry as
# pushed>"}: held(record, log) compares that entry with the log's. A record without them
# (written before they were) is trusted as it was then.
_HELD = """
local function held(record, log_key)
  local index, digest = string.match(record, '^{"log_index":(%d+),"entry_sha1":"(%x+)"')
  if not index then return true end
  local entry = redis.call('LINDEX', log_key, tonumber(index))
  return entry ~= false and redis.sha1hex(entry) == digest
end
"""

# A replay waited for by replicas (BGB_MIN_REPLICAS) writes its record again, unchanged, so
# that the WAIT after it covers the move: WAIT counts the replicas that reached the offset of
# the connection's own last write (Redis 7.0 also moves that offset on a read), and a
# replay's connection (another API node's, say) may have written nothing since before the
# move, whose first answer was a 503 because no replica had it. The record written again
# comes after the move in the replication stream.
_REWRITE = """
local function rewrite(key, record, wanted)
  if wanted == '1' then redis.call('SET', key, record, 'KEEPTTL') end
end
"""

# KEYS: idempotency record, move log; ARGV: "1" if replicas must confirm it (then the record
# is written again, see _REWRITE) -> the record if the log still holds its move, else
# false (and a record whose move is gone is deleted: the key is free again).
_RECORD = _HELD + _REWRITE + """
local record = redis.call('GET', KEYS[1])
if not record then return false end
if held(record, KEYS[2]) then
  rewrite(KEYS[1], record, ARGV[1])
  return record
end
redis.call('DEL', KEYS[1])
return false
"""

# KEYS: state hash, move log, idempotency record (or dummy), bot turns zset, version channel,
#       clock deadlines zset (on a cluster both zsets are the state key again: the caller
#       writes them, Store.split_indexes), then the game's other keys to expire: meta, seats
#       (also compared), forfeits
# ARGV: expected version, new version, snapshot, to_act ("" when over), status, log entry,
#       idempotency record ("" for none), idempotency ttl, game id, "1" if a bot acts next, now,
#       the new epoch, now (ms, for 'updated'), expiry if active (ms), expiry if over (ms),
#       the forfeit record of a bot's move played as a random one ("" for none), the epoch
#       the move was decided on, the bot job that plays the next turn itself ("" for
#       none), the number n of seats fields it saw, the sha1 of the metadata it was decided
#       with ("" for no check), the new clock state ("" for a game without a clock), the
#       deadline of the seat to act (ms, "" for none), when to warn it ("" for never), "1"
#       to announce the version with SPUBLISH (a cluster's sharded pub/sub) else PUBLISH,
#       "1" if replicas must confirm a replay (its record is then written again: _REWRITE),
#       then those n (field, value) pairs of the seats hash
# -> {"ok"} | {"replay", record} | {"changed", the game as read_game reads it now}
# The move is stored only if the game is exactly as the caller decided it on: same version,
# same snapshot (epoch), same seats (tokens, resignations) and same metadata. Else nothing
# is written and the game comes back as it is now, so that the caller decides again without
# another read.
_COMMIT = _EXPIRE + _READ_GAME + _HELD + _META_IS + _REWRITE + """
if ARGV[7] ~= '' then
  local record = redis.call('GET', KEYS[3])
  if record then
    if held(record, KEYS[2]) then
      rewrite(KEYS[3], record, ARGV[25])
      return {'replay', record}
    end
    redis.call('DEL', KEYS[3])  -- its move is no longer in the log: this is a new request
  end
end
local head = redis.call('HMGET', KEYS[1], 'version', 'epoch')
local same = head[1] == ARGV[1] and (head[2] or '') == ARGV[17]
local fields = tonumber(ARGV[19])
if same and redis.call('HLEN', KEYS[8]) ~= fields then same = false end
local i = 0
while same and i < fields do
  if redis.call('HGET', KEYS[8], ARGV[26 + 2 * i]) ~= ARGV[27 + 2 * i] then same = false end
  i = i + 1
end
if same and not meta_is(KEYS[7], ARGV[20]) then same = false end
if not same then return {'changed', read_game(KEYS[1], KEYS[8], ARGV[1], ARGV[17])} end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'snapshot', ARGV[3], 'to_act', ARGV[4],
           'status', ARGV[5], 'epoch', ARGV[12], 'updated', ARGV[13])
if ARGV[18] ~= '' then
  redis.call('HSET', KEYS[1], 'bot_job', ARGV[18])
else
  redis.call('HDEL', KEYS[1], 'bot_job')
end
redis.call('RPUSH', KEYS[2], ARGV[6])
if ARGV[16] ~= '' then
  redis.call('HSET', KEYS[9], ARGV[1], ARGV[16])
  redis.call('HINCRBY', KEYS[1], 'forfeits', 1)
end
-- The clock moves with the move, in the same step (api.clocks): the deadline of the seat to
-- act, for the sweeper, is in the deadlines zset exactly while one runs (and its warning,
-- member "warn:<id>", while one is due). A game without a clock touches none of it.
-- On a cluster the indexes are in other slots: KEYS[4] and KEYS[6] are then the state key
-- again and the caller writes the indexes itself (Store.split_indexes).
local indexed = KEYS[4] ~= KEYS[1]
if ARGV[21] ~= '' then
  redis.call('HSET', KEYS[1], 'clock', ARGV[21])
end
if ARGV[21] ~= '' and indexed then
  if ARGV[22] ~= '' then
    redis.call('ZADD', KEYS[6], tonumber(ARGV[22]), ARGV[9])
  else
    redis.call('ZREM', KEYS[6], ARGV[9])
  end
  if ARGV[23] ~= '' then
    redis.call('ZADD', KEYS[6], tonumber(ARGV[23]), 'warn:' .. ARGV[9])
  else
    redis.call('ZREM', KEYS[6], 'warn:' .. ARGV[9])
  end
end
redis.call('PEXPIRE', KEYS[2], ARGV[5] == 'active' and ARGV[14] or ARGV[15])
expire_game(7, ARGV[5] == 'active' and ARGV[14] or ARGV[15])
if ARGV[7] ~= '' then redis.call('SET', KEYS[3], ARGV[7], 'EX', tonumber(ARGV[8])) end
if not indexed then
elseif ARGV[10] == '1' then
  redis.call('ZADD', KEYS[4], tonumber(ARGV[11]), ARGV[9])
else
  redis.call('ZREM', KEYS[4], ARGV[9])
end
redis.call(ARGV[24] == '1' and 'SPUBLISH' or 'PUBLISH', KEYS[5], ARGV[2])
return {'ok'}
"""

# A change of an active game that is not a move of its rules (an abort, a resignation, the
# game found abandoned): a new version, a log entry, a new status, same snapshot.
# KEYS: state hash, move log, bot turns zset, version channel, clock deadlines zset, then
#       meta, seats, forfeits (on a cluster the two zsets are the state key again: the
#       caller writes them, Store.split_indexes)
# ARGV: game id, log entry (its index and version filled in here), new epoch, new status,
#       seat to act ("" for none), "1" if a bot acts next, now (ms), expiry if active (ms),
#       expiry if over (ms), the version the caller read ("" for any), a seat whose state
#       changes with it ("" for none), that seat's new state (JSON), the new clock state
#       ("" to keep it), "1" to announce with SPUBLISH (a cluster) else PUBLISH
# A game over, or a bot to act, has no deadline (api.clocks: bots are not clocked).
# -> {"ok", new version} | {"over", status} | {"stale", current version}
_MARK = _EXPIRE + """
local head = redis.call('HMGET', KEYS[1], 'version', 'status')
if not head[1] then return {'over', ''} end
if head[2] ~= 'active' then return {'over', head[2]} end
if ARGV[10] ~= '' and head[1] ~= ARGV[10] then return {'stale', head[1]} end
local version = tonumber(head[1]) + 1
local entry = cjson.decode(ARGV[2])
entry['index'] = version - 1
entry['version'] = version
redis.call('HSET', KEYS[1], 'version', version, 'to_act', ARGV[5], 'status', ARGV[4],
           'epoch', ARGV[3], 'updated', ARGV[7])
redis.call('HDEL', KEYS[1], 'bot_job')
redis.call('RPUSH', KEYS[2], cjson.encode(entry))
if ARGV[11] ~= '' then redis.call('HSET', KEYS[7], ARGV[11], ARGV[12]) end
if ARGV[13] ~= '' then redis.call('HSET', KEYS[1], 'clock', ARGV[13]) end
local indexed = KEYS[3] ~= KEYS[1]
if not indexed then
elseif ARGV[6] == '1' then
  redis.call('ZADD', KEYS[3], tonumber(ARGV[7]) / 1000, ARGV[1])
else
  redis.call('ZREM', KEYS[3], ARGV[1])
end
if indexed and (ARGV[4] ~= 'active' or ARGV[6] == '1') then
  redis.call('ZREM', KEYS[5], ARGV[1], 'warn:' .. ARGV[1])
end
local ttl = ARGV[4] == 'active' and ARGV[8] or ARGV[9]
redis.call('PEXPIRE', KEYS[2], ttl)
expire_game(6, ttl)
redis.call(ARGV[14] == '1' and 'SPUBLISH' or 'PUBLISH', KEYS[4], version)
return {'ok', version}
"""

# A new game: its metadata and version 0, and (unless split) its pending bot turn and clock.
# KEYS: meta, state hash, bot turns zset, clock deadlines zset (both the state key again when
#       the caller writes them: Store.split_indexes)
# ARGV: metadata, version, snapshot, epoch, to_act, status, updated (ms), clock ("" for
#       none), expiry (ms, 0 for none), game id, "1" if a bot acts, now (s), deadline ("" for
#       none), when to warn ("" for none)
_CREATE = """
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'version', ARGV[2], 'snapshot', ARGV[3], 'epoch', ARGV[4],
           'to_act', ARGV[5], 'status', ARGV[6], 'updated', ARGV[7])
if ARGV[8] ~= '' then redis.call('HSET', KEYS[2], 'clock', ARGV[8]) end
if tonumber(ARGV[9]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[9])
  redis.call('PEXPIRE', KEYS[2], ARGV[9])
end
if KEYS[3] ~= KEYS[2] then
  if ARGV[13] ~= '' then redis.call('ZADD', KEYS[4], tonumber(ARGV[13]), ARGV[10]) end
  if ARGV[14] ~= '' then redis.call('ZADD', KEYS[4], tonumber(ARGV[14]), 'warn:' .. ARGV[10]) end
  if ARGV[11] == '1' then redis.call('ZADD', KEYS[3], tonumber(ARGV[12]), ARGV[10]) end
end
return 1
"""

# A game's status: "active" while someone is to act, "finished" once the rules ended it (or
# a resignation did), "aborted" once its creator stopped it, "abandoned" once nobody moved
# for the abandon-after time. Anything but "active" is over.
OVER = ("finished", "aborted", "abandoned")


@dataclass(frozen=True)
class Retention:
    """How long games are kept (milliseconds; 0: for ever)."""

    abandon_after_ms: int = 30 * 24 * 3600 * 1000
    retain_finished_ms: int = 90 * 24 * 3600 * 1000

    @property
    def active_ttl_ms(self) -> int:
        """An active game's keys expire this long after its last write."""
        if not self.abandon_after_ms or not self.retain_finished_ms:
            return 0
        return self.abandon_after_ms + self.retain_finished_ms


@dataclass(frozen=True)
class Head:
    """A game's version, seat to act and status, without its snapshot."""

    version: int
    to_act: int | None
    status: str
    updated_ms: int = 0  # when it was last written (0: unknown, an older game)
    forfeits: int = 0  # bot moves forfeited for overrunning their budget (see `forfeits`)
    clock: dict[str, Any] | None = None  # the clock state of a game with one (api.clocks)


SeatsSeen = tuple[tuple[bytes, bytes], ...]


@dataclass(frozen=True)
class Read:
    """What a move needs: the head, the snapshot unless the caller's cache is current,
    the idempotency record if one was asked for, the stored snapshot's epoch, and the seats'
    changes (decoded, and as stored: a commit checks them against what it was decided on)."""

    head: Head
    snapshot: str | None
    record: dict[str, Any] | None
    epoch: str = ""
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    seats_seen: SeatsSeen = ()
    meta_current: bool = True  # False: Redis no longer holds the metadata the caller does


@dataclass(frozen=True)
class Commit:
    """The outcome of a compare-and-set: "ok", "replay" (with the first answer of this
    idempotency key) or "changed" (the game is no longer as the move was decided on: how it
    is now, None when it is gone)."""

    outcome: str
    record: dict[str, Any] | None = None
    read: Read | None = None


def _text(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    return value.decode("utf-8") if isinstance(value, bytes) else value


def json_text(value: Any) -> bytes:
    """`value` as compact JSON (orjson when it can: several times faster than json on a
    game's snapshot or view; json for what orjson refuses, such as integers over 64 bits)."""
    if orjson is not None:
        try:
            return orjson.dumps(value)
        except TypeError:
            pass
    return json.dumps(value, separators=(",", ":")).encode("utf-8")


def new_epoch() -> str:
    """A fresh write epoch: 64 random bits."""
    return secrets.token_hex(8)


def _head(version: Any, to_act: Any, status: Any, updated: Any = None,
          forfeits: Any = None, clock: Any = None) -> Head:
    seat = _text(to_act)
    clock_text = _text(clock)
    return Head(int(_text(version) or 0), int(seat) if seat else None, _text(status) or "active",
                int(float(_text(updated) or 0)), int(_text(forfeits) or 0),
                json.loads(clock_text) if clock_text else None)


def _read(game: list[Any], record: dict[str, Any] | None) -> Read:
    """A Read from what the scripts' read_game returned."""
    version, to_act, status, snapshot, epoch, flat, updated, forfeits, clock = game
    seen = tuple((flat[i], flat[i + 1]) for i in range(0, len(flat), 2))
    return Read(_head(version, to_act, status, updated, forfeits, clock),
                _text(snapshot) if snapshot else None, record, _text(epoch) or "",
                {int(seat): json.loads(value) for seat, value in seen}, seen)


class Store:
    """Games in one Redis database."""

    def __init__(self, client: GameClient, meta_cache_size: int = 4096,
                 retention: Retention | None = None, durability: Durability | None = None,
                 split_indexes: bool | None = None) -> None:
        self.client = client
        self.retention = retention or Retention()
        self.durability = durability or Durability()
        # On a Redis Cluster the global indexes (bot turns, clock deadlines) live in other
        # slots than a game's keys: its scripts then leave them to `_index_ahead`, written
        # before the commit, and to the sweepers, which drop stale entries
        # (docs/scaling.md). On one node the scripts keep them exact, in the same step.
        self.split_indexes = (isinstance(client, RedisCluster) if split_indexes is None
                              else split_indexes)
        # Versions are announced on the sharded pub/sub of a cluster (SPUBLISH: heard on the
        # game's shard only), else on plain pub/sub (api.events listens accordingly).
        self.sharded = isinstance(client, RedisCluster)
        # The read and the commit of every request: called on a pooled connection directly
        # (on a cluster: of the node holding the game's slot).
        held = None if isinstance(client, RedisCluster) else Held(client.connection_pool)
        self._read = GameScript(client, _READ, self.durability, held)
        self._commit = GameScript(client, _COMMIT, self.durability, held)
        self._mark = GameScript(client, _MARK, self.durability, held)
        self._create = GameScript(client, _CREATE, self.durability, held)
        self._record = GameScript(client, _RECORD, self.durability, held)
        # Every request reads its game's metadata: on a held connection, as the read and the
        # commit (api.lean_script: about half the CPU of the client's GET).
        self._get = GameScript(client, "return redis.call('GET', KEYS[1])", held=held)
        # The metadata last parsed per game, with the text it was parsed from and its sha1.
        self._meta: OrderedDict[str, tuple[bytes, dict[str, Any], str]] = OrderedDict()
        self._meta_size = meta_cache_size
        self._lock = threading.Lock()

    def _indexes(self, game_id: str) -> tuple[str, str]:
        """The bot turns and clock deadlines keys a script is given: the state key twice when
        the caller writes them itself (see `split_indexes`)."""
        if self.split_indexes:
            return keys.game_state(game_id), keys.game_state(game_id)
        return keys.bot_turns(), keys.clock_deadlines()

    def _index_ahead(self, game_id: str, bot_to_act: bool, clock: dict[str, Any] | None,
                     now: float) -> None:
        """With split indexes: record, before the write that makes them true, the bot turn
        and the clock's deadline and warning a game will have. An entry written for a write
        that then fails, or one a later write made stale, is dropped by the sweepers, which
        check each against the game's state (entries are only ever added here)."""
        if not self.split_indexes:
            return
        deadline = None if clock is None else clock.get("deadline_ms")
        warn = None if clock is None else clock.get("warn_ms")
        if not bot_to_act and deadline is None and warn is None:
            return
        pipe = self.client.pipeline(transaction=False)
        if bot_to_act:
            pipe.zadd(keys.bot_turns(), {game_id: now})
        if deadline is not None:
            pipe.zadd(keys.clock_deadlines(), {game_id: int(deadline)})
        if warn is not None:
            pipe.zadd(keys.clock_deadlines(), {keys.CLOCK_WARNING + game_id: int(warn)})
        pipe.execute()

    def create(self, game_id: str, meta: dict[str, Any], head: Head, snapshot: str,
               bot_to_act: bool, epoch: str) -> None:
        """Store a new game (metadata, version 0 snapshot) and its pending bot turn if any;
        acknowledged once BGB_MIN_REPLICAS replicas have it (else ReplicasBehind)."""
        raw_meta = json.dumps(meta, separators=(",", ":")).encode("utf-8")
        now = time.time()
        clock = head.clock
        self._index_ahead(game_id, bot_to_act, clock, now)
        deadline = None if clock is None else clock.get("deadline_ms")
        warn = None if clock is None else clock.get("warn_ms")
        self._create(
            keys=[keys.game_meta(game_id), keys.game_state(game_id), *self._indexes(game_id)],
            args=[raw_meta, head.version, snapshot, epoch,
                  "" if head.to_act is None else head.to_act, head.status, int(now * 1000),
                  b"" if clock is None else json_text(clock), self._ttl(head.status) or 0,
                  game_id, "1" if bot_to_act else "0", now,
                  "" if deadline is None else int(deadline), "" if warn is None else int(warn)],
            durable=True)
        self._remember_meta(game_id, raw_meta, meta)

    def current_meta(self, game_id: str) -> dict[str, Any] | None:
        """A game's metadata as Redis holds it now, or None for an unknown game (never to be
        changed by the caller).

        Read at every call: the API writes it once, at creation, but Redis is the truth and
        it may change behind this process (an operator's repair, a restored backup, a
        tamper that `bgb verify` must see), so no request trusts what an earlier one read
        unchecked (issue 27: a process served a changed game's old metadata until it
        restarted). Only its parsing is remembered, while the stored text is the same."""
        found = self._fetch_meta(game_id)
        return None if found is None else found[0]

    def meta(self, game_id: str) -> dict[str, Any] | None:
        """A game's metadata as this process last read it (read now if it has none), or
        None for an unknown game: only for what a request may take from an earlier one
        unchecked, the game's name and its number of seats (labels, the rate limits' bot
        check); everything else reads `current_meta`, or `held_meta` checked by a script."""
        held = self.held_meta(game_id)
        return None if held is None else held[0]

    def held_meta(self, game_id: str) -> tuple[dict[str, Any], str] | None:
        """The metadata this process last read of a game (read now if it has none) and its
        digest, or None for an unknown game: to be trusted only once the script reading or
        writing the game's state has checked the digest (`read`, `commit_move`); else
        `current_meta` reads it again."""
        with self._lock:
            found = self._meta.get(game_id)
            if found is not None:
                self._meta.move_to_end(game_id)
                return found[1], found[2]
        return self._fetch_meta(game_id)

    def _fetch_meta(self, game_id: str) -> tuple[dict[str, Any], str] | None:
        """A game's metadata as Redis holds it now and its digest (None: unknown game)."""
        raw = self._get(keys=[keys.game_meta(game_id)], args=[])
        if raw is None:
            return None
        with self._lock:
            found = self._meta.get(game_id)
            if found is not None and found[0] == raw:
                self._meta.move_to_end(game_id)
                return found[1], found[2]
        meta = json.loads(raw)
        return meta, self._remember_meta(game_id, raw, meta)

    def _remember_meta(self, game_id: str, raw: bytes, meta: dict[str, Any]) -> str:
        """Remember a game's metadata parsed from `raw`; its digest (as the scripts' sha1)."""
        digest = hashlib.sha1(raw, usedforsecurity=False).hexdigest()
        with self._lock:
            self._meta[game_id] = (raw, meta, digest)
            self._meta.move_to_end(game_id)
            while len(self._meta) > self._meta_size:
                self._meta.popitem(last=False)
        return digest

    def head(self, game_id: str) -> Head | None:
        """A game's version, seat to act and status, or None for an unknown game."""
        version, to_act, status, updated, clock = self.client.hmget(
            keys.game_state(game_id), ["version", "to_act", "status", "updated", "clock"])
        if version is None:
            return None
        return _head(version, to_act, status, updated, None, clock)

    def read(self, game_id: str, cached: tuple[int, str] | None = None,
             idempotency: tuple[int, str] | None = None, meta_digest: str = "",
             ) -> Read | None:
        """The head, the snapshot unless `cached` (version, epoch) is current, and the
        idempotency record of (seat, key) if given; None for an unknown game. With
        `meta_digest` (of `held_meta`), the Read says whether Redis holds that metadata."""
        record_key = (keys.idempotency(game_id, *idempotency) if idempotency
                      else keys.game_meta(game_id))
        raw = self._read(keys=[keys.game_state(game_id), record_key, keys.game_seats(game_id),
                               keys.game_meta(game_id)],
                         args=["" if cached is None else cached[0],
                               "1" if idempotency else "0",
                               "" if cached is None else cached[1], meta_digest])
        if not raw:
            return None
        read = _read(raw[0], json.loads(raw[1]) if raw[1] else None)
        return read if raw[2] else replace(read, meta_current=False)

    def record(self, game_id: str, idempotency: tuple[int, str]) -> dict[str, Any] | None:
        """The first answer stored for an Idempotency-Key of a seat, if any and if the game's
        log still holds the move it answered (see `_HELD`); with BGB_MIN_REPLICAS, only once
        that many replicas have the move (else ReplicasBehind: not acknowledged yet)."""
        raw = self._record(keys=[keys.idempotency(game_id, *idempotency),
                                 keys.move_log(game_id)],
                           args=["1" if self.durability.replicas else ""], durable=True)
        return json.loads(raw) if raw else None

    def commit_move(self, game_id: str, expected: int, head: Head, snapshot: str | bytes,
                    entry: dict[str, Any], record: dict[str, Any] | None,
                    idempotency: tuple[int, str] | None, bot_to_act: bool,
                    epoch: str, decided_on: tuple[str, SeatsSeen] = ("", ()),
                    bot_job: str | None = None, meta_digest: str = "") -> Commit:
        """Store a move if the game is still as it was decided on: at version `expected`,
        with the snapshot of epoch `decided_on[0]` and the seats `decided_on[1]` (one atomic
        script). `epoch` is the new snapshot's write epoch; `head.updated_ms`, when set, the
        time written. An entry with a `forfeit` (a bot's move played as a random one) is also
        recorded in the game's forfeits, in the same script. `bot_job`, when set, is the
        bot worker's job that plays the next bot turn itself: the state's `bot_job` names it
        until the next write, for the sweeper (which then leaves the turn to that job while
        it lives). `meta_digest`, when set, is the `held_meta` digest of the metadata the
        move was decided with: the move is stored only if Redis still holds it."""
        record_key = (keys.idempotency(game_id, *idempotency) if idempotency
                      else keys.game_meta(game_id))
        decided_epoch, seats = decided_on
        entry_text = json_text(entry)
        record_text = b""
        if record and idempotency:
            # Named by the log entry it answers, first (see `_HELD`).
            record_text = json_text({
                "log_index": int(entry["index"]),
                "entry_sha1": hashlib.sha1(entry_text, usedforsecurity=False).hexdigest(),
                **record})
        clock = head.clock
        deadline = None if clock is None else clock.get("deadline_ms")
        warn = None if clock is None else clock.get("warn_ms")
        bot_turns, deadlines = self._indexes(game_id)
        self._index_ahead(game_id, bot_to_act, clock, time.time())
        outcome = self._commit(
            keys=[keys.game_state(game_id), keys.move_log(game_id), record_key,
                  bot_turns, keys.version_channel(game_id), deadlines,
                  keys.game_meta(game_id), keys.game_seats(game_id),
                  keys.game_forfeits(game_id)],
            args=[expected, head.version, snapshot, "" if head.to_act is None else head.to_act,
                  head.status, entry_text, record_text,
                  IDEMPOTENCY_TTL_SECONDS, game_id, "1" if bot_to_act else "0", time.time(),
                  epoch, head.updated_ms or int(time.time() * 1000),
                  self.retention.active_ttl_ms, self.retention.retain_finished_ms,
                  json.dumps(entry["forfeit"], separators=(",", ":"))
                  if entry.get("forfeit") else "",
                  decided_epoch, bot_job or "", len(seats), meta_digest,
                  b"" if clock is None else json_text(clock),
                  "" if deadline is None else int(deadline), "" if warn is None else int(warn),
                  "1" if self.sharded else "0", "1" if self.durability.replicas else "",
                  *(part for pair in seats for part in pair)],
            durable=True)
        kind = _text(outcome[0])
        if kind == "ok":
            return Commit("ok")
        if kind == "replay":
            return Commit("replay", record=json.loads(outcome[1]))
        return Commit("changed", read=_read(outcome[1], None) if outcome[1] else None)

    def overdue(self, head: Head) -> bool:
        """Whether an active game has had no move for the abandon-after time."""
        limit = self.retention.abandon_after_ms
        return (head.status == "active" and limit > 0 and head.updated_ms > 0
                and time.time() * 1000 - head.updated_ms > limit)

    def _ttl(self, status: str) -> int:
        return (self.retention.active_ttl_ms if status == "active"
                else self.retention.retain_finished_ms)

    def mark(self, game_id: str, entry: dict[str, Any], epoch: str, status: str,
             to_act: int | None = None, bot_to_act: bool = False,
             expected: int | None = None,
             seat_change: tuple[int, dict[str, Any]] | None = None,
             clock: dict[str, Any] | None = None) -> tuple[bool, str | int]:
        """A new version of an active game that is no move of its rules (its log entry is
        `entry`): now `status` with `to_act`, if the game is still active (and at version
        `expected`, when given). (True, new version), or (False, the status that prevented
        it, or "stale" when another version came first). `seat_change` (seat, its whole new
        state in the seats hash) and `clock` (the new clock state) are written in the same
        step; a game over or with a bot to act loses its clock's deadline."""
        bot_turns, deadlines = self._indexes(game_id)
        self._index_ahead(game_id, bot_to_act, None, time.time())
        outcome = self._mark(
            keys=[keys.game_state(game_id), keys.move_log(game_id), bot_turns,
                  keys.version_channel(game_id), deadlines,
                  keys.game_meta(game_id), keys.game_seats(game_id),
                  keys.game_forfeits(game_id)],
            args=[game_id, json.dumps(entry, separators=(",", ":")), epoch, status,
                  "" if to_act is None else to_act, "1" if bot_to_act else "0",
                  int(time.time() * 1000), self.retention.active_ttl_ms,
                  self.retention.retain_finished_ms, "" if expected is None else expected,
                  "" if seat_change is None else seat_change[0],
                  "" if seat_change is None else json_text(seat_change[1]),
                  b"" if clock is None else json_text(clock), "1" if self.sharded else "0"],
            durable=True)
        kind = _text(outcome[0])
        if kind == "ok":
            return True, int(outcome[1])
        if kind == "stale":
            return False, "stale"
        return False, _text(outcome[1]) or ""

    def abort(self, game_id: str, entry: dict[str, Any], epoch: str) -> tuple[bool, str | int]:
        """End an active game as aborted (see `mark`)."""
        return self.mark(game_id, entry, epoch, "aborted")

    def forfeits(self, game_id: str) -> list[dict[str, Any]]:
        """The game's forfeited bot moves, oldest first: {"version" (the one the move was
        chosen against), "seat", "bot", "elapsed_ms", "budget_ms", "grace_ms"}."""
        found = [json.loads(raw) for raw in self.client.hvals(keys.game_forfeits(game_id))]
        return sorted(found, key=lambda forfeit: int(forfeit.get("version", 0)))

    def moves(self, game_id: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """Up to `limit` log entries with index > `after`, and the log's length."""
        pipe = self.client.pipeline(transaction=False)
        pipe.lrange(keys.move_log(game_id), after + 1, after + limit)
        pipe.llen(keys.move_log(game_id))
        entries, length = pipe.execute()
        return [json.loads(e) for e in entries], int(length)

    def ping(self) -> bool:
        """Whether Redis answers."""
        return bool(self.client.ping())


@dataclass(frozen=True)
class Cached:
    """A game's state as this process last read or stored it at (version, epoch); with the
    head and the seats read or written with it, when known (a move decided on them alone is
    stored only if Redis still holds them: see `Store.commit_move`)."""

    version: int
    epoch: str
    state: Any
    head: Head | None = None
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    seats_seen: SeatsSeen = ()


class StateCache:
    """The latest loaded state of recently used games in this process (a small LRU).

    Keyed by game id with the (version, epoch) of the snapshot it was loaded from: a request
    whose (version, epoch) matches what Redis holds skips reading and loading the snapshot;
    anything else reloads it. Cached states are never mutated (moves apply to a clone).
    """

    def __init__(self, size: int = 1024) -> None:
        self._items: OrderedDict[str, Cached] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Cached | None:
        """What is cached for a game, if anything."""
        with self._lock:
            found = self._items.get(game_id)
            if found is not None:
                self._items.move_to_end(game_id)
            return found

    def put(self, game_id: str, version: int, epoch: str, state: Any, head: Head | None = None,
            seats: dict[int, dict[str, Any]] | None = None, seats_seen: SeatsSeen = ()) -> Cached:
        """Remember a game's state as Redis held it at (version, epoch), with its head and
        seats when known; the entry remembered.

        Always replaces the entry: what Redis said last is the truth, even when it is an
        older version than the one cached (a lost write); at worst a request that raced
        with this one reloads the snapshot once.
        """
        entry = Cached(version, epoch, state, head, seats or {}, seats_seen)
        with self._lock:
            self._items[game_id] = entry
            self._items.move_to_end(game_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return entry
