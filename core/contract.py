"""The rules-engine contract every game in `core` implements (see DESIGN.md).

Beyond the method signatures below, the API relies on these conventions:

- Secrecy of the move log. A move carrying `"secret": true` (a draft pick, a card kept
  hidden) is shown to other seats as its type only. An event carrying `"to": [seats]`
  (a list) is shown only to those seats; everyone else sees its type and
  `"redacted": true`. Any other use of a key named `to` must not be a list (Darwin's
  Journey names ship and explorer destinations `"space"` for that reason).
- Seats. `seat_count(options)` counts every seat, automa seats included;
  `automa_seats(options)` maps the seats the game plays itself to the bot that runs
  them (the API seats those bots; clients cannot). Every `view` carries `options`,
  `seat_count` and `automa_seats`, so a bot or client needs nothing but the view.
- Views and `determinize`. `view(state, seat)` never holds the RNG or the order of
  hidden cards; `view(determinize(view, seat, s), seat) == view` for every seed `s`.
- JSON Schemas (optional). `json_schemas()` describes the game's JSON as plain data:
  `{"moves": {type: schema}, "events": {type: schema}, "view": schema, "result": schema,
  "options": schema}`, JSON Schema draft 2020-12 built with `core.json_schema` (no `$ref`).
  Every move and event of a type, every view and every final result validate against them;
  the API publishes them in its OpenAPI document (a game without them is described there
  as free-form objects). See `has_json_schemas`.
- Texts (optional). A game's `core/<game>/i18n.py` gives what a person reads in English
  or Brazilian Portuguese ("en", "pt_BR"), from its gettext catalog in
  `core/<game>/locales/`: `label(move, locale)` (the engine's own label in English),
  `describe(event, locale, seat_names=None)` and, when its views carry a `catalog` of
  component texts, `catalog(view["catalog"], locale)` (a translated copy; ids used as keys
  stay). The API finds the module by the game's name and applies it to any game alike.
- Hidden state (optional). `hidden(state)` gives what no view shows every seat (the RNG,
  deck orders, bags, face-down tiles, hands) as plain comparable data: a move that leaves it
  equal drew and revealed nothing, and may be taken back (`core.takeback`). A game without
  it allows no take-back.
- Shared snapshots (optional). `dump_shared(state)` is `dump(state)` without the copy: it
  shares the state's lists and dicts (and may hold tuples where `dump` has lists), so its
  JSON text is `dump`'s, made for less. Only for a caller that serializes it at once and
  keeps nothing of it (the API stores each move's snapshot so). See `dump_for_storage`.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

Move = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


class RulesError(Exception):
    """Base class of every error the rules engine raises on purpose."""


class InvalidOptions(RulesError):
    """`new_game` was given options the game does not accept; the message names the option."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"option {option!r}: {reason}")
        self.option = option
        self.reason = reason


class IllegalMove(RulesError):
    """A move that is not in `legal_moves(state)`; the state is left untouched."""

    def __init__(self, move: Any, reason: str) -> None:
        super().__init__(f"illegal move {move!r}: {reason}")
        self.move = move
        self.reason = reason


class UnknownGame(RulesError):
    """`get_game` was asked for a name that is not registered."""


class BadSnapshot(RulesError):
    """`load` was given data it cannot read (wrong game, version or shape)."""


@runtime_checkable
class Game(Protocol):
    """One game's rules: a set of pure functions over a plain-data state."""

    name: str
    title: str
    min_players: int
    max_players: int

    def options_schema(self) -> dict[str, Any]:
        """The options `new_game` accepts: name -> {type, choices/default, description}."""
        ...

    def seat_count(self, options: dict[str, Any]) -> int:
        """How many seats a game with these options has (automa seats included)."""
        ...

    def automa_seats(self, options: dict[str, Any]) -> dict[int, str]:
        """Seats played by the game's own automa, mapped to the bot name that runs it."""
        ...

    def new_game(self, options: dict[str, Any], seed: int) -> Any:
        """A new game; all setup randomness drawn from `seed`."""
        ...

    def to_act(self, state: Any) -> int | None:
        """The seat that must decide now, or None once the game is over."""
        ...

    def legal_moves(self, state: Any) -> list[Move]:
        """Every legal move of the seat to act, in a fixed order, each with a `label`."""
        ...

    def apply(self, state: Any, move: Move) -> list[Event]:
        """Play `move` in place and return its events; `IllegalMove` leaves the state as it was."""
        ...

    def clone(self, state: Any) -> Any:
        """An independent copy of the state."""
        ...

    def view(self, state: Any, seat: int | None) -> View:
        """What `seat` (None: a spectator) may see; never the RNG or hidden orders."""
        ...

    def determinize(self, view: View, seat: int, seed: int) -> Any:
        """A full state consistent with `view`, hidden parts sampled from `seed`."""
        ...

    def result(self, state: Any) -> dict[str, Any]:
        """Final scores with their breakdown and the ranking (None-valued while running)."""
        ...

    def dump(self, state: Any) -> dict[str, Any]:
        """A versioned JSON-able snapshot; `dump(load(d)) == d`."""
        ...

    def load(self, data: dict[str, Any]) -> Any:
        """The state a `dump` describes."""
        ...


def has_json_schemas(game: Any) -> bool:
    """Whether `game` implements the optional `json_schemas()` (the contract's docstring)."""
    return callable(getattr(game, "json_schemas", None))


def dump_for_storage(game: Game, state: Any) -> dict[str, Any]:
    """The snapshot of `state` to serialize at once: `dump_shared` where the game has it
    (the contract's docstring), else `dump`."""
    shared = getattr(game, "dump_shared", None)
    return shared(state) if callable(shared) else game.dump(state)


def canonical(move: Move) -> Move:
    """A move without its human label: the part that identifies it."""
    return {k: v for k, v in move.items() if k != "label"}


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal by type and value: `true` is not `1`, `4.0` is not
    `4` (Python's `==` says both are), and a list equals a tuple of the same items."""
    if isinstance(a, (list, tuple)):
        return (isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(same_json(x, y) for x, y in zip(a, b, strict=True)))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    return bool(a == b)


def find_move(legal: list[Move], move: Move) -> Move | None:
    """The legal move equal to `move` once labels are ignored, or None.

    Equality is strict JSON equality (`same_json`): a client's `true` never stands for 1.
    """
    if not isinstance(move, dict):
        return None
    wanted = canonical(move)
    # Python's `==` first: a fast filter, since same_json implies it, except for a list
    # against a tuple (which same_json equates); the second pass finds those.
    for candidate in legal:
        shown = canonical(candidate)
        if shown == wanted and same_json(shown, wanted):
            return candidate
    for candidate in legal:
        if same_json(canonical(candidate), wanted):
            return candidate
    return None
