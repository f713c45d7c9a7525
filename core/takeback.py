"""Taking back a move: which moves may be taken back, and how a log with take-backs replays.

A move may be taken back only if it drew and revealed nothing: taking back a card draw or a
die roll would let a player look and choose again. Each game says what of its state is
hidden (the optional contract method `hidden(state)`: the RNG and every content no view
shows to every seat, such as deck orders, bags and hands); a move is revertible when that
part is the same after it as before, it is not secret and none of its events is addressed to
some seats only. A game without `hidden` allows no take-back at all (the safe default).

In a game's log a take-back is an entry of its own (`"takeback": N`, the index of the entry
it takes back; docs/api.md): the state after it is the state before entry N. Entry N is the
last move still standing, played by the same seat, and every entry after it is that seat's
(moves taken back in turn, and their take-backs): nobody else acted since. `Replay` applies
a log so, for the server's replays and for `bgb verify` alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.contract import Event, Game, IllegalMove, Move

TAKEBACK_MOVE = "takeback"  # the move type of a take-back entry
TAKEN_BACK_EVENT = "taken_back"  # the event type of a take-back entry


def can_take_back(game: Game) -> bool:
    """Whether `game` says what of its state is hidden (the optional `hidden(state)`): only
    then may any of its moves be taken back."""
    return callable(getattr(game, "hidden", None))


def revertible(game: Game, before: Any, after: Any, move: Move, events: list[Event]) -> bool:
    """Whether `move`, played on `before` (giving `after` and `events`), may be taken back:
    it drew nothing random and revealed nothing hidden, and did not end the game."""
    hidden = getattr(game, "hidden", None)
    if not callable(hidden):
        return False
    if move.get("secret") is True or game.to_act(after) is None:
        return False
    if any(isinstance(event.get("to"), list) for event in events):
        return False  # an event for some seats only: what it told cannot be untold
    return bool(hidden(before) == hidden(after))


def takeback_of(entry: dict[str, Any]) -> int | None:
    """The index of the entry a log entry takes back, or None for any other entry."""
    target = entry.get("takeback")
    return target if isinstance(target, int) and not isinstance(target, bool) else None


def takeback_entry(seat: int, index: int) -> dict[str, Any]:
    """The move and events of the log entry by which `seat` takes back entry `index`."""
    return {"seat": seat, "takeback": index,
            "move": {"type": TAKEBACK_MOVE, "index": index},
            "events": [{"type": TAKEN_BACK_EVENT, "seat": seat, "index": index}]}


class TakebackRefused(IllegalMove):
    """A take-back in a log that this replay cannot undo (not the last move standing, another
    seat's, or one that drew or revealed something)."""


@dataclass
class _Undo:
    index: int
    seat: int
    before: Any


@dataclass
class Replay:
    """A game replayed entry by entry from its log, take-backs included.

    Keeps the state before each move that may still be taken back (since the last move that
    may not, and only while one seat plays): with `track=False` it keeps none, and a
    take-back raises TakebackRefused (a caller that trusts the log then rebuilds the state
    before the entry otherwise)."""

    game: Game
    state: Any
    track: bool = True
    _undo: list[_Undo] = field(default_factory=list)

    def move(self, index: int, seat: int, move: Move) -> list[Event]:
        """Play entry `index`, `seat`'s `move`; its events (IllegalMove as `apply` raises)."""
        before = self.game.clone(self.state) if self.track else None
        events = self.game.apply(self.state, move)
        if not self.track:
            return events
        if not revertible(self.game, before, self.state, move, events):
            self._undo.clear()  # nothing before a move that drew or revealed comes back
        else:
            if self._undo and self._undo[-1].seat != seat:
                self._undo.clear()  # another seat acted: the earlier moves stay
            self._undo.append(_Undo(index, seat, before))
        return events

    def take_back(self, seat: int, index: int) -> None:
        """Apply a take-back by `seat` of entry `index`: the state before that entry again."""
        last = self._undo[-1] if self._undo else None
        if last is None or last.index != index or last.seat != seat:
            raise TakebackRefused({"type": TAKEBACK_MOVE, "index": index},
                                  f"entry {index} is not a move seat {seat} may take back here")
        self._undo.pop()
        self.state = last.before

    def reset(self, state: Any) -> None:
        """Go on from `state` (rebuilt by the caller), with nothing to take back."""
        self.state = state
        self._undo.clear()
