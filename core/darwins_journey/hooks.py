"""The hooks through which a solo opponent plugs into the engine.

The engine (rules, setup, scoring, views, state) never imports its solo mode: it asks the mode
registered here, and only for games whose state has `solo` set (seat 1 is then the opponent).
`game.py`, which assembles the game, registers `solo.py` (Alfred). This module imports
nothing of the package, so it closes no import circle.
"""

from __future__ import annotations

from typing import Any, Protocol

Events = list[dict[str, Any]]


class SoloMode(Protocol):
    """What the engine asks a solo opponent (a module with these functions qualifies)."""

    def validate_options(self, options: dict[str, Any]) -> str:
        """The opponent's difficulty from the game options (InvalidOptions if bad)."""

    def setup(self, state: Any) -> None:
        """The opponent's own setup, after the ordinary one."""

    def to_act(self, state: Any) -> Any:
        """The seat deciding an opponent step, else NotImplemented (the engine decides)."""

    def legal_moves(self, state: Any) -> list[dict[str, Any]] | None:
        """The opponent step's moves, or None when the pending decision is the engine's."""

    def apply(self, state: Any, move: dict[str, Any]) -> Events | None:
        """Play an opponent step; None when the move is the engine's business."""

    def after_apply(self, state: Any, events: Events) -> None:
        """Anything the opponent adjusts after every move."""

    def alfred_reward(self, state: Any, envelope: int, place: int) -> Events:
        """The opponent's correspondence reward for `place` (1 or 2) on an envelope."""

    def alfred_beagle(self, state: Any) -> int:
        """The opponent's Beagle-goal points this round."""

    def cleanup(self, state: Any) -> None:
        """The opponent's part of the Cleanup phase."""

    def clone_alfred(self, alfred_state: dict[str, Any] | None) -> dict[str, Any] | None:
        """A copy of the opponent's own state (`state.alfred`)."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The opponent's public board."""

    def determinize(self, state: Any) -> None:
        """Sample the opponent's hidden parts of a state rebuilt from a view."""

    def ranking(self, state: Any, scores: list[int]) -> list[int]:
        """The seats from first to last place at the end of a solo game."""


_MODE: list[SoloMode] = []


def register(mode: SoloMode) -> None:
    """Plug `mode` in as the solo opponent (called once, by the solo module)."""
    _MODE[:] = [mode]


def solo() -> SoloMode:
    """The registered solo mode."""
    if not _MODE:
        raise RuntimeError("a solo game needs its mode: import core.darwins_journey.solo")
    return _MODE[0]
