"""Darwin's Journey: the complete rules engine, registered as "darwins-journey".

Modules: data (component data from data/*.json, frozen), rng (the PRNG kept in the state),
state (State, clone, JSON), effects (low-level effects), setup (new_game), rules (decision stack,
legal moves, apply, phases), scoring (final scoring, ranking), views (view, determinize),
game (the contract object). Solo Alfred lives in solo.py / alfred.py; the engine calls him
through hooks.py (the engine never imports its solo mode; game.py plugs it in).
"""

from __future__ import annotations

from core import register
from core.darwins_journey.game import DarwinsJourney

GAME = register(DarwinsJourney())

__all__ = ["GAME", "DarwinsJourney"]
