"""Every Redis key name the server uses, built in one place (ai_worker may import this module).

Per-game keys carry the game id in braces (a Redis Cluster hash tag), so all of one game's
keys live in one slot and the move's compare-and-set script can touch them together.

What each key holds:
- `game_meta(id)`: JSON string, immutable after creation: {"game", "options", "seed",
  "created", "seats": [{"seat", "kind", "bot"?, "params"?, "token_sha256"?}],
  "accounts"?: {seat: account} (a tournament's external entrants' seats)}.
- `game_state(id)`: hash {"version": int, "to_act": int or "" when over,
  "status": "active"|"finished", "snapshot": JSON of game.dump(state), "clock"?: the
  clock state as JSON (api.clocks), "bot_job"?: the id of the bot worker's job that plays
  the bot turn to act after its own (no job is queued for that turn; the sweeper checks
  that job's liveness instead)}.
- `move_log(id)`: list of JSON {"index", "version", "seat", "move", "events"}; entry i has
  index i and version i + 1 (version 0 is the initial setup).
- `idempotency(id, seat, key)`: JSON {"log_index", "entry_sha1", "status", "body",
  "fingerprint"} of the first answer, with a TTL; it stands only while the log's entry at
  log_index is the one hashed (api.store).
- `rematch_redeemed(id)`: hash, seat number -> "1", the old seats that have had their
  rematch's token (the rematch answer gives only the caller's).
- `version_channel(id)`: pub/sub channel; each stored move publishes its new version there.
- `game_analysis(id)`: JSON of the game's analysis (request, progress, results), with the
  game's own expiry (api.analysis, ai_worker.analysis).
- `game_hint(id, seat)`: JSON of the seat's last hint (its version, the search's top moves),
  with the game's own expiry (api.hints, ai_worker.hints).
- `bot_turns()`: sorted set, member game id, score the time its bot turn was recorded;
  present exactly while a bot seat is to act (written by the same script as the move; on a
  Redis Cluster written ahead of it and pruned by the sweeper: docs/scaling.md).
- `clock_deadlines()`: sorted set, member game id, score the deadline (epoch ms) of its
  clocked seat to act; present exactly while one runs (on a cluster: written ahead, pruned
  by the sweeper); member "warn:<id>": when its player is warned (api.clocks,
  ai_worker.clocks).
- `bot_secret()`: the HMAC secret of derived bot tokens when BGB_BOT_SECRET is unset.
- `account_events(account)`: Redis stream of an account's events (a player's,
  "player:<id>", or a tournament's external entrant's, "entrant:<tournament>:<index>"),
  field "event": JSON; capped (XADD MAXLEN ~) and expiring a week after its last event
  (api.notify). Its new events are announced on `version_channel(account_watch_id(account))`.

Retention (README, "Retention"): every write of a game sets the expiry of all its keys
(BGB_RETAIN_FINISHED after it ended; while active, BGB_ABANDON_AFTER more); a finished or
cancelled tournament's keys expire BGB_RETAIN_FINISHED after its end, an active one's never.
Idempotency records expire after a day. The API answers 404 for what has expired.
"""

from __future__ import annotations

import hashlib

PREFIX = "bgb"


def game_meta(game_id: str) -> str:
    """The immutable metadata of a game (JSON string)."""
    return f"{PREFIX}:game:{{{game_id}}}:meta"


def game_state(game_id: str) -> str:
    """The hash holding a game's latest snapshot, version, seat to act and status."""
    return f"{PREFIX}:game:{{{game_id}}}:state"


def move_log(game_id: str) -> str:
    """The list of a game's moves with their events."""
    return f"{PREFIX}:game:{{{game_id}}}:moves"


def idempotency(game_id: str, seat: int, key: str) -> str:
    """The first answer to a move posted with this Idempotency-Key by this seat of this game."""
    # Hashed so that an arbitrary client-chosen header never shapes the key name.
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
    return f"{PREFIX}:game:{{{game_id}}}:idem:{seat}:{digest}"


def rematch_redeemed(game_id: str) -> str:
    """The hash of a finished game's seats (field: seat number; "creator") that have had
    their rematch's token: each redeems it once (api.lifecycle)."""
    return f"{PREFIX}:game:{{{game_id}}}:rematch-redeemed"


def version_channel(game_id: str) -> str:
    """The pub/sub channel announcing a game's new versions."""
    return f"{PREFIX}:game:{{{game_id}}}:versions"


def game_id_from_channel(channel: str) -> str | None:
    """The game id inside a version channel name, or None for any other name."""
    head, sep, rest = channel.partition(":game:{")
    if not sep or head != PREFIX:
        return None
    game_id, sep, tail = rest.partition("}")
    return game_id if sep and tail == ":versions" else None


def bot_turns() -> str:
    """The sorted set of games whose seat to act is a bot (score: time recorded)."""
    return f"{PREFIX}:bot-turns"


# The member of `clock_deadlines` that says when a game's seat to act is warned.
CLOCK_WARNING = "warn:"


def clock_deadlines() -> str:
    """The sorted set of games whose clocked seat to act has a deadline (member: game id,
    score: that deadline, epoch ms; member CLOCK_WARNING + id: when to warn its player);
    written by the same script as the move (api.store), read by the sweeper."""
    return f"{PREFIX}:clock-deadlines"


def bot_secret() -> str:
    """The random bot-token secret created once when BGB_BOT_SECRET is unset."""
    return f"{PREFIX}:bot-secret"


def game_analysis(game_id: str) -> str:
    """The analysis of a finished game (JSON: api.analysis), expiring with the game."""
    return f"{PREFIX}:game:{{{game_id}}}:analysis"


def game_hint(game_id: str, seat: int) -> str:
    """A seat's last hint in a practice game (JSON: api.hints), expiring with the game."""
    return f"{PREFIX}:game:{{{game_id}}}:hint:{seat}"


def worker_alive(worker_name: str) -> str:
    """A bgb worker process's liveness mark (a few seconds' TTL, refreshed while it lives)."""
    return f"{PREFIX}:worker-alive:{worker_name}"


def sweeps(job_id: str) -> str:
    """How often the sweeper re-enqueued one bot turn's job (for its back-off)."""
    return f"{PREFIX}:sweeps:{job_id}"


def retries_due() -> str:
    """The sorted set of failed RQ jobs waiting for their retry (member: job id, score: when
    the back-off ends, epoch seconds), on the queues' Redis (api.retries)."""
    return f"{PREFIX}:retries-due"


def sweeper_lock() -> str:
    """The lock electing one sweeper per pass among all worker processes."""
    return f"{PREFIX}:sweeper-lock"


def creator_bot_games(creator: str) -> str:
    """The set of a creator's games with search-bot seats (for its ceiling of such games)."""
    digest = hashlib.sha256(creator.encode("utf-8")).hexdigest()[:32]
    return f"{PREFIX}:creator:{digest}:bot-games"


def game_seats(game_id: str) -> str:
    """A game's seats as they change after creation: seat -> JSON {token_sha256 (a rotated
    token), player (its owner), resigned, bot (who plays it since)}."""
    return f"{PREFIX}:game:{{{game_id}}}:seats"


def player(player_id: str) -> str:
    """A player: its name, the sha256 of its key, when it was created."""
    return f"{PREFIX}:player:{player_id}"


def player_games(player_id: str) -> str:
    """A player's games (sorted set: game id scored by creation time)."""
    return f"{PREFIX}:player:{player_id}:games"


def player_webhooks(player_id: str) -> str:
    """A player's webhooks (hash: webhook id -> JSON {url, events, secret, created})."""
    return f"{PREFIX}:player:{player_id}:webhooks"


def open_seats() -> str:
    """The lobby: seats open to any player (hash: "<game id>:<seat>" -> JSON {game_id, game,
    seat, players, created}); an entry whose game ended or seat was taken is dropped when
    the lobby is read or the seat taken (api.challenges)."""
    return f"{PREFIX}:open_seats"


def player_challenges(player_id: str) -> str:
    """A player's pending challenges (hash: challenge id -> JSON {id, game_id, game, seat,
    created}), expiring a while after the newest (api.challenges)."""
    return f"{PREFIX}:player:{player_id}:challenges"


def webhook_deliveries(player_id: str, webhook_id: str) -> str:
    """A webhook's delivery log, newest first (a capped list of JSON attempts)."""
    return f"{PREFIX}:player:{player_id}:webhook:{webhook_id}:deliveries"


def tournament(tournament_id: str) -> str:
    """A tournament: hash {"spec": JSON, "status": active|finished|cancelled, "nonce": its
    secret deal nonce (hex), "creator_sha256", "created", "finished_at", "total"}. It and
    its other keys expire the games' retain-finished time after it ended (never while
    active)."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}"


def tournament_games(tournament_id: str) -> str:
    """A tournament's scheduled slots: hash slot -> game id, or "claim:<time>:<nonce>" while
    the scheduler that claimed the slot creates its game."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:games"


def tournament_results(tournament_id: str) -> str:
    """A tournament's ended games: hash slot -> JSON {"game_id", "status", "result"}."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:results"


def tournament_tokens(tournament_id: str) -> str:
    """The seat tokens of a tournament's external entrants: hash slot -> JSON {seat: token}."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:tokens"


def tournament_lock(tournament_id: str) -> str:
    """The lock of the one scheduler job advancing a tournament at a time."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:lock"


def tournament_kick(tournament_id: str) -> str:
    """Set while a scheduler job of the tournament is enqueued (so it is enqueued once)."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:kick"


def tournaments_active() -> str:
    """The set of tournaments still being played (on a cluster, another slot than theirs:
    listed around a creation and cleared after the end; api.tournament_store)."""
    return f"{PREFIX}:tournaments:active"


def tournament_watch_id(tournament_id: str) -> str:
    """The name a tournament's progress is announced under on the version channels (never a
    game id: those have no colon), so that the API's version watcher wakes its streams."""
    return f"tournament:{tournament_id}"


def account_watch_id(account: str) -> str:
    """The name an account's new events are announced under on the version channels (never
    a game id: those have no colon), so that the API's version watcher wakes its streams."""
    return f"account:{account}"


def account_events(account: str) -> str:
    """An account's event stream (a capped Redis stream: api.notify, api.account_stream)."""
    return f"{PREFIX}:account:{{{account}}}:events"


def game_forfeits(game_id: str) -> str:
    """A game's forfeited bot moves (over budget, played as a random move): hash version ->
    JSON {"version", "seat", "bot", "elapsed_ms", "budget_ms", "grace_ms"}; written by the
    move's commit script (which counts them in the state hash's "forfeits"), expiring with
    the game."""
    return f"{PREFIX}:game:{{{game_id}}}:forfeits"
