"""The decision layer: phases of a round, the pending-decision stack, legal moves, applying them.

A frame on `state.stack` is a tuple (kind, seat, *params) and the top frame is the pending
decision. With an empty stack, the phase says who decides: "draft" (set-up animals),
"tile_pick" (round tiles T3/T4), "place" (dice onto the player board), "turns" (take a die),
"extra" (end-of-round additional actions) and "over".

Frames: ("mod", seat, die, colour, value, plus, extra) modify the taken die, then act;
("xpick", seat, colour, src) take an expert; ("xplace", seat, card) place it;
("apick", seat, colour, rep) take an animal; ("research", seat, colour, points);
("focus", seat, colour, value); ("pub", seat, focus, type, parts, value) join cubes;
("continental", seat, focus, parts, extras) discard more same-continent cards.
"""

from __future__ import annotations

from typing import Any

from core.contract import IllegalMove, find_move
from core.encyclopedia.data import DATA
from core.encyclopedia.rng import randbelow
from core.encyclopedia.state import State
from core.texts import counted

Move = dict[str, Any]
Events = list[dict[str, Any]]

COLOURS = DATA.colours
DIE_COLOUR = DATA.die_colour
ANIMALS = DATA.animals
EXPERTS = DATA.experts
BANK, EMBASSY, UNIVERSITY, ACADEMY = 0, 1, 2, 3  # the four unlimited action areas (G13)
AREA_NAMES = ("Bank", "Embassy", "University", "Academy")
ACTION_LABELS = {"bank": "Bank: take 5 coins", "embassy": "Embassy: take expedition tokens",
                 "university": "University: take an expert", "academy": "Academy: take an animal",
                 "expedition": "Expedition: research animals", "publish": "Publish research"}
AI_SEAT = 1
SEAL_COINS: Move = {"type": "seal_coins", "label": "Spend a royal seal: take 5 coins"}


_DIE_TEXT = {(c, v): f"{name} {v}" for c, name in enumerate(COLOURS) for v in range(1, 7)}


def die_text(colour: int, value: int) -> str:
    """'Asia 5'."""
    text = _DIE_TEXT.get((colour, value))
    return text if text is not None else f"{COLOURS[colour]} {value}"


# the cards' texts, made once: every legal move list of a pick labels each card (the solo AI
# lists them for every plan it weighs)
_ANIMAL_TEXT = tuple(f"{a.name} ({COLOURS[a.colour]})" for a in ANIMALS)
_EXPERT_TEXT = tuple(f"{x.name} ({COLOURS[x.colour]}; {x.text()})" for x in EXPERTS)


def animal_text(card: int) -> str:
    """'Aardvark (Africa)'."""
    return _ANIMAL_TEXT[card]


def expert_text(card: int) -> str:
    """'Guide of Asia (Asia; now: +1 tokens)'."""
    return _EXPERT_TEXT[card]


def player_name(s: State, seat: int) -> str:
    """A seat as the event descriptions name it, "Player 2" (seats count from 1); the solo
    AI as the pages name it, "the AI"."""
    return "the AI" if s.solo and seat == AI_SEAT else f"Player {seat + 1}"


def _table(table: tuple[int, ...], value: int) -> int:
    # A14: a value above 6 reads the 5-6 column; below 1 cannot happen (dice show 1-6)
    return table[min(max(value, 1), len(table)) - 1]


# ---------------------------------------------------------------- state helpers

def seat_at(s: State, k: int) -> int:
    """The seat k places after the first player (turn order, G7: clockwise = seat order)."""
    return (s.first + k) % s.n


def drafters(s: State) -> list[int]:
    """E3.5 / A3: reverse turn order, each drafter takes 2 cards at once; the AI does not draft."""
    order = [seat_at(s, s.n - 1 - k) for k in range(s.n)]
    return [p for p in order if not (s.solo and p == AI_SEAT)]


def tile_effect(s: State) -> str:
    """The effect of this round's tile once flipped ("none" before, E6.5)."""
    return DATA.tiles[s.tiles[-1]] if s.tiles and len(s.tiles) >= s.round else "none"


def active_experts(s: State, seat: int) -> list[int]:
    """The top card of each non-empty expert stack: the only active ones (E12.3, A20)."""
    return [stack[-1] for stack in s.experts[seat] if stack]


def value_bonus(s: State, seat: int, action: str) -> int:
    """Permanent expert bonus to the die's value on `action` (G19 'value' hook)."""
    bonus = 0
    for card in active_experts(s, seat):
        x = EXPERTS[card]
        if x.hook == "value" and x.action == action:
            bonus += x.n
    return bonus


def dice_on_boards(s: State) -> bool:
    """Whether any die is still on a player board (the action phase goes on while one is)."""
    return any(space for board in s.spaces for space in board)


def main_board_dice(s: State) -> list[int]:
    """Dice an additional action may take (A34: action areas and continents, not animal cards)."""
    out = [d for area in s.areas for d in area]
    out.extend(d for slots in s.cont for d in slots if d >= 0)
    return out


def can_act(s: State, seat: int, colour: int, value: int, plus: int) -> list[str]:
    """The actions legal with a die of this final colour and value (E9.1)."""
    slots = s.cont[colour]
    free = -1 in slots
    if plus:
        # G15: +2 tokens count on Expedition only; once taken the action is committed
        return ["expedition"] if free else []
    out = ["bank", "embassy"]  # G12: Bank is always legal, so a turn is never stuck
    if s.xdisplay:  # A24: no University with an empty display
        out.append("university")
    if any(ANIMALS[c].colour == colour for c in s.adisplay):  # E16.2
        out.append("academy")
    if free:  # G22: a full continent cannot be chosen; A29: no animal needed
        out.append("expedition")
    # G27: Publish is legal with value 2+ (Continental) and a card of the die's colour
    if value + value_bonus(s, seat, "publish") >= DATA.publish_continental and any(
            ANIMALS[c].colour == colour for c in s.hand[seat]):
        out.append("publish")
    return [a for a in DATA.actions if a in out]


def draw_card(s: State, deck: list[int], discard: list[int]) -> int | None:
    """A random card of `deck`; G11: an empty deck is refilled from its discard pile."""
    if not deck and discard:
        deck.extend(sorted(discard))
        discard.clear()
    if not deck:
        return None
    return deck.pop(randbelow(s, len(deck)))


def fill_display(s: State, display: list[int], deck: list[int], discard: list[int],
                 size: int) -> None:
    """Draw until the display holds `size` cards (or the deck and discards run out, G11)."""
    while len(display) < size:
        card = draw_card(s, deck, discard)
        if card is None:
            return
        display.append(card)


def animal_display_size(s: State) -> int:
    """G4: the animal display's size for the player count."""
    return DATA.animal_display[1 if s.solo else s.n]


# ---------------------------------------------------------------- gains

def gain(s: State, seat: int, kind: str, amount: int, ev: Events) -> None:
    """Receive coins, tokens, seals, VP, reputation, an animal or an expert."""
    # G3: the supply of coins, tokens and seals is unlimited (no public limit is binding)
    if kind == "coins":
        s.coins[seat] += amount
    elif kind == "tokens":
        s.tokens[seat] += amount
    elif kind == "seals":  # G17: reputation bonuses and experts also give seals
        s.seals[seat] += amount
    elif kind == "vp":
        s.vp[seat] += amount
    elif kind == "rep":
        gain_rep(s, seat, amount, ev)
    elif kind == "animal":
        for _ in range(amount):
            bonus_animal(s, seat, ev)
    elif kind == "expert":
        for _ in range(amount):
            bonus_expert(s, seat, ev)


def gain_rep(s: State, seat: int, amount: int, ev: Events) -> None:
    """E10.2: move along the track; every bonus space passed or landed on pays (K6).

    G16 (stand-in): past the track's end each further point is worth DATA.vp_beyond_track
    VP, 0: the marker stops (at 1 VP a point, Expedition's reputation dominated play).
    """
    for _ in range(amount):
        if s.rep[seat] >= DATA.track_length:
            s.vp[seat] += DATA.vp_beyond_track
            continue
        s.rep[seat] += 1
        for kind, n in DATA.track_bonus.get(s.rep[seat], ()):
            ev.append({"type": "reputation_bonus", "seat": seat, "space": s.rep[seat],
                       "kind": kind, "amount": n})
            gain(s, seat, kind, n, ev)


def bonus_animal(s: State, seat: int, ev: Events) -> None:
    """E16.6 / A16(a): a card from the display (any colour); the deck's top card if it is empty."""
    if s.adisplay:
        s.stack.append(("apick", seat, -1, 0))
        return
    card = draw_card(s, s.adeck, s.adiscard)
    if card is not None:
        s.hand[seat].append(card)
        ev.append({"type": "deck_animal", "seat": seat, "card": card})


def bonus_expert(s: State, seat: int, ev: Events) -> None:
    """E15.7 / A16(a): an expert from the display, else the deck's top card; then placed."""
    if s.xdisplay:
        s.stack.append(("xpick", seat, -1, "rep"))
        return
    card = draw_card(s, s.xdeck, s.xdiscard)
    if card is not None:
        ev.append({"type": "deck_expert", "seat": seat, "card": card})
        s.stack.append(("xplace", seat, card))


# ---------------------------------------------------------------- rounds

def start_round(s: State, ev: Events) -> None:
    """E6 in the seed's order: refresh the displays (A7: not in round 1), then the dice
    (E6.2-E6.4); the round tile is flipped once every player has placed (E6.5, A6(a))."""
    if s.round > 1:  # E6.1: the displays are renewed every round
        fill_display(s, s.xdisplay, s.xdeck, s.xdiscard, DATA.expert_display)
        fill_display(s, s.adisplay, s.adeck, s.adiscard, animal_display_size(s))
    start_placement(s, ev)


def tile_flipped(s: State) -> bool:
    """Whether this round's tile is face up (E6.5 comes after the dice are placed)."""
    return len(s.tiles) >= s.round


def flip_tile(s: State, ev: Events) -> None:
    """E6.5 / E7: flip the round tile and apply it to every player, then the next step."""
    # A1: the next of the 6 face-down tiles is one of the 12 not yet used, at random
    tile = s.tiles_left.pop(randbelow(s, len(s.tiles_left)))
    s.tiles.append(tile)
    effect = DATA.tiles[tile]
    ev.append({"type": "round", "round": s.round, "tile": tile, "effect": effect,
               "experts": list(s.xdisplay), "animals": list(s.adisplay)})
    if effect == "token":  # E7.1 (T1)
        for p in range(s.n):
            s.tokens[p] += DATA.tile_amounts[tile]
    elif effect == "coins":  # E7.2 (T2)
        for p in range(s.n):
            s.coins[p] += DATA.tile_amounts[tile]
    if effect in ("expert", "animal"):  # E7.3 / E7.4: picks in turn order, refill after
        s.phase, s.turn = "tile_pick", 0
        return
    if effect == "extra_die":  # E7.5 / A6(a): one more die each, onto an occupied space
        start_placement(s, ev)
        return
    s.phase, s.turn = "turns", 0


def start_placement(s: State, ev: Events) -> None:
    """E6.2-E6.4: in turn order each player draws and rolls dice, then places them (A8, A9);
    under T5 the same again with the one additional die (E7.5)."""
    s.phase, s.turn = "place", 0
    draw_dice(s, seat_at(s, 0), ev)


def draw_dice(s: State, seat: int, ev: Events) -> None:
    """E6.2: 4 dice at random from the bag, rolled (A8(a)); E7.5: 1 more once T5 is up."""
    count = 1 if tile_flipped(s) else DATA.dice_per_round
    drawn = []
    for _ in range(min(count, len(s.bag))):
        d = s.bag.pop(randbelow(s, len(s.bag)))
        s.dval[d] = 1 + randbelow(s, 6)
        s.to_place.append(d)
        drawn.append([d, DIE_COLOUR[d], s.dval[d]])
    ev.append({"type": "dice_drawn", "seat": seat, "dice": drawn})


def end_round(s: State, ev: Events) -> None:
    """E19.2-E19.3: discard both displays, all dice to the bag; A21: the new first player."""
    s.xdiscard.extend(s.xdisplay)
    s.adiscard.extend(s.adisplay)
    s.xdisplay.clear()
    s.adisplay.clear()
    s.bag = list(range(DATA.dice))
    s.dval = [0] * DATA.dice
    s.spaces = [[[] for _ in range(4)] for _ in range(s.n)]
    s.areas = [[] for _ in range(4)]
    s.cont = [[-1] * len(DATA.continent_rep) for _ in COLOURS]
    s.on_cards = []
    s.first = s.next_first
    s.bank_used = False
    ev.append({"type": "round_end", "round": s.round, "first": s.first})
    s.round += 1
    if s.round > DATA.rounds:  # E20.1
        s.phase = "over"
        ev.append({"type": "game_over"})
        return
    start_round(s, ev)


# ---------------------------------------------------------------- legal moves

def _place_spaces(s: State, seat: int) -> list[int]:
    """E6.4 / E7.5: spaces the next die may go to (one per space; under T5 exactly one double)."""
    board = s.spaces[seat]
    remaining = len(s.to_place) - 1
    doubled = any(len(space) >= 2 for space in board)
    empty = sum(1 for space in board if not space)
    out = []
    for i, space in enumerate(board):
        if len(space) >= 2 or (space and doubled):
            continue
        if remaining >= (empty - 1 if not space else empty):  # the other spaces still empty
            out.append(i)
    return out


def phase_moves(s: State) -> list[Move]:
    """The moves of the phase's decision (empty stack)."""
    phase = s.phase
    if phase == "turns":
        return take_moves(s)
    if phase == "place":
        seat = seat_at(s, s.turn)
        d = s.to_place[0]
        text = die_text(DIE_COLOUR[d], s.dval[d])
        return [{"type": "place", "die": d, "space": i,
                 "label": f"Put the {text} on the {DATA.space_labels[i]} space"}
                for i in _place_spaces(s, seat)]
    if phase == "draft":
        cards = sorted(s.adisplay)
        return [{"type": "draft", "cards": [a, b],
                 "label": f"Take {animal_text(a)} and {animal_text(b)}"}
                for i, a in enumerate(cards) for b in cards[i + 1:]]
    if phase == "tile_pick":
        if tile_effect(s) == "expert":
            return [{"type": "expert", "card": c, "label": f"Take {expert_text(c)}"}
                    for c in s.xdisplay]
        return [{"type": "animal", "card": c, "label": f"Take {animal_text(c)}"}
                for c in s.adisplay]
    if phase == "extra":
        moves = [{"type": "extra", "die": d,
                  "label": f"Spend a royal seal: re-roll the {COLOURS[DIE_COLOUR[d]]} die "
                           f"from {_die_place(s, d)} for an additional action"}
                 for d in main_board_dice(s)]
        moves.append({"type": "decline", "label": "No additional action"})
        return moves
    return []


def _die_place(s: State, d: int) -> str:
    for i, area in enumerate(s.areas):
        if d in area:
            return f"the {AREA_NAMES[i]}"
    for c, slots in enumerate(s.cont):
        if d in slots:
            return f"{COLOURS[c]} space {slots.index(d) + 1}"
    return "the board"


def take_moves(s: State) -> list[Move]:
    """E8.2 / E8.3: any die on any player board; own first, then by seat.

    G10: from the first player, in turn order, each turn takes exactly one die and one
    action, until no die is left on any player board (G12: no passing).
    """
    seat = seat_at(s, s.turn)
    out: list[Move] = []
    for owner in [seat] + [p for p in range(s.n) if p != seat]:
        for i, space in enumerate(s.spaces[owner]):
            seen = set()
            for d in space:
                text = die_text(DIE_COLOUR[d], s.dval[d])
                if text in seen:  # two equal dice in a T5 space are one choice
                    continue
                seen.add(text)
                if owner == seat:
                    label = f"Take the {text} from the {DATA.space_labels[i]} space"
                else:
                    label = (f"Take {player_name(s, owner)}'s {text} "
                             f"(they receive {DATA.space_labels[i]})")
                out.append({"type": "take", "owner": owner, "space": i, "die": d,
                            "label": label})
    if s.seals[seat]:  # E11.2(a): "A qualquer momento do seu turno", before the die too
        out.append(SEAL_COINS)
    return out


def frame_moves(s: State, frame: tuple[Any, ...]) -> list[Move]:
    """The moves of the pending frame."""
    kind, seat = frame[0], frame[1]
    if kind == "mod":
        return mod_moves(s, frame)
    if kind == "xpick":
        return [{"type": "expert", "card": c, "label": f"Take {expert_text(c)}"}
                for c in s.xdisplay]
    if kind == "xplace":
        card = frame[2]
        out = []
        for i, stack in enumerate(s.experts[seat]):
            covers = f", covering {EXPERTS[stack[-1]].name}" if stack else ""
            out.append({"type": "top", "space": i,
                        "label": f"Put {EXPERTS[card].name} on top of expert space {i + 1}"
                                 f" (active{covers})"})
        for i, stack in enumerate(s.experts[seat]):
            if stack:  # G20: "under" only an occupied space
                out.append({"type": "under", "space": i,
                            "label": f"Put {EXPERTS[card].name} under expert space {i + 1}"
                                     " (covered: collections only)"})
        return out
    if kind == "apick":
        colour = frame[2]
        return [{"type": "animal", "card": c, "label": f"Take {animal_text(c)}"}
                for c in s.adisplay if colour < 0 or ANIMALS[c].colour == colour]
    if kind == "research":
        return research_moves(s, frame) + [
            {"type": "stop",
             "label": f"Stop researching ({counted(frame[3], 'point', 'points')} unspent)"}]
    if kind == "focus":
        return [{"type": "focus", "card": c,
                 "label": f"Publish from {animal_text(c)} (die value {frame[3]})"}
                for c in s.hand[seat] if ANIMALS[c].colour == frame[2]]
    if kind == "pub":
        _, _, focus, t, parts, _ = frame
        category = DATA.categories[t][ANIMALS[focus].categories[t]]
        moves = [{"type": "join", "card": c,
                  "label": f"Also publish {ANIMALS[c].name}'s type {DATA.types[t]} cube"
                           f" ({category})"}
                 for c in eligible(s, seat, focus, t)]
        moves.append({"type": "next", "label": f"No more type {DATA.types[t]} cubes"})
        return moves
    if kind == "continental":
        _, _, focus, parts, extras = frame
        moves = [{"type": "discard", "card": c,
                  "label": f"Also file {animal_text(c)} as published (Continental; cubes lost)"}
                 for c in continental_cards(s, seat, focus, parts, extras)]
        moves.append({"type": "finish", "label": "Finish publishing"})
        return moves
    return []


def mod_moves(s: State, frame: tuple[Any, ...]) -> list[Move]:
    """E9: act with the die, or first modify it (coins, tokens, royal seals)."""
    _, seat, _, colour, value, plus, _ = frame
    text = die_text(colour, value) + (f" +{plus} (expedition)" if plus else "")
    out: list[Move] = [{"type": "act", "action": a, "label": f"{ACTION_LABELS[a]} with {text}"}
                       for a in can_act(s, seat, colour, value, plus)]
    if s.coins[seat]:  # E9.2 / G14: each coin +1, any number, beyond 6 allowed
        out.append({"type": "coin", "label": f"Spend a coin: {text} -> {value + 1}"})
    if s.tokens[seat]:
        if -1 in s.cont[colour]:  # E9.3: +2 counts on Expedition only
            out.append({"type": "boost", "label": f"Spend an expedition token: +2 on Expedition"
                                                  f" ({text})"})
        for c in range(len(COLOURS)):  # A13: any colour
            if c != colour and (not plus or -1 in s.cont[c]):
                out.append({"type": "recolour", "colour": c,
                            "label": f"Spend an expedition token: make the die {COLOURS[c]}"})
    if s.seals[seat]:  # E11.2 / G18: any number of seals per turn
        for c in range(len(COLOURS)):
            if not plus or -1 in s.cont[c]:
                out.append({"type": "seal_die", "colour": c,
                            "label": f"Spend a royal seal: +5 and make the die {COLOURS[c]}"})
        out.append(SEAL_COINS)
    return out


def research_moves(s: State, frame: tuple[Any, ...]) -> list[Move]:
    """E17.7-E17.8 / G24: one cube per empty slot of an own card of the colour, if affordable."""
    _, seat, colour, points = frame
    out = []
    for c in s.hand[seat]:
        if ANIMALS[c].colour != colour:
            continue
        mask = s.cubes[c]
        for t in range(4):
            cost = DATA.research_cost[t]
            if cost <= points and not mask >> t & 1:
                out.append({"type": "research", "card": c, "slot": t,
                            "label": f"Research {ANIMALS[c].name} type {DATA.types[t]}"
                                     f" (cost {cost}, {DATA.research_vp[t]} VP)"})
    return out


def eligible(s: State, seat: int, focus: int, t: int) -> list[int]:
    """E18.6 / A31(b) / A32: own cards of any colour with a type-t cube in the focus category."""
    cat = ANIMALS[focus].categories[t]
    return [c for c in s.hand[seat]
            if c != focus and s.cubes[c] >> t & 1 and ANIMALS[c].categories[t] == cat]


def continental_cards(s: State, seat: int, focus: int, parts: tuple[int, ...],
                      extras: tuple[int, ...]) -> list[int]:
    """E18.9: own same-continent cards that took no part and are not chosen yet."""
    colour = ANIMALS[focus].colour
    return [c for c in s.hand[seat]
            if ANIMALS[c].colour == colour and c not in parts and c not in extras]


def all_moves(s: State) -> list[Move]:
    """Every legal move of the seat to act (the AI seat's full list: ai.py picks from it)."""
    if s.stack:
        return frame_moves(s, s.stack[-1])
    return phase_moves(s)


def to_act(s: State) -> int | None:
    """The seat that decides now, None once the game is over."""
    if s.stack:
        return s.stack[-1][1]
    phase = s.phase
    if phase == "over":
        return None
    if phase == "draft":
        return drafters(s)[s.turn]
    return seat_at(s, s.turn)


def legal_moves(s: State) -> list[Move]:
    """The legal moves; on the AI's turn only the move its procedure dictates (E21)."""
    moves = all_moves(s)
    if s.solo and moves and to_act(s) == AI_SEAT:
        from core.encyclopedia import ai

        return [ai.choose(s, moves)]
    return moves


# ---------------------------------------------------------------- applying moves

def apply_move(s: State, move: Move) -> Events:
    """Play `move` (validated against the legal moves) and settle the state."""
    if not isinstance(move, dict):
        raise IllegalMove(move, "a move is a dict")
    found = find_move(legal_moves(s), move)
    if found is None:
        raise IllegalMove(move, "not a legal move now")
    seat = to_act(s)
    assert seat is not None
    ev: Events = [{"type": "move", "seat": seat, "move": found["type"], "label": found["label"]}]
    play(s, seat, found, ev)
    settle(s, ev)
    return ev


def play(s: State, seat: int, m: Move, ev: Events) -> None:
    """Carry out one legal move."""
    t = m["type"]
    if s.stack:
        frame = s.stack[-1]
        HANDLERS[frame[0]](s, seat, frame, m, ev)
        return
    if t == "take":
        take_die(s, seat, m["owner"], m["space"], m["die"], ev)
    elif t == "place":
        s.to_place.remove(m["die"])
        s.spaces[seat][m["space"]].append(m["die"])
        if not s.to_place:
            s.turn += 1
            if s.turn < s.n and s.bag:
                draw_dice(s, seat_at(s, s.turn), ev)
            elif not tile_flipped(s):  # E6.5: the tile once every player has placed
                flip_tile(s, ev)
            else:  # the T5 die placed (E7.5)
                s.phase, s.turn = "turns", 0
    elif t == "draft":
        for card in m["cards"]:
            s.adisplay.remove(card)
            s.hand[seat].append(card)
        s.turn += 1
        if s.turn == len(drafters(s)):  # E3.5: replenished after all the choices
            fill_display(s, s.adisplay, s.adeck, s.adiscard, animal_display_size(s))
            s.round = 1
            start_round(s, ev)
    elif t == "expert":  # T3: no die, so no colour token (E7.3)
        s.xdisplay.remove(m["card"])
        s.stack.append(("xplace", seat, m["card"]))
        s.busy = True
    elif t == "animal":  # T4
        s.adisplay.remove(m["card"])
        s.hand[seat].append(m["card"])
        s.busy = True
    elif t == "extra":  # E19.1: spend a seal, take a main-board die, re-roll it
        d = m["die"]
        s.seals[seat] -= 1
        for area in s.areas:
            if d in area:
                area.remove(d)
        for slots in s.cont:
            if d in slots:  # A34: the continent space becomes free again
                slots[slots.index(d)] = -1
        s.dval[d] = 1 + randbelow(s, 6)
        ev.append({"type": "reroll", "seat": seat, "die": d, "value": s.dval[d]})
        s.stack.append(("mod", seat, d, DIE_COLOUR[d], s.dval[d], 0, 1))
        s.busy = True
    elif t == "decline":
        s.busy = True
    elif t == "seal_coins":  # E11.2(a) before taking a die: the turn goes on
        s.seals[seat] -= 1
        s.coins[seat] += DATA.seal_coins  # the "move" event's label tells it


def take_die(s: State, seat: int, owner: int, space: int, d: int, ev: Events) -> None:
    """E8: take a die; from an opponent's board its owner gets the space's reward (A11: per die)."""
    s.spaces[owner][space].remove(d)
    s.busy = True
    if owner != seat:
        for kind, n in DATA.space_rewards[space]:
            ev.append({"type": "owner_reward", "seat": owner, "kind": kind, "amount": n})
            if kind == "rep":  # E10.3 / A15: after the active player's whole turn
                s.pending.append((owner, n))
            else:
                gain(s, owner, kind, n, ev)
    s.stack.append(("mod", seat, d, DIE_COLOUR[d], s.dval[d], 0, 0))


def _h_mod(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    _, _, d, colour, value, plus, extra = frame
    t = m["type"]
    if t == "act":
        s.stack.pop()
        act(s, seat, m["action"], d, colour, value, plus, ev)
        return
    if t == "coin":
        s.coins[seat] -= 1
        value += 1
    elif t == "boost":
        s.tokens[seat] -= 1
        plus += 2
    elif t == "recolour":
        s.tokens[seat] -= 1
        colour = m["colour"]
    elif t == "seal_die":
        s.seals[seat] -= 1
        value += DATA.seal_value
        colour = m["colour"]
    elif t == "seal_coins":
        s.seals[seat] -= 1
        s.coins[seat] += DATA.seal_coins
    s.stack[-1] = ("mod", seat, d, colour, value, plus, extra)


def act(s: State, seat: int, action: str, d: int, colour: int, value: int, plus: int,
        ev: Events) -> None:
    """E13-E18: the six actions, with the final colour and value (G15)."""
    ev.append({"type": "action", "seat": seat, "action": action, "colour": colour,
               "value": value})
    if action == "bank":  # E14
        s.areas[BANK].append(d)
        s.coins[seat] += DATA.bank_coins + sum(
            EXPERTS[c].n for c in active_experts(s, seat) if EXPERTS[c].hook == "bank")
        if not s.bank_used:  # E14.2: first die in the Bank this round (A22: extra too)
            s.bank_used = True
            s.next_first = seat  # A21(a): the new order starts next round
            # A23: the seat-based starting coins (E3.6) are set-up only, never paid again
    elif action == "embassy":  # E13
        s.areas[EMBASSY].append(d)
        s.tokens[seat] += _table(DATA.embassy_tokens, value + value_bonus(s, seat, "embassy"))
    elif action == "university":  # E15
        s.areas[UNIVERSITY].append(d)
        s.stack.append(("xpick", seat, colour, "uni"))
    elif action == "academy":  # E16: the rep comes once the animal is taken
        # A27: "área da Universidade" read as a slip: the die goes to the Academy area
        s.areas[ACADEMY].append(d)
        rep = _table(DATA.academy_rep, value + value_bonus(s, seat, "academy"))
        s.stack.append(("apick", seat, colour, rep))
    elif action == "expedition":  # E17
        slots = s.cont[colour]
        i = slots.index(-1)  # E17.1: the leftmost free space
        slots[i] = d
        points = value + plus + DATA.continent_bonus[i] + value_bonus(s, seat, "expedition")
        s.stack.append(("research", seat, colour, points))
        gain_rep(s, seat, DATA.continent_rep[i], ev)  # E17.2 (bonus frames resolve first)
    elif action == "publish":  # E18
        s.on_cards.append(d)
        s.stack.append(("focus", seat, colour, value + value_bonus(s, seat, "publish")))


def _h_xpick(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    card = m["card"]
    s.stack.pop()
    s.xdisplay.remove(card)
    if frame[2] >= 0 and EXPERTS[card].colour == frame[2]:  # E15.3 (K11)
        s.tokens[seat] += 1
        ev.append({"type": "colour_match", "seat": seat})
    s.stack.append(("xplace", seat, card))


def _h_xplace(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    card = frame[2]
    s.stack.pop()
    stack = s.experts[seat][m["space"]]
    if m["type"] == "under":  # A19(a): a covered card's immediate effect does not happen
        stack.insert(0, card)
        return
    stack.append(card)  # E15.4: on top, active; the card below is covered (A20)
    x = EXPERTS[card]
    # A26: resolved at once when the card becomes active, reading (a) rather than the
    # stand-in (b): every stand-in immediate effect is a gain (coins, tokens, reputation,
    # VP, a seal), never worse taken at once, so (b)'s "later this turn" adds choices that
    # cannot matter. A10: a T3 expert's immediate effect applies the same way.
    if x.when == "immediate":
        for kind, n in x.gain:
            gain(s, seat, kind, n, ev)


def _h_apick(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    s.stack.pop()
    s.adisplay.remove(m["card"])
    s.hand[seat].append(m["card"])  # G21: no hand limit
    if frame[3]:
        gain_rep(s, seat, frame[3], ev)  # E16.4


def _h_research(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    if m["type"] == "stop":  # unspent points are lost
        s.stack.pop()
        return
    card, t = m["card"], m["slot"]
    s.cubes[card] |= 1 << t
    s.vp[seat] += DATA.research_vp[t]  # E17.9 / G25
    ev.append({"type": "research", "seat": seat, "card": card, "slot": t})
    s.stack[-1] = ("research", seat, frame[2], frame[3] - DATA.research_cost[t])


def _h_focus(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    s.stack.pop()
    value = frame[3]
    top = max((t for t in range(4) if value >= DATA.publish_min[t]), default=-1)  # E18.3-E18.4
    publish_from(s, seat, m["card"], top, (m["card"],), value, ev)


def publish_cube(s: State, seat: int, card: int, t: int, ev: Events) -> None:
    """E18.7 / G26: the cube goes to the grid (type, category) and scores its VP."""
    s.cubes[card] &= ~(1 << t)
    s.grid[seat][DATA.animal_cell[card][t]] += 1
    s.vp[seat] += DATA.publish_vp[t]
    ev.append({"type": "published", "seat": seat, "card": card, "slot": t})


def publish_from(s: State, seat: int, focus: int, top: int, parts: tuple[int, ...],
                 value: int, ev: Events) -> None:
    """E18.5: from type `top` down to I: the focus card's cube, then others may join."""
    for t in range(top, -1, -1):
        if s.cubes[focus] >> t & 1:
            publish_cube(s, seat, focus, t, ev)
        if eligible(s, seat, focus, t):
            s.stack.append(("pub", seat, focus, t, parts, value))
            return
    if continental_cards(s, seat, focus, parts, ()):
        s.stack.append(("continental", seat, focus, parts, ()))
        return
    finish_publish(s, seat, focus, parts, (), ev)


def _h_pub(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    _, _, focus, t, parts, value = frame
    s.stack.pop()
    if m["type"] == "join":
        card = m["card"]
        publish_cube(s, seat, card, t, ev)
        if card not in parts:
            parts = (*parts, card)
        if eligible(s, seat, focus, t):
            s.stack.append(("pub", seat, focus, t, parts, value))
            return
    publish_from(s, seat, focus, t - 1, parts, value, ev)


def _h_continental(s: State, seat: int, frame: tuple[Any, ...], m: Move, ev: Events) -> None:
    _, _, focus, parts, extras = frame
    s.stack.pop()
    if m["type"] == "discard":
        extras = (*extras, m["card"])
        if continental_cards(s, seat, focus, parts, extras):
            s.stack.append(("continental", seat, focus, parts, extras))
            return
    finish_publish(s, seat, focus, parts, extras, ev)


def finish_publish(s: State, seat: int, focus: int, parts: tuple[int, ...],
                   extras: tuple[int, ...], ev: Events) -> None:
    """E18.8-E18.12: participants lose their cubes; same continent face down, others removed."""
    colour = ANIMALS[focus].colour
    for card in (*parts, *extras):
        s.hand[seat].remove(card)
        s.cubes[card] = 0
        if ANIMALS[card].colour == colour:
            s.published[seat].append(card)  # E18.10 (A36: public)
        else:
            s.removed.append(card)  # E18.11
    s.published_n[seat] += len(parts)  # A35(b): cards that took part (focus included)
    # A33(a): the Continental step scores nothing itself; its cards feed E20.2(b) only
    s.seals[seat] += 1  # E18.12: one seal per Publish action
    ev.append({"type": "publication", "seat": seat, "cards": list(parts),
               "continental": list(extras)})


HANDLERS = {"mod": _h_mod, "xpick": _h_xpick, "xplace": _h_xplace, "apick": _h_apick,
            "research": _h_research, "focus": _h_focus, "pub": _h_pub,
            "continental": _h_continental}


def settle(s: State, ev: Events) -> None:
    """Advance past everything automatic until a seat has a real decision (or the game ends)."""
    while True:
        if s.stack:
            frame = s.stack[-1]
            if frame[0] == "research" and not research_moves(s, frame):
                s.stack.pop()  # no affordable slot: the research ends by itself
                continue
            if frame[0] in ("xpick", "apick") and not frame_moves(s, frame):
                s.stack.pop()  # nothing (of that colour) left to take
                continue
            return
        if s.pending:  # E10.3: owners' reputation after the active player's actions
            seat, n = s.pending.pop(0)
            gain_rep(s, seat, n, ev)
            continue
        phase = s.phase
        if s.busy:
            s.busy = False
            s.turn += 1
            if phase == "turns" and not dice_on_boards(s):
                s.phase, s.turn = "extra", 0  # E19.1
        if s.phase == "tile_pick":
            if s.turn >= s.n:
                if tile_effect(s) == "expert":
                    fill_display(s, s.xdisplay, s.xdeck, s.xdiscard, DATA.expert_display)
                else:
                    fill_display(s, s.adisplay, s.adeck, s.adiscard, animal_display_size(s))
                s.phase, s.turn = "turns", 0
                continue
            if not phase_moves(s):  # an empty display: this seat has nothing to take
                s.turn += 1
                continue
            return
        if s.phase == "extra":
            # A18(a): additional actions only here, at the end of the round, in turn order
            if s.turn >= s.n:
                end_round(s, ev)
                continue
            seat = seat_at(s, s.turn)
            if not s.seals[seat] or not main_board_dice(s):  # G28: one chance each
                s.turn += 1
                continue
            return
        return
