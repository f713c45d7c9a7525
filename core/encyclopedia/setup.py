"""New games: options, the general, per-player and solo set-up (E2-E4)."""

from __future__ import annotations

from typing import Any

from core.contract import InvalidOptions
from core.encyclopedia.data import DATA
from core.encyclopedia.rng import randbelow, seed_value
from core.encyclopedia.rules import animal_display_size, fill_display
from core.encyclopedia.state import State

CARD_CHOICES = ("random", 1, 2, 3)
_KNOWN = {"players", "behaviour", "scoring"}


def parse_options(options: dict[str, Any]) -> tuple[int, Any, Any]:
    """(players, behaviour, scoring) from the options; InvalidOptions names a bad one."""
    if not isinstance(options, dict):
        raise InvalidOptions("options", "must be an object")
    for name in options:
        if name not in _KNOWN:
            raise InvalidOptions(name, "unknown option")
    players = options.get("players", 2)
    if isinstance(players, bool) or players not in (1, 2, 3, 4):
        raise InvalidOptions("players", "must be 1, 2, 3 or 4")
    cards = []
    for name in ("behaviour", "scoring"):
        value = options.get(name, "random")
        if isinstance(value, bool) or value not in CARD_CHOICES:
            raise InvalidOptions(name, "must be 1, 2, 3 or \"random\"")
        if players != 1 and value != "random":
            raise InvalidOptions(name, "only a solo game (players 1) has the AI's cards")
        cards.append(value)
    return players, cards[0], cards[1]


def new_game(options: dict[str, Any], seed: int) -> State:
    """E2-E4: a new game; all set-up randomness drawn from `seed`."""
    players, behaviour, scoring = parse_options(options)
    solo = players == 1
    n = 2 if solo else players
    s = State.__new__(State)
    s.n, s.solo, s.rng = n, solo, seed_value(seed)
    s.options = {"players": players}
    if solo:
        s.options.update(behaviour=behaviour, scoring=scoring)
    s.round, s.phase, s.turn, s.busy = 0, "draft", 0, False
    # G7: the first player at random; solo (G8 / E21.3): the human starts
    s.first = 0 if solo else randbelow(s, n)
    s.next_first = s.first
    s.bank_used = False
    s.stack, s.pending = [], []
    # E3.6 (K1): 1 token and coins by position; G8: the solo AI gets the 2nd player's
    s.coins = [0] * n
    for k in range(n):
        s.coins[(s.first + k) % n] = DATA.starting_coins[k]
    s.tokens = [DATA.starting_tokens] * n
    s.seals, s.vp, s.published_n = [0] * n, [0] * n, [0] * n
    s.rep = [0] * n  # G6 / A2: one marker per player, on space 0
    # G5: the player board's character is cosmetic (no rule names an effect for it)
    s.dval = [0] * DATA.dice
    s.spaces = [[[] for _ in range(4)] for _ in range(n)]
    s.areas = [[] for _ in range(4)]
    s.cont = [[-1] * len(DATA.continent_rep) for _ in DATA.colours]
    s.on_cards, s.to_place = [], []
    s.bag = list(range(DATA.dice))  # E2.6 / G1: 20 dice, 4 per colour
    s.xdisplay, s.xdeck, s.xdiscard = [], list(range(len(DATA.experts))), []
    s.adisplay, s.adeck, s.adiscard = [], list(range(len(DATA.animals))), []
    s.removed = []
    s.experts = [[[] for _ in range(4)] for _ in range(n)]
    s.hand = [[] for _ in range(n)]
    s.cubes = [0] * len(DATA.animals)
    s.published = [[] for _ in range(n)]
    s.grid = [[0] * 16 for _ in range(n)]
    s.tiles_left = list(range(len(DATA.tiles)))  # A1: 6 of the 12 are used
    s.tiles = []
    s.ai = {}
    if solo:
        setup_ai(s, behaviour, scoring)
    fill_display(s, s.xdisplay, s.xdeck, s.xdiscard, DATA.expert_display)  # E2.4
    fill_display(s, s.adisplay, s.adeck, s.adiscard, animal_display_size(s))  # E2.5
    return s


def setup_ai(s: State, behaviour: Any, scoring: Any) -> None:
    """E4.2-E4.3: the behaviour and scoring cards (A4: an option, random by default); one
    continent card per continent, at random, in a random row: the AI's colour priority (A5(a))."""
    cards: list[int] = []
    for colour in range(len(DATA.colours)):
        mine = [i for i, c in enumerate(DATA.continent_cards) if c == colour]
        cards.append(mine[randbelow(s, len(mine))])
    row: list[int] = []
    while cards:
        row.append(cards.pop(randbelow(s, len(cards))))
    s.ai = {
        "behaviour": behaviour if behaviour != "random" else 1 + randbelow(s, 3),
        "scoring": scoring if scoring != "random" else 1 + randbelow(s, 3),
        "cards": row,
        "priority": [DATA.continent_cards[c] for c in row],
        "procedure": DATA.procedure,
    }
