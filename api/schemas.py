"""Marshmallow schemas of the HTTP boundary (requests validated, OpenAPI generated from them).

Every request schema rejects unknown fields (marshmallow's default RAISE).
"""

from __future__ import annotations

import re
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api import timestamps
from api.outbound import MAX_URL_LENGTH, OUTCOMES

MAX_SEATS = 16
MAX_SEED = 2**53 - 1  # exact in every JSON implementation
MAX_INDEX = 2**31 - 1  # Redis list indexes must stay in range


class StrictInt(fields.Integer):
    """An integer that must be a JSON number without a fraction (never a string or a bool)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    # `_deserialize` is marshmallow's documented extension point for custom fields.
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBool(fields.Boolean):
    """A JSON `true` or `false`, nothing else (marshmallow's Boolean also takes "yes", 1, 0
    and "on", which a client may mean otherwise)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise self.make_error("invalid")
        return value


class SeatSpecSchema(ma.Schema):
    """How one seat is played: by a human (who gets a token) or by a named bot."""

    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    bot = fields.String(validate=validate.Length(min=1, max=64),
                        metadata={"description": "bot name (see /v1/bots); kind 'bot' only"})
    params = fields.Dict(keys=fields.String(), metadata={"description": "the bot's parameters"})
    claim = StrictBool(metadata={
        "description": "human seats: the calling player (Authorization: Bearer <player key>) "
                       "owns this seat"})

    @ma.validates_schema
    def _bot_named_for_bot_seats(self, data: dict[str, Any], **_: Any) -> None:
        if data["kind"] == "bot" and "bot" not in data:
            raise ma.ValidationError("a bot seat must name its bot", "bot")
        if data["kind"] == "human" and ("bot" in data or "params" in data):
            raise ma.ValidationError("a human seat takes no bot or params", "kind")
        if data["kind"] == "bot" and data.get("claim"):
            raise ma.ValidationError("only a human seat can be claimed", "claim")


MAX_CLOCK_SECONDS = 30 * 24 * 3600  # a month a move is already more than a correspondence


class TimeControlSchema(ma.Schema):
    """A game's clock: a deadline per turn (correspondence), a main time with an increment
    (live play), or both; what happens to a human seat whose time runs out (docs/clocks.md).
    Bot seats are not clocked: their own budgets hold."""

    per_move = StrictInt(validate=validate.Range(min=1, max=MAX_CLOCK_SECONDS), metadata={
        "description": "seconds a seat has for each of its turns (e.g. 86400)",
        "example": 86400})
    main = StrictInt(validate=validate.Range(min=1, max=MAX_CLOCK_SECONDS), metadata={
        "description": "seconds of main time per seat for the whole game"})
    increment = StrictInt(validate=validate.Range(min=0, max=MAX_CLOCK_SECONDS), metadata={
        "description": "seconds added to a seat's main time at the end of each of its turns "
                       "(with `main` only; 0 when omitted)"})
    on_timeout = fields.String(required=True, validate=validate.OneOf(["bot", "resign"]),
                               metadata={"description": "`bot`: a bot (greedy) plays the "
                                                        "seat from then on; `resign`: the "
                                                        "seat resigns"})

    @ma.validates_schema
    def _some_time(self, data: dict[str, Any], **_: Any) -> None:
        if "per_move" not in data and "main" not in data:
            raise ma.ValidationError("a clock needs `per_move`, `main` or both", "per_move")
        if "increment" in data and "main" not in data:
            raise ma.ValidationError("`increment` needs `main`", "increment")


class SeatClockSchema(ma.Schema):
    """One seat's clock as a read shows it."""

    seat = fields.Integer(required=True)
    clocked = fields.Boolean(required=True, metadata={
        "description": "false for a seat a bot plays (its budget holds, not the clock)"})
    remaining_ms = fields.Integer(allow_none=True, required=True, metadata={
        "description": "main time left (for the seat to act: at the time of the answer); "
                       "null without a main time"})
    deadline = fields.DateTime(allow_none=True, required=True, metadata={
        "description": "RFC 3339 time the seat runs out of time, while it is to act"})


class ClockSchema(ma.Schema):
    """A game's time control and each seat's time."""

    per_move = fields.Integer(allow_none=True, required=True)
    main = fields.Integer(allow_none=True, required=True)
    increment = fields.Integer(allow_none=True, required=True)
    on_timeout = fields.String(required=True, validate=validate.OneOf(["bot", "resign"]))
    deadline = fields.DateTime(allow_none=True, required=True, metadata={
        "description": "RFC 3339 time the seat to act runs out of time (null: none runs)"})
    seats = fields.List(fields.Nested(SeatClockSchema), required=True)


class CreateGameSchema(ma.Schema):
    """A request to start a game."""

    game = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"example": "darwins-journey"})
    options = fields.Dict(keys=fields.String(), load_default=dict,
                          metadata={"description": "see /v1/games-catalog"})
    seats = fields.List(fields.Nested(SeatSpecSchema), validate=validate.Length(max=MAX_SEATS),
                        metadata={"description": "every seat in order; omitted: all human "
                                                 "except automa seats"})
    seed = StrictInt(validate=validate.Range(min=0, max=MAX_SEED),
                     metadata={"description": "setup randomness, mixed with the server's own "
                                              "unless `unranked` (random when omitted)"})
    unranked = StrictBool(load_default=False, metadata={
        "description": "true: the deal is `seed` itself, fully reproducible (analysis, tests, "
                       "replays) and so known to whoever chose it; the game is marked "
                       "unranked"})
    clock = fields.Nested(TimeControlSchema, metadata={
        "description": "a time control for the human seats (docs/clocks.md); none: no "
                       "clock"})


STATUSES = ["active", "finished", "aborted", "abandoned"]
SEAT_KINDS = ["human", "bot"]


class DealSchema(ma.Schema):
    """The commitment to a game's effective seed, and the seed once the game is over."""

    commitment = fields.String(required=True, metadata={
        "description": "sha256 hex of 'bgb-seed:<seed>:<salt>'"})
    unranked = fields.Boolean(required=True)
    scheme = fields.String(required=True, metadata={"description": "how seed and commitment "
                                                                   "are computed"})
    revealed = fields.Dict(allow_none=True, required=True, metadata={
        "description": "null while the game is active; then seed, salt, client_seed, "
                       "server_nonce and unranked (check with `bgb verify GAME`)"})


class SeatSchema(ma.Schema):
    """A seat as anyone may see it."""

    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(SEAT_KINDS))
    bot = fields.String()
    resigned = fields.Boolean(metadata={"description": "true: the seat resigned (a bot plays "
                                                       "its turns)"})
    player = fields.String(metadata={"description": "the player owning the seat, if any"})
    assisted = fields.Boolean(metadata={"description": "true: the seat asked for a hint "
                                                       "(a practice game, docs/analysis.md)"})


class CreatedSeatSchema(SeatSchema):
    """A seat in the creation answer: human seats carry their secret token, shown once."""

    token = fields.String(metadata={"description": "the seat's secret bearer token (human "
                                                   "seats; shown only here)"})
    params = fields.Dict()


class CreatedGameSchema(ma.Schema):
    """The answer to a game creation."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    to_act = fields.Integer(allow_none=True, required=True)
    seats = fields.List(fields.Nested(CreatedSeatSchema), required=True)
    creator_token = fields.String(required=True, metadata={
        "description": "the creator's secret token (shown only here): it aborts the game"})
    deal = fields.Nested(DealSchema, required=True)
    rematch_of = fields.String(metadata={"description": "a rematch: the game it follows"})


class RematchSchema(CreatedGameSchema):
    """The answer to a rematch: a creation answer holding only the caller's secrets."""

    creator_token = fields.String(allow_none=True, required=True, metadata={
        "description": "the new game's creator token, to a rematch asked with the creator "
                       "token only; null otherwise (the original creator's token then "
                       "aborts the new game too)"})


class RematchTokenSchema(ma.Schema):
    """A seat's token in a game's rematch, redeemed with its token of the old game."""

    game = fields.String(required=True, metadata={"description": "the rematch's id"})
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={
        "description": "the seat's secret token in the rematch (shown only here)"})


class GameQuerySchema(ma.Schema):
    """Long-poll parameters of a game read."""

    wait_version = fields.Integer(validate=validate.Range(min=-1, max=MAX_INDEX), metadata={
        "description": "answer once the version is greater than this or the game is over "
                       "(long poll)"})
    timeout = fields.Float(validate=validate.Range(min=0, max=30), load_default=20.0, metadata={
        "description": "seconds a long poll waits at most (default 20, max 30)"})
    at = fields.Integer(validate=validate.Range(min=0, max=MAX_INDEX), metadata={
        "description": "a replay: the game as it stood at this version (after its first `at` "
                       "log entries), as the caller's seat saw it then (docs/records.md); not "
                       "with `wait_version`"})
    seat = fields.Integer(validate=validate.Range(min=0, max=MAX_SEATS - 1), metadata={
        "description": "with a player key: which of the player's seats reads (needed when "
                       "it owns several, a hot-seat game); with `at`, once the game is over "
                       "and a seat token: whose view to show (by default the caller's; during "
                       "play only the caller's own seat may be named)"})

    @ma.validates_schema
    def _replay_alone(self, data: dict[str, Any], **_: Any) -> None:
        """A replay is no long poll."""
        if "at" in data and "wait_version" in data:
            raise ma.ValidationError("a replay (`at`) does not wait: leave out `wait_version`",
                                     "at")


class ForfeitSchema(ma.Schema):
    """A bot's move forfeited for overrunning its time budget: the server's worker played a
    `random` legal move instead."""

    version = fields.Integer(required=True, metadata={
        "description": "the version the move was chosen against (its log entry's index)"})
    seat = fields.Integer(required=True)
    bot = fields.String(required=True)
    elapsed_ms = fields.Integer(required=True, metadata={"description": "the bot's thinking"})
    budget_ms = fields.Integer(required=True, metadata={"description": "its `ms` budget"})
    grace_ms = fields.Integer(required=True, metadata={
        "description": "the overrun allowed before a forfeit (BGB_BOT_GRACE_MS)"})


class ForfeitClaimSchema(ma.Schema):
    """What a bot worker reports with a forfeited move (the server adds seat and version)."""

    bot = fields.String(required=True, validate=validate.Length(min=1, max=64))
    elapsed_ms = StrictInt(required=True, validate=validate.Range(min=0))
    budget_ms = StrictInt(required=True, validate=validate.Range(min=0))
    grace_ms = StrictInt(required=True, validate=validate.Range(min=0))


class GameSchema(ma.Schema):
    """A game as the caller's seat (or a spectator) sees it."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    to_act = fields.Integer(allow_none=True, required=True)
    seat = fields.Integer(allow_none=True, required=True, metadata={
        "description": "whose view this is: the caller's seat (in a replay of a game that is "
                       "over, the `seat` asked for); null for a spectator"})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    view = fields.Dict(required=True, metadata={"description": "game.view(state, seat)"})
    legal_moves = fields.List(fields.Dict(), required=True,
                              metadata={"description": "the caller's moves when it is to act"})
    result = fields.Dict(allow_none=True, required=True)
    deal = fields.Nested(DealSchema, allow_none=True, required=True)
    rematch_of = fields.String(allow_none=True, metadata={
        "description": "the game this one is the rematch of"})
    rematch = fields.String(allow_none=True, metadata={"description": "this game's rematch"})
    clock = fields.Nested(ClockSchema, allow_none=True, metadata={
        "description": "the game's time control and each seat's time (null: no clock)"})
    forfeits = fields.List(fields.Nested(ForfeitSchema), metadata={
        "description": "bot moves forfeited for overrunning their time budget by more than "
                       "the grace, oldest first (each was played as a `random` legal move; "
                       "its log entry has the same `forfeit`)"})
    takeback = fields.Integer(allow_none=True, metadata={
        "description": "the log index of the caller's move it may take back now (POST "
                       "/v1/games/{id}/takeback; docs/api.md), or null: a spectator, a "
                       "ranked game, another seat acted since, or the move drew or revealed "
                       "something"})


class AbortedSchema(ma.Schema):
    """The answer to an abort."""

    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["aborted"]))


class MoveRequestSchema(ma.Schema):
    """A move chosen from the legal list, with the version it was chosen against."""

    move = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "one of the seat's `legal_moves`, sent back as it came (its `label` may "
                       "be left out); the game's <Game>Move schemas describe each type",
        "example": {"type": "place", "worker": 0, "location": "explore.1", "knowledge": 0}})
    version = StrictInt(validate=validate.Range(min=0), metadata={
        "description": "the game version the move was chosen against: required unless the "
                       'request carries it as `If-Match: "<version>"` (422 when neither does; '
                       "both must agree)"})
    forfeit = fields.Nested(ForfeitClaimSchema, metadata={
        "description": "the server's bot workers only (a bot seat's derived token): the bot "
                       "overran its budget and this move is the fallback's `random` move; "
                       "recorded with the move"})
    bot_job = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "the server's bot workers only (a bot seat's derived token): the id "
                       "of the worker's job, which plays the game's next bot turn itself, so "
                       "that no job is queued for it (see `bot_job` in the answer)"})


class MoveResultSchema(ma.Schema):
    """The answer to a stored move."""

    game = fields.String(required=True, metadata={
        "description": "the game's name: which game's moves and events the answer holds"})
    version = fields.Integer(required=True)
    events = fields.List(fields.Dict(), required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    to_act = fields.Integer(allow_none=True, required=True)
    result = fields.Dict(allow_none=True, required=True)
    legal_moves = fields.List(fields.Dict(), metadata={
        "description": "the seat's legal moves when the move leaves it to act, so that it "
                       "plays on without reading the game (as in a game read: empty when "
                       "another seat is to act)"})
    bot_job = fields.String(metadata={
        "description": "present when the request's `bot_job` now holds the next turn: a bot "
                       "seat is to act and no job was queued for it; the worker plays it"})
    next = fields.Nested(GameSchema, metadata={
        "description": "with `bot_job`: the game as the seat to act reads it, so that the "
                       "worker plays that turn without a read (left out of an "
                       "Idempotency-Key's replay)"})


class MoveLogQuerySchema(ma.Schema):
    """A page of the move log."""

    after = fields.Integer(load_default=-1, validate=validate.Range(min=-1, max=MAX_INDEX),
                           metadata={"description": "only moves with a greater index"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=200))
    seat = fields.Integer(validate=validate.Range(min=0, max=MAX_SEATS - 1), metadata={
        "description": "with a player key: which of the player's seats reads (needed when "
                       "it owns several)"})


class LogEntrySchema(ma.Schema):
    """One move of the log, redacted for the caller."""

    index = fields.Integer(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the seat that moved (null for the creator's abort or abandonment)"})
    move = fields.Dict(required=True)
    events = fields.List(fields.Dict(), required=True)
    system = fields.Boolean(metadata={
        "description": "true: not a move of the rules (abort, resign, abandon); replays skip it"})
    takeback = fields.Integer(metadata={
        "description": "present on a take-back: the index of the entry it takes back; replays "
                       "go back to the state before that entry (docs/api.md)"})
    forfeit = fields.Nested(ForfeitSchema, metadata={
        "description": "present when the bot overran its time budget: this move is the "
                       "`random` legal move played in its place"})


class MoveLogSchema(ma.Schema):
    """A page of the move log."""

    game = fields.String(required=True, metadata={
        "description": "the game's name: which game's moves and events the page holds"})
    moves = fields.List(fields.Nested(LogEntrySchema), required=True)
    next = fields.Integer(allow_none=True, required=True,
                          metadata={"description": "pass as `after` for the next page"})


class CatalogGameSchema(ma.Schema):
    """A game the server plays."""

    name = fields.String(required=True)
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    options = fields.Dict(required=True)
    rules_url = fields.String(metadata={
        "description": "the game's rules as this server implements them (its readings of the "
                       "rulebook, its stand-in values), a page of the documentation site; "
                       "only when the server names its site (BGB_DOCS_URL)"})


class CatalogSchema(ma.Schema):
    """Every game the server plays."""

    games = fields.List(fields.Nested(CatalogGameSchema), required=True)


class BotSchema(ma.Schema):
    """A bot that can take a seat."""

    name = fields.String(required=True)
    title = fields.String(required=True, metadata={
        "description": "its name as a player reads it, in the answer's language"})
    description = fields.String(required=True)
    params = fields.Dict(required=True)


class BotsSchema(ma.Schema):
    """Every bot that can take a seat."""

    bots = fields.List(fields.Nested(BotSchema), required=True)


# What a display name may not hold: control characters (C0, DEL, C1) and the invisible
# format characters that reorder or hide the text around them where the name is shown
# (bidi embeddings, overrides, isolates and marks, zero-width characters, the BOM). One
# pattern, documented as the field's `pattern` and applied as is. Lone surrogates (a JSON
# `\ud800` escape) are refused too, but not through the pattern: a surrogate range in a
# pattern is an error to regex engines on Unicode scalar values (Rust's, which schemathesis
# uses, then ignores the whole pattern), and no UTF-8 text can hold one anyway.
_NOT_IN_NAMES = (r"\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f"
                 r"\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb")
NAME_PATTERN = f"^[^{_NOT_IN_NAMES}]+$"
_SURROGATES = re.compile(r"[\ud800-\udfff]")


class PrintableText(validate.Validator):
    """Text of printable characters only (NAME_PATTERN, matched whole: a trailing newline
    too is refused), without lone surrogates."""

    def __init__(self) -> None:
        self.pattern = re.compile(NAME_PATTERN)

    def __call__(self, value: str) -> str:
        if self.pattern.fullmatch(value) is None or _SURROGATES.search(value):
            raise ma.ValidationError("printable text only: no control characters, no "
                                     "invisible or text-direction characters")
        return value


class NewPlayerSchema(ma.Schema):
    """A request for a new player."""

    name = fields.String(validate=[validate.Length(min=1, max=64), PrintableText()], metadata={
        "description": "a display name (optional): printable text", "example": "Ada",
        "pattern": NAME_PATTERN})


def timestamp(description: str, **kwargs: Any) -> fields.String:
    """A time in an answer: RFC 3339, UTC, milliseconds (api.timestamps)."""
    return fields.String(**kwargs, metadata={
        "format": "date-time", "example": timestamps.EXAMPLE,
        "description": f"{description} (RFC 3339, UTC)"})


class PlayerSchema(ma.Schema):
    """A player as it sees itself."""

    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    created = timestamp("when the player was created", required=True)


class CreatedPlayerSchema(PlayerSchema):
    """A new player, with its secret key (shown only here)."""

    key = fields.String(required=True, metadata={
        "description": "the player's secret key: `Authorization: Bearer <key>` on /v1/players/me "
                       "and on seat claims; stored only hashed", "example": "bgbp_…"})


class PlayerKeySchema(ma.Schema):
    """A player's new key (shown only here): the previous one no longer works."""

    id = fields.String(required=True)
    key = fields.String(required=True, metadata={
        "description": "the player's new secret key; the previous key stopped working",
        "example": "bgbp_…"})


class DeletedPlayerSchema(ma.Schema):
    """What deleting a player did to its games."""

    id = fields.String(required=True)
    resigned = fields.List(fields.Nested(lambda: ResignedSeatSchema()), required=True, metadata={
        "description": "the player's seats of active games, each resigned as "
                       "`POST /v1/games/{id}/resign` does"})


class ResignedSeatSchema(ma.Schema):
    """A seat resigned when its player was deleted."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))


class PlayerGamesQuerySchema(ma.Schema):
    """Filters and page of a player's games."""

    status = fields.String(validate=validate.OneOf(["active", "finished", "aborted",
                                                    "abandoned"]))
    # A query's boolean as OpenAPI spells it, "true" or "false" (not "1", "yes" or "on").
    my_turn = fields.Boolean(truthy={"true"}, falsy={"false"}, metadata={
        "description": "only games where one of the player's seats is to act"})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    before = fields.Float(metadata={"description": "the `next` of the previous page (a "
                                                   "cursor)"})


class PlayerGameSchema(ma.Schema):
    """One of a player's games."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    created = timestamp("when the game was created", required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    to_act = fields.Integer(allow_none=True, required=True)
    seats = fields.List(fields.Integer(), required=True, metadata={
        "description": "the player's seats (a new token: POST /v1/games/{id}/seats/{seat}/token)"})
    my_turn = fields.Boolean(required=True)


class PlayerGamesSchema(ma.Schema):
    """A page of a player's games, newest first."""

    games = fields.List(fields.Nested(PlayerGameSchema), required=True)
    next = fields.Float(allow_none=True, required=True, metadata={
        "description": "pass as `before` for the next page; null on the last (a cursor, "
                       "not a timestamp)"})


def _each_once(items: list[Any]) -> None:
    """A list naming each of its values once (`uniqueItems`)."""
    if len(set(items)) != len(items):
        raise ma.ValidationError("each value at most once")


class NewWebhookSchema(ma.Schema):
    """A webhook to register."""

    url = fields.Url(required=True, require_tld=False, schemes={"http", "https"},
                     validate=validate.Length(min=1, max=MAX_URL_LENGTH), metadata={
                         # "uri", the JSON Schema format (marshmallow's "url" is no format)
                         "format": "uri", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
                         "example": "https://push.example.com/bgb",
                         "description": "http(s) to a public address, without a user name or "
                                        "password (docs/webhooks-security.md)"})
    events = fields.List(fields.String(validate=validate.OneOf(
                             ["your_turn", "game_over", "deadline_soon"])),
                         required=True, validate=[validate.Length(min=1, max=3), _each_once],
                         metadata={"example": ["your_turn", "game_over"], "uniqueItems": True,
                                   "description": "`deadline_soon`: the seat's clock runs out "
                                                  "soon (docs/clocks.md)"})


class WebhookSchema(ma.Schema):
    """A registered webhook."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    created = timestamp("when the webhook was registered", required=True)


class CreatedWebhookSchema(WebhookSchema):
    """A new webhook with its signing secret (shown only here)."""

    secret = fields.String(required=True, metadata={
        "description": "Standard Webhooks secret (`whsec_…`): verify `webhook-signature`"})


class WebhooksSchema(ma.Schema):
    """A player's webhooks."""

    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


class DeliverySchema(ma.Schema):
    """One delivery attempt and its coarse outcome (never an error kind or a timing)."""

    message_id = fields.String(required=True, metadata={
        "description": "the delivery's `webhook-id` (the same on each retry)"})
    at = timestamp("when it was attempted", required=True)
    event = fields.String(required=True, metadata={"example": "your_turn"})
    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES), metadata={
        "description": "`delivered` (a 2xx answer); `refused` (the receiver answered another "
                       "status: see `status_class`; redirects are not followed); `unreachable` "
                       "(no answer: DNS, connection or timeout); `forbidden` (the URL or an "
                       "address it resolves to is not public: never retried)"})
    status_class = fields.String(required=True, allow_none=True,
                                 validate=validate.OneOf(["1xx", "2xx", "3xx", "4xx", "5xx"]),
                                 metadata={"description": "the class of the receiver's HTTP "
                                                          "status; null without an answer"})
    ok = fields.Boolean(required=True, metadata={"description": "outcome is `delivered`"})


class DeliveriesSchema(ma.Schema):
    """A webhook's delivery attempts, newest first (the last 100)."""

    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)


class QueuedDeliverySchema(ma.Schema):
    """A queued test delivery."""

    message_id = fields.String(required=True)


class ClaimSchema(ma.Schema):
    """A seat's token, proving the caller was given the seat (e.g. by a join link)."""

    token = fields.String(required=True, validate=validate.Length(min=1, max=256))


class InviteSchema(ma.Schema):
    """A seat offered to a player."""

    player = fields.String(required=True, validate=validate.Length(min=1, max=64), metadata={
        "description": "the invited player's id", "example": "Xq3f9LmQ2aZk7WcP"})


class ChallengeSchema(ma.Schema):
    """A seat of a game offered to a player."""

    id = fields.String(required=True)
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    created = timestamp("when the seat was offered", required=True)


class ChallengesSchema(ma.Schema):
    """A player's pending challenges, oldest first."""

    challenges = fields.List(fields.Nested(ChallengeSchema), required=True)


class AcceptedChallengeSchema(ma.Schema):
    """An accepted challenge: the player's seat and its new token (shown only here)."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={
        "description": "the seat's new token (the inviter's stopped working); the player's "
                       "key plays the seat too"})


class OpenSeatSchema(ma.Schema):
    """A seat of a game open to any player (the lobby)."""

    game_id = fields.String(required=True)
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    players = fields.Integer(required=True, metadata={"description": "the game's seats"})
    created = timestamp("when the seat was opened", required=True)


class OpenSeatsSchema(ma.Schema):
    """The lobby: the seats open to any player, oldest first."""

    seats = fields.List(fields.Nested(OpenSeatSchema), required=True)


class OpenSeatsQuerySchema(ma.Schema):
    """Which open seats to list."""

    game = fields.String(validate=validate.Length(min=1, max=64), metadata={
        "description": "only this game's seats (e.g. darwins-journey)"})


class ClaimedSchema(ma.Schema):
    """A seat and its owner."""

    seat = fields.Integer(required=True)
    player = fields.String(required=True)


class SeatTokenSchema(ma.Schema):
    """A seat's new token (the previous one no longer opens the seat)."""

    seat = fields.Integer(required=True)
    token = fields.String(required=True)


class ResignSchema(ma.Schema):
    """A resignation."""

    bot = fields.String(validate=validate.Length(min=1, max=64), metadata={
        "description": "games of 3+ seats: the bot that plays the seat's remaining turns "
                       "(default random)"})


class ResignedSchema(ma.Schema):
    """The game after a resignation."""

    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    seat = fields.Integer(required=True)


class HealthSchema(ma.Schema):
    """Liveness of the API and its Redis."""

    status = fields.String(required=True)
    redis = fields.String(required=True)


class ProblemSchema(ma.Schema):
    """An error (RFC 9457 problem details)."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    errors = fields.Dict(metadata={"description": "validation-error: the bad fields"})
    legal_moves = fields.List(fields.Dict(), metadata={"description": "illegal-move"})
    current = fields.Nested(GameSchema, metadata={"description": "stale-version: the game now"})
    to_act = fields.Integer(allow_none=True, metadata={"description": "not-your-turn: the seat "
                                                                      "to act"})
    result = fields.Dict(allow_none=True, metadata={"description": "game-over: the result "
                                                                   "(null if aborted)"})
    retry_after = fields.Integer(metadata={"description": "rate-limited, too-many-bot-games: "
                                                          "seconds to wait"})

    class Meta:
        # RFC 9457: problem types may add members; clients must ignore the ones they do
        # not know, so the schema must not forbid them.
        unknown = ma.INCLUDE
