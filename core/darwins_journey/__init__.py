"""Darwin's Journey: the complete rules engine, registered as "darwins-journey"."""

from __future__ import annotations

from core import register
from core.darwins_journey.game import DarwinsJourney

GAME = register(DarwinsJourney())

__all__ = ["GAME", "DarwinsJourney"]
