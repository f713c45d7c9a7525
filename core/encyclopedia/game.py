"""The Encyclopedia rules object implementing the core contract."""

from __future__ import annotations

from typing import Any

from core.contract import BadSnapshot
from core.encyclopedia import rules, schemas, scoring, setup, views
from core.encyclopedia.state import State, clone, from_json, to_json

VERSION = 1


class Encyclopedia:
    """Encyclopedia, 1-4 players; with 1 player seat 1 is the solo AI (ai.py)."""

    name = "encyclopedia"
    title = "Encyclopedia"
    min_players = 1
    max_players = 4

    def options_schema(self) -> dict[str, Any]:
        """The options `new_game` accepts."""
        return {
            "players": {"type": "int", "choices": [1, 2, 3, 4], "default": 2,
                        "description": "number of players; 1 = solo against the AI"},
            "behaviour": {"type": "str|int", "choices": list(setup.CARD_CHOICES),
                          "default": "random",
                          "description": "solo only: what the AI plays for: 1 Collector"
                                         " (animals from the Academy, published), 2 Explorer"
                                         " (expeditions: research and reputation, then"
                                         " publishing), 3 Rival (publishing and additional"
                                         " actions; at level 3 it takes the dice you need);"
                                         " or random (hidden)"},
            "scoring": {"type": "str|int", "choices": list(setup.CARD_CHOICES),
                        "default": "random",
                        "description": "solo only: the AI's level: 1 easy (a beginner: the"
                                       " first die of its own board, the first action of its"
                                       " card's order that die can do and that loses no points"
                                       " now, even one that gains nothing; it looks no further"
                                       " than its score now; it publishes late, only animals"
                                       " with 2 research cubes until the last round, and files"
                                       " no Continental extras; no modifiers), 2 medium (it"
                                       " chooses the die of its board that can do the earliest"
                                       " action of its card's order, and does that action; no"
                                       " modifiers), 3 hard (weighs every die of both boards and"
                                       " every action, looks furthest ahead, up to 3 coins or"
                                       " a royal seal on a die, and denies you the dice you"
                                       " need); or random (hidden)"},
        }

    def json_schemas(self) -> dict[str, Any]:
        """JSON Schemas of the moves, events, view, result and options (schemas.py)."""
        return schemas.json_schemas(self.options_schema())

    def seat_count(self, options: dict[str, Any]) -> int:
        """Seats of a game with these options (the AI has seat 1 in solo)."""
        players, _, _ = setup.parse_options(options)
        return 2 if players == 1 else players

    def automa_seats(self, options: dict[str, Any]) -> dict[int, str]:
        """Seat 1 is the AI in a solo game, relayed by the generic automa bot."""
        players, _, _ = setup.parse_options(options)
        return {rules.AI_SEAT: "automa"} if players == 1 else {}

    def new_game(self, options: dict[str, Any], seed: int) -> State:
        """A new game; all set-up randomness drawn from `seed`."""
        return setup.new_game(options, seed)

    def to_act(self, state: State) -> int | None:
        """The seat that decides now, None once the game is over."""
        return rules.to_act(state)

    def legal_moves(self, state: State) -> list[dict[str, Any]]:
        """Every legal move of the seat to act, in a fixed order."""
        return rules.legal_moves(state)

    def apply(self, state: State, move: dict[str, Any]) -> list[dict[str, Any]]:
        """Play `move` in place and return its events."""
        return rules.apply_move(state, move)

    def clone(self, state: State) -> State:
        """An independent copy."""
        return clone(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see."""
        return views.view(state, seat)

    def hidden(self, state: State) -> dict[str, Any]:
        """What no view shows every seat (core.takeback: a move that changes none of it may
        be taken back)."""
        return views.hidden(state)

    def determinize(self, view: dict[str, Any], seat: int, seed: int) -> State:
        """A full state consistent with `view`."""
        return views.determinize(view, seat, seed)

    def result(self, state: State) -> dict[str, Any]:
        """Final scores, breakdown and ranking."""
        return scoring.result(state)

    def dump(self, state: State) -> dict[str, Any]:
        """A versioned JSON snapshot."""
        return {"game": self.name, "version": VERSION, "state": to_json(state)}

    def load(self, data: dict[str, Any]) -> State:
        """The state a `dump` describes."""
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise BadSnapshot("not an encyclopedia snapshot")
        if data.get("version") != VERSION:
            raise BadSnapshot(f"unsupported encyclopedia snapshot version {data.get('version')!r}")
        try:
            return from_json(data["state"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadSnapshot(f"malformed encyclopedia snapshot: {exc}") from None
