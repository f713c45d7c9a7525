"""Replays and records: a game as it stood after move N (`GET /v1/games/{id}?at=N`), and a
finished game's portable record (`GET /v1/games/{id}/record`, docs/records.md).

Redis keeps a game's latest snapshot and its move log, not the states in between: a past
state is made again by replaying the rules from the game's seed and log (the engine is
deterministic, DESIGN.md). The threat this module answers is the seed: the server holds it
from the creation on, and it decides every hidden order of the game (`core.deals`). A replay
never lets it, or the state it makes, leave the server: an answer carries only what
`game.view(state, seat)` shows the caller's own seat (or a spectator) at version N — what
that seat was shown then — until the game is over and its deal revealed (a tournament deal
still in play counts as not over, `api.tournament_secrecy`). Only then may a caller ask for
another seat's view (`?seat=`) or download the record, which holds the seed and the whole
log.

A record file from anywhere (`POST /v1/records/replay`) is checked by the same code as
`bgb verify RECORD.json` (`core.records`), which replays it; the answer is the game after each
of its entries, everything open as for a finished game. It reads and writes no game in Redis:
the record is all there is (only the rate limiter counts the request).

Cost. A replay is CPU (tens of microseconds to a fraction of a millisecond a move; a long
game's whole replay takes tens of milliseconds, bench/replay.py), so each process keeps the
states it made in a small LRU keyed by (game, N), with a checkpoint every CHECKPOINT_EVERY
moves of a replay: stepping through a game move by move replays one move a step, and any
later read of the game at most CHECKPOINT_EVERY moves. A replay counts as one more read
against the caller's read rate limit per REPLAY_MOVES_PER_READ moves it replays.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import marshmallow as ma
import orjson
from flask import Response, request
from flask.views import MethodView
from marshmallow import fields, validate

import core
from api import keys
from api.bots import bot_title
from api.i18n import game_texts, relabel, request_locale, seat_names, with_event_texts
from api.limits import current as current_limits
from api.parsing import Blueprint
from api.presenters import game_body, public_deal, public_seats
from api.problems import Problem, validation_error
from api.schemas import MAX_SEATS, DealSchema, GameSchema, LogEntrySchema, SeatSchema
from api.services import Services, services
from api.store import OVER, Cached, SeatsSeen, json_text
from api.timestamps import rfc3339
from api.tournament_secrecy import held_back
from core.records import RECORD_FORMAT, RECORD_FORMAT_VERSION, verify_record
from core.takeback import takeback_of

log = logging.getLogger(__name__)

# A replay counts as one more read per this many moves it replays (rate limits): a whole
# replay of a long game (750 moves of Flotilla) costs the server about 100-200 ms of CPU on
# a shared 2-core machine (bench/replay.py), some 40 reads' worth.
REPLAY_MOVES_PER_READ = 20
# A replay keeps every this many moves' state in the cache: a later replay of the game, at
# any version, replays at most this many moves.
CHECKPOINT_EVERY = 50
# Replayed states each process keeps (a state's snapshot is 2-3 KB of JSON in every game,
# some tens of KB as Python objects).
REPLAY_CACHE_SIZE = 1024
# Serialized records each process keeps (a finished game's record never changes).
RECORD_CACHE_SIZE = 64
# The largest record `POST /v1/records/replay` reads (the API's other bodies: 64 KiB). A
# whole game's record is some 20-200 KB of JSON (a long Flotilla game the most).
RECORD_MAX_BYTES = 2 * 1024 * 1024


def _digest(raw: bytes) -> bytes:
    """The identity of a stored log entry (its bytes), to tell a replayed state still valid."""
    return hashlib.sha256(raw).digest()


@dataclass(frozen=True)
class Replayed:
    """A game's state after its first `at` log entries, and the digest of the last of them
    (b"" for at=0). A state here is never mutated: a replay goes on from a clone."""

    at: int
    state: Any
    last_entry: bytes


class ReplayCache:
    """The states replays made in this process (a small LRU keyed by (game, N))."""

    def __init__(self, size: int = REPLAY_CACHE_SIZE) -> None:
        self._items: OrderedDict[tuple[str, int], Replayed] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def nearest(self, game_id: str, at: int) -> Replayed | None:
        """The cached state of `game_id` with the greatest N not past `at`, if any."""
        with self._lock:
            found = [n for (game, n) in self._items if game == game_id and n <= at]
            if not found:
                return None
            key = (game_id, max(found))
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, game_id: str, replayed: Replayed) -> None:
        """Remember a replayed state."""
        with self._lock:
            self._items[(game_id, replayed.at)] = replayed
            self._items.move_to_end((game_id, replayed.at))
            while len(self._items) > self._size:
                self._items.popitem(last=False)


_replays = ReplayCache()
_records: OrderedDict[tuple[str, int, SeatsSeen], bytes] = OrderedDict()
_records_lock = threading.Lock()


def _diverged(game_id: str, index: int, reason: str) -> Problem:
    # Not the client's fault: the stored log no longer replays under this server's rules. The
    # reason stays in the server's log: it may name a hidden card of the replayed state.
    log.error("game %s: its log does not replay at move %d: %s", game_id, index, reason)
    return Problem(500, "internal-error", "Internal error",
                   f"the log of game {game_id} does not replay under this server's rules "
                   f"(move {index})")


def state_at(svc: Services, game: core.Game, game_id: str, meta: dict[str, Any],
             at: int) -> Any:
    """The game's state after its first `at` log entries, replayed from its seed (from the
    nearest state this process replayed before, when its log entry is still the stored one).
    Counts the replay against the read rate limit. Never answered as it is: see the module."""
    start = _replays.nearest(game_id, at)
    first = 0 if start is None or start.at == 0 else start.at - 1
    raw = svc.redis.lrange(keys.move_log(game_id), first, at - 1) if at > 0 else []
    if start is not None and start.at > 0 and (not raw or _digest(raw[0]) != start.last_entry):
        # The log is not what the state was replayed from (a lost write replaced it).
        start = None
        raw = svc.redis.lrange(keys.move_log(game_id), 0, at - 1)
    if start is None:
        state, index = game.new_game(meta["options"], int(meta["seed"])), 0
    else:
        state, index = game.clone(start.state), start.at
        raw = raw[1:] if start.at > 0 else raw
    if len(raw) != at - index:
        raise Problem(404, "not-found", "Not found", f"game {game_id} has no move {at}")
    extra = len(raw) // REPLAY_MOVES_PER_READ
    if extra:
        current_limits().charge_reads(extra)
    for blob in raw:
        entry = json.loads(blob)
        back = takeback_of(entry)
        if back is not None:
            # A take-back (core.takeback): the state before the entry it takes back, which
            # is earlier in the log (replayed from this process's cache when it can be).
            state = game.clone(state_at(svc, game, game_id, meta, back))
        elif not entry.get("system"):  # an abort, a resignation: no move of the rules
            try:
                game.apply(state, entry["move"])
            except core.IllegalMove as exc:
                raise _diverged(game_id, index, exc.reason) from None
        index += 1
        if index % CHECKPOINT_EVERY == 0 and index < at:
            # A later replay of this game starts at most CHECKPOINT_EVERY moves back (a
            # clone costs about as much as one move's apply).
            _replays.put(game_id, Replayed(index, game.clone(state), _digest(blob)))
    _replays.put(game_id, Replayed(at, state, _digest(raw[-1]) if raw else
                                   (start.last_entry if start is not None else b"")))
    return state


def game_at(svc: Services, game: core.Game, game_id: str, meta: dict[str, Any], now: Cached,
            seat: int | None, query: dict[str, Any], revealed: bool) -> dict[str, Any]:
    """The game read body at version `query["at"]` as `seat` (None: a spectator) sees it;
    with `query["seat"]`, that seat's view, once `revealed` (the game is over and its deal
    revealed). `now` is the game as Redis holds it now."""
    head = now.head
    assert head is not None
    at = int(query["at"])
    if at > head.version:
        raise validation_error({"query": {"at": [f"the game is at version {head.version}"]}},
                               f"no version {at} yet: the game is at version {head.version}")
    shown = seat
    asked = query.get("seat")
    if asked is not None and asked != seat:
        if not revealed:
            raise Problem(403, "forbidden", "Forbidden",
                          "while the game is in play a caller sees only its own seat's views; "
                          "every seat's opens once the game is over")
        if asked >= len(meta["seats"]):
            raise validation_error({"query": {"seat": [f"this game has seats 0 to "
                                                       f"{len(meta['seats']) - 1}"]}},
                                   f"no seat {asked} in this game")
        shown = asked
    if at == head.version:
        state, status = now.state, head.status
    else:
        # Only a game's last version may be over: every earlier one was active.
        state, status = state_at(svc, game, game_id, meta, at), "active"
    body = game_body(game, game_id, meta, at, state, shown, status, now.seats)
    body["deal"] = public_deal(meta, revealed)
    if not revealed:
        body["result"] = None  # a held-back tournament deal: its end tells the siblings'
    return body


class RecordSchema(ma.Schema):
    """A finished game's portable record (docs/records.md): everything needed to replay and
    verify it offline."""

    format = fields.String(required=True, metadata={
        "description": f'always "{RECORD_FORMAT}"'})
    format_version = fields.Integer(required=True, metadata={
        "description": f"the record format's version ({RECORD_FORMAT_VERSION}); a reader "
                       "refuses a version it does not know"})
    id = fields.String(required=True)
    game = fields.String(required=True)
    rules = fields.Dict(required=True, metadata={
        "description": "the rules that played it: `package` and `version` of the server's "
                       "distribution, `snapshot` (the game's snapshot version)"})
    options = fields.Dict(required=True)
    created = fields.String(required=True, metadata={"description": "RFC 3339, UTC"})
    status = fields.String(required=True, validate=validate.OneOf(OVER))
    version = fields.Integer(required=True, metadata={"description": "the final version"})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    deal = fields.Nested(DealSchema, required=True, metadata={
        "description": "the deal, revealed: `revealed.seed` and the options replay the game"})
    moves = fields.List(fields.Nested(LogEntrySchema), required=True, metadata={
        "description": "every log entry, oldest first, unredacted and without texts"})
    result = fields.Dict(allow_none=True, required=True, metadata={
        "description": "the final result (null if aborted or abandoned)"})


def _rules_version(game: core.Game, state: Any) -> dict[str, Any]:
    try:
        package = metadata.version("boardgamesbot")
    except metadata.PackageNotFoundError:
        package = None
    return {"package": "boardgamesbot", "version": package,
            "snapshot": game.dump(state).get("version")}


def record(svc: Services, game: core.Game, game_id: str, meta: dict[str, Any],
           now: Cached) -> bytes:
    """The record of a game that is over (`now`: as Redis holds it), as JSON text."""
    head = now.head
    assert head is not None
    # The seats are in the key: a player may still claim a seat of a game that is over.
    key = (game_id, head.version, now.seats_seen)
    with _records_lock:
        found = _records.get(key)
    if found is not None:
        return found
    entries, _ = svc.store.moves(game_id, -1, head.version + 1)
    body = game_body(game, game_id, meta, head.version, now.state, None, head.status,
                     now.seats)
    moves = []
    for entry in entries:
        shown = {k: entry[k] for k in ("index", "version", "seat", "move", "events")}
        shown.update({k: entry[k] for k in ("system", "forfeit", "takeback")
                      if entry.get(k) is not None and entry.get(k) is not False})
        moves.append(shown)
    document = {
        "format": RECORD_FORMAT, "format_version": RECORD_FORMAT_VERSION, "id": game_id,
        "game": meta["game"], "rules": _rules_version(game, now.state),
        "options": meta["options"],
        "created": rfc3339(float(meta.get("created", 0))),
        "status": head.status, "version": head.version,
        "seats": public_seats(meta, now.seats), "deal": public_deal(meta, True),
        "moves": moves, "result": body["result"]}
    text = json_text(document)
    with _records_lock:
        _records[key] = text
        while len(_records) > RECORD_CACHE_SIZE:
            _records.popitem(last=False)
    return text


blp = Blueprint("records", __name__, url_prefix="/v1",
                description="A finished game's portable record, verifiable offline.")


@blp.route("/games/<game_id>/record")
class Record(MethodView):
    """A finished game's record."""

    @blp.response(200, RecordSchema)
    @blp.problem(404, "no such game")
    @blp.problem(409, "game-active: the game is not over (or its tournament deal is still "
                      "in play): it has no record yet")
    @blp.unavailable()
    def get(self, game_id: str) -> Response:
        """The game's portable record (docs/records.md): options, revealed deal, seats, every
        move with its events and the result; `bgb verify RECORD.json` checks it offline."""
        from api import games  # the games area hooks this module in: imported when used

        svc = services()
        meta = games._game_meta(svc, game_id)
        game = games._rules(meta)
        now = games._state(svc, game, game_id)
        assert now.head is not None
        if now.head.status not in OVER or ("tournament" in meta
                                           and held_back(svc.redis, meta)):
            raise Problem(409, "game-active", "Game active",
                          "the game is not over (or its tournament deal is still in play): "
                          "its record comes when it ends")
        return Response(record(svc, game, game_id, meta, now), mimetype="application/json")


# -- a record from anywhere, replayed: POST /v1/records/replay ---------------------------------

class RecordReplayQuerySchema(ma.Schema):
    """Whose views a record's replay shows."""

    seat = fields.Integer(validate=validate.Range(min=0, max=MAX_SEATS - 1), metadata={
        "description": "whose view each step shows (every seat's is open: the game is over); "
                       "by default a spectator's"})


class RecordReplaySchema(ma.Schema):
    """A record checked as `bgb verify` checks it, and the game after each of its entries."""

    id = fields.String(required=True, metadata={"description": "the record's game id"})
    game = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True, metadata={
        "description": "whose views `views` are (null: a spectator's)"})
    checks = fields.List(fields.String(), required=True, metadata={
        "description": "what verifying the record checked, as `bgb verify` prints it"})
    moves = fields.List(fields.Nested(LogEntrySchema), required=True, metadata={
        "description": "the record's entries, oldest first, with their texts in the asked "
                       "language"})
    views = fields.List(fields.Nested(GameSchema), required=True, metadata={
        "description": "the game after its first N entries at index N (0: as dealt; the last: "
                       "the game over), each as `GET /v1/games/{id}?at=N&seat=` answers for a "
                       "finished game"})


def _replayed_body(game: core.Game, record: dict[str, Any], at: int, state: Any,
                   seat: int | None) -> dict[str, Any]:
    """The game read body at version `at` of a record's replay, as `seat` saw it (everything
    open: the record is of a game that is over; only its last version is)."""
    last = at == len(record["moves"])
    to_act = None if last else game.to_act(state)
    return {"id": record["id"], "game": record["game"], "options": record["options"],
            "version": at, "status": record["status"] if last else "active",
            "to_act": to_act, "seat": seat, "seats": record["seats"],
            "view": game.view(state, seat),
            "legal_moves": game.legal_moves(state) if seat is not None and seat == to_act
            else [],
            "result": record["result"] if last else None, "deal": record["deal"]}


def replay_record(record: dict[str, Any], seat: int | None, locale: str) -> dict[str, Any]:
    """The answer to `POST /v1/records/replay`: `record` verified (422 naming its first fault
    otherwise) and the game after each of its entries as `seat` sees it, texts in `locale`."""
    if seat is not None and seat >= len(record["seats"]):
        raise validation_error({"query": {"seat": [f"this game has seats 0 to "
                                                   f"{len(record['seats']) - 1}"]}},
                               f"no seat {seat} in this record's game")
    extra = len(record["moves"]) // REPLAY_MOVES_PER_READ
    if extra:
        current_limits().charge_reads(extra)
    views: list[dict[str, Any]] = []

    def keep(at: int, state: Any) -> None:
        # Called once the verifier found the record's rules: they are known here.
        game = core.get_game(record["game"])
        # A copy as JSON at once: a view may share parts of the state the next entry changes.
        views.append(orjson.loads(json_text(_replayed_body(game, record, at, state, seat))))

    report = verify_record(record, keep)
    if not report.ok:
        raise validation_error({"json": {"record": report.faults}},
                               f"the record does not verify: {report.faults[0]}")
    game = core.get_game(record["game"])
    # The reader of a record is none of its seats (`seat` only picks whose views): the log
    # names every seat as a spectator's log does, never "You".
    names = seat_names(record["game"], record["seats"], game.automa_seats(record["options"]),
                       None, locale, lambda bot: bot_title(bot, locale))
    moves = with_event_texts(record["moves"], record["game"], names, locale)
    texts = game_texts(record["game"])
    if texts is not None:
        for entry in moves:
            move = entry["move"]
            if entry.get("system") or entry.get("takeback") is not None:
                continue  # the server's entries: no move of the game's rules to name
            if isinstance(move.get("type"), str) and "label" not in move:
                entry["move"] = {**move, "label": texts.label(move, locale)}
        if locale != "en":
            relabel(views, texts, locale)
            relabel(moves, texts, locale)
    return {"id": record["id"], "game": record["game"], "seat": seat,
            "checks": report.checks, "moves": moves, "views": views}


@blp.before_request
def _records_may_be_large() -> None:
    """A record is the one body larger than the API's other bodies (MAX_CONTENT_LENGTH)."""
    if request.endpoint == f"{blp.name}.RecordReplay":
        request.max_content_length = RECORD_MAX_BYTES


@blp.route("/records/replay")
class RecordReplay(MethodView):
    """A record from anywhere, verified and replayed."""

    @blp.arguments(RecordSchema, description="a game's record (docs/records.md), as "
                                             "`GET /v1/games/{id}/record` gives it")
    @blp.arguments(RecordReplayQuerySchema, location="query")
    @blp.response(200, RecordReplaySchema)
    @blp.problem(400, "the body is not valid JSON")
    @blp.problem(413, f"the record is larger than {RECORD_MAX_BYTES // (1024 * 1024)} MiB")
    @blp.problem(415, "not JSON")
    @blp.problem(422, "validation-error: not a record (`errors.json` names the fields), or a "
                      "record that does not verify (`errors.json.record` lists what "
                      "`bgb verify` found, the first in `detail`)")
    def post(self, record: dict[str, Any], query: dict[str, Any]) -> Response:
        """Verify a game's record as `bgb verify RECORD.json` does and answer the game after
        each of its entries (docs/records.md): a record from any server, or a file, replayed
        step by step. Nothing is stored."""
        body = replay_record(record, query.get("seat"), request_locale())
        return Response(json_text(body), mimetype="application/json")
