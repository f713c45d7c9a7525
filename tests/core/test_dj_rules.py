"""Unit and known-answer tests of Darwin's Journey rules (rulebook examples, seed 000)."""

from __future__ import annotations

from typing import Any

import pytest

from core import IllegalMove, get_game
from core.darwins_journey import rules, scoring
from core.darwins_journey.data import DATA
from core.darwins_journey.state import State

GAME = get_game("darwins-journey")


# ---------------------------------------------------------------- helpers

def started(players: int = 2, seed: int = 0, first_game: bool = True) -> State:
    """A game past its setup choices, in round 1's Action phase, with a neutral board."""
    s = GAME.new_game({"players": players, "first_game": first_game}, seed)
    while s.phase != "actions":
        GAME.apply(s, GAME.legal_moves(s)[0])
    s.order = list(range(players))
    s.turn = 0
    s.museum = 0
    s.specimens = {}
    s.crew = [[] for _ in range(players)]
    s.seals = [[["P"], [], [], [], []] for _ in range(players)]
    s.reserve = [[] for _ in range(players)]
    s.cache = None
    return s


def moves(s: State, **fields: Any) -> list[dict[str, Any]]:
    """The legal moves whose fields include `fields`."""
    s.cache = None
    return [m for m in GAME.legal_moves(s) if all(m.get(k) == v for k, v in fields.items())]


def do(s: State, **fields: Any) -> list[dict[str, Any]]:
    """Play the first legal move matching `fields`."""
    found = moves(s, **fields)
    assert found, f"no legal move with {fields}; legal: {GAME.legal_moves(s)}"
    return GAME.apply(s, found[0])


def push(s: State, seat: int, *actions: tuple[Any, ...]) -> None:
    """Give `seat` a list of actions to perform now (as a location would)."""
    s.stack.append(("endturn", seat))
    rules.push_acts(s, seat, tuple(actions), False, [])
    rules.settle(s, [])
    s.cache = None


def finish_turn(s: State) -> None:
    """Decline everything left on the stack."""
    while s.stack and s.phase == "actions":
        passive = [m for m in GAME.legal_moves(s) if m["type"] in ("skip", "done", "end_turn")]
        GAME.apply(s, passive[0])


# ---------------------------------------------------------------- placement

def test_placement_penalty_two_and_three_players() -> None:
    """First worker in a section is free; later ones pay 3 (2 players) or 2 (3-4 players)."""
    for players, penalty in ((2, 3), (3, 2)):
        s = started(players)
        s.seals[0][1] = ["G"]
        s.seals[1][1] = ["B"]
        do(s, type="place", worker=1, location="explore.1")
        finish_turn(s)
        assert s.order[s.turn] == 1
        coins = s.coins[1]
        do(s, type="place", worker=1, location="navigate.1")  # same main diary section
        assert s.coins[1] == coins - penalty


def test_four_players_main_diary_pages_are_separate_sections() -> None:
    """With 4 players each page of a main diary is its own section."""
    s = started(4)
    s.seals[0][1] = ["G"]
    s.seals[1][1] = ["B"]
    do(s, type="place", worker=1, location="explore.1")
    finish_turn(s)
    coins = s.coins[1]
    do(s, type="place", worker=1, location="navigate.1")
    assert s.coins[1] == coins


def test_penalty_reduced_by_gold_objective_and_squares_free() -> None:
    """The gold-3 objective reward lowers the penalty by 1; square locations never cost."""
    s = started(2)
    s.seals[0][1] = ["G"]
    s.seals[1][1] = ["G"]
    s.obj_slots[1][7] = -20
    do(s, type="place", worker=1, location="explore.1")
    finish_turn(s)
    coins = s.coins[1]
    do(s, type="place", worker=1, location="explore.1")
    assert s.coins[1] == coins - 2
    finish_turn(s)
    coins = s.coins[0]
    do(s, type="place", worker=0, location="research")
    assert s.coins[0] == coins


def test_lens_owner_gets_a_coin_but_not_from_himself() -> None:
    """Placing on an opponent's lens pays the owner 1 coin; on one's own lens nothing."""
    s = started(2)
    s.loc_owner["explore.2"] = 0
    s.loc_owner["navigate.2"] = 1
    s.seals[0][1] = ["G", "G"]
    s.seals[1][1] = ["G", "G"]
    do(s, type="place", worker=1, location="explore.2")
    assert s.coins[0] == 4
    finish_turn(s)
    assert not moves(s, type="place", location="explore.2")  # one worker per lens
    s.seals[1][2] = ["B", "B"]
    s.loc_workers["explore.2"] = []
    s.loc_owner["explore.2"] = 0
    before = s.coins[0]
    do(s, type="place", worker=2, location="navigate.2", knowledge=0)
    assert s.coins[0] == before  # seat 1 on its own lens: nobody gains
    s2 = started(2)
    s2.loc_owner["explore.2"] = 1
    s2.seals[0][1] = ["G", "G"]
    do(s2, type="place", worker=1, location="explore.2")
    assert s2.coins[1] == 5


def test_seal_requirements_purple_wildcard_and_knowledge() -> None:
    """Missing seals are covered by purple seals, then by temporary knowledge (rulebook p.10)."""
    s = started(2)
    s.loc_owner["explore.2"] = -2
    s.seals[0][1] = ["G", "Y", "Y"]  # needs 2 green: one knowledge
    s.tk[0] = 1
    assert [m["knowledge"] for m in moves(s, type="place", worker=1, location="explore.2")] == [1]
    s.seals[0][1] = ["G", "Y", "P"]
    assert [m["knowledge"] for m in moves(s, type="place", worker=1, location="explore.2")] == [0]
    s.seals[0][1] = ["Y"]
    s.tk[0] = 1
    assert not moves(s, type="place", worker=1, location="explore.2")
    s.seals[0][1] = ["G", "Y", "Y"]
    do(s, type="place", worker=1, location="explore.2")
    assert s.tk[0] == 0


def test_fifth_worker_has_no_seals_but_can_use_knowledge() -> None:
    """The 5th worker places with knowledge only."""
    s = started(2)
    s.home[0] = [4]
    s.worker5[0] = True
    s.tk[0] = 1
    assert {m["knowledge"] for m in moves(s, type="place", worker=4, location="explore.1")} == {1}


# ---------------------------------------------------------------- distinctions

def test_distinctions_correspondence_silver_and_gold() -> None:
    """Rulebook p.19: a gold worker places 2 + 1 stamps and may split them among envelopes."""
    s = started(2)
    s.seals[0][1] = ["Y", "G", "G", "G", "G", "G"]
    do(s, type="place", worker=1, location="correspond.1")
    frame = s.stack[-1]
    assert frame[:4] == ("correspond", 0, 3, True)
    do(s, type="stamp", envelope=0, stack=0)
    do(s, type="stamp", envelope=1, stack=0)
    do(s, type="stamp", envelope=2, stack=0)
    assert [e[0] for e in s.envelopes] == [1, 1, 1]


def test_distinction_silver_only_no_split() -> None:
    """A silver worker adds one stamp but keeps one envelope."""
    s = started(2)
    s.seals[0][1] = ["Y", "G", "G", "G"]
    do(s, type="place", worker=1, location="correspond.1")
    do(s, type="stamp", envelope=1, stack=0)
    assert {m["envelope"] for m in moves(s, type="stamp")} == {1}
    assert s.stack[-1][2] == 2


def test_distinction_gold_explore_extra_stop() -> None:
    """Rulebook p.19: a gold explorer stops on the way, does the space, then moves on."""
    s = started(2)
    s.seals[0][1] = ["G", "G", "G", "G", "G", "G"]
    s.specimens = {"IA2": 5}
    do(s, type="place", worker=1, location="explore.1")
    do(s, type="explore", island="A", space="IA2", stop=True)
    assert s.research[0] >> 5 & 1
    do(s, type="explore", island="A", space="IA3", stop=False)  # 3 steps in all: 2 + silver 1
    assert s.explorers[0][0] == DATA.island_index["IA3"][1]
    assert not s.stack or s.stack[-1][0] == "endturn"


def test_distinction_academy_extra_seal_and_discount() -> None:
    """Silver: one more seal in the same Academy action; gold: 1 coin less per action (p.19)."""
    s = started(2)
    s.seals[0][1] = ["R", "G", "G", "G", "G", "G"]
    s.academy = ["G", "G", "G", "B", "B", "B", "Y", "Y", "Y", "R", "R", "R"]
    s.coins[0] = 10
    do(s, type="place", worker=1, location="academy.1")
    do(s, type="seal", scroll=3, colour="R", worker=2)  # scroll 3 + slot 0 - 1 = 2
    assert s.coins[0] == 8
    do(s, type="seal", scroll=1, colour="B", worker=2)  # 1 + 0: the discount is used up
    assert s.coins[0] == 7 and s.seals[0][2] == ["R", "B"]
    assert len(s.seals[0][1]) == 6
    assert not s.stack or s.stack[-1][0] == "endturn"


# ---------------------------------------------------------------- board actions

def test_unlock_main_top_down_special_any_order_and_free_use() -> None:
    """Main pages unlock top-down; special locations in any order; the unlocked actions at once."""
    s = started(2)
    s.coins[0] = 20
    do(s, type="place", worker=0, location="unlock")
    options = {m["location"] for m in moves(s, type="unlock")}
    assert "explore.2" in options and "explore.3" not in options
    assert {"special.2", "special.3", "special.4", "special.5"} <= options
    do(s, type="unlock", location="explore.2")
    assert s.coins[0] == 16 and s.loc_owner["explore.2"] == 0 and s.lenses[0] == 1
    # the free immediate use: a 3-step exploration, without any green seal
    assert s.stack[-1][:3] == ("explore", 0, 3)


def test_academy_costs_scroll_and_slot() -> None:
    """A seal costs its scroll's coins plus the slot's; the silver-2 objective waives scrolls."""
    s = started(2)
    s.academy = ["G", "G", "G", "B", "B", "B", "Y", "Y", "Y", "R", "R", "R"]
    s.seals[0][2] = ["B", "B", "B"]  # next slot costs 1
    s.coins[0] = 10
    push(s, 0, ("academy", 0))
    do(s, type="seal", scroll=2, colour="Y", worker=2)
    assert s.coins[0] == 7 and s.academy[6] == ""
    s.obj_slots[0][1] = -5
    push(s, 0, ("academy", 0))
    do(s, type="seal", scroll=3, colour="R", worker=2)  # 5th slot costs 2, scroll waived
    assert s.coins[0] == 5


def test_navigation_band_places_explorer_and_end_bonus() -> None:
    """Crossing a silver band puts an explorer on that island; first at the end scores 3."""
    s = started(2)
    s.ship[0] = DATA.ocean_index["O7"]
    push(s, 0, ("navigate", 2))
    do(s, type="navigate", space="O9")
    assert s.explorers[0][1] == 0
    s.ship[0] = DATA.ocean_index["O25"]
    s.ship[1] = DATA.ocean_index["O25"]
    push(s, 0, ("navigate", 1))
    vp = s.vp[0]
    do(s, type="navigate", space="O26")
    assert s.vp[0] == vp + 3 + 3  # the space's 3 points and the first-to-end bonus
    s.stack.clear()
    push(s, 1, ("navigate", 1))
    vp = s.vp[1]
    do(s, type="navigate", space="O26")
    assert s.vp[1] == vp + 3


def test_navigation_branches() -> None:
    """Both branches of a fork are reachable."""
    s = started(2)
    s.ship[0] = DATA.ocean_index["O5"]
    push(s, 0, ("navigate", 1))
    assert {m["space"] for m in moves(s, type="navigate")} == {"O6", "O7"}


def test_exploration_skips_occupied_spaces() -> None:
    """Rulebook p.13: an opponent's explorer is skipped and not counted; no stopping on it."""
    s = started(2)
    s.explorers[0][0] = DATA.island_index["IA1"][1]
    s.explorers[1][0] = DATA.island_index["IA2"][1]
    push(s, 0, ("explore", 2))
    assert {m["space"] for m in moves(s, type="explore")} == {"IA3", "IA4"}


def test_golden_ribbon_first_only_and_island_end() -> None:
    """Only the first explorer across a golden ribbon scores it; first at the end +3."""
    s = started(2)
    s.explorers[0][0] = DATA.island_index["IA3"][1]
    s.explorers[1][0] = DATA.island_index["IA3"][1]
    push(s, 0, ("explore", 1))
    do(s, type="explore", island="A", space="IA4")
    assert s.vp[0] == 1
    finish_turn(s)
    s.stack.clear()
    push(s, 1, ("explore", 2))
    do(s, type="explore", island="A", space="IA8")
    assert s.vp[1] == 0
    s.stack.clear()
    s.explorers[0][2] = DATA.island_index["IC9"][1]
    push(s, 0, ("explore", 1))
    vp = s.vp[0]
    do(s, type="explore", island="C", space="IC10")
    assert s.vp[0] == vp + 8 + 3


def test_campsite_cost_actions_and_tent_reward() -> None:
    """A tent pays its slot, gives the slot's actions, then the personal-board reward."""
    s = started(2)
    s.tents[0] = 1  # the next tent removed reveals "+2 coins"
    s.campsites["O12"][0] = 1
    s.coins[0] = 5
    push(s, 0, ("campsite", "O12"))
    do(s, type="tent", campsite="O12")
    assert s.campsites["O12"] == [1, 0]
    assert s.coins[0] == 5 - 3  # slot 2 costs 3
    assert s.stack[-1][0] == "correspond"  # slot 2's "correspondence 3"
    do(s, type="skip")
    assert s.coins[0] == 5 - 3 + 2  # then the personal-board tent reward: +2 coins


def test_tent_reward_choice() -> None:
    """The 3rd tent's reward is navigate 1 or explore 1, not both."""
    s = started(2)
    s.tents[0] = 2
    push(s, 0, ("campsite", "IA4"))
    do(s, type="tent", campsite="IA4")
    while s.stack[-1][0] != "choice":
        do(s, type="skip")
    do(s, type="choose", option=0)
    assert s.stack[-1][0] == "navigate"


def test_correspondence_one_envelope_empty_stack_reward_and_tray() -> None:
    """Stamps from any stacks go to one envelope; an emptied stack gives its action."""
    s = started(2)
    s.stamps[0] = [1, 4, 4]
    push(s, 0, ("correspond", 2, False))
    do(s, type="stamp", envelope=2, stack=0)
    assert {m["envelope"] for m in moves(s, type="stamp")} == {2}
    do(s, type="stamp", envelope=2, stack=1)
    assert s.envelopes[2][0] == 2
    assert s.stack[-1][0] == "explore"  # stack 1 emptied: explore 2
    s2 = started(2)
    s2.stamps[0] = [0, 0, 0]
    s2.tray[0] = 3
    s2.envelopes[0][0] = 9
    push(s2, 0, ("correspond", 2, False))
    do(s2, type="stamp", envelope=1, stack=3)
    assert s2.tray[0] == 2


def test_deliver_green_reptile_known_answer() -> None:
    """Rulebook p.16: the green reptile gains 2 evolution steps and 4 coins."""
    s = started(2)
    s.museum = (1 << 2) | (1 << 8)  # green bird (same row) and red reptile (same column)
    s.museum_coins[0] = False
    s.research[0] = 1 << 0
    s.coins[0] = 0
    do(s, type="place", worker=0, location="deliver")
    do(s, type="deliver", specimen=0)
    assert (s.coins[0], s.evo[0]) == (4, 2)


def test_deliver_first_and_last_in_row_and_second_costs_three() -> None:
    """The first delivery of a row takes its coin; the last advances 1; a second costs 3."""
    s = started(2)
    s.museum = 0b0110  # green plant and bird
    s.research[0] = 0b1001 | (1 << 4)
    s.coins[0] = 0
    do(s, type="place", worker=0, location="deliver")
    # row: plant and bird filled (2 steps), fossil empty (1 coin); column: 3 empty (3 coins);
    # and the row's coin (first delivery of the row)
    do(s, type="deliver", specimen=0)
    assert (s.coins[0], s.evo[0]) == (5, 2)
    do(s, type="deliver", specimen=3)  # completes the row: 3 row steps + 1 last; column 3 coins
    assert s.coins[0] == 5 - 3 + 3 and s.evo[0] == 2 + 3 + 1
    assert not moves(s, type="deliver")


def test_research_from_museum_second_costs_three() -> None:
    """Research from the museum: the first free, the second 3 coins."""
    s = started(2)
    s.museum = 0b111
    s.coins[0] = 3
    do(s, type="place", worker=0, location="research")
    do(s, type="research", specimen=0)
    do(s, type="research", specimen=1)
    assert s.coins[0] == 0 and s.research[0] == 0b11


def test_reserve_turn_order_coins_and_turn_order_phase() -> None:
    """The reserve spot pays 3 coins with 2 players (2 with 3); the order follows the spots."""
    s = started(3)
    s.order = [0, 1, 2]
    coins = s.coins[2]
    s.turn = 2
    do(s, type="place", worker=0, location="turn_order")
    assert s.coins[2] == coins + 2
    ev: list[dict[str, Any]] = []
    rules._end_action_phase(s, ev)
    assert s.order == [2, 0, 1]
    s2 = started(2)
    do(s2, type="place", worker=0, location="turn_order")
    assert s2.coins[0] == 7


def test_gain_objective_reserve_then_slot_with_cost() -> None:
    """Objectives go to a reserve of 2, then onto an empty slot of their colour, paying it."""
    s = started(2)
    s.reserve[0] = [1, 13]
    s.obj_display = [[5], [17]]
    s.coins[0] = 5
    push(s, 0, ("objective",))
    slots = {m["slot"] for m in moves(s, type="objective", tile=17)}
    assert slots == {5, 6, 7, 8, 9}
    do(s, type="objective", tile=17, slot=5)
    assert s.coins[0] == 0 and s.obj_slots[0][5] == 17 and s.obj_display[1] == []


# ---------------------------------------------------------------- objectives and crew cards

def test_fulfil_objective_from_reserve_pays_slot_and_rewards() -> None:
    """Fulfilling from the reserve pays the slot; the slot's reward follows."""
    s = started(2)
    s.reserve[0] = [13]
    s.research[0] = (1 << 2) | (1 << 6)  # two birds
    s.lenses[0] = 2
    s.coins[0] = 6
    s.home[0] = [0]
    do(s, type="fulfil_objective", tile=13, slot=5)
    assert s.coins[0] == 1 and s.worker5[0] and 4 in s.home[0]
    assert s.obj_slots[0][5] == -13


def test_objective_slot_rewards() -> None:
    """Each slot's immediate reward: tent, research on your island, purple seal."""
    s = started(2)
    s.campsites["IB4"][0] = 0
    s.tents[0] = 1
    s.obj_slots[0][0] = 2
    s.stamps[0][0] = 0
    s.research[0] = 1
    rules.fulfil_objective(s, 0, 2, 0, [])
    rules.settle(s, [])
    evo = s.evo[0]
    do(s, type="reactivate", campsite="IB4")
    assert s.evo[0] == evo + 3
    s.specimens = {"IA5": 7, "IB2": 9}
    rules.fulfil_objective(s, 0, 4, 2, [])
    rules.settle(s, [])
    assert {m["specimen"] for m in moves(s, type="research")} == {7}
    do(s, type="research", specimen=7)
    rules.fulfil_objective(s, 0, 14, 6, [])
    rules.settle(s, [])
    do(s, type="purple", worker=3)
    assert s.seals[0][3][-1] == "P"


def test_crew_card_needs_one_row_purple_counts_knowledge_does_not() -> None:
    """A crew card needs its seals on one worker row; purple counts, knowledge does not."""
    s = started(2)
    s.crew[0] = [[1, -1]]
    s.seals[0][1] = ["B", "B", "Y", "Y"]
    s.seals[0][2] = ["G"]
    s.tk[0] = 5
    assert not moves(s, type="fulfil_crew")
    s.seals[0][1].append("P")
    do(s, type="fulfil_crew", card=1, worker=1)
    assert s.coins[0] == 12 and s.crew[0] == [[1, 1]]
    s.crew[0].append([14, -1])
    s.seals[0][1] = ["G", "G", "R", "B", "B"]
    assert not moves(s, type="fulfil_crew")  # the row already fulfilled a card


CREW_EFFECTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]


@pytest.mark.parametrize("card", CREW_EFFECTS)
def test_each_crew_card(card: int) -> None:
    """Every crew card's action does what its text says."""
    s = started(2)
    s.crew[0] = [[card, -1], [3, -1]]
    s.seals[0][1] = ["P"] * 5
    s.coins[0] = 10
    s.tk[0] = 1
    s.obj_display = [[5], [17]]
    s.reserve[0] = [1]
    do(s, type="fulfil_crew", card=card, worker=1)
    c, vp, evo, tk = s.coins[0], s.vp[0], s.evo[0], s.tk[0]
    top = s.stack[-1][0] if s.stack else None
    if card == 1:
        assert c == 18
    elif card == 2:
        assert top == "acts" or top == "explore"
        do(s, type="explore", island="A", space="IA2")
        assert s.stack[-1][0] in ("explore", "acts")
    elif card == 3:
        assert evo == 5
    elif card == 4:
        do(s, type="explorer", island="B")
        assert s.explorers[0][1] == 0
    elif card == 5:
        do(s, type="unlock", location="special.3")
        assert s.coins[0] == 10 and s.loc_owner["special.3"] == 0
    elif card == 6:
        for e in (0, 1, 2, 0):
            do(s, type="stamp", envelope=e, stack=0)
        assert [x[0] for x in s.envelopes] == [2, 1, 1]
    elif card == 7:
        assert {m["card"] for m in moves(s, type="copy")} == {3}
        do(s, type="copy", card=3)
        assert s.evo[0] == 5
    elif card == 8:
        s.stack.clear()
        s.beagle = 2
        s.crew[0] = [[8, -1]]
        s.seals[0][2] = ["P"] * 5
        do(s, type="fulfil_crew", card=8, worker=2)
        do(s, type="beagle")
        assert s.ship[0] == DATA.beagle_spaces[2] and s.explorers[0][1] == 0
    elif card == 9:
        assert top == "locked"
        do(s, type="locked", location="academy.3")
        assert s.stack[-1][:3] == ("acts", 0, (("academy", 0), ("academy", 3)))
        assert s.loc_owner["academy.3"] == -1
    elif card == 10:
        do(s, type="tent", campsite="IC3")
        assert s.campsites["IC3"][0] == 0 and s.vp[0] == 8
    elif card == 11:
        do(s, type="purple", worker=2)
        assert s.seals[0][2] == ["P"] and s.coins[0] == 10
    elif card == 12:
        do(s, type="research", specimen=15)
        assert s.research[0] >> 15 & 1
    elif card == 13:
        assert tk == 3 and vp == 3
    elif card == 14:
        assert vp == 8
    elif card == 15:
        assert [m["type"] for m in GAME.legal_moves(s)][0] == "objective"
        assert not moves(s, type="auto_fulfil")  # in order: the objective first
        do(s, type="objective", tile=17, slot=-1)
        do(s, type="auto_fulfil", tile=17, slot=9)
        assert s.obj_slots[0][9] == -17
    elif card == 16:
        assert (evo, tk, c) == (2, 2, 13)


@pytest.mark.parametrize("tile", range(1, 13))
def test_each_special_tile(tile: int) -> None:
    """Every special action tile: seals checked, its action performed, silver bonus 2 coins."""
    s = started(2)
    s.special[0] = tile
    s.seals[0][1] = ["P", "P", "P", "P"]  # any tile's seals; silver distinction: +2 coins
    s.coins[0] = 10
    s.tk[0] = 1
    s.museum = 1 << 4
    s.research[0] = 1 << 4
    s.obj_display = [[5], [17]]
    assert moves(s, type="place", worker=1, location="special.0", knowledge=0)
    do(s, type="place", worker=1, location="special.0")
    c, evo, tk = s.coins[0], s.evo[0], s.tk[0]
    if tile == 1:
        do(s, type="deliver", specimen=4)  # again: 6 empty spaces and the row coin
        assert s.coins[0] == c + 7 and s.evo[0] == 0
    elif tile == 2:
        assert evo == 3 and c == 12
    elif tile == 3:
        do(s, type="convert", into="vp")
        assert s.vp[0] == 7 and s.tk[0] == 0
    elif tile == 4:
        assert tk == 2 and c == 15
    elif tile == 5:
        do(s, type="explorer", island="C")
        assert s.explorers[0][2] == 0
    elif tile == 6:
        do(s, type="locked", location="navigate.3")
        assert s.stack[-1][:3] == ("navigate", 0, 4)
    elif tile == 7:
        do(s, type="purple", worker=1)
        assert s.seals[0][1][-1] == "P" and s.coins[0] == 12
    elif tile == 8:
        do(s, type="unlock", location="correspond.2")
        assert s.coins[0] == 12 and s.lenses[0] == 1
    elif tile == 9:
        do(s, type="research", specimen=11)
        assert s.research[0] >> 11 & 1
    elif tile == 10:
        assert {m["type"] for m in GAME.legal_moves(s)} >= {"act", "done"}
        do(s, type="act", index=1)
        do(s, type="navigate", space="O2")
        do(s, type="explore", island="A", space="IA2")
    elif tile == 11:
        do(s, type="tent", campsite="O19", slot=1)  # slot 2: cost 5, 5 points
        assert s.coins[0] == 12 - 5 and s.vp[0] == 5
    elif tile == 12:
        do(s, type="objective", tile=5, slot=-1)
        do(s, type="auto_fulfil", tile=5, slot=4)
        assert s.obj_slots[0][4] == -5


def test_special_tile_requirements() -> None:
    """A worker without the tile's seals (and no knowledge) cannot use it."""
    s = started(2)
    s.special[0] = 6  # needs R2 B2
    s.seals[0][1] = ["R", "B"]
    s.tk[0] = 1
    assert not moves(s, type="place", worker=1, location="special.0")
    s.tk[0] = 2
    assert moves(s, type="place", worker=1, location="special.0", knowledge=2)


# ---------------------------------------------------------------- rewards, cleanup, scoring

def test_correspondence_majorities_known_answer() -> None:
    """Rulebook p.23: tied firsts both rewarded, second still paid, half rounded up discarded."""
    s = started(3)
    s.corr = [1, 7, 7]
    s.envelopes = [[3, 3, 1], [0, 0, 0], [0, 0, 0]]
    s.home = [[], [], []]
    s.coins = [0, 0, 0]
    s.tk = [0, 0, 0]
    s.goals[0] = 12  # tents: nobody scores
    s.stack.clear()
    ev: list[dict[str, Any]] = []
    rules._end_action_phase(s, ev)
    rules.settle(s, ev)
    assert s.tk == [1, 1, 0]
    assert s.coins == [2, 2, 2]
    assert s.envelopes[0] == [1, 1, 0] and s.tray == [2, 2, 1]


def test_beagle_goal_known_answer_and_delay_cap() -> None:
    """Rulebook p.24: 3 red seals = 12 points, two tiers behind = -7, 5 scored; capped: -4."""
    s = started(2)
    s.goals[3] = 2
    s.beagle = 3
    s.seals[0][1] = ["R", "R", "R"]
    s.ship[0] = DATA.ocean_index["O5"]
    assert rules.beagle_points(s, 0) == (12, 7)
    s.obj_slots[0][8] = -21
    assert rules.beagle_points(s, 0) == (12, 4)
    s.seals[0][1] = ["R"]
    s.obj_slots[0][8] = 0
    ev: list[dict[str, Any]] = []
    vp = s.vp[0]
    rules._auto_beagle(s, ("beagle", -1), ev)
    assert s.vp[0] == vp  # 4 - 7 is never below 0


def test_evolution_scoring_known_answer() -> None:
    """Rulebook p.25: 2 complete museum rows (modifier 4) x 9 books = 36."""
    s = started(2)
    s.museum = 0xFF
    s.evo[0] = 15
    assert scoring.breakdown(s, 0)["evolution"] == 36
    s.obj_slots[0][3] = -6
    assert scoring.breakdown(s, 0)["evolution"] == 40


def test_final_scoring_known_answer() -> None:
    """Rulebook p.25: objectives A-F (silver 1+1+2+5, gold 4+8, pair 4, tents 5, 3+3, 7)."""
    s = started(2)
    s.obj_slots[0] = [-1, -2, -3, 0, -4, -13, 0, 0, 0, -14]
    s.tents[0] = 5
    s.seals[0][1] = ["G"] * 5
    s.seals[0][2] = ["B"] * 6
    s.vp[0], s.coins[0], s.tk[0], s.evo[0] = 0, 0, 0, 0
    parts = scoring.breakdown(s, 0)
    assert parts["objectives"] == 1 + 1 + 2 + 5 + 4 + 8
    assert parts["objective_pair"] == 4 and parts["tents"] == 5
    assert parts["workers"] == 3 + 3 + 7
    s.coins[0], s.tk[0] = 14, 2
    parts = scoring.breakdown(s, 0)
    assert parts["coins"] == 2 and parts["knowledge"] == 2


def test_tie_breaks() -> None:
    """Ties: more evolution wins, then more coins, else shared."""
    s = started(2)
    s.phase = "over"
    s.vp = [10, 10]
    s.evo = [3, 3]
    s.coins = [2, 4]
    res = GAME.result(s)
    assert res["ranking"] == [1, 0] and res["winners"] == [1]
    s.coins = [4, 4]
    assert GAME.result(s)["winners"] == [0, 1]


def test_cleanup_beagle_workers_objectives_academy() -> None:
    """Cleanup: Beagle moves, workers return, 2+2 new objectives, academy shifts up and refills."""
    s = started(2)
    s.academy = ["G", "", "B",
                 "", "Y", "",
                 "R", "R", "",
                 "G", "G", "G"]
    s.home[0] = []
    s.loc_workers["explore.1"] = [0]
    display = [list(d) for d in s.obj_display]
    bag = len(s.seal_bag)
    ev: list[dict[str, Any]] = []
    rules.cleanup(s, ev)
    assert s.beagle == 1 and s.round == 2 and s.home[0] == [0, 1, 2, 3]
    assert s.loc_workers["explore.1"] == []
    assert all(len(d) == 2 for d in s.obj_display) and s.obj_gone == display[0] + display[1]
    assert s.academy[:3] == ["R", "Y", "G"] and s.academy[3:5] == ["G", "R"]
    assert s.academy[7] == "G"
    assert all(s.academy) and len(s.seal_bag) == bag - 6
    assert s.box_seals[-2:] == ["G", "B"]


def test_draft_keeps_three_and_seals_follow_crew() -> None:
    """Regular setup: deal 4, keep 1, pass left, 3 kept; each worker gets one crew seal."""
    s = GAME.new_game({"players": 3}, 21)
    for _ in range(9):
        assert GAME.legal_moves(s)[0]["type"] == "draft"
        GAME.apply(s, GAME.legal_moves(s)[-1])
    for p in range(3):
        cards = [c for c, _ in s.crew[p]]
        assert len(cards) == 3
        assert [s.seals[p][w + 1] for w in range(3)] == [[DATA.crew[c].seal] for c in cards]
    pickers = [GAME.to_act(s)]
    GAME.apply(s, GAME.legal_moves(s)[0])
    pickers.append(GAME.to_act(s))
    assert pickers == [s.order[2], s.order[1]]  # starting objectives in reverse turn order


def test_first_game_setup() -> None:
    """First game: special 7,8/1,9/5,12, correspondence 2,4,5, goals 7,4,10,8,9, crew 1-3..."""
    s = GAME.new_game({"players": 4, "first_game": True}, 3)
    assert s.special == [7, 8, 1, 9, 5, 12] and s.corr == [2, 4, 5]
    assert s.goals == [7, 4, 10, 8, 9]
    for i, p in enumerate(s.order):
        assert sorted(c for c, _ in s.crew[p]) == [3 * i + 1, 3 * i + 2, 3 * i + 3]
    assert s.loc_owner["special.0"] == s.loc_owner["special.1"] == -2
    assert len(s.specimens) == 16 and s.museum == 0
    s2 = GAME.new_game({"players": 2, "first_game": True}, 3)
    assert len(s2.specimens) == 10 and bin(s2.museum).count("1") == 6
    assert len(s2.seal_bag) + 12 + 6 == 48


def test_illegal_move_in_a_frame() -> None:
    """An explore to an unreachable space is refused."""
    s = started(2)
    push(s, 0, ("explore", 1))
    with pytest.raises(IllegalMove):
        GAME.apply(s, {"type": "explore", "island": "A", "space": "IA9", "stop": False})


def test_special_diary_sections_by_player_count() -> None:
    """Special diary: one section per page at every player count (p.8, issue 17)."""
    for players, penalty in ((3, 0), (4, 0)):
        s = started(players)
        s.special[0], s.special[1] = 2, 4
        s.seals[0][1] = ["P", "P"]
        s.seals[1][1] = ["P", "P"]
        do(s, type="place", worker=1, location="special.0")
        finish_turn(s)
        coins = s.coins[1]
        do(s, type="place", worker=1, location="special.1")
        assert s.coins[1] == coins - penalty + 3  # tile 4: +3 coins


def test_second_place_tie_with_four_players() -> None:
    """Two tied firsts and two tied seconds: all four rewarded."""
    s = started(4)
    s.corr = [7, 7, 7]
    s.envelopes = [[4, 4, 2, 2], [0, 0, 0, 0], [0, 0, 0, 0]]
    s.home = [[], [], [], []]
    s.goals[0] = 12
    s.vp = [0, 0, 0, 0]
    s.stack.clear()
    ev: list[dict[str, Any]] = []
    rules._end_action_phase(s, ev)
    rules.settle(s, ev)
    assert s.vp == [4, 4, 2, 2]
    assert s.envelopes[0] == [2, 2, 1, 1]


def test_tile_12_without_objectives_on_display_still_fulfils() -> None:
    """'Gain an objective, then fulfil': with nothing to gain, the fulfilment still comes."""
    s = started(2)
    s.obj_display = [[], []]
    s.reserve[0] = [2]
    s.stack = [("endturn", 0), ("acts", 0, (("objective",), ("auto_fulfil",)), True)]
    rules.settle(s, [])
    assert {m["type"] for m in GAME.legal_moves(s)} >= {"auto_fulfil"}
    s.obj_display = [[5], []]
    s.stack = [("endturn", 0), ("acts", 0, (("objective",), ("auto_fulfil",)), True)]
    rules.settle(s, [])
    assert "auto_fulfil" not in {m["type"] for m in GAME.legal_moves(s)}


def test_no_lens_left_no_unlock() -> None:
    """A player who used his 6 lenses cannot unlock."""
    s = started(2)
    s.lenses[0] = 6
    push(s, 0, ("unlock", True))
    assert not moves(s, type="unlock")


def test_rewards_window_offers_fulfilment() -> None:
    """During the Rewards phase a player who can fulfil something gets a window."""
    s = started(2)
    s.home = [[], []]
    s.reserve[0] = [4]  # a bird and a lens
    s.lenses[0] = 1
    s.research[0] = 1 << 2
    s.stack.clear()
    ev: list[dict[str, Any]] = []
    rules._end_action_phase(s, ev)
    rules.settle(s, ev)
    assert GAME.to_act(s) == 0
    assert {m["type"] for m in GAME.legal_moves(s)} == {"fulfil_objective", "pass"}
    do(s, type="fulfil_objective", tile=4, slot=4)
    assert s.obj_slots[0][4] == -4
