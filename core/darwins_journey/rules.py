"""The decision layer: pending-decision stack, legal moves, applying moves, the phases of a round.

A frame on `state.stack` is a tuple (kind, seat, *params); the top frame is the pending decision.
With an empty stack in the Action phase, the seat `order[turn]` places a worker.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from core.contract import IllegalMove, find_move
from core.darwins_journey import effects as fx
from core.darwins_journey import hooks
from core.darwins_journey.data import (
    COLOUR_NAMES,
    DATA,
    ISLANDS,
    SPECIMEN_COLOURS,
    SPECIMEN_KINDS,
)
from core.darwins_journey.i18n import location as location_name
from core.darwins_journey.rng import shuffle
from core.darwins_journey.state import State
from core.texts import _noop, counted

Move = dict[str, Any]
Events = list[dict[str, Any]]

SKIP: Move = {"type": "skip", "label": "Skip this action"}
DONE: Move = {"type": "done", "label": "Do none of the remaining actions"}
END_TURN: Move = {"type": "end_turn", "label": "End your turn"}
PASS: Move = {"type": "pass", "label": "Fulfil nothing more now"}
AUTO_KINDS = ("coins", "vp", "tk", "evo", "turn_order", "research_at")
SILVER_SLOTS = range(5)
GOLD_SLOTS = range(5, 10)
SLOT_NAMES = tuple(f"silver{i + 1}" for i in range(5)) + tuple(f"gold{i + 1}" for i in range(5))


def specimen_name(k: int) -> str:
    """'green reptile' etc."""
    return f"{SPECIMEN_COLOURS[k // 4]} {SPECIMEN_KINDS[k % 4]}"


# ---------------------------------------------------------------- helpers on the state

def regular_seals(s: State, seat: int, colour: str) -> int:
    """How many regular seals of `colour` the player has on all worker rows."""
    n = 0
    for row in s.seals[seat]:  # a loop, not sum(generator): objective checks call this a lot
        n += row.count(colour)
    return n


def missing_seals(row: list[str], needs: tuple[tuple[str, int], ...]) -> int:
    """Seals a worker row lacks for `needs`, purple seals counting as any colour."""
    missing = 0
    for colour, n in needs:
        have = row.count(colour)
        if have < n:
            missing += n - have
    if missing:
        missing = max(0, missing - row.count("P"))
    return missing


def placement_penalty(s: State, seat: int) -> int:
    """Coins to place in an occupied diary section (the gold-3 objective reduces it by 1)."""
    base = DATA.placement_penalty[s.players]
    return base - 1 if s.obj_slots[seat][7] < 0 else base


def location_needs(s: State, loc: str) -> tuple[tuple[str, int], ...]:
    """The seal requirement of a location (a special location takes its tile's)."""
    if loc.startswith("special."):
        tile = s.special[int(loc[8:])]
        return DATA.special_tiles[tile].seals if tile else ()
    return DATA.locations[loc].seals


def location_actions(s: State, loc: str) -> tuple[tuple[Any, ...], ...]:
    """The actions of a location (a special location performs its tile's)."""
    if loc.startswith("special."):
        tile = s.special[int(loc[8:])]
        return DATA.special_tiles[tile].actions if tile else ()
    return DATA.locations[loc].actions


def location_seq(s: State, loc: str) -> bool:
    """Whether the location's actions must be done in the printed order."""
    if loc.startswith("special."):
        tile = s.special[int(loc[8:])]
        return bool(tile) and DATA.special_tiles[tile].seq
    return False


# per player count: (location, diary section) of the locations that belong to a section
# (computed once: sections_used runs for every placement decision of every rollout)
_SECTIONED: dict[int, tuple[tuple[str, str], ...]] = {
    players: tuple((loc, DATA.section(loc, players)) for loc in DATA.location_ids
                   if DATA.section(loc, players))
    for players in (1, 2, 3, 4)
}


# per player count: location -> DATA.section (a table, for the placement of every rollout)
_SECTION_OF: dict[int, dict[str, str]] = {
    players: {loc: DATA.section(loc, players) for loc in DATA.location_ids}
    for players in (1, 2, 3, 4)
}


def sections_used(s: State) -> set[str]:
    """The diary sections that already hold a worker this round."""
    workers = s.loc_workers
    return {section for loc, section in _SECTIONED[s.players] if workers.get(loc)}


def beagle_space(s: State) -> int:
    """The ocean space index of the HMS Beagle."""
    return DATA.beagle_spaces[s.beagle]


def _need_check(need: tuple[Any, ...]) -> Callable[[State, int], bool]:
    """One objective requirement as a test of (state, seat): the player meets it.

    Kinds (components.json, "objectives"; the rulebook's icons, p.20-21): ship_beagle (the
    ship at or past the Beagle); lenses/evo/tents n (at least n); empty_stacks n (n empty stamp
    stacks); kind k n / color c n (n specimens of one museum column / row researched); seals c n
    (n regular seals of colour c).
    """
    kind = need[0]
    if kind == "ship_beagle":
        return lambda s, p: s.ship[p] >= DATA.beagle_spaces[s.beagle]
    if kind in ("lenses", "evo", "tents"):
        n = need[1]
        field = attrgetter(kind)  # the per-seat counter of that name
        return lambda s, p: field(s)[p] >= n
    if kind == "empty_stacks":
        n = need[1]
        return lambda s, p: s.stamps[p].count(0) >= n
    if kind in ("kind", "color"):
        # the researched-specimen bits of one museum column (kind) or row (color)
        if kind == "kind":
            mask = sum(1 << (c * 4 + need[1]) for c in range(4))
        else:
            mask = 0xF << (need[1] * 4)
        n = need[2]
        return lambda s, p: bin(s.research[p] & mask).count("1") >= n
    if kind == "seals":
        colour, n = need[1], need[2]
        return lambda s, p: regular_seals(s, p, colour) >= n
    raise ValueError(f"unknown objective requirement {need!r}")  # data error, at import


# objective tile -> its requirements as tests (compiled once: fulfil_moves runs at almost every
# decision of every rollout, and interpreting the requirement tuples each time was a hot spot);
# seal counts, which scan every worker row, are tested last, after the one-lookup requirements
_OBJECTIVE_CHECKS: dict[int, tuple[Callable[[State, int], bool], ...]] = {
    tile: tuple(_need_check(need) for need in sorted(obj.needs, key=lambda n: n[0] == "seals"))
    for tile, obj in DATA.objectives.items()
}


def meets_objective(s: State, seat: int, tile: int) -> bool:
    """Whether the player meets every requirement of objective `tile`."""
    for check in _OBJECTIVE_CHECKS[tile]:
        if not check(s, seat):
            return False
    return True


def crew_rows(s: State, seat: int, card: int) -> list[int]:
    """Worker rows able to fulfil a crew card now (each row fulfils at most one card)."""
    used = {row for _, row in s.crew[seat] if row >= 0}
    needs = DATA.crew[card].needs
    rows = s.seals[seat]
    return [w for w in range(4) if len(rows[w]) >= 5 and w not in used
            and not missing_seals(rows[w], needs)]


def fulfil_moves(s: State, seat: int) -> list[Move]:
    """Every objective and crew card the player can fulfil now."""
    moves: list[Move] = []
    slots = s.obj_slots[seat]
    coins = s.coins[seat]
    for tile in s.reserve[seat]:
        if not meets_objective(s, seat, tile):
            continue
        obj = DATA.objectives[tile]
        for k in (GOLD_SLOTS if obj.gold else SILVER_SLOTS):
            if slots[k] == 0 and DATA.objective_slots[k].cost <= coins:
                moves.append({"type": "fulfil_objective", "tile": tile, "slot": k,
                              "label": f"Fulfil objective {tile} into {SLOT_NAMES[k]}"})
    if max(slots) > 0:  # most of the time no objective waits face up on a slot
        for k in range(10):
            tile = slots[k]
            if tile > 0 and meets_objective(s, seat, tile):
                moves.append({"type": "fulfil_objective", "tile": tile, "slot": k,
                              "label": f"Fulfil objective {tile} in {SLOT_NAMES[k]}"})
    crew = s.crew[seat]
    if not crew:
        return moves
    rows = s.seals[seat]
    if len(rows[1]) < 5 and len(rows[2]) < 5 and len(rows[3]) < 5 and len(rows[0]) < 5:
        return moves  # every crew card needs five seals on one worker
    for card, row in crew:
        if row < 0:
            for w in crew_rows(s, seat, card):
                moves.append({"type": "fulfil_crew", "card": card, "worker": w,
                              "label": f"Fulfil crew card {card} with worker {w + 1}"})
    return moves


# ---------------------------------------------------------------- option generators

_LOCKED_ONLY = (("locked",),)
_SIDES = ("left", "middle", "right")

Path = tuple[int, ...]


def _reach(next_of: Any, start: int, steps: int, blocked: Any, end: int) -> dict[int, Path]:
    """Destinations within `steps` counted moves; blocked spaces are skipped for free."""
    best: dict[int, tuple[int, tuple[int, ...]]] = {}
    frontier = [(start, steps, ())]
    while frontier:
        pos, left, path = frontier.pop()
        for q in next_of(pos):
            qpath = (*path, q)
            if q != end and blocked(q):
                frontier.append((q, left, qpath))
                continue
            if left <= 0:
                continue
            prev = best.get(q)
            if prev is None or prev[0] < left - 1:
                best[q] = (left - 1, qpath)
                frontier.append((q, left - 1, qpath))
    return {q: v[1] for q, v in best.items()}


def explore_options(
    s: State, seat: int, steps: int, island_only: int
) -> list[tuple[int, int, Path, int]]:
    """(island, destination, path, steps left) for every explorer move of up to `steps`."""
    out = []
    for i in range(3):
        pos = s.explorers[seat][i]
        if pos < 0 or (island_only >= 0 and i != island_only):
            continue
        track = DATA.islands[i]
        end = len(track) - 1
        others = {s.explorers[o][i] for o in range(s.n) if o != seat}
        others.discard(0)
        others.discard(-1)
        reach = _reach(lambda p, t=track: t[p].next, pos, steps, others.__contains__, end)
        for dest in sorted(reach):
            path = reach[dest]
            counted = sum(1 for p in path if p not in others or p == end)
            out.append((i, dest, path, steps - counted))
    return out


def navigate_options(s: State, seat: int, steps: int) -> list[tuple[int, tuple[int, ...], int]]:
    """(destination, path, steps left) for every ship move of up to `steps`."""
    reach = _reach(lambda p: DATA.ocean[p].next, s.ship[seat], steps, lambda q: False, -1)
    return [(dest, reach[dest], steps - len(reach[dest])) for dest in sorted(reach)]


def stop_actions(s: State, seat: int, space: Any) -> tuple[tuple[Any, ...], ...]:
    """The actions of a track space where a ship or explorer stops (its specimen included)."""
    specimen = s.specimens.get(space.id, -1)
    if specimen >= 0:
        return (("research_at", specimen), *space.actions)
    return space.actions


def academy_options(s: State, seat: int, discount: int) -> list[Move]:
    """Every seal the player can take from the academy now, onto every worker row with room."""
    moves = []
    seen = set()
    coins = s.coins[seat]
    seals = s.seals[seat]
    rows = [w for w in (1, 2, 3) if len(seals[w]) < 6]
    academy = s.academy
    # fx.seal_cost unrolled (scroll cost + the row's next slot cost): this runs for every
    # Academy action of every rollout
    scroll_costs = fx.scroll_costs(s, seat)
    slot_costs = DATA.seal_slot_costs
    for idx, colour in enumerate(academy):
        if not colour:
            continue
        # which seal of a scroll is taken matters only through its column (the Cleanup shifts
        # columns up): two seals of one scroll whose columns hold the same seals are the same
        column = idx % 3
        scroll = idx // 3
        key = (scroll, academy[column], academy[column + 3], academy[column + 6],
               academy[column + 9])
        if key in seen:
            continue
        seen.add(key)
        scroll_cost = scroll_costs[scroll]
        for w in rows:
            cost = 0 if discount >= 99 else max(0, scroll_cost + slot_costs[len(seals[w])]
                                                  - discount)
            if cost <= coins:
                move = _SEAL_MOVES.get((scroll, column, colour, w, cost))
                moves.append(move if move is not None
                             else _seal_move(scroll, column, colour, w, cost))
    return moves


def has_academy_options(s: State, seat: int, discount: int) -> bool:
    """Whether academy_options(s, seat, discount) is not empty, without building the moves.

    acts_options asks this for every Academy action of a location, again after each of its
    other actions: generating the labelled moves only to test for one was a hot spot.
    A seal's cost grows with its scroll's cost and its row's next slot cost, so the cheapest
    seal is the one of the cheapest scroll holding a seal onto the row with the cheapest slot.
    """
    seals = s.seals[seat]
    lengths = [len(seals[w]) for w in (1, 2, 3) if len(seals[w]) < 6]
    academy = s.academy
    scrolls = [r for r in range(4) if academy[3 * r] or academy[3 * r + 1] or academy[3 * r + 2]]
    if not lengths or not scrolls:
        return False
    if discount >= 99:
        cost = 0
    else:
        scroll_costs = fx.scroll_costs(s, seat)
        scroll_cost = min(scroll_costs[r] for r in scrolls)
        slot_cost = min(DATA.seal_slot_costs[n] for n in lengths)
        cost = max(0, scroll_cost + slot_cost - discount)
    return cost <= s.coins[seat]


# Interned academy moves, (scroll, position, colour, worker, cost) -> move: moves are never
# mutated, and labelled dicts built anew for every Academy decision were a hot spot (see
# _PLACE_MOVES). Bounded: 4 scrolls x 3 positions x 5 colours x 3 workers x a few costs.
_SEAL_MOVES: dict[tuple[int, int, str, int, int], Move] = {}


def _seal_move(scroll: int, column: int, colour: str, w: int, cost: int) -> Move:
    """The (interned) move taking the seal at (scroll, column) onto worker `w` for `cost`."""
    move = {"type": "seal", "scroll": scroll, "position": column, "colour": colour, "worker": w,
            "label": f"Take a {COLOUR_NAMES[colour]} seal from scroll {scroll + 1}"
                     f" ({_SIDES[column]}) onto worker {w + 1} ({counted(cost, 'coin', 'coins')})"}
    _SEAL_MOVES[(scroll, column, colour, w, cost)] = move
    return move


def unlockable(s: State) -> list[str]:
    """Locked locations a lens may be put on now (main pages top-down, special in any order)."""
    out = []
    owner = s.loc_owner
    for loc in DATA.location_ids:
        if owner[loc] != -1:
            continue
        data = DATA.locations[loc]
        if loc.startswith("special."):
            if s.special[int(loc[8:])]:
                out.append(loc)
        elif owner[f"{data.page}.{data.strength - 1}"] != -1:
            out.append(loc)
    return out


def objective_options(s: State, seat: int) -> list[Move]:
    """Every objective of the display the player can take (reserve of 2, else a paid slot)."""
    moves = []
    reserve_full = len(s.reserve[seat]) >= 2
    for colour in (0, 1):
        for tile in s.obj_display[colour]:
            if not reserve_full:
                moves.append({"type": "objective", "tile": tile, "slot": -1,
                              "label": f"Take objective {tile} into your reserve"})
                continue
            for k in (GOLD_SLOTS if colour else SILVER_SLOTS):
                if s.obj_slots[seat][k] == 0 and DATA.objective_slots[k].cost <= s.coins[seat]:
                    moves.append({"type": "objective", "tile": tile, "slot": k,
                                  "label": f"Take objective {tile} onto {SLOT_NAMES[k]}"})
    return moves


def auto_fulfil_options(s: State, seat: int) -> list[Move]:
    """Every objective the player could fulfil ignoring its requirements."""
    moves = []
    slots = s.obj_slots[seat]
    for tile in s.reserve[seat]:
        # p.20: a fulfilled objective goes to an empty space of its own colour
        for k in (GOLD_SLOTS if DATA.objectives[tile].gold else SILVER_SLOTS):
            if slots[k] == 0 and DATA.objective_slots[k].cost <= s.coins[seat]:
                moves.append({"type": "auto_fulfil", "tile": tile, "slot": k,
                              "label": f"Fulfil objective {tile} into {SLOT_NAMES[k]} for free"})
    for k in range(10):
        if slots[k] > 0:
            moves.append({"type": "auto_fulfil", "tile": slots[k], "slot": k,
                          "label": f"Fulfil objective {slots[k]} in {SLOT_NAMES[k]} for free"})
    return moves


def research_options(s: State, seat: int, pool: Any, label: str) -> list[Move]:
    """Research moves for every specimen of `pool` the player has not researched."""
    mine = s.research[seat]
    return [_RESEARCH_MOVES.get((k, label)) or _research_move(k, label)
            for k in pool if not mine >> k & 1]


# Interned research and delivery moves, (specimen, label prefix) / specimen -> move: like the
# placement moves (see _PLACE_MOVES), built for almost every action list of every rollout.
_RESEARCH_MOVES: dict[tuple[int, str], Move] = {}
_DELIVER_MOVES = tuple(
    {"type": "deliver", "specimen": k, "label": f"Deliver the {specimen_name(k)}"}
    for k in range(16))


def _research_move(k: int, label: str) -> Move:
    """The (interned) move researching specimen `k`, its label starting with `label`."""
    move = _RESEARCH_MOVES[(k, label)] = {"type": "research", "specimen": k,
                                          "label": f"{label} the {specimen_name(k)}"}
    return move


def island_specimens(s: State, seat: int) -> list[int]:
    """Specimens lying on islands where the player has an explorer."""
    out = []
    for space, k in s.specimens.items():
        if space.startswith("I") and s.explorers[seat][ISLANDS.index(space[1])] >= 0:
            out.append(k)
    return sorted(out)


def campsite_options(s: State, seat: int, area: str, pay: bool) -> list[Move]:
    """Tent placements on `area` ('' = any campsite): every open slot with its own icons.

    Slots showing the same icons are offered once, the cheapest (the dearer one only costs more).
    """
    if s.tents[seat] >= 5:
        return []
    moves = []
    coins = s.coins[seat]
    for a in ((area,) if area else DATA.campsite_ids):
        slots = s.campsites[a]
        camp = DATA.campsites[a]
        costs = camp.costs
        offered: dict[tuple[Any, ...], int] = {}  # slot icons -> cheapest open slot showing them
        for i, owner in enumerate(slots):
            if owner < 0:
                icons = camp.slot_actions[i]
                j = offered.get(icons)
                if j is None or costs[i] < costs[j]:
                    offered[icons] = i
        for i in sorted(offered.values()):
            cost = costs[i] if pay else 0
            if cost <= coins:
                moves.append({"type": "tent", "campsite": a, "slot": i,
                              "label": f"Put a tent on campsite {a}, slot {i + 1}"
                                       f" ({counted(cost, 'coin', 'coins')})"})
    return moves


# ---------------------------------------------------------------- moves of the pending decision

# Every distinct seal requirement of a location or special tile gets a small id, so that the
# seals a worker row lacks for each can be tabled once per row (see _row_missing).
_NEEDS: tuple[tuple[tuple[str, int], ...], ...] = tuple(dict.fromkeys(
    [DATA.locations[loc].seals for loc in DATA.location_ids]
    + [tile.seals for tile in DATA.special_tiles.values()]))
_NEEDS_ID = {needs: i for i, needs in enumerate(_NEEDS)}
_SPECIAL_NEEDS_ID = {t: _NEEDS_ID[tile.seals] for t, tile in DATA.special_tiles.items()}

# per player count: (location id, is a lens, section, special position or -1, printed seals' id)
_PLACES = {
    players: tuple(
        (loc, DATA.locations[loc].kind == "lens", DATA.section(loc, players),
         int(loc[8:]) if loc.startswith("special.") else -1, _NEEDS_ID[DATA.locations[loc].seals])
        for loc in DATA.location_ids
    )
    for players in (1, 2, 3, 4)
}

# sorted worker row -> missing_seals(row, needs) for every needs id: place_moves asks it for
# every (worker, open location) pair of every placement decision. Bounded by the distinct
# rows (at most 6 seals of 5 colours).
_ROW_MISSING: dict[tuple[str, ...], tuple[int, ...]] = {}


def _row_missing(row_key: tuple[str, ...]) -> tuple[int, ...]:
    """The seals the row lacks for each requirement of _NEEDS (purple counting as any)."""
    table = _ROW_MISSING.get(row_key)
    if table is None:
        row = list(row_key)
        table = _ROW_MISSING[row_key] = tuple(missing_seals(row, needs) for needs in _NEEDS)
    return table


def place_moves(s: State, seat: int) -> list[Move]:
    """Every worker placement of the seat to act."""
    moves = []
    used = sections_used(s)
    penalty = placement_penalty(s, seat)
    coins = s.coins[seat]
    tk = s.tk[seat]
    seen_rows = set()
    reserve_full = len(s.reserved_order) >= DATA.turn_order_spots
    owners = s.loc_owner
    workers = s.loc_workers
    special = s.special
    open_places = []
    for loc, lens, section, pos, needs_id in _PLACES[s.players]:
        if owners[loc] == -1 or (lens and workers[loc]):
            continue
        if pos >= 0:
            tile = special[pos]
            if not tile:
                continue
            needs_id = _SPECIAL_NEEDS_ID[tile]
        elif loc == "turn_order" and reserve_full:
            continue
        pay = penalty if section and section in used else 0
        if pay <= coins:
            open_places.append((loc, needs_id, pay))
    # a worker's placements depend only on the open places, its seals and the knowledge held:
    # memoised per open-place set (MCTS iterations meet the same positions again and again)
    open_key = tuple(open_places)
    per_open = _WORKER_PLACES.get(open_key)
    if per_open is None:
        if len(_WORKER_PLACES) >= _WORKER_PLACES_MAX:
            _WORKER_PLACES.clear()
        per_open = _WORKER_PLACES[open_key] = {}
    # two workers are interchangeable only if their seals are the same and both or neither
    # already carry a fulfilled crew card (that row can fulfil no other card later)
    tied = {row for _, row in s.crew[seat] if row >= 0}
    for w in s.home[seat]:
        row_key = tuple(sorted(s.seals[seat][w]))
        key = (row_key, w in tied)
        if key in seen_rows:
            continue
        seen_rows.add(key)
        worker_moves = per_open.get((w, row_key, tk))
        if worker_moves is None:
            worker_moves = per_open[(w, row_key, tk)] = _worker_places(w, row_key, tk,
                                                                       open_places)
        moves.extend(worker_moves)
    return moves


# open places (location, needs id, coins) of place_moves -> {(worker, sorted row, knowledge):
# that worker's placements}. A pure memo (moves are never mutated); cleared when it grows
# past the bound so that a long-running process keeps it small (~3 KB per open-place set; an
# 8000-iteration solo search met ~560 sets).
_WORKER_PLACES: dict[tuple[tuple[str, int, int], ...],
                     dict[tuple[int, tuple[str, ...], int], list[Move]]] = {}
_WORKER_PLACES_MAX = 1024


def _worker_places(w: int, row_key: tuple[str, ...], tk: int,
                   open_places: list[tuple[str, int, int]]) -> list[Move]:
    """The placements of worker `w` (seals `row_key`, `tk` knowledge held) on the open places."""
    moves = []
    missing = _row_missing(row_key)
    for loc, needs_id, pay in open_places:
        k = missing[needs_id]  # temporary knowledge to spend for the missing seals
        if k and k > tk:
            continue
        move = _PLACE_MOVES.get((w, loc, k, pay))
        moves.append(move if move is not None else _place_move(w, loc, k, pay))
    return moves


# Interned placement moves, (worker, location, knowledge, coins) -> move. Moves are never
# mutated (the cached legal moves are already shared between clones), so one dict per distinct
# placement serves every state: building ~40 labelled dicts per placement decision was the
# largest cost of move generation in MCTS rollouts. Bounded: 5 workers x the locations x a few
# knowledge and coin values.
_PLACE_MOVES: dict[tuple[int, str, int, int], Move] = {}


def _place_move(w: int, loc: str, k: int, pay: int) -> Move:
    """The (interned) move putting worker `w` on `loc` for `k` knowledge and `pay` coins."""
    # The place by its name (the page's, bgb's and the log's words), never its id.
    label = f"Worker {w + 1} to {location_name(loc, _noop)}"
    if k:
        label += f", spending {k} knowledge"
    if pay:
        label += f", paying {counted(pay, 'coin', 'coins')}"
    move = {"type": "place", "worker": w, "location": loc, "knowledge": k, "label": label}
    _PLACE_MOVES[(w, loc, k, pay)] = move
    return move


def _action_label(action: tuple[Any, ...]) -> str:
    """A short human text for a data action."""
    kind = action[0]
    if kind == "choice":
        return "choose: " + " / ".join(", ".join(_action_label(a) for a in opt)
                                       for opt in action[1])
    if kind in ("explore", "navigate"):
        text = f"{kind} up to {action[1]}"
        stops = action[2] if len(action) > 2 else 0
        return text + (f" ({stops} extra stop)" if stops else "")
    if kind == "correspond":
        stamps = counted(action[1], "stamp", "stamps")
        return f"up to {stamps}" + (" to any envelopes" if action[2] else "")
    if kind == "academy":
        text = "academy"
        if action[1]:
            text += f", {counted(action[1], 'coin', 'coins')} less"
        if len(action) > 2 and action[2]:
            text += f", {action[2]} extra seal"
        return text
    if kind == "unlock":
        return "unlock a lens location" + (" for free" if action[1] else "")
    if kind == "campsite":
        return f"tent on campsite {action[1]}"
    return " ".join(str(x) for x in action if not isinstance(x, tuple))


def param_options(s: State, seat: int, frame: tuple[Any, ...]) -> list[Move]:
    """The choices of a parameter frame (without the skip move)."""
    kind = frame[0]
    if kind == "explore":
        _, _, steps, stops, island = frame
        moves = []
        for i, dest, _path, left in explore_options(s, seat, steps, island):
            sid = DATA.islands[i][dest].id
            moves.append({"type": "explore", "island": ISLANDS[i], "space": sid, "stop": False,
                          "label": f"Explorer on island {ISLANDS[i]} to {sid}"})
            if stops and left > 0 and dest != len(DATA.islands[i]) - 1:
                moves.append({"type": "explore", "island": ISLANDS[i], "space": sid, "stop": True,
                              "label": f"Explorer on island {ISLANDS[i]} stops at {sid}"
                                       " and goes on"})
        return moves
    if kind == "navigate":
        _, _, steps, stops = frame
        moves = []
        for dest, _path, left in navigate_options(s, seat, steps):
            sid = DATA.ocean[dest].id
            moves.append({"type": "navigate", "space": sid, "stop": False,
                          "label": f"Ship to {sid}"})
            if stops and left > 0 and dest != fx.OCEAN_END:
                moves.append({"type": "navigate", "space": sid, "stop": True,
                              "label": f"Ship stops at {sid} and goes on"})
        return moves
    if kind == "correspond":
        _, _, n, split, env, _mask = frame
        if n <= 0:
            return []
        stacks = s.stamps[seat]
        sources = [i for i in range(3) if stacks[i] > 0]
        if not sources and s.tray[seat] > 0:
            sources = [3]
        envs = range(3) if (split or env < 0) else (env,)
        return [{"type": "stamp", "envelope": e, "stack": src,
                 "label": f"Stamp from {'the tray' if src == 3 else f'stack {src + 1}'}"
                          f" to envelope {e + 1}"}
                for e in envs for src in sources]
    if kind == "academy":
        return academy_options(s, seat, frame[2])
    if kind == "campsite":
        return campsite_options(s, seat, frame[2], True)
    if kind == "reactivate":
        return [{"type": "reactivate", "campsite": a, "slot": i,
                 "label": f"Re-activate your tent on campsite {a}, slot {i + 1}"}
                for a in DATA.campsite_ids for i, owner in enumerate(s.campsites[a])
                if owner == seat]
    if kind == "objective":
        return objective_options(s, seat)
    if kind == "auto_fulfil":
        return auto_fulfil_options(s, seat)
    if kind == "place_explorer":
        if sum(1 for p in s.explorers[seat] if p >= 0) >= 3:
            return []
        return [{"type": "explorer", "island": ISLANDS[i],
                 "label": f"Put an explorer on island {ISLANDS[i]}"}
                for i in range(3) if s.explorers[seat][i] < 0]
    if kind == "locked":
        return [{"type": "locked", "location": loc,
                 "label": f"Perform locked location {location_name(loc, _noop)}"}
                for loc in DATA.location_ids
                if s.loc_owner[loc] == -1 and location_actions(s, loc) not in ((), _LOCKED_ONLY)]
    if kind == "unlock":
        if s.lenses[seat] >= 6:
            return []
        free = frame[2]
        moves = []
        for loc in unlockable(s):
            cost = 0 if free else DATA.locations[loc].unlock_cost
            if cost <= s.coins[seat]:
                named = location_name(loc, _noop)
                moves.append({"type": "unlock", "location": loc,
                              "label": f"Unlock {named} ({counted(cost, 'coin', 'coins')})"})
        return moves
    if kind == "move_to_beagle":
        # crew 8: "Move your Ship to the same location as the HMS Beagle", from behind or ahead
        target = beagle_space(s)
        if s.ship[seat] == target:
            return []
        return [{"type": "beagle",
                 "label": f"Move your ship up to the HMS Beagle ({DATA.ocean[target].id})"}]
    if kind == "research_any":
        return research_options(s, seat, range(16), "Research")
    if kind == "research_island":
        return research_options(s, seat, island_specimens(s, seat), "Research")
    if kind == "research_museum":
        if frame[2] >= 1 and s.coins[seat] < 3:
            return []
        pool = [k for k in range(16) if s.museum >> k & 1]
        return research_options(s, seat, pool, "Research from the museum")
    if kind in ("deliver", "repeat_delivery"):
        if kind == "deliver" and frame[2] >= 1 and s.coins[seat] < 3:
            return []
        mine = s.research[seat]
        want = 1 if kind == "repeat_delivery" else 0
        return [_DELIVER_MOVES[k]
                for k in range(16) if mine >> k & 1 and (s.museum >> k & 1) == want]
    if kind == "purple":
        if s.purple <= 0:
            return []
        return [{"type": "purple", "worker": w, "label": f"Purple seal onto worker {w + 1}"}
                for w in (1, 2, 3) if len(s.seals[seat][w]) < 6]
    if kind == "tk_convert":
        if s.tk[seat] < 1:
            return []
        n = frame[2]
        coins, points = counted(n, "coin", "coins"), counted(n, "point", "points")
        return [{"type": "convert", "into": "coins", "label": f"1 knowledge into {coins}"},
                {"type": "convert", "into": "vp", "label": f"1 knowledge into {points}"}]
    if kind == "choice":
        return [{"type": "choose", "option": i, "label": "Choose " + _action_label(("x",) + opt)}
                for i, opt in enumerate(frame[2])]
    if kind == "copy_crew":
        cards = sorted({c for p in range(s.n) for c, row in s.crew[p] if row < 0 and c != 7})
        return [{"type": "copy", "card": c, "label": f"Copy crew card {c}"} for c in cards]
    raise ValueError(f"unknown frame {frame!r}")  # pragma: no cover


def acts_options(s: State, frame: tuple[Any, ...],
                 found: list[list[Move] | None] | None = None) -> list[Move]:
    """The 'do action i next' moves of an action-list frame (only the possible ones).

    `found`, when given, receives for each possible action its parameter options, or None
    where only their existence was checked (so that settle need not generate them again when
    it goes straight to the only one).
    """
    _, seat, actions, seq = frame
    moves = []
    seen = set()
    for i, action in enumerate(actions):
        if action in seen:
            continue
        seen.add(action)
        pframe = param_frame(seat, action)
        if pframe[0] == "academy":
            # hot path: only whether a seal can be taken matters here (see has_academy_options)
            opts = None
            possible = has_academy_options(s, seat, pframe[2])
        else:
            opts = param_options(s, seat, pframe)
            possible = bool(opts)
        if possible:
            if found is not None:
                found.append(opts)
            moves.append(_ACT_MOVES.get((i, action)) or _act_move(i, action))
            if seq:
                break  # in order: an impossible action is passed over, the next waits
    return moves


# Interned 'do action i next' moves, (index, action) -> move (see _PLACE_MOVES): every action
# list of every rollout offers them. Bounded by the data's action lists.
_ACT_MOVES: dict[tuple[int, tuple[Any, ...]], Move] = {}


def _act_move(i: int, action: tuple[Any, ...]) -> Move:
    """The (interned) move doing action `i` of a list, `action`, next."""
    move = _ACT_MOVES[(i, action)] = {"type": "act", "index": i,
                                      "label": f"Do: {_action_label(action)}"}
    return move


def decision_moves(s: State, found: list[list[Move] | None] | None = None) -> list[Move]:
    """The moves of the pending decision ([] = nothing to decide: settle resolves it).

    `found`: see acts_options (filled only for an action-list frame).
    """
    if not s.stack:
        if s.phase == "actions":
            seat = s.order[s.turn]
            return place_moves(s, seat) + fulfil_moves(s, seat)
        return []
    frame = s.stack[-1]
    kind = frame[0]
    seat = frame[1]
    if kind == "endturn":
        f = fulfil_moves(s, seat)
        return [*f, END_TURN] if f else []
    if kind == "window":
        f = fulfil_moves(s, seat)
        return [*f, PASS] if f else []
    if kind == "acts":
        opts = acts_options(s, frame, found)
        if not opts:
            return []
        return [*opts, *fulfil_moves(s, seat), DONE]
    if kind == "draft":
        hand = s.hands[(seat - frame[2]) % s.n]
        return [{"type": "draft", "card": c, "secret": True, "label": f"Keep crew card {c}"}
                for c in hand]
    if kind == "pair":
        return [{"type": "pair", "silver": a, "gold": b,
                 "label": f"Take starting objectives {a} and {b}"} for a, b in s.start_pairs]
    if kind in AUTO_FRAMES:
        return []
    opts = param_options(s, seat, frame)
    if not opts:
        return []
    if kind == "correspond" and frame[5] >= 0:
        # between two stamps of one action: fulfilling could start a nested correspondence
        # and pay an emptied stack twice; before the first stamp and after the last it is fine
        return [*opts, SKIP]
    return [*opts, *fulfil_moves(s, seat), SKIP]


def param_frame(seat: int, action: tuple[Any, ...]) -> tuple[Any, ...]:
    """The parameter frame that performs one data action."""
    kind = action[0]
    if kind == "explore":
        return ("explore", seat, action[1], action[2] if len(action) > 2 else 0, -1)
    if kind == "navigate":
        return ("navigate", seat, action[1], action[2] if len(action) > 2 else 0)
    if kind == "correspond":
        return ("correspond", seat, action[1], action[2], -1, -1)
    if kind == "academy":
        return ("academy", seat, action[1], action[2] if len(action) > 2 else 0)
    if kind == "free_seal":
        return ("academy", seat, 99, 0)
    if kind == "campsite":
        return ("campsite", seat, action[1])
    if kind == "campsite_any":
        return ("campsite", seat, "")
    if kind == "unlock":
        return ("unlock", seat, action[1])
    if kind in ("deliver", "research_museum"):
        return (kind, seat, 0)
    if kind in ("tk_convert", "choice"):
        return (kind, seat, action[1])
    return (kind, seat)


# ---------------------------------------------------------------- pushing work

def push_acts(s: State, seat: int, actions: tuple[Any, ...], seq: bool, ev: Events) -> None:
    """Resolve the automatic actions of a list now and push the rest as an action-list frame."""
    rest = []
    for action in actions:
        kind = action[0]
        if kind in AUTO_KINDS:
            auto_action(s, seat, action, ev)
        else:
            rest.append(action)
    if rest:
        s.stack.append(("acts", seat, tuple(rest), seq))


def auto_action(s: State, seat: int, action: tuple[Any, ...], ev: Events) -> None:
    """Perform an action that needs no decision."""
    kind = action[0]
    if kind == "coins":
        fx.gain_coins(s, seat, action[1], ev)
    elif kind == "vp":
        fx.gain_vp(s, seat, action[1], ev)
    elif kind == "tk":
        fx.gain_tk(s, seat, action[1], ev)
    elif kind == "evo":
        fx.advance_evolution(s, seat, action[1], ev)
    elif kind == "research_at":
        fx.research(s, seat, action[1], ev)
    elif kind == "turn_order":
        s.reserved_order.append(seat)
        fx.gain_coins(s, seat, DATA.reserve_coins[s.players], ev)


def apply_slot_reward(s: State, seat: int, slot: int, ev: Events) -> None:
    """The immediate reward of the objective slot just filled by a fulfilled objective."""
    reward = DATA.objective_slots[slot].reward
    if reward == "reactivate_tent":
        s.stack.append(("reactivate", seat))
    elif reward == "research_island":
        s.stack.append(("research_island", seat))
    elif reward == "worker5":
        if not s.worker5[seat]:
            s.worker5[seat] = True
            if s.phase == "actions":
                s.home[seat].append(4)
            ev.append({"type": "worker5", "seat": seat})
    elif reward == "purple":
        s.stack.append(("purple", seat))


def fulfil_objective(s: State, seat: int, tile: int, slot: int, ev: Events) -> None:
    """Flip an objective into `slot` (paying the slot when it comes from the reserve)."""
    if tile in s.reserve[seat]:
        s.reserve[seat].remove(tile)
        fx.pay_coins(s, seat, DATA.objective_slots[slot].cost, ev)
    s.obj_slots[seat][slot] = -tile
    ev.append({"type": "objective_fulfilled", "seat": seat, "tile": tile, "slot": SLOT_NAMES[slot]})
    apply_slot_reward(s, seat, slot, ev)


# ---------------------------------------------------------------- applying a move

def apply_move(s: State, move: Move) -> Events:
    """Validate and play `move`; IllegalMove leaves the state untouched."""
    if s.solo:
        solo = hooks.solo()
        ev = solo.apply(s, move)  # Alfred's own moves; None: an ordinary move
        if ev is not None:
            # solo.apply usually settles already; a cache it left is what settle would compute
            # again (settle only caches when it stops at a decision, and it stops there again)
            if s.cache is None:
                settle(s, ev)
            solo.after_apply(s, ev)
            return ev
    legal = legal_moves(s)
    # bots hand back the very dicts legal_moves gave them: identity first, then by content
    found = None
    for m in legal:
        if m is move:
            found = m
            break
    else:
        found = find_move(legal, move)
    if found is None:
        if not legal:
            raise IllegalMove(move, "the game is over")
        kinds = sorted({m["type"] for m in legal})
        raise IllegalMove(move, f"not a legal move now (seat {to_act(s)} must choose one of the"
                                f" {len(legal)} legal moves, of types {', '.join(kinds)})")
    ev: Events = []
    s.cache = None
    _play(s, found, ev)
    settle(s, ev)
    if s.solo:
        hooks.solo().after_apply(s, ev)
    return ev


def legal_moves(s: State) -> list[Move]:
    """Every legal move of the seat to act (cached until the next move).

    Alfred's moves (solo) are cached too: the MCTS asks for them and then applies one, and
    solo.apply validates against this cache instead of running his procedure again.
    """
    if s.cache is None:
        if s.solo:
            moves = hooks.solo().legal_moves(s)  # Alfred's procedure; None: an ordinary decision
            if moves is not None:
                s.cache = moves
                return moves
        s.cache = decision_moves(s) if s.phase != "over" else []
    return s.cache


def to_act(s: State) -> int | None:
    """The seat that decides now, or None once the game is over."""
    if s.phase == "over":
        return None
    if s.solo:
        seat = hooks.solo().to_act(s)
        if seat is not NotImplemented:
            return seat
    if s.stack:
        return s.stack[-1][1]
    return s.order[s.turn]


def _play(s: State, m: Move, ev: Events) -> None:
    t = m["type"]
    if t == "fulfil_objective":
        seat = to_act(s)
        fulfil_objective(s, seat, m["tile"], m["slot"], ev)
        return
    if t == "fulfil_crew":
        seat = to_act(s)
        for entry in s.crew[seat]:
            if entry[0] == m["card"]:
                entry[1] = m["worker"]
        ev.append({"type": "crew_fulfilled", "seat": seat, "card": m["card"],
                   "worker": m["worker"]})
        card = DATA.crew[m["card"]]
        push_acts(s, seat, card.actions, card.seq, ev)
        return
    if not s.stack:
        _place(s, s.order[s.turn], m, ev)
        return
    frame = s.stack.pop()
    kind = frame[0]
    seat = frame[1]
    if t in ("skip", "done", "end_turn", "pass"):
        if kind == "endturn":
            next_turn(s, ev)
        return
    if kind == "acts":
        actions = frame[2]
        action = actions[m["index"]]
        i = m["index"]
        rest = actions[i + 1:] if frame[3] else actions[:i] + actions[i + 1:]
        if rest:
            s.stack.append(("acts", seat, rest, frame[3]))
        s.stack.append(param_frame(seat, action))
        return
    handler = _HANDLERS[kind]
    handler(s, seat, frame, m, ev)


def _place(s: State, seat: int, m: Move, ev: Events) -> None:
    w = m["worker"]
    loc = m["location"]
    s.home[seat].remove(w)
    if m["knowledge"]:
        s.tk[seat] -= m["knowledge"]
    section = _SECTION_OF[s.players][loc]
    if section and section in sections_used(s):
        fx.pay_coins(s, seat, placement_penalty(s, seat), ev)
    owner = s.loc_owner[loc]
    if owner >= 0 and owner != seat:
        fx.gain_coins(s, owner, 1, ev)
    s.loc_workers[loc].append(seat)
    ev.append({"type": "place", "seat": seat, "worker": w, "location": loc})
    s.stack.append(("endturn", seat))
    nseals = len(s.seals[seat][w])
    data = DATA.locations[loc]
    actions = list(location_actions(s, loc))
    bonuses = []
    if nseals >= 4:
        bonuses.extend(data.silver)
    if nseals >= 6:
        bonuses.extend(data.gold)
    for bonus in bonuses:
        b = bonus[0]
        if b == "bonus_seal":
            # "one more seal in the associated Academy action": the first academy action only
            i = next((i for i, a in enumerate(actions) if a[0] == "academy"), -1)
            if i >= 0:
                actions[i] = _boost(actions[i], b)
        elif b in ("bonus_step", "bonus_stop", "bonus_split", "bonus_discount"):
            actions = [_boost(a, b) for a in actions]
        else:
            actions.append(bonus)
    push_acts(s, seat, tuple(actions), location_seq(s, loc), ev)


def _boost(action: tuple[Any, ...], bonus: str) -> tuple[Any, ...]:
    """A main-diary action improved by a distinction bonus."""
    kind = action[0]
    if kind in ("explore", "navigate"):
        n, stops = action[1], action[2] if len(action) > 2 else 0
        if bonus == "bonus_step":
            return (kind, n + 1, stops)
        if bonus == "bonus_stop":
            return (kind, n, stops + 1)
    elif kind == "correspond":
        if bonus == "bonus_step":
            return (kind, action[1] + 1, action[2])
        if bonus == "bonus_split":
            return (kind, action[1], True)
    elif kind == "academy":
        d, extra = action[1], action[2] if len(action) > 2 else 0
        if bonus == "bonus_seal":
            return (kind, d, extra + 1)
        if bonus == "bonus_discount":
            return (kind, d + 1, extra)
    return action


def next_turn(s: State, ev: Events) -> None:
    """Pass the Action phase to the next seat in turn order that still has a worker at home."""
    for step in range(1, s.n + 1):
        j = (s.turn + step) % s.n
        if s.home[s.order[j]]:
            s.turn = j
            return
    _end_action_phase(s, ev)


# --- parameter handlers: (state, seat, frame, move, events)

def _h_explore(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    _, _, steps, stops, island = frame
    i = ISLANDS.index(m["island"])
    dest = DATA.island_index[m["space"]][1]
    path, left = next((p, left) for oi, od, p, left in explore_options(s, seat, steps, island)
                      if oi == i and od == dest)
    fx.move_explorer(s, seat, i, path, ev)
    if m["stop"]:
        s.stack.append(("explore", seat, left, stops - 1, i))
    push_acts(s, seat, stop_actions(s, seat, DATA.islands[i][dest]), False, ev)


def _h_navigate(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    _, _, steps, stops = frame
    dest = DATA.ocean_index[m["space"]]
    path, left = next((p, left) for od, p, left in navigate_options(s, seat, steps) if od == dest)
    fx.move_ship(s, seat, path, ev)
    if m["stop"]:
        s.stack.append(("navigate", seat, left, stops - 1))
    push_acts(s, seat, stop_actions(s, seat, DATA.ocean[dest]), False, ev)


def _h_stamp(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    _, _, n, split, env, mask = frame
    if mask < 0:
        # first stamp: the emptied-stack rewards come once the whole action is over
        mask = sum(1 << i for i in range(3) if s.stamps[seat][i] > 0)
        s.stack.append(("stack_rewards", seat, mask))
    fx.add_stamp(s, seat, m["envelope"], m["stack"], ev)
    if n - 1 > 0:
        s.stack.append(("correspond", seat, n - 1, split, m["envelope"], mask))


def _stack_rewards(s: State, seat: int, mask: int, ev: Events) -> None:
    for i in (2, 1, 0):
        if mask >> i & 1 and s.stamps[seat][i] == 0:
            ev.append({"type": "stack_emptied", "seat": seat, "stack": i})
            push_acts(s, seat, DATA.stamp_rewards[i], False, ev)


def _h_seal(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    _, _, discount, extra = frame
    scroll = m["scroll"]
    idx = scroll * 3 + m["position"]
    w = m["worker"]
    if discount >= 99:
        cost = 0
    else:
        full = fx.seal_cost(s, seat, idx, w)
        cost = max(0, full - discount)
        # the discount is for the whole Academy action: what this seal did not use is left
        # for the extra seal of a silver distinction
        discount -= full - cost
    fx.take_seal(s, seat, idx, w, cost, ev)
    if extra:
        s.stack.append(("academy", seat, discount, extra - 1))


def _h_tent(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    area = m["campsite"]
    removed = s.tents[seat]  # index of the tent taken from the personal board
    fx.place_tent(s, seat, area, m["slot"], ev)
    # the personal-board reward comes after the slot's actions (rulebook p.15)
    if DATA.tent_rewards[removed]:
        s.stack.append(("defer", seat, DATA.tent_rewards[removed], False))
    push_acts(s, seat, DATA.campsites[area].slot_actions[m["slot"]], False, ev)


def _h_reactivate(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    # p.21: that tent's own slot icons again, as if it were placed now, paying nothing
    ev.append({"type": "tent_reactivated", "seat": seat, "campsite": m["campsite"],
               "slot": m["slot"]})
    push_acts(s, seat, DATA.campsites[m["campsite"]].slot_actions[m["slot"]], False, ev)


def _h_objective(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    tile = m["tile"]
    gold = DATA.objectives[tile].gold
    s.obj_display[1 if gold else 0].remove(tile)
    if m["slot"] < 0:
        s.reserve[seat].append(tile)
    else:
        fx.pay_coins(s, seat, DATA.objective_slots[m["slot"]].cost, ev)
        s.obj_slots[seat][m["slot"]] = tile
    ev.append({"type": "objective_taken", "seat": seat, "tile": tile})


def _h_auto_fulfil(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    fulfil_objective(s, seat, m["tile"], m["slot"], ev)


def _h_explorer(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    fx.place_explorer(s, seat, ISLANDS.index(m["island"]), ev)


def _h_locked(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    loc = m["location"]
    ev.append({"type": "locked_performed", "seat": seat, "location": loc})
    push_acts(s, seat, location_actions(s, loc), location_seq(s, loc), ev)


def _h_unlock(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    loc = m["location"]
    if not frame[2]:
        fx.pay_coins(s, seat, DATA.locations[loc].unlock_cost, ev)
    fx.unlock_lens(s, seat, loc, ev)
    # the unlock bonus: the location's actions at once, ignoring seals, without a worker
    push_acts(s, seat, location_actions(s, loc), location_seq(s, loc), ev)


def _h_research(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    if frame[0] == "research_museum":
        if frame[2] >= 1:
            fx.pay_coins(s, seat, 3, ev)
        else:
            s.stack.append(("research_museum", seat, 1))
    fx.research(s, seat, m["specimen"], ev)


def _h_deliver(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    if frame[0] == "deliver":
        if frame[2] >= 1:
            fx.pay_coins(s, seat, 3, ev)
        else:
            s.stack.append(("deliver", seat, 1))
    fx.deliver(s, seat, m["specimen"], ev, repeat=frame[0] == "repeat_delivery")


def _h_beagle(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    target = beagle_space(s)
    if s.ship[seat] > target:
        # back to the Beagle: nothing is crossed backwards (no band, no end bonus)
        s.ship[seat] = target
        ev.append({"type": "navigate", "seat": seat, "space": DATA.ocean[target].id})
        return
    # forward the shortest way there, so that silver bands crossed place explorers
    reach = _reach(lambda p: DATA.ocean[p].next, s.ship[seat], 99, lambda q: False, -1)
    fx.move_ship(s, seat, reach[target], ev)


def _h_purple(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    fx.add_purple_seal(s, seat, m["worker"], ev)


def _h_convert(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    s.tk[seat] -= 1
    ev.append({"type": "knowledge", "seat": seat, "n": -1})
    if m["into"] == "coins":
        fx.gain_coins(s, seat, frame[2], ev)
    else:
        fx.gain_vp(s, seat, frame[2], ev)


def _h_choose(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    push_acts(s, seat, frame[2][m["option"]], False, ev)


def _h_copy(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    card = DATA.crew[m["card"]]
    ev.append({"type": "crew_copied", "seat": seat, "card": card.id})
    push_acts(s, seat, card.actions, card.seq, ev)


def _h_draft(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    hand = s.hands[(seat - frame[2]) % s.n]
    hand.remove(m["card"])
    s.kept[seat].append(m["card"])
    ev.append({"type": "draft", "seat": seat, "card": m["card"], "to": [seat]})
    ev.append({"type": "drafted", "seat": seat})


def _h_pair(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    pair = [m["silver"], m["gold"]]
    s.start_pairs.remove(pair)
    s.reserve[seat].extend(pair)
    ev.append({"type": "starting_objectives", "seat": seat, "silver": pair[0], "gold": pair[1]})


_HANDLERS = {
    "explore": _h_explore, "navigate": _h_navigate, "correspond": _h_stamp, "academy": _h_seal,
    "campsite": _h_tent, "reactivate": _h_reactivate, "objective": _h_objective,
    "auto_fulfil": _h_auto_fulfil, "place_explorer": _h_explorer, "locked": _h_locked,
    "unlock": _h_unlock, "research_any": _h_research, "research_island": _h_research,
    "research_museum": _h_research, "deliver": _h_deliver, "repeat_delivery": _h_deliver,
    "purple": _h_purple, "move_to_beagle": _h_beagle, "tk_convert": _h_convert,
    "choice": _h_choose, "copy_crew": _h_copy,
    "draft": _h_draft, "pair": _h_pair,
}


# ---------------------------------------------------------------- automatic frames and phases

def _auto_stack_rewards(s: State, frame: tuple[Any, ...], ev: Events) -> None:
    _stack_rewards(s, frame[1], frame[2], ev)


def _auto_defer(s: State, frame: tuple[Any, ...], ev: Events) -> None:
    push_acts(s, frame[1], frame[2], frame[3], ev)


def _auto_envelope(s: State, frame: tuple[Any, ...], ev: Events) -> None:
    e = frame[1]
    counts = s.envelopes[e]
    tile = DATA.corr_tiles[s.corr[e]]
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    first = [p for p in s.order if levels and counts[p] == levels[0]]
    second = [p for p in s.order if len(levels) > 1 and counts[p] == levels[1]]
    rewarded = first + second
    if not rewarded:
        return
    ev.append({"type": "majority", "envelope": e, "first": first, "second": second})
    # p.23: only the players who performed a reward action discard; a reward with an automatic
    # gain always is; for the others, their board is compared before and after (_reward_mark)
    automatic = _AUTOMATIC_REWARD[tile.id]
    marks = tuple((p, None if (s.solo and p == 1) or automatic[0 if p in first else 1]
                   else _reward_mark(s, p))
                  for p in rewarded)
    s.stack.append(("discard", -1, e, marks))
    # pushed in reverse so that firsts act before seconds, each group in turn order
    for place, group in ((2, second), (1, first)):
        for p in reversed(group):
            if s.solo and p == 1:
                s.stack.append(("alfred_reward", -1, e, place))
            else:
                # deferred: even the automatic gains come in turn, after the earlier rewards
                s.stack.append(("defer", p, tile.first if place == 1 else tile.second, False))


# correspondence tile -> (first, second): whether the reward holds an automatic gain
_AUTOMATIC_REWARD = {
    t.id: tuple(any(a[0] in AUTO_KINDS for a in reward) for reward in (t.first, t.second))
    for t in DATA.corr_tiles.values()}


def _reward_mark(s: State, seat: int) -> tuple[Any, ...]:
    """What a reward action needing a decision changes: the ship, explorers, regular seals."""
    seals = 0
    for row in s.seals[seat]:
        seals += len(row) - row.count("P")
    return (s.ship[seat], tuple(s.explorers[seat]), seals)


def _auto_discard(s: State, frame: tuple[Any, ...], ev: Events) -> None:
    e = frame[2]
    for p, mark in frame[3]:
        if mark is not None and mark == _reward_mark(s, p):
            continue  # no reward action performed: the stamps stay
        n = (s.envelopes[e][p] + 1) // 2
        s.envelopes[e][p] -= n
        s.tray[p] += n
        ev.append({"type": "stamps_discarded", "seat": p, "envelope": e, "n": n})


def _auto_alfred_reward(s: State, frame: tuple[Any, ...], ev: Events) -> None:
    ev.extend(hooks.solo().alfred_reward(s, frame[2], frame[3]) or [])


def beagle_points(s: State, seat: int) -> tuple[int, int]:
    """(points before delay, delay penalty) of the current Beagle goal for a player."""
    goal = DATA.beagle_goals[s.goals[s.beagle]]
    kind = goal.kind
    if kind == "seals":
        count = regular_seals(s, seat, goal.what)
    elif kind == "specimen_kind":
        count = sum(1 for c in range(4) if s.research[seat] >> (c * 4 + goal.what) & 1)
    elif kind == "empty_stacks":
        count = s.stamps[seat].count(0)
    elif kind == "lenses":
        count = s.lenses[seat]
    elif kind == "objectives":
        count = sum(1 for x in s.obj_slots[seat] if x < 0)
    else:
        count = s.tents[seat]
    return count * goal.vp, delay_penalty(s, seat)


def delay_penalty(s: State, seat: int) -> int:
    """The delay penalty between a seat's ship and the HMS Beagle (gold-4 objective: each <= 2)."""
    delay = 0
    cap = 2 if s.obj_slots[seat][8] < 0 else 99
    for j in range(s.beagle + 1):
        if s.ship[seat] < DATA.beagle_spaces[j]:
            delay += min(cap, DATA.delay_penalties[j])
    return delay


def _auto_beagle(s: State, frame: tuple[Any, ...], ev: Events) -> None:
    for p in s.order:
        if s.solo and p == 1:
            fx.gain_vp(s, p, hooks.solo().alfred_beagle(s), ev)
            continue
        points, delay = beagle_points(s, p)
        ev.append({"type": "beagle_goal", "seat": p, "points": points, "delay": delay})
        fx.gain_vp(s, p, max(0, points - delay), ev)


def _auto_rewards_end(s: State, frame: tuple[Any, ...], ev: Events) -> None:
    if s.round >= 5:
        s.phase = "over"
        ev.append({"type": "game_over"})
        return
    cleanup(s, ev)


AUTO_FRAMES = {
    "defer": _auto_defer, "stack_rewards": _auto_stack_rewards, "envelope": _auto_envelope,
    "discard": _auto_discard,
    "alfred_reward": _auto_alfred_reward, "beagle": _auto_beagle, "rewards_end": _auto_rewards_end,
}


def _end_action_phase(s: State, ev: Events) -> None:
    """Turn-order phase, then start the Rewards phase."""
    if s.reserved_order and not s.solo:
        first: list[int] = []
        for p in s.reserved_order:
            if p not in first:
                first.append(p)
        s.order = first + [p for p in s.order if p not in first]
        ev.append({"type": "turn_order", "order": list(s.order)})
    s.phase = "rewards"
    s.turn = 0
    # objectives and crew cards may be fulfilled at any moment of the Rewards phase: a window
    # for each seat (only offered when it can fulfil something) before, between and after
    windows = [("window", p) for p in reversed(s.order) if not (s.solo and p == 1)]
    s.stack.append(("rewards_end", -1))
    s.stack.extend(windows)
    s.stack.append(("beagle", -1))
    for e in (2, 1, 0):
        s.stack.extend(windows)
        s.stack.append(("envelope", e))
    s.stack.extend(windows)
    ev.append({"type": "phase", "phase": "rewards", "round": s.round})


def cleanup(s: State, ev: Events) -> None:
    """The Cleanup phase: Beagle, workers, objectives, academy; then the next round begins."""
    s.beagle += 1
    for p in range(s.n):
        s.home[p] = [0, 1, 2, 3] + ([4] if s.worker5[p] else [])
    for loc in s.loc_workers:
        s.loc_workers[loc] = []
    s.reserved_order = []
    shown = 1 if s.solo else 2
    for colour in (0, 1):
        s.obj_gone.extend(s.obj_display[colour])
        deck = s.obj_decks[colour]
        s.obj_display[colour] = [deck.pop() for _ in range(min(shown, len(deck)))]
    # the top scroll's seals leave the game; the others move up their column, then refill
    for i in range(3):
        if s.academy[i]:
            s.box_seals.append(s.academy[i])
            s.academy[i] = ""
    for col in range(3):
        column = [s.academy[r * 3 + col] for r in range(4) if s.academy[r * 3 + col]]
        for r in range(4):
            s.academy[r * 3 + col] = column[r] if r < len(column) else ""
    for i in range(12):
        if not s.academy[i] and s.seal_bag:
            s.academy[i] = s.seal_bag.pop()
    if s.solo:
        hooks.solo().cleanup(s)
    s.round += 1
    s.phase = "actions"
    s.turn = 0
    ev.append({"type": "phase", "phase": "actions", "round": s.round})


def finish_setup(s: State, ev: Events) -> None:
    """After the crew cards are known: starting seals, then the starting-objective choice."""
    for p in range(s.n):
        if s.solo and p == 1:
            continue
        for w, card in enumerate(sorted(s.kept[p])):
            s.crew[p].append([card, -1])
            colour = DATA.crew[card].seal
            if colour in s.seal_bag:
                s.seal_bag.remove(colour)
                s.seals[p][w + 1].append(colour)
        ev.append({"type": "crew_revealed", "seat": p, "cards": sorted(s.kept[p])})
    for hand in s.hands:
        s.crew_pool.extend(hand)  # the cards nobody kept go back to the box, unseen
    s.crew_pool.sort()
    s.hands = [[] for _ in range(s.n)]
    s.kept = [[] for _ in range(s.n)]
    shuffle(s, s.seal_bag)
    s.phase = "start_objectives"
    pickers = [p for p in reversed(s.order) if not (s.solo and p == 1)]
    for p in reversed(pickers):
        s.stack.append(("pair", p))


def settle(s: State, ev: Events) -> None:
    """Resolve everything that needs no decision, until a seat must decide or the game ends."""
    while s.phase != "over":
        if s.stack:
            frame = s.stack[-1]
            kind = frame[0]
            auto = AUTO_FRAMES.get(kind)
            if auto is not None:
                s.stack.pop()
                auto(s, frame, ev)
                continue
            if s.solo and frame[1] == 1 and kind not in ("draft", "pair"):
                return  # Alfred's own frames are decided by the solo module
            found: list[list[Move] | None] = []
            moves = decision_moves(s, found)
            if not moves:
                s.stack.pop()
                if kind == "endturn":
                    next_turn(s, ev)
                continue
            if kind == "acts" and len(moves) == 2 and moves[0]["type"] == "act":
                # a single possible action and nothing to fulfil: go straight to its choices
                _play(s, moves[0], ev)
                # Hot path in MCTS rollouts: the frame just pushed is decided now, and its moves
                # are known without generating them again: _play only changed the stack, so its
                # options are the ones acts_options found (generated now if it only checked
                # they exist), there is still nothing to fulfil, and decision_moves would
                # return exactly [*options, SKIP].
                opts = found[0]
                if opts is None:
                    opts = param_options(s, frame[1], s.stack[-1])
                s.cache = [*opts, SKIP]
                return
            s.cache = moves
            return
        if s.phase == "draft":
            finish_setup(s, ev)
            continue
        if s.phase == "start_objectives":
            s.phase = "actions"
            s.turn = 0
            ev.append({"type": "phase", "phase": "actions", "round": s.round})
            continue
        if s.phase == "actions":
            seat = s.order[s.turn]
            if not s.home[seat]:
                next_turn(s, ev)
                continue
            if s.solo and seat == 1:
                return
            s.cache = decision_moves(s)
            return
        # rewards phase with an empty stack cannot happen (rewards_end is at the bottom)
        raise AssertionError(f"stuck in phase {s.phase}")  # pragma: no cover


_next_turn = next_turn  # the name the solo module first used
