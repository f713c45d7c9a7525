"""Diving, Research, Toxicity, Survivors and Artifacts (F22-F26)."""

from __future__ import annotations

from typing import Any

from core.flotilla import board as B
from core.flotilla import data as D
from core.flotilla import rules
from tests.core.flotilla_helpers import GAME, do, fresh, moves_of, put, run, tile_where, top


def depth_tile(depth: int, skip: int = -1) -> int:
    return tile_where(lambda t: t["sinkside"]["depth"] == depth and t["id"] != skip)


def two_skiffs(s: dict[str, Any], p: int) -> tuple[int, int]:
    """Skiffs on a Depth-3 and a Depth-2 tile next to the Starter Tile (the F22.9 example)."""
    cells = B.open_cells(s, p)
    deep, mid = depth_tile(3), depth_tile(2)
    put(s, p, deep, cells[0])
    put(s, p, mid, cells[1])
    s["skiffs"][p] = [cells[0], cells[1], -1, -1]
    return cells[0], cells[1]


def test_f22_1_f22_3_f22_9_gathering_the_dice() -> None:
    """F22.1, F22.2 (A32), F22.3, F22.9 known answer, F35.4: the Starter Delver with Skiffs on
    Depths 3 and 2 rolls 2 Shallows + 1 Shelf + 1 Slope."""
    s = fresh(3)
    p = s["turn"]
    two_skiffs(s, p)
    run(s, p, [["dive", {"shallows": 2}, []]])
    frame = next(f for f in s["stack"] if f[0] == "dive")
    assert frame[4] == {"shallows": 2, "shelf": 1, "slope": 1}
    assert {r[1] for r in frame[1]} <= {"shallows", "shelf", "slope"}


def test_f22_3_depleted_tiles_and_the_starter_roll_nothing() -> None:
    """F22.3 derived: Skiffs on depleted tiles or on the Starter Tile add no dice."""
    s = fresh(3)
    p = s["turn"]
    a, _ = two_skiffs(s, p)
    s["board"][a][3] = 1
    s["skiffs"][p][2] = s["home"][p]
    run(s, p, [["dive", {}, []]])
    frame = next(f for f in s["stack"] if f[0] == "dive")
    assert frame[4] == {"shallows": 0, "shelf": 1, "slope": 0}


def dive_frame(s: dict[str, Any], p: int, pool: list[list[str]], flags: list[str] | None = None
               ) -> None:
    s["turn"] = p
    s["stack"] = [["play"], ["dive", pool, flags or [], 0,
                             {"shallows": 0, "shelf": 0, "slope": 0}]]


def test_f22_4_resource_on_a_chosen_skiff() -> None:
    """F22.4, F34.14: a Resource result loads the chosen Skiff with its tile's colour;
    (A33) with no room it is lost."""
    s = fresh(3)
    p = s["turn"]
    a, b = two_skiffs(s, p)
    dive_frame(s, p, [["R", "shallows"], ["R", "shallows"]])
    do(s, "resolve", icon="R")
    assert {m["skiff"] for m in moves_of(s, "cargo")} == {0, 1}
    do(s, "cargo", skiff=1)
    colour = D.COLOURS.index(B.sink(s["board"][b][0])["resource"])
    assert s["cargo"][p][1][colour] == 1
    s["cargo"][p][0] = [4, 0, 0, 0]
    s["cargo"][p][1] = [0, 4, 0, 0]
    do(s, "resolve", icon="R")
    assert top(s) == ["play"] and sum(map(sum, s["cargo"][p])) == 8


def test_f22_5_f22_6_toxicity_and_depletion_beyond_the_first() -> None:
    """F22.5, F22.6 (A34), F22.9 derived checks: Toxicity advances the upper marker; 1
    Depletion icon → no token, 2 → one token, on a tile with a Skiff."""
    s = fresh(3)
    p = s["turn"]
    a, b = two_skiffs(s, p)
    dive_frame(s, p, [["T", "slope"], ["D", "slope"], ["D", "shelf"]])
    do(s, "resolve", icon="T")
    assert s["tox"][p] == 1 and s["penalty"][p] == 0
    do(s, "resolve", icon="D")
    assert not s["board"][a][3] and not s["board"][b][3]
    do(s, "resolve", icon="D")
    assert {m["cell"] for m in moves_of(s, "deplete")} == {a, b}
    do(s, "deplete", cell=b)
    assert s["board"][b][3] == 1


def test_f22_6_resources_before_depletion() -> None:
    """F22.6 FAQ known answer: results resolve in any order, Resources before Depletion."""
    s = fresh(3)
    p = s["turn"]
    a, _ = two_skiffs(s, p)
    s["skiffs"][p][1] = -1
    dive_frame(s, p, [["D", "slope"], ["D", "slope"], ["R", "slope"]])
    s["stack"][-1][3] = 0
    assert {m["icon"] for m in moves_of(s, "resolve")} == {"D", "R"}
    do(s, "resolve", icon="R")
    do(s, "resolve", icon="D")
    do(s, "resolve", icon="D")
    assert sum(s["cargo"][p][0]) == 1 and s["board"][a][3] == 1


def test_f22_6_excess_depletion_on_any_tile() -> None:
    """F22.6 (A34): a token goes on a non-depleted tile with your Skiff; only tokens beyond
    "the number of Skiffs you have" (the excess) may go on any non-depleted tile of yours; a
    token that is not excess and has no Skiff tile is not placed."""
    s = fresh(3)
    p = s["turn"]
    a, b = two_skiffs(s, p)
    s["skiffs"][p] = [s["home"][p], -1, -1, -1]  # one Skiff, on the Starter Tile
    assert rules.depletion_targets(s, p, 1) == []
    assert rules.depletion_targets(s, p, 2) == sorted([a, b])
    s["skiffs"][p] = [a, s["home"][p], -1, -1]  # two Skiffs, one on tile a
    assert rules.depletion_targets(s, p, 1) == [a] == rules.depletion_targets(s, p, 2)
    assert rules.depletion_targets(s, p, 3) == sorted([a, b])


def test_f22_7_survivor_result() -> None:
    """F22.7: a Survivor result advances the shared marker one space."""
    s = fresh(3)
    p = s["turn"]
    dive_frame(s, p, [["S", "shelf"]])
    do(s, "resolve", icon="S")
    assert s["survivor"] == 1


def test_f22_11_dredger_ignores_toxicity_and_depletion() -> None:
    """F22.11 known answer: both Toxicity and Depletion are ignored."""
    s = fresh(3)
    p = s["turn"]
    a, b = two_skiffs(s, p)
    dive_frame(s, p, [["T", "slope"], ["D", "slope"], ["D", "slope"], ["N", "slope"]],
               ["no_toxicity", "no_depletion"])
    for icon in ("T", "D", "D"):
        do(s, "resolve", icon=icon)
    do(s, "resolve", icon="N", kind="slope")
    assert s["tox"][p] == 0 and not s["board"][a][3] and not s["board"][b][3]


def research_frame(s: dict[str, Any], p: int, faces: list[tuple[int, int]], rerolls: int = 0
                   ) -> None:
    s["turn"] = p
    s["sky"][p] = 1
    s["stack"] = [["play"], ["research", [[d, f, -1] for d, f in faces], rerolls]]
    rules.settle(s, [])


def face_of(kind: str, value: Any = None) -> tuple[int, int]:
    for d, die in enumerate(D.RESEARCH_DICE):
        for f, face in enumerate(die):
            if face[0] == kind and (value is None or face[1] == value):
                return d, f
    raise AssertionError(kind)


def test_f23_1_f23_2_coins_and_rerolls() -> None:
    """F23.1, F23.2, F34.15: coin icons pay their coins; a card may allow rerolls."""
    s = fresh(3)
    p = s["turn"]
    coins = s["coins"][p]
    research_frame(s, p, [face_of("coins", 2), face_of("coins", 1)], rerolls=1)
    assert {m["type"] for m in GAME.legal_moves(s)} == {"reroll", "done"}
    do(s, "done")
    assert s["coins"][p] == coins + 3


def test_f23_3_breakthrough_raises_a_dial() -> None:
    """F23.3, F20.7: 3 Advance results: you may raise any Dial by 1 (max 4)."""
    s = fresh(3)
    p = s["turn"]
    adv = face_of("advance")
    research_frame(s, p, [adv, adv, adv])
    assert {m["type"] for m in GAME.legal_moves(s)} == {"dial", "skip"}
    do(s, "dial", guild="founders")
    assert s["dials"][2] == 2
    s["dials"] = [4, 4, 4, 4]
    research_frame(s, p, [adv, adv, adv])
    assert top(s) == ["play"]


def test_f23_4_known_answer_two_delver_artifacts() -> None:
    """F23.4 known answer, F26.2: 2 Delver Artifacts by the Dial and 3 blue results → both
    Artifacts' bonuses (1 each): 2 in all."""
    s = fresh(3)
    p = s["turn"]
    delvers = [a["id"] for a in D.ARTIFACTS if a["guild"] == "delvers"][:2]
    s["hub"][3] = delvers
    blue = face_of("guild", "delvers")
    research_frame(s, p, [blue, blue, blue])
    assert s["vp"][p] == 2


def test_f23_5_first_space_bonus_and_same_guild_influence() -> None:
    """F23.5, F26.4, F8.5 FAQ: with no Artifact yet the printed first-space bonus counts;
    "=" Influence of one reward goes to a single Guild."""
    s = fresh(3)
    p = s["turn"]
    coins = s["coins"][p]
    trader = face_of("guild", "traders")
    research_frame(s, p, [trader, trader, trader])
    assert s["coins"][p] == coins + D.HUB["first_space_bonus"]["traders"][0][1]
    speakers = [a["id"] for a in D.ARTIFACTS if a["guild"] == "speakers"][:2]
    s["hub"][0] = speakers
    assert rules.guild_reward(s, 0) == [["influence", 2, "same"]]


def test_f23_6_f23_7_wildcards_and_sets() -> None:
    """F23.6: a wildcard counts for one chosen Guild, once; F23.7 (A36): one reward per Guild
    per roll even with 6 icons."""
    s = fresh(3)
    p = s["turn"]
    wild = face_of("wild")
    delver = face_of("guild", "delvers")
    s["hub"][3] = [a["id"] for a in D.ARTIFACTS if a["guild"] == "delvers"][:1]
    research_frame(s, p, [delver, delver, wild, delver, delver, delver])
    assert len(moves_of(s, "wild")) == 4
    do(s, "wild", guild="delvers", die=2)
    assert s["vp"][p] == 1


def test_f24_1_f24_3_toxicity_overflow() -> None:
    """F24.1, F24.2, F24.3: past the track's end the Score Penalty marker advances and the
    Toxicity marker returns to the first space."""
    s = fresh(3)
    p = s["turn"]
    rules.add_toxicity(s, p, D.TOX_TRACK - 1, [])
    assert s["tox"][p] == D.TOX_TRACK - 1 and s["penalty"][p] == 0
    rules.add_toxicity(s, p, 1, [])
    assert s["tox"][p] == 0 and s["penalty"][p] == 1


def test_f24_4_f24_5_penalty_stays_at_max_and_the_clinic() -> None:
    """F24.4, F24.5 known answer: at its last space the marker stays; the Clinic still lowers
    it one space."""
    s = fresh(3)
    p = s["turn"]
    last = len(D.PENALTY) - 1
    s["penalty"][p] = last
    rules.add_toxicity(s, p, 3 * D.TOX_TRACK, [])
    assert s["penalty"][p] == last
    run(s, p, [["clinic", 1]])
    assert s["penalty"][p] == last - 1


def test_f24_6_less_toxicity_compared_penalty_first() -> None:
    """F24.6 (A38): less Toxicity = lower Score Penalty position, then Toxicity position."""
    s = fresh(3)
    s["penalty"] = [1, 0, 0]
    s["tox"] = [0, 5, 2]
    assert sorted(range(3), key=lambda p: rules.toxicity_key(s, p)) == [2, 1, 0]


def test_f25_1_f25_3_each_survivor_one_space() -> None:
    """F25.1, F25.2, F25.3 (A40): each Survivor moves the shared marker one space and takes
    that space's bonus."""
    s = fresh(3)
    p = s["turn"]
    track = D.BOARDS["survivor_tracks"]["3"]
    run(s, p, [["survivor", 2]])
    assert s["survivor"] == 2
    assert s["vp"][p] == track[1][1] + track[2][1]


def test_f25_4_f25_5_milestone() -> None:
    """F25.4, F25.5 (A41), F34.16: ending on a Milestone (the start space on every lap): 2 Toxicity,
    an Artifact, then a Dial of your choice."""
    s = fresh(3)
    p = s["turn"]
    track = D.BOARDS["survivor_tracks"]["3"]
    s["survivor"] = len(track) - 1
    s["art_bag"] = [a for a in s["art_bag"] if D.ARTIFACTS[a]["discovery"] == [["vp", 3]]]
    s["art_bag"] = s["art_bag"] or [15]
    run(s, p, [["survivor", 1]])
    assert s["survivor"] == 0 and s["tox"][p] >= 2
    assert sum(map(len, s["hub"])) == 1
    assert top(s)[0] == "dial" and len(moves_of(s, "dial")) == 4
    do(s, "dial", guild="speakers")
    assert s["dials"][0] == 2


def test_f26_3_empty_artifact_bag() -> None:
    """F26.3: with the bag empty, 4 VP instead."""
    s = fresh(3)
    p = s["turn"]
    s["art_bag"] = []
    rules.discover(s, p, [])
    assert s["vp"][p] == 4


def rocket() -> int:
    return next(a["id"] for a in D.ARTIFACTS if a["name"] == "Rocket Engine")


def test_f26_5_f26_6_free_skiff_or_twelve_coins() -> None:
    """F26.5 known answer (A42), F26.6, F34.17, F34.20:
    the Rocket Engine gives a Skiff to the Dock; with all
    4 in play, or on the Skyside, 12 coins instead, the Toxicity still taken and the tile
    still placed on the Hub."""
    s = fresh(3)
    p = s["turn"]
    s["turn"] = p
    s["stack"] = [["play"]]
    s["art_bag"] = [rocket()]
    rules.discover(s, p, [])
    rules.settle(s, [])
    assert s["skiffs"][p].count(s["home"][p]) == 2 and s["tox"][p] == 1
    s2 = fresh(3)
    p = s2["turn"]
    s2["sky"][p] = 1
    s2["stack"] = [["play"]]
    s2["art_bag"] = [rocket()]
    coins = s2["coins"][p]
    rules.discover(s2, p, [])
    rules.settle(s2, [])
    assert s2["coins"][p] == coins + 12 and s2["tox"][p] == 1
    assert rocket() in s2["hub"][D.GUILDS.index(D.ARTIFACTS[rocket()]["guild"])]
