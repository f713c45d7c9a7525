"""JSON Schemas of Darwin's Journey's moves, events, view, result and options.

Derived from the moves, events and views seeded games produce; `tests/api/test_openapi_types.py`
checks every one of them against these schemas, so a change of the engine's JSON shows there.
"""

from __future__ import annotations

from typing import Any

from core.json_schema import (
    BOOLS,
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

COLOUR = string("a wax seal colour: B blue, G green, R red, Y yellow (P purple)",
                ["B", "G", "R", "Y", "P"])
LOCATION = string("an action location, e.g. explore.1, navigate.2, academy.3, special.0")
SPACE = string("an ocean (O…) or island (IA…, IB…, IC…) space")
ISLAND = string("an island", ["A", "B", "C"])
TILE = integer("a tile number")
SLOT = integer("an objective slot (0-based; -1: none)")
TEXT = string("its text, in the answer's language")
SEALS = mapping(integer(), "wax seals needed, by colour (B, G, R, Y)")
ACTION_KIND = string("the action's kind, as in the game's data files (coins, vp, tk, evo, explore, "
                     "navigate, correspond, academy, unlock, choice, purple, locked...)")
ACTION = obj({"a": ACTION_KIND}, {
    "n": integer("its amount or value"),
    "discount": integer("academy: coins less to pay"),
    "area": string("campsite: the campsite area"),
    "split": boolean("correspond: the stamps may go to several envelopes"),
    "free": boolean("unlock: without paying coins"),
    "of": array(array({"type": "object", "description": "an action (this same shape)"}),
                "choice: the options, each a list of actions"),
}, "an action in the data files' form")
ACTIONS = array(ACTION, "its actions, in order")
SEQ = boolean("its actions are done in their order (else in any order)")
REQUIREMENT_KIND = string(
    "what is counted: wax seals, specimens researched of a kind or a colour, empty stamp "
    "stacks, lens locations unlocked, evolution steps, tents on campsites, achieved objectives, "
    "the ship at or past the HMS Beagle",
    ["seals", "specimen_kind", "specimen_colour", "empty_stacks", "lenses", "evo", "tents",
     "objectives", "ship_beagle"])
WHAT = string("a seal's colour letter (seals), a specimen's kind (reptile, plant, bird, fossil) "
              "or colour (green, blue, red, yellow); empty for the other kinds")
REQUIREMENT = obj({"kind": REQUIREMENT_KIND, "what": WHAT, "n": integer("how many")})

MOVES = moves(
    move("place", "place a worker on a location, adding knowledge tokens",
         {"type": "place", "worker": 0, "location": "explore.1", "knowledge": 0,
          "label": "Worker 1 to Exploration 1"},
         worker=integer("the worker (0-based)", 0), location=LOCATION,
         knowledge=integer("temporary knowledge tokens added", 0)),
    move("act", "do one of the location's remaining actions", index=integer("the action", 0)),
    move("done", "do none of the remaining actions"),
    move("skip", "skip this action"),
    move("end_turn", "end the turn"),
    move("draft", "keep a crew card (secret: others see only the type)", card=TILE,
         secret=boolean("always true: the pick is hidden from the other seats")),
    move("pair", "take a pair of starting objectives", silver=TILE, gold=TILE),
    move("explore", "move an explorer along an island track", island=ISLAND, space=SPACE,
         stop=boolean("stop here")),
    move("explorer", "put an explorer at the start of an island", island=ISLAND),
    move("navigate", "move the ship", space=SPACE, stop=boolean("stop here")),
    move("objective", "take an objective onto a slot", tile=TILE, slot=SLOT),
    move("fulfil_objective", "fulfil an objective into a slot", tile=TILE, slot=SLOT),
    move("auto_fulfil", "fulfil an objective for free", tile=TILE, slot=SLOT),
    move("deliver", "deliver a specimen to the museum", specimen=integer("a specimen", 0)),
    move("research", "research a specimen from the museum", specimen=integer("a specimen", 0)),
    move("seal", "take a wax seal from a scroll onto a worker",
         scroll=integer("the scroll", 0), position=integer("left to right", 0),
         colour=COLOUR, worker=integer("the worker", 0)),
    move("stamp", "move a stamp from a stack to an envelope",
         envelope=integer("the envelope", 0), stack=integer("the stack", 0)),
    move("tent", "put a tent on a campsite", campsite=SPACE, slot=integer("the slot", 0)),
    move("unlock", "unlock a location", location=LOCATION),
    move("locked", "perform a locked location", location=LOCATION),
    move("alfred_draw", "Alfred draws an action card (his seat only)"),
    move("alfred", "Alfred's action, as his card dictates (his seat only)",
         card=TILE, option=integer("the card's option"), kind=string("the card's action kind"),
         worker=string("Alfred's worker"),
         optional={"location": LOCATION, "knowledge": integer(), "penalty": integer(),
                   "unlock": LOCATION}),
    move("purple", "put the purple seal onto a worker", worker=integer("the worker", 0)),
    move("pass", "fulfil no more objectives or crew cards now"),
    move("fulfil_crew", "fulfil a crew card with a worker's seals", card=TILE,
         worker=integer("the worker", 0)),
    move("reactivate", "re-activate one of your tents (its slot's actions again)",
         campsite=SPACE, slot=integer("the slot", 0)),
    move("beagle", "move the ship up to the HMS Beagle"),
    move("convert", "turn 1 knowledge into coins or points",
         into=string("what the knowledge becomes", ["coins", "vp"])),
    move("choose", "pick one of an action's options", option=integer("the option", 0)),
    move("copy", "copy the actions of a crew card in play", card=TILE),
)


def _seat_event(kind: str, description: str, /, optional: dict[str, Schema] | None = None,
                **fields: Schema) -> Schema:
    return event(kind, description, optional, seat=SEAT, **fields)


N = integer("an amount (negative: paid)")
EVENTS = moves(
    _seat_event("coins", "coins gained or paid", n=N),
    _seat_event("vp", "victory points gained", n=N),
    _seat_event("knowledge", "knowledge gained", n=N),
    _seat_event("evolution", "evolution steps", n=N),
    _seat_event("place", "a worker placed", worker=integer(), location=LOCATION),
    _seat_event("explore", "an explorer moved", island=ISLAND, space=SPACE),
    _seat_event("explorer", "an explorer put on an island", island=ISLAND),
    _seat_event("navigate", "the ship moved", space=SPACE),
    _seat_event("ribbon", "a ribbon taken", space=SPACE),
    _seat_event("tent", "a tent placed", campsite=SPACE, slot=integer()),
    _seat_event("unlock", "a location unlocked", location=LOCATION),
    _seat_event("locked_performed", "a locked location performed", location=LOCATION),
    _seat_event("seal", "a wax seal taken", colour=COLOUR, worker=integer(),
                optional={"scroll": integer()}),
    _seat_event("stamp", "a stamp placed", envelope=integer()),
    _seat_event("stamps", "stamps gained", envelope=integer(), n=N),
    _seat_event("stamps_discarded", "stamps discarded", envelope=integer(), n=N),
    _seat_event("stack_emptied", "a stamp stack emptied", stack=integer()),
    _seat_event("deliver", "a specimen delivered", specimen=integer(),
                repeat=boolean("a repeated delivery")),
    _seat_event("research", "a specimen researched", specimen=integer()),
    _seat_event("objective_taken", "an objective taken", tile=TILE),
    _seat_event("objective_fulfilled", "an objective fulfilled", tile=TILE,
                slot=string("the slot's name, e.g. silver1")),
    _seat_event("starting_objectives", "the starting objectives", silver=TILE, gold=TILE),
    _seat_event("beagle_goal", "a Beagle goal scored", points=integer(), delay=integer()),
    _seat_event("crew_revealed", "crew cards revealed", cards=INTS),
    _seat_event("crew_fulfilled", "a crew card fulfilled", card=TILE, worker=integer()),
    _seat_event("crew_copied", "a crew card's actions copied", card=TILE),
    _seat_event("tent_reactivated", "a tent re-activated", campsite=SPACE, slot=integer()),
    _seat_event("worker5", "the fifth worker gained"),
    _seat_event("drafted", "a crew card kept (which one: the `draft` event, to the seat only)"),
    _seat_event("draft", "the crew card kept; only the drafting seat sees it", card=TILE,
                to=SEATS),
    event("majority", "an envelope majority scored", envelope=integer(), first=SEATS,
          second=SEATS),
    event("phase", "a new phase", phase=string(), round=integer()),
    event("turn_order", "the new turn order", order=SEATS),
    event("game_over", "the game is over"),
    event("alfred_card", "Alfred's action card", card=TILE),
    event("alfred_bonus", "Alfred's bonus track", steps=integer(), space=integer()),
    event("alfred_bonus_card", "Alfred's bonus card", card=string(), round=integer()),
    event("alfred_discard_objective", "Alfred discards an objective", objective=TILE),
    event("alfred_lap", "Alfred completes a lap"),
    event("alfred_reshuffle", "Alfred's deck reshuffled"),
    event("alfred_rest", "an Alfred worker rests", worker=integer()),
    event("alfred_effect", "an effect of Alfred's card", effect=string()),
)

PER_SEAT_INTS = array(integer(), "one number per seat")
NESTED_INTS = array(INTS)
ALFRED = nullable(obj({
    "board": string("his difficulty"), "deck_size": integer(), "drawn": INTS,
    "card": nullable(integer()), "bonus": integer(), "bonus_cards": STRINGS,
    "rest": INTS, "effects": STRINGS,
    "pending": nullable(obj({}, description="always null (reading order leaves no tie)")),
    "beagle_value": integer(),
}, description="Alfred, solo only (null otherwise)"))

VIEW = obj({
    "game": string(enum=["darwins-journey"]),
    "seat": nullable(SEAT), "to_act": nullable(SEAT), "seat_count": integer(),
    "automa_seats": mapping(string(), "seat -> the bot playing it"),
    "n": integer("seats"), "players": integer("human players"),
    "solo": boolean(), "first_game": boolean(), "round": integer(),
    "phase": string("setup, draft, actions, ..., over"), "order": SEATS, "turn": integer(),
    "placed": integer(), "stack": STACK,
    "coins": PER_SEAT_INTS, "vp": PER_SEAT_INTS, "tk": PER_SEAT_INTS, "evo": PER_SEAT_INTS,
    "ship": PER_SEAT_INTS, "explorers": NESTED_INTS,
    "seals": array(array(STRINGS), "per seat, per worker: its seals"),
    "home": NESTED_INTS, "worker5": BOOLS, "crew": array(array(INTS)), "reserve": NESTED_INTS,
    "obj_slots": NESTED_INTS, "tents": PER_SEAT_INTS, "stamps": NESTED_INTS,
    "tray": PER_SEAT_INTS, "lenses": PER_SEAT_INTS, "research": PER_SEAT_INTS,
    "loc_owner": mapping(integer(), "location -> owner (-1 open, -2 locked)"),
    "loc_workers": mapping(INTS, "location -> workers on it"),
    "special": INTS, "corr": INTS, "envelopes": NESTED_INTS, "goals": INTS, "beagle": integer(),
    "academy": STRINGS, "purple": integer(), "box_seals": STRINGS, "museum": integer(),
    "museum_coins": BOOLS, "specimens": mapping(integer(), "space -> specimen"),
    "obj_display": NESTED_INTS, "obj_gone": INTS,
    "campsites": mapping(INTS, "space -> tent owners per slot"), "ribbons": STRINGS,
    "ends": mapping(boolean()), "reserved_order": INTS, "start_pairs": NESTED_INTS,
    "seal_bag": mapping(integer()), "obj_decks": INTS, "crew_pool": integer(),
    "hand_sizes": INTS, "kept_sizes": INTS, "hand_index": integer(),
    "hand": array(integer(), "the seat's own crew cards in the draft"), "kept": INTS,
    "alfred": ALFRED,
    "catalog": obj({
        "special": array(obj({"position": integer("its place on the board"), "tile": TILE,
                              "text": TEXT, "seals": SEALS, "actions": ACTIONS, "seq": SEQ})),
        "correspondence": array(obj({
            "tile": TILE, "text": TEXT,
            "first": array(ACTION, "the envelope's first place's reward"),
            "second": array(ACTION, "the envelope's second place's reward")})),
        "beagle_goals": array(obj({
            "tile": TILE, "text": TEXT, "kind": REQUIREMENT_KIND, "what": WHAT,
            "vp": integer("points for each one counted")})),
        "crew": array(obj({"card": TILE, "text": TEXT, "seal": COLOUR, "needs": SEALS,
                           "actions": ACTIONS, "seq": SEQ})),
        "objectives": array(obj({"tile": TILE, "gold": boolean("a gold objective"),
                                 "needs": array(string(), "its requirements in words"),
                                 "requires": array(REQUIREMENT, "its requirements")})),
    }, description="texts and requirements of the tiles and cards in play"),
}, description="Darwin's Journey as one seat (or a spectator) sees it")

RESULT = obj({
    **RESULT_COMMON,
    "breakdown": array(obj({k: integer() for k in (
        "game", "objectives", "objective_pair", "workers", "tents", "evolution", "coins",
        "knowledge", "total")}), "each seat's points by source"),
    "places": array(integer(), "each seat's place (1 = first; ties share it)"),
    "winners": SEATS,
}, description="final scores")


def json_schemas(options_schema: dict[str, Any]) -> dict[str, Any]:
    """Darwin's Journey's schemas, in the contract's `json_schemas()` form."""
    return {"moves": MOVES, "events": EVENTS, "result": RESULT,
            "options": options_of(options_schema),
            "view": with_options(VIEW, options_schema)}
