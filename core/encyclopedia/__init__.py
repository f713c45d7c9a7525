"""Encyclopedia: the complete rules engine with its solo AI, registered as "encyclopedia".

Modules: data (stand-in component data from data/*.json), rng (the PRNG kept in the state),
state (State, clone, JSON), setup (options, new_game), rules (phases, decision stack, legal
moves, apply), ai (the solo AI's dictated moves), scoring (final scoring, ranking), views
(view, determinize), game (the contract object). Rules cite RULES.md (E*, G*, A*).
"""

from __future__ import annotations

from core import register
from core.encyclopedia.game import Encyclopedia

GAME = register(Encyclopedia())

__all__ = ["GAME", "Encyclopedia"]
