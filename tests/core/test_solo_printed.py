"""Alfred closer to the printed solo rules (issue 17, point 8), one test per open point.

Pages are those of seed 000 (the solo rules at its end, pp. 27-35).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.darwins_journey import alfred, solo
from core.darwins_journey.alfred import AD, ALFRED, HUMAN
from core.darwins_journey.data import DATA
from tests.core.solo_helpers import do, hand, rows, start


def test_p33_exploration_gains_the_last_two_spaces_passed() -> None:
    """'as duas ultimas acoes ... (3 e 4)': the example labels two spaces, with all their icons."""
    state = start()
    state.explorers[ALFRED] = [14, -1, -1]
    state.explorers[HUMAN] = [0, -1, -1]
    vp, coins = state.vp[ALFRED], state.coins[ALFRED]
    do(state, "explore", 2)  # IA15 (3 VP), then IA16 (2 VP + 1 knowledge, a 3-VP ribbon)
    assert state.explorers[ALFRED][0] == 16
    assert state.vp[ALFRED] == vp + 3 + 3 + 2
    assert state.coins[ALFRED] == coins + 3  # the knowledge icon becomes 3 coins


@pytest.mark.parametrize("colour", ["white", "blue", "yellow", "green"])
def test_p34_small_diary_examples_are_possible_on_every_board(colour: str) -> None:
    """'O Trabalhador A possui 2 Selos de Cera azuis ... O Trabalhador B possui 2 ... verdes'."""
    rows_ = AD.boards[colour]["rows"]
    assert rows_[0]["printed"][0] == "B" and rows_[1]["printed"][0] == "G"


def test_p34_tent_and_stamp_icons_give_objective_bonus_effects() -> None:
    """'podem recompensar ... um efeito associado a certos bonus de Objetivos' (effects of p.21)."""
    kinds = {a[0] for icons in (*AD.tent_actions, *AD.stamp_actions) for a in icons}
    assert {"free_scrolls", "delay_cap"} <= kinds
    state = start()
    rows(state, "G", "B", "Y", "R")
    state.academy = ["", "", "", "", "", "", "", "", "", "Y", "", ""]  # only the 3-coin scroll
    state.coins[ALFRED] = 0
    do(state, "free_scrolls")
    assert alfred.academy(state, [])  # the scroll costs him nothing now
    state.round, state.beagle, state.ship[ALFRED] = 3, 2, 0
    do(state, "delay_cap")
    assert alfred.delay_penalty(state) == 1 + 2 + 2  # penalties 1, 2, 3 capped at 2


def test_an_action_alfred_has_no_rule_for_raises() -> None:
    """No silently dropped effect kinds: a data error is reported."""
    state = start()
    with pytest.raises(ValueError, match="no rule"):
        do(state, "teleport")


def test_p29_main_diary_target_may_be_an_occupied_printed_circle() -> None:
    """A printed circle takes any number of workers: it stays 'vazio' for Alfred's choice."""
    state = start()
    rows(state, "B", "G", "Y", "R")
    state.loc_workers["navigate.1"] = [HUMAN]
    state.coins[ALFRED] = 3
    hand(state, 1)
    move = alfred.alfred_move(state)
    assert (move["location"], move["penalty"]) == ("navigate.1", 3)


def test_p35_alfred_beagle_score_may_go_below_zero() -> None:
    """'subtraia todas as penalidades de Atraso ... do total multiplicado': no floor at 0."""
    state = start("white")
    value = AD.boards["white"]["beagle"]
    state.round, state.beagle, state.ship[ALFRED] = 2, 1, 0
    delay = DATA.delay_penalties[0] + DATA.delay_penalties[1]
    assert value * 2 - delay < 0
    assert solo.alfred_beagle(state) == value * 2 - delay


def test_p35_deliver_top_left_is_reading_order() -> None:
    """'mais ao topo esquerdo': the topmost row first (row A, column 4 before row B, column 1)."""
    state = start()
    hand(state, 6)
    state.research[ALFRED] = (1 << 3) | (1 << 4)
    state.research[HUMAN] = 0
    state.museum = 0
    state.museum_coins = [True] * 4
    assert alfred.delivery_coins(state, 3) == alfred.delivery_coins(state, 4)
    assert alfred.delivery_candidates(state) == [3]


def test_p27_yellow_and_green_are_both_advanced() -> None:
    """'Amarelo - Avancado, Verde - Avancado'."""
    raw = json.loads((Path(alfred.__file__).parent / "data" / "alfred_boards.json").read_text())
    assert {c: b["difficulty"] for c, b in raw["boards"].items()} == {
        "white": "easy", "blue": "medium", "yellow": "advanced", "green": "advanced"}
