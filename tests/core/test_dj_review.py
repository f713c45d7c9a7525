"""Rules review of Darwin's Journey (issue 2): rules the first tests did not pin down."""

from __future__ import annotations

from typing import Any

from core.darwins_journey import effects as fx
from core.darwins_journey import rules
from core.darwins_journey.data import DATA
from tests.core.test_dj_rules import GAME, do, finish_turn, moves, push, started


def rewards_stack(s: Any) -> list[str]:
    """The Rewards-phase frame kinds from the top of the stack down."""
    return [f[0] for f in reversed(s.stack)]


# ---------------------------------------------------------------- simplifications removed

def test_move_to_beagle_is_a_choice_forward_and_back() -> None:
    """Crew 8: move to the Beagle (bands place explorers), or decline; back when ahead."""
    s = started(2)
    s.beagle = 2
    push(s, 0, ("move_to_beagle",))
    assert {m["type"] for m in GAME.legal_moves(s)} == {"beagle", "skip"}
    do(s, type="beagle")
    assert s.ship[0] == DATA.beagle_spaces[2] and s.explorers[0][1] == 0
    s.stack.clear()
    push(s, 0, ("move_to_beagle",))  # already there: nothing to decide
    assert not moves(s, type="beagle")
    s.stack.clear()
    s.ship[0] = DATA.ocean_index["O12"]
    push(s, 0, ("move_to_beagle",))  # ahead of the Beagle: back to it (issue 17)
    do(s, type="beagle")
    assert s.ship[0] == DATA.beagle_spaces[2]


def test_worker_tied_to_a_crew_card_is_not_interchangeable() -> None:
    """Same seals, but one row already fulfilled a crew card: both workers are offered."""
    s = started(2)
    s.seals[0][1] = ["G", "B"]
    s.seals[0][2] = ["B", "G"]
    s.tk[0] = 0
    assert {m["worker"] for m in moves(s, type="place", location="explore.1")} == {0, 1}
    s.crew[0] = [[14, 2]]
    assert {m["worker"] for m in moves(s, type="place", location="explore.1")} == {0, 1, 2}


def test_academy_seal_position_matters_only_when_columns_differ() -> None:
    """Two same-colour seals of a scroll: one move if their columns are equal, else both."""
    s = started(2)
    s.coins[0] = 10
    s.academy = ["G", "G", "Y", "R", "B", "B", "B", "R", "Y", "Y", "Y", "G"]
    push(s, 0, ("academy", 0))
    assert {m["position"] for m in moves(s, type="seal", scroll=0, colour="G", worker=1)} == {0, 1}
    s.stack.clear()
    s.academy = ["G", "G", "Y", "R", "R", "B", "B", "B", "Y", "Y", "Y", "G"]  # columns 0 = 1
    push(s, 0, ("academy", 0))
    assert len(moves(s, type="seal", scroll=0, colour="G", worker=1)) == 1
    assert len(moves(s, type="seal", scroll=1, colour="R", worker=1)) == 1  # mirror columns
    do(s, type="seal", scroll=2, position=2, colour="Y", worker=1)
    assert s.academy[8] == "" and s.academy[6:8] == ["B", "B"]


def test_academy_3_two_seals_silver_extra_on_the_first() -> None:
    """Academy 3: a seal and a seal 3 coins cheaper; a silver worker adds one to the first."""
    s = started(2)
    s.loc_owner["academy.3"] = -2
    s.seals[0][1] = ["R", "R", "R", "G"]  # silver: one extra seal
    s.academy = ["G", "G", "G", "B", "B", "B", "Y", "Y", "Y", "R", "R", "R"]
    s.coins[0] = 10
    do(s, type="place", worker=1, location="academy.3")
    assert s.stack[-1][:3] == ("acts", 0, (("academy", 0, 1), ("academy", 3)))
    do(s, type="act", index=1)
    do(s, type="seal", scroll=3, colour="R", worker=2)  # 3 coins - 3
    assert s.coins[0] == 10
    do(s, type="seal", scroll=2, colour="Y", worker=2)  # then the first action: full price
    assert s.coins[0] == 8
    do(s, type="seal", scroll=1, colour="B", worker=3)  # and its extra seal
    assert s.coins[0] == 7 and s.seals[0][2] == ["R", "Y"] and s.seals[0][3] == ["B"]


def test_gold_discount_once_per_academy_action() -> None:
    """A gold worker's 1 coin less is shared by the seals of one academy action."""
    s = started(2)
    s.seals[0][1] = ["R", "G", "G", "G", "G", "G"]
    s.academy = ["G", "G", "G", "B", "B", "B", "Y", "Y", "Y", "R", "R", "R"]
    s.coins[0] = 10
    do(s, type="place", worker=1, location="academy.1")
    do(s, type="seal", scroll=0, colour="G", worker=2)  # free: the discount stays unused
    do(s, type="seal", scroll=1, colour="B", worker=2)  # 1 coin - 1
    assert s.coins[0] == 10


def test_tent_slots_with_the_same_icons_offer_the_cheapest() -> None:
    """Slots with equal icons: the cheapest open one; slots with their own icons: each."""
    for area in DATA.campsite_ids:
        costs = DATA.campsites[area].costs
        assert len(costs) == 2 and costs[0] <= costs[1]
    s = started(2)
    s.coins[0] = 5
    push(s, 0, ("campsite", "IA4"))
    assert [m["slot"] for m in moves(s, type="tent")] == [0]
    s.stack.clear()
    s.campsites["IA4"][0] = 1
    push(s, 0, ("campsite", "IA4"))
    assert [m["slot"] for m in moves(s, type="tent")] == [1]
    s.stack.clear()
    push(s, 0, ("campsite", "O12"))
    assert [m["slot"] for m in moves(s, type="tent")] == [0, 1]


# ---------------------------------------------------------------- timing

def test_rewards_phase_windows_before_each_envelope() -> None:
    """A window before each envelope, before and after the Beagle goal; rewards_end last."""
    s = started(2)
    s.home = [[], []]
    s.stack.clear()
    rules._end_action_phase(s, [])
    w = ["window", "window"]
    assert rewards_stack(s) == [*w, "envelope", *w, "envelope", *w, "envelope", *w, "beagle",
                                *w, "rewards_end"]
    assert [f[1] for f in reversed(s.stack) if f[0] == "envelope"] == [0, 1, 2]


def test_fulfil_between_envelopes_counts_for_the_next_majority() -> None:
    """Fulfilling after envelope 1 is scored may change envelope 2's majority."""
    s = started(2)
    s.corr = [7, 7, 7]
    s.home = [[], []]
    s.goals[0] = 12
    s.envelopes = [[0, 0], [0, 1], [0, 0]]
    s.crew[0] = [[6, -1]]  # distributed correspondence: 4 stamps anywhere
    s.seals[0][1] = ["Y", "Y", "Y", "Y", "B"]
    s.stack.clear()
    ev: list[dict[str, Any]] = []
    rules._end_action_phase(s, ev)
    rules.settle(s, ev)
    assert GAME.to_act(s) == 0
    do(s, type="pass")  # the window before envelope 1
    assert GAME.to_act(s) == 0 and ("envelope", 1) in s.stack[-3:]
    do(s, type="fulfil_crew", card=6, worker=1)
    for _ in range(2):
        do(s, type="stamp", envelope=1, stack=0)
    do(s, type="skip")
    while GAME.to_act(s) == 0 and s.phase == "rewards":
        do(s, type="pass")
    assert s.vp == [4, 2]  # first in envelope 2 with 2 stamps against 1


def test_no_fulfilment_between_two_stamps() -> None:
    """Inside one correspondence action fulfilling waits until the stamps are placed."""
    s = started(2)
    s.reserve[0] = [2]
    s.stamps[0] = [1, 4, 4]
    s.research[0] = 1  # a reptile: objective 2 needs an empty stack and a reptile
    push(s, 0, ("correspond", 3, False))
    assert not moves(s, type="fulfil_objective")
    do(s, type="stamp", envelope=0, stack=0)
    assert not moves(s, type="fulfil_objective")
    do(s, type="skip")
    # the emptied stack's reward (explore 2) is pending; the fulfilment is offered there
    assert moves(s, type="fulfil_objective", tile=2)


def test_tent_reward_comes_after_the_campsite_actions() -> None:
    """Rulebook p.15: campsite actions first, then the reward beside the removed tent."""
    s = started(2)
    s.tents[0] = 3  # the 4th tent: correspond 1 / academy with discount 2
    push(s, 0, ("campsite", "IA7"))
    do(s, type="tent", campsite="IA7")
    assert s.stack[-1][0] == "navigate"  # the campsite's navigation comes first
    do(s, type="skip")
    assert s.stack[-1][0] == "choice"


def test_first_and_second_rewards_in_order() -> None:
    """Tied firsts act in turn order, then the second; nobody's gain comes early."""
    s = started(3)
    s.order = [2, 0, 1]
    s.corr = [4, 7, 7]
    s.envelopes = [[3, 1, 3], [0, 0, 0], [0, 0, 0]]
    s.home = [[], [], []]
    s.goals[0] = 12
    s.stack.clear()
    ev: list[dict[str, Any]] = []
    rules._end_action_phase(s, ev)
    rules.settle(s, ev)
    seen = []
    for _ in range(3):
        seen.append(GAME.to_act(s))
        assert s.stack[-1][0] == "explore"
        do(s, type="skip")
    assert seen == [2, 0, 1]
    # p.23: all three declined their reward actions, so nobody discards (issue 17)
    assert s.envelopes[0] == [3, 1, 3] and s.tray == [0, 0, 0]


# ---------------------------------------------------------------- other rules

def test_locked_location_choice_skips_tile_6_itself() -> None:
    """'Perform a locked location' never offers a locked tile 6 (the same question again)."""
    s = started(2)
    s.special[3] = 6
    push(s, 0, ("locked",))
    offered = {m["location"] for m in moves(s, type="locked")}
    assert "special.3" not in offered and "explore.2" in offered


def test_repeat_delivery_of_a_setup_tile_takes_a_remaining_row_coin() -> None:
    """Repeat delivery is a first delivery again: the row coin only if nobody took it."""
    s = started(2)
    s.museum = 1 << 4  # blue reptile placed at setup
    s.research[0] = 1 << 4
    s.coins[0] = 0
    ev: list[dict[str, Any]] = []
    fx.deliver(s, 0, 4, ev, repeat=True)
    assert s.coins[0] == 6 + 1 and not s.museum_coins[1]
    fx.deliver(s, 0, 4, ev, repeat=True)
    assert s.coins[0] == 7 + 6


def test_last_tile_of_a_row_gives_one_more_step() -> None:
    """Completing a row: one step per filled space in row and column, +1 for the last."""
    s = started(2)
    s.museum = 0b0111 | (1 << 7)
    s.museum_coins[0] = False
    s.research[0] = 1 << 3
    ev: list[dict[str, Any]] = []
    fx.deliver(s, 0, 3, ev)
    assert s.evo[0] == 3 + 1 + 1  # 3 in the row, 1 in the column, last of the row


def test_tray_only_when_the_stacks_run_out() -> None:
    """Stamps come from the stacks; the used tray only once every stack is empty."""
    s = started(2)
    s.stamps[0] = [0, 1, 0]
    s.tray[0] = 3
    push(s, 0, ("correspond", 3, False))
    assert {m["stack"] for m in moves(s, type="stamp")} == {1}
    do(s, type="stamp", envelope=0, stack=1)
    assert {m["stack"] for m in moves(s, type="stamp")} == {3}
    do(s, type="stamp", envelope=0, stack=3)
    do(s, type="skip")
    assert s.envelopes[0][0] == 2 and s.tray[0] == 2
    assert s.stack[-1][0] == "academy"  # stack 2 emptied by this action: academy, discount 2


def test_ribbon_scores_when_passed_through() -> None:
    """A golden ribbon scores for the first explorer crossing it, stopping there or not."""
    s = started(2)
    s.explorers[0][0] = DATA.island_index["IA3"][1]
    push(s, 0, ("explore", 2))
    do(s, type="explore", island="A", space="IA5")
    assert s.vp[0] == 1 and "IA4" in s.ribbons


def test_start_and_end_spaces_hold_many_explorers() -> None:
    """Only the first and last island spaces may hold several explorers."""
    s = started(2)
    s.explorers[0][2] = DATA.island_index["IC9"][1]
    s.explorers[1][2] = DATA.island_index["IC10"][1]
    push(s, 0, ("explore", 1))
    assert {m["space"] for m in moves(s, type="explore", island="C")} == {"IC10"}
    s.stack.clear()
    s.explorers[1][2] = DATA.island_index["IC2"][1]
    s.explorers[0][2] = DATA.island_index["IC1"][1]
    push(s, 0, ("explore", 1))
    assert {m["space"] for m in moves(s, type="explore", island="C")} == {"IC3", "IC4"}


def test_objective_seal_requirement_counts_regular_seals_only() -> None:
    """Objectives: purple seals and knowledge never count as seals (p.21)."""
    s = started(2)
    s.reserve[0] = [10]  # 2 green seals and a green specimen
    s.research[0] = 1
    s.seals[0][1] = ["G", "P"]
    s.tk[0] = 3
    assert not moves(s, type="fulfil_objective")
    s.seals[0][2] = ["G"]
    assert moves(s, type="fulfil_objective", tile=10)


def test_round_five_skips_cleanup_and_ends() -> None:
    """After round 5's Rewards the game ends without a Cleanup."""
    s = started(2)
    s.round = 5
    s.beagle = 4
    s.home = [[], []]
    s.stack.clear()
    ev: list[dict[str, Any]] = []
    rules._end_action_phase(s, ev)
    rules.settle(s, ev)
    while s.phase != "over":
        do(s, type="pass")
    assert s.beagle == 4 and s.round == 5 and GAME.to_act(s) is None
    assert GAME.result(s)["finished"]


def test_reserve_turn_order_spots_and_several_workers() -> None:
    """Four spots (issue 17); a player on two spots counts his leftmost one."""
    s = started(2)
    s.home[0] = [0, 1]
    do(s, type="place", worker=0, location="turn_order")
    finish_turn(s)
    do(s, type="place", worker=0, location="deliver")
    finish_turn(s)
    do(s, type="place", worker=1, location="turn_order")
    assert s.reserved_order == [0, 0]
    finish_turn(s)
    assert moves(s, type="place", location="turn_order")  # 4 spots at every count
    ev: list[dict[str, Any]] = []
    s.order = [1, 0]
    rules._end_action_phase(s, ev)
    assert s.order == [0, 1]


def test_unlock_special_then_its_tile_free_use() -> None:
    """Unlocking a special location performs its tile at once, seals ignored (tile 8 chains)."""
    s = started(2)
    s.special[2] = 8
    s.coins[0] = 4
    push(s, 0, ("unlock", False))
    do(s, type="unlock", location="special.2")
    assert s.coins[0] == 0 and s.lenses[0] == 1
    do(s, type="unlock", location="explore.2")  # tile 8: an unlock without coins
    assert s.lenses[0] == 2 and s.stack[-1][:3] == ("explore", 0, 3)


def test_crew_7_copies_another_players_card() -> None:
    """Copy a crew card: any unfulfilled card in front of any player (p.18)."""
    s = started(2)
    s.crew[0] = [[7, -1]]
    s.crew[1] = [[14, -1], [1, 0]]
    s.seals[0][1] = ["R", "R", "B", "Y", "Y"]
    do(s, type="fulfil_crew", card=7, worker=1)
    assert {m["card"] for m in moves(s, type="copy")} == {14}
    do(s, type="copy", card=14)
    assert s.vp[0] == 8 and s.crew[1][0] == [14, -1]


def test_auto_fulfil_into_an_empty_slot_of_its_colour() -> None:
    """Tile 12 / crew 15: a reserve objective goes to an empty slot of its colour, paying it."""
    s = started(2)
    s.reserve[0] = [13]  # a gold objective
    s.coins[0] = 3
    push(s, 0, ("auto_fulfil",))
    assert {m["slot"] for m in moves(s, type="auto_fulfil")} == {6, 7, 8, 9}  # gold 1: 5 coins
    do(s, type="auto_fulfil", tile=13, slot=6)  # gold 2: 3 coins, a purple seal
    assert s.coins[0] == 0 and s.obj_slots[0][6] == -13 and s.stack[-1][0] == "purple"


def test_determinize_never_aliases_the_view() -> None:
    """determinize copies the view once (from_json); changing the state leaves the view alone."""
    import json
    import random

    s = GAME.new_game({"players": 3}, 5)
    rnd = random.Random(5)
    for _ in range(60):
        GAME.apply(s, rnd.choice(GAME.legal_moves(s)))
    v = GAME.view(s, 1)
    before = json.dumps(v, sort_keys=True)
    d = GAME.determinize(v, 1, 9)
    d.seals[0][1].append("G")
    d.crew[1].append([99, -1])
    d.campsites["O6"][0] = 2
    d.loc_owner["unlock"] = 1
    d.envelopes[0][0] += 5
    while GAME.to_act(d) is not None:
        GAME.apply(d, rnd.choice(GAME.legal_moves(d)))
    assert json.dumps(v, sort_keys=True) == before


def test_free_seal_space_pays_nothing() -> None:
    """IA20 / IB10 / campsite IA14: a seal from any scroll onto any worker, no coins at all."""
    s = started(2)
    s.academy = ["G", "G", "G", "B", "B", "B", "Y", "Y", "Y", "R", "R", "R"]
    s.seals[0][2] = ["B", "B", "B", "B", "B"]  # the 6th slot costs 3
    s.coins[0] = 0
    push(s, 0, ("free_seal",))
    do(s, type="seal", scroll=3, colour="R", worker=2)
    assert s.coins[0] == 0 and s.seals[0][2][-1] == "R"


def _goal_state(goal: int) -> Any:
    s = started(2)
    s.goals[0] = goal
    s.beagle = 0
    s.ship = [DATA.beagle_spaces[0]] * 2
    return s


def test_every_beagle_goal_counts_its_things() -> None:
    """The 12 Beagle goals (English texts, seed 000): points per item, purple never a seal."""
    expected = {}
    for goal in range(1, 13):
        s = _goal_state(goal)
        s.seals[0][1] = ["Y", "R", "P"]
        s.seals[0][2] = ["G", "B", "B"]
        s.research[0] = (1 << 0) | (1 << 4) | (1 << 5) | (1 << 10) | (1 << 15)
        s.stamps[0] = [0, 0, 3]
        s.lenses[0] = 3
        s.obj_slots[0] = [-1, -2, 0, 0, 0, -13, 0, 0, 0, 5]
        s.tents[0] = 4
        expected[goal] = rules.beagle_points(s, 0)[0]
    assert expected == {1: 4, 2: 4, 3: 4, 4: 8, 5: 12, 6: 6, 7: 6, 8: 6, 9: 16, 10: 15,
                        11: 9, 12: 16}
