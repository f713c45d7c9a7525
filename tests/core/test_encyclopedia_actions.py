"""Encyclopedia turns and the six actions (RULES.md E8-E18), one test per rule, ids cited."""

from __future__ import annotations

from core.encyclopedia.data import DATA
from core.encyclopedia.rules import ANIMALS, to_act
from tests.core.encyclopedia_helpers import (
    GAME,
    animal_of,
    at_turns,
    do,
    give_animal,
    moves_of,
    put_die,
    single_die,
    take_and_mod,
)

AFRICA, AMERICAS, ASIA, EUROPE, OCEANIA = range(5)


def _pair(t: int, same_colour: bool) -> tuple[int, int]:
    """Two animals sharing their type-t category (of the same colour or not)."""
    for a in DATA.animals:
        for b in DATA.animals:
            if a.id != b.id and a.categories[t] == b.categories[t] and (
                    (a.colour == b.colour) == same_colour):
                return a.id, b.id
    raise AssertionError


def _differ(t: int, colour: int, than: int) -> int:
    """An animal of `colour` whose type-t category differs from card `than`'s."""
    return next(a.id for a in DATA.animals if a.colour == colour and a.id != than
                and a.categories[t] != ANIMALS[than].categories[t])


# ------------------------------------------------------------------ E8 choosing a die

def test_e8_2_own_die_pays_nobody() -> None:
    """E8.2 (K3): taking one's own die triggers no reward for anyone."""
    s = at_turns(2, 3)
    actor = to_act(s)
    before = (list(s.coins), list(s.vp), list(s.rep))
    take_and_mod(s, ASIA, 4)
    assert s.coins == before[0] and s.vp == before[1] and s.rep == before[2]
    assert s.stack[-1][0] == "mod" and s.stack[-1][1] == actor


def test_e8_3_owner_reward_by_space() -> None:
    """E8.3 / A25 / A12: an opponent's die pays its owner the space's reward (coins, VP)."""
    for space, kind, amount in ((1, "coins", 2), (3, "vp", 3), (0, None, 0)):
        s = at_turns(2, 3)
        actor = to_act(s)
        owner = 1 - actor
        single_die(s, AFRICA, 2, seat=owner, space=space)
        put_die(s, actor, 0, ASIA, 1)
        coins, vp = list(s.coins), list(s.vp)
        d = s.spaces[owner][space][0]
        do(s, "take", die=d, owner=owner)
        if kind == "coins":
            assert s.coins[owner] == coins[owner] + amount
        elif kind == "vp":
            assert s.vp[owner] == vp[owner] + amount
        else:
            assert s.coins == coins and s.vp == vp


def test_e10_3_owner_reputation_after_the_active_turn() -> None:
    """E8.3 / E10.3 / A15: the owner's 2 reputation is paid once the taker's turn is over."""
    s = at_turns(2, 3)
    actor = to_act(s)
    owner = 1 - actor
    single_die(s, AFRICA, 2, seat=owner, space=2)
    put_die(s, actor, 0, ASIA, 1)
    rep = s.rep[owner]
    do(s, "take", owner=owner)
    assert s.rep[owner] == rep and s.pending == [(owner, 2)]
    do(s, "act", action="bank")
    assert s.rep[owner] == rep + 2 and not s.pending


def test_e8_4_die_keeps_its_roll() -> None:
    """E8.4 / E22.5: the taken die keeps its rolled value and colour until modified."""
    s = at_turns(2, 3)
    take_and_mod(s, EUROPE, 5)
    _, _, _, colour, value, plus, _ = s.stack[-1]
    assert (colour, value, plus) == (EUROPE, 5, 0)


def test_e8_1_every_player_takes_four_turns_a_round() -> None:
    """E8.1 / G10 / G12: round robin, one die per turn, no passing: 4 turns each per round."""
    import random

    from tests.core.random_play import pick
    for players in (2, 3, 4):
        s = GAME.new_game({"players": players}, 40 + players)
        rnd = random.Random(players)
        while s.phase != "turns":
            GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
        five = DATA.tiles[s.tiles[-1]] == "extra_die"
        takes = [0] * players
        while s.phase == "turns" or s.stack:
            moves = GAME.legal_moves(s)
            move = pick(rnd, moves)
            if move["type"] == "take":
                takes[to_act(s)] += 1
            GAME.apply(s, move)
        assert takes == [5 if five else 4] * players


# ------------------------------------------------------------------ E9 modifiers

def test_e9_1_action_areas_have_no_capacity() -> None:
    """E9.1 / G13 / E22.6: several dice may use the Bank in one round."""
    s = at_turns(2, 3)
    s.turn = 0
    actor = to_act(s)
    take_and_mod(s, AFRICA, 3)
    do(s, "act", action="bank")
    d = put_die(s, actor, 0, ASIA, 2)
    s.turn = 0
    do(s, "take", die=d)
    do(s, "act", action="bank")
    assert len(s.areas[0]) == 2


def test_e9_2_coins_raise_the_value_beyond_six() -> None:
    """E9.2 / G14 / E22.7 (K4): each coin +1, any number, 7+ allowed."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.coins[actor] = 3
    take_and_mod(s, ASIA, 6)
    do(s, "coin")
    do(s, "coin")
    assert s.stack[-1][4] == 8 and s.coins[actor] == 1


def test_e9_3_tokens_change_colour_or_add_two_on_expedition() -> None:
    """E9.3 / A13 / G14 (K5): a token recolours to any colour; +2 only for Expedition."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.tokens[actor] = 3
    take_and_mod(s, ASIA, 3)
    assert {m["colour"] for m in moves_of(s, "recolour")} == {0, 1, 3, 4}
    do(s, "recolour", colour=OCEANIA)
    assert s.stack[-1][3] == OCEANIA and s.stack[-1][4] == 3
    do(s, "boost")
    assert s.stack[-1][5] == 2
    assert [m["action"] for m in moves_of(s, "act")] == ["expedition"]
    assert s.tokens[actor] == 1


def test_e9_4_and_e11_2_royal_seal_uses() -> None:
    """E9.4 / E11.2 / G18 / E22.14 (K7): a seal gives +5 and any colour, or 5 coins."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.seals[actor] = 2
    coins = s.coins[actor]
    take_and_mod(s, AFRICA, 2)
    do(s, "seal_die", colour=EUROPE)
    assert s.stack[-1][3:5] == (EUROPE, 7)
    do(s, "seal_coins")
    assert s.coins[actor] == coins + 5 and s.seals[actor] == 0


def test_e11_2_seal_to_coins_at_any_moment_of_the_turn() -> None:
    """E11.2(a) / E22.14: "A qualquer momento do seu turno" a seal becomes 5 coins, also
    before the die is taken; the turn goes on with the same seat; never on another's turn."""
    s = at_turns(2, 3)
    actor = to_act(s)
    other = 1 - actor
    s.seals = [1, 1]
    coins = s.coins[actor]
    assert moves_of(s, "seal_coins") and moves_of(s, "take")
    do(s, "seal_coins")
    assert to_act(s) == actor and s.coins[actor] == coins + 5 and s.seals[actor] == 0
    assert not moves_of(s, "seal_coins")  # no seal left
    do(s, "take")
    assert to_act(s) == actor and s.stack[-1][0] == "mod"
    moves = GAME.legal_moves(s)
    do(s, "act", action=next(m["action"] for m in moves if m["type"] == "act"))
    while to_act(s) == actor:  # finish whatever the action asks
        GAME.apply(s, GAME.legal_moves(s)[-1])
    assert to_act(s) == other and s.seals[other] == 1 and moves_of(s, "seal_coins")


def test_e9_5_colour_tests_use_the_final_colour() -> None:
    """E9.5 / G15 / E16.2 / E16.3: Academy with a recoloured die takes that colour's animal."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.tokens[actor] = 1
    colour = ANIMALS[s.adisplay[0]].colour
    other = (colour + 1) % 5
    s.adisplay[:] = [c for c in s.adisplay if ANIMALS[c].colour == colour]
    take_and_mod(s, other, 4)
    assert not moves_of(s, "act", action="academy")
    do(s, "recolour", colour=colour)
    do(s, "act", action="academy")
    assert all(ANIMALS[m["card"]].colour == colour for m in GAME.legal_moves(s))


def test_e9_6_values_above_six_read_the_last_column() -> None:
    """E9.6 / A14: value 8 at the Embassy gives 3 tokens, like 5-6."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.coins[actor] = 2
    take_and_mod(s, AFRICA, 6)
    do(s, "coin")
    do(s, "coin")
    tokens = s.tokens[actor]
    do(s, "act", action="embassy")
    assert s.tokens[actor] == tokens + 3


# ------------------------------------------------------------------ E10 reputation

def test_e10_1_reputation_sources() -> None:
    """E10.1 / E16.4: Academy pays reputation by value."""
    s = at_turns(2, 3)
    actor = to_act(s)
    colour = ANIMALS[s.adisplay[0]].colour
    take_and_mod(s, colour, 5)
    rep = s.rep[actor]
    do(s, "act", action="academy")
    do(s, "animal")
    assert s.rep[actor] >= rep + 3 or s.rep[actor] == DATA.track_length


def test_e10_2_bonus_spaces_pay_when_passed_or_reached() -> None:
    """E10.2 / G16 (K6): passing the space-2 bonus (+2 coins) pays it; stopping short does not."""
    from core.encyclopedia.rules import gain_rep
    for gained, paid in ((3, True), (2, True), (1, False)):
        s = at_turns(2, 3)
        coins = s.coins[0]
        gain_rep(s, 0, gained, [])
        assert (s.coins[0] == coins + 2) is paid


def test_e10_4_reputation_bonus_card_from_display_or_deck() -> None:
    """E10.4 / A16 / E15.7 / E16.6 / E22.13: the card bonus takes from the display, or the
    deck's top card when the display is empty."""
    from core.encyclopedia.rules import gain_rep
    s = at_turns(2, 3)
    s.rep[0] = 3
    gain_rep(s, 0, 1, [])
    assert s.stack[-1][:3] == ("apick", 0, -1)
    s = at_turns(2, 3)
    s.rep[0] = 3
    s.adiscard.extend(s.adisplay)
    s.adisplay.clear()
    hand = len(s.hand[0])
    gain_rep(s, 0, 1, [])
    assert len(s.hand[0]) == hand + 1 and not s.stack
    s.rep[0] = 7
    s.xdiscard.extend(s.xdisplay)
    s.xdisplay.clear()
    gain_rep(s, 0, 1, [])
    assert s.stack[-1][0] == "xplace"


def test_g16_reputation_past_the_end_scores() -> None:
    """G16 (stand-in, issue 31): the marker stops on space 14; further reputation is worth
    DATA.vp_beyond_track VP a point (0: at 1 VP a point, Expedition's reputation made it
    the action greedy play leaned on, 36.8 of its 98.3 points)."""
    from core.encyclopedia.rules import gain_rep
    s = at_turns(2, 3)
    s.rep[0] = DATA.track_length
    vp = s.vp[0]
    gain_rep(s, 0, 3, [])
    assert s.vp[0] == vp + 3 * DATA.vp_beyond_track and s.rep[0] == DATA.track_length
    assert DATA.vp_beyond_track == 0


# ------------------------------------------------------------------ E11 royal seals

def test_e11_1_publish_and_reputation_give_seals() -> None:
    """E11.1 / G17 / E18.12: the space-10 reputation bonus is a royal seal."""
    from core.encyclopedia.rules import gain_rep
    s = at_turns(2, 3)
    s.rep[0] = 9
    gain_rep(s, 0, 1, [])
    assert s.seals[0] == 1


def test_e11_4_no_additional_action_during_the_turn() -> None:
    """E11.4 / A18(a) / E11.2(c): the seal's additional action exists only at round end."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.seals[actor] = 1
    take_and_mod(s, AFRICA, 2)
    assert not [m for m in GAME.legal_moves(s) if m["type"] == "extra"]


# ------------------------------------------------------------------ E12 experts

def _expert(when: str, hook: str = "", action: str = "", colour: int = 0) -> int:
    return next(x.id for x in DATA.experts if x.when == when and x.colour == colour
                and (not hook or x.hook == hook) and (not action or x.action == action))


def _university(s, card: int, where: str, space: int) -> None:  # noqa: ANN001
    s.xdisplay[:] = [card]
    take_and_mod(s, (DATA.experts[card].colour + 1) % 5, 3)
    do(s, "act", action="university")
    do(s, "expert", card=card)
    do(s, where, space=space)


def test_e12_1_immediate_expert_on_top_resolves() -> None:
    """E12.1 / A26 / G19 / E12.4 / E22.16 (the stand-in experts offer no choice): an
    immediate expert placed on top resolves at once."""
    s = at_turns(2, 3)
    actor = to_act(s)
    card = next(x.id for x in DATA.experts if x.when == "immediate" and x.gain == (("coins", 3),))
    coins = s.coins[actor]
    _university(s, card, "top", 0)
    assert s.coins[actor] == coins + 3 and s.experts[actor][0] == [card]


def test_e12_3_covered_cards_lose_effects_but_count_for_collections() -> None:
    """E12.2 / E12.3 / E15.5 / A19 / A20: under: no immediate effect; a covered card's
    permanent effect stops; covered cards still count in continent collections."""
    from core.encyclopedia.rules import value_bonus
    from core.encyclopedia.scoring import continents
    s = at_turns(2, 3)
    s.turn = 0
    actor = to_act(s)
    navigator = _expert("permanent", "value", "expedition", colour=2)
    _university(s, navigator, "top", 1)
    assert value_bonus(s, actor, "expedition") == 1
    coins_card = next(x.id for x in DATA.experts if x.when == "immediate"
                      and x.gain == (("coins", 3),) and x.colour == 4)
    coins = s.coins[actor]
    s.turn = 0  # the same seat acts again
    _university(s, coins_card, "under", 1)
    assert s.coins[actor] == coins and s.experts[actor][1] == [coins_card, navigator]
    other = _expert("end", "seals", colour=1)
    s.turn = 0
    _university(s, other, "top", 1)  # covers the Navigator
    assert value_bonus(s, actor, "expedition") == 0
    assert continents(s, actor) >= 3 * DATA.continent_collection[1]


def test_e12_5_and_e15_6_displays_not_refilled_during_the_round() -> None:
    """E12.5 / E15.6 / E16.5: a taken expert or animal is not replaced during the round."""
    s = at_turns(2, 3)
    size = len(s.xdisplay)
    card = s.xdisplay[0]
    take_and_mod(s, AFRICA, 3)
    do(s, "act", action="university")
    do(s, "expert", card=card)
    do(s, "top", space=0)
    assert len(s.xdisplay) == size - 1
    n_animals = len(s.adisplay)
    colour = ANIMALS[s.adisplay[0]].colour
    take_and_mod(s, colour, 3)
    do(s, "act", action="academy")
    do(s, "animal")
    assert len(s.adisplay) == n_animals - 1


# ------------------------------------------------------------------ E13 / E14

def test_e13_embassy_ignores_colour() -> None:
    """E13.1 / E13.2: Embassy is legal whatever the colour; tokens by value."""
    for colour in range(5):
        s = at_turns(2, 3)
        actor = to_act(s)
        take_and_mod(s, colour, 3)
        tokens = s.tokens[actor]
        do(s, "act", action="embassy")
        assert s.tokens[actor] == tokens + 2


def test_e14_2_first_to_the_bank_takes_the_first_player_marker() -> None:
    """E14.2 / A21(a) / A22 / A23: the first die in the Bank this round takes the marker for
    the next round; later Bank dice do not; the coins of E3.6 are not paid again."""
    s = at_turns(2, 3)
    second = (s.first + 1) % 2
    s.turn = 1
    assert to_act(s) == second
    coins = s.coins[second]
    take_and_mod(s, AFRICA, 1)
    do(s, "act", action="bank")
    assert s.next_first == second and s.first != second  # this round's order stands
    assert s.coins[second] == coins + 5
    s.turn = 2
    take_and_mod(s, AFRICA, 1)
    do(s, "act", action="bank")
    assert s.next_first == second


def test_e14_2_extra_action_bank_takes_the_marker() -> None:
    """A22: an additional action placed in an empty Bank takes the marker too."""
    from core.encyclopedia.rules import act
    s = at_turns(2, 3)
    other = (s.first + 1) % 2
    s.bank_used = False
    act(s, other, "bank", 0, 0, 3, 0, [])
    assert s.next_first == other


# ------------------------------------------------------------------ E15 University

def test_e15_university_colour_match_and_placement() -> None:
    """E15.1-E15.4 / G20 / E22.8 / E22.9 (K11): any value; matching colour +1 token; on top
    of any space or under an occupied one."""
    s = at_turns(2, 3)
    actor = to_act(s)
    card = s.xdisplay[0]
    colour = DATA.experts[card].colour
    take_and_mod(s, colour, 1)
    tokens = s.tokens[actor]
    do(s, "act", action="university")
    do(s, "expert", card=card)
    assert s.tokens[actor] == tokens + 1
    kinds = {(m["type"], m["space"]) for m in GAME.legal_moves(s)}
    assert kinds == {("top", i) for i in range(4)}  # nothing to go under yet


def test_e15_2_no_university_with_an_empty_display() -> None:
    """E15.2 / A24(a): the University is not legal with no expert on display."""
    s = at_turns(2, 3)
    s.xdiscard.extend(s.xdisplay)
    s.xdisplay.clear()
    take_and_mod(s, AFRICA, 4)
    assert not moves_of(s, "act", action="university")


# ------------------------------------------------------------------ E16 Academy

def test_e16_academy_takes_a_card_of_the_die_colour() -> None:
    """E16.1 / E16.2 / E16.4 / E16.7 / A27 / G21 / E22.10: the card must match; the die goes
    to the Academy area; the card joins the hand (no limit)."""
    s = at_turns(2, 3)
    actor = to_act(s)
    colour = ANIMALS[s.adisplay[0]].colour
    d = take_and_mod(s, colour, 1)
    do(s, "act", action="academy")
    assert d in s.areas[3]
    moves = GAME.legal_moves(s)
    assert moves and all(ANIMALS[m["card"]].colour == colour for m in moves)
    card = moves[0]["card"]
    do(s, "animal", card=card)
    assert card in s.hand[actor]


# ------------------------------------------------------------------ E17 Expedition

def test_e17_expedition_space_reputation_bonus_and_research() -> None:
    """E17.1 / E17.2 / E17.3 / G22 / G23 / A28: leftmost free space of the die's continent; its
    reputation and value bonus; E17.7-E17.9 / G24 / G25 / E22.11: research costs, VP."""
    s = at_turns(2, 3)
    actor = to_act(s)
    card = animal_of(ASIA)
    give_animal(s, actor, card)
    take_and_mod(s, ASIA, 5)
    s.cont[ASIA][0] = 19  # the first space is taken: the die goes to the second
    rep, vp = s.rep[actor], s.vp[actor]
    do(s, "act", action="expedition")
    while s.stack[-1][0] != "research":
        GAME.apply(s, GAME.legal_moves(s)[0])
    assert s.cont[ASIA][1] >= 0 and s.rep[actor] == rep + 2
    assert s.stack[-1][3] == 5 + 1  # value + the second space's bonus
    slots = {m["slot"] for m in moves_of(s, "research", card=card)}
    assert slots == {0, 1}  # 2 and 4 affordable with 6, 7 and 10 not
    do(s, "research", card=card, slot=1)
    assert s.vp[actor] == vp + DATA.research_vp[1] and s.cubes[card] == 0b10
    assert s.stack[-1][3] == 2
    do(s, "research", card=card, slot=0)  # the last 2 points: type I, no VP
    assert s.cubes[card] == 0b11 and not s.stack


def test_e17_4_to_e17_6_expedition_modifiers() -> None:
    """E17.4 / E17.5 / E17.6: tokens (+2), coins and a seal (+5) all add to the research."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.tokens[actor], s.coins[actor], s.seals[actor] = 1, 1, 1
    give_animal(s, actor, animal_of(EUROPE))
    take_and_mod(s, AFRICA, 1)
    do(s, "seal_die", colour=EUROPE)
    do(s, "boost")
    do(s, "coin")
    do(s, "act", action="expedition")
    while s.stack and s.stack[-1][0] != "research":
        GAME.apply(s, GAME.legal_moves(s)[0])
    assert s.stack[-1][3] == 1 + 5 + 2 + 1  # die 1, seal, token, coin; first space +0


def test_e17_1_full_continent_is_closed() -> None:
    """G22: a continent with every space taken cannot be chosen."""
    s = at_turns(2, 3)
    take_and_mod(s, OCEANIA, 4)
    s.cont[OCEANIA] = [16, 17, 18, 19]
    assert not moves_of(s, "act", action="expedition")


def test_e17_10_expedition_without_animals() -> None:
    """E17.10 / A29: an Expedition with no animal of the colour is legal (reputation only)."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.hand[actor] = []
    take_and_mod(s, AMERICAS, 2)
    rep = s.rep[actor]
    do(s, "act", action="expedition")
    assert s.rep[actor] >= rep + 3 or s.rep[actor] == DATA.track_length


def test_e17_8_one_cube_per_slot() -> None:
    """G24: a slot holding a cube cannot be researched again."""
    s = at_turns(2, 3)
    actor = to_act(s)
    card = animal_of(ASIA)
    give_animal(s, actor, card, cubes=0b0001)
    s.hand[actor] = [card]
    take_and_mod(s, ASIA, 2)
    do(s, "act", action="expedition")
    while s.stack and s.stack[-1][0] != "research":
        GAME.apply(s, GAME.legal_moves(s)[0])
    assert not any(m["slot"] == 0 for m in moves_of(s, "research"))


# ------------------------------------------------------------------ E18 Publish

def test_e18_publish_walk_through() -> None:
    """E18.1 / E18.2 / E18.5 / E18.6 / E18.7 / E18.8 / E18.9 / E18.10 / E18.11 /
    E18.12 / E18.14 / A31(b) / A32 / A33 / G26 / E22.12: focus on a
    card of the die's colour; cubes of other cards (any colour) in the focus category join;
    participants lose their cubes; same continent face down, others removed; Continental
    extras filed; one royal seal."""
    s = at_turns(2, 3)
    actor = to_act(s)
    t = 2
    focus, partner = _pair(t, same_colour=False)
    colour = ANIMALS[focus].colour
    extra = next(a.id for a in DATA.animals if a.colour == colour and a.id not in (focus,)
                 and ANIMALS[a.id].categories[t] != ANIMALS[focus].categories[t])
    s.hand[actor] = []
    give_animal(s, actor, focus, cubes=0b0100)
    give_animal(s, actor, partner, cubes=0b0101)
    give_animal(s, actor, extra, cubes=0b0001)
    take_and_mod(s, colour, 5)
    vp, seals = s.vp[actor], s.seals[actor]
    do(s, "act", action="publish")
    do(s, "focus", card=focus)
    # type III: the focus cube went at once; the partner shares the category and may join
    assert s.stack[-1][0] == "pub" and s.stack[-1][3] == t
    do(s, "join", card=partner)
    # type I: the partner's type-I cube is in a category of its own or not; either way end
    while s.stack and s.stack[-1][0] == "pub":
        do(s, "next")
    assert s.stack[-1][0] == "continental"
    do(s, "discard", card=extra)
    assert not s.stack
    assert s.grid[actor][t * 4 + ANIMALS[focus].categories[t]] == 2
    assert s.vp[actor] == vp + 2 * DATA.publish_vp[t]
    assert focus in s.published[actor] and extra in s.published[actor]
    assert partner in s.removed and partner not in s.hand[actor]
    assert s.cubes[partner] == 0 and s.seals[actor] == seals + 1
    assert s.published_n[actor] == 2  # A35(b): focus + partner, not the Continental extra


def test_e18_3_value_limits_the_types() -> None:
    """E18.3 / E18.4 / A30: value 4 publishes types I and II only; value 1 cannot publish."""
    s = at_turns(2, 3)
    actor = to_act(s)
    card = animal_of(ASIA)
    s.hand[actor] = []
    give_animal(s, actor, card, cubes=0b1111)
    take_and_mod(s, ASIA, 4)
    do(s, "act", action="publish")
    do(s, "focus", card=card)
    assert s.grid[actor][0 * 4 + ANIMALS[card].categories[0]] == 1
    assert s.grid[actor][1 * 4 + ANIMALS[card].categories[1]] == 1
    assert sum(s.grid[actor]) == 2
    s2 = at_turns(2, 3)
    actor = to_act(s2)
    give_animal(s2, actor, card, cubes=0b1111)
    take_and_mod(s2, ASIA, 1)
    assert not moves_of(s2, "act", action="publish")


def test_e18_13_publish_without_cubes() -> None:
    """E18.13 / G27: value 2 (Continental only) publishes no cube but is legal: seal, card filed."""
    s = at_turns(2, 3)
    actor = to_act(s)
    card = animal_of(AFRICA)
    s.hand[actor] = []
    give_animal(s, actor, card)
    take_and_mod(s, AFRICA, 2)
    seals = s.seals[actor]
    do(s, "act", action="publish")
    do(s, "focus", card=card)
    assert s.seals[actor] == seals + 1 and card in s.published[actor]


def test_e18_6_other_category_cannot_join() -> None:
    """E18.6: a cube in another category of the same type does not join."""
    s = at_turns(2, 3)
    actor = to_act(s)
    focus = animal_of(EUROPE)
    other = _differ(0, EUROPE, focus)
    s.hand[actor] = []
    give_animal(s, actor, focus, cubes=0b0001)
    give_animal(s, actor, other, cubes=0b0001)
    take_and_mod(s, EUROPE, 3)
    do(s, "act", action="publish")
    do(s, "focus", card=focus)
    assert s.stack[-1][0] == "continental"  # no pub frame: nobody may join type I
    do(s, "finish")
    assert other in s.hand[actor] and s.cubes[other] == 0b0001
