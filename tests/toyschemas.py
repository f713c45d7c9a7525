"""JSON Schemas of the test games toy-pontoon and toy-secret (`json_schemas()`)."""

from __future__ import annotations

from typing import Any

from core.json_schema import (
    BOOLS,
    INTS,
    RESULT_COMMON,
    SEAT,
    Schema,
    array,
    boolean,
    event,
    integer,
    move,
    moves,
    nullable,
    obj,
    options_of,
    string,
)


def _view(name: str) -> Schema:
    return obj({
        "game": string(enum=[name]), "seat": nullable(SEAT), "deck_size": integer(),
        "hands": array(nullable(INTS), "each seat's cards: only the caller's own"),
        "hand_sizes": INTS, "stopped": BOOLS, "turn": SEAT, "to_act": nullable(SEAT),
    })


RESULT = obj({**RESULT_COMMON, "breakdown": array(obj({"cards": integer(),
                                                       "bust": boolean()}))})
DRAW = move("draw", "draw the top card", {"type": "draw", "label": "Draw the top card"})
DREW = event("drew", "a card drawn", seat=SEAT)
STOPPED = event("stopped", "the seat stopped", seat=SEAT)


def pontoon(options_schema: dict[str, Any]) -> dict[str, Any]:
    """toy-pontoon's schemas."""
    return {"moves": moves(DRAW, move("stop", "stop drawing")),
            "events": moves(DREW, STOPPED), "view": _view("toy-pontoon"), "result": RESULT,
            "options": options_of(options_schema)}


def secret(options_schema: dict[str, Any]) -> dict[str, Any]:
    """toy-secret's schemas: a secret stop and a card event addressed to its drawer."""
    return {"moves": moves(DRAW, move("stop", "stop drawing (secret)", secret=boolean(),
                                      total=integer())),
            "events": moves(DREW, STOPPED, event("card", "the card drawn (to its drawer)",
                                                 seat=SEAT, card=integer(),
                                                 to=array(SEAT))),
            "view": _view("toy-secret"), "result": RESULT,
            "options": options_of(options_schema)}
