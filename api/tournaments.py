"""The tournaments area: create one, read its progress and standings, its games, a chart of
its scores, follow its progress, cancel it.

The server plays a tournament: the scheduler job (`ai_worker.tournaments.advance`) creates
its games inside the server, bypassing the per-client limits (the tournament's own
`max_parallel` bounds them), and the bot workers play them. See `api.tournament_plan` for
the formats and duplicate deals, `api.standings` for the table.
"""

from __future__ import annotations

import hmac
import json
import logging
import math
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

import marshmallow as ma
import redis
from flask import Response, current_app, request
from flask.views import MethodView
from marshmallow import fields, validate

import core
from api import keys
from api.auth import bearer_token, new_human_token, token_hash, unauthorized
from api.connections import client_group
from api.events import ClientGone, ClientSocket
from api.games import _options_checked, _validate_seats
from api.limits import current as current_limits
from api.notify import entrant_accounts, notify_tournament
from api.parsing import Blueprint, require_json_body
from api.problems import Problem, validation_error
from api.schemas import MAX_SEED, StrictInt, TimeControlSchema, timestamp
from api.services import Services, services
from api.standings import chart_png, score_lists, standings
from api.store import new_epoch
from api.timestamps import maybe_rfc3339, rfc3339
from api.tournament_plan import GAUNTLET, MAX_GAMES, ROUND_ROBIN, slots, standings_names
from api.tournament_secrecy import open_deals
from api.tournament_store import ENDED, TournamentStore, is_claim, kick
from api.watchers import _client_socket, _Released, admission

log = logging.getLogger(__name__)

blp = Blueprint("tournaments", __name__, url_prefix="/v1",
                description="Bot tournaments played by the server: round robins with every "
                            "seating rotation of duplicate deals, gauntlets against a solo "
                            "game's automa; standings with ratings and confidence intervals.")

TOURNAMENT_ID = re.compile(r"^[A-Za-z0-9]{1,64}$")
NAME = re.compile(r"^[A-Za-z0-9_.:=,+-]{1,40}$")
DEFAULT_MAX_ACTIVE = 32
CREATOR_AUTH = [{"seatToken": []}]


class EntrantSchema(ma.Schema):
    """One entrant: a bot with parameters, or an external player (a person or a program that
    plays its seats through the API with the seat tokens the tournament gives it)."""

    name = fields.String(validate=validate.Regexp(NAME), metadata={
        "description": "its name in the standings (default: the bot and its parameters)"})
    kind = fields.String(load_default="bot", validate=validate.OneOf(["bot", "external"]))
    bot = fields.String(validate=validate.Length(min=1, max=64),
                        metadata={"description": "bot name (see /v1/bots); kind 'bot' only"})
    params = fields.Dict(keys=fields.String(), load_default=dict)

    @ma.validates_schema
    def _bot_named(self, data: dict[str, Any], **_: Any) -> None:
        if data["kind"] == "bot" and "bot" not in data:
            raise ma.ValidationError("a bot entrant must name its bot", "bot")
        if data["kind"] == "external" and ("bot" in data or data.get("params")):
            raise ma.ValidationError("an external entrant takes no bot or params", "kind")
        if data["kind"] == "external" and "name" not in data:
            raise ma.ValidationError("an external entrant needs a name", "name")


class AutomaSchema(ma.Schema):
    """The automa levels of a gauntlet: the game option that sets them, and the levels."""

    option = fields.String(required=True, validate=validate.Length(min=1, max=64),
                           metadata={"example": "alfred"})
    levels = fields.List(fields.Raw(), required=True, validate=validate.Length(min=1, max=8),
                         metadata={"example": ["white", "green"]})


class CreateTournamentSchema(ma.Schema):
    """A request to run a tournament."""

    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    format = fields.String(load_default="auto",
                           validate=validate.OneOf(["auto", ROUND_ROBIN, GAUNTLET]),
                           metadata={"description": "auto: a gauntlet for a game with an "
                                                    "automa seat, else a round robin"})
    entrants = fields.List(fields.Nested(EntrantSchema), required=True,
                           validate=validate.Length(min=1, max=16))
    deals = StrictInt(load_default=1, validate=validate.Range(min=1, max=1000), metadata={
        "description": "deals per group of entrants (round robin) or per automa level "
                       "(gauntlet); each deal is played once per seating rotation"})
    games = StrictInt(validate=validate.Range(min=1, max=MAX_GAMES), metadata={
        "description": "instead of deals: at least this many games (whole deals)"})
    seed = StrictInt(validate=validate.Range(min=0, max=MAX_SEED), metadata={
        "description": "deal d is seeded by seed + d, mixed with the server's secret"})
    max_parallel = StrictInt(load_default=4, validate=validate.Range(min=1, max=64))
    automa = fields.Nested(AutomaSchema, metadata={"description": "gauntlet only"})
    clock = fields.Nested(TimeControlSchema, metadata={
        "description": "a time control for every game's human seats, the external entrants' "
                       "(docs/clocks.md); bots keep their own budgets"})


class ProgressSchema(ma.Schema):
    """How far a tournament is."""

    status = fields.String(metadata={"description": "active, finished or cancelled"})
    total = fields.Integer()
    finished = fields.Integer(metadata={"description": "games ended"})
    in_progress = fields.Integer()


class TournamentSchema(ma.Schema):
    """A tournament, its progress and its standings so far."""

    id = fields.String()
    game = fields.String()
    options = fields.Dict()
    format = fields.String()
    deals = fields.Integer()
    seed = fields.Integer()
    max_parallel = fields.Integer()
    automa = fields.Dict(allow_none=True)
    clock = fields.Nested(TimeControlSchema, allow_none=True, metadata={
        "description": "the time control of its games' human seats (null: none)"})
    entrants = fields.List(fields.Dict())
    status = fields.String()
    progress = fields.Nested(ProgressSchema)
    standings = fields.Dict(metadata={"description": "entrants (rating order) with games, "
                                                     "wins/draws/losses, mean score and margin "
                                                     "with 95% CIs, openskill rating; "
                                                     "head_to_head; superiority"})
    created = timestamp("when the tournament was created")
    finished_at = timestamp("when it ended (null while it is played)", allow_none=True)


class CreatedTournamentSchema(TournamentSchema):
    """A new tournament with its secrets, shown only here."""

    creator_token = fields.String(metadata={"description": "cancels the tournament"})
    entrant_tokens = fields.Dict(metadata={
        "description": "external entrant name -> its token (lists its seat tokens)"})


class TournamentGamesSchema(ma.Schema):
    """A tournament's games in schedule order."""

    games = fields.List(fields.Dict(), metadata={
        "description": "slot, deal, labels (entrant per seat), game_id (once created), "
                       "status, result, forfeits; `tokens` {seat: token} for the calling "
                       "external entrant's seats. While a tournament with an external "
                       "entrant runs, a deal's results (and the standings' share of them) "
                       "are shown once every game of the deal has ended"})


class CancelledSchema(ma.Schema):
    """A cancelled tournament."""

    status = fields.String()
    aborted = fields.Integer(metadata={"description": "games in progress aborted"})


def _store(svc: Services) -> TournamentStore:
    found = current_app.extensions.get("bgb-tournaments")
    if found is None:
        found = current_app.extensions.setdefault("bgb-tournaments", TournamentStore(
            svc.redis, svc.store.retention.retain_finished_ms))
    return found


def _json(body: dict[str, Any], status: int = 200,
          headers: dict[str, str] | None = None) -> Response:
    response = Response(json.dumps(body, separators=(",", ":")), status=status,
                        mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _refuse(field: str, message: str) -> Problem:
    return validation_error({"json": {field: [message]}}, message)


def _default_name(entrant: dict[str, Any]) -> str:
    params = ",".join(f"{k}={v}" for k, v in sorted(entrant["params"].items()))
    return f"{entrant['bot']}:{params}" if params else str(entrant["bot"])


def _spec(body: dict[str, Any]) -> dict[str, Any]:
    """The validated, stored form of a creation request; 422 for what the game refuses."""
    try:
        game = core.get_game(body["game"])
    except core.UnknownGame:
        raise _refuse("game", f"unknown game; known: {core.game_names()}") from None
    options = body["options"]
    entrants = []
    for entrant in body["entrants"]:
        entrant = dict(entrant)
        entrant.setdefault("name", _default_name(entrant) if entrant["kind"] == "bot" else "")
        if not NAME.match(entrant["name"]):
            raise _refuse("entrants", f"bad entrant name {entrant['name']!r}")
        entrants.append(entrant)
    names = [e["name"] for e in entrants]
    if len(set(names)) != len(names):
        raise _refuse("entrants", "entrant names must differ (name two of the same bot)")
    automa_levels = body.get("automa")
    variants = [dict(options)]
    if automa_levels:
        if body["format"] == ROUND_ROBIN:
            raise _refuse("automa", "automa levels are for gauntlets only")
        variants = [dict(options, **{automa_levels["option"]: level})
                    for level in automa_levels["levels"]]
    with _options_checked(game, variants[0]):
        count = game.seat_count(variants[0])
        automa = game.automa_seats(variants[0])
    free = [seat for seat in range(count) if seat not in automa]
    if body["format"] == "auto":
        body = dict(body, format=GAUNTLET if automa else ROUND_ROBIN)
    if body["format"] == ROUND_ROBIN:
        if automa or not 2 <= count <= 5:
            raise _refuse("format", "a round robin needs a game of 2 to 5 seats without an "
                                    "automa (a solo game is a gauntlet)")
        if len(entrants) < count:
            raise _refuse("entrants", f"a round robin of {count}-seat games needs at least "
                                      f"{count} entrants")
    elif not automa or len(free) != 1:
        raise _refuse("format", "a gauntlet is for solo games against the game's automa")
    guard = current_limits()
    for variant in variants:
        with _options_checked(game, variant):
            game.new_game(variant, 0)  # every option the game would refuse, refused now
            if game.seat_count(variant) != count or game.automa_seats(variant) != automa:
                raise _refuse("automa", "the automa levels change the seats of the game")
        for entrant in entrants:
            seats = [{"kind": "bot", "bot": automa[s]} if s in automa else
                     {"kind": "bot", "bot": entrant["bot"], "params": entrant["params"]}
                     if entrant["kind"] == "bot" else {"kind": "human"} for s in range(count)]
            _validate_seats(game, variant, seats)
            fault = (guard.check_bot_budget(free[0], entrant["params"])
                     if entrant["kind"] == "bot" else None)
            if fault:
                raise _refuse("entrants", fault)
    return {"game": game.name, "options": options, "format": body["format"],
            "deals": _deals(body, len(entrants), len(free), len(variants)),
            "max_parallel": body["max_parallel"],
            "seed": body["seed"] if "seed" in body else secrets.randbelow(2**32),
            "automa": automa_levels, "seat_count": count, "clock": body.get("clock"),
            "automa_seats": {str(seat): bot for seat, bot in automa.items()},
            "entrants": entrants}


def _deals(body: dict[str, Any], entrants: int, free: int, levels: int) -> int:
    """The deals asked for, directly or as a number of games (rounded up to whole deals)."""
    if "games" not in body:
        return int(body["deals"])
    per_deal = (math.comb(entrants, free) * free if body["format"] == ROUND_ROBIN
                else entrants * levels)
    return max(1, -(-int(body["games"]) // per_deal))


def _public_entrant(entrant: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entrant.items() if k != "token_sha256"}


def _finished_games(spec: dict[str, Any], results: dict[int, dict[str, Any]]
                    ) -> list[dict[str, Any]]:
    plan = slots(spec)
    return [{"slot": slot, "block": plan[slot]["block"], "labels": plan[slot]["labels"],
             "result": record["result"]} for slot, record in sorted(results.items())
            if record.get("status") == "finished" and record.get("result")]


def _shown_results(info: dict[str, Any], results: dict[int, dict[str, Any]]
                   ) -> dict[int, dict[str, Any]]:
    """The results anyone may see: those of whole deals while a tournament with an external
    entrant runs (api.tournament_secrecy), else all. They only ever grow (a deal once shown
    stays shown, a record never changes), so their number identifies them."""
    shown = open_deals(info["spec"], info["status"], results)
    if shown is None:
        return results
    plan = slots(info["spec"])
    return {slot: record for slot, record in results.items() if plan[slot]["deal"] in shown}


def _body(tournament_id: str, info: dict[str, Any], progress: dict[str, Any],
          results: dict[int, dict[str, Any]]) -> dict[str, Any]:
    spec = info["spec"]
    results = _shown_results(info, results)
    return {"id": tournament_id, "game": spec["game"], "options": spec["options"],
            "format": spec["format"], "deals": spec["deals"], "seed": spec["seed"],
            "max_parallel": spec["max_parallel"], "automa": spec.get("automa"),
            "clock": spec.get("clock"),
            "entrants": [_public_entrant(e) for e in spec["entrants"]],
            "status": info["status"], "progress": progress,
            "standings": _cached("standings", tournament_id, len(results), lambda: standings(
                standings_names(spec), _finished_games(spec, results))),
            "created": rfc3339(info["created"]),
            "finished_at": maybe_rfc3339(info["finished_at"])}


_CACHE: OrderedDict[tuple[str, str, int], Any] = OrderedDict()
_CACHE_SIZE = 64
_CACHE_LOCK = threading.Lock()


def _cached(kind: str, tournament_id: str, recorded: int, compute: Callable[[], Any]) -> Any:
    """A tournament's standings or chart, computed once per number of recorded games (a
    recorded game never changes, so that number identifies the input)."""
    key = (kind, tournament_id, recorded)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    value = compute()
    with _CACHE_LOCK:
        _CACHE[key] = value
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


def _tournament(svc: Services, tournament_id: str) -> dict[str, Any]:
    info = _store(svc).info(tournament_id) if TOURNAMENT_ID.match(tournament_id) else None
    if info is None:
        raise Problem(404, "not-found", "Not found", f"no tournament {tournament_id!r}")
    return info


@blp.route("/tournaments")
class Tournaments(MethodView):
    """The collection of tournaments."""

    @blp.arguments(CreateTournamentSchema())
    @blp.response(201, CreatedTournamentSchema, headers={"Location": {
        "description": "the tournament's URL", "schema": {"type": "string"}}})
    @blp.problem(400, "the body is not valid JSON")
    @blp.problem(413, "the body is larger than 64 KiB")
    @blp.problem(415, "not JSON")
    @blp.problem(429, "too-many-tournaments: the server plays as many as it may at once")
    @blp.unavailable()
    def post(self, body: dict[str, Any]) -> Response:
        """Start a tournament; the server schedules and plays its games. The answer holds the
        creator's token (to cancel it) and each external entrant's token (to list its seat
        tokens), shown only here."""
        require_json_body()
        svc = services()
        spec = _spec(body)
        total = len(slots(spec))
        if total > MAX_GAMES:
            raise _refuse("deals", f"{total} games; a tournament plays at most {MAX_GAMES}")
        store = _store(svc)
        ceiling = int(svc.config.get("MAX_TOURNAMENTS") or os.environ.get("BGB_MAX_TOURNAMENTS")
                      or DEFAULT_MAX_ACTIVE)
        if len(store.active()) >= ceiling:
            raise Problem(429, "too-many-tournaments", "Too many tournaments",
                          f"this server plays {ceiling} tournaments at once; retry later",
                          headers={"Retry-After": "60"}, retry_after=60)
        entrant_tokens = {}
        for entrant in spec["entrants"]:
            if entrant["kind"] == "external":
                token, entrant["token_sha256"] = new_human_token()
                entrant_tokens[entrant["name"]] = token
        creator_token, creator_digest = new_human_token()
        tournament_id = secrets.token_hex(8)
        store.create(tournament_id, spec, secrets.token_hex(32), creator_digest, total)
        # Before its first game can start: the entrants' streams tell it first.
        notify_tournament(svc.redis, tournament_id, entrant_accounts(tournament_id, spec),
                          "tournament_started", "active")
        try:
            kick(svc.queue_redis, tournament_id)
        except redis.RedisError:
            log.warning("could not enqueue tournament %s; the sweeper will", tournament_id)
        info = store.info(tournament_id) or {}
        body_out = _body(tournament_id, info, store.progress(tournament_id) or {}, {})
        body_out.update(creator_token=creator_token, entrant_tokens=entrant_tokens)
        return _json(body_out, 201, {"Location": f"/v1/tournaments/{tournament_id}"})


@blp.route("/tournaments/<tournament_id>")
class TournamentResource(MethodView):
    """One tournament."""

    @blp.response(200, TournamentSchema)
    @blp.problem(404, "no such tournament")
    @blp.unavailable()
    def get(self, tournament_id: str) -> Response:
        """The tournament: its progress and its standings so far."""
        svc = services()
        info = _tournament(svc, tournament_id)
        store = _store(svc)
        return _json(_body(tournament_id, info, store.progress(tournament_id) or {},
                           store.results(tournament_id)))

    @blp.response(200, CancelledSchema)
    @blp.problem(401, "no creator token, or not this tournament's")
    @blp.problem(404, "no such tournament")
    @blp.problem(409, "tournament-over: already finished or cancelled")
    @blp.unavailable()
    @blp.doc(security=CREATOR_AUTH)
    def delete(self, tournament_id: str) -> Response:
        """Cancel the tournament (Bearer: its `creator_token`): no game is started any more,
        the games in progress are aborted; the standings keep the games that ended."""
        svc = services()
        info = _tournament(svc, tournament_id)
        token = bearer_token()
        if token is None or not hmac.compare_digest(info["creator_sha256"] or "",
                                                    token_hash(token)):
            raise unauthorized("cancelling needs 'Authorization: Bearer <creator token>' "
                               "from the tournament's creation")
        store = _store(svc)
        if not store.end(tournament_id, "cancelled"):
            raise Problem(409, "tournament-over", "Tournament over",
                          f"the tournament is already {info['status']}")
        notify_tournament(svc.redis, tournament_id,
                          entrant_accounts(tournament_id, info["spec"]),
                          "tournament_finished", "cancelled")
        aborted = 0
        results = store.results(tournament_id)
        for slot, game_id in store.games(tournament_id).items():
            if slot in results or is_claim(game_id):
                continue
            done, _ = svc.store.abort(game_id, {"seat": None, "move": {"type": "abort"},
                                                "events": [{"type": "aborted",
                                                            "by": "tournament"}]}, new_epoch())
            aborted += int(done)
        kick(svc.queue_redis, tournament_id)  # records the aborted games
        return _json({"status": "cancelled", "aborted": aborted})


@blp.route("/tournaments/<tournament_id>/games")
class TournamentGames(MethodView):
    """The games of one tournament."""

    @blp.response(200, TournamentGamesSchema)
    @blp.problem(401, "a token of no external entrant of this tournament")
    @blp.problem(404, "no such tournament")
    @blp.unavailable()
    @blp.doc(security=[{}, {"seatToken": []}])
    def get(self, tournament_id: str) -> Response:
        """Every game slot in schedule order, with its game once created and its result once
        ended. An external entrant's token (Bearer) adds the seat tokens of its seats."""
        svc = services()
        info = _tournament(svc, tournament_id)
        store = _store(svc)
        token = bearer_token()
        mine = entrant_of(info, token) if token is not None else None
        games = store.games(tournament_id)
        results = store.results(tournament_id)
        shown = _shown_results(info, results)
        tokens = store.tokens(tournament_id) if mine is not None else {}
        statuses = _statuses(svc, [g for s, g in games.items()
                                   if s not in results and not is_claim(g)])
        out = []
        for entry in slots(info["spec"]):
            slot = entry["slot"]
            game_id = games.get(slot)
            row: dict[str, Any] = {"slot": slot, "deal": entry["deal"],
                                   "labels": entry["labels"], "game_id": None,
                                   "status": "scheduled", "result": None}
            if game_id and not is_claim(game_id):
                row.update(game_id=game_id, status=statuses.get(game_id, "active"))
            if slot in results:
                record = results[slot]
                row["status"] = record["status"]
            if slot in shown:  # a deal still in play shows no result (tournament_secrecy)
                row.update(result=shown[slot]["result"],
                           forfeits=shown[slot].get("forfeits") or [])
            if mine is not None and slot in tokens:
                row["tokens"] = {str(seat): tok for seat, tok in tokens[slot].items()
                                 if entry["entrants"][seat] == mine}
            out.append(row)
        return _json({"games": out})


def entrant_of(info: dict[str, Any], token: str) -> int:
    """The index of the external entrant of a tournament whose token this is; 401 if none."""
    digest = token_hash(token)
    mine: int | None = None
    for index, entrant in enumerate(info["spec"]["entrants"]):
        if hmac.compare_digest(entrant.get("token_sha256") or "", digest):
            mine = index
    if mine is None:
        raise unauthorized("this token is no external entrant's of this tournament")
    return mine


def _statuses(svc: Services, game_ids: list[str]) -> dict[str, str]:
    pipe = svc.redis.pipeline(transaction=False)
    for game_id in game_ids:
        pipe.hget(keys.game_state(game_id), "status")
    return {g: (s.decode() if isinstance(s, bytes) else s or "active")
            for g, s in zip(game_ids, pipe.execute(), strict=True)}


@blp.route("/tournaments/<tournament_id>/chart.png")
class TournamentChart(MethodView):
    """The score distributions of a tournament."""

    @blp.doc(responses={"200": {"description": "a box plot of each entrant's final scores",
                                "content": {"image/png": {"schema": {
                                    "type": "string", "format": "binary"}}}},
                        "404": {"description": "no such tournament", "content": {
                            "application/problem+json": {"schema": {
                                "$ref": "#/components/schemas/Problem"}}}}})
    @blp.unavailable()
    def get(self, tournament_id: str) -> Response:
        """A PNG chart of each entrant's final scores over the games ended so far."""
        svc = services()
        info = _tournament(svc, tournament_id)
        spec = info["spec"]
        results = _shown_results(info, _store(svc).results(tournament_id))

        def draw() -> bytes:
            games = _finished_games(spec, results)
            scores: dict[str, list[float]] = {name: [] for name in standings_names(spec)}
            scores.update(score_lists(games))
            return chart_png(f"{spec['game']}: {len(games)} games", scores)

        png = _cached("chart", tournament_id, len(results), draw)
        return Response(png, mimetype="image/png", headers={"Cache-Control": "no-cache"})


SSE_PROGRESS_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["data"],
    "properties": {
        "id": {"type": "string", "description": "games ended"},
        "event": {"type": "string", "enum": ["progress"]},
        "data": {"type": "string", "description": 'JSON {"status", "total", "finished", '
                                                  '"in_progress"}'},
        "retry": {"type": "string"},
    },
}


@blp.route("/tournaments/<tournament_id>/events")
class TournamentEvents(MethodView):
    """A tournament's progress as server-sent events."""

    @blp.doc(responses={
        "200": {"description": "`event: progress` with the progress as JSON each time it "
                               "changes (first the current one); ends when the tournament "
                               "does. Text: read it line by line.",
                "content": {"text/event-stream": {"schema": SSE_PROGRESS_SCHEMA}}},
        "404": {"description": "no such tournament", "content": {"application/problem+json": {
            "schema": {"$ref": "#/components/schemas/Problem"}}}},
        "429": {"description": "too-many-streams (Retry-After)", "content": {
            "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
        "503": {"description": "service-unavailable (Retry-After)", "content": {
            "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}})
    def get(self, tournament_id: str) -> Response:
        """A stream of the tournament's progress, until it ends (or the server bounds it:
        reconnect)."""
        svc = services()
        _tournament(svc, tournament_id)
        release = admission().enter(client_group(request.remote_addr), "stream")
        try:
            chunks = _progress_events(svc, _store(svc), tournament_id, _client_socket())
            return Response(_Released(chunks, release), mimetype="text/event-stream",
                            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        except BaseException:
            release()
            raise


def _progress_events(svc: Services, store: TournamentStore, tournament_id: str,
                     client: ClientSocket | None) -> Iterator[str]:
    """Progress events, woken by the announcements of the tournament's scheduler on the
    version channels (the API's one pub/sub listener); every heartbeat reads the progress
    again, so a lost announcement costs one heartbeat at most."""
    deadline = time.monotonic() + float(svc.config["SSE_MAX_SECONDS"])
    heartbeat = float(svc.config["SSE_HEARTBEAT_SECONDS"])
    yield "retry: 1000\n\n"
    try:
        with svc.watcher.subscribe(keys.tournament_watch_id(tournament_id),
                                   client) as subscription:
            last = None
            while True:
                # Clears the wake-up before reading (the tournament has no game head: None).
                subscription.read()
                progress = store.progress(tournament_id)
                if progress is None:
                    return
                if progress != last:
                    data = json.dumps(progress, separators=(",", ":"))
                    yield f"id: {progress['finished']}\nevent: progress\ndata: {data}\n\n"
                    last = progress
                if progress["status"] in ENDED:
                    return
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                if not subscription.wait(min(heartbeat, remaining)):
                    yield ": heartbeat\n\n"
    except ClientGone:
        return
    except redis.RedisError as exc:
        log.warning("event stream of tournament %s ended: Redis unavailable (%r)",
                    tournament_id, exc)

