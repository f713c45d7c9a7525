"""The Flotilla game state: one dict of plain ints, lists and dicts, cheap to copy and to dump.

Fields (n seats, seat-indexed lists): see `setup.new_game`. The board maps a cell (an int, see
data.cell_id) to [tile, rotation, owner, depleted, outpost]; Starter Tiles are tile -1 - seat.
"""

from __future__ import annotations

from typing import Any


def _copy(value: Any) -> Any:
    if type(value) is list:
        return [_copy(v) if type(v) in (list, dict) else v for v in value]
    if type(value) is dict:
        return {k: _copy(v) if type(v) in (list, dict) else v for k, v in value.items()}
    return value


def clone(s: dict[str, Any]) -> dict[str, Any]:
    """An independent copy."""
    new = {k: _copy(v) if type(v) in (list, dict) else v for k, v in s.items()}
    new["board"] = {c: list(e) for c, e in s["board"].items()}
    return new


def to_json(s: dict[str, Any]) -> dict[str, Any]:
    """The state as JSON data (board keys become strings)."""
    data = clone(s)
    data["board"] = {str(c): e for c, e in data["board"].items()}
    return data


def from_json(data: dict[str, Any]) -> dict[str, Any]:
    """The state `to_json` produced."""
    s = clone({k: v for k, v in data.items() if k != "board"} | {"board": {}})
    s["board"] = {int(c): list(e) for c, e in data["board"].items()}
    return s
