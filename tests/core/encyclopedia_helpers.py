"""Helpers for the Encyclopedia tests: states set up at a chosen point, moves by type."""

from __future__ import annotations

from typing import Any

from core import get_game
from core.contract import canonical
from core.encyclopedia.data import DATA
from core.encyclopedia.rules import DIE_COLOUR, to_act
from core.encyclopedia.state import State

GAME = get_game("encyclopedia")


def moves_of(s: State, kind: str, **fields: Any) -> list[dict[str, Any]]:
    """The legal moves of type `kind` whose fields match."""
    return [m for m in GAME.legal_moves(s)
            if m["type"] == kind and all(m.get(k) == v for k, v in fields.items())]


def do(s: State, kind: str, **fields: Any) -> list[dict[str, Any]]:
    """Play the first legal move of type `kind` matching `fields`; its events."""
    found = moves_of(s, kind, **fields)
    assert found, f"no legal {kind} {fields} among {[canonical(m) for m in GAME.legal_moves(s)]}"
    return GAME.apply(s, canonical(found[0]))


def play_first_until(s: State, phase: str) -> State:
    """Play each seat's first legal move until the phase is `phase` with an empty stack."""
    while not (s.phase == phase and not s.stack):
        assert to_act(s) is not None
        GAME.apply(s, canonical(GAME.legal_moves(s)[0]))
    return s


def at_turns(players: int = 2, seed: int = 1, **options: Any) -> State:
    """A game in its first action phase (draft and dice placement played by first moves)."""
    s = GAME.new_game({"players": players, **options}, seed)
    return play_first_until(s, "turns")


def clear_dice(s: State) -> None:
    """Every die back in the bag (boards, areas and continents emptied)."""
    s.bag = list(range(DATA.dice))
    s.dval = [0] * DATA.dice
    s.spaces = [[[] for _ in range(4)] for _ in range(s.n)]
    s.areas = [[] for _ in range(4)]
    s.cont = [[-1] * 4 for _ in range(5)]
    s.on_cards = []


def put_die(s: State, seat: int, space: int, colour: int, value: int) -> int:
    """Take a die of `colour` from the bag, give it `value`, put it on `seat`'s space."""
    d = next(d for d in s.bag if DIE_COLOUR[d] == colour)
    s.bag.remove(d)
    s.dval[d] = value
    s.spaces[seat][space].append(d)
    return d


def single_die(s: State, colour: int, value: int, seat: int | None = None,
               space: int = 0) -> int:
    """Only one die left on the boards: the acting seat's (or `seat`'s) of this colour/value."""
    clear_dice(s)
    owner = to_act(s) if seat is None else seat
    return put_die(s, owner, space, colour, value)


def take_and_mod(s: State, colour: int, value: int, owner: int | None = None) -> int:
    """Give the acting seat a die and take it; the state waits for modifiers / the action."""
    actor = to_act(s)
    assert actor is not None
    d = single_die(s, colour, value, seat=owner if owner is not None else actor)
    put_die(s, (actor + 1) % s.n, 3, (colour + 1) % 5, 1)  # a spare: the round goes on
    do(s, "take", die=d)
    return d


def animal_of(colour: int, index: int = 0, exclude: tuple[int, ...] = ()) -> int:
    """The index-th animal card of a colour not in `exclude`."""
    cards = [a.id for a in DATA.animals if a.colour == colour and a.id not in exclude]
    return cards[index]


def give_animal(s: State, seat: int, card: int, cubes: int = 0) -> None:
    """Put `card` in the seat's hand (taking it from wherever it is) with a cube mask."""
    for pile in (s.adisplay, s.adeck, s.adiscard, s.removed, *s.hand, *s.published):
        if card in pile:
            pile.remove(card)
    s.hand[seat].append(card)
    s.cubes[card] = cubes
