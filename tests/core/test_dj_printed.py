"""Darwin's Journey closer to the printed game (issue 17): one test per point, citing its page.

Pages are those of the Portuguese rulebook, seed 000 (component texts at its start).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from core.darwins_journey import rules
from core.darwins_journey.data import DATA
from tests.core.test_dj_rules import GAME, do, moves, push, started

_PACKAGE = Path(rules.__file__).parent
RULEBOOK_NEEDS = {"empty_stacks", "kind", "color", "evo", "tents", "lenses", "ship_beagle",
                  "seals"}


# ---------------------------------------------------------------- 1. objective requirements

def difficulty(needs: tuple[tuple[Any, ...], ...]) -> float:
    """A rough effort measure of an objective's requirements (the grading of its colour).

    One specimen, regular seal, tent or lens = 1; an empty stamp stack 1.5 (four stamps to
    send); the ship at or past the Beagle 2 (it moves every round); an evolution step 0.2.
    """
    weight = {"kind": 1, "color": 1, "seals": 1, "tents": 1, "lenses": 1, "empty_stacks": 1.5,
              "evo": 0.2}
    total = 0.0
    for need in needs:
        if need[0] == "ship_beagle":
            total += 2
        else:
            total += weight[need[0]] * need[-1]
    return total


def test_p20_objective_requirements_are_the_rulebooks_icons() -> None:
    """p.20-21 'Requisitos dos Objetivos': only the listed icon kinds, a source for each tile."""
    raw = json.loads((_PACKAGE / "data" / "components.json").read_text())["objectives"]
    for tile in raw:
        assert {need[0] for need in tile["needs"]} <= RULEBOOK_NEEDS, tile["id"]
        assert tile["source"], tile["id"]
    regular = [o for o in DATA.objectives.values() if not o.starting]
    starting = [o for o in DATA.objectives.values() if o.starting]
    # p.3 components: 8 starting tiles (4 silver, 4 gold) and 10 silver + 10 gold
    assert sorted(o.gold for o in regular) == [False] * 10 + [True] * 10
    assert sorted(o.gold for o in starting) == [False] * 4 + [True] * 4


def test_p20_objective_difficulty_is_graded_silver_below_gold() -> None:
    """Every silver tile asks for less than any gold tile."""
    silver = [difficulty(o.needs) for o in DATA.objectives.values() if not o.gold]
    gold = [difficulty(o.needs) for o in DATA.objectives.values() if o.gold]
    assert max(silver) < min(gold)


# ---------------------------------------------------------------- 2. diary sections

def test_p8_each_special_diary_page_is_a_section_at_every_player_count() -> None:
    """p.8 figure: the special diary's red bookmark makes each page a section (1-4 players)."""
    for players in (2, 3, 4):
        s = started(players)
        s.special[0], s.special[1] = 2, 4
        s.seals[0][1] = ["P", "P"]
        s.seals[1][1] = ["P", "P"]
        do(s, type="place", worker=1, location="special.0")  # left page
        while s.stack:
            GAME.apply(s, next(m for m in GAME.legal_moves(s)
                               if m["type"] in ("skip", "done", "end_turn")))
        coins = s.coins[1]
        do(s, type="place", worker=1, location="special.1")  # right page: no penalty
        assert s.coins[1] == coins + 3  # tile 4: +3 coins
        assert DATA.section("special.0", players) != DATA.section("special.1", players)
        assert DATA.section("special.0", players) == DATA.section("special.2", players)
    assert DATA.section("unlock", 4) == "small"  # the small diary: always one section


# ---------------------------------------------------------------- 3. automatic fulfilment

def test_p20_auto_fulfilled_objective_goes_to_a_space_of_its_colour() -> None:
    """Tile 12 / crew 15 fulfil an objective; p.20 puts a fulfilled one on its own colour."""
    s = started(2)
    s.reserve[0] = [2, 13]  # a silver and a gold objective
    s.coins[0] = 10
    push(s, 0, ("auto_fulfil",))
    assert {m["slot"] for m in moves(s, type="auto_fulfil", tile=2)} == {0, 1, 2, 3, 4}
    assert {m["slot"] for m in moves(s, type="auto_fulfil", tile=13)} == {5, 6, 7, 8, 9}


# ---------------------------------------------------------------- 4. turn-order spots

def test_p17_turn_order_spots_are_the_boards_not_one_per_player() -> None:
    """p.17: the leftmost empty rectangular spot above the 4-space turn-order track."""
    s = started(2)
    s.home = [[0, 1, 2], [0, 1, 2]]
    for _ in range(2):
        do(s, type="place", worker=min(s.home[0]), location="turn_order")
        while s.stack:
            GAME.apply(s, next(m for m in GAME.legal_moves(s) if m["type"] == "end_turn"))
        do(s, type="place", worker=min(s.home[1]), location="deliver")
        while s.stack:
            GAME.apply(s, next(m for m in GAME.legal_moves(s)
                               if m["type"] in ("skip", "done", "end_turn")))
    assert s.reserved_order == [0, 0]
    assert moves(s, type="place", location="turn_order")  # a third spot is still free
    assert DATA.turn_order_spots == 4


# ---------------------------------------------------------------- 5. majority discard

def test_p23_only_players_who_took_a_reward_action_discard_half() -> None:
    """p.23: 'todos os jogadores que realizaram uma acao como recompensa' discard half."""
    s = started(2)
    s.corr = [4, 7, 7]  # envelope 1: explore 2 (first) / explore 1 (second)
    s.envelopes = [[3, 1], [0, 0], [0, 0]]
    s.home = [[], []]
    s.goals[0] = 12
    s.stack.clear()
    ev: list[dict[str, Any]] = []
    rules._end_action_phase(s, ev)
    rules.settle(s, ev)
    assert rules.to_act(s) == 0
    do(s, type="skip")  # the first declines his reward
    assert rules.to_act(s) == 1
    do(s, type="explore", island="A")  # the second explores
    assert s.envelopes[0] == [3, 0]
    assert s.tray == [0, 1]


# ---------------------------------------------------------------- 6. campsite slots

def test_p15_each_campsite_slot_offers_its_own_actions() -> None:
    """p.15: 'as acoes indicadas pelos icones mostrados no espaco onde colocou sua Tenda'."""
    s = started(2)
    s.coins[0] = 5
    push(s, 0, ("campsite", "O6"))
    assert {m["slot"] for m in moves(s, type="tent")} == {0, 1}
    do(s, type="tent", campsite="O6", slot=1)  # 1 coin, then +3 coins; no objective
    assert s.coins[0] == 7 and s.campsites["O6"][1] == 0
    assert not moves(s, type="objective")
    assert DATA.campsites["O6"].slot_actions == ((("objective",),), (("coins", 3),))


def test_p21_reactivation_repeats_the_tents_own_slot() -> None:
    """p.21 silver 1: 'realiza a acao associada como se a Tenda estivesse sendo colocada'."""
    s = started(2)
    s.campsites["O6"] = [-1, 0]
    s.tents[0] = 1
    s.coins[0] = 0
    s.obj_slots[0][0] = 2
    rules.fulfil_objective(s, 0, 2, 0, [])
    rules.settle(s, [])
    do(s, type="reactivate", campsite="O6", slot=1)
    assert s.coins[0] == 3  # the slot's 3 coins, nothing paid, no objective to take
    assert not moves(s, type="objective")


# ---------------------------------------------------------------- 7. crew card 8

def test_p18_crew_8_moves_a_ship_ahead_back_to_the_beagle() -> None:
    """Crew 8: 'Move your Ship to the same location as the HMS Beagle' - backward too."""
    s = started(2)
    s.beagle = 1
    s.ship[0] = DATA.ocean_index["O12"]
    push(s, 0, ("move_to_beagle",))
    do(s, type="beagle")
    assert s.ship[0] == DATA.beagle_spaces[1]


# ---------------------------------------------------------------- 9. no import circle

def _imports(module: str) -> set[str]:
    """The package modules a module of core/darwins_journey imports (at any depth of its code)."""
    tree = ast.parse((_PACKAGE / f"{module}.py").read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "core.darwins_journey":
                out.update(alias.name for alias in node.names)
            elif node.module.startswith("core.darwins_journey."):
                out.add(node.module.rsplit(".", 1)[1])
    return out


def test_engine_does_not_import_its_solo_mode() -> None:
    """The solo mode plugs into hooks the engine defines; the import graph has no cycle."""
    modules = [p.stem for p in _PACKAGE.glob("*.py") if p.stem != "__init__"]
    graph = {m: _imports(m) & set(modules) for m in modules}
    for engine in ("rules", "state", "effects", "data", "scoring", "setup", "views", "rng"):
        assert not graph[engine] & {"solo", "alfred"}, engine
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, f"import cycle {' -> '.join((*path, m))}"
        if m in done:
            return
        for dep in graph[m]:
            visit(dep, (*path, m))
        done.add(m)

    for m in modules:
        visit(m, ())


# ---------------------------------------------------------------- 10. chosen values listed

def test_chosen_values_are_in_data_files_and_listed_in_the_docs() -> None:
    """Every value the engine chose is in a data file, and the game's page of the docs lists
    them in one place."""
    page = (_PACKAGE.parents[1] / "docs" / "games" / "darwins-journey.md").read_text()
    start = page.index("## Values the engine chose")
    section = page[start:page.index("\n## ", start + 1)]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) >= 15
    for row in rows:
        data: dict[str, Any] = {}
        for name in row.split(" | ")[2].split("`")[1::2]:  # files, each followed by its keys
            if name.endswith(".json"):
                data = json.loads((_PACKAGE / "data" / name).read_text())
                assert "_notes" in data, name  # the provenance of the file's values
            else:
                assert name.split("[")[0] in data, (row, name)
