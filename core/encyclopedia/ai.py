"""The solo AI (E21; G31: the seed gives only its set-up, so this procedure is a stand-in).

The AI is seat 1, a full player under every rule of the game (E21.4): `legal_moves` offers
it only the move `choose` picks from its full legal list, so the same legality checks apply
to it as to a human. Deterministic given the state: it never reads the state's RNG, and the
plans it weighs are played on copies whose random draws it does not look at.
docs/encyclopedia-ai.md states the same procedure for players; RULES.md's E21.3 must
follow it (this docstring and that page are the agreed design).

AI0 Versions. A new game records the procedure version (solo.json's `procedure`, now 4) in
    its AI state and plays that version's behaviour and level cards; a game without one
    plays version 1 (the cards before 2026-12-05), so a stored game's moves still replay
    (the AI's choice is its only legal move). Version 2 changed levels 1-2 and the
    Explorer's order; version 3 changed level 1 only (the publishing limits below);
    version 4 balances the cards: level 1 looks no further than its score now (foresight
    0), the Explorer's order puts University before Embassy, and the Rival at level 2
    takes its own dice first like the other cards.
AI1 Set-up (E4, G8, G9). The human is first player; the AI starts with the 2nd player's
    resources (3 coins, 1 token) and does not draft starting animals (animal display 4).
    Behaviour card and level card ("scoring" option): 1-3 or random (A4). One continent
    card per continent is drawn and shuffled into a row: the AI's colour priority (A5(a)),
    its tie-break. A human taking an AI die pays the AI the space's reward as it would pay
    any player (E8.3), and the AI uses it as a player (E21.3.4's conversion is not needed).
AI2 Dice (E21.3.2). The AI puts its dice on its spaces in draw order: no reward, 2 coins,
    2 reputation, 3 VP; under T5 the additional die goes to the behaviour card's double
    space.
AI3 Die and action (E21.3.5). On its turn the AI weighs every plan "take this die, spend
    0..k coins on it (k: the level's coin limit; level 3 may also spend a royal seal for +5
    and a colour), do this action", playing each on a copy of the game with AI5-AI8 for the
    rest of the turn, and scores the result as a player would: its final score if the game
    ended now (E20.2) plus the worth of what it will still score (research cubes it can
    publish, animals it can research, coins and tokens it can spend), weighted by the
    behaviour card and by the rounds left. It plays the plan with the best worth, adding:
    the behaviour card's bias for some actions; at levels with denial, the worth to the
    human of the die it takes (the best the human could do with it next) times the card's
    denial weight, minus what its choice pays the human (a space's reward); the Rival's
    bonus for a die from the human's board. Ties: the behaviour card's action order, the
    continent priority of the die's colour, its own die before the human's, the lower
    space. The level card sets: which dice it considers (level 1: the first die of its own
    board in space order, no choice; level 2: its own board while any die is there, except
    a card with `rival_dice_first` (the Rival until version 3), which looks at both; level
    3: both boards), how far it looks (foresight: the share of what it can still score that
    counts; 0 at level 1 since version 4: only its score now), its coin limit, seals,
    denial; and at levels 1-2 the search itself: it takes the first action of its card's
    order that a die makes worth at least the level's threshold (0 at both: it follows its
    card even where the action gains nothing, e.g. an Expedition with nothing to research
    once its reputation is at the track's end), with the first such die in space order
    (level 1 has only its first die; no comparing worths; on one space of both boards,
    which only the Rival until version 3 ever sees, the human's die first) and no
    modifiers, else the best plan. Level 1 since version 3 plays a beginner that publishes
    late: before the last round it publishes only an animal of the die's colour holding 2
    research cubes (the level card's cubes per round; not a bare card for its seal), so
    Publish is not among its actions otherwise; in the last round it publishes whatever it
    holds.
AI4 Modifiers. Only as part of the plan of AI3: coins up to the level's limit; at level 3 a
    royal seal for +5 and a colour (worth it only when the plan gains more than the 4 VP the
    seal scores at the end). It never converts a seal to coins.
AI5 Experts (University, T3, reputation). The display expert of the die's colour (it earns
    the E15.3 token), else the one whose colour ranks highest in its priority. It goes on
    top of the lowest-numbered empty space, else under space 1 (the active cards stay).
AI6 Animals (Academy, T4, reputation). Of the colour asked (any colour: every colour), the
    animal sharing the most categories with the cubes it holds, then the continent priority.
AI7 Research. The highest type it can pay for, on its card of the colour with the most
    cubes (then the earliest taken), again until nothing is affordable.
AI8 Publish. Focus: its card of the colour with the most cubes; every cube that may join
    does; Continental extras are filed if the behaviour card and the level card say so
    (level 1 since version 3 files none).
AI9 End of round. With a royal seal, a behaviour card that says so, a level above 1 and a
    round before the last, it takes the main-board die of its highest-priority colour
    (lowest die id on ties) for an additional action, then plays it by AI3-AI8 (the die is
    re-rolled, so the choice cannot depend on the roll). Otherwise it declines.
AI10 Scoring (E21.3.7). Final scoring as a player (E20.2) plus the level card's small end
    bonus per published animal (data/solo.json). The human wins only with strictly more VP
    after the tie-break (E21.3.8).
"""

from __future__ import annotations

import copy
import pickle
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from core.encyclopedia import rng, rules
from core.encyclopedia.data import DATA, Behaviour, Level
from core.encyclopedia.rules import (
    AI_SEAT,
    ANIMALS,
    DIE_COLOUR,
    EXPERTS,
    all_moves,
    research_moves,
)
from core.encyclopedia.scoring import score_before_ai_card
from core.encyclopedia.state import FIELDS, State, clone

Move = dict[str, Any]
# the worth of a research cube not yet published: a share of its publish VP plus a base (the
# grid's collections); below what publishing it pays, so a plan that can publish does
CUBE_SHARE, CUBE_BASE = 0.6, 0.5


def behaviour(s: State) -> Behaviour:
    """The AI's behaviour card, as the game's procedure version reads it (AI0)."""
    return DATA.behaviours_by_procedure[s.ai.get("procedure", 1)][s.ai["behaviour"]]


def level(s: State) -> Level:
    """The AI's level card (the "scoring" option: 1 easy, 2 medium, 3 hard), as the AI's
    procedure version the game was set up with plays it (absent: version 1)."""
    return DATA.levels_by_procedure[s.ai.get("procedure", 1)][s.ai["scoring"]]


def rank(s: State, colour: int) -> int:
    """The colour's place in the AI's continent priority (0 = first, A5(a))."""
    return s.ai["priority"].index(colour)


# ---------------------------------------------------------------- worth of a position

def worth(s: State, seat: int, card: Behaviour, foresight: float) -> float:
    """What `seat` has scored (the final scoring as of now) plus what it can still score."""
    now = score_before_ai_card(s, seat)
    left = DATA.rounds - s.round  # rounds after this one
    future = min(1.0, (left + 0.5) / 2.5) * foresight  # the last round's cards are nearly lost
    potential = 0.0
    for c in s.hand[seat]:
        mask = s.cubes[c]
        if mask:
            # a cube still has to be published: worth part of its publish VP (CUBE_SHARE)
            potential += card.cube * _CUBES_WORTH[mask]
        else:
            potential += card.animal
    potential += card.rep * min(s.rep[seat], DATA.track_length) / DATA.track_length * 6
    potential += 0.3 * s.coins[seat] + 0.8 * s.tokens[seat]
    return now + future * potential


# a card's research cubes by their mask (bit t: a type-t cube): each worth CUBE_SHARE of its
# publish VP plus CUBE_BASE, summed in type order as `worth` always summed them
_CUBES_WORTH = tuple(sum(CUBE_SHARE * DATA.publish_vp[t] + CUBE_BASE
                         for t in range(4) if mask >> t & 1) for mask in range(16))


# ---------------------------------------------------------------- sub-decisions (AI5-AI8)

def _expert_key(s: State, colour: int) -> Callable[[Move], Any]:
    return lambda m: (EXPERTS[m["card"]].colour != colour, rank(s, EXPERTS[m["card"]].colour))


def _most_cubes(s: State, card: int) -> int:
    return -bin(s.cubes[card]).count("1")


def _animal_key(s: State, seat: int) -> Callable[[Move], Any]:
    held = [ANIMALS[c].categories for c in s.hand[seat] if s.cubes[c]]

    def key(m: Move) -> Any:
        cats = ANIMALS[m["card"]].categories
        shared = sum(1 for h in held for t in range(4) if h[t] == cats[t])
        return (-shared, rank(s, ANIMALS[m["card"]].colour), m["card"])
    return key


def policy(s: State, moves: list[Move], seat: int) -> Move:
    """AI5-AI9 and the dice (AI2): the decisions inside a turn, for `seat` (AI_SEAT in play;
    the human's seat when the AI weighs what a die is worth to the human)."""
    kind = s.stack[-1][0] if s.stack else s.phase
    card = behaviour(s)
    first = moves[0]
    if kind == "place":  # AI2
        placed = sum(len(x) for x in s.spaces[seat])
        want = placed if placed < 4 else card.double_space
        return next((m for m in moves if m.get("space") == want), first)
    if kind in ("xpick", "tile_pick") and first["type"] == "expert":  # AI5
        colour = s.stack[-1][2] if s.stack else -1
        return min(moves, key=_expert_key(s, colour))
    if kind == "xplace":
        empty = [m for m in moves if m["type"] == "top" and not s.experts[seat][m["space"]]]
        if empty:
            return empty[0]
        return next((m for m in moves if m["type"] == "under"), first)
    if kind in ("apick", "tile_pick"):  # AI6
        return min(moves, key=_animal_key(s, seat))
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
        # the behaviour card files extras; a level may not (procedure 3's level 1)
        return first if card.continental and level(s).continental else moves[-1]
    if kind == "extra":  # AI9
        dice = [m for m in moves if m["type"] == "extra"]
        if (card.extra_action and dice and level(s).id > 1 and s.round < DATA.rounds):
            return min(dice, key=lambda m: (rank(s, DIE_COLOUR[m["die"]]), m["die"]))
        return moves[-1]
    if kind == "mod":  # a plan's copy always acts; never reached in play (AI3 decides)
        return next(m for m in moves if m["type"] == "act")
    return first


# ---------------------------------------------------------------- plans (AI3, AI4)

def _run(s: State, seat: int, move: Move) -> None:
    ev: list[dict[str, Any]] = []
    rules.play(s, seat, move, ev)
    rules.settle(s, ev)


def _finish_turn(s: State, seat: int) -> None:
    """Play the rest of `seat`'s turn by the policy (the action's own decisions)."""
    guard = 0
    while s.stack and rules.to_act(s) == seat and guard < 60:
        _run(s, seat, policy(s, all_moves(s), seat))
        guard += 1


def _mod_plans(s: State, seat: int, lv: Level) -> list[tuple[list[Move], str]]:
    """From a pending "mod" frame: (modifier moves, action) plans within the level's limits."""
    frame = s.stack[-1]
    _, _, _, colour, value, plus, _ = frame
    out: list[tuple[list[Move], str]] = []
    coins = min(s.coins[seat], lv.coins)
    for k in range(coins + 1):
        for action in rules.can_act(s, seat, colour, value + k, plus):
            if _allowed(s, seat, lv, action, colour):
                out.append(([{"type": "coin"}] * k, action))
    if lv.seals and s.seals[seat]:
        colours = {ANIMALS[c].colour for c in s.hand[seat]} | {colour}
        for c in sorted(colours):
            for action in ("publish", "expedition"):
                if (action in rules.can_act(s, seat, c, value + DATA.seal_value, plus)
                        and _allowed(s, seat, lv, action, c)):
                    out.append(([{"type": "seal_die", "colour": c}], action))
    return out


def _allowed(s: State, seat: int, lv: Level, action: str, colour: int) -> bool:
    """AI3: whether the level lets `seat` do `action` with a die of `colour` this round.
    A level that publishes late (procedure 3's level 1) publishes only an animal holding the
    round's number of research cubes: it does not publish a bare card for its seal."""
    if action != "publish" or not lv.publish_cubes:
        return True
    need = lv.publish_cubes[min(s.round, len(lv.publish_cubes)) - 1]
    return any(bin(s.cubes[c]).count("1") >= need
               for c in s.hand[seat] if ANIMALS[c].colour == colour)


def _play_plan(s: State, seat: int, prefix: list[Move], mods: list[Move], action: str
               ) -> State:
    c = clone(s)
    for m in prefix:
        _run(c, seat, m)
    # `_mod_plans` made the modifiers and the action from the legal moves' rules (`can_act`
    # at the die's value after the coins, the seal's colours), so each is legal here as it
    # stands: played without looking it up in `all_moves` (a "mod" move is read by its type,
    # action and colour only; the label is for players)
    for m in mods:
        _run(c, seat, m)
    _run(c, seat, {"type": "act", "action": action})
    _finish_turn(c, seat)
    return c


def _best_for(s: State, seat: int, prefix: list[Move], lv: Level, card: Behaviour
              ) -> tuple[float, list[Move], str]:
    """The best (gain, modifiers, action) for `seat` after `prefix` (a take, or nothing)."""
    base = worth(s, seat, card, lv.foresight)
    c = clone(s)
    for m in prefix:
        _run(c, seat, m)
    best: tuple[float, list[Move], str] = (-1e9, [], "bank")
    for mods, action in _mod_plans(c, seat, lv):
        after = _play_plan(c, seat, [], mods, action)
        gain = worth(after, seat, card, lv.foresight) - base + card.bias.get(action, 0.0)
        if gain > best[0] + 1e-9:
            best = (gain, mods, action)
    return best


def _human_worth(s: State, move: Move, card: Behaviour, lv: Level) -> float:
    """What the die of take `move` would be worth to the human, taking it next."""
    human = 0
    c = clone(s)
    c.turn = (human - c.first) % c.n  # the human's turn on the copy
    c.stack = []
    take = dict(move)
    gain, _, _ = _best_for(c, human, [take], _HUMAN_VIEW, card)
    return max(gain, 0.0)


def _take(s: State, moves: list[Move]) -> Move:
    """AI3: the take move of the best plan."""
    card, lv = behaviour(s), level(s)
    takes = [m for m in moves if m["type"] == "take"]
    # own dice only while any is left, at levels that say so; the Rival always looks at both
    if (lv.own_first and not card.rival_dice_first
            and any(m["owner"] == AI_SEAT for m in takes)):
        takes = [m for m in takes if m["owner"] == AI_SEAT]
    if lv.first_die:
        # it does not choose among dice: the first of its own board (else of the human's)
        mine = [m for m in takes if m["owner"] == AI_SEAT] or takes
        takes = [min(mine, key=lambda m: (m["space"], m["die"]))]
    order = {a: i for i, a in enumerate(card.priority)}
    if lv.first_useful:
        return _take_in_card_order(s, takes, card, lv, order)
    best: tuple[Any, ...] | None = None
    choice = takes[0]
    for m in takes:
        gain, _, action = _best_for(s, AI_SEAT, [m], lv, card)
        if m["owner"] != AI_SEAT:
            gain += card.rival
        if lv.deny:
            gain += card.deny * (_human_worth(s, m, card, lv) - _paid(m))
        key = (-round(gain, 6), order.get(action, 9), rank(s, DIE_COLOUR[m["die"]]),
               m["owner"] != AI_SEAT, m["space"])
        if best is None or key < best:
            best, choice = key, m
    return choice


def _take_in_card_order(s: State, takes: list[Move], card: Behaviour, lv: Level,
                        order: dict[str, int]) -> Move:
    """AI3 at level 1: the card's first action that some die makes worth doing (a gain of
    at least the level's threshold), with the first such die in space order (it does not
    compare dice); else the best plan."""
    plans = []
    for m in takes:
        for mods, action in _mod_plans(_after_take(s, m), AI_SEAT, lv):
            if mods:
                continue
            after = _play_plan(s, AI_SEAT, [m], [], action)
            gain = (worth(after, AI_SEAT, card, lv.foresight)
                    - worth(s, AI_SEAT, card, lv.foresight))
            plans.append((order.get(action, 9), -gain, rank(s, DIE_COLOUR[m["die"]]),
                          m["space"], m["owner"], gain, m))
    worth_doing = [p for p in plans if p[5] >= lv.threshold]
    if worth_doing:
        pick = min(worth_doing, key=lambda p: (p[0], p[3], p[4], p[1]))
    else:
        pick = min(plans, key=lambda p: p[1:5])
    return pick[6]


def _after_take(s: State, m: Move) -> State:
    c = clone(s)
    _run(c, AI_SEAT, m)
    return c


# what a space's reward is worth to the human when the AI takes a die from it (AI3, denial)
_REWARD_WORTH = {"coins": 0.5, "rep": 0.6, "vp": 1.0}


def _paid(m: Move) -> float:
    if m["owner"] == AI_SEAT:
        return 0.0
    return sum(_REWARD_WORTH.get(kind, 0.0) * n for kind, n in DATA.space_rewards[m["space"]])


def _act(s: State, moves: list[Move]) -> Move:
    """AI3/AI4 in the "mod" frame: the first modifier of the best plan, or its action."""
    card, lv = behaviour(s), level(s)
    if lv.first_useful:
        return _act_in_card_order(s, moves, card, lv)
    _, mods, action = _best_for(s, AI_SEAT, [], lv, card)
    if mods:
        want = mods[0]
        return next(m for m in moves if all(m.get(k) == v for k, v in want.items()))
    return next((m for m in moves if m["type"] == "act" and m["action"] == action),
                next(m for m in moves if m["type"] == "act"))


def _act_in_card_order(s: State, moves: list[Move], card: Behaviour, lv: Level) -> Move:
    """AI3 at level 1 in the "mod" frame: the card's first action worth the threshold."""
    base = worth(s, AI_SEAT, card, lv.foresight)
    colour = s.stack[-1][3]  # the die's colour (a "mod" frame)
    acts = [m for m in moves
            if m["type"] == "act" and _allowed(s, AI_SEAT, lv, m["action"], colour)]
    order = {a: i for i, a in enumerate(card.priority)}
    gains = {m["action"]: worth(_play_plan(s, AI_SEAT, [], [], m["action"]), AI_SEAT, card,
                                lv.foresight) - base for m in acts}
    useful = [m for m in acts if gains[m["action"]] >= lv.threshold]
    if useful:
        return min(useful, key=lambda m: order.get(m["action"], 9))
    return max(acts, key=lambda m: (gains[m["action"]], -order.get(m["action"], 9)))


# The last choices made, by the state they were made in. The choice is a function of the
# state alone (see above), and it is asked for again and again at the same state: twice a
# turn by the rules (`legal_moves`, then `apply` checking the move against them), and in
# every iteration of a search that replays the AI (mcts spent 97% of a game against the
# hard level in this planning). The key is the pickle of the state without its `rng` (equal
# bytes, equal state but for the PRNG) and, only when a plan's copy drew from the PRNG while
# the choice was worked out (an empty display's bonus card, a round's end), the `rng` too:
# the PRNG is read by nothing but a draw (rng.randbelow, which counts them), so a choice
# made without one is the same at any `rng`, and a search's samples of one position (equal
# states but for the `rng`) share it.
_CHOICES: OrderedDict[tuple[bytes, int | None], Move] = OrderedDict()
CHOICES_KEPT = 4096
_KEYED = tuple(name for name in FIELDS if name != "rng")


def choose(s: State, moves: list[Move]) -> Move:
    """The move the AI's procedure dictates among `moves` (its full legal list: the caller's
    `all_moves(s)`)."""
    if CHOICES_KEPT <= 0:
        return _choose(s, moves)
    state = pickle.dumps(tuple(getattr(s, name) for name in _KEYED), protocol=5)
    key: tuple[bytes, int | None] = (state, None)
    known = _CHOICES.get(key)
    if known is None:
        key = (state, s.rng)
        known = _CHOICES.get(key)
    if known is None:
        known, drew = _choose_noting_draws(s, moves)
        key = (state, s.rng if drew else None)
        _CHOICES[key] = known
        while len(_CHOICES) > CHOICES_KEPT:
            _CHOICES.popitem(last=False)
    else:
        _CHOICES.move_to_end(key)
    return copy.deepcopy(known)  # the caller may change its move; the cache's stays


def _choose_noting_draws(s: State, moves: list[Move]) -> tuple[Move, bool]:
    """`_choose`, and whether any draw from a PRNG was made while it was worked out."""
    before = rng.draws()
    move = _choose(s, moves)
    return move, rng.draws() != before


def _choose(s: State, moves: list[Move]) -> Move:
    """`choose`, worked out."""
    kind = s.stack[-1][0] if s.stack else s.phase
    if kind == "turns":
        return _take(s, moves)
    if kind == "mod":
        return _act(s, moves)
    return policy(s, moves, AI_SEAT)


# the human as the AI imagines them when denying: plays its best action, spends up to 2 coins
_HUMAN_VIEW = Level(id=0, name="human", coins=1, seals=False, deny=False, own_first=False,
                    foresight=1.0, per_published=0, first_useful=False, threshold=0.0)
