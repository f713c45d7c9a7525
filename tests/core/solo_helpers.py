"""Helpers shared by the solo scenario tests: start a solo game and set Alfred's position."""

from __future__ import annotations

from typing import Any

from core import get_game
from core.darwins_journey import alfred
from core.darwins_journey.alfred import ALFRED, HUMAN

GAME = get_game("darwins-journey")


def start(colour: str = "white", seed: int = 1) -> Any:
    """A solo game whose player has drafted and chosen objectives: Alfred is to draw."""
    state = GAME.new_game({"players": 1, "alfred": colour}, seed)
    while GAME.to_act(state) == HUMAN:
        GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_act(state) == ALFRED and state.phase == "actions"
    return state


def hand(state: Any, card: int) -> None:
    """Make `card` the one Alfred has just drawn."""
    al = state.alfred
    al["deck"] = [c for c in al["deck"] if c != card]
    al["drawn"] = [c for c in al["drawn"] if c != card] + [card]
    al["card"] = card
    state.cache = None


def rows(state: Any, *seals: str) -> None:
    """Set Alfred's worker rows A-D ("GB" = green, blue)."""
    for r, text in enumerate(seals):
        state.seals[ALFRED][r] = list(text)


def do(state: Any, *action: Any) -> list[dict[str, Any]]:
    """Let Alfred resolve one action as his procedure does; its events."""
    events: list[dict[str, Any]] = []
    alfred.do_action(state, tuple(action), events)
    return events


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]
