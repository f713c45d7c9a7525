"""The Darwin's Journey rules object implementing the core contract."""

from __future__ import annotations

from typing import Any

from core.contract import BadSnapshot
from core.darwins_journey import hooks, rules, schemas, scoring, setup, solo, views
from core.darwins_journey.state import State, clone, from_json, shared_json, to_json

VERSION = 1

# the engine never imports its solo mode: the game plugs Alfred into the engine's hooks
hooks.register(solo)


class DarwinsJourney:
    """Darwin's Journey, 2-4 players (and solo against Alfred through solo.py / alfred.py)."""

    name = "darwins-journey"
    title = "Darwin's Journey"
    min_players = 1
    max_players = 4

    def options_schema(self) -> dict[str, Any]:
        """The options `new_game` accepts."""
        return {
            "players": {"type": "int", "choices": [1, 2, 3, 4], "default": 2,
                        "description": "number of players; 1 = solo against Alfred"},
            "first_game": {"type": "bool", "default": False,
                           "description": "the rulebook's fixed first-game setup"},
            "alfred": {"type": "str", "choices": list(setup.ALFRED_COLOURS), "default": "white",
                       "description": "Alfred's difficulty (solo only): white easy, blue medium,"
                                      " yellow and green advanced"},
        }

    def json_schemas(self) -> dict[str, Any]:
        """JSON Schemas of the moves, events, view, result and options (schemas.py)."""
        return schemas.json_schemas(self.options_schema())

    def seat_count(self, options: dict[str, Any]) -> int:
        """Seats of a game with these options (Alfred has seat 1 in solo)."""
        players, _, _ = setup.parse_options(options)
        return 2 if players == 1 else players

    def automa_seats(self, options: dict[str, Any]) -> dict[int, str]:
        """Seat 1 is Alfred in a solo game."""
        players, _, _ = setup.parse_options(options)
        return {1: "alfred"} if players == 1 else {}

    def new_game(self, options: dict[str, Any], seed: int) -> State:
        """A new game; all setup randomness drawn from `seed`."""
        return setup.new_game(options, seed)

    def to_act(self, state: State) -> int | None:
        """The seat that decides now, None once the game is over."""
        return rules.to_act(state)

    def legal_moves(self, state: State) -> list[dict[str, Any]]:
        """Every legal move of the seat to act, in a fixed order."""
        return list(rules.legal_moves(state))

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

    def dump_shared(self, state: State) -> dict[str, Any]:
        """`dump` sharing the state's values (core.contract: serialize it at once)."""
        return {"game": self.name, "version": VERSION, "state": shared_json(state)}

    def load(self, data: dict[str, Any]) -> State:
        """The state a `dump` describes."""
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise BadSnapshot("not a darwins-journey snapshot")
        if data.get("version") != VERSION:
            version = data.get("version")
            raise BadSnapshot(f"unsupported darwins-journey snapshot version {version!r}")
        try:
            return from_json(data["state"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadSnapshot(f"malformed darwins-journey snapshot: {exc}") from None
