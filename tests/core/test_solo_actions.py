"""Solo rules, one scenario per paragraph: how Alfred resolves actions, rewards, cleanup."""

from __future__ import annotations

from typing import Any

from core import get_game
from core.darwins_journey import alfred, solo
from core.darwins_journey.alfred import AD, ALFRED, HUMAN
from core.darwins_journey.data import DATA
from tests.core.solo_helpers import do, rows, start

GAME = get_game("darwins-journey")


# ---------------------------------------------------------------- objective and knowledge

def test_gain_objective_discards_gold_first_and_always_moves_bonus() -> None:
    state = start()
    silver = state.obj_display[0][0]
    do(state, "objective")
    assert state.obj_display == [[silver], []] and state.alfred["bonus"] == 3
    do(state, "objective")
    assert state.obj_display == [[], []] and state.alfred["bonus"] == 5
    do(state, "objective")
    assert state.alfred["bonus"] == 7  # nothing to discard, the worker still moves
    assert state.reserve[ALFRED] == [] and not any(state.obj_slots[ALFRED])


def test_temporary_knowledge_becomes_3_coins() -> None:
    state = start()
    state.coins[ALFRED] = 1
    do(state, "tk", 2)
    assert state.coins[ALFRED] == 7 and state.tk[ALFRED] == 0


# ---------------------------------------------------------------- academy

def test_academy_row_left_of_bracket_first_then_right() -> None:
    state = start("white")  # brackets after 2 slots
    rows(state, "YR", "B", "G", "R")
    assert alfred.academy_row(state) == 1
    rows(state, "YR", "BG", "GB", "RY")
    assert alfred.academy_row(state) == 0
    rows(state, "YRGBYR", "BGRYBG", "GB", "RY")
    assert alfred.academy_row(state) == 2


def test_academy_priority_colour_from_cheapest_scroll() -> None:
    state = start()
    rows(state, "Y", "BG", "GB", "RY")
    state.academy = ["R", "Y", "G", "B", "B", "B", "G", "G", "G", "R", "R", "R"]
    state.coins[ALFRED] = 5
    assert alfred.academy(state, [])
    assert state.seals[ALFRED][0] == ["Y", "Y"] and state.academy[1] == ""
    assert state.coins[ALFRED] == 5  # scroll 1 costs nothing


def test_academy_never_a_4th_seal_of_a_colour_leftmost_instead() -> None:
    state = start()
    rows(state, "YYY", "BG", "GB", "RY")
    board = AD.boards["white"]["rows"]
    assert board[0]["bracket"] == 2  # row A is past its bracket: make every row full on the left
    state.academy = ["Y", "R", "Y", "B", "B", "B", "G", "G", "G", "R", "R", "R"]
    assert alfred.academy(state, [])
    assert state.seals[ALFRED][0] == ["Y", "Y", "Y", "R"]  # "Exemplo": the red one


def test_academy_next_scroll_when_cheapest_only_has_4th_colours() -> None:
    state = start()
    rows(state, "YYY", "BG", "GB", "RY")
    state.academy = ["Y", "", "Y", "B", "G", "R", "G", "G", "G", "R", "R", "R"]
    state.coins[ALFRED] = 2
    assert alfred.academy(state, [])
    assert state.seals[ALFRED][0] == ["Y", "Y", "Y", "B"]
    assert state.coins[ALFRED] == 2 - 1 + 2  # the second scroll costs 1; white slot 4: 2 coins


def test_academy_cannot_pay_or_nothing_valid() -> None:
    state = start()
    rows(state, "YYY", "BG", "GB", "RY")
    state.academy = ["", "", "", "Y", "Y", "Y", "G", "", "", "", "", ""]
    state.coins[ALFRED] = 1
    assert not alfred.academy(state, [])  # green needs scroll 3 (2 coins)
    state.academy = ["Y", "Y", "", "", "", "", "", "", "", "", "", ""]
    state.coins[ALFRED] = 9
    assert not alfred.academy(state, [])


def test_academy_free_seal_takes_priority_colour_from_any_scroll() -> None:
    state = start()
    rows(state, "GY", "BG", "GB", "RY")  # full left of brackets: row A (green) receives
    state.academy = ["R", "B", "Y", "B", "B", "B", "Y", "G", "Y", "R", "R", "R"]
    state.coins[ALFRED] = 0
    do(state, "free_seal")
    assert state.seals[ALFRED][0] == ["G", "Y", "G"] and state.academy[7] == ""
    assert state.coins[ALFRED] == 0
    rows(state, "GGG", "BG", "GB", "RY")
    do(state, "free_seal")
    assert state.seals[ALFRED][0] == ["G", "G", "G", "R"]  # leftmost of the top scroll


def test_academy_seal_on_a_slot_action_does_it() -> None:
    state = start("white")  # white: slot 4 of every row gives 2 coins
    rows(state, "YRG", "BG", "GB", "RY")
    state.academy = ["B"] * 12
    state.coins[ALFRED] = 0
    assert alfred.academy(state, [])
    assert len(state.seals[ALFRED][0]) == 4 and state.coins[ALFRED] == 2


def test_academy_location_discount() -> None:
    state = start()
    rows(state, "YYY", "BG", "GB", "RY")
    state.academy = ["", "", "", "", "", "", "G", "", "", "", "", ""]
    state.coins[ALFRED] = 0
    assert alfred.academy(state, [], discount=3)
    assert state.seals[ALFRED][0][-1] == "G"


# ---------------------------------------------------------------- correspondence

def test_stamps_come_from_the_topmost_stack() -> None:
    state = start()
    state.stamps[ALFRED] = [1, 4, 4]
    do(state, "correspond", 3, False)
    assert state.stamps[ALFRED] == [0, 2, 4]


def test_envelope_1_steal_first_place_from_the_player() -> None:
    state = start()
    state.envelopes = [[1, 0], [2, 0], [0, 0]]
    do(state, "correspond", 3, False)
    assert [e[ALFRED] for e in state.envelopes] == [3, 0, 0]  # top one where 3 > player's
    state.envelopes = [[5, 0], [2, 0], [0, 0]]
    do(state, "correspond", 3, False)
    assert [e[ALFRED] for e in state.envelopes] == [0, 3, 0]  # "Exemplo": the second


def test_envelope_2_topmost_without_alfred_then_3_fewest() -> None:
    state = start()
    state.envelopes = [[0, 0], [1, 3], [0, 0]]
    do(state, "correspond", 2, False)
    assert [e[ALFRED] for e in state.envelopes] == [2, 3, 0]
    state.envelopes = [[0, 2], [0, 1], [0, 1]]
    do(state, "correspond", 2, False)
    assert [e[ALFRED] for e in state.envelopes] == [2, 3, 1]


def test_emptied_stack_performs_its_icon() -> None:
    state = start()
    state.stamps[ALFRED] = [0, 1, 4]
    state.coins[ALFRED] = 0
    state.academy = ["B"] * 12
    seals = sum(len(r) for r in state.seals[ALFRED])
    do(state, "correspond", 2, False)
    assert state.stamps[ALFRED] == [0, 0, 3]
    assert sum(len(r) for r in state.seals[ALFRED]) == seals + 1  # stack 2: free academy
    assert AD.stamp_actions[1] == (("free_seal",),)


def test_stamps_from_the_tray_when_stacks_are_empty() -> None:
    state = start()
    state.stamps[ALFRED] = [0, 0, 0]
    state.tray[ALFRED] = 1
    do(state, "correspond", 2, False)
    assert state.tray[ALFRED] == 0 and sum(e[ALFRED] for e in state.envelopes) == 1


def test_prolific_correspondence_one_stamp_each() -> None:
    state = start()
    do(state, "prolific")
    assert [e[ALFRED] for e in state.envelopes] == [1, 1, 1]
    assert state.stamps[ALFRED] == [1, 4, 4]


# ---------------------------------------------------------------- navigation

def test_navigation_full_distance_longest_route() -> None:
    state = start()
    do(state, "navigate", 3)
    assert state.ship[ALFRED] == 3  # O0 -> O1 -> O2 -> O3, not the O1 -> O3 shortcut
    assert state.explorers[ALFRED][0] == 0


def test_navigation_does_every_passed_action_in_order_and_silver_bands() -> None:
    state = start()
    state.ship[ALFRED] = 5
    state.coins[ALFRED] = 0
    events = do(state, "navigate", 5)  # O6 campsite, O7, O8 band B, O9, O10 coins 4
    assert state.ship[ALFRED] == 10
    assert state.campsites["O6"][0] == ALFRED  # free slot, then objective + 3 coins
    assert state.explorers[ALFRED][1] == 0
    # "Apos avancar, o Navio realiza todas as acoes ... na ordem em que foram cruzadas"
    order = [e["type"] for e in events if e["type"] in ("tent", "navigate")
             or (e["type"] == "coins" and e.get("n") == 4)]
    assert order.index("tent") > max(i for i, t in enumerate(order) if t == "navigate")
    assert order.index("tent") < order.index("coins")


def test_navigation_excess_lost_at_the_end() -> None:
    state = start()
    state.ship[ALFRED] = 24
    do(state, "navigate", 4)
    assert state.ship[ALFRED] == 26


# ---------------------------------------------------------------- exploration

def test_exploration_rightmost_explorer_full_distance_research_and_last_two() -> None:
    state = start()
    state.explorers[ALFRED] = [0, 0, -1]
    state.specimens["IB2"] = 7
    vp, coins = state.vp[ALFRED], state.coins[ALFRED]
    do(state, "explore", 3)  # island B: IB1 coins 5, IB2 specimen + ribbon 2, IB3 objective vp 4
    assert state.explorers[ALFRED] == [0, 3, -1]
    assert state.research[ALFRED] >> 7 & 1
    assert state.vp[ALFRED] == vp + 2 + 4  # ribbon + the last two actions (objective, 4 VP)
    assert state.coins[ALFRED] == coins  # IB1's coins are not among the last two
    assert state.alfred["bonus"] == 3  # the objective action: discard + 2 steps


def test_exploration_skips_a_research_action_among_the_last_two() -> None:
    state = start()
    state.explorers[ALFRED] = [0, 0, -1]
    state.specimens["IB2"] = 7
    coins = state.coins[ALFRED]
    do(state, "explore", 2)  # last two: coins 5 (IB1), research (IB2, already done)
    assert state.coins[ALFRED] == coins + 5 and state.research[ALFRED] >> 7 & 1


def test_exploration_falls_back_to_the_next_island_and_loses_excess() -> None:
    state = start()
    end_b = len(DATA.islands[1]) - 1
    state.explorers[ALFRED] = [22, end_b, -1]
    do(state, "explore", 4)
    assert state.explorers[ALFRED] == [24, end_b, -1]


def test_exploration_skips_occupied_spaces() -> None:
    state = start()
    state.explorers[ALFRED] = [0, 0, -1]
    state.explorers[HUMAN] = [0, 1, -1]
    do(state, "explore", 1)
    assert state.explorers[ALFRED][1] == 2


def test_exploration_longest_route() -> None:
    state = start()
    state.explorers[ALFRED] = [11, -1, -1]
    do(state, "explore", 2)
    assert state.explorers[ALFRED][0] == 14  # IA11 -> IA13 -> IA14, not IA12


# ---------------------------------------------------------------- campsites and explorers

def test_campsite_cheapest_slot_then_actions_and_tent_icon() -> None:
    state = start()
    state.coins[ALFRED] = 5
    state.tents[ALFRED] = 1  # the next tent uncovers 2 coins
    state.campsites["IA4"] = [-1, -1]
    do(state, "campsite", "IA4")
    assert state.campsites["IA4"] == [ALFRED, -1]
    assert state.coins[ALFRED] == 7 and sum(e[ALFRED] for e in state.envelopes) == 2


def test_campsite_skipped_when_unaffordable_full_or_no_tents() -> None:
    state = start()
    state.coins[ALFRED] = 0
    state.campsites["IC3"] = [-1, -1]
    events = do(state, "campsite", "IC3")
    assert state.campsites["IC3"] == [-1, -1] and not events
    state.coins[ALFRED] = 9
    state.tents[ALFRED] = 5
    do(state, "campsite", "IC3")
    assert state.campsites["IC3"] == [-1, -1] and state.coins[ALFRED] == 9


def test_add_explorer_leftmost_island_without_one() -> None:
    state = start()
    state.explorers[ALFRED] = [3, -1, -1]
    do(state, "add_explorer")
    assert state.explorers[ALFRED] == [3, 0, -1]
    do(state, "add_explorer")
    do(state, "add_explorer")
    assert state.explorers[ALFRED] == [3, 0, 0]


# ---------------------------------------------------------------- rewards and cleanup

def test_alfred_correspondence_reward() -> None:
    state = start()
    state.corr = [2, 3, 8]
    coins, evo = state.coins[ALFRED], state.evo[ALFRED]
    solo.alfred_reward(state, 0, 1)
    solo.alfred_reward(state, 1, 2)
    assert state.coins[ALFRED] == coins + 4 and state.evo[ALFRED] == evo + 1
    state.explorers[ALFRED] = [0, -1, -1]
    solo.alfred_reward(state, 2, 2)  # explore 1 (he can move an explorer)
    assert state.explorers[ALFRED][0] == 1


def test_alfred_beagle_value_times_round_minus_delay() -> None:
    state = start("blue")
    value = AD.boards["blue"]["beagle"]
    state.round, state.beagle = 2, 1
    state.ship[ALFRED] = DATA.beagle_spaces[1]
    assert solo.alfred_beagle(state) == value * 2
    state.ship[ALFRED] = 0
    delay = DATA.delay_penalties[0] + DATA.delay_penalties[1]
    assert solo.alfred_beagle(state) == max(0, value * 2 - delay)
    state.round = 5
    assert solo.alfred_beagle(state) == value * 5 - delay


def test_rewards_and_cleanup_of_a_round() -> None:
    state = start("green")
    vp_before = None
    while state.round == 1:
        seat = GAME.to_act(state)
        if state.phase == "rewards" and vp_before is None:
            vp_before = state.vp[ALFRED]
        GAME.apply(state, GAME.legal_moves(state)[-1 if seat == HUMAN else 0])
    assert [len(d) for d in state.obj_display] == [1, 1]
    assert state.alfred["rest"] == [] and state.home[ALFRED] == [0, 1, 2, 3]
    assert state.alfred["card"] is None


def test_bonus_card_row_follows_the_round() -> None:
    state = start("blue")
    state.alfred["bonus_cards"] = ["B1", "B2"]
    state.round = 5
    state.alfred["bonus"] = 4
    vp = state.vp[ALFRED]
    alfred.bonus_steps(state, 1, [])
    assert state.vp[ALFRED] == vp + 4  # B1's round-5 row: 4 VP


def test_rewards_phase_pays_alfred_majority_and_beagle_formula() -> None:
    from core.darwins_journey import rules

    state = start("white")
    state.corr = [2, 7, 3]
    state.envelopes = [[0, 3], [0, 0], [0, 0]]
    state.stamps[ALFRED] = [1, 4, 4]
    state.home = [[], []]
    coins, vp = state.coins[ALFRED], state.vp[ALFRED]
    events: list[dict[str, Any]] = []
    rules.next_turn(state, events)
    rules.settle(state, events)
    assert state.coins[ALFRED] == coins + 4  # tile 2, first place
    assert state.envelopes[0][ALFRED] == 1 and state.tray[ALFRED] == 2  # half, rounded up
    beagle = AD.boards["white"]["beagle"] * 1 - DATA.delay_penalties[0]  # ship behind the Beagle
    assert state.vp[ALFRED] == vp + max(0, beagle)
    assert state.round == 2 and GAME.to_act(state) == ALFRED
