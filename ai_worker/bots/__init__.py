"""The bots: `automa` (any game's automa; `alfred`, its Darwin's Journey name), `random`,
`greedy` and `mcts`, by name.

A bot sees only its seat's view: `choose(game, view, seat, legal_moves, params, seed)`
returns one of `legal_moves` (the very dict). Bad `params` raise ValueError with a
message meant for the API's 422 answer.
"""

from __future__ import annotations

from typing import Any

from ai_worker.bots.automa import AlfredBot, AutomaBot
from ai_worker.bots.base import Bot, move_key, validate_params
from ai_worker.bots.greedy import GreedyBot
from ai_worker.bots.mcts import MCTSBot
from ai_worker.bots.random import RandomBot

__all__ = [
    "Bot",
    "UnknownBot",
    "bot_names",
    "describe_bots",
    "get_bot",
    "move_key",
    "validate_params",
]

_BOTS: dict[str, Bot] = {bot.name: bot for bot in (AutomaBot(), AlfredBot(), RandomBot(),
                                                  GreedyBot(), MCTSBot())}


class UnknownBot(ValueError):
    """`get_bot` was asked for a name that is not registered."""


def get_bot(name: str) -> Bot:
    """The bot called `name`; `UnknownBot` (a ValueError) otherwise."""
    try:
        return _BOTS[name]
    except (KeyError, TypeError):
        raise UnknownBot(f"unknown bot {name!r}; known: {', '.join(bot_names())}") from None


def bot_names() -> list[str]:
    """The names of every bot, sorted."""
    return sorted(_BOTS)


def describe_bots() -> list[dict[str, Any]]:
    """Every bot as {"name", "title", "description", "params"} for `GET /v1/bots`."""
    return [{"name": bot.name, "title": bot.title, "description": bot.description,
             "params": bot.params_schema()}
            for bot in (_BOTS[n] for n in bot_names())]
