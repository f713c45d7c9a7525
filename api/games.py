"""The games area: create a game, read it (long poll), post moves, read the log, follow it."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import Response, request
from flask.views import MethodView

import core
from api import clocks, keys, metrics, replays
from api.auth import PLAYER_KEY, bearer_token, seat_of, token_hash, unauthorized
from api.bots import automa_only, bot_title, check_params, known_bot_names
from api.creation import start_game
from api.i18n import request_locale, seat_names, with_event_texts
from api.limits import client_address
from api.limits import current as current_limits
from api.notify import notify_players
from api.parsing import Blueprint, query_flag, require_json_body
from api.players import current_player, own_seat
from api.presenters import game_body, public_deal, redact_entry, redact_events, status_of
from api.problems import Problem, service_unavailable, validation_error
from api.schemas import (
    MAX_SEATS,
    AbortedSchema,
    CreatedGameSchema,
    CreateGameSchema,
    GameQuerySchema,
    GameSchema,
    MoveLogQuerySchema,
    MoveLogSchema,
    MoveRequestSchema,
    MoveResultSchema,
)
from api.seats import SeatStates, adjusted_result, effective_seat, seat_states
from api.services import Services, services
from api.store import OVER, Cached, Commit, Head, Read, json_text, new_epoch
from api.tournament_secrecy import held_back
from api.watchers import follow, long_poll
from core import records
from core.deals import SEED_BITS, make_deal
from core.takeback import revertible

log = logging.getLogger(__name__)

blp = Blueprint("games", __name__, url_prefix="/v1",
                description="Create games, read them as a seat or a spectator, play moves, "
                            "read the move log and follow new versions.")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_IDEMPOTENCY_KEY = 255
# A version as this server writes it (ETag, SSE `id:`): no sign, no leading zero.
# (Anchored: the same patterns are the OpenAPI document's, which JSON Schema reads unanchored.)
_CANONICAL_VERSION = re.compile(r"^(0|[1-9][0-9]{0,17})$")
_QUOTED_VERSION = re.compile(r'^"(0|[1-9][0-9]{0,17})"$')
_IF_MATCH_PATTERN = r'^(\*|"(0|[1-9][0-9]{0,17})")$'  # "*": any version (the body's says)
# A player's key acts for the seats its player owns (`?seat=N` among several: api.auth).
SEAT_AUTH = [{"seatToken": []}, {"playerKey": []}]
OPTIONAL_SEAT_AUTH = [{}, {"seatToken": []}, {"playerKey": []}]
SEAT_REQUIRED = ("bad-request: an unknown query parameter; seat-required: a player key owning "
                 "several seats of this game, without `seat`")


def takeback_refusal(meta: dict[str, Any]) -> str:
    """Why no move of this game may ever be taken back ("" when its moves may be, the move
    allowing): only practice games allow it. A ranked game's moves stand (its players'
    results count); a tournament's too; a clocked game's clock would have to run back."""
    if "tournament" in meta:
        return "a tournament game: every move stands"
    if not (meta.get("deal") or {}).get("unranked"):
        return ("a ranked game: every move stands (take-backs are for unranked practice "
                "games, created with \"unranked\": true)")
    if "clock" in meta:
        return "a game with a clock: every move stands"
    return ""


def _not_found(game_id: str) -> Problem:
    return Problem(404, "not-found", "Not found", f"no game {game_id!r}")


def _game_meta(svc: Services, game_id: str) -> dict[str, Any]:
    """The game's metadata as Redis holds it now; 404 for an unknown game."""
    meta = svc.store.current_meta(game_id) if GAME_ID.match(game_id) else None
    if meta is None:
        raise _not_found(game_id)
    return meta


class MetaChanged(Exception):
    """The metadata a request was answered with from this process's memory is no longer
    what Redis holds (`Store.held_meta`): the request is answered again, reading it."""


def _held_meta(svc: Services, game_id: str) -> tuple[dict[str, Any], str]:
    """The game's metadata as this process last read it, and its digest for the script that
    reads or writes the state to check (the fast lane's read and move: no read of its own)."""
    held = svc.store.held_meta(game_id) if GAME_ID.match(game_id) else None
    if held is None:
        raise _not_found(game_id)
    return held


def _rules(meta: dict[str, Any]) -> core.Game:
    try:
        return core.get_game(meta["game"])
    except core.UnknownGame:
        # A stored game whose rules this server no longer has: not the client's fault.
        raise Problem(500, "internal-error", "Internal error",
                      f"this server cannot play {meta['game']!r} any more") from None


def _caller_seat(svc: Services, game_id: str, meta: dict[str, Any]) -> int | None:
    """The seat the request's Bearer token opens (None without one; 401 for a wrong one)."""
    token = bearer_token()
    if token is None:
        return None
    return seat_of(token, game_id, meta, svc.bot_tokens, seat_states(svc.redis, game_id),
                   player_keys=True)


def with_result(events: list[dict[str, Any]],
                result: dict[str, Any] | None) -> list[dict[str, Any]]:
    """`events` with the game's `result` in its `game_over` event (the rules' event says only
    that the game is over; apps want the scores with it)."""
    return [{**e, "result": result} if e.get("type") == "game_over" else e for e in events]


def final_result(svc: Services, game: core.Game, game_id: str) -> dict[str, Any] | None:
    """The result of a finished game as a game read shows it (None unless finished); the
    caller checks that its tournament deal does not hold it back."""
    now = _state(svc, game, game_id)
    if now.head is None or now.head.status != "finished":
        return None
    rules_over = game.to_act(now.state) is None
    return adjusted_result(game.result(now.state), now.seats,
                           ended_by_resignation=not rules_over)


def _state(svc: Services, game: core.Game, game_id: str, meta_digest: str = "") -> Cached:
    """The game as Redis holds it now: its head, state (from this process's cache when
    current) and seats' changes since creation, in one read. With `meta_digest` (of
    `_held_meta`), MetaChanged unless Redis still holds that metadata."""
    cached = svc.cache.get(game_id)
    holds = (cached.version, cached.epoch) if cached else None
    read = svc.store.read(game_id, holds, meta_digest=meta_digest)
    if read is not None and svc.store.overdue(read.head):
        # Nobody moved for the abandon-after time: the game is over from now on (README,
        # retention). Marked on the first read that notices; a race marks it once.
        svc.store.mark(game_id, records.abandon_entry(), new_epoch(), "abandoned")
        read = svc.store.read(game_id, holds, meta_digest=meta_digest)
    if read is None:
        raise _not_found(game_id)
    if not read.meta_current:
        raise MetaChanged(game_id)
    return _remember(svc, game, game_id, read, cached)


def _remember(svc: Services, game: core.Game, game_id: str, read: Read,
              cached: Cached | None) -> Cached:
    """The game a read found (the state `cached` holds when the read found it current), now
    cached in this process with its head and seats."""
    if read.snapshot is None and cached is not None:
        state = cached.state
    else:
        state = game.load(json.loads(read.snapshot or "null"))
    return svc.cache.put(game_id, read.head.version, read.epoch, state, read.head, read.seats,
                         read.seats_seen)


def _held_back(svc: Services, meta: dict[str, Any], seat: int | None) -> bool:
    """Whether the game's deal is held back (a deal still in play in a tournament with an
    external entrant: api.tournament_secrecy): 403 for a spectator; its seats read it, but
    what its end would reveal (seed, whole log, result) waits for the deal's other games."""
    if "tournament" not in meta or not held_back(svc.redis, meta):
        return False
    if seat is None:
        raise Problem(403, "forbidden", "Forbidden",
                      "a game of a tournament deal still in play: only its seats may read it "
                      "until every game of the deal has ended")
    return True


def _bot_seat(meta: dict[str, Any], seat: int | None,
              states: SeatStates | None = None) -> dict[str, Any] | None:
    """The bot playing `seat` now (a resigned seat's substitute included), or None."""
    if seat is None:
        return None
    spec = effective_seat(meta, states or {}, seat)
    return spec if spec["kind"] == "bot" else None


def _clocked(meta: dict[str, Any], states: SeatStates, seat: int | None) -> bool:
    """Whether `seat` plays on the game's clock: a human seat of a game with one (a bot's
    own budget holds for a bot's seat, and for a seat a bot took over)."""
    return ("clock" in meta and seat is not None
            and effective_seat(meta, states, seat)["kind"] == "human"
            and not states.get(seat, {}).get("resigned"))


def clocked_seats(meta: dict[str, Any], states: SeatStates) -> list[int]:
    """The seats playing on the game's clock now."""
    return [s for s in range(len(meta["seats"])) if _clocked(meta, states, s)]


def _json(body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None,
          ) -> Response:
    response = Response(json_text(body), status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


@contextmanager
def _options_checked(game: core.Game, options: dict[str, Any]) -> Iterator[None]:
    """Turn the game's refusal of `options` into a 422 (never a 500)."""
    try:
        yield
    except core.InvalidOptions as exc:
        raise validation_error({"json": {"options": {exc.option: [exc.reason]}}},
                               f"bad option {exc.option!r}: {exc.reason}") from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        # An engine should raise InvalidOptions; a bad option must still not be a 500.
        log.warning("%s rejected options %r with %r", game.name, options, exc)
        raise validation_error({"json": {"options": [str(exc)]}},
                               "the game rejected these options") from None


def _validate_seats(game: core.Game, options: dict[str, Any],
                    seats: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    with _options_checked(game, options):
        count = game.seat_count(options)
        automa = game.automa_seats(options)
    if seats is None:
        return [{"kind": "bot", "bot": automa[s], "params": {}} if s in automa
                else {"kind": "human"} for s in range(count)]
    errors: dict[str, Any] = {}
    if len(seats) != count:
        errors["seats"] = [f"these options need exactly {count} seats, got {len(seats)}"]
    bots = known_bot_names()
    for index, spec in enumerate(seats):
        problems: list[str] = []
        # any automa relay (`automa`, or its Darwin's Journey name `alfred`) takes the seat
        if index in automa and (spec["kind"] != "bot" or (
                spec.get("bot") != automa[index] and not automa_only(spec.get("bot", "")))):
            problems.append(f"seat {index} is the automa: it must be "
                            f'{{"kind": "bot", "bot": "{automa[index]}"}}')
        elif spec["kind"] == "bot" and spec["bot"] not in bots:
            problems.append(f"unknown bot {spec['bot']!r}; known: {sorted(bots)}")
        elif spec["kind"] == "bot" and index not in automa and automa_only(spec["bot"]):
            problems.append(f"bot {spec['bot']!r} only plays the game's automa seats "
                            f"(here: {sorted(automa) or 'none'})")
        elif spec["kind"] == "bot":
            fault = check_params(spec["bot"], spec.get("params", {}))
            if fault is not None:
                problems.append(fault)
        if problems:
            errors.setdefault("seats", {})
            if isinstance(errors["seats"], dict):
                errors["seats"][str(index)] = problems
    if errors:
        raise validation_error({"json": errors}, "the seats do not fit this game")
    return [dict(spec, params=spec.get("params", {})) if spec["kind"] == "bot" else
            {"kind": "human"} for spec in seats]


def _link(path: str, method: str, description: str) -> dict[str, Any]:
    ref = "#/paths/" + path.replace("/", "~1") + "/" + method
    return {"operationRef": ref, "parameters": {"game_id": "$response.body#/id"},
            "description": description}


# OpenAPI links from a created game to what can be done with it (clients and stateful
# testers such as schemathesis follow them).
CREATED_LINKS = {
    "ReadGame": _link("/v1/games/{game_id}", "get", "read the game (as a seat or a spectator)"),
    "PlayMove": _link("/v1/games/{game_id}/moves", "post", "play a move"),
    "ReadLog": _link("/v1/games/{game_id}/moves", "get", "read the move log"),
    "FollowGame": _link("/v1/games/{game_id}/events", "get", "follow new versions"),
}


@blp.route("/games")
class Games(MethodView):
    """The collection of games."""

    @blp.arguments(CreateGameSchema())
    @blp.response(201, CreatedGameSchema, headers={"Location": {
        "description": "the game's URL", "schema": {"type": "string"}}})
    @blp.problem(400, "the body is not valid JSON")
    @blp.problem(413, "the body is larger than 64 KiB")
    @blp.problem(415, "not JSON")
    @blp.problem(401, "a seat is claimed but the request has no valid player key")
    @blp.problem(429, "rate-limited, or too-many-bot-games (this client's games with bot "
                      "seats in progress are at the ceiling)")
    @blp.unavailable()
    @blp.doc(responses={201: {"links": CREATED_LINKS}})
    def post(self, body: dict[str, Any]) -> Response:
        """Start a game: each human seat gets a secret token, shown only in this answer, and
        the creator a token to abort it. The deal is secret: a client's `seed` is mixed with
        the server's own randomness unless the game is `unranked`; the answer carries a
        commitment to the effective seed, revealed when the game is over."""
        require_json_body()
        svc = services()
        guard = current_limits()
        try:
            game = core.get_game(body["game"])
        except core.UnknownGame:
            raise validation_error(
                {"json": {"game": [f"unknown game; known: {core.game_names()}"]}},
                f"unknown game {body['game']!r}") from None
        options = body["options"]
        claims = [i for i, spec in enumerate(body.get("seats") or []) if spec.get("claim")]
        player_id = current_player() if claims else None  # 401 without a player key
        specs = _validate_seats(game, options, body.get("seats"))
        budget_faults = [fault for seat, spec in enumerate(specs) if spec["kind"] == "bot"
                         for fault in [guard.check_bot_budget(seat, spec["params"])] if fault]
        if budget_faults:
            raise validation_error({"json": {"seats": budget_faults}},
                                   "a bot's budget is over this server's ceiling")
        automa = game.automa_seats(options)
        searching = any(spec["kind"] == "bot" and seat not in automa
                        for seat, spec in enumerate(specs))
        creator = client_address()
        if searching:
            guard.check_bot_games(svc.redis, creator)
        deal = make_deal(body.get("seed"), bool(body.get("unranked", False)),
                         server_nonce=secrets.token_hex(32), salt=secrets.token_hex(16),
                         fallback_seed=secrets.randbelow(2**SEED_BITS))
        with _options_checked(game, options):
            body_out = start_game(svc, game, options, specs, deal, clock=body.get("clock"))
        game_id = body_out["id"]
        if searching:
            guard.count_bot_game(svc.redis, creator, game_id)
        if player_id is not None:
            meta = svc.store.meta(game_id) or {}
            for seat in claims:
                own_seat(player_id, game_id, seat, float(meta.get("created", 0)))
            notify_players(svc, game_id, meta, seat_states(svc.redis, game_id), None,
                           svc.store.head(game_id)  # with its clock, if any
                           or Head(0, body_out["to_act"], body_out["status"]), started=True,
                           tokens={seat["seat"]: seat["token"] for seat in body_out["seats"]
                                   if seat.get("token")})
        return _json(body_out, 201, {"Location": f"/v1/games/{game_id}"})


@blp.route("/games/<game_id>")
class GameResource(MethodView):
    """One game as the caller sees it."""

    @blp.arguments(GameQuerySchema(), location="query")
    @blp.response(200, GameSchema, headers={"ETag": {
        "description": 'the version, quoted: "<version>"', "schema": {"type": "string"}}})
    @blp.alt_response(304, description="If-None-Match named the current version")
    @blp.problem(400, SEAT_REQUIRED)
    @blp.problem(401, "a token of no seat of this game, or a rotated or deleted player key")
    @blp.problem(403, "forbidden: a spectator's read of a tournament game whose deal is still "
                      "in play (a tournament with an external entrant), or a replay of "
                      "another seat's view while the game is in play; not-your-seat: a "
                      "player key naming a seat its player does not own")
    @blp.problem(404, "no such game")
    @blp.unavailable()
    @blp.doc(security=OPTIONAL_SEAT_AUTH)
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """The game for the caller's seat (Bearer token) or a spectator; with `wait_version`,
        a long poll answering once the version is greater (or after `timeout` seconds); with
        `at`, the game as it stood at that version, as the caller saw it then (a replay:
        docs/records.md)."""
        if "seat" in query and "at" not in query and not PLAYER_KEY.match(bearer_token() or ""):
            # Only a player's key chooses its seat; otherwise only a replay names a seat.
            raise validation_error({"query": {"seat": ["`seat` names whose view a replay "
                                                       "(`at`) shows, or with a player key "
                                                       "which of its seats reads"]}},
                                   "`seat` without `at` needs a player key")
        svc = services()
        meta = _game_meta(svc, game_id)
        game = _rules(meta)
        if "wait_version" in query:
            seat = _caller_seat(svc, game_id, meta)  # a wrong token never waits
            if seat is None:
                _held_back(svc, meta, seat)  # nor does a spectator of a held-back game
            long_poll(game_id, query["wait_version"], query["timeout"])
            now = _state(svc, game, game_id)
        else:
            now, seat = _read_as(svc, game, game_id, meta, bearer_token())
        if "at" in query:  # a replay: the game as it stood at a past version (api.replays)
            assert now.head is not None
            over = now.head.status in OVER
            held = (seat is None or over) and _held_back(svc, meta, seat)
            body = replays.game_at(svc, game, game_id, meta, now, seat, query, over and not held)
            return _json(body, 200, {"Vary": "Authorization"})
        headers = _read_headers(now.head)
        body = _game_answer(svc, game, game_id, meta, now, seat,
                            request.headers.get("If-None-Match", ""))
        if body is None:
            return Response(status=304, headers=headers)
        return _json(body, 200, headers)


def _read_as(svc: Services, game: core.Game, game_id: str, meta: dict[str, Any],
             token: str | None, meta_digest: str = "") -> tuple[Cached, int | None]:
    """The game as Redis holds it now and the seat `token` opens (None without a token; 401
    for a wrong one). One read brings the seats' changes with the state: the token is
    checked against them without a read of its own (and `meta`, given its `meta_digest`,
    is checked to be Redis's)."""
    now = _state(svc, game, game_id, meta_digest)
    seat = None if token is None else seat_of(token, game_id, meta, svc.bot_tokens, now.seats,
                                              player_keys=True)
    return now, seat


def _read_headers(head: Head) -> dict[str, str]:
    """The headers of a game read's answer (its 304 included)."""
    return {"ETag": f'"{head.version}"', "Vary": "Authorization"}


def _game_answer(svc: Services, game: core.Game, game_id: str, meta: dict[str, Any],
                 now: Cached, seat: int | None, if_none_match: str) -> dict[str, Any] | None:
    """The body of a read of the game `now` holds by `seat` (None: a spectator); None when
    `if_none_match` (the If-None-Match header, "" for none) names its version (304). 403 for
    a spectator of a game whose tournament deal is held back."""
    head, state, states = now.head, now.state, now.seats
    assert head is not None
    # A seat's read of an active game never needs the check (bots read only those).
    held = (seat is None or head.status in OVER) and _held_back(svc, meta, seat)
    if _none_match(if_none_match, head.version):
        return None
    body = game_body(game, game_id, meta, head.version, state, seat, head.status, states)
    if held:  # the seed would deal the sibling games, the result tell their hands
        body.update(deal=public_deal(meta, False), result=None)
    body["rematch_of"] = meta.get("rematch_of")
    rematch = svc.redis.hget(keys.game_state(game_id), "rematch") \
        if head.status in OVER else None
    body["rematch"] = rematch.decode() if rematch and rematch != b"pending" else None
    body["clock"] = None if "clock" not in meta else clocks.shown(
        meta["clock"], head.clock, head.to_act, clocked_seats(meta, states), len(meta["seats"]),
        head.status in OVER, int(time.time() * 1000))
    # Most games have none: the state read counts them, so only those with one read them.
    body["forfeits"] = svc.store.forfeits(game_id) if head.forfeits else []
    body["takeback"] = _takeback_offer(svc, game_id, meta, head, seat)
    return body


def _takeback_offer(svc: Services, game_id: str, meta: dict[str, Any], head: Head,
                    seat: int | None) -> int | None:
    """The log index of the move `seat` may take back now (api.takeback), or None. Only a
    seat's read of an active practice game reads the log's last entries for it."""
    if seat is None or head.status in OVER or takeback_refusal(meta):
        return None
    from api.takeback import takeback_target  # it builds on this module

    return takeback_target(svc, game_id, meta, head.version, seat)[0]


def _none_match(header: str, version: int) -> bool:
    """Whether If-None-Match names `version` (a list of ETags, weak or strong, or "*")."""
    for tag in header.split(","):
        tag = tag.strip()
        if tag == "*":
            return True
        if tag.startswith("W/"):
            tag = tag[2:]  # If-None-Match compares weakly (RFC 9110 13.1.2)
        if tag == f'"{version}"':
            return True
    return False


def _expected_version(body: dict[str, Any], header: str | None) -> int:
    """The version a move was chosen against: its body's `version`, or its If-Match
    `header`'s; 422 when neither says or they disagree."""
    from_header: int | None = None
    if header is not None and header != "*":
        # Exactly an ETag this server sent: "7", not 7, "07" or W/"7" (a lenient reading
        # would let two spellings name one version, or a typo name another).
        found = _QUOTED_VERSION.fullmatch(header)
        if found is None:
            raise validation_error({"headers": {"If-Match": ['expected "<version>"']}},
                                   'If-Match must be a version as its ETag says it: "<version>",'
                                   " quoted, with no leading zero")
        from_header = int(found[1])
    if "version" in body:
        if from_header is not None and from_header != body["version"]:
            raise validation_error({"json": {"version": ["differs from If-Match"]}},
                                   "the version field and If-Match disagree")
        return int(body["version"])
    if from_header is None:
        raise validation_error({"json": {"version": ["required (or an If-Match header)"]}},
                               "say which version the move was chosen against")
    return from_header


def _idempotency_key(key: str | None) -> str | None:
    """The Idempotency-Key header's value stripped (None without one); 422 if unusable."""
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_IDEMPOTENCY_KEY:
        raise validation_error({"headers": {"Idempotency-Key": [
            f"1 to {MAX_IDEMPOTENCY_KEY} characters"]}}, "bad Idempotency-Key")
    return key


def _stale(game: core.Game, game_id: str, meta: dict[str, Any], seat: int, head: Head,
           state: Any, expected: int, states: SeatStates) -> Problem:
    return Problem(409, "stale-version", "Stale version",
                   f"the move was chosen against version {expected}; the game is at "
                   f"version {head.version}",
                   current=game_body(game, game_id, meta, head.version, state, seat,
                                     head.status, states))


def _fingerprint(move: Any, expected: int) -> str:
    """What an Idempotency-Key stands for: the move (label aside) and its version, as
    strict JSON (so `true` and `1` differ), hashed."""
    request_text = json.dumps({"move": core.canonical(move) if isinstance(move, dict) else move,
                               "version": expected}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(request_text.encode("utf-8")).hexdigest()


class ReplayFound(Exception):
    """A refused request turned out to be the retry of a stored move: its first answer."""

    def __init__(self, response: Response) -> None:
        super().__init__("replay")
        self.response = response


def _replay(record: dict[str, Any], fingerprint: str) -> Response:
    """The first answer of an Idempotency-Key, if this request is the one it was for."""
    if record.get("fingerprint", fingerprint) != fingerprint:
        raise Problem(422, "idempotency-key-reused", "Idempotency key reused",
                      "this Idempotency-Key was used for another move or version; "
                      "use a new key for a new request")
    return _json(record["body"], int(record["status"]), {"Idempotent-Replayed": "true"})


@dataclass(frozen=True)
class MoveAsked:
    """What a move request asks: its seat token, its body (as MoveRequestSchema loads it)
    and its If-Match and Idempotency-Key headers (None when absent)."""

    token: str
    body: dict[str, Any]
    if_match: str | None = None
    idempotency_key: str | None = None


# How many times a move is decided before the server gives up on a game that changes under
# it each time (another move, a seat's change): a 503 then, and a retry is safe.
MOVE_ATTEMPTS = 4


@dataclass(frozen=True)
class Decided:
    """A move decided on one copy of a game, ready to be stored."""

    seat: int
    fingerprint: str
    idempotency: tuple[int, str] | None
    after: Any
    head: Head
    snapshot: bytes
    entry: dict[str, Any]
    answer: dict[str, Any]
    bot: dict[str, Any] | None
    # The bot worker's job that plays the next bot turn itself (no job is queued for it).
    claim: str | None
    epoch: str


def _decide(svc: Services, game: core.Game, game_id: str, meta: dict[str, Any],
            asked: MoveAsked, now: Cached) -> Decided:
    """The move `asked` played by the seat of its token on the game as `now` holds it: auth
    -> version -> turn -> legality -> apply on a clone. Raises the Problem refusing it, or
    ReplayFound when the refused request is the retry of a stored move."""
    head, state, states = now.head, now.state, now.seats
    token, body = asked.token, asked.body
    assert head is not None
    seat = seat_of(token, game_id, meta, svc.bot_tokens, states, player_keys=True)
    if states.get(seat, {}).get("timed_out") and \
            svc.bot_tokens.seat_of(token, game_id, [seat]) is None:
        raise Problem(409, "time-out", "Time out",
                      f"seat {seat} ran out of time: "
                      f"{'it resigned' if states[seat].get('resigned') else 'a bot plays it'}")
    if states.get(seat, {}).get("resigned") and \
            svc.bot_tokens.seat_of(token, game_id, [seat]) is None:
        raise Problem(403, "resigned", "Resigned",
                      f"seat {seat} resigned: a bot plays its turns now")
    forfeit, bot_job = body.get("forfeit"), body.get("bot_job")
    if (forfeit is not None or bot_job is not None) and \
            svc.bot_tokens.seat_of(token, game_id, [seat]) is None:
        # 403, not 422: the body is well formed, the caller may not make a bot's move.
        field = "forfeit" if forfeit is not None else "bot_job"
        raise Problem(403, "forbidden", "Forbidden",
                      f"only the server's bot workers send `{field}`, with the bot seat's "
                      "derived token")
    expected = _expected_version(body, asked.if_match)
    key = _idempotency_key(asked.idempotency_key)
    idempotency = (seat, key) if key is not None else None
    fingerprint = _fingerprint(body["move"], expected)

    def refuse(problem: Problem) -> Problem:
        """`problem`, unless this request is a retry of a stored move: a stored move
        moved the game on, so only a refused request can be one (the commit checks the
        key again, atomically, for a retry that races its first attempt)."""
        record = svc.store.record(game_id, idempotency) if idempotency else None
        if record is not None:
            raise ReplayFound(_replay(record, fingerprint))
        return problem

    if head.status in OVER:
        body_now = game_body(game, game_id, meta, head.version, state, seat, head.status, states)
        raise refuse(Problem(409, "game-over", "Game over",
                             f"the game is {head.status}; no move is taken",
                             result=None if _held_back(svc, meta, seat)
                             else body_now["result"]))
    if expected != head.version:
        raise refuse(_stale(game, game_id, meta, seat, head, state, expected, states))
    if head.to_act != seat:
        raise refuse(Problem(403, "not-your-turn", "Not your turn",
                             f"seat {head.to_act} is to act, not seat {seat}",
                             to_act=head.to_act))
    now_ms = int(time.time() * 1000)
    if _clocked(meta, states, seat) and clocks.timed_out(head.clock, now_ms):
        # The sweeper applies the game's on_timeout: the deadline is the game's, not the
        # sweeper's, so a late move never wins the race.
        raise refuse(Problem(409, "time-out", "Time out",
                             f"seat {seat} ran out of time at "
                             f"{clocks.rfc3339(head.clock['deadline_ms'])}"))
    legal = game.legal_moves(state)
    chosen = core.find_move(legal, body["move"])
    if chosen is None:
        raise Problem(422, "illegal-move", "Illegal move",
                      "the move is not one of the legal moves", legal_moves=legal,
                      game=meta["game"])
    after = game.clone(state)
    try:
        events = game.apply(after, chosen)
    except core.IllegalMove as exc:
        raise Problem(422, "illegal-move", "Illegal move", exc.reason,
                      legal_moves=legal, game=meta["game"]) from None
    to_act = game.to_act(after)
    clock = None
    if "clock" in meta and head.clock is not None:
        clock = clocks.after_move(meta["clock"], head.clock, seat, _clocked(meta, states, seat),
                                  to_act, _clocked(meta, states, to_act), now_ms)
    new_head = Head(head.version + 1, to_act, status_of(to_act), now_ms,
                    head.forfeits + (1 if forfeit is not None else 0), clock)
    answer = {"game": meta["game"], "version": new_head.version,
              "events": redact_events(events, seat),
              "status": new_head.status, "to_act": to_act,
              "result": adjusted_result(game.result(after), states, False)
              if to_act is None else None,
              # The seat still to act goes on without reading the game.
              "legal_moves": game.legal_moves(after) if to_act == seat else []}
    bot = _bot_seat(meta, to_act, states)
    claim = bot_job if bot is not None and bot_job is not None else None
    if claim is not None:
        answer["bot_job"] = claim  # the worker's job plays the next turn: none is queued
    if to_act is None and _held_back(svc, meta, seat):
        answer["result"] = None  # its deal's other games are still in play (tournament)
    if to_act is None:
        answer["events"] = with_result(answer["events"], answer["result"])
    entry = {"index": head.version, "version": new_head.version, "seat": seat,
             "move": chosen, "events": events}
    if not takeback_refusal(meta) and revertible(game, state, after, chosen, events):
        # Whether the seat may take this move back (api.takeback): decided now, on the states
        # before and after it, and only in games that allow take-backs at all.
        entry["revertible"] = True
    if forfeit is not None:
        entry["forfeit"] = dict(forfeit, seat=seat, version=head.version)
    # Only a stored move's answer is recorded for its Idempotency-Key: an error answer
    # changes nothing, so a retry of it is simply evaluated again.
    return Decided(seat, fingerprint, idempotency, after, new_head,
                   json_text(core.dump_for_storage(game, after)), entry, answer, bot, claim,
                   new_epoch())


def _decided_on(svc: Services, game: core.Game, game_id: str,
                meta_digest: str = "") -> tuple[Cached, bool]:
    """The copy of the game a move is decided on first, and whether it is a fresh read.

    The game as this process last read or stored it, if it did (then the commit alone goes
    to Redis: one round trip), else a fresh read. The commit stores a move only if Redis
    holds exactly what it was decided on (version, snapshot, seats), else it brings the game
    as it is now and the move is decided again on that. A refusal is only ever decided on a
    fresh read."""
    now = svc.cache.get(game_id)
    if now is None or now.head is None or svc.store.overdue(now.head):
        return _state(svc, game, game_id, meta_digest), True
    return now, False


def _commit(svc: Services, game_id: str, now: Cached, decided: Decided,
            meta_digest: str = "") -> Commit:
    """Store a move decided on `now`, if Redis still holds exactly that (one script), and,
    given `meta_digest`, the metadata it was decided with."""
    return svc.store.commit_move(
        game_id, now.version, decided.head, decided.snapshot, decided.entry,
        {"status": 200, "body": decided.answer, "fingerprint": decided.fingerprint},
        decided.idempotency, decided.bot is not None, decided.epoch,
        (now.epoch, now.seats_seen), decided.claim, meta_digest)


def _stored(svc: Services, game: core.Game, game_id: str, meta: dict[str, Any], now: Cached,
            decided: Decided) -> tuple[dict[str, Any], dict[str, str]]:
    """After a move decided on `now` is stored: cache the new state, count it, queue the
    bot to act (unless the worker's job plays on) and the players' notifications; the
    answer's body and headers."""
    head, after, states = decided.head, decided.after, now.seats
    svc.cache.put(game_id, head.version, decided.epoch, after, head, states, now.seats_seen)
    metrics.count_move(game.name)
    if decided.bot is not None and head.to_act is not None and decided.claim is None:
        svc.bot_queue.enqueue(game_id, head.to_act, head.version, decided.bot["bot"])
    notify_players(svc, game_id, meta, states, decided.seat, head,
                   result=decided.answer["result"])
    answer = decided.answer
    if decided.claim is not None:
        # The worker's job plays the next turn: it gets that seat's game as its read
        # would answer, and spares the read. Not in the stored answer (an Idempotency-Key
        # replay leaves it out: the worker reads then), which would keep a view a move.
        answer = dict(answer, next=game_body(game, game_id, meta, head.version, after,
                                             head.to_act, head.status, states))
    return answer, {"ETag": f'"{head.version}"'}


@blp.route("/games/<game_id>/moves")
class Moves(MethodView):
    """The moves of one game."""

    @blp.arguments(MoveRequestSchema())
    @blp.response(200, MoveResultSchema)
    @blp.problem(401, "no or a wrong seat token, or a rotated or deleted player key")
    @blp.problem(403, "not-your-turn, resigned, or not-your-seat: a player key naming a seat "
                      "its player does not own; or forbidden: `bot_job` or `forfeit` without "
                      "the bot seat's token")
    @blp.problem(404, "no such game")
    @blp.problem(409, "stale-version (with `current`), game-over, or time-out (the seat's "
                      "clock ran out: docs/clocks.md)")
    @blp.problem(400, "the body is not valid JSON; " + SEAT_REQUIRED)
    @blp.problem(413, "the body is larger than 64 KiB")
    @blp.problem(415, "not JSON")
    @blp.problem(422, "illegal-move (with `legal_moves`) or validation-error")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH, parameters=[
        {"in": "header", "name": "If-Match",
         "schema": {"type": "string", "pattern": _IF_MATCH_PATTERN},
         "description": 'the version exactly as its ETag: "<version>", quoted, without a '
                        "leading zero (else 422): required when the body has no `version` "
                        "(both given: they must agree)"},
        {"in": "header", "name": "Idempotency-Key", "schema": {"type": "string"},
         "description": "a retry with the same key replays the first answer"},
        {"in": "query", "name": "seat", "required": False,
         "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
         "description": "with a player key: which of the player's seats moves (needed when "
                        "it owns several, a hot-seat game); ignored with a seat token"}])
    def post(self, body: dict[str, Any], game_id: str) -> Response:
        """Play a move of the caller's seat, chosen from its legal moves at `version`."""
        require_json_body()
        svc = services()
        meta = _game_meta(svc, game_id)
        token = bearer_token()
        if token is None:
            raise Problem(401, "unauthorized", "Unauthorized",
                          "a move needs 'Authorization: Bearer <seat token or player key>'",
                          headers={"WWW-Authenticate": 'Bearer realm="boardgamesbot"'})
        asked = MoveAsked(token, body, request.headers.get("If-Match"),
                          request.headers.get("Idempotency-Key"))
        game = _rules(meta)
        now, fresh = _decided_on(svc, game, game_id)
        for _ in range(MOVE_ATTEMPTS):
            try:
                decided = _decide(svc, game, game_id, meta, asked, now)
            except ReplayFound as found:
                return found.response
            except Problem:
                if fresh:
                    raise
                now, fresh = _state(svc, game, game_id), True
                continue
            commit = _commit(svc, game_id, now, decided)
            if commit.outcome == "replay" and commit.record is not None:
                return _replay(commit.record, decided.fingerprint)
            if commit.outcome == "ok":
                break
            # Not stored: the game is not as this move was decided on (another move came
            # first, a token was rotated, a seat resigned, or this process's copy is old).
            if commit.read is None:
                raise _not_found(game_id)
            if svc.store.overdue(commit.read.head):
                now, fresh = _state(svc, game, game_id), True  # marks it abandoned
                continue
            now, fresh = _remember(svc, game, game_id, commit.read, now), True
        else:
            raise service_unavailable("the game changed under this move every time it was "
                                      "tried; try again")
        answer, headers = _stored(svc, game, game_id, meta, now, decided)
        return _json(answer, 200, headers)

    @blp.arguments(MoveLogQuerySchema(), location="query")
    @blp.response(200, MoveLogSchema)
    @blp.problem(400, SEAT_REQUIRED)
    @blp.problem(401, "a token of no seat of this game, or a rotated or deleted player key")
    @blp.problem(403, "forbidden: a spectator's read of a tournament game whose deal is still "
                      "in play (a tournament with an external entrant); not-your-seat: a "
                      "player key naming a seat its player does not own")
    @blp.problem(404, "no such game")
    @blp.unavailable()
    @blp.doc(security=OPTIONAL_SEAT_AUTH)
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """The move log with events, oldest first, redacted for the caller's seat (the whole
        log once the game is over, unless its tournament deal is still in play)."""
        svc = services()
        meta = _game_meta(svc, game_id)
        seat = _caller_seat(svc, game_id, meta)
        head = svc.store.head(game_id)
        over = head is not None and head.status in OVER
        if (seat is None or over) and _held_back(svc, meta, seat):
            over = False  # redacted as while it ran: the other seats' draws are the siblings'
        entries, length = svc.store.moves(game_id, query["after"], query["limit"])
        locale = request_locale()
        names = seat_names(meta["game"], meta["seats"], _rules(meta).automa_seats(meta["options"]),
                           seat, locale, lambda bot: bot_title(bot, locale))
        shown = [redact_entry(entry, seat, over) for entry in entries]
        if over and any(e.get("type") == "game_over" for m in shown for e in m["events"]):
            result = final_result(svc, _rules(meta), game_id)
            shown = [{**m, "events": with_result(m["events"], result)} for m in shown]
        moves = with_event_texts(shown, meta["game"], names, locale)
        last = moves[-1]["index"] if moves else None
        return _json({"game": meta["game"], "moves": moves,
                      "next": last if last is not None and last < length - 1 else None})


@blp.route("/games/<game_id>/abort")
class Abort(MethodView):
    """Stopping a game for good."""

    @blp.response(200, AbortedSchema, example={"version": 7, "status": "aborted"})
    @blp.problem(401, "no creator token, or not this game's")
    @blp.problem(404, "no such game")
    @blp.problem(409, "game-over: the game is already finished or aborted")
    @blp.unavailable()
    @blp.doc(security=SEAT_AUTH)
    def post(self, game_id: str) -> Response:
        """End an active game as aborted (Bearer: the `creator_token` of its creation): its
        bots stop, watchers learn it from the new version, its deal is revealed."""
        svc = services()
        meta = _game_meta(svc, game_id)
        token = bearer_token()
        stored = meta.get("creator_sha256")
        if token is None or stored is None or not hmac.compare_digest(stored,
                                                                      token_hash(token)):
            raise Problem(401, "unauthorized", "Unauthorized",
                          "aborting a game needs 'Authorization: Bearer <creator token>' from "
                          "the game's creation",
                          headers={"WWW-Authenticate": 'Bearer realm="boardgamesbot"'})
        done, outcome = svc.store.abort(game_id, records.abort_entry(), new_epoch())
        if not done:
            raise Problem(409, "game-over", "Game over",
                          f"the game is already {outcome or 'over'}; nothing to abort",
                          result=None)
        return _json({"version": outcome, "status": "aborted"})


# One server-sent event as clients parse it (OpenAPI 3.0 has no standard for streams; tools
# such as schemathesis read the schema of a text/event-stream answer as one event's).
SSE_EVENT_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["data"],
    "properties": {
        "id": {"type": "string", "description": "the version"},
        "event": {"type": "string", "enum": ["version"]},
        "data": {"type": "string",
                 "description": 'JSON {"version": int, "status": str, "to_act": int|null}'},
        "retry": {"type": "string"},
    },
}


def _problem_doc(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/problem+json": {
        "schema": {"$ref": "#/components/schemas/Problem"}}}}


@blp.route("/games/<game_id>/events")
class GameEvents(MethodView):
    """New versions of one game as server-sent events."""

    @blp.doc(
        security=OPTIONAL_SEAT_AUTH,
        parameters=[{"in": "header", "name": "Last-Event-ID",
                     "schema": {"type": "string", "pattern": _CANONICAL_VERSION.pattern},
                     "description": "resume after this version (an `id:` this stream sent; "
                                    "anything else is 400)"},
                    {"in": "query", "name": "view",
                     "schema": {"type": "string", "enum": ["0", "1", "false", "true"],
                                "default": "0"},
                     "description": "1 (with a seat's token): the event of each current "
                                    "version carries `current`, the game as the seat's read "
                                    "answers it"}],
        responses={"200": {"description": "`id: <version>`, `event: version`, `data: "
                                          '{"version", "status", "to_act"}` per new version; '
                                          "comment heartbeats. Text: read it line by line.",
                           "content": {"text/event-stream": {"schema": SSE_EVENT_SCHEMA}}},
                   "400": _problem_doc("a Last-Event-ID that is no version"),
                   "401": _problem_doc("`view=1` without a seat token of this game"),
                   "404": _problem_doc("no such game"),
                   "422": _problem_doc("validation-error: a `view` other than 1, 0, true or "
                                       "false"),
                   "429": _problem_doc("too-many-streams: this client holds as many long "
                                       "polls and streams as it may (Retry-After)"),
                   "503": _problem_doc("service-unavailable: the game store does not answer, "
                                       "or the server holds all the streams it can "
                                       "(Retry-After)")})
    def get(self, game_id: str) -> Response:
        """A stream of the game's versions; resumable with Last-Event-ID; ends when over.
        With `?view=1` and a seat's token, each current version brings the seat's game."""
        svc = services()
        meta = _game_meta(svc, game_id)
        last_id = _last_event_id(request.headers.get("Last-Event-ID"))
        if not query_flag("view"):
            return follow(game_id, last_id)
        token = bearer_token()
        if token is None:
            raise unauthorized("`view=1` needs 'Authorization: Bearer <seat token>'")
        game = _rules(meta)
        _, seat = _read_as(svc, game, game_id, meta, token)

        def seat_game(head: Head) -> dict[str, Any] | None:
            """The seat's game at `head`'s version (None once it has moved on: the next
            event brings it)."""
            now = _state(svc, game, game_id)
            if now.head is None or now.head.version != head.version:
                return None
            return _game_answer(svc, game, game_id, meta, now, seat, "")

        return follow(game_id, last_id, seat_game)


def _last_event_id(header: str | None) -> int | None:
    """The version a stream resumes after (None without a Last-Event-ID); 400 for anything
    but a version this stream sent, exactly as its `id:` spelled it (the HTTP server has
    stripped the header's surrounding whitespace)."""
    if header is None:
        return None
    if not _CANONICAL_VERSION.fullmatch(header):
        raise Problem(400, "bad-request", "Bad request",
                      "Last-Event-ID must be a version this stream sent (digits, as in `id:`)")
    return int(header)

