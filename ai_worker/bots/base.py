"""What every bot shares: the `Bot` interface, parameter schemas and their validation."""

from __future__ import annotations

import json
from typing import Any, Protocol, runtime_checkable

from core.contract import Game, Move, View

Params = dict[str, Any]
ParamsSchema = dict[str, dict[str, Any]]

_TYPES = {"int": (int,), "float": (int, float), "bool": (bool,)}


@runtime_checkable
class Bot(Protocol):
    """A player program: given a seat's view and its legal moves, it picks one of them."""

    name: str
    title: str  # its name as a player reads it ("Monte Carlo search")
    description: str
    automa_only: bool  # True: only for the game's automa seats (`alfred`)

    def params_schema(self) -> ParamsSchema:
        """Parameter name -> {type, default, min, max, description}."""
        ...

    def choose(self, game: Game, view: View, seat: int, legal_moves: list[Move],
               params: Params, seed: int) -> Move:
        """One of `legal_moves` (the very dict) for `seat`, seeing only `view`."""
        ...


def validate_params(bot_name: str, schema: ParamsSchema, params: Params | None) -> Params:
    """`params` checked against `schema` and completed with defaults; ValueError names the fault."""
    params = {} if params is None else params
    if not isinstance(params, dict):
        raise ValueError(f"bot {bot_name!r}: params must be an object, not {type(params).__name__}")
    unknown = sorted(set(params) - set(schema))
    if unknown:
        known = ", ".join(sorted(schema)) or "none"
        raise ValueError(f"bot {bot_name!r}: unknown parameter {unknown[0]!r} (known: {known})")
    checked: Params = {}
    for name, spec in schema.items():
        if name not in params:
            checked[name] = spec["default"]
            continue
        value = params[name]
        kind = spec["type"]
        # bool is an int subclass in Python; a JSON `true` is never a number here.
        if not isinstance(value, _TYPES[kind]) or (kind != "bool" and isinstance(value, bool)):
            raise ValueError(f"bot {bot_name!r}: parameter {name!r} must be of type {kind}, "
                             f"got {value!r}")
        if "min" in spec and value < spec["min"]:
            raise ValueError(f"bot {bot_name!r}: parameter {name!r} must be >= {spec['min']}, "
                             f"got {value!r}")
        if "max" in spec and value > spec["max"]:
            raise ValueError(f"bot {bot_name!r}: parameter {name!r} must be <= {spec['max']}, "
                             f"got {value!r}")
        checked[name] = float(value) if kind == "float" else value
    return checked


def check_legal_moves(bot_name: str, legal_moves: list[Move]) -> None:
    """Refuse to choose from an empty list (the seat is not to act or the game is over)."""
    if not legal_moves:
        raise ValueError(f"bot {bot_name!r}: no legal moves to choose from "
                         "(the game is over or this seat is not to act)")


def move_key(move: Move) -> Any:
    """A hashable identity of a move, label ignored, independent of key order."""
    # A frozenset of the (key, value) pairs: equal for equal moves whatever their key
    # order, and about twice as fast as sorting them (mcts keys every legal move of
    # every node it walks through).
    items = move.copy()
    items.pop("label", None)
    try:
        return frozenset(items.items())
    except TypeError:
        # Nested lists/dicts in a move: fall back to its canonical JSON text.
        return json.dumps(items, sort_keys=True, separators=(",", ":"))


def seat_count(game: Game, view: View, state: Any) -> int:
    """How many seats the game has, read from the view (or the sampled state's result)."""
    for key in ("seat_count", "players", "num_seats"):
        value = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    if isinstance(view.get("options"), dict):
        try:
            return game.seat_count(view["options"])
        except Exception:  # noqa: BLE001 - an odd options dict: try the next source
            pass
    for key in ("seats", "hand_sizes"):
        if isinstance(view.get(key), list):
            return len(view[key])
    scores = game.result(state).get("scores")
    if isinstance(scores, list | dict):
        return len(scores)
    raise ValueError(f"cannot tell how many seats game {game.name!r} has from its view")
