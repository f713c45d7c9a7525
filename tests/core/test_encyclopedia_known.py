"""Encyclopedia known answers (RULES.md Appendix B, K1-K15) and final scoring (E20)."""

from __future__ import annotations

from core.encyclopedia.data import DATA
from core.encyclopedia.rules import gain_rep, to_act
from core.encyclopedia.scoring import breakdown, categories, continents
from tests.core.encyclopedia_helpers import (
    GAME,
    animal_of,
    at_turns,
    do,
    give_animal,
    moves_of,
    take_and_mod,
)


def test_k1_starting_coins_and_tokens() -> None:
    """K1 / E3.6: 2p 2,3; 3p 2,3,3; 4p 2,3,3,4 coins by position; 1 token each."""
    for players, coins in ((2, [2, 3]), (3, [2, 3, 3]), (4, [2, 3, 3, 4])):
        s = GAME.new_game({"players": players}, 7)
        assert [s.coins[(s.first + k) % players] for k in range(players)] == coins
        assert s.tokens == [1] * players


def test_k2_round_tiles() -> None:
    """K2 / E7.7: see test_encyclopedia_rounds.test_e7_1_t1_and_e7_2_t2 (T1, T2, T6)."""
    assert {"token", "coins", "none"} <= set(DATA.tiles)


def test_k3_owner_rewards() -> None:
    """K3 / E8.3: rewards none / 2 coins / 2 reputation / 3 VP by space."""
    assert DATA.space_rewards == ((), (("coins", 2),), (("rep", 2),), (("vp", 3),))


def test_k4_coins() -> None:
    """K4 / E9.2: die 3 + 2 coins -> 5; die 6 + 1 coin -> 7."""
    for die, coins, value in ((3, 2, 5), (6, 1, 7)):
        s = at_turns(2, 3)
        s.coins[to_act(s)] = coins
        take_and_mod(s, 0, die)
        for _ in range(coins):
            do(s, "coin")
        assert s.stack[-1][4] == value


def test_k5_token_plus_two_on_expedition() -> None:
    """K5 / E9.3: Expedition die 3 + token -> 5 points; elsewhere a token only recolours."""
    s = at_turns(2, 3)
    actor = to_act(s)
    s.tokens[actor] = 1
    give_animal(s, actor, animal_of(1))
    take_and_mod(s, 1, 3)
    do(s, "boost")
    do(s, "act", action="expedition")
    while s.stack and s.stack[-1][0] != "research":
        GAME.apply(s, GAME.legal_moves(s)[0])
    assert s.stack[-1][3] == 5


def test_k6_reputation_bonus_passing() -> None:
    """K6 / E10.2: see test_e10_2 (+3 and +2 reach the bonus two spaces ahead, +1 not)."""
    s = at_turns(2, 3)
    coins = s.coins[1]
    gain_rep(s, 1, 2, [])
    assert s.coins[1] == coins + 2


def test_k7_seal() -> None:
    """K7 / E11.2: a seal: +5 coins; or die 2 -> 7 and any colour."""
    s = at_turns(2, 3)
    s.seals[to_act(s)] = 1
    take_and_mod(s, 0, 2)
    assert len(moves_of(s, "seal_die")) == 5
    do(s, "seal_die", colour=3)
    assert s.stack[-1][3:5] == (3, 7)


def test_k8_and_k15_end_resources() -> None:
    """K8 / K15 / E11.3 / A17 / E20.2(c)-(e): 2 seals 8 VP; 7 coins 3 VP; 3 tokens 3 VP."""
    s = at_turns(2, 3)
    s.seals[0], s.coins[0], s.tokens[0] = 2, 7, 3
    b = breakdown(s, 0)
    assert (b["seals"], b["coins"], b["tokens"]) == (8, 3, 3)
    s.seals[0], s.coins[0], s.tokens[0] = 0, 0, 0
    b = breakdown(s, 0)
    assert (b["seals"], b["coins"], b["tokens"]) == (0, 0, 0)


def test_k9_embassy() -> None:
    """K9 / E13.2: values 1..6 -> 1,1,2,2,3,3 tokens."""
    for value, tokens in zip(range(1, 7), (1, 1, 2, 2, 3, 3), strict=True):
        s = at_turns(2, 3)
        actor = to_act(s)
        take_and_mod(s, 2, value)
        before = s.tokens[actor]
        do(s, "act", action="embassy")
        assert s.tokens[actor] == before + tokens


def test_k10_bank() -> None:
    """K10 / E14.1: any die -> +5 coins."""
    for colour, value in ((0, 1), (4, 6)):
        s = at_turns(2, 3)
        actor = to_act(s)
        take_and_mod(s, colour, value)
        before = s.coins[actor]
        do(s, "act", action="bank")
        assert s.coins[actor] == before + 5


def test_k11_university_colour() -> None:
    """K11 / E15.3: a matching expert colour gives 1 token, another colour none."""
    for match in (True, False):
        s = at_turns(2, 3)
        actor = to_act(s)
        card = s.xdisplay[0]
        colour = DATA.experts[card].colour
        take_and_mod(s, colour if match else (colour + 1) % 5, 3)
        before = s.tokens[actor]
        do(s, "act", action="university")
        do(s, "expert", card=card)
        assert s.tokens[actor] == before + (1 if match else 0)


def test_k12_academy_reputation() -> None:
    """K12 / E16.4: value 2 -> 1, 4 -> 2, 6 -> 3 reputation."""
    for value, rep in ((2, 1), (4, 2), (6, 3)):
        s = at_turns(2, 3)
        card = s.adisplay[0]
        take_and_mod(s, DATA.animals[card].colour, value)
        do(s, "act", action="academy")
        assert s.stack[-1][3] == rep


def test_k13_research_budgets() -> None:
    """K13 / E17.8: value 9 fits III + I; value 1 researches nothing."""
    s = at_turns(2, 3)
    actor = to_act(s)
    cards = [animal_of(2, 0), animal_of(2, 1)]
    s.hand[actor] = []
    for c in cards:
        give_animal(s, actor, c)
    s.stack.append(("research", actor, 2, 9))
    do(s, "research", card=cards[0], slot=2)
    assert {m["slot"] for m in moves_of(s, "research")} == {0}
    do(s, "research", card=cards[1], slot=0)
    assert not s.stack  # 0 points left: the research ends by itself
    s.stack.append(("research", actor, 2, 1))
    assert not moves_of(s, "research")


def test_k14_publish_thresholds() -> None:
    """K14 / E18.4: value 1 none, 2 Continental, 3 I, 4 II, 5 III, 6+ IV."""
    assert DATA.publish_continental == 2 and DATA.publish_min == (3, 4, 5, 6)
    for value, published in ((2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (9, 4)):
        s = at_turns(2, 3)
        actor = to_act(s)
        card = animal_of(4)
        s.hand[actor] = []
        give_animal(s, actor, card, cubes=0b1111)
        take_and_mod(s, 4, value)
        do(s, "act", action="publish")
        do(s, "focus", card=card)
        assert sum(s.grid[actor]) == published


def test_e20_2_collections() -> None:
    """E20.2(a) / G29 / E20.2(b) / G30: distinct categories per type; continent counts of
    published animals and experts (active or covered)."""
    s = at_turns(2, 3)
    s.grid[0] = [0] * 16
    s.grid[0][0] = s.grid[0][1] = s.grid[0][2] = 1  # type I: 3 categories
    s.grid[0][4] = 5  # type II: 1 category
    assert categories(s, 0) == DATA.category_collection[3] + DATA.category_collection[1]
    s.published[0] = [animal_of(0, 0), animal_of(0, 1)]
    expert = next(x.id for x in DATA.experts if x.colour == 0)
    s.experts[0] = [[expert], [], [], []]
    assert continents(s, 0) == DATA.continent_collection[3]


def test_e20_3_to_e20_5_totals_and_tie_break() -> None:
    """E20.3 / E20.4 / E20.5 / A35 / G2 / E1.5: totals add up; unpublished cards score
    nothing; most VP wins; ties go to the most animals published, then are shared."""
    s = at_turns(2, 3)
    s.vp = [10, 10]
    s.hand[0] = [animal_of(1)]
    s.published_n = [2, 1]
    r = GAME.result(s)
    assert r["scores"][0] == sum(v for k, v in r["breakdown"][0].items() if k != "total")
    if r["scores"][0] == r["scores"][1]:
        assert r["ranking"] == [0, 1] and r["places"] == [1, 2]
    s.published_n = [1, 1]
    s.hand = [[], []]
    for seat in (0, 1):
        s.coins[seat] = s.tokens[seat] = s.seals[seat] = 0
        s.experts[seat] = [[], [], [], []]
        s.published[seat] = []
        s.grid[seat] = [0] * 16
    r = GAME.result(s)
    assert r["scores"] == [10, 10] and r["places"] == [1, 1]


def test_end_game_experts() -> None:
    """E12.1: active end-game experts score (published of its colour, experts, seals)."""
    from core.encyclopedia.scoring import expert_end
    s = at_turns(2, 3)
    curator = next(x.id for x in DATA.experts if x.hook == "published_colour" and x.colour == 1)
    archivist = next(x.id for x in DATA.experts if x.hook == "seals")
    s.experts[0] = [[curator], [archivist], [], []]
    s.published[0] = [animal_of(1, 0), animal_of(1, 1), animal_of(2, 0)]
    s.seals[0] = 5
    assert expert_end(s, 0) == 2 * 2 + 3 * 2
