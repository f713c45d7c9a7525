"""JSON Schemas of Flotilla's moves, events, view, result and options.

Derived from the moves, events and views seeded games produce; `tests/api/test_openapi_types.py`
checks every one of them against these schemas, so a change of the engine's JSON shows there.
"""

from __future__ import annotations

from typing import Any

from core.json_schema import (
    INTS,
    RESULT_COMMON,
    SEAT,
    SEATS,
    STACK,
    STRINGS,
    Schema,
    array,
    boolean,
    either,
    event,
    integer,
    mapping,
    move,
    moves,
    nullable,
    obj,
    options_of,
    string,
    with_options,
)

COLOUR = string("a resource colour", ["red", "yellow", "green", "blue"])
GUILD = string("a guild", ["speakers", "traders", "founders", "delvers"])
CELL = integer("a board cell", 0)
SITE = integer("an outpost site (a board cell; -1: none)")
CARD = integer("a crew card", 0)
TILE = integer("an ocean tile", 0)
TEXT = string("a text, in the answer's language")
ROT = integer("rotation (sixths of a turn)", 0)

MOVES = moves(
    move("play", "play a crew card from the hand",
         {"type": "play", "card": 0, "label": "play The Captain"}, card=CARD),
    move("discard", "discard a crew card", card=CARD),
    move("copy", "copy another seat's played card", target=SEAT),
    move("regroup", "take the discard pile back"),
    move("retire", "retire this card for its bonus"),
    move("join", "switch to the Skyside and join the Flotilla"),
    move("done", "stop (the rest of the step is skipped)"),
    move("skip", "skip this step"),
    move("arrow", "a wheel's arrow: step on, or skip", skip=boolean()),
    move("sonar", "advance the Sonar marker, or not (A44)", advance=boolean()),
    move("build", "build a tile", cell=CELL, rot=ROT),
    move("place", "place a tile", cell=CELL, rot=ROT),
    move("pick_tile", "choose a drawn tile to place", tile=TILE),
    move("deplete", "deplete a tile", cell=CELL),
    move("buy", "buy a resource", colour=COLOUR),
    move("sell", "sell a resource", colour=COLOUR),
    move("resource", "gain a resource", colour=COLOUR),
    move("district", "score a district", colour=COLOUR),
    move("buy_skiff", "buy a skiff"),
    move("cargo", "load a barrel on a skiff", skiff=integer("the skiff", 0)),
    move("sail", "sail a skiff", skiff=integer("the skiff", 0), cell=CELL,
         optional={"unload": boolean("unload its cargo there")}),
    move("dial", "raise a guild's dial", guild=GUILD),
    move("influence", "gain influence with a guild", guild=GUILD),
    move("recruit", "recruit a crew card from a guild", guild=GUILD),
    move("seal", "take a guild's seal", guild=GUILD),
    move("wild", "count a wildcard die for a guild", die=integer("the die", 0), guild=GUILD),
    move("reroll", "reroll a die", die=integer("the die", 0)),
    move("resolve", "resolve a dive result", icon=string(),
         optional={"kind": string()}),
    move("objective", "build an outpost and take an objective", stack=integer(), site=SITE),
)


def _seat_event(kind: str, description: str, /, optional: dict[str, Schema] | None = None,
                **fields: Schema) -> Schema:
    return event(kind, description, optional, seat=SEAT, **fields)


FACE = array(either("integer", "string"), "a die face: its icon and value")
EVENTS = moves(
    _seat_event("play", "a crew card played", card=CARD, name=string("the card's name")),
    _seat_event("copy", "a played card copied", target=SEAT, card=CARD),
    _seat_event("regroup", "the discard pile taken back"),
    _seat_event("recruit", "a crew card recruited", card=CARD, guild=GUILD),
    _seat_event("joined_flotilla", "the seat joined the Flotilla", order=integer()),
    _seat_event("artifact", "an artifact gained", artifact=integer()),
    _seat_event("cargo", "a barrel loaded", skiff=integer(), colour=COLOUR),
    _seat_event("depleted", "a tile depleted", cell=CELL),
    _seat_event("dial", "a dial raised", guild=GUILD, value=integer()),
    _seat_event("district_scored", "a district scored", colour=COLOUR, a=integer(),
                b=integer()),
    _seat_event("dive", "dive dice rolled", results=STRINGS),
    _seat_event("end_triggered", "the end of the game triggered", last_round=integer()),
    _seat_event("guild_reward", "a guild's reward", guild=GUILD),
    _seat_event("influence", "influence gained", guild=GUILD, space=integer()),
    _seat_event("objective", "an objective scored", objective=integer(), site=SITE,
                vp=integer(), optional={"sky": boolean(
                    "its Skyside face (false: Sinkside), the scoring player's side; absent "
                    "in logs written before it was told")}),
    _seat_event("reroll", "a die rerolled", die=integer(), face=FACE),
    _seat_event("research", "research dice rolled", faces=array(FACE)),
    _seat_event("seal", "a seal taken", guild=GUILD),
    _seat_event("skiff", "a skiff bought"),
    _seat_event("survivor", "a survivor rescued", space=integer()),
    _seat_event("tile_built", "a tile built", tile=TILE, cell=CELL, rot=ROT),
    _seat_event("tile_drawn", "a tile drawn", tile=TILE),
    _seat_event("tile_placed", "a tile placed", tile=TILE, cell=CELL, rot=ROT),
    _seat_event("toxicity", "toxicity gained", amount=integer()),
    _seat_event("vp", "victory points gained", vp=integer(), why=string("the source")),
    event("game_over", "the game is over"),
)

PER_SEAT = array(integer(), "one number per seat")
NESTED_INTS = array(INTS)
VIEW = obj({
    "game": string(enum=["flotilla"]),
    "seat": nullable(SEAT), "to_act": nullable(SEAT), "seat_count": integer(),
    "automa_seats": mapping(string(), "seat -> the bot playing it"),
    "n": integer("seats"), "first": SEAT, "turn": SEAT,
    "round": integer(), "end_round": nullable(integer()), "over": boolean(),
    "vp_supply": integer(), "sector": PER_SEAT, "home": array(CELL),
    "board": mapping(INTS, "cell -> [tile, rotation, …] of each placed tile"),
    "coins": PER_SEAT, "vp": PER_SEAT, "sky": PER_SEAT, "tox": PER_SEAT, "penalty": PER_SEAT,
    "rescued": PER_SEAT,
    "hand": array(INTS, "per seat: the crew cards in hand as this seat may see them"),
    "hand_sizes": PER_SEAT, "discard": NESTED_INTS, "retired": NESTED_INTS,
    "skiffs": NESTED_INTS, "cargo": array(NESTED_INTS), "reserve": NESTED_INTS,
    "tiles": NESTED_INTS, "outposts": PER_SEAT, "floating": PER_SEAT, "seals": NESTED_INTS,
    "wheel": NESTED_INTS, "objectives": NESTED_INTS, "stations": PER_SEAT, "dials": INTS,
    "market": INTS, "sonar": integer(), "survivor": integer(), "hub": NESTED_INTS,
    "joined": integer(), "trade": NESTED_INTS, "obj_stacks": array(NESTED_INTS),
    "ocean_bag": INTS, "stack": STACK,
    "crew_top": array(nullable(integer())), "crew_sizes": NESTED_INTS,
    "art_bag_sizes": INTS, "crew_box_size": integer(),
    "catalog": obj({
        "radius": integer("the board's radius in hexes"),
        "hub_radius": integer("the central hub's radius in hexes"),
        "wheel_spaces": integer("the spaces of a guild's wheel"),
        "colours": STRINGS, "guilds": STRINGS, "market_prices": INTS,
        "cards": mapping(obj({"sinkside": TEXT, "skyside": TEXT,
                              "guild": nullable(string("its guild (all: every guild)")),
                              "level": either("integer", "string",
                                              description="1, 2 or starter")}),
                         "card -> its names"),
        "tiles": mapping(obj({"cost": mapping(integer(), "resources by colour"),
                              "depth": integer(), "districts": STRINGS,
                              "resource": string()}), "tile -> what it is"),
        "objectives": mapping(obj({"sinkside": TEXT, "skyside": TEXT}),
                              "objective -> its texts"),
        "artifacts": mapping(string(), "artifact -> its name"),
    }, description="names and texts of the components in play"),
}, description="Flotilla as one seat (or a spectator) sees it")

RESULT = obj({
    **RESULT_COMMON,
    "breakdown": array(obj({k: integer() for k in (
        "game", "coins", "resources", "toxicity", "seals", "total")}),
        "each seat's points by source"),
    "places": array(integer(), "each seat's place (1 = first; ties share it)"),
    "winners": SEATS,
}, description="final scores")


def json_schemas(options_schema: dict[str, Any]) -> dict[str, Any]:
    """Flotilla's schemas, in the contract's `json_schemas()` form."""
    return {"moves": MOVES, "events": EVENTS, "result": RESULT,
            "options": options_of(options_schema),
            "view": with_options(VIEW, options_schema)}
