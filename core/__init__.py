"""The rules engines: pure Python, no I/O. `get_game(name)` returns a game's rules object.

Games register themselves here. Extra game modules (test games, plugins) can be
named in the environment variable ``BGB_GAME_MODULES`` (comma-separated module
paths, each calling `register`); this is the one place `core` reads the
environment, and only at first use of the registry.
"""

from __future__ import annotations

import importlib
import os
import threading

from core.contract import (
    BadSnapshot,
    Game,
    IllegalMove,
    InvalidOptions,
    RulesError,
    UnknownGame,
    canonical,
    dump_for_storage,
    find_move,
)

__all__ = [
    "BadSnapshot",
    "Game",
    "IllegalMove",
    "InvalidOptions",
    "RulesError",
    "UnknownGame",
    "canonical",
    "dump_for_storage",
    "find_move",
    "game_names",
    "get_game",
    "register",
]

_REGISTRY: dict[str, Game] = {}
_BUILTIN_MODULES = ("core.darwins_journey", "core.encyclopedia", "core.flotilla")
_loaded = False
_load_lock = threading.Lock()


def register(game: Game) -> Game:
    """Add a game to the registry under `game.name` (idempotent)."""
    _REGISTRY[game.name] = game
    return game


def _ensure_loaded() -> None:
    global _loaded
    if _loaded:
        return
    # Server threads may ask for a game at the same moment: load once, under a lock,
    # and only say "loaded" once every module has registered.
    with _load_lock:
        if _loaded:
            return
        extra = [m.strip() for m in os.environ.get("BGB_GAME_MODULES", "").split(",") if m.strip()]
        for module in (*_BUILTIN_MODULES, *extra):
            importlib.import_module(module)
        _loaded = True


def get_game(name: str) -> Game:
    """The registered game called `name`; `UnknownGame` otherwise."""
    _ensure_loaded()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known: {sorted(_REGISTRY)}") from None


def game_names() -> list[str]:
    """The names of every registered game, sorted."""
    _ensure_loaded()
    return sorted(_REGISTRY)
