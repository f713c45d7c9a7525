"""The Flotilla rules object implementing the core contract."""

from __future__ import annotations

from typing import Any

from core.contract import BadSnapshot
from core.flotilla import rules, schemas, scoring, setup, views
from core.flotilla.state import clone, from_json, to_json

VERSION = 1


class Flotilla:
    """Flotilla, 3-5 players (RULES.md F1-F36)."""

    name = "flotilla"
    title = "Flotilla"
    min_players = 3
    max_players = 5

    def options_schema(self) -> dict[str, Any]:
        """The options `new_game` accepts."""
        return {k: dict(v) for k, v in setup.OPTIONS.items()}

    def json_schemas(self) -> dict[str, Any]:
        """JSON Schemas of the moves, events, view, result and options (schemas.py)."""
        return schemas.json_schemas(self.options_schema())

    def seat_count(self, options: dict[str, Any]) -> int:
        """One seat per player; there is no automa (F33.1)."""
        return setup.parse_options(options)["players"]

    def automa_seats(self, options: dict[str, Any]) -> dict[int, str]:
        """None: the rulebook has no solo mode."""
        setup.parse_options(options)
        return {}

    def new_game(self, options: dict[str, Any], seed: int) -> dict[str, Any]:
        """A new game; all setup randomness drawn from `seed`."""
        s = setup.new_game(options, seed)
        rules.settle(s, [])
        return s

    def to_act(self, state: dict[str, Any]) -> int | None:
        """The seat that decides now, None once the game is over."""
        return rules.to_act(state)

    def legal_moves(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Every legal move of the seat to act, in a fixed order."""
        return rules.legal_moves(state)

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> list[dict[str, Any]]:
        """Play `move` in place and return its events."""
        return rules.apply_move(state, move)

    def clone(self, state: dict[str, Any]) -> dict[str, Any]:
        """An independent copy."""
        return clone(state)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """What `seat` may see."""
        return views.view(state, seat)

    def hidden(self, state: dict[str, Any]) -> dict[str, Any]:
        """What no view shows every seat (core.takeback: a move that changes none of it may
        be taken back)."""
        return views.hidden(state)

    def determinize(self, view: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
        """A full state consistent with `view`."""
        return views.determinize(view, seat, seed)

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        """Final scores, breakdown and ranking."""
        return scoring.result(state)

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        """A versioned JSON snapshot."""
        return {"game": self.name, "version": VERSION, "state": to_json(state)}

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        """The state a `dump` describes."""
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise BadSnapshot("not a flotilla snapshot")
        if data.get("version") != VERSION:
            raise BadSnapshot(f"unsupported flotilla snapshot version {data.get('version')!r}")
        try:
            state = data["state"]
            if not isinstance(state, dict) or not isinstance(state.get("board"), dict):
                raise TypeError("state must hold a board")
            return from_json(state)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadSnapshot(f"malformed flotilla snapshot: {exc}") from None
