"""The Encyclopedia game state: plain ints, lists and dicts, cheap to copy and to dump.

Hidden orders are never stored: decks, the dice bag and the round tiles are kept as sorted
lists and the card, die or tile drawn is picked with the state's PRNG at the moment of the
draw, so a state holds no secret but its `rng` (and, in solo, the AI's cards when drawn at
random; see views.py).
"""

from __future__ import annotations

from typing import Any

# name -> how deep `clone` copies it (0 immutable, 1 list, 2 list of lists, 3 three deep,
# -1 a flat dict)
_FIELDS: dict[str, int] = {
    "n": 0, "solo": 0, "options": -1, "rng": 0, "round": 0, "phase": 0, "first": 0,
    "next_first": 0, "bank_used": 0, "turn": 0, "busy": 0, "stack": 1, "pending": 1,
    "coins": 1, "tokens": 1, "seals": 1, "vp": 1, "rep": 1, "published_n": 1,
    "dval": 1, "spaces": 3, "areas": 2, "cont": 2, "on_cards": 1, "bag": 1, "to_place": 1,
    "xdisplay": 1, "xdeck": 1, "xdiscard": 1, "adisplay": 1, "adeck": 1, "adiscard": 1,
    "removed": 1, "experts": 3, "hand": 2, "cubes": 1, "published": 2, "grid": 2,
    "tiles_left": 1, "tiles": 1, "ai": -1,
}
FIELDS = tuple(_FIELDS)


class State:
    """One game of Encyclopedia (the fields are listed in `_FIELDS`; see rules.py)."""

    __slots__ = FIELDS

    n: int
    solo: bool
    options: dict[str, Any]
    rng: int
    round: int
    phase: str
    first: int
    next_first: int
    bank_used: bool
    turn: int
    busy: bool
    stack: list[tuple[Any, ...]]
    pending: list[tuple[int, int]]
    coins: list[int]
    tokens: list[int]
    seals: list[int]
    vp: list[int]
    rep: list[int]
    published_n: list[int]
    dval: list[int]
    spaces: list[list[list[int]]]
    areas: list[list[int]]
    cont: list[list[int]]
    on_cards: list[int]
    bag: list[int]
    to_place: list[int]
    xdisplay: list[int]
    xdeck: list[int]
    xdiscard: list[int]
    adisplay: list[int]
    adeck: list[int]
    adiscard: list[int]
    removed: list[int]
    experts: list[list[list[int]]]
    hand: list[list[int]]
    cubes: list[int]
    published: list[list[int]]
    grid: list[list[int]]
    tiles_left: list[int]
    tiles: list[int]
    ai: dict[str, Any]


_SEQUENCES = (list, tuple)


def _copy(value: Any, depth: int) -> Any:
    if depth == 0:
        return value
    if depth == 1:
        return list(value)
    if depth == 2:
        return [list(v) for v in value]
    if depth == 3:
        return [[list(x) for x in v] for v in value]
    return {k: (list(v) if isinstance(v, _SEQUENCES) else v) for k, v in value.items()}


_ITEMS = tuple(_FIELDS.items())


def clone(state: State) -> State:
    """An independent copy: each field copied as deep as `_FIELDS` says, written out field by
    field (half the time of a loop over `_FIELDS`; the solo AI copies the state for every
    plan it weighs, tests/core/test_encyclopedia_contract.py checks the two agree)."""
    new = State.__new__(State)
    new.n = state.n
    new.solo = state.solo
    new.options = {k: (list(v) if isinstance(v, _SEQUENCES) else v)
                   for k, v in state.options.items()}
    new.rng = state.rng
    new.round = state.round
    new.phase = state.phase
    new.first = state.first
    new.next_first = state.next_first
    new.bank_used = state.bank_used
    new.turn = state.turn
    new.busy = state.busy
    new.stack = list(state.stack)
    new.pending = list(state.pending)
    new.coins = list(state.coins)
    new.tokens = list(state.tokens)
    new.seals = list(state.seals)
    new.vp = list(state.vp)
    new.rep = list(state.rep)
    new.published_n = list(state.published_n)
    new.dval = list(state.dval)
    new.spaces = [[list(y) for y in x] for x in state.spaces]
    new.areas = [list(x) for x in state.areas]
    new.cont = [list(x) for x in state.cont]
    new.on_cards = list(state.on_cards)
    new.bag = list(state.bag)
    new.to_place = list(state.to_place)
    new.xdisplay = list(state.xdisplay)
    new.xdeck = list(state.xdeck)
    new.xdiscard = list(state.xdiscard)
    new.adisplay = list(state.adisplay)
    new.adeck = list(state.adeck)
    new.adiscard = list(state.adiscard)
    new.removed = list(state.removed)
    new.experts = [[list(y) for y in x] for x in state.experts]
    new.hand = [list(x) for x in state.hand]
    new.cubes = list(state.cubes)
    new.published = [list(x) for x in state.published]
    new.grid = [list(x) for x in state.grid]
    new.tiles_left = list(state.tiles_left)
    new.tiles = list(state.tiles)
    new.ai = {k: (list(v) if isinstance(v, _SEQUENCES) else v) for k, v in state.ai.items()}
    return new


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def to_json(state: State) -> dict[str, Any]:
    """The state as plain JSON data."""
    return {name: _jsonable(getattr(state, name)) for name in FIELDS}


def from_json(data: dict[str, Any]) -> State:
    """The state `to_json` produced (stack frames become tuples again)."""
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise KeyError(missing[0])
    state = State.__new__(State)
    for name, depth in _ITEMS:
        value = data[name]
        if name == "stack":
            value = [tuple(tuple(x) if isinstance(x, list) else x for x in f) for f in value]
        elif name == "pending":
            value = [tuple(p) for p in value]
        elif depth != 0 and not isinstance(value, (list, dict)):
            raise TypeError(f"field {name!r} has the wrong shape")
        else:
            value = _copy(value, depth)
        setattr(state, name, value)
    return state
