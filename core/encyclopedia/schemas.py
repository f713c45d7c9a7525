"""JSON Schemas of Encyclopedia's moves, events, view, result and options.

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

CARD = integer("an animal or expert card", 0)
DIE = integer("a die", 0)
COLOUR = integer("a continent colour (index in the catalog's colours)", 0)
SPACE = integer("a space (0-based)", 0)

MOVES = moves(
    move("draft", "take animal cards in the draft",
         {"type": "draft", "cards": [21, 25],
          "label": "Take Tree Swallow (Americas) and Giant Otter (Americas)"},
         cards=array(CARD)),
    move("animal", "take an animal card", card=CARD),
    move("expert", "take an expert card", card=CARD),
    move("place", "put a die on a space", die=DIE, space=SPACE),
    move("take", "take a die from a space", owner=SEAT, space=SPACE, die=DIE),
    move("act", "do an action", action=string("the action")),
    move("boost", "spend an expedition token for +2"),
    move("coin", "spend a coin to raise a die"),
    move("recolour", "make the die another colour", colour=COLOUR),
    move("seal_coins", "spend a royal seal: take coins"),
    move("seal_die", "spend a royal seal: +5 and recolour the die", colour=COLOUR),
    move("extra", "spend a royal seal for an additional action", die=DIE),
    move("decline", "no additional action"),
    move("focus", "publish from an animal card", card=CARD),
    move("join", "also publish another card's cube", card=CARD),
    move("discard", "also file a card as published", card=CARD),
    move("next", "no more cubes of this type"),
    move("finish", "finish publishing"),
    move("research", "research an animal", card=CARD, slot=integer("the type slot", 0)),
    move("stop", "stop researching"),
    move("top", "put an expert on top of an expert space", space=SPACE),
    move("under", "put an expert under an expert space", space=SPACE),
)


def _seat_event(kind: str, description: str, /, optional: dict[str, Schema] | None = None,
                **fields: Schema) -> Schema:
    return event(kind, description, optional, seat=SEAT, **fields)


EVENTS = moves(
    _seat_event("move", "a seat's move, as its label says", move=string("the move's type"),
                label=string()),
    _seat_event("action", "an action done", action=string(), colour=COLOUR, value=integer()),
    _seat_event("colour_match", "a die matched its space's colour"),
    _seat_event("dice_drawn", "dice drawn from the bag", dice=array(INTS)),
    _seat_event("owner_reward", "a space's owner rewarded", kind=string(), amount=integer()),
    _seat_event("publication", "animals published", cards=array(CARD),
                continental=array(CARD)),
    _seat_event("published", "an animal published", card=CARD, slot=integer()),
    _seat_event("reputation_bonus", "a reputation bonus", space=integer(), kind=string(),
                amount=integer()),
    _seat_event("reroll", "a die rerolled", die=DIE, value=integer()),
    _seat_event("research", "an animal researched", card=CARD, slot=integer()),
    _seat_event("deck_animal", "an animal taken from the deck", card=CARD),
    _seat_event("deck_expert", "an expert taken from the deck (then placed)", card=CARD),
    event("round", "a new round", round=integer(), tile=integer(), effect=string(),
          experts=array(CARD), animals=array(CARD)),
    event("round_end", "a round ended", round=integer(), first=SEAT),
    event("game_over", "the game is over"),
)

PER_SEAT = array(integer(), "one number per seat")
NESTED_INTS = array(INTS)
VIEW = obj({
    "game": string(enum=["encyclopedia"]),
    "seat": nullable(SEAT), "to_act": nullable(SEAT), "seat_count": integer(),
    "automa_seats": mapping(string(), "seat -> the bot playing it"),
    "n": integer("seats"), "solo": boolean(), "round": integer(),
    "phase": string(), "first": SEAT, "next_first": SEAT, "bank_used": boolean(),
    "turn": integer(), "busy": boolean(), "stack": STACK,
    "pending": array(INTS, "engine internal: pairs of numbers still to settle"),
    "coins": PER_SEAT, "tokens": PER_SEAT, "seals": PER_SEAT,
    "vp": PER_SEAT, "rep": PER_SEAT, "published_n": PER_SEAT, "dval": INTS,
    "spaces": array(NESTED_INTS), "areas": NESTED_INTS, "cont": NESTED_INTS,
    "on_cards": INTS, "to_place": INTS, "xdisplay": INTS, "xdiscard": INTS, "adisplay": INTS,
    "adiscard": INTS, "removed": INTS, "experts": array(NESTED_INTS),
    "hand": NESTED_INTS, "cubes": INTS, "published": NESTED_INTS, "grid": NESTED_INTS,
    "tiles": INTS, "xdeck": integer(), "adeck": integer(), "bag": INTS,
    "tiles_left": integer(),
    "continent_vp": array(integer(), "per seat: the VP its published animals and experts "
                          "would score by continent if the game ended now (E20.2(b))"),
    "ai": nullable(obj({"behaviour": nullable(integer()), "scoring": nullable(integer()),
                        "cards": INTS, "priority": INTS},
                       {"procedure": integer()},
                       description="the solo AI (null otherwise); hidden cards are null;"
                                   " `procedure`: the AI's procedure version (absent: 1)")),
    "catalog": obj({
        "colours": STRINGS, "types": STRINGS, "spaces": STRINGS,
        "tile": nullable(string("the text of this round's tile (null before the first)")),
        "animals": mapping(obj({
            "name": string(), "colour": COLOUR,
            "categories": array(string(), "its category of each type I-IV, in words",
                                min_items=4, max_items=4),
            "category_ids": array(integer(minimum=0), "its category of each type I-IV as an"
                                  " index into that type's categories (a stable key)",
                                  min_items=4, max_items=4)}),
            "animal card -> what it is"),
        "experts": mapping(obj({"name": string(), "colour": COLOUR,
                                "text": string("its text, in the answer's language")}),
                           "expert card -> what it is"),
    }, description="names and texts of the components in play"),
}, description="Encyclopedia as one seat (or a spectator) sees it")

RESULT = obj({
    **RESULT_COMMON,
    "breakdown": array(obj({k: integer() for k in (
        "game", "categories", "continents", "seals", "coins", "tokens", "experts", "ai_card",
        "total")}), "each seat's points by source"),
    "published": PER_SEAT,
    "places": array(integer(), "each seat's place (1 = first; ties share it)"),
    "winners": SEATS,
}, description="final scores")


def json_schemas(options_schema: dict[str, Any]) -> dict[str, Any]:
    """Encyclopedia's schemas, in the contract's `json_schemas()` form."""
    return {"moves": MOVES, "events": EVENTS, "result": RESULT,
            "options": options_of(options_schema),
            "view": with_options(VIEW, options_schema)}
