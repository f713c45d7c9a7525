"""Low-level effects on the state: no decisions, each appends its events to `ev`.

The decision layer (rules.py) and the solo Alfred module call these.
"""

from __future__ import annotations

from typing import Any

from core.darwins_journey.data import DATA, ISLANDS
from core.darwins_journey.state import State

Events = list[dict[str, Any]]

BOOK_MAX = len(DATA.books) - 1
ISLAND_ENDS = tuple(len(track) - 1 for track in DATA.islands)
OCEAN_END = len(DATA.ocean) - 1


def gain_coins(s: State, seat: int, n: int, ev: Events) -> None:
    """Gain `n` coins from the supply."""
    if n:
        s.coins[seat] += n
        ev.append({"type": "coins", "seat": seat, "n": n})


def pay_coins(s: State, seat: int, n: int, ev: Events) -> None:
    """Pay `n` coins to the supply (the caller checked the player can afford it)."""
    if n:
        s.coins[seat] -= n
        ev.append({"type": "coins", "seat": seat, "n": -n})


def gain_vp(s: State, seat: int, n: int, ev: Events) -> None:
    """Gain `n` victory points."""
    if n:
        s.vp[seat] += n
        ev.append({"type": "vp", "seat": seat, "n": n})


def gain_tk(s: State, seat: int, n: int, ev: Events) -> None:
    """Gain `n` temporary knowledge tokens."""
    if n:
        s.tk[seat] += n
        ev.append({"type": "knowledge", "seat": seat, "n": n})


def advance_evolution(s: State, seat: int, n: int, ev: Events) -> None:
    """Advance the evolution marker `n` steps (the track ends at its last space)."""
    new = min(BOOK_MAX, s.evo[seat] + n)
    if new != s.evo[seat]:
        ev.append({"type": "evolution", "seat": seat, "n": new - s.evo[seat]})
        s.evo[seat] = new


def research(s: State, seat: int, specimen: int, ev: Events) -> bool:
    """Put a research marker on a specimen of the personal board; False if already there."""
    bit = 1 << specimen
    if s.research[seat] & bit:
        return False
    s.research[seat] |= bit
    ev.append({"type": "research", "seat": seat, "specimen": specimen})
    return True


def deliver(s: State, seat: int, specimen: int, ev: Events, repeat: bool = False) -> None:
    """Deliver a researched specimen to the museum: row coin, row completion, row/column gains."""
    row, col = divmod(specimen, 4)
    museum = s.museum
    coins = steps = 0
    for other in range(16):
        if other == specimen:
            continue
        orow, ocol = divmod(other, 4)
        if orow == row or ocol == col:
            if museum & (1 << other):
                steps += 1
            else:
                coins += 1
    if s.museum_coins[row]:
        s.museum_coins[row] = False
        coins += 1
    row_mask = 0xF << (row * 4)
    if (museum | (1 << specimen)) & row_mask == row_mask:
        steps += 1  # the last museum tile of a row
    s.museum = museum | (1 << specimen)
    ev.append({"type": "deliver", "seat": seat, "specimen": specimen, "repeat": repeat})
    gain_coins(s, seat, coins, ev)
    advance_evolution(s, seat, steps, ev)


def place_explorer(s: State, seat: int, island: int, ev: Events) -> bool:
    """Put an unused explorer on an island's start if the player has none there."""
    pos = s.explorers[seat]
    if pos[island] >= 0 or sum(1 for p in pos if p >= 0) >= 3:
        return False
    pos[island] = 0
    ev.append({"type": "explorer", "seat": seat, "island": ISLANDS[island]})
    return True


def move_explorer(s: State, seat: int, island: int, path: tuple[int, ...], ev: Events) -> None:
    """Move an explorer along `path` (spaces entered, last = destination): ribbons and end bonus."""
    track = DATA.islands[island]
    for index in path:
        space = track[index]
        if space.ribbon and space.id not in s.ribbons:
            s.ribbons.append(space.id)
            ev.append({"type": "ribbon", "seat": seat, "space": space.id})
            gain_vp(s, seat, space.ribbon, ev)
    dest = path[-1]
    s.explorers[seat][island] = dest
    ev.append({"type": "explore", "seat": seat, "island": ISLANDS[island], "space": track[dest].id})
    key = ISLANDS[island]
    if dest == ISLAND_ENDS[island] and not s.ends[key]:
        s.ends[key] = True
        gain_vp(s, seat, DATA.end_bonus, ev)


def move_ship(s: State, seat: int, path: tuple[int, ...], ev: Events) -> None:
    """Move the ship along `path`: silver bands place explorers, first at the end scores +3."""
    for index in path:
        band = DATA.ocean[index].band
        if band:
            place_explorer(s, seat, ISLANDS.index(band), ev)
    dest = path[-1]
    s.ship[seat] = dest
    ev.append({"type": "navigate", "seat": seat, "space": DATA.ocean[dest].id})
    if dest == OCEAN_END and not s.ends["ocean"]:
        s.ends["ocean"] = True
        gain_vp(s, seat, DATA.end_bonus, ev)


def place_tent(s: State, seat: int, area: str, slot: int, ev: Events, pay: bool = True) -> None:
    """Move the player's top tent onto a campsite slot, paying its cost."""
    if pay:
        pay_coins(s, seat, DATA.campsites[area].costs[slot], ev)
    s.campsites[area][slot] = seat
    s.tents[seat] += 1
    ev.append({"type": "tent", "seat": seat, "campsite": area, "slot": slot})


def add_stamp(s: State, seat: int, envelope: int, stack: int, ev: Events) -> None:
    """Move one stamp from a personal stack (3 = the used-stamp tray) to an envelope."""
    if stack == 3:
        s.tray[seat] -= 1
    else:
        s.stamps[seat][stack] -= 1
    s.envelopes[envelope][seat] += 1
    ev.append({"type": "stamp", "seat": seat, "envelope": envelope})


def add_stamps(s: State, seat: int, envelope: int, n: int, ev: Events) -> int:
    """Move up to `n` stamps (stacks left to right, then the tray) to an envelope; count moved."""
    moved = 0
    while moved < n:
        stacks = s.stamps[seat]
        source = next((i for i in range(3) if stacks[i] > 0), 3)
        if source == 3 and s.tray[seat] == 0:
            break
        add_stamp(s, seat, envelope, source, ev)
        moved += 1
    return moved


_FREE_SCROLLS = (0,) * len(DATA.scroll_costs)


def scroll_costs(s: State, seat: int) -> tuple[int, ...]:
    """What each academy scroll adds to a seal's cost for the player: nothing once the
    player has fulfilled the objective of their second objective slot (that slot's bonus),
    else the scroll's printed cost."""
    return _FREE_SCROLLS if s.obj_slots[seat][1] < 0 else DATA.scroll_costs


def seal_cost(s: State, seat: int, scroll_index: int, row: int) -> int:
    """Coins to take the academy seal at `scroll_index` onto worker `row` (before discounts):
    its scroll's cost plus the cost printed on the row's next open slot."""
    return (scroll_costs(s, seat)[scroll_index // 3]
            + DATA.seal_slot_costs[len(s.seals[seat][row])])


def take_seal(s: State, seat: int, scroll_index: int, row: int, cost: int, ev: Events) -> None:
    """Take the seal at `scroll_index` of the academy onto worker `row`, paying `cost`."""
    colour = s.academy[scroll_index]
    s.academy[scroll_index] = ""
    s.seals[seat][row].append(colour)
    pay_coins(s, seat, cost, ev)
    ev.append({"type": "seal", "seat": seat, "colour": colour, "worker": row})


def add_purple_seal(s: State, seat: int, row: int, ev: Events) -> bool:
    """Put a purple seal from the supply on the leftmost open slot of a worker row, free."""
    if s.purple <= 0 or len(s.seals[seat][row]) >= 6 or not 1 <= row <= 3:
        return False
    s.purple -= 1
    s.seals[seat][row].append("P")
    ev.append({"type": "seal", "seat": seat, "colour": "P", "worker": row})
    return True


def unlock_lens(s: State, seat: int, loc: str, ev: Events) -> None:
    """Put a personal lens on a locked location (the caller pays the cost)."""
    s.loc_owner[loc] = seat
    s.lenses[seat] += 1
    ev.append({"type": "unlock", "seat": seat, "location": loc})
