"""The sweeper's side of game clocks: a seat to act past its deadline gets its game's
`on_timeout` (docs/clocks.md).

The move's own script keeps `keys.clock_deadlines()` (member: game id, score: deadline of its
clocked seat to act, epoch ms) exactly while a deadline runs (api.store). Each sweeper pass
takes the games whose deadline has passed and, for each, writes one new version with
`Store.mark`, compare-and-set on the version it read: the log entry, the seat's change (a
bot takes it, or it resigns) and the clock's end, in one script. A move that raced it wins
or loses whole (a late move is refused `time-out` by the API anyway); a second sweeper finds
the version moved on, or no deadline any more, and does nothing.

- `bot`: the seat is handed to `api.clocks.TIMEOUT_BOT` for the rest of the game (not
  ranked last: it did not resign); its player's token is refused `time-out` from then on.
  The rest of the game, not the one turn: a player who ran out of a correspondence day once
  would otherwise hold every later turn to the deadline again.
- `resign`: the seat resigns as `POST /resign` makes it (ranked last; a game of two seats
  ends, else the same bot plays its remaining turns).

The same zset holds, as member "warn:<id>", when the seat to act is warned (api.clocks
`warn_of`): a due warning is taken by one sweeper (removed only while its score is the one
read, so a move's new warning is never lost) and queued as a `deadline_soon` webhook to the
seat's player.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from rq import Queue

from api import keys
from api.botqueue import enqueue_turn
from api.clocks import TIMEOUT_BOT, rfc3339
from api.notify import notify_deadline
from api.seats import effective_seat, seat_states
from api.store import Head, Store, new_epoch
from core import records

log = logging.getLogger(__name__)

# Games with a passed deadline handled per pass (the oldest deadline first).
BATCH = 200


# Takes a due warning: removes it only while it has the score read (a move may have written
# the next seat's since). KEYS: the deadlines zset; ARGV: member, score read -> 1 if taken.
TAKE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"""


def due(connection: redis.Redis, now_ms: int) -> list[tuple[str, float]]:
    """The members (game ids, and warnings "warn:<id>") due by `now_ms` with their scores,
    oldest first."""
    found = connection.zrangebyscore(keys.clock_deadlines(), "-inf", now_ms, start=0, num=BATCH,
                                     withscores=True)
    return [(raw.decode() if isinstance(raw, bytes) else str(raw), score)
            for raw, score in found]


def sweep_clocks(store: Store, queue: Queue, now_ms: int | None = None) -> list[str]:
    """Apply `on_timeout` to every game whose deadline passed and queue the warnings due;
    the ids of the games timed out."""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    changed = []
    for member, score in due(store.client, now_ms):
        try:
            if member.startswith(keys.CLOCK_WARNING):
                warn(store, member.removeprefix(keys.CLOCK_WARNING), score, now_ms,
                     queue.connection)
            elif time_out(store, queue, member, now_ms, score=score):
                changed.append(member)
        except redis.RedisError:
            raise
        except Exception:  # one odd game must not stop the others'
            log.exception("the clock of %s failed", member)
    return changed


def warn(store: Store, game_id: str, score: float, now_ms: int,
         queues: redis.Redis | None = None) -> list[str]:
    """Queue the `deadline_soon` webhook of a game's seat to act, if this sweeper takes the
    warning (scored `score`) and the deadline is still ahead; the message ids queued."""
    if not _take(store, keys.CLOCK_WARNING + game_id, score):
        return []  # another sweeper took it, or a move replaced it
    meta = store.current_meta(game_id)
    head = store.head(game_id)
    if meta is None or head is None or head.status != "active" or head.clock is None:
        return []
    deadline = head.clock.get("deadline_ms")
    if deadline is None or now_ms > int(deadline):
        return []
    return notify_deadline(store.client, game_id, meta, seat_states(store.client, game_id),
                           head, rfc3339(int(deadline)) or "", queues)


def _take(store: Store, member: str, score: float) -> bool:
    """Remove `member` of the deadlines zset if its score is still `score`; whether it did."""
    take = store.client.register_script(TAKE)
    return bool(take(keys=[keys.clock_deadlines()], args=[member, score]))


def time_out(store: Store, queue: Queue, game_id: str, now_ms: int,
             head: Head | None = None, score: float | None = None) -> bool:
    """Apply the game's `on_timeout` to its seat to act if its deadline passed by `now_ms`;
    whether this call did (False: nothing due, or another writer came first). `head`: the
    game's head as read before (read now when None); the change is written only if the game
    is still at its version. `score`: the deadline read from the zset, dropped if it stands
    for no running clock (so that it is not looked at again every pass)."""
    meta = store.current_meta(game_id)
    head = store.head(game_id) if head is None else head
    if meta is None or head is None or head.status != "active" or "clock" not in meta:
        store.client.zrem(keys.clock_deadlines(), game_id)  # gone or over: nothing runs
        return False
    deadline = (head.clock or {}).get("deadline_ms")
    seat = head.to_act
    states = seat_states(store.client, game_id)
    if deadline is None or now_ms <= int(deadline) or seat is None or \
            effective_seat(meta, states, seat)["kind"] != "human" or \
            states.get(seat, {}).get("resigned"):
        # Nothing due. A running clock's entry is scored with its deadline, ahead of now (a
        # move that came first rewrote it): an entry still scored as read is stale.
        if score is not None and _take(store, game_id, score) and store.split_indexes and \
                deadline is not None and seat is not None and int(deadline) > now_ms:
            # Split indexes (a cluster: api.store) are written ahead of their commit: an
            # entry a failed or overtaken write left may stand for a wrong deadline. The
            # game's state is the truth: its running deadline is entered again.
            store.client.zadd(keys.clock_deadlines(), {game_id: int(deadline)})
        return False
    action = meta["clock"]["on_timeout"]
    change, entry, status, to_act = _timeout_change(meta, states.get(seat, {}), seat, action)
    clock: dict[str, Any] = dict(head.clock or {}, deadline_ms=None, warn_ms=None)
    done, outcome = store.mark(game_id, entry, new_epoch(), status, to_act,
                               bot_to_act=to_act is not None, expected=head.version,
                               seat_change=(seat, change), clock=clock)
    if not done:
        return False  # the version moved on (a move, another sweeper): read again next pass
    log.info("game %s: seat %d ran out of time (%s)", game_id, seat, action)
    if to_act is not None:
        enqueue_turn(queue, game_id, to_act, int(outcome),
                     f"seat {to_act} of {game_id} at version {outcome} (time-out)")
    return True


def _timeout_change(meta: dict[str, Any], state: dict[str, Any], seat: int, action: str,
                    ) -> tuple[dict[str, Any], dict[str, Any], str, int | None]:
    """The seat's new state, the log entry, the game's status and seat to act after the
    time-out of `seat` with `action`."""
    taken = {"bot": TIMEOUT_BOT, "params": {}}
    if action == "bot":
        return (dict(state, timed_out=True, bot=taken),
                records.timeout_entry(seat, TIMEOUT_BOT), "active", seat)
    # As `POST /resign` (api.lifecycle): a game of two seats (or solo) ends.
    ends = len(meta["seats"]) <= 2
    return (dict(state, timed_out=True, resigned=True, bot=None if ends else taken),
            records.resign_entry(seat, timed_out=True),
            "finished" if ends else "active", None if ends else seat)
