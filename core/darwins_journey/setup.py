"""Setting up a game of Darwin's Journey: options, board, personal boards, crew and objectives."""

from __future__ import annotations

from typing import Any

from core.contract import InvalidOptions
from core.darwins_journey import hooks, rules
from core.darwins_journey.data import COLOURS, DATA
from core.darwins_journey.rng import seed_value, shuffle
from core.darwins_journey.state import State

ALFRED_COLOURS = ("white", "blue", "yellow", "green")
SEALS_PER_COLOUR = 14
SEALS_REMOVED = {1: 2, 2: 2, 3: 1, 4: 0}


def parse_options(options: dict[str, Any]) -> tuple[int, bool, str | None]:
    """(players, first_game, alfred colour) from the options; InvalidOptions names the bad one."""
    if not isinstance(options, dict):
        raise InvalidOptions("options", "must be an object")
    unknown = set(options) - {"players", "first_game", "alfred"}
    if unknown:
        raise InvalidOptions(sorted(unknown)[0], "unknown option")
    players = options.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
        raise InvalidOptions("players", "must be an integer from 1 to 4")
    first_game = options.get("first_game", False)
    if not isinstance(first_game, bool):
        raise InvalidOptions("first_game", "must be true or false")
    alfred = options.get("alfred")
    if players == 1:
        if alfred is None:
            alfred = "white"
        if alfred not in ALFRED_COLOURS:
            raise InvalidOptions("alfred", f"must be one of {', '.join(ALFRED_COLOURS)}")
        alfred = hooks.solo().validate_options(options) or alfred
    elif alfred is not None:
        raise InvalidOptions("alfred", "only for a solo game (players = 1)")
    return players, first_game, alfred


def new_game(options: dict[str, Any], seed: int) -> State:
    """A new game set up from `options`, every random draw taken from `seed`."""
    players, first_game, alfred = parse_options(options)
    solo = players == 1
    n = 2 if solo else players
    board_players = 2 if solo else players
    s = State()
    s.n, s.players, s.solo, s.first_game = n, players, solo, first_game
    s.options = {"players": players, "first_game": first_game}
    if solo:
        s.options["alfred"] = alfred
    s.alfred = {"board": alfred, "colour": alfred} if solo else None
    s.rng = seed_value(seed)
    s.round, s.phase, s.turn, s.placed = 1, "draft", 0, 0
    s.stack = []

    # special action tiles, neutral lenses on the top two; solo leaves the bottom row empty
    if first_game:
        special = list(DATA.first_game_special)
    else:
        tiles = sorted(DATA.special_tiles)
        shuffle(s, tiles)
        special = tiles[:6]
    if solo:
        special[4] = special[5] = 0
    s.special = special
    s.loc_owner = {}
    for loc in DATA.location_ids:
        s.loc_owner[loc] = -1 if DATA.locations[loc].unlock_cost else -2
    s.loc_workers = {loc: [] for loc in DATA.location_ids}

    if first_game:
        s.corr = list(DATA.first_game_corr)
    else:
        tiles = sorted(DATA.corr_tiles)
        shuffle(s, tiles)
        s.corr = tiles[:3]
    s.envelopes = [[0] * n for _ in range(3)]

    # wax seals: some removed by player count, the rest shuffled, 12 to the academy scrolls
    removed = SEALS_REMOVED[players]
    s.box_seals = [c for c in COLOURS for _ in range(removed)]
    bag = [c for c in COLOURS for _ in range(SEALS_PER_COLOUR - removed)]
    shuffle(s, bag)
    s.academy = [bag.pop() for _ in range(12)]
    s.seal_bag = bag
    s.purple = 12

    # objectives: starting pairs aside, the two regular piles with 2 silver + 2 gold face up
    starting = [[o.id for o in DATA.objectives.values() if o.starting and o.gold == g]
                for g in (False, True)]
    decks = [[o.id for o in DATA.objectives.values() if not o.starting and o.gold == g]
             for g in (False, True)]
    for pile in (*starting, *decks):
        pile.sort()
        shuffle(s, pile)
    shown = 1 if solo else 2
    s.obj_decks = decks
    s.obj_display = [[deck.pop() for _ in range(shown)] for deck in decks]
    s.obj_gone = []
    pairs = 2 if solo else n
    s.start_pairs = [[starting[0][i], starting[1][i]] for i in range(pairs)]

    s.museum = 0
    s.museum_coins = [True, True, True, True]
    order = list(range(n))
    if solo:
        order = [1, 0]
    else:
        shuffle(s, order)
    s.order = order

    if first_game:
        s.goals = list(DATA.first_game_goals)
    else:
        goals = sorted(DATA.beagle_goals)
        shuffle(s, goals)
        s.goals = goals[:5]
    s.beagle = 0

    # specimens on the flagged spaces allowed for the player count; the rest start in the museum
    specimens = list(range(16))
    shuffle(s, specimens)
    spaces = [sp for count in sorted(DATA.specimen_spaces) if count <= board_players
              for sp in DATA.specimen_spaces[count]]
    s.specimens = {space: specimens[i] for i, space in enumerate(spaces)}
    for k in specimens[len(spaces):]:
        s.museum |= 1 << k

    s.campsites = {a: [-1] * len(DATA.campsites[a].costs) for a in DATA.campsite_ids}
    s.ribbons = []
    s.ends = {"ocean": False, "A": False, "B": False, "C": False}
    s.reserved_order = []

    # personal boards
    s.coins = [4] * n
    s.vp = [0] * n
    s.tk = [1] * n
    s.evo = [0] * n
    s.ship = [0] * n
    s.explorers = [[0, -1, -1] for _ in range(n)]
    s.seals = [[["P"], [], [], [], []] for _ in range(n)]
    s.home = [[0, 1, 2, 3] for _ in range(n)]
    s.worker5 = [False] * n
    s.crew = [[] for _ in range(n)]
    s.reserve = [[] for _ in range(n)]
    s.obj_slots = [[0] * 10 for _ in range(n)]
    s.tents = [0] * n
    s.stamps = [[4, 4, 4] for _ in range(n)]
    s.tray = [0] * n
    s.lenses = [0] * n
    s.research = [0] * n
    if solo:
        s.coins[1], s.tk[1] = 1, 0  # Alfred starts with 1 coin on his coin track, no knowledge

    # crew cards: the fixed first-game sets in turn order, or the draft (deal 4, keep 1, pass left)
    s.hands = [[] for _ in range(n)]
    s.kept = [[] for _ in range(n)]
    deck = sorted(DATA.crew)
    if first_game:
        for i, p in enumerate(order):
            if not (solo and p == 1):
                s.kept[p] = list(DATA.first_game_crew[i if not solo else 0])
        s.crew_pool = []
    else:
        shuffle(s, deck)
        if solo:
            s.hands[0] = [deck.pop() for _ in range(5)]
            for _ in range(3):
                s.stack.append(("draft", 0, 0))
        else:
            for p in range(n):
                s.hands[p] = [deck.pop() for _ in range(4)]
            for rnd in (2, 1, 0):
                for p in reversed(range(n)):
                    s.stack.append(("draft", p, rnd))
        s.crew_pool = deck
    if solo:
        hooks.solo().setup(s)
    s.cache = None
    rules.settle(s, [])
    return s
