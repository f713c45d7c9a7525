"""The Darwin's Journey game state: plain ints, lists and dicts, cheap to copy and to dump."""

from __future__ import annotations

import copy
from typing import Any

# name -> how deep the value is copied by `clone` (0 immutable, 1 list, 2 list of lists, ...)
_FIELDS: dict[str, int] = {
    "n": 0, "players": 0, "solo": 0, "first_game": 0, "rng": 0, "round": 0, "phase": 0,
    "order": 1, "turn": 0, "placed": 0, "stack": 1,
    "coins": 1, "vp": 1, "tk": 1, "evo": 1, "ship": 1, "explorers": 2, "seals": 3, "home": 2,
    "worker5": 1, "crew": 3, "reserve": 2, "obj_slots": 2, "tents": 1, "stamps": 2, "tray": 1,
    "lenses": 1, "research": 1,
    "loc_owner": -1, "loc_workers": -2, "special": 1, "corr": 1, "envelopes": 2, "goals": 1,
    "beagle": 0, "academy": 1, "seal_bag": 1, "purple": 0, "box_seals": 1, "museum": 0,
    "museum_coins": 1, "specimens": -1, "obj_decks": 2, "obj_display": 2, "obj_gone": 1,
    "campsites": -2, "ribbons": 1, "ends": -1, "reserved_order": 1, "hands": 2, "kept": 2,
    "start_pairs": 2, "crew_pool": 1, "alfred": 9, "options": -1,
}
FIELDS = tuple(_FIELDS)


class State:
    """One game of Darwin's Journey (fields: see /work/coord/engine_api.md)."""

    __slots__ = (*FIELDS, "cache")

    def __init__(self) -> None:
        self.cache: list[dict[str, Any]] | None = None


def _copy(value: Any, depth: int) -> Any:
    if depth == 0:
        return value
    if depth == 1:
        return list(value)
    if depth == 2:
        return [list(v) for v in value]
    if depth == 3:
        return [[list(x) for x in v] for v in value]
    if depth == -1:
        return dict(value)
    if depth == -2:
        return {k: list(v) for k, v in value.items()}
    return copy.deepcopy(value)


def _copy_alfred(value: Any) -> Any:
    """Copy the solo module's data with its own flat copier (faster than deepcopy)."""
    if value is None:
        return None
    from core.darwins_journey import solo  # late: solo builds on this module

    return solo.clone_alfred(value)


def clone(state: State) -> State:
    """An independent copy (the cached legal moves are shared: they are never mutated)."""
    new = State.__new__(State)
    for name, depth in _FIELDS.items():
        value = getattr(state, name)
        setattr(new, name, _copy(value, depth) if depth != 9 else _copy_alfred(value))
    new.cache = state.cache
    return new


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def to_json(state: State) -> dict[str, Any]:
    """The state as plain JSON data."""
    return {name: _jsonable(getattr(state, name)) for name in FIELDS}


def from_json(data: dict[str, Any]) -> State:
    """The state that `to_json` produced (frames become tuples again)."""
    state = State()
    for name, depth in _FIELDS.items():
        value = data[name]
        if name == "stack":
            value = [_tuples(f) for f in value]
        else:
            value = _copy(value, depth) if depth != 9 else copy.deepcopy(value)
        setattr(state, name, value)
    return state
