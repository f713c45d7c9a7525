"""`toy-secret`: toy-pontoon with a private event per draw and a secret stop, for redaction tests.

Drawing tells everyone "drew" and only the drawer which card ("to": [seat]); stopping is a
secret move carrying the hand's total, which other seats must never see in the log.
"""

from __future__ import annotations

from typing import Any

from core import register
from core.contract import BadSnapshot, IllegalMove, find_move
from tests import toyschemas
from tests.toygame import ToyPontoon


class ToySecret(ToyPontoon):
    """toy-pontoon with secret moves and addressed events."""

    name = "toy-secret"
    title = "Toy Secret (test game)"

    def json_schemas(self) -> dict[str, Any]:
        return toyschemas.secret(self.options_schema())

    def legal_moves(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        seat = self.to_act(state)
        if seat is None:
            return []
        total = sum(state["hands"][seat])
        return [{"type": "draw", "label": "Draw the top card"},
                {"type": "stop", "secret": True, "total": total, "label": f"Stop at {total}"}]

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> list[dict[str, Any]]:
        if find_move(self.legal_moves(state), move) is None:
            raise IllegalMove(move, "not a legal move now")
        seat = state["turn"]
        if move["type"] == "draw":
            state["hands"][seat].append(state["deck"].pop())
            events = [{"type": "drew", "seat": seat},
                      {"type": "card", "seat": seat, "card": state["hands"][seat][-1],
                       "to": [seat]}]
        else:
            state["stopped"][seat] = True
            events = [{"type": "stopped", "seat": seat}]
        players = len(state["hands"])
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if not state["stopped"][candidate]:
                state["turn"] = candidate
                break
        return events

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"game": self.name, "version": 1, "state": self.clone(state)}

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        if data.get("game") != self.name:
            raise BadSnapshot("not a toy-secret snapshot")
        return self.clone(data["state"])


GAME = register(ToySecret())
