"""The solo AI (E21; G31: the seed gives only its set-up, so this procedure is a stand-in).

The AI is seat 1, a full player under every rule of the game, whose decisions are dictated:
`legal_moves` offers it only the move `choose` picks from its full legal list, so the same
legality checks apply to it as to a human (E21.4). Deterministic given the state.

AI1 Set-up (E4, G8, G9). The human is first player; the AI starts with the 2nd player's
    resources (3 coins, 1 token), does not draft starting animals (animal display 4).
    Behaviour card and scoring card: options 1-3 or random (A4). One continent card per
    continent is drawn and shuffled into a row: the row is the AI's colour priority (A5(a)).
    E21.3.4's reward conversion is not needed: a human taking an AI die pays the AI the
    space's reward as it would pay any player (E8.3), and the AI uses it as a player.
AI2 Dice (E21.3.2). The AI puts its dice on its spaces in draw order: no reward, 2 coins,
    2 reputation, 3 VP; under T5 the 5th die goes to the behaviour card's double space.
AI3 Die choice (E21.3.5). For each action of the behaviour card's priority list, in order,
    the AI looks for a die that makes the action useful with its rolled colour and value:
    Academy needs a display animal of the colour; University a non-empty expert display;
    Expedition a free space of the continent and an own animal of the colour with an empty
    slot it can pay for; Publish an own animal of the colour with a cube of a type the value
    allows; Bank and Embassy are always useful. Candidates come from its own board first,
    then from the rivals' boards ("Rival" behaviour: the other way round). Ties: continent
    priority of the die's colour, then the higher value, then the lowest space, then seat.
AI4 Modifiers. The AI never spends coins, tokens or seals on a die: it takes the action
    of AI3 at once (the first useful action of its priority list for that die).
AI5 Experts (University, T3, reputation). The leftmost display expert of the die's colour
    (it earns the E15.3 token), else the one whose colour ranks highest in its priority.
    It goes on top of the lowest-numbered empty space, else under space 1 (keeping the
    active cards; an improvement on E21.3.6, which would bury space 1's card).
AI6 Animals (Academy, T4, reputation). The leftmost display animal of the die's colour
    (any colour: the highest in priority).
AI7 Research. The highest type it can pay for, on its card of the colour with most cubes
    (then the earliest taken), again until nothing is affordable.
AI8 Publish. Focus: its card of the colour with the most cubes; every cube that may join
    does; Continental extras are filed if the behaviour card says so.
AI9 End of round. With a royal seal and a behaviour card that says so, it takes the
    main-board die of its highest-priority colour (lowest die id on ties) for an additional
    action, then plays it by AI3-AI8. Otherwise it declines.
AI10 Scoring (E21.3.7 improved). Final scoring as a player (E20.2) plus its scoring card's
    VP per published animal, per expert held and per reputation space (scoring.ai_card).
    The human wins only with strictly more VP after the tie-break (E21.3.8).
"""

from __future__ import annotations

from typing import Any

from core.encyclopedia.data import DATA, Behaviour
from core.encyclopedia.rules import (
    AI_SEAT,
    ANIMALS,
    DIE_COLOUR,
    EXPERTS,
    can_act,
    research_moves,
    value_bonus,
)
from core.encyclopedia.state import State

Move = dict[str, Any]


def behaviour(s: State) -> Behaviour:
    """The AI's behaviour card."""
    return DATA.behaviours[s.ai["behaviour"]]


def rank(s: State, colour: int) -> int:
    """The colour's place in the AI's continent priority (0 = first, A5(a))."""
    return s.ai["priority"].index(colour)


def useful(s: State, action: str, colour: int, value: int) -> bool:
    """AI3: whether the action is worth taking with a die of this colour and value."""
    seat = AI_SEAT
    if action in ("bank", "embassy"):
        return True
    if action == "university":
        return bool(s.xdisplay)
    if action == "academy":
        return any(ANIMALS[c].colour == colour for c in s.adisplay)
    if action == "expedition":
        slots = s.cont[colour]
        if -1 not in slots:
            return False
        points = (value + DATA.continent_bonus[slots.index(-1)]
                  + value_bonus(s, seat, "expedition"))
        return any(ANIMALS[c].colour == colour and any(
            not s.cubes[c] >> t & 1 and DATA.research_cost[t] <= points for t in range(4))
            for c in s.hand[seat])
    if action == "publish":
        v = value + value_bonus(s, seat, "publish")
        allowed = [t for t in range(4) if v >= DATA.publish_min[t]]
        return any(ANIMALS[c].colour == colour and any(s.cubes[c] >> t & 1 for t in allowed)
                   for c in s.hand[seat])
    return False


def plan(s: State, colour: int, value: int) -> str:
    """AI3/AI4: the first useful action of the priority list for this die."""
    legal = can_act(s, AI_SEAT, colour, value, 0)
    for action in behaviour(s).priority:
        if action in legal and useful(s, action, colour, value):
            return action
    return legal[0]


def _take(s: State, moves: list[Move]) -> Move:
    card = behaviour(s)
    moves = [m for m in moves if m["type"] == "take"]
    own = [m for m in moves if m["owner"] == AI_SEAT]
    rival = [m for m in moves if m["owner"] != AI_SEAT]
    groups = (rival, own) if card.rival_dice_first else (own, rival)
    for action in card.priority:
        for group in groups:
            found = [m for m in group
                     if useful(s, action, DIE_COLOUR[m["die"]], s.dval[m["die"]])]
            if found:
                return min(found, key=lambda m: (rank(s, DIE_COLOUR[m["die"]]),
                                                 -s.dval[m["die"]], m["space"], m["owner"]))
    return moves[0]


def _expert_key(s: State, colour: int) -> Any:
    return lambda m: (EXPERTS[m["card"]].colour != colour,
                      rank(s, EXPERTS[m["card"]].colour))


def _animal_key(s: State) -> Any:
    return lambda m: rank(s, ANIMALS[m["card"]].colour)


def _most_cubes(s: State, card: int) -> int:
    return -bin(s.cubes[card]).count("1")


def choose(s: State, moves: list[Move]) -> Move:
    """The move the AI's procedure dictates among `moves` (its full legal list)."""
    kind = s.stack[-1][0] if s.stack else s.phase
    card = behaviour(s)
    first = moves[0]
    if kind == "turns":
        return _take(s, moves)
    if kind == "place":  # AI2
        placed = sum(len(x) for x in s.spaces[AI_SEAT])
        want = placed if placed < 4 else card.double_space
        return next((m for m in moves if m["space"] == want), first)
    if kind == "mod":  # AI4
        frame = s.stack[-1]
        action = plan(s, frame[3], frame[4])
        return next((m for m in moves if m["type"] == "act" and m["action"] == action),
                    next(m for m in moves if m["type"] == "act"))
    if kind in ("xpick", "tile_pick") and first["type"] == "expert":  # AI5
        colour = s.stack[-1][2] if s.stack else -1
        return min(moves, key=_expert_key(s, colour))
    if kind == "xplace":
        empty = [m for m in moves if m["type"] == "top" and not s.experts[AI_SEAT][m["space"]]]
        if empty:
            return empty[0]
        return next((m for m in moves if m["type"] == "under"), first)
    if kind in ("apick", "tile_pick"):  # AI6: moves are already of the die's colour
        return min(moves, key=_animal_key(s))
    if kind == "research":  # AI7
        options = research_moves(s, s.stack[-1])
        if not options:
            return moves[-1]
        return min(options, key=lambda m: (-m["slot"], _most_cubes(s, m["card"])))
    if kind == "focus":  # AI8
        return min(moves, key=lambda m: _most_cubes(s, m["card"]))
    if kind == "pub":
        return first  # "join" first while any cube may join, else "next"
    if kind == "continental":
        return first if card.continental else moves[-1]
    if kind == "extra":  # AI9
        dice = [m for m in moves if m["type"] == "extra"]
        if card.extra_action and dice:
            return min(dice, key=lambda m: (rank(s, DIE_COLOUR[m["die"]]), m["die"]))
        return moves[-1]
    return first
