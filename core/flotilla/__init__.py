"""Flotilla: the complete rules engine, registered as "flotilla".

Modules: data (stand-in component data from data/*.json, and the hex geometry), rng (the PRNG
kept in the state), state (clone, JSON), setup (options, new_game), board (placement,
Watercraft, Artifact circles, Sonar Stations), rules (the frame stack: legal moves, apply),
scoring (final scoring, tie-breaks), views (view, determinize), game (the contract object).
"""

from __future__ import annotations

from core import register
from core.flotilla.game import Flotilla

GAME = register(Flotilla())

__all__ = ["GAME", "Flotilla"]
