"""The stand-in component data: every component at the rulebook's count, every kind present."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from core.flotilla import data as D

NOTE = "stand-in, designed from the rulebook; replace with the physical components' values"
DATA_DIR = Path(D.__file__).parent / "data"


def test_every_data_file_is_marked_stand_in() -> None:
    """F36: the per-component data is not in the rulebook; every file says it is a stand-in."""
    files = sorted(DATA_DIR.glob("*.json"))
    assert len(files) >= 6
    for f in files:
        assert json.loads(f.read_text())["note"] == NOTE, f.name


def test_f2_1_player_sets() -> None:
    """F2.1, F36.8: per player 4 Skiffs, 6 Outposts, 10 Seals, a two-marker Toxicity track."""
    board = D.PLAYER_BOARD
    assert board["skiffs"] == 4 and board["seals"] == 10 and len(board["outpost_prices"]) == 6
    assert len(D.STARTER_CARDS) == 6


def test_f2_2_shared_component_counts() -> None:
    """F2.2, F2.3: 92 Ocean Tiles, 5 Starter, 3 Dock Tiles, 16 Artifacts, 33 Objectives,
    40 guild Crew Cards, 16 Dive Dice, 7 Research Dice, 30 Depletion Tokens."""
    assert len(D.TILES) == 92 and [t["id"] for t in D.TILES] == list(range(92))
    assert len(D.BOARDS["starter_tiles"]) == 5
    assert sorted(D.BOARDS["dock_tiles"]) == ["3", "4", "5"]
    assert len(D.ARTIFACTS) == 16
    assert len(D.OBJECTIVES) == 33
    assert len(D.CARDS) - len(D.STARTER_CARDS) == 40
    assert sum(D.DIVE_SUPPLY.values()) == 16
    assert len(D.RESEARCH_DICE) == 7
    assert D.BOARDS["supply"]["depletion_tokens"] == 30


def test_f2_4_f2_7_unattributed_items_unused() -> None:
    """F2.4 (A3) and F2.7 (A5): the caption numbers and Resource Tokens carry no rule here."""
    text = "".join(f.read_text() for f in DATA_DIR.glob("*.json"))
    assert "se exceder" not in text and "resource_token" not in text


def test_f2_5_f2_6_f36_16_guilds_colours_buildings() -> None:
    """F2.5, F2.6, F19.5, F36.16: four Guilds, each with a colour (Delvers blue) and Building."""
    assert D.GUILDS == ["speakers", "traders", "founders", "delvers"]
    assert D.BOARDS["guild_colour"]["delvers"] == "blue"
    assert len(set(D.BOARDS["guild_colour"].values())) == 4
    assert D.BOARDS["buildings"] == {"traders": "Greenhouse", "speakers": "Refinery",
                                     "founders": "Housing", "delvers": "Factory"}


def test_f17_1_f36_1_sinkside_faces() -> None:
    """F17.1, F17.2, F36.1: Depth 1-3, Toxicity 0-2, a colour, an Island, wedges, Building icon."""
    depths = Counter(t["sinkside"]["depth"] for t in D.TILES)
    assert set(depths) == {1, 2, 3}
    assert {t["sinkside"]["toxicity"] for t in D.TILES} == {0, 1, 2}
    assert {t["sinkside"]["resource"] for t in D.TILES} == set(D.COLOURS)
    assert any(t["sinkside"]["island"] for t in D.TILES)
    wedge_colours = {c for t in D.TILES for _, c in t["sinkside"]["wedges"]}
    assert wedge_colours == {"yellow", "red", "purple"}
    for t in D.TILES:
        # F17.2: the Sinkside icon tells whether the Skyside face has a Building
        assert t["sinkside"]["building_icon"] == int(t["skyside"]["building"] is not None)


def test_f19_1_f36_1_skyside_faces() -> None:
    """F19.1, F19.4, F36.1: cost, District(s) of the cost colour, Watercraft edges, at most one
    site and Building, Sonar pieces; A27: some faces carry two Districts."""
    for t in D.TILES:
        sky = t["skyside"]
        assert sky["cost"] and set(sky["districts"]) == set(sky["cost"])
        assert all(0 <= e < 6 for e in sky["watercraft_edges"]) and sky["watercraft_edges"]
        assert sky["site"] in (0, 1)
        assert sky["building"] is None or sky["building"] in sky["districts"]  # A28
    assert any(len(t["skyside"]["districts"]) == 2 for t in D.TILES)
    assert any(t["skyside"]["sonar"] is not None for t in D.TILES)
    assert any(t["skyside"]["building"] for t in D.TILES)


def test_f36_2_f36_3_starter_and_dock_tiles() -> None:
    """F36.2, F36.3, F28.3: Starter Tiles with coins and a site; Dock values fall with join
    order (16 then 13), build limits rise."""
    labels = [t["label"] for t in D.BOARDS["starter_tiles"]]
    assert labels[0] == "First Player" and labels[1] == "Second Player"
    assert all(t["sinkside"]["site"] and t["skyside"]["site"] for t in D.BOARDS["starter_tiles"])
    for n, dock in D.BOARDS["dock_tiles"].items():
        assert len(dock["skiff_value"]) == int(n) == len(dock["build_limit"])
        assert dock["skiff_value"][:2] == [16, 13] and dock["build_limit"][1] == 2
        assert dock["skiff_value"] == sorted(dock["skiff_value"], reverse=True)
        assert dock["build_limit"] == sorted(dock["build_limit"])


def test_f36_4_survivor_tracks() -> None:
    """F36.4, F25.2, A6, A41: a track per player count, the start space a Milestone, bonuses VP,
    crew or Milestones only."""
    for n in ("3", "4", "5"):
        track = D.BOARDS["survivor_tracks"][n]
        assert track[0] == ["milestone"]
        assert {sp[0] for sp in track} <= {"vp", "recruit_any", "milestone"}


def test_f36_5_f36_6_hub_and_guild_board() -> None:
    """F36.5, F36.6: Dials 1-4, three Artifact spaces and a printed first bonus per Guild,
    a Market Track, four Wheels with the arrow on the third space."""
    assert D.HUB["dial_start"] == 1 and D.DIAL_MAX == 4
    assert set(D.HUB["first_space_bonus"]) == set(D.GUILDS)
    assert D.MARKET_PRICES == sorted(D.MARKET_PRICES)
    assert D.ARROW_SPACE == 3
    kinds = {bonus[0] for wheel in D.WHEELS for space in wheel for bonus in space}
    assert kinds == {"tile", "survivor", "coins", "vp", "resource_any", "seal", "recruit"}
    assert all(len(w) == D.WHEEL_SPACES and w[0] == [] for w in D.WHEELS)


def test_f36_7_sonar_track() -> None:
    """F36.7, F27.2-F27.3: S1 1 Toxicity, S2 Survivor+Toxicity, S3 Survivor, S4 +die, S5."""
    icons = [[part[0] for part in sp["icon"]] for sp in D.SONAR]
    assert icons == [["toxicity"], ["survivor", "toxicity"], ["survivor"],
                     ["survivor", "extra_die"], ["survivor", "vp", "extra_die"]]


def test_f36_8_player_board() -> None:
    """F36.8, F14.2, F14.4: Outposts from 20 coins, rising; floating fees 10 and 20."""
    prices = D.OUTPOST_PRICES
    assert prices[0] == 20 and prices == sorted(prices) and len(set(prices)) == 6
    assert D.PLAYER_BOARD["floating_fee"] == {"sinkside": 10, "skyside": 20}
    assert D.PENALTY[0] >= 0 > D.PENALTY[-1]  # F24.4: gain early on the track, lose later


def test_f36_9_objectives() -> None:
    """F36.9, F3.3.7: 11 sets of 3, highest value on top on both faces."""
    sets = Counter(o["set"] for o in D.OBJECTIVES)
    assert len(sets) == 11 and set(sets.values()) == {3}
    for s in range(11):
        tiles = sorted((o for o in D.OBJECTIVES if o["set"] == s), key=lambda o: o["order"])
        for side in ("sinkside", "skyside"):
            values = [o[side]["vp_each"] for o in tiles]
            assert values == sorted(values, reverse=True)


def test_f36_10_f5_2_f5_5_crew_cards() -> None:
    """F36.10, F5.2, F5.5 (A12): 6 starter designs, 40 guild cards (4 Guilds x 2 Levels x 5),
    each face with a name, Guild, Level and a Navigation (Sinkside) or Income (Skyside)."""
    names = [D.CARDS[c]["sinkside"]["name"] for c in D.STARTER_CARDS]
    assert names[:2] == ["The Captain", "The Academic"] and "Starter Delver" in names
    per = Counter((c["sinkside"]["guild"], c["sinkside"]["level"]) for c in D.CARDS
                  if c["id"] not in D.STARTER_CARDS)
    assert set(per.values()) == {5} and len(per) == 8
    for c in D.CARDS:
        assert "nav" in c["sinkside"] and "income" in c["skyside"]
        assert c["sinkside"]["name"] and c["sinkside"]["level"] in ("starter", 1, 2)
    named = {c["sinkside"]["name"] for c in D.CARDS}
    assert {"The Translator", "The Dredger", "The Clinic"} <= named


def test_f36_11_artifacts() -> None:
    """F36.11, F26.5: 4 per Guild colour; the Rocket Engine and the Submarine give a Skiff."""
    assert Counter(a["guild"] for a in D.ARTIFACTS) == {g: 4 for g in D.GUILDS}
    skiffs = {a["name"] for a in D.ARTIFACTS if ["skiff"] in a["discovery"]}
    assert skiffs == {"Rocket Engine", "Submarine"}


def test_f36_12_f36_13_dice() -> None:
    """F36.12, F22.2: three dive kinds with the five icon kinds; F36.13, F23.6: research
    dice with coins, Advance, Guild icons and exactly one wildcard face each."""
    icons = {i for kind in D.DIVE_KINDS for face in D.DIVE_FACES[kind] for i in face}
    assert icons == {"R", "T", "D", "S", "N"}
    assert D.DEPTH_KIND == {1: "shallows", 2: "shelf", 3: "slope"}  # A32
    for die in D.RESEARCH_DICE:
        kinds = [f[0] for f in die]
        assert kinds.count("wild") == 1 and "advance" in kinds and "coins" in kinds
        assert "guild" in kinds


def test_f36_14_f36_15_tokens_and_reference_cards() -> None:
    """F36.14, F36.15, F3.3.6: VP as an integer supply of 100 per player; nothing else needed."""
    assert D.BOARDS["supply"]["vp_per_player"] == 100


def test_f16_5_f32_1_geometry_is_hexagonal() -> None:
    """F16.5 (A25), F32.1: hex cells with six neighbours; areas split by boundary rays."""
    centre = D.cell_id(0, 0)
    assert len([c for c in D.NEIGH[centre] if c >= 0]) == 6
    for n in (3, 4, 5):
        starters, sector = D.LAYOUT[n]
        assert len(set(starters)) == n
        assert [sector[c] for c in starters] == list(range(n))
