"""`toy-pontoon`: a tiny card game implementing the whole core contract, for tests only.

Each seat in turn draws the top card of a hidden shuffled deck into a hidden hand
or stops for good. A hand over 21 scores 0. It has hidden information and chance,
so it exercises views, determinization and search without Darwin's Journey.
Registered when `BGB_GAME_MODULES=tests.toygame` (or imported).
"""

from __future__ import annotations

import random
from typing import Any

from core import register
from core.contract import BadSnapshot, IllegalMove, InvalidOptions, find_move
from tests import toyschemas

TARGET = 21
CARDS = [v for v in range(1, 11) for _ in range(2)]


class ToyPontoon:
    """The rules of toy-pontoon."""

    name = "toy-pontoon"
    title = "Toy Pontoon (test game)"
    min_players = 1
    max_players = 4

    def options_schema(self) -> dict[str, Any]:
        return {"players": {"type": "int", "choices": [1, 2, 3, 4], "default": 2}}

    def json_schemas(self) -> dict[str, Any]:
        return toyschemas.pontoon(self.options_schema())

    def seat_count(self, options: dict[str, Any]) -> int:
        return self._players(options)

    def automa_seats(self, options: dict[str, Any]) -> dict[int, str]:
        return {}

    def _players(self, options: dict[str, Any]) -> int:
        unknown = set(options) - {"players"}
        if unknown:
            raise InvalidOptions(sorted(unknown)[0], "unknown option")
        players = options.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
            raise InvalidOptions("players", "must be an integer from 1 to 4")
        return players

    def new_game(self, options: dict[str, Any], seed: int) -> dict[str, Any]:
        players = self._players(options)
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        return {"deck": deck, "hands": [[] for _ in range(players)],
                "stopped": [False] * players, "turn": 0}

    def to_act(self, state: dict[str, Any]) -> int | None:
        if not state["deck"] or all(state["stopped"]):
            return None
        return state["turn"]

    def legal_moves(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        if self.to_act(state) is None:
            return []
        return [{"type": "draw", "label": "Draw the top card"},
                {"type": "stop", "label": "Stop drawing"}]

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> list[dict[str, Any]]:
        legal = self.legal_moves(state)
        if find_move(legal, move) is None:
            raise IllegalMove(move, "not a legal move now" if legal else "the game is over")
        seat = state["turn"]
        if move["type"] == "draw":
            state["hands"][seat].append(state["deck"].pop())
            event = {"type": "drew", "seat": seat}
        else:
            state["stopped"][seat] = True
            event = {"type": "stopped", "seat": seat}
        players = len(state["hands"])
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if not state["stopped"][candidate]:
                state["turn"] = candidate
                break
        return [event]

    def clone(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"deck": list(state["deck"]), "hands": [list(h) for h in state["hands"]],
                "stopped": list(state["stopped"]), "turn": state["turn"]}

    def hidden(self, state: dict[str, Any]) -> dict[str, Any]:
        """The deck's order and the hands (core.takeback: a draw is never taken back)."""
        return {"deck": state["deck"], "hands": state["hands"]}

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "seat": seat,
            "deck_size": len(state["deck"]),
            "hands": [list(h) if s == seat else None for s, h in enumerate(state["hands"])],
            "hand_sizes": [len(h) for h in state["hands"]],
            "stopped": list(state["stopped"]),
            "turn": state["turn"],
            "to_act": self.to_act(state),
        }

    def determinize(self, view: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
        unseen = list(CARDS)
        own = view["hands"][seat] or []
        for card in own:
            unseen.remove(card)
        random.Random(seed).shuffle(unseen)
        hands = []
        for s, size in enumerate(view["hand_sizes"]):
            if s == seat:
                hands.append(list(own))
            else:
                hands.append([unseen.pop() for _ in range(size)])
        return {"deck": unseen[: view["deck_size"]], "hands": hands,
                "stopped": list(view["stopped"]), "turn": view["turn"]}

    def score(self, hand: list[int]) -> int:
        total = sum(hand)
        return total if total <= TARGET else 0

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        scores = [self.score(h) for h in state["hands"]]
        order = sorted(range(len(scores)), key=lambda s: -scores[s])
        return {
            "finished": self.to_act(state) is None,
            "scores": scores,
            "breakdown": [{"cards": sum(h), "bust": sum(h) > TARGET} for h in state["hands"]],
            "ranking": order,
        }

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"game": self.name, "version": 1, "state": self.clone(state)}

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        if data.get("game") != self.name or data.get("version") != 1:
            raise BadSnapshot("not a toy-pontoon snapshot of version 1")
        return self.clone(data["state"])


GAME = register(ToyPontoon())
