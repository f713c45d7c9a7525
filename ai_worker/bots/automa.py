"""`automa`: the game's own automa. The engine dictates its move; this bot only relays it.

`automa` is the generic name for every game's automa seat; `alfred` is the same relay under
the name of Darwin's Journey's automa (Alfred), kept for that game and for old clients.
"""

from __future__ import annotations

from typing import Any

from ai_worker.bots.base import Params, ParamsSchema, check_legal_moves, validate_params
from core.contract import Game, Move, View


def automa_seats(game: Game, view: View) -> dict[int, str]:
    """The automa seats of the game the view shows (empty for games without an automa)."""
    options: Any = view.get("options")
    if isinstance(options, dict):
        return game.automa_seats(options)
    raw = view.get("automa_seats")
    if isinstance(raw, dict):
        return {int(k): str(v) for k, v in raw.items()}
    if isinstance(raw, list):
        return {int(s): "automa" for s in raw}
    return {}


class AutomaBot:
    """Relays the move the automa's procedure dictates (the engine offers only that move)."""

    name = "automa"
    title = "Automa"
    automa_only = True  # the API refuses it on seats that are not automa seats
    description = ("The game's own automa (Alfred in Darwin's Journey, the solo AI in "
                   "Encyclopedia): plays the move its procedure dictates. Only for automa "
                   "seats.")

    def params_schema(self) -> ParamsSchema:
        """No parameters: the difficulty is a game option, not a bot setting."""
        return {}

    def choose(self, game: Game, view: View, seat: int, legal_moves: list[Move],
               params: Params, seed: int) -> Move:
        """The automa's move: the first (normally only) legal move of its seat."""
        validate_params(self.name, self.params_schema(), params)
        if seat not in automa_seats(game, view):
            raise ValueError(f"bot {self.name!r}: seat {seat} of game {game.name!r} is not an "
                             "automa seat (the game has no automa, or not at this seat)")
        check_legal_moves(self.name, legal_moves)
        return legal_moves[0]


class AlfredBot(AutomaBot):
    """`automa` under the name of Darwin's Journey's automa (accepted on every automa seat)."""

    name = "alfred"
    title = "Alfred"
    description = ("Darwin's Journey's automa, Alfred: the same relay as `automa` (any game's "
                   "automa seat accepts it). Only for automa seats.")
