"""Turns, Crew Cards, the Captain, the Academic, Influence, Seals, recruiting (F1, F4-F10)."""

from __future__ import annotations

from core.flotilla import data as D
from core.flotilla import rules
from tests.core.flotilla_helpers import GAME, do, finish_turn, fresh, moves_of, run, top

SPEAKERS, TRADERS, FOUNDERS, DELVERS = range(4)


def card_named(name: str) -> int:
    return next(c["id"] for c in D.CARDS if c["sinkside"]["name"] == name)


def test_f4_1_f4_2_one_card_per_turn_then_next_seat() -> None:
    """F4.1, F4.2, F34.2: the only decision opening a turn is the card to play; no pass;
    the played card ends on the discard pile; the next seat clockwise plays."""
    s = fresh(3)
    p = s["turn"]
    moves = GAME.legal_moves(s)
    assert {m["type"] for m in moves} == {"play"}
    assert {m["card"] for m in moves} == {0, 2, 3, 4, 5}  # F7.5: no Academic target yet
    do(s, "play", card=2)  # Starter Speaker: Influence 3
    finish_turn(s, {"type": "influence", "guild": "traders"})
    assert s["discard"][p] == [2] and 2 not in s["hand"][p]
    assert s["turn"] == (p + 1) % 3 and top(s) == ["play"]


def test_f5_4_navigation_before_ability_and_income() -> None:
    """F5.4, F21.6: Sinkside Navigation is resolved before the ability; Skyside Income is
    gained at once."""
    s = fresh(3)
    p = s["turn"]
    s["board"][D.NEIGH[s["home"][p]][0]] = [0, 0, p, 0, 0]  # somewhere to sail
    do(s, "play", card=3)  # Starter Trader
    assert top(s)[0] == "nav" and s["stack"][-2][0] == "ops"
    s2 = fresh(3)
    p = s2["turn"]
    s2["sky"][p] = 1
    coins = s2["coins"][p]
    do(s2, "play", card=3)
    assert s2["coins"][p] == coins + D.face(3, True)["income"] and top(s2)[0] == "trans"


def test_f5_3_f5_1_faces_follow_the_players_side() -> None:
    """F5.3, F5.1 (A11): a card shows the face of its owner's side, recruits included."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    labels = [m["label"] for m in GAME.legal_moves(s)]
    assert "play Starter Delver" in labels
    rules.recruit(s, p, DELVERS, [])
    card = s["hand"][p][-1]
    assert D.face(card, True)["income"] >= 0


def test_f5_6_f5_8_translator_discards_under_itself() -> None:
    """F5.6, F5.8, F5.9, F8.6, F34.7, F31.2 known answer:
    the Translator discards 2 Speakers for Influence
    and is itself the Culminating card; A13: discarded cards come from hand."""
    s = fresh(3)
    p = s["turn"]
    translator = card_named("The Translator")
    herald = card_named("Herald")
    s["hand"][p] += [translator, herald]
    do(s, "play", card=translator)
    do(s, "influence", guild="speakers")
    assert {m.get("card") for m in moves_of(s, "discard")} == {1, 2, herald}  # Academic too
    do(s, "discard", card=2)
    do(s, "influence", guild="speakers")
    do(s, "discard", card=herald)
    finish_turn(s, {"type": "influence", "guild": "speakers"})
    assert s["discard"][p] == [2, herald, translator]
    assert s["discard"][p][-1] == translator  # the Culminating card


def test_f5_7_retire_is_optional_and_boxes_the_card() -> None:
    """F5.7, F34.6: Retiring is a choice; a Retired card leaves the game for its bonus."""
    s = fresh(3)
    p = s["turn"]
    fin = card_named("Financier")
    s["hand"][p].append(fin)
    do(s, "play", card=fin)
    assert {m["type"] for m in GAME.legal_moves(s)} == {"retire", "skip"}
    coins = s["coins"][p]
    do(s, "retire")
    assert s["coins"][p] == coins + 10 and s["retired"][p] == [fin]
    assert fin not in s["discard"][p] and fin not in s["hand"][p]


def test_f5_10_f31_1_component_text_is_what_runs() -> None:
    """F5.10, F31.1: a card does exactly what its data says (the Golden Rule)."""
    s = fresh(3)
    p = s["turn"]
    purser = card_named("Purser")
    s["hand"][p].append(purser)
    coins = s["coins"][p]
    do(s, "play", card=purser)
    assert s["coins"][p] == coins + 5


def play_captain(s: dict, stay: bool = True) -> None:
    do(s, "play", card=D.CAPTAIN)
    do(s, "skip" if stay else "join")


def test_f6_1_f6_4_regroup_returns_all_with_the_captain() -> None:
    """F6.1, F6.2, F6.4 (A10 reading (a), the default): Regroup returns the discard pile
    and the Captain; the pile is empty after a Captain play."""
    s = fresh(3)
    p = s["turn"]
    s["hand"][p] = [0, 1]
    s["discard"][p] = [2, 3, 4, 5]
    play_captain(s)
    assert sorted(s["hand"][p]) == list(range(6)) and s["discard"][p] == []


def test_f6_4_f4_3_literal_reading_option() -> None:
    """F6.4 (A10 (b)) and F4.3 (A9): the Captain is discarded; a player left with no card
    takes the pile back as their turn."""
    s = fresh(3, captain_returns=False)
    p = s["turn"]
    s["hand"][p] = [0]
    s["discard"][p] = [2, 3]
    play_captain(s)
    assert s["hand"][p] == [2, 3] and s["discard"][p] == [0]
    s["turn"] = p
    s["hand"][p] = []
    s["stack"] = [["play"]]
    assert [m["type"] for m in GAME.legal_moves(s)] == ["regroup"]
    do(s, "regroup")
    assert s["hand"][p] == [0] and s["discard"][p] == []


def test_f6_3_f28_1_joining_offered_on_every_sinkside_captain() -> None:
    """F6.3, F28.1, F34.18: after Regroup a Sinkside player may join; a Skyside one is not
    asked (F28.7: there is no way back)."""
    s = fresh(3)
    p = s["turn"]
    do(s, "play", card=D.CAPTAIN)
    assert {m["type"] for m in GAME.legal_moves(s)} == {"join", "skip"}
    s2 = fresh(3)
    p = s2["turn"]
    s2["sky"][p] = 1
    do(s2, "play", card=D.CAPTAIN)
    assert all(m["type"] != "join" for m in GAME.legal_moves(s2))


def test_f7_1_f7_5_academic_copies_a_culminating_card() -> None:
    """F7.1, F7.5, F34.3, A15: the Academic needs a target; the copy brings the card's value
    and effect; F7.3: only cards of the Academic's side; A17: any opponent."""
    s = fresh(3)
    p = s["turn"]
    q, r = (p + 1) % 3, (p + 2) % 3
    assert not any(m["card"] == D.ACADEMIC for m in moves_of(s, "play"))
    s["discard"][q] = [3]
    s["discard"][r] = [2]
    s["sky"][r] = 1
    do(s, "play", card=D.ACADEMIC)
    assert [m["target"] for m in moves_of(s, "copy")] == [q]
    coins = s["coins"][p]
    s["board"][D.NEIGH[s["home"][p]][0]] = [0, 0, p, 0, 0]  # somewhere to sail
    do(s, "copy", target=q)
    assert top(s) == ["nav", 1]  # the Trader's Navigation, the Academic has none
    do(s, "done")
    assert s["coins"][p] == coins + 2 and top(s)[0] == "trans"


def test_f7_4_copying_an_academic_does_nothing() -> None:
    """F7.4, A14 (a): a Culminating Academic is a valid target; the copy has no effect."""
    s = fresh(3)
    p = s["turn"]
    q = (p + 1) % 3
    s["discard"][q] = [D.ACADEMIC]
    before = (list(s["coins"]), list(s["vp"]))
    do(s, "play", card=D.ACADEMIC)
    do(s, "copy", target=q)
    assert (s["coins"], s["vp"]) == before and s["discard"][p] == [D.ACADEMIC]


def test_f7_2_academic_counts_as_a_delver_for_the_dredger() -> None:
    """F7.2, F22.11 known answers: the previous player's Culminating Academic counts as a
    Delver, so the Dredger ignores both Toxicity and Depletion."""
    s = fresh(3)
    p = s["turn"]
    s["discard"][(p - 1) % 3] = [D.ACADEMIC]
    run(s, p, [["dive", {"shallows": 1}, ["dredger"]]])
    assert top(s)[0] == "dive" and top(s)[2] == ["no_toxicity", "no_depletion"]
    s2 = fresh(3)
    p = s2["turn"]
    s2["discard"][(p - 1) % 3] = [3]
    run(s2, p, [["dive", {"shallows": 1}, ["dredger"]]])
    assert top(s2)[2] == ["dredger"]


def test_f8_1_f8_2_f8_5_influence_modes() -> None:
    """F8.1, F8.2, F8.5, F34.8: each point moves a disc one space; "=" all to one Guild,
    the other icon each to a different Guild."""
    s = fresh(3)
    p = s["turn"]
    run(s, p, [["influence", 2, "same"]])
    assert len(moves_of(s, "influence")) == 4
    do(s, "influence", guild="traders")
    assert [m["guild"] for m in moves_of(s, "influence")] == ["traders"]
    do(s, "influence", guild="traders")
    assert s["wheel"][p][TRADERS] == 2
    run(s, p, [["influence", 2, "diff"]])
    do(s, "influence", guild="founders")
    assert "founders" not in [m["guild"] for m in moves_of(s, "influence")]


def test_f8_3_curved_arrow_skips_the_third_space() -> None:
    """F8.3 (A18 (a)): from the second space one point may jump past the third space,
    forgoing its bonus (here a recruit) and taking the fourth (a Seal)."""
    s = fresh(3)
    p = s["turn"]
    s["wheel"][p][SPEAKERS] = 2
    run(s, p, [["influence", 1, "any"]])
    do(s, "influence", guild="speakers")
    assert {m["skip"] for m in moves_of(s, "arrow")} == {True, False}
    hand = len(s["hand"][p])
    do(s, "arrow", skip=True)
    assert s["wheel"][p][SPEAKERS] == 4 and s["seals"][p][SPEAKERS] == 1
    assert len(s["hand"][p]) == hand


def test_f8_4_bonuses_of_every_space_touched() -> None:
    """F8.4, F8.4.1-F8.4.6, F10.3: tile (with its Toxicity), Survivor, coins/VP, Resource,
    Seal and a recruit of the Wheel's own Guild."""
    s = fresh(3)
    p = s["turn"]
    # F8.4.3 coins: traders space 1
    coins = s["coins"][p]
    run(s, p, [["influence", 1, "any"]])
    do(s, "influence", guild="traders")
    assert s["coins"][p] == coins + 3
    # F8.4.4 Resource of any type, into the Reserve
    run(s, p, [["influence", 1, "any"]])
    do(s, "influence", guild="traders")
    do(s, "resource", colour="green")
    assert s["reserve"][p][2] == 1
    # F8.4.6 recruit that Wheel's Guild (third space, stepping onto it)
    run(s, p, [["influence", 1, "any"]])
    do(s, "influence", guild="traders")
    top_card = s["crew"][TRADERS][-1]
    do(s, "arrow", skip=False)
    assert s["hand"][p][-1] == top_card
    # F8.4.5 Seal of that Guild
    run(s, p, [["influence", 1, "any"]])
    do(s, "influence", guild="traders")
    assert s["seals"][p][TRADERS] == 1
    # F8.4.1 Ocean Tile: drawn, its Toxicity taken, offered for placement (Sinkside)
    run(s, p, [["influence", 1, "any"]])
    do(s, "influence", guild="founders")
    assert top(s)[0] in ("place", "play")
    # F8.4.2 Survivor
    s["wheel"][p][SPEAKERS] = 1
    run(s, p, [["influence", 1, "any"]])
    do(s, "influence", guild="speakers")
    assert s["survivor"] == 1 and s["rescued"][p] == 1


def test_f8_4_1_skyside_tile_bonus_goes_to_reserve() -> None:
    """F8.4.1, F15.2: on the Skyside a tile bonus goes to the tile Reserve."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    run(s, p, [["influence", 1, "any"]])
    do(s, "influence", guild="founders")
    assert len(s["tiles"][p]) == 1


def test_f9_1_f9_2_seals_then_vp() -> None:
    """F9.1, F9.2: a Seal on the Guild Strip; with all 10 placed, 2 VP instead."""
    s = fresh(3)
    p = s["turn"]
    rules.place_seal(s, p, DELVERS, [])
    assert s["seals"][p][DELVERS] == 1
    s["seals"][p] = [4, 3, 2, 1]
    rules.place_seal(s, p, DELVERS, [])
    assert s["seals"][p] == [4, 3, 2, 1] and s["vp"][p] == 2


def test_f10_1_f10_2_f10_4_recruiting() -> None:
    """F10.1, F10.2, F10.4: the top card joins the hand for good; Level 1 before Level 2;
    an empty stack gives 2 VP."""
    s = fresh(3)
    p = s["turn"]
    stack = s["crew"][FOUNDERS]
    levels = []
    while stack:
        rules.recruit(s, p, FOUNDERS, [])
        levels.append(D.card_level(s["hand"][p][-1]))
    assert levels == [1, 1, 1, 2, 2, 2]
    rules.recruit(s, p, FOUNDERS, [])
    assert s["vp"][p] == 2


def test_f10_3_recruit_from_any_guild() -> None:
    """F10.3, F34.9: "any Guild" offers every non-empty stack; all empty: 2 VP."""
    s = fresh(3)
    p = s["turn"]
    s["crew"][SPEAKERS] = []
    run(s, p, [["recruit_any"]])
    assert [m["guild"] for m in moves_of(s, "recruit")] == ["traders", "founders", "delvers"]
    s["crew"] = [[], [], [], []]
    run(s, p, [["recruit_any"]])
    assert s["vp"][p] == 2


def test_f1_2_f1_5_f28_7_switching_is_one_way_and_open_to_all() -> None:
    """F1.1, F1.2, F1.5, F28.7: any number of players may switch; nobody switches back."""
    s = fresh(3)
    for _ in range(3):
        do(s, "play", card=D.CAPTAIN)
        do(s, "join")
        finish_turn(s)
    assert s["sky"] == [1, 1, 1] and s["joined"] == 3
    assert all(m["type"] != "join" for m in GAME.legal_moves(s))
