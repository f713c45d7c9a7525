"""Set-up (RULES.md F3) per player count."""

from __future__ import annotations

import pytest

from core.flotilla import data as D
from tests.core.flotilla_helpers import fresh


@pytest.mark.parametrize("n", [3, 4, 5])
def test_f3_1_per_count_summary(n: int) -> None:
    """F3.1, F3.3.6, F3.3.10-F3.3.12: VP 100 per player; n cards per Guild and Level."""
    s = fresh(n)
    assert s["vp_supply"] == 100 * n
    for stack in s["crew"]:
        assert len(stack) == 2 * n
        levels = [D.card_level(c) for c in stack]
        assert levels == [2] * n + [1] * n  # F10.4: Level 1 on top (end), Level 2 below
    assert len(s["crew_box"]) == 8 * (5 - n)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_f3_3_7_objective_sets_per_side(n: int) -> None:
    """F3.3.7 known answer: 3 players, 3 sets a side; 5 players, 5 a side; top = highest."""
    s = fresh(n)
    left, right = s["obj_stacks"]
    assert len(left) == len(right) == n
    for stack in left + right:
        assert [D.OBJECTIVES[o]["order"] for o in stack] == [2, 1, 0]
    used = {D.OBJECTIVES[st[0]]["set"] for st in left + right}
    assert len(used) == 2 * n  # 11 - 2n sets back to the box


def test_f3_2_boards_and_markers() -> None:
    """F3.2.1, F3.2.2, F3.2.3, F3.2.4:
    Survivor marker on the top space, Market markers, Sonar on the first
    space, every Guild Dial on 1."""
    s = fresh(3)
    assert s["survivor"] == 0 and s["sonar"] == 0 and s["dials"] == [1, 1, 1, 1]
    assert s["market"] == [D.BOARDS["market"]["start"][c] for c in D.COLOURS]


def test_f3_2_5_first_player_and_turn_order() -> None:
    """F3.2.5, F4.1: a random first player; Starter Tiles follow clockwise in turn order."""
    firsts = {fresh(3, seed)["first"] for seed in range(30)}
    assert firsts == {0, 1, 2}
    s = fresh(4, 3)
    starters, _ = D.LAYOUT[4]
    for k in range(4):
        assert s["home"][(s["first"] + k) % 4] == starters[k]
    assert s["turn"] == s["first"]


def test_f3_3_8_artifacts_one_per_colour_removed() -> None:
    """F3.3.8: one Artifact of each colour to the box, 12 in the bag; Ocean Tiles bagged."""
    s = fresh(3)
    assert sorted(D.ARTIFACTS[a]["guild"] for a in s["art_box"]) == sorted(D.GUILDS)
    assert len(s["art_bag"]) == 12 and len(s["ocean_bag"]) == 92


def test_f3_3_9_f3_3_11_stacks_by_guild() -> None:
    """F3.3.9, F3.3.11: cards sorted by Guild and Level, each on its own Guild's space."""
    s = fresh(5)
    for g, stack in enumerate(s["crew"]):
        assert all(D.card_guild(c) == g for c in stack)


def test_f3_4_personal_areas() -> None:
    """F3.4.13, F3.4.14, F3.4.15, F3.4.16, F3.4.17, F3.4.18, F3.4.19, F3.4.20, F3.4.21,
    F34.1: Starter Tile at the Hub, its coins, board Sinkside up, one Skiff on
    the Dock and three on the board, Toxicity at the start, 6 starter cards, Seals, discs on
    the top space, 6 Outposts."""
    s = fresh(5, 2)
    for p in range(5):
        k = (p - s["first"]) % 5
        assert s["board"][s["home"][p]] == [-1 - p, 0, p, 0, 0]
        assert s["coins"][p] == D.BOARDS["starter_tiles"][k]["coins"]
        assert s["sky"][p] == 0
        assert s["skiffs"][p] == [s["home"][p], -1, -1, -1]
        assert s["tox"][p] == 0 and s["penalty"][p] == 0
        assert sorted(s["hand"][p]) == D.STARTER_CARDS
        assert s["seals"][p] == [0] * 4 and s["wheel"][p] == [0] * 4
        assert s["outposts"][p] == 6
