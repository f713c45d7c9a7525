"""Solo rules, one scenario per paragraph: setup, Alfred's tracks, his turn and his card options."""

from __future__ import annotations

from typing import Any

import pytest

from core import get_game
from core.darwins_journey import alfred, solo
from core.darwins_journey.alfred import AD, ALFRED, HUMAN
from tests.core.solo_helpers import events_of, hand, rows, start

GAME = get_game("darwins-journey")
MAIN1 = ("explore.1", "navigate.1")


# ---------------------------------------------------------------- setup

def test_solo_setup_central_board_and_player() -> None:
    state = GAME.new_game({"players": 1, "alfred": "yellow"}, 5)
    assert state.n == 2 and state.solo
    assert all(state.special[:4]) and state.special[4] == state.special[5] == 0
    assert [len(d) for d in state.obj_display] == [1, 1]
    assert state.order == [ALFRED, HUMAN]
    assert len(state.start_pairs) == 2
    assert len(state.hands[HUMAN]) == 5  # crew cards: draw 5, keep 3
    while GAME.to_act(state) == HUMAN:
        GAME.apply(state, GAME.legal_moves(state)[0])
    assert len(state.crew[HUMAN]) == 3 and state.crew[ALFRED] == []
    assert [len(state.seals[HUMAN][r]) for r in (1, 2, 3)] == [1, 1, 1]  # one seal per crew card
    assert state.coins[HUMAN] == 4 and state.tk[HUMAN] == 1  # personal setup unchanged
    assert sum(1 for x in state.obj_slots[HUMAN] if x) + len(state.reserve[HUMAN]) == 2


@pytest.mark.parametrize("colour", sorted(AD.boards))
def test_alfred_setup(colour: str) -> None:
    state = GAME.new_game({"players": 1, "alfred": colour}, 7)
    al = state.alfred
    assert al["board"] == colour and al["bonus"] == 1 and al["drawn"] == [] and al["card"] is None
    assert sorted(al["deck"]) == sorted(AD.cards)
    assert sorted(al["bonus_cards"]) == sorted(AD.bonus_cards[colour])
    assert state.coins[ALFRED] == 1 and state.tk[ALFRED] == 0
    assert state.home[ALFRED] == [0, 1, 2, 3]
    for r in range(4):
        assert tuple(state.seals[ALFRED][r]) == AD.boards[colour]["rows"][r]["printed"]
    assert state.stamps[ALFRED] == [4, 4, 4] and state.tents[ALFRED] == 0


def test_alfred_bonus_cards_and_deck_are_random() -> None:
    placements = {tuple(GAME.new_game({"players": 1, "alfred": "blue"}, s).alfred["bonus_cards"])
                  for s in range(20)}
    decks = {tuple(GAME.new_game({"players": 1, "alfred": "blue"}, s).alfred["deck"])
             for s in range(20)}
    assert len(placements) == 2 and len(decks) > 10


def test_difficulty_option_is_validated() -> None:
    with pytest.raises(Exception, match="alfred"):
        GAME.new_game({"players": 1, "alfred": "purple"}, 1)


def test_components_every_option_type_and_two_deliver_cards() -> None:
    kinds = {o["type"] for opts in AD.cards.values() for o in opts}
    assert kinds == {"main_diary", "special_diary", "small_diary", "deliver", "rest"}
    assert all(opts[-1]["type"] == "rest" and 2 <= len(opts) <= 3 for opts in AD.cards.values())
    assert len(AD.cards) == 8 and len(AD.deliver_cards) == 2
    bonus_kinds = {a[0] for colour in AD.bonus_cards.values() for card in colour.values()
                   for row in card for a in row}
    assert {"prolific", "add_explorer", "free_seal", "objective"} <= bonus_kinds
    values = [AD.boards[c]["beagle"] for c in ("white", "blue", "yellow", "green")]
    assert values == sorted(values) and len(set(values)) == 4


# ---------------------------------------------------------------- coin track and bonus track

def test_coin_track_caps_at_12_and_overflow_moves_the_bonus_worker() -> None:
    state = start()
    state.coins[ALFRED] = 10
    events: list[dict[str, Any]] = []
    alfred.gain_coins(state, 5, events)
    assert state.coins[ALFRED] == 12 and state.alfred["bonus"] == 4


def test_spending_the_last_coin_leaves_zero() -> None:
    state = start()
    state.coins[ALFRED] = 3
    alfred.pay(state, 3, [])
    assert state.coins[ALFRED] == 0


def test_bonus_track_lap_scores_and_cycles() -> None:
    state = start()
    state.alfred["bonus"] = 11
    vp = state.vp[ALFRED]
    alfred.bonus_steps(state, 3, [])
    assert state.alfred["bonus"] == 2
    assert state.vp[ALFRED] == vp + AD.boards["white"]["lap_vp"]


def test_bonus_track_reaching_the_end_scores_once() -> None:
    state = start()
    state.alfred["bonus"] = 10
    vp = state.vp[ALFRED]
    alfred.bonus_steps(state, 2, [])
    assert state.alfred["bonus"] == 12 and state.vp[ALFRED] == vp + 3


def test_bonus_triggers_5_and_10_in_crossing_order_with_the_round_row() -> None:
    state = start("white")
    state.alfred["bonus_cards"] = ["W2", "W1"]  # W2 over space 5, W1 over space 10
    state.alfred["bonus"] = 4
    coins = state.coins[ALFRED]
    events: list[dict[str, Any]] = []
    alfred.bonus_steps(state, 6, events)
    assert [e["card"] for e in events_of(events, "alfred_bonus_card")] == ["W2", "W1"]
    assert state.explorers[ALFRED][1] == 0  # W2 round 1: add an explorer (island B)
    assert state.coins[ALFRED] == coins + 2  # W1 round 1: 2 coins
    state.round = 3
    state.alfred["bonus"] = 9
    alfred.bonus_steps(state, 1, events)
    assert state.coins[ALFRED] == coins + 2 + 3  # W1 round 3: 3 coins


def test_lens_coin_when_the_player_uses_alfreds_lens() -> None:
    state = start()
    state.loc_owner["explore.2"] = ALFRED
    state.lenses[ALFRED] = 1
    hand(state, 3)
    rows(state, "Y", "B", "R", "R")  # nothing green: Alfred won't take explore.2 himself
    GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_act(state) == HUMAN
    state.seals[HUMAN][1] = ["G", "G"]
    state.coins[ALFRED] = 12
    state.cache = None
    move = next(m for m in GAME.legal_moves(state)
                if m.get("location") == "explore.2" and m["type"] == "place")
    GAME.apply(state, move)
    assert state.coins[ALFRED] == 12 and state.alfred["bonus"] == 2  # 13th coin -> bonus step


# ---------------------------------------------------------------- the turn

def test_turn_is_draw_then_act_and_alfred_always_first() -> None:
    state = start()
    assert [m["type"] for m in GAME.legal_moves(state)] == ["alfred_draw"]
    GAME.apply(state, GAME.legal_moves(state)[0])
    assert state.alfred["card"] == state.alfred["drawn"][-1] and len(state.alfred["deck"]) == 7
    (move,) = GAME.legal_moves(state)
    assert move["type"] == "alfred" and move == alfred.alfred_move(state)
    GAME.apply(state, move)
    assert GAME.to_act(state) == HUMAN
    for _ in range(200):
        if state.round == 2:
            break
        seat = GAME.to_act(state)
        GAME.apply(state, GAME.legal_moves(state)[-1 if seat == HUMAN else 0])
    assert state.round == 2 and state.order == [ALFRED, HUMAN] and GAME.to_act(state) == ALFRED


def test_reserve_turn_order_gives_the_player_3_coins_and_changes_nothing() -> None:
    state = start()
    hand(state, 3)
    GAME.apply(state, GAME.legal_moves(state)[0])
    coins = state.coins[HUMAN]
    move = next(m for m in GAME.legal_moves(state) if m.get("location") == "turn_order")
    GAME.apply(state, move)
    assert state.coins[HUMAN] == coins + 3
    while state.round == 1:
        seat = GAME.to_act(state)
        GAME.apply(state, GAME.legal_moves(state)[-1 if seat == HUMAN else 0])
    assert state.order == [ALFRED, HUMAN]


def test_reshuffle_when_both_deliver_cards_are_face_up() -> None:
    state = start()
    state.alfred["drawn"] = [5, 1, 6]
    state.alfred["deck"] = [2, 3, 4, 7, 8]
    events = GAME.apply(state, GAME.legal_moves(state)[0])
    assert events_of(events, "alfred_reshuffle")
    assert len(state.alfred["drawn"]) == 1 and len(state.alfred["deck"]) == 7


def test_no_reshuffle_with_one_deliver_card_face_up() -> None:
    state = start()
    state.alfred["drawn"] = [5, 1]
    state.alfred["deck"] = [2, 3, 4, 6, 7, 8]
    events = GAME.apply(state, GAME.legal_moves(state)[0])
    assert not events_of(events, "alfred_reshuffle")
    assert state.alfred["drawn"] == [5, 1, 8]


def test_options_top_down_and_rest_when_nothing_else() -> None:
    state = start()
    hand(state, 7)  # small diary / main diary ACBD / rest
    state.coins[ALFRED] = 0  # cannot unlock
    rows(state, "Y", "B", "G", "R")
    assert alfred.alfred_move(state)["kind"] == "main_diary"
    for loc in alfred.MAIN_LOCATIONS:
        state.loc_workers[loc] = [HUMAN]  # every Main Diary location taken
    move = alfred.alfred_move(state)
    assert move["kind"] == "rest"


def test_rest_lowest_worker_7_coins_bonus_2() -> None:
    state = start()
    hand(state, 3)
    for loc in alfred.MAIN_LOCATIONS:
        state.loc_workers[loc] = [HUMAN]
    state.home[ALFRED] = [0, 2]
    state.coins[ALFRED] = 2
    move = GAME.legal_moves(state)[0]
    assert move["kind"] == "rest" and move["worker"] == "C"
    GAME.apply(state, move)
    assert state.coins[ALFRED] == 9 and state.alfred["bonus"] == 3
    assert state.alfred["rest"] == [2] and state.home[ALFRED] == [0]


# ---------------------------------------------------------------- Main Diary

def test_main_diary_worker_priority_letters() -> None:
    state = start()
    rows(state, "Y", "B", "G", "R")
    hand(state, 4)  # D A B C
    assert alfred.alfred_move(state)["worker"] == "D"
    state.home[ALFRED] = [0, 1, 2]
    assert alfred.alfred_move(state)["worker"] == "A"


def test_main_diary_skips_a_worker_without_legal_location() -> None:
    state = start()
    rows(state, "Y", "B", "G", "R")
    state.loc_workers["correspond.1"] = [HUMAN]
    state.loc_workers["academy.1"] = [HUMAN]  # main2 busy and both printed spots taken
    state.coins[ALFRED] = 0
    hand(state, 1)  # A B C D; A (yellow) has nothing legal
    move = alfred.alfred_move(state)
    assert move["worker"] == "B" and move["location"] == "navigate.1"


def test_strongest_location_is_the_lowest_unlocked_empty_one() -> None:
    state = start()
    rows(state, "BB", "G", "Y", "R")
    state.loc_owner["navigate.2"] = HUMAN
    state.loc_owner["navigate.3"] = HUMAN
    state.coins[ALFRED] = 3
    hand(state, 1)
    move = alfred.alfred_move(state)
    # navigate.3 needs 3 blue: one temporary knowledge for 3 coins ("Exemplo" on p. 29)
    assert (move["location"], move["knowledge"]) == ("navigate.3", 1)
    GAME.apply(state, move)
    assert state.coins[ALFRED] == 0 and state.tk[ALFRED] == 0
    assert state.coins[HUMAN] >= 1  # the player's lens paid its owner


def test_temporary_knowledge_all_or_nothing() -> None:
    state = start()
    rows(state, "B", "G", "Y", "R")
    state.loc_owner["navigate.2"] = HUMAN
    state.loc_owner["navigate.3"] = HUMAN
    state.coins[ALFRED] = 5  # navigate.3 needs 2 knowledge = 6 coins: no coin spent there
    hand(state, 1)
    move = alfred.alfred_move(state)
    assert (move["location"], move["knowledge"]) == ("navigate.2", 1)


def test_occupied_lens_location_is_not_taken() -> None:
    state = start()
    rows(state, "BB", "G", "Y", "R")
    state.loc_owner["navigate.2"] = HUMAN
    state.loc_workers["navigate.2"] = [HUMAN]
    state.coins[ALFRED] = 3
    hand(state, 1)
    move = alfred.alfred_move(state)
    assert move["location"] != "navigate.2"


def test_cost_priority_then_colour_priority() -> None:
    state = start()
    rows(state, "GBB", "Y", "Y", "R")
    for loc in ("explore.2", "navigate.2"):
        state.loc_owner[loc] = HUMAN
    state.coins[ALFRED] = 6
    hand(state, 1)
    # same strength: navigation is free, exploration would need 3 coins of knowledge
    assert alfred.alfred_move(state)["location"] == "navigate.2"
    rows(state, "GB", "Y", "Y", "R")
    state.loc_owner["explore.2"] = state.loc_owner["navigate.2"] = -1
    # explore.1 and navigate.1: same strength and cost, green is the row's leftmost seal
    assert alfred.alfred_move(state)["location"] == "explore.1"
    rows(state, "BG", "Y", "Y", "R")
    assert alfred.alfred_move(state)["location"] == "navigate.1"


def test_placement_penalty_3_and_cannot_pay_cannot_place() -> None:
    state = start()
    rows(state, "B", "G", "Y", "R")
    state.loc_workers["explore.1"] = [HUMAN]
    state.coins[ALFRED] = 3
    hand(state, 1)
    move = alfred.alfred_move(state)
    assert (move["location"], move["penalty"]) == ("navigate.1", 3)
    state.coins[ALFRED] = 2
    move = alfred.alfred_move(state)
    assert move["worker"] == "C" and move["location"] == "correspond.1"


def test_academy_that_cannot_be_done_fails_the_option() -> None:
    state = start()
    rows(state, "R", "R", "R", "R")
    state.academy = [""] * 12
    hand(state, 3)  # main diary / rest
    assert alfred.alfred_move(state)["kind"] == "rest"


def test_no_distinctions_for_alfred() -> None:
    state = start()
    rows(state, "BBBBBB", "G", "Y", "R")
    state.coins[ALFRED] = 0
    hand(state, 1)
    move = alfred.alfred_move(state)
    assert move["location"] == "navigate.1"
    GAME.apply(state, move)
    assert state.ship[ALFRED] == 2  # navigate 2, no +1 step from the silver distinction


# ---------------------------------------------------------------- Special and Small Diaries

@pytest.mark.parametrize(("card", "loc"), [(2, "special.0"), (4, "special.1")])
def test_special_diary_left_or_right_bonus_4_no_action(card: int, loc: str) -> None:
    state = start()
    for other in alfred.MAIN_LOCATIONS:
        state.loc_workers[other] = [HUMAN]
    hand(state, card)
    state.home[ALFRED] = [0, 1]
    state.alfred["bonus_cards"] = ["W1", "W2"]
    move = GAME.legal_moves(state)[0]
    assert (move["kind"], move["location"], move["worker"]) == ("special_diary", loc, "B")
    coins = state.coins[ALFRED]
    GAME.apply(state, move)
    assert state.alfred["bonus"] == 5 and state.loc_workers[loc] == [ALFRED]
    assert state.coins[ALFRED] == coins + 2  # the tile's action is not done: only W1's trigger


def test_special_diary_only_when_empty() -> None:
    state = start()
    state.loc_workers["special.3"] = [HUMAN]
    for other in alfred.MAIN_LOCATIONS:
        state.loc_workers[other] = [HUMAN]
    hand(state, 8)
    assert alfred.alfred_move(state)["kind"] == "rest"


def test_small_diary_1a_priority_colour() -> None:
    state = start()
    rows(state, "BBR", "G", "Y", "R")
    state.coins[ALFRED] = 4
    assert alfred.unlock_choice(state) == "navigate.2"


def test_small_diary_rulebook_example_academy_then_green_to_the_right() -> None:
    state = start()
    rows(state, "BBR", "G", "Y", "R")
    state.loc_owner["navigate.2"] = state.loc_owner["navigate.3"] = HUMAN
    state.coins[ALFRED] = 4
    assert alfred.unlock_choice(state) == "academy.2"
    rows(state, "BBRG", "G", "Y", "R")
    assert alfred.unlock_choice(state) == "academy.2"


def test_small_diary_1b_most_seals_then_1c_leftmost() -> None:
    state = start()
    state.loc_owner["navigate.2"] = HUMAN  # navigate.3 is now the page's next lock
    rows(state, "BGGR", "G", "Y", "R")
    state.loc_owner["navigate.3"] = HUMAN
    state.coins[ALFRED] = 4
    # blue is done: green uses 2 of the row's seals, red 1
    assert alfred.unlock_choice(state) == "explore.2"


def test_small_diary_2_next_row_and_3_cheapest_leftmost() -> None:
    state = start()
    state.loc_owner["navigate.2"] = state.loc_owner["navigate.3"] = HUMAN
    state.loc_owner["correspond.2"] = state.loc_owner["correspond.3"] = HUMAN
    rows(state, "BY", "G", "Y", "R")
    state.coins[ALFRED] = 4
    assert alfred.unlock_choice(state) == "explore.2"  # row A matches nothing: row B's green
    rows(state, "BY", "BY", "YB", "Y")
    assert alfred.unlock_choice(state) == "explore.2"  # nobody matches: cheapest, leftmost


def test_small_diary_never_special_and_fails_when_unaffordable_or_busy() -> None:
    state = start()
    rows(state, "B", "G", "Y", "R")
    state.coins[ALFRED] = 3
    hand(state, 7)
    assert alfred.alfred_move(state)["kind"] != "small_diary"
    state.coins[ALFRED] = 4
    assert alfred.alfred_move(state)["kind"] == "small_diary"
    assert not alfred.alfred_move(state)["unlock"].startswith("special")
    state.loc_workers["unlock"] = [HUMAN]
    assert alfred.alfred_move(state)["kind"] != "small_diary"
    state.loc_workers["unlock"] = []
    state.lenses[ALFRED] = 6  # no lens marker left
    assert alfred.alfred_move(state)["kind"] != "small_diary"


def test_small_diary_unlocks_and_does_the_location() -> None:
    state = start()
    rows(state, "B", "G", "Y", "R")
    state.coins[ALFRED] = 4
    hand(state, 7)
    move = GAME.legal_moves(state)[0]
    assert move["unlock"] == "navigate.2" and move["worker"] == "D"
    GAME.apply(state, move)
    assert state.loc_owner["navigate.2"] == ALFRED and state.lenses[ALFRED] == 1
    assert state.ship[ALFRED] == 3 and state.coins[ALFRED] == 0  # navigate 3 done for free


# ---------------------------------------------------------------- Deliver

def _deliver_state(alfred_has: list[int], human_has: list[int], museum: list[int]) -> Any:
    state = start()
    hand(state, 6)
    state.research[ALFRED] = sum(1 << k for k in alfred_has)
    state.research[HUMAN] = sum(1 << k for k in human_has)
    state.museum = sum(1 << k for k in museum)
    state.museum_coins = [True] * 4
    return state


def test_deliver_prefers_specimens_the_player_also_has() -> None:
    state = _deliver_state([0, 15], [15], [1, 2, 3])
    assert alfred.delivery_candidates(state) == [15]


def test_deliver_most_coins_first() -> None:
    state = _deliver_state([0, 15], [], [1, 2, 3])
    assert alfred.delivery_candidates(state) == [15]  # row A already full of tiles: fewer coins


def test_deliver_top_left_in_reading_order_never_asks_the_player() -> None:
    state = _deliver_state([5, 10], [], [])
    assert alfred.delivery_candidates(state) == [5]  # same coins, row B before row C
    state = _deliver_state([1, 4], [], [])
    assert alfred.delivery_candidates(state) == [1]  # row A before row B
    state.coins[ALFRED] = 0
    move = GAME.legal_moves(state)[0]
    assert move["kind"] == "deliver" and move["worker"] == "D"
    events = GAME.apply(state, move)
    # the top-left one first; its coins pay the second; then it is the player's turn
    assert [e["specimen"] for e in events_of(events, "deliver")] == [1, 4]
    assert state.alfred["pending"] is None and GAME.to_act(state) == HUMAN


def test_deliver_two_the_second_for_3_coins() -> None:
    state = _deliver_state([0, 15], [], [])
    state.coins[ALFRED] = 0
    GAME.apply(state, GAME.legal_moves(state)[0])
    assert state.museum >> 0 & 1 and state.museum >> 15 & 1
    # each: 6 empty cells in its row and column + the row's coin = 7; the second costs 3
    assert state.coins[ALFRED] == 7 + 7 - 3


def test_deliver_second_skipped_without_3_coins() -> None:
    state = _deliver_state([0, 15], [], [1, 2, 3, 4, 8, 12, 5, 6, 7, 9, 10, 11, 13, 14])
    state.museum_coins = [False] * 4
    state.coins[ALFRED] = 0
    GAME.apply(state, GAME.legal_moves(state)[0])
    assert bin(state.museum).count("1") == 15


# ---------------------------------------------------------------- end of game

def test_player_wins_ties_only_on_evolution_then_coins() -> None:
    state = start()
    state.evo = [5, 5]
    state.coins = [3, 3]
    assert solo.ranking(state, [50, 50]) == [ALFRED, HUMAN]
    state.coins = [4, 3]
    assert solo.ranking(state, [50, 50]) == [HUMAN, ALFRED]
    state.evo = [4, 9]
    assert solo.ranking(state, [50, 50]) == [ALFRED, HUMAN]
    assert solo.ranking(state, [51, 50]) == [HUMAN, ALFRED]


def test_view_hides_the_deck_and_determinize_samples_it() -> None:
    state = start()
    view = GAME.view(state, HUMAN)
    assert "deck" not in view["alfred"] and view["alfred"]["deck_size"] == 8
    decks = {tuple(GAME.determinize(view, HUMAN, seed).alfred["deck"]) for seed in range(10)}
    assert len(decks) > 1
    assert GAME.view(GAME.determinize(view, HUMAN, 3), HUMAN) == view
