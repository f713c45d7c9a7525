"""Ocean Tiles: drawing, placing, building, Watercraft scoring, navigation, Sonar Stations
(F15-F21, F27)."""

from __future__ import annotations

from typing import Any

import pytest

from core.flotilla import board as B
from core.flotilla import data as D
from core.flotilla import rules
from tests.core.flotilla_helpers import (
    GAME,
    check_invariants,
    do,
    fresh,
    moves_of,
    put,
    run,
    tile_where,
    top,
)


def tox_tile(k: int, skip: set[int] = frozenset()) -> int:  # type: ignore[assignment]
    return tile_where(lambda t: t["sinkside"]["toxicity"] == k and t["id"] not in skip)


def test_f15_2_f15_3_draw_three_place_two_takes_all_toxicity() -> None:
    """F15.1, F15.2, F15.3 derived check, F34.11: draw 3 (Toxicity 1, 0, 2), place up to 2:
    3 Toxicity whatever is placed; the rest go back to the bag."""
    s = fresh(3)
    p = s["turn"]
    a = tox_tile(1)
    b = tox_tile(0)
    c = tox_tile(2)
    s["ocean_bag"] = sorted([a, b, c])
    run(s, p, [["draw_place", 3, 2]])
    assert s["tox"][p] == 3
    assert top(s)[0] == "place" and sorted(top(s)[1]) == sorted([a, b, c])
    first = moves_of(s, "pick_tile")[0]["tile"]
    do(s, "pick_tile", tile=first)
    do(s, "place")
    do(s, "done")
    assert len(s["ocean_bag"]) == 2 and first not in s["ocean_bag"]


def test_f16_1_f16_7_placement_next_to_your_own_tiles() -> None:
    """F16.1, F16.7, F34.12: a placed tile touches one of yours, inside your boundary, and is
    yours; offered as (cell, rotation) pairs, never free coordinates."""
    s = fresh(3)
    p = s["turn"]
    tile = tile_where(lambda t: not t["sinkside"]["wedges"])
    s["ocean_bag"] = [tile]
    run(s, p, [["draw", 1]])
    moves = moves_of(s, "place")
    home = s["home"][p]
    assert moves and all(m["cell"] in D.NEIGH[home] for m in moves)
    assert {m["rot"] for m in moves} == {0}  # no wedges: every rotation is the same
    do(s, "place", cell=moves[0]["cell"], rot=0)
    assert s["board"][moves[0]["cell"]] == [tile, 0, p, 0, 0]


def test_f16_2_boundaries_and_opponents() -> None:
    """F16.2, F3.4.13, F36.5: never across another player's boundary lines, never touching an
    opponent's tile."""
    s = fresh(3)
    p, q = 0, 1
    for cell in B.open_cells(s, p):
        assert cell in B.area(3, s["sector"][p])
        assert all(nb < 0 or nb not in s["board"] or s["board"][nb][2] == p
                   for nb in D.NEIGH[cell])
    # an opponent's tile next to a cell of ours makes that cell unavailable
    mine = B.area(3, s["sector"][p])
    border = next(c for c in B.area(3, s["sector"][q])
                  if any(nb in mine for nb in D.NEIGH[c] if nb >= 0))
    shared = next(nb for nb in D.NEIGH[border] if nb in mine)
    put(s, q, 5, border)
    for nb in D.NEIGH[shared]:
        if nb >= 0 and nb in mine and nb not in s["board"]:
            put(s, p, 6, nb)
            break
    assert shared not in B.open_cells(s, p)


def test_f16_3_depth_rule() -> None:
    """F16.3 (A23 (a)): no tile next to one of yours whose Depth differs by 2."""
    s = fresh(3)
    p = s["turn"]
    shallow = tile_where(lambda t: t["sinkside"]["depth"] == 1)
    slope = tile_where(lambda t: t["sinkside"]["depth"] == 3)
    shelf = tile_where(lambda t: t["sinkside"]["depth"] == 2)
    cell = B.open_cells(s, p)[0]
    put(s, p, shallow, cell)
    nxt = next(c for c in B.open_cells(s, p) if cell in D.NEIGH[c])
    assert not B.depth_fits(s["board"], nxt, slope)
    assert B.depth_fits(s["board"], nxt, shelf)


def test_f16_4_single_draw_is_placed() -> None:
    """F16.4 (A24), F15.2 glossary: the single-draw icon alone, "você coloca essa peça
    também (se não houver um espaço válido, devolva-a)": the tile must be placed; with no
    valid space it goes back to the bag; option drawn_tile_optional: it may be declined."""
    s = fresh(3)
    p = s["turn"]
    s["ocean_bag"] = [7]
    run(s, p, [["draw", 1]])
    assert not moves_of(s, "skip") and not moves_of(s, "done") and moves_of(s, "place")
    # no valid space: back to the bag by itself
    s = fresh(3)
    p = s["turn"]
    s["ocean_bag"] = [7]
    home = s["home"][p]
    for cell in B.open_cells(s, p):
        s["board"][cell] = [-1, 0, (p + 1) % 3, 0, 0]  # filled by something not ours
    assert not rules.sink_placements(s, p, 7) and home in s["board"]
    run(s, p, [["draw", 1]])
    assert s["ocean_bag"] == [7] and top(s) == ["play"]
    # the other reading, selectable
    s = fresh(3, drawn_tile_optional=True)
    p = s["turn"]
    s["ocean_bag"] = [7]
    run(s, p, [["draw", 1]])
    do(s, "pick_tile", tile=7)
    do(s, "skip")
    assert s["ocean_bag"] == [7]


def test_f15_2_draw_place_icon_stays_optional() -> None:
    """F15.2 glossary: the draw/place icon places "up to" its number: declining is legal."""
    s = fresh(3)
    p = s["turn"]
    s["ocean_bag"] = [7, 8]
    run(s, p, [["draw_place", 2, 1]])
    do(s, "done")
    assert sorted(s["ocean_bag"]) == [7, 8]


def test_f16_3_depth_rule_is_an_option() -> None:
    """F16.3 (A23): the lost icon's Depth reading can be switched off (depth_rule false)."""
    for rule in (True, False):
        s = fresh(3, depth_rule=rule)
        p = s["turn"]
        shallow = tile_where(lambda t: t["sinkside"]["depth"] == 1)
        slope = tile_where(lambda t: t["sinkside"]["depth"] == 3)
        cell = B.open_cells(s, p)[0]
        put(s, p, shallow, cell)
        nxt = next(c for c in B.open_cells(s, p) if cell in D.NEIGH[c])
        cells = {c for c, _ in rules.sink_placements(s, p, slope)}
        assert (nxt in cells) is not rule


@pytest.fixture(autouse=True)
def _fresh_rotations() -> Any:
    """Faces patched by a test must not leave cached rotations behind."""
    B.rotations.cache_clear()
    yield
    B.rotations.cache_clear()


def with_face(monkeypatch: Any, tile: int, side: str, **fields: Any) -> None:
    B.rotations.cache_clear()
    face = dict(D.TILES[tile][side])
    face.update(fields)
    monkeypatch.setitem(D.TILES[tile], side, face)


def corner_cells(cell: int, v: int) -> tuple[int, int]:
    return D.NEIGH[cell][v], D.NEIGH[cell][(v + 1) % 6]


def far_cell() -> int:
    return D.cell_id(3, -6)


def test_f16_6_f26_1_completing_an_artifact_circle(monkeypatch: Any) -> None:
    """F16.6, F17.1.E, F26.1, F26.2: a placement completing a same-colour wedge circle draws
    an Artifact, resolves its reward and puts it by its Guild's Dial."""
    s = fresh(3)
    p = s["turn"]
    c = far_cell()
    a, b = corner_cells(c, 0)
    with_face(monkeypatch, 10, "sinkside", wedges=[[0, "red"]])
    with_face(monkeypatch, 11, "sinkside", wedges=[[2, "red"]])
    with_face(monkeypatch, 12, "sinkside", wedges=[[4, "red"]])
    put(s, p, 11, a)
    put(s, p, 12, b)
    put(s, p, 10, c)
    assert B.completed_circles(s["board"], c) == 1
    with_face(monkeypatch, 12, "sinkside", wedges=[[4, "purple"]])
    assert B.completed_circles(s["board"], c) == 0
    with_face(monkeypatch, 12, "sinkside", wedges=[[4, "red"]])
    del s["board"][c]
    s["stack"] = [["play"]]
    bag = len(s["art_bag"])
    rules.place_tile(s, p, 10, c, 0, [])
    rules.settle(s, [])
    assert len(s["art_bag"]) == bag - 1 and sum(map(len, s["hub"])) == 1


def test_f26_2_artifact_resolved_before_the_hub() -> None:
    """F26.2: "Draw ... and immediately resolve its Discovery Reward", then "Flip it ... and
    insert it" on the Hub: while its reward's choices are pending it is not on the Hub."""
    s = fresh(3)
    art = next(a for a in s["art_bag"] if D.ARTIFACTS[a]["discovery"][0][0] == "resource_any")
    s["art_box"] += [a for a in s["art_bag"] if a != art]
    s["art_bag"] = [art]
    guild = rules.GN.index(D.ARTIFACTS[art]["guild"])
    before = list(s["hub"][guild])
    s["stack"] = [["play"], ["artifact"]]
    rules.settle(s, [])
    assert top(s) == ["resource_any"] and s["hub"][guild] == before
    check_invariants(s)
    assert str(art) in GAME.view(s, 1)["catalog"]["artifacts"]
    for _ in range(D.ARTIFACTS[art]["discovery"][0][1]):
        do(s, "resource")
    assert s["hub"][guild] == [*before, art] and top(s) == ["play"]


def sky_face(monkeypatch: Any, tile: int, districts: list[str], edges: list[int],
             building: str | None = None, sonar: int | None = None) -> None:
    with_face(monkeypatch, tile, "skyside", districts=districts, edges=None,
              watercraft_edges=edges, building=building, sonar=sonar,
              cost={districts[0]: 1})


def test_f20_2_known_answer_twelve(monkeypatch: Any) -> None:
    """F20.1, F20.2 known answer, F19.2, F20.3 (A29 (a)), F20.5: Dial 3 + 1 Building in the
    Watercraft → A = 4; 3 contiguous yellow tiles → B = 3; 12 VP. A green District breaks
    the chain; a Building beyond water does not count."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    s["dials"][D.COLOUR_GUILD[D.COLOURS.index("yellow")]] = 3
    line = [D.cell_id(q, -6) for q in range(1, 6)]
    sky_face(monkeypatch, 20, ["yellow"], [0, 3])  # Y2
    sky_face(monkeypatch, 21, ["yellow"], [0, 3])  # Y1
    sky_face(monkeypatch, 22, ["yellow"], [0, 3])  # the new tile
    sky_face(monkeypatch, 23, ["green"], [0, 3])
    sky_face(monkeypatch, 24, ["yellow"], [3], building="yellow")  # "Tile 1"
    sky_face(monkeypatch, 25, ["yellow"], [4], building="yellow")  # "Tile 2", beyond water
    for tile, cell in zip((20, 21, None, 23, 24), line, strict=True):
        if tile is not None:
            put(s, p, tile, cell)
    put(s, p, 25, D.NEIGH[line[2]][1])
    s["ocean_bag"].remove(22)
    s["tiles"][p] = [22]
    ev: list = []
    rules.build_tile(s, p, 22, line[2], 0, ev)
    scored = [e for e in ev if e["type"] == "district_scored"][0]
    assert (scored["a"], scored["b"]) == (4, 3) and s["vp"][p] == 12


def test_f20_4_f20_7_minimum_score_one_and_cap_four(monkeypatch: Any) -> None:
    """F20.4 known answer: a lone tile with Dials at 1 scores 1; F20.7: A never above 4."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    cell = D.cell_id(3, -6)
    sky_face(monkeypatch, 30, ["red"], [0])
    put(s, p, 30, cell)
    assert B.build_score(s, cell, 0, p) == (1, 1)
    s["dials"][D.COLOUR_GUILD[0]] = 4
    sky_face(monkeypatch, 30, ["red"], [0], building="red")
    assert B.build_score(s, cell, 0, p) == (4, 1)


def test_f20_6_one_district_chosen(monkeypatch: Any) -> None:
    """F20.6 known answer, F19.4 (A27): a tile with two Districts scores only the one chosen."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    sky_face(monkeypatch, 31, ["red", "yellow"], [0, 1, 2, 3, 4, 5])
    s["tiles"][p] = [31]
    s["ocean_bag"].remove(31)
    s["stack"] = [["play"]]
    rules.build_tile(s, p, 31, B.open_cells(s, p)[0], 0, [])
    assert [m["colour"] for m in moves_of(s, "district")] == ["red", "yellow"]
    do(s, "district", colour="yellow")
    assert s["vp"][p] == 1


def test_f18_1_build_pays_and_places(monkeypatch: Any) -> None:
    """F18.1, F34.13: choose an affordable tile from the Reserve, pay its cost from your
    Resources, place it next to your tiles, score it at once."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    with_face(monkeypatch, 40, "skyside", cost={"green": 2}, districts=["green"], sonar=None)
    with_face(monkeypatch, 41, "skyside", cost={"blue": 3}, districts=["blue"], sonar=None)
    s["tiles"][p] = [40, 41]
    for t in (40, 41):
        s["ocean_bag"].remove(t)
    s["reserve"][p] = [0, 0, 2, 1]
    run(s, p, [["build", 2]])
    assert [m["tile"] for m in moves_of(s, "pick_tile")] == [40]
    do(s, "pick_tile", tile=40)
    assert s["reserve"][p] == [0, 0, 0, 1]
    cells = {m["cell"] for m in moves_of(s, "build")}
    assert cells == set(B.open_cells(s, p))
    m = moves_of(s, "build")[0]
    do(s, "build", cell=m["cell"], rot=m["rot"])
    assert s["board"][m["cell"]][:3] == [40, m["rot"], p] and s["vp"][p] >= 1


def test_f18_2_several_builds_score_one_at_a_time() -> None:
    """F18.2 (A26 (a)): each built tile is scored as it is placed, before the next."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    s["tiles"][p] = [0, 1]
    for t in (0, 1):
        s["ocean_bag"].remove(t)
    s["reserve"][p] = [9, 9, 9, 9]
    run(s, p, [["build", 2]])
    do(s, "pick_tile", tile=0)
    m = moves_of(s, "build")[0]
    ev = do(s, "build", cell=m["cell"], rot=m["rot"])
    assert any(e["type"] in ("district_scored",) for e in ev) or top(s)[0] == "district"


def test_f19_2_f19_3_watercraft_connectivity(monkeypatch: Any) -> None:
    """F19.2, F19.3: connected Watercraft art is one Watercraft across Districts; a Watercraft
    surrounded by water ends there."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    a, b, c = (D.cell_id(q, -6) for q in (1, 2, 3))
    sky_face(monkeypatch, 50, ["red"], [0])
    sky_face(monkeypatch, 51, ["blue"], [3, 0])
    sky_face(monkeypatch, 52, ["red"], [1])
    put(s, p, 50, a)
    put(s, p, 51, b)
    put(s, p, 52, c)
    assert B.watercraft(s["board"], a, p) == {a, b}
    assert B.watercraft(s["board"], c, p) == {c}


def test_f19_5_building_types() -> None:
    """F19.5 (A28): a Building's type is its District's colour."""
    for t in D.TILES:
        if t["skyside"]["building"]:
            assert t["skyside"]["building"] in t["skyside"]["districts"]


def test_f21_1_f21_3_navigation_splits_points(monkeypatch: Any) -> None:
    """F21.1, F21.2 (A31: the Starter Tile is one space), F21.3, F34.4: a point moves one Skiff
    to an adjacent tile of yours; points may be split and Skiffs may share a tile."""
    s = fresh(3)
    p = s["turn"]
    home = s["home"][p]
    cells = [c for c in D.NEIGH[home] if c in B.open_cells(s, p)][:2]
    for k, c in enumerate(cells):
        put(s, p, k, c)
    s["skiffs"][p] = [home, home, -1, -1]
    s["stack"] = [["play"], ["nav", 2]]
    targets = {(m["skiff"], m["cell"]) for m in moves_of(s, "sail")}
    assert targets == {(i, c) for i in (0, 1) for c in cells}
    do(s, "sail", skiff=0, cell=cells[0])
    do(s, "sail", skiff=1, cell=cells[0])
    assert s["skiffs"][p][:2] == [cells[0], cells[0]] and top(s) == ["play"]


def test_f21_6_skyside_has_no_skiffs_or_navigation() -> None:
    """F21.6, F28.5: after joining a player has no Skiffs and Income replaces Navigation."""
    s = fresh(3)
    p = s["turn"]
    rules.join_flotilla(s, p, [])
    assert all(c < 0 for c in s["skiffs"][p])


def test_f27_4_sonar_advance_may_be_declined(monkeypatch: Any) -> None:
    """F27.4, A44, F34.19: p. 11 "você pode avançar": completing a Station offers the
    advance or not (the default reading); declining leaves every Sonar icon as it is."""
    for advance in (True, False):
        s = fresh(3)
        p = s["turn"]
        s["sky"][p] = 1
        c = far_cell()
        a, b = corner_cells(c, 0)
        sky_face(monkeypatch, 60, ["red"], [0], sonar=0)
        sky_face(monkeypatch, 61, ["red"], [3], sonar=2)
        sky_face(monkeypatch, 62, ["red"], [3], sonar=4)
        put(s, p, 61, a)
        put(s, p, 62, b)
        s["tiles"][p] = [60]
        s["ocean_bag"].remove(60)
        s["stack"] = [["play"]]
        rules.build_tile(s, p, 60, c, 0, [])
        assert s["stations"][p] == 1 and s["sonar"] == 0
        assert [m["advance"] for m in moves_of(s, "sonar")] == [True, False]
        vp = s["vp"][p]
        do(s, "sonar", advance=advance)
        assert s["sonar"] == (1 if advance else 0)
        assert s["vp"][p] == vp + (D.SONAR[1]["vp"] if advance else 0)


def test_f27_4_f27_5_sonar_station(monkeypatch: Any) -> None:
    """F27.4, F27.5 (A44: sonar_optional false, "immediately advance", p. 15), F27.6:
    three Skyside tiles whose Sonar pieces meet at a
    point complete a Station: the marker advances and its VP is gained; at the end, 5 VP."""
    s = fresh(3, sonar_optional=False)
    p = s["turn"]
    s["sky"][p] = 1
    c = far_cell()
    a, b = corner_cells(c, 0)
    sky_face(monkeypatch, 60, ["red"], [0], sonar=0)
    sky_face(monkeypatch, 61, ["red"], [3], sonar=2)
    sky_face(monkeypatch, 62, ["red"], [3], sonar=4)
    put(s, p, 61, a)
    put(s, p, 62, b)
    s["tiles"][p] = [60]
    s["ocean_bag"].remove(60)
    rules.build_tile(s, p, 60, c, 0, [])
    assert s["sonar"] == 1 and s["stations"][p] == 1
    assert s["vp"][p] == 1 * 2 + D.SONAR[1]["vp"]  # the red pair (A 1, B 2), then the Sonar
    s["sonar"] = len(D.SONAR) - 1
    vp = s["vp"][p]
    rules.advance_sonar(s, p, [])
    assert s["vp"][p] == vp + 5


@pytest.mark.parametrize("space,expect", [(0, (0, 1)), (1, (1, 1)), (2, (1, 0))])
def test_f27_1_f27_3_sonar_icon_meaning(space: int, expect: tuple[int, int]) -> None:
    """F27.1, F27.2 known answer, F27.3, F22.8: a Sonar icon means the Sonar Track's current
    space for every Sinkside player: S1 1 Toxicity, S2 Survivor + Toxicity, S3 Survivor."""
    s = fresh(3)
    p = s["turn"]
    s["sonar"] = space
    s["stack"] = [["play"], ["dive", [["N", "shallows"]], [], 0,
                             {"shallows": 1, "shelf": 0, "slope": 0}]]
    do(s, "resolve", icon="N", kind="shallows")
    assert (s["rescued"][p], s["tox"][p]) == expect


def test_f27_3_extra_die_of_the_same_kind() -> None:
    """F27.3 (A43), F22.10: at S4 a Sonar icon adds a die of the same kind, within supply."""
    s = fresh(3)
    s["sonar"] = 3
    used = {"shallows": 1, "shelf": 0, "slope": 5}
    s["stack"] = [["play"], ["dive", [["N", "slope"]], [], 0, used]]
    do(s, "resolve", icon="N", kind="slope")
    assert used["slope"] == 5  # the supply of Slope dice is exhausted: no extra die
    s["stack"] = [["play"], ["dive", [["N", "shallows"]], [], 0, dict(used)]]
    do(s, "resolve", icon="N", kind="shallows")
    frame = next(f for f in s["stack"] if f[0] == "dive")
    assert frame[4]["shallows"] == 2 and frame[1]
    assert GAME.legal_moves(s)
