"""Tiny games with known answers for the bot tests (not registered in `core`).

- `Nim`: a pile of stones, each seat in turn takes 1-3, whoever takes the last wins.
  Perfect information, so every known position has a provable best move. With
  `automa=True` seat 1 is an automa whose procedure always takes one stone.
- `Trap`: seat 0 may `grab` 3 points or take a `safe` 1 point; after a grab seat 1 may
  `punish` for 10 points, after the safe move it can only `pass`. One-ply greedy
  (points now) grabs and loses; a search that looks at the reply plays safe and wins.
"""

from __future__ import annotations

import copy
from typing import Any

from core.contract import IllegalMove, find_move


class Nim:
    """Take-away: 1-3 stones per turn, the last stone wins."""

    name = "test-nim"
    title = "Nim (test game)"
    min_players = 2
    max_players = 2

    def options_schema(self) -> dict[str, Any]:
        return {"pile": {"type": "int", "default": 10},
                "automa": {"type": "bool", "default": False}}

    def seat_count(self, options: dict[str, Any]) -> int:
        return 2

    def automa_seats(self, options: dict[str, Any]) -> dict[int, str]:
        return {1: "alfred"} if options.get("automa") else {}

    def new_game(self, options: dict[str, Any], seed: int) -> dict[str, Any]:
        return {"pile": options.get("pile", 10), "turn": 0, "winner": None,
                "options": dict(options)}

    def to_act(self, state: dict[str, Any]) -> int | None:
        return None if state["winner"] is not None else state["turn"]

    def legal_moves(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        if self.to_act(state) is None:
            return []
        if state["turn"] == 1 and state["options"].get("automa"):
            return [{"type": "take", "stones": 1, "label": "Automa takes 1"}]
        return [{"type": "take", "stones": n, "label": f"Take {n}"}
                for n in (1, 2, 3) if n <= state["pile"]]

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> list[dict[str, Any]]:
        if find_move(self.legal_moves(state), move) is None:
            raise IllegalMove(move, "not legal now")
        state["pile"] -= move["stones"]
        if state["pile"] == 0:
            state["winner"] = state["turn"]
        state["turn"] = 1 - state["turn"]
        return [{"type": "took", "stones": move["stones"]}]

    def clone(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {**copy.deepcopy(state), "seat": seat}

    def determinize(self, view: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
        return {k: copy.deepcopy(v) for k, v in view.items() if k != "seat"}

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        winner = state["winner"]
        scores = [0, 0] if winner is None else [int(winner == 0), int(winner == 1)]
        return {"finished": winner is not None, "scores": scores,
                "ranking": None if winner is None else [winner, 1 - winner]}

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(data)


class Trap:
    """Two decisions: seat 0 grabs or plays safe, seat 1 punishes a grab."""

    name = "test-trap"
    title = "Trap (test game)"
    min_players = 2
    max_players = 2

    def options_schema(self) -> dict[str, Any]:
        return {}

    def seat_count(self, options: dict[str, Any]) -> int:
        return 2

    def automa_seats(self, options: dict[str, Any]) -> dict[int, str]:
        return {}

    def new_game(self, options: dict[str, Any], seed: int) -> dict[str, Any]:
        return {"points": [0, 0], "history": []}

    def to_act(self, state: dict[str, Any]) -> int | None:
        return len(state["history"]) if len(state["history"]) < 2 else None

    def legal_moves(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        history = state["history"]
        if not history:
            return [{"type": "grab", "label": "Grab 3 points"},
                    {"type": "safe", "label": "Take 1 point"}]
        if len(history) == 1:
            moves = [{"type": "pass", "label": "Pass"}]
            if history[0] == "grab":
                moves.insert(0, {"type": "punish", "label": "Punish for 10 points"})
            return moves
        return []

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> list[dict[str, Any]]:
        if find_move(self.legal_moves(state), move) is None:
            raise IllegalMove(move, "not legal now")
        seat = len(state["history"])
        state["points"][seat] += {"grab": 3, "safe": 1, "punish": 10, "pass": 0}[move["type"]]
        state["history"].append(move["type"])
        return [{"type": move["type"], "seat": seat}]

    def clone(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {**copy.deepcopy(state), "seat_count": 2}

    def determinize(self, view: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
        return {"points": list(view["points"]), "history": list(view["history"])}

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        points = state["points"]
        return {"finished": self.to_act(state) is None, "scores": list(points),
                "ranking": sorted(range(2), key=lambda s: -points[s])}

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(data)


def trap_points(game: Any, state: dict[str, Any], seat: int) -> float:
    """The trap game's evaluation: points scored so far (what greedy sees)."""
    return float(state["points"][seat])
