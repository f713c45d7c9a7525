"""The Darwin's Journey game state: plain ints, lists and dicts, cheap to copy and to dump."""

from __future__ import annotations

from typing import Any

from core.darwins_journey import hooks

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
        # the legal moves of the pending decision (Alfred's too, in solo), None until known;
        # reset by every move (rules.apply_move, the solo mode's apply) and shared by clones
        self.cache: list[dict[str, Any]] | None = None


def _copy_json(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, tuples of plain values).

    Equal to copy.deepcopy for such data and several times faster: `determinize` (once per MCTS
    iteration) copies the view's Alfred board with it.
    """
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_copy_json(v) for v in value)
    return value


def _copy_alfred(value: Any) -> Any:
    """Copy the solo mode's data with its own flat copier (faster than deepcopy)."""
    if value is None:
        return None
    return hooks.solo().clone_alfred(value)


# Leaves are kept as they are without a call each: most of a state is numbers and strings,
# and `to_json` runs on every stored move and every view.
_SCALARS = frozenset({int, str, bool, float, type(None)})


def _jsonable(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _SCALARS else _jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else _jsonable(v) for k, v in value.items()}
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _names(depth: int) -> tuple[str, ...]:
    """The fields copied `depth` deep (the stack and Alfred's data apart)."""
    return tuple(name for name, d in _FIELDS.items()
                 if d == depth and name not in ("stack", "alfred"))


# Fields grouped by how deep they are copied, for `from_json` (which `determinize` runs once
# per MCTS iteration): a loop per group copies with C built-ins, no function call per field.
_PLAIN, _LISTS, _LISTS2, _LISTS3, _DICTS, _DICTS2 = (
    _names(0), _names(1), _names(2), _names(3), _names(-1), _names(-2))
_FIELD_SET = frozenset(FIELDS)
if {*_PLAIN, *_LISTS, *_LISTS2, *_LISTS3, *_DICTS, *_DICTS2, "stack", "alfred"} != _FIELD_SET:
    raise AssertionError("a state field has a copy depth from_json does not handle")


def clone(state: State) -> State:
    """An independent copy (the cached legal moves are shared: they are never mutated).

    Copied group by group as `to_json` (search bots clone once per simulated move); the
    stack's frames are tuples, shared."""
    new = State.__new__(State)
    for name in _PLAIN:
        setattr(new, name, getattr(state, name))
    for name in _LISTS:
        setattr(new, name, list(getattr(state, name)))
    for name in _LISTS2:
        setattr(new, name, [list(v) for v in getattr(state, name)])
    for name in _LISTS3:
        setattr(new, name, [[list(x) for x in v] for v in getattr(state, name)])
    for name in _DICTS:
        setattr(new, name, dict(getattr(state, name)))
    for name in _DICTS2:
        setattr(new, name, {k: list(v) for k, v in getattr(state, name).items()})
    new.stack = list(state.stack)
    new.alfred = _copy_alfred(state.alfred)
    new.cache = state.cache
    return new


def to_json(state: State) -> dict[str, Any]:
    """The state as plain JSON data (a copy: lists where the state has tuples).

    Fields are copied group by group as deep as they are nested, with C built-ins (it runs
    on every stored move and every view); only the stack's frames and Alfred's data, whose
    shapes vary, go through the generic `_jsonable`. Keys stay in FIELDS order.
    """
    data: dict[str, Any] = dict.fromkeys(FIELDS)
    for name in _PLAIN:
        data[name] = getattr(state, name)
    for name in _LISTS:
        data[name] = list(getattr(state, name))
    for name in _LISTS2:
        data[name] = [list(v) for v in getattr(state, name)]
    for name in _LISTS3:
        data[name] = [[list(x) for x in v] for v in getattr(state, name)]
    for name in _DICTS:
        data[name] = dict(getattr(state, name))
    for name in _DICTS2:
        data[name] = {k: list(v) for k, v in getattr(state, name).items()}
    data["stack"] = _jsonable(state.stack)
    data["alfred"] = _jsonable(state.alfred)
    return data


def shared_json(state: State) -> dict[str, Any]:
    """`to_json` without the copy: the state's own values, in FIELDS order (tuples in the
    stack's frames). Its JSON text is `to_json`'s; only for serializing at once."""
    return {name: getattr(state, name) for name in FIELDS}


def from_json(data: dict[str, Any]) -> State:
    """The state that `to_json` produced (frames become tuples again).

    Fields are copied group by group; a snapshot that lacks a field fails on the first one
    missing in FIELDS order (KeyError naming it), one of the wrong shape on its first bad
    group (TypeError, ValueError or AttributeError).
    """
    if not data.keys() >= _FIELD_SET:
        raise KeyError(next(name for name in FIELDS if name not in data))
    state = State()
    for name in _PLAIN:
        setattr(state, name, data[name])
    for name in _LISTS:
        setattr(state, name, list(data[name]))
    for name in _LISTS2:
        setattr(state, name, [list(v) for v in data[name]])
    for name in _LISTS3:
        setattr(state, name, [[list(x) for x in v] for v in data[name]])
    for name in _DICTS:
        setattr(state, name, dict(data[name]))
    for name in _DICTS2:
        setattr(state, name, {k: list(v) for k, v in data[name].items()})
    state.stack = [_tuples(f) for f in data["stack"]]
    state.alfred = _copy_json(data["alfred"])
    return state
