"""Solo rules, the remaining paragraph scenarios: rulebook examples and tie-breaks not covered
by test_solo_turn.py / test_solo_actions.py (each test names the paragraph it pins)."""

from __future__ import annotations

import json
from typing import Any

from core import get_game
from core.darwins_journey import alfred
from core.darwins_journey.alfred import AD, ALFRED, HUMAN
from tests.core.solo_helpers import do, hand, rows, start
from tests.core.solo_helpers import events_of as kinds

GAME = get_game("darwins-journey")


# ---------------------------------------------------------------- Trilha de Bonus

def test_bonus_triggers_in_crossing_order_across_the_cycle() -> None:
    # "as duas acoes associadas sao realizadas na ordem em que foram cruzadas": from space 9,
    # 8 steps cross space 10 first, then the right end (lap VP), then space 5
    state = start("white")
    state.alfred["bonus_cards"] = ["W1", "W2"]  # W1 over space 5, W2 over space 10
    state.alfred["bonus"] = 9
    vp = state.vp[ALFRED]
    events: list[dict[str, Any]] = []
    alfred.bonus_steps(state, 8, events)
    assert state.alfred["bonus"] == 5
    assert [e["card"] for e in kinds(events, "alfred_bonus_card")] == ["W2", "W1"]
    assert state.vp[ALFRED] == vp + AD.boards["white"]["lap_vp"]


def test_bonus_worker_leaving_the_right_end_scores_nothing_more() -> None:
    # points "cada vez que ... alcancar ou ultrapassar o espaco mais a direita": once per arrival
    state = start()
    state.alfred["bonus"] = AD.track_length
    vp = state.vp[ALFRED]
    alfred.bonus_steps(state, 1, [])
    assert state.alfred["bonus"] == 1 and state.vp[ALFRED] == vp


def test_a_long_move_triggers_a_space_each_time_it_is_reached() -> None:
    state = start("white")
    state.alfred["bonus_cards"] = ["W1", "W2"]
    state.alfred["bonus"] = 4
    events: list[dict[str, Any]] = []
    alfred.bonus_steps(state, AD.track_length + 1, events)  # 5, 10, 12 (lap), 1 .. 5 again
    assert [e["card"] for e in kinds(events, "alfred_bonus_card")] == ["W1", "W2", "W1"]


# ---------------------------------------------------------------- Diario Principal

def test_main_diary_rulebook_example_top_location_green_by_colour() -> None:
    # p. 30: the lowest Navigation/Exploration are locked or occupied, both middle ones occupied:
    # the worker goes up; equal requirement/cost -> green Exploration (his leftmost seal is green)
    state = start()
    rows(state, "GB", "Y", "Y", "R")
    state.loc_owner["explore.2"] = state.loc_owner["navigate.2"] = HUMAN
    state.loc_owner["navigate.3"] = HUMAN
    for loc in ("explore.2", "navigate.2", "navigate.3"):
        state.loc_workers[loc] = [HUMAN]
    state.coins[ALFRED] = 3  # the section is occupied: the 3-coin penalty
    hand(state, 1)
    move = alfred.alfred_move(state)
    assert (move["worker"], move["location"], move["penalty"]) == ("A", "explore.1", 3)
    GAME.apply(state, move)
    assert state.explorers[ALFRED][0] == 2
    assert state.coins[ALFRED] == 0 + 4  # penalty paid; IA1's 4 coins (IA2 is a research)


def test_main_diary_academy_must_be_paid_after_knowledge_and_penalty() -> None:
    # "Se ele nao puder arcar com os custos ... tentara a proxima opcao de acao da Carta"
    state = start()
    rows(state, "R", "R", "R", "R")
    state.loc_workers["correspond.1"] = [HUMAN]  # Main Diary 2 occupied: penalty 3
    state.academy = ["", "", "", "G", "", "", "", "", "", "", "", ""]  # cheapest: 1 coin
    state.coins[ALFRED] = 3
    hand(state, 3)  # main diary C D A B / rest
    assert alfred.alfred_move(state)["kind"] == "rest"
    state.coins[ALFRED] = 4
    move = alfred.alfred_move(state)
    assert (move["kind"], move["location"]) == ("main_diary", "academy.1")
    GAME.apply(state, move)
    assert state.coins[ALFRED] == 0 and state.seals[ALFRED][0] == ["R", "G"]


def test_main_diary_uses_the_players_lens_and_pays_him_a_coin() -> None:
    state = start()
    rows(state, "YY", "B", "G", "R")
    state.loc_owner["correspond.2"] = HUMAN
    state.lenses[HUMAN] = 1
    hand(state, 1)
    coins = state.coins[HUMAN]
    move = alfred.alfred_move(state)
    assert move["location"] == "correspond.2" and move["knowledge"] == 0
    GAME.apply(state, move)
    assert state.coins[HUMAN] == coins + 1


# ---------------------------------------------------------------- Diario Pequeno

def test_small_diary_topmost_worker_need_not_be_available() -> None:
    # "O Trabalhador mais ao topo nao precisa estar disponivel para isto"
    state = start()
    rows(state, "G", "B", "Y", "R")
    state.home[ALFRED] = [3]  # A, B and C are already placed
    state.coins[ALFRED] = 4
    hand(state, 7)
    move = alfred.alfred_move(state)
    assert (move["kind"], move["worker"], move["unlock"]) == ("small_diary", "D", "explore.2")


def test_small_diary_second_rulebook_example_goes_down_to_worker_b() -> None:
    # A: 2 blue + 1 yellow, Navigation and Correspondence unlocked -> B has 2 green: Exploration
    state = start()
    rows(state, "BBY", "GG", "Y", "R")
    for loc in ("navigate.2", "navigate.3", "correspond.2", "correspond.3"):
        state.loc_owner[loc] = HUMAN
    state.coins[ALFRED] = 4
    assert alfred.unlock_choice(state) == "explore.2"


def test_small_diary_lens_pays_alfred_when_the_player_uses_it() -> None:
    state = start()
    rows(state, "B", "G", "Y", "R")
    state.coins[ALFRED] = 4
    hand(state, 7)
    GAME.apply(state, GAME.legal_moves(state)[0])  # lens on navigate.2, navigate 3 for free
    assert state.loc_owner["navigate.2"] == ALFRED and state.coins[ALFRED] == 0
    state.seals[HUMAN][1] = ["B", "B"]
    state.cache = None
    move = next(m for m in GAME.legal_moves(state)
                if m["type"] == "place" and m["location"] == "navigate.2")
    GAME.apply(state, move)
    assert state.coins[ALFRED] == 1


# ---------------------------------------------------------------- Entregar Especimes

def _deliver_state(alfred_has: list[int], human_has: list[int]) -> Any:
    state = start()
    hand(state, 6)
    state.research[ALFRED] = sum(1 << k for k in alfred_has)
    state.research[HUMAN] = sum(1 << k for k in human_has)
    state.museum = 0
    state.museum_coins = [True] * 4
    return state


def test_deliver_1_shared_specimens_then_1b_top_left() -> None:
    # 1: the specimens both have researched come first (here 5 and 10, not 0); 1A equal coins;
    # 1B the top-left one of the museum
    state = _deliver_state([0, 5, 10], [5, 10])
    state.coins[ALFRED] = 0
    assert alfred.delivery_candidates(state) == [5]
    GAME.apply(state, GAME.legal_moves(state)[0])
    delivered = [k for k in range(16) if state.museum >> k & 1]
    assert delivered == [5, 10]  # the second (3 coins) follows rule 1 again


def test_deliver_exactly_two_valid_both_go_without_asking_the_player() -> None:
    # with two valid and 3 coins both are delivered, the top-left (reading order) first
    state = _deliver_state([1, 4], [])
    state.coins[ALFRED] = 3
    assert alfred.delivery_candidates(state) == [1]
    GAME.apply(state, GAME.legal_moves(state)[0])
    assert state.alfred["pending"] is None and GAME.to_act(state) == HUMAN
    assert state.museum == (1 << 1) | (1 << 4)


def test_deliver_three_valid_equal_coins_top_left_in_reading_order() -> None:
    # 1 and 4 give the same coins: 1 (row A) is the top-left one in reading order (issue 17)
    state = _deliver_state([1, 4, 15], [])
    state.coins[ALFRED] = 5
    GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_act(state) == HUMAN
    # the second delivery is recomputed: 4 and 15 both give 6 coins now, 4 comes first
    assert state.museum == (1 << 1) | (1 << 4)


# ---------------------------------------------------------------- Navegacao, Exploracao

def test_navigation_researches_a_specimen_it_passes() -> None:
    state = start()
    state.specimens["O2"] = 9
    do(state, "navigate", 2)
    assert state.ship[ALFRED] == 2 and state.research[ALFRED] >> 9 & 1


def test_exploration_last_two_actions_are_the_last_two_spaces() -> None:
    # "(3 e 4)": the last two spaces, IA15 (3 VP) and IA16 (2 VP + 1 temporary knowledge)
    state = start()
    state.explorers[ALFRED] = [14, -1, -1]
    state.explorers[HUMAN] = [0, -1, -1]
    vp, coins = state.vp[ALFRED], state.coins[ALFRED]
    do(state, "explore", 2)
    assert state.explorers[ALFRED][0] == 16
    ribbon = 3 if "IA16" in state.ribbons else 0
    assert ribbon == 3 and state.vp[ALFRED] == vp + 3 + 3 + 2
    assert state.coins[ALFRED] == coins + 3  # the knowledge icon becomes 3 coins


def test_exploration_moves_the_next_island_left_when_the_rightmost_is_done() -> None:
    state = start()
    end_c = 10
    state.explorers[ALFRED] = [0, -1, end_c]  # no explorer on B: A moves
    do(state, "explore", 1)
    assert state.explorers[ALFRED] == [1, -1, end_c]


# ---------------------------------------------------------------- Correspondencia

def test_prolific_emptying_a_stack_performs_its_icon() -> None:
    state = start()
    state.stamps[ALFRED] = [1, 4, 4]
    state.explorers[ALFRED] = [0, -1, -1]
    do(state, "prolific")
    assert state.stamps[ALFRED] == [0, 2, 4]
    assert AD.stamp_actions[0] == (("explore", 2),) and state.explorers[ALFRED][0] == 2


def test_correspondence_with_fewer_stamps_than_the_action() -> None:
    state = start()
    state.stamps[ALFRED] = [0, 0, 1]
    state.tray[ALFRED] = 0
    state.envelopes = [[2, 0], [0, 0], [0, 0]]
    do(state, "correspond", 3, False)
    # one stamp only: it cannot take first place from the player, so the top one without his stamps
    assert [e[ALFRED] for e in state.envelopes] == [1, 0, 0]


# ---------------------------------------------------------------- hidden information

def test_no_view_ever_holds_alfreds_deck_order() -> None:
    state = start("green", seed=4)
    steps = 0
    while GAME.to_act(state) is not None and steps < 400:
        seat = GAME.to_act(state)
        if seat == ALFRED:
            assert len(GAME.legal_moves(state)) == 1
        view = GAME.view(state, HUMAN)
        assert set(view["alfred"]) >= {"deck_size", "drawn"} and "deck" not in view["alfred"]
        hidden = state.alfred["deck"]
        if len(hidden) > 1:
            assert json.dumps(hidden) not in json.dumps(view)
            sampled = {tuple(GAME.determinize(view, HUMAN, s).alfred["deck"]) for s in range(6)}
            assert all(sorted(d) == sorted(hidden) for d in sampled) and len(sampled) > 1
        GAME.apply(state, GAME.legal_moves(state)[-1 if seat == HUMAN else 0])
        steps += 1
    assert steps > 50


# ---------------------------------------------------------------- Ordem de Turnos

def test_the_player_pays_the_2_player_placement_penalty_of_3() -> None:
    # "A partida e jogada como se houvesse 2 jogadores ... a penalidade de Alocacao sera de 3"
    state = start()
    rows(state, "B", "G", "Y", "R")
    state.coins[ALFRED] = 0
    hand(state, 1)
    GAME.apply(state, GAME.legal_moves(state)[0])  # Alfred's A to navigate.1 (Main Diary 1)
    assert state.loc_workers["navigate.1"] == [ALFRED]
    state.coins[HUMAN] = 5
    state.seals[HUMAN][1] = ["G"]
    state.cache = None
    move = next(m for m in GAME.legal_moves(state)
                if m["type"] == "place" and m["location"] == "explore.1")
    assert "paying 3 coins" in move["label"]
    GAME.apply(state, move)
    assert state.coins[HUMAN] == 2
