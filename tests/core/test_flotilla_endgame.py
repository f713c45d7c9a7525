"""Joining the Flotilla, the end of the game, final scoring and tie-breaks (F28-F30)."""

from __future__ import annotations

from core.flotilla import board as B
from core.flotilla import data as D
from core.flotilla import rules, scoring
from tests.core.flotilla_helpers import GAME, do, fresh, put, tile_where, top


def sinkside_area(s: dict, p: int) -> tuple[int, int, int]:
    cells = B.open_cells(s, p)
    island = tile_where(lambda t: t["sinkside"]["island"])
    plain = tile_where(lambda t: not t["sinkside"]["island"] and t["id"] != island)
    put(s, p, island, cells[0])
    put(s, p, plain, cells[1])
    s["board"][cells[0]][4] = 1  # an Outpost on the Island
    s["outposts"][p] = 5
    return island, plain, cells[0]


def test_f28_2_joining_steps_and_known_answers() -> None:
    """F28.2 steps 1-6 (A45, A46, A47), F28.3, F28.4 known answers: the 1st joiner sells
    the Skiffs on Ocean Tiles for 16 (A45: the Starter Tile's Skiff goes back unsold, as the
    text names Ocean Tiles only), Cargo to the Reserve, tiles with Outposts back to the bag,
    the rest to the tile Reserve, builds up to the Dock's limit; the 2nd sells for 13 and
    may build 2 (option sell_dock_skiffs: its Starter-Tile Skiff is sold too)."""
    s = fresh(3)
    p = s["turn"]
    island, plain, cell = sinkside_area(s, p)
    s["skiffs"][p] = [s["home"][p], cell, -1, -1]
    s["cargo"][p][1] = [1, 2, 0, 0]
    s["floating"][p] = 1
    coins = s["coins"][p]
    s["stack"] = [["play"]]
    rules.join_flotilla(s, p, [])
    assert s["coins"][p] == coins + 16
    assert s["skiffs"][p] == [-1, -2, -1, -1]
    assert s["reserve"][p] == [1, 2, 0, 0]
    assert island in s["ocean_bag"] and s["tiles"][p] == [plain]
    assert s["floating"][p] == 0 and s["outposts"][p] == 5
    assert s["sky"][p] == 1 and s["joined"] == 1
    assert top(s) == ["build", 1]
    q = (p + 1) % 3
    coins = s["coins"][q]
    s["options"]["sell_dock_skiffs"] = True
    assert s["skiffs"][q][0] == s["home"][q]
    s["stack"] = [["play"]]
    rules.join_flotilla(s, q, [])
    assert s["coins"][q] == coins + 13 and top(s) == ["build", 2]


def test_f28_2_step_5_f28_6_starter_outpost_stays() -> None:
    """F28.2 step 5, F28.6: the Starter Tile flips in place and keeps its Outpost."""
    s = fresh(3)
    p = s["turn"]
    s["board"][s["home"][p]][4] = 1
    rules.join_flotilla(s, p, [])
    assert s["board"][s["home"][p]] == [-1 - p, 0, p, 0, 1]


def test_f28_5_after_joining() -> None:
    """F28.5, F15.2: Skyside cards, draws to the tile Reserve, research instead of diving."""
    s = fresh(3)
    p = s["turn"]
    rules.join_flotilla(s, p, [])
    s["stack"] = [["play"]]
    do(s, "play", card=5)  # the Starter Delver researches on the Skyside
    assert top(s)[0] in ("research", "dial", "play", "influence", "ops")


def test_f29_1_f29_3_end_trigger_and_last_round() -> None:
    """F29.1, F29.2, F29.3, F1.7: the last supply VP triggers the end; the round is finished,
    one more round is played, further VP come from the reserve; then final scoring."""
    s = fresh(4, 3)
    first = s["first"]
    p = (first + 1) % 4
    s["vp_supply"] = 3
    rules.gain_vp(s, p, 5, [], "test")
    assert s["vp_supply"] == 0 and s["vp"][p] == 5 and s["end_round"] == s["round"] + 1
    rules.gain_vp(s, p, 2, [], "test")
    assert s["vp"][p] == 7
    s["turn"] = p
    s["stack"] = []
    rules.settle(s, [])
    turns = 0
    while not s["over"]:
        s["stack"] = []
        rules.settle(s, [])
        turns += 1
    assert turns == 2 + 4  # two seats finish the round, then one more round of 4 turns
    assert GAME.to_act(s) is None and GAME.result(s)["finished"]


def test_f30_1_final_scoring_breakdown() -> None:
    """F30.1 (A48: Cargo counts), F24.4: coins/5, Resources/2, the Score Penalty value,
    Seals; the total is the sum."""
    s = fresh(3)
    s["vp"] = [10, 0, 0]
    s["coins"] = [14, 0, 0]
    s["reserve"][0] = [1, 1, 0, 0]
    s["cargo"][0][0] = [1, 0, 0, 0]
    s["penalty"][0] = 2
    s["seals"][0] = [1, 0, 0, 0]
    parts = scoring.breakdown(s, 0)
    assert parts == {"game": 10, "coins": 2, "resources": 1, "toxicity": D.PENALTY[2],
                     "seals": 10, "total": 13 + D.PENALTY[2] + 10}


def test_f30_2_f30_3_seal_majorities() -> None:
    """F30.2, F30.3, F9.3 derived checks: 4/4/2 with A less toxic → 10, 5, 0; equal toxicity
    → 10, 10, 0; 5/3/3 → 10, 5, 5; no Seals, nothing."""
    s = fresh(3)
    s["seals"] = [[4, 0, 0, 0], [4, 0, 0, 0], [2, 0, 0, 0]]
    s["tox"] = [0, 1, 0]
    assert scoring.seal_awards(s) == [10, 5, 0]
    s["tox"] = [0, 0, 0]
    assert scoring.seal_awards(s) == [10, 10, 0]
    s["seals"] = [[5, 0, 0, 0], [3, 0, 0, 0], [3, 0, 0, 0]]
    assert scoring.seal_awards(s) == [10, 5, 5]
    s["seals"] = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert scoring.seal_awards(s) == [10, 0, 0]


def test_f30_4_f1_6_winner_and_tie_breaks() -> None:
    """F1.6, F30.4 (A49): most VP; then less Toxicity; then more Crew Cards; then more coins;
    then a shared victory."""
    s = fresh(3)
    s["over"] = True
    s["coins"] = [0, 0, 0]
    s["vp"] = [20, 20, 5]
    s["tox"] = [1, 0, 0]
    res = GAME.result(s)
    assert res["winners"] == [1] and res["ranking"][0] == 1
    s["tox"] = [0, 0, 0]
    s["hand"][0].append(10)
    assert GAME.result(s)["winners"] == [0]
    s["hand"][1].append(11)
    s["coins"] = [4, 3, 0]  # coins/5 adds nothing: the coin total breaks the tie
    assert GAME.result(s)["winners"] == [0]
    s["coins"] = [4, 4, 0]
    res = GAME.result(s)
    assert res["winners"] == [0, 1] and res["places"] == [1, 1, 3]
