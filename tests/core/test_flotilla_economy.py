"""Traders, the Market, cargo and Reserve, Outposts and Objectives (F11-F14)."""

from __future__ import annotations

from core.flotilla import data as D
from core.flotilla import i18n as flotilla_texts
from core.flotilla import names, rules
from tests.core.flotilla_helpers import (
    GAME,
    do,
    end_turn,
    fresh,
    moves_of,
    put,
    run,
    tile_where,
    top,
)

RED, YELLOW, GREEN, BLUE = range(4)


def test_f11_1_f11_2_transactions_up_to_n() -> None:
    """F11.1 (A19: "up to" N), F11.2, F34.10: each Transaction is one purchase or sale, and
    the player may stop early."""
    s = fresh(3)
    p = s["turn"]
    s["coins"][p] = 100
    run(s, p, [["transactions", 2]])
    kinds = {m["type"] for m in GAME.legal_moves(s)}
    assert kinds == {"buy_skiff", "objective", "buy", "done"}
    do(s, "buy", colour="blue")
    assert top(s)[0] == "trans" and top(s)[1] == 1
    do(s, "done")
    assert top(s) == ["play"]


def test_f11_2_a_buy_a_skiff() -> None:
    """F11.2.A, F21.5: 12 coins move a Skiff from the Player Board to the Dock; Sinkside only,
    never more than 4."""
    s = fresh(3)
    p = s["turn"]
    s["coins"][p] = 50
    run(s, p, [["transactions", 4]])
    for _ in range(3):
        do(s, "buy_skiff")
    assert s["skiffs"][p] == [s["home"][p]] * 4 and s["coins"][p] == 14
    assert not moves_of(s, "buy_skiff")
    s2 = fresh(3)
    p = s2["turn"]
    s2["sky"][p] = 1
    s2["coins"][p] = 50
    run(s2, p, [["transactions", 1]])
    assert not moves_of(s2, "buy_skiff")


def test_f12_1_f12_2_known_answer_three_red_for_15() -> None:
    """F12.1, F12.2 known answers: red at 5, 3 Transactions buy 3 red for 15 coins; the price
    does not move mid-turn; F12.4: afterwards the marker rises one space per Resource."""
    s = fresh(3)
    p = s["turn"]
    s["coins"][p] = 20
    assert rules.price(s, RED) == 5
    run(s, p, [["transactions", 3]])
    for _ in range(3):
        do(s, "buy", colour="red")
    assert s["coins"][p] == 5 and s["reserve"][p][RED] == 3  # F13.4 (A21): into the Reserve
    assert rules.price(s, RED) == 5
    end_turn(s)
    assert rules.price(s, RED) == 8


def test_f12_2_selling_does_not_lower_the_price_mid_turn() -> None:
    """F12.2 FAQ, F12.3, F12.4: sales all at the starting price; no buying a type sold."""
    s = fresh(3)
    p = s["turn"]
    s["reserve"][p][GREEN] = 2
    price = rules.price(s, GREEN)
    run(s, p, [["transactions", 3]])
    do(s, "sell", colour="green")
    assert all(m["colour"] != "green" for m in moves_of(s, "buy"))
    coins = s["coins"][p]
    do(s, "sell", colour="green")
    assert s["coins"][p] == coins + price
    do(s, "done")
    run(s, p, [["transactions", 1]])  # F12.3: still this turn, green cannot be bought
    assert all(m["colour"] != "green" for m in moves_of(s, "buy"))
    assert s["market"][GREEN] == D.BOARDS["market"]["start"]["green"]
    end_turn(s)
    assert s["market"][GREEN] == D.BOARDS["market"]["start"]["green"] - 2


def test_f12_5_f12_6_market_overflow() -> None:
    """F12.5 (A20: VP), F12.6 derived check: one above the bottom, sell 3 → bottom, 2 VP;
    buying past the top gives 2 VP each."""
    s = fresh(3)
    p = s["turn"]
    s["market"][YELLOW] = 1
    s["reserve"][p][YELLOW] = 3
    run(s, p, [["transactions", 3]])
    for _ in range(3):
        do(s, "sell", colour="yellow")
    end_turn(s)
    assert s["market"][YELLOW] == 0 and s["vp"][p] == 2
    top_space = len(D.MARKET_PRICES) - 1
    s["market"][BLUE] = top_space
    s["coins"][p] = 100
    run(s, p, [["transactions", 1]])
    do(s, "buy", colour="blue")
    end_turn(s)
    assert s["market"][BLUE] == top_space and s["vp"][p] == 4


def test_f13_1_f13_3_cargo_is_unloaded_at_the_delivery_point() -> None:
    """F13.1, F13.3, F21.4, F34.5: Cargo cannot be sold; sailing home may unload it (or not),
    and the Skiff sails on."""
    s = fresh(3)
    p = s["turn"]
    home = s["home"][p]
    cell = next(c for c in D.NEIGH[home] if c >= 0 and c not in s["board"])
    put(s, p, 0, cell)
    s["skiffs"][p][0] = cell
    s["cargo"][p][0] = [2, 0, 0, 1]
    run(s, p, [["transactions", 1]])
    assert not moves_of(s, "sell")
    s["stack"] = [["play"], ["nav", 2]]
    assert {m.get("unload") for m in moves_of(s, "sail")} == {True, False}
    do(s, "sail", skiff=0, cell=home, unload=True)
    assert s["reserve"][p] == [2, 0, 0, 1] and s["cargo"][p][0] == [0, 0, 0, 0]
    assert top(s) == ["nav", 1]  # unloading does not end the move


def test_f13_2_f22_4_skiff_holds_four() -> None:
    """F13.2, F22.4: a Skiff with 4 Barrels takes no more."""
    s = fresh(3)
    p = s["turn"]
    cell = next(c for c in D.NEIGH[s["home"][p]] if c >= 0 and c not in s["board"])
    put(s, p, 0, cell)
    s["skiffs"][p][0] = cell
    s["cargo"][p][0] = [4, 0, 0, 0]
    assert rules.eligible_skiffs(s, p) == []


def island_tile() -> int:
    return tile_where(lambda t: t["sinkside"]["island"])


def test_f14_1_f14_2_first_outpost_costs_20() -> None:
    """F14.1, F14.2 known answer, F14.3, F14.5: 20 coins for the first Outpost, the top tile
    of a left (Sinkside) stack, its VP at once, the Outpost on a free Construction Site."""
    s = fresh(3)
    p = s["turn"]
    s["coins"][p] = 30
    run(s, p, [["transactions", 1]])
    moves = moves_of(s, "objective")
    assert {m["site"] for m in moves} == {s["home"][p]}  # F28.6: the Starter Tile's site
    pile = s["obj_stacks"][0][0]
    obj = pile[-1]
    do(s, "objective", stack=0, site=s["home"][p])
    assert s["coins"][p] == 10 and s["outposts"][p] == 5
    assert s["objectives"][p] == [obj] and len(pile) == 2
    assert s["board"][s["home"][p]][4] == 1
    face = D.OBJECTIVES[obj]["sinkside"]
    assert s["vp"][p] == min(face["max_vp"], face["vp_each"] * rules.objective_count(
        s, p, face["count"]))


def test_f14_3_f14_4_floating_outposts_only_without_a_site() -> None:
    """F14.3, F14.4: with no free site pay 10 more (Sinkside) and float; 20 on the Skyside."""
    s = fresh(3)
    p = s["turn"]
    s["board"][s["home"][p]][4] = 1
    s["outposts"][p] = 5
    s["coins"][p] = 100
    run(s, p, [["transactions", 1]])
    assert {m["site"] for m in moves_of(s, "objective")} == {-1}
    do(s, "objective", stack=1, site=-1)
    assert s["coins"][p] == 100 - 24 - 10 and s["floating"][p] == 1
    cell = next(c for c in D.NEIGH[s["home"][p]] if c >= 0 and c not in s["board"])
    put(s, p, island_tile(), cell)
    assert rules.sites(s, p) == [cell]
    s["sky"][p] = 1
    assert rules.outpost_price(s, p, True) == 28 + 20


def test_f14_5_objectives_count_only_your_things() -> None:
    """F14.5 FAQ: an Objective counts the buyer's own tiles, never an opponent's."""
    s = fresh(3)
    p, q = s["turn"], (s["turn"] + 1) % 3
    for k, cell in enumerate(c for c in D.NEIGH[s["home"][q]] if c >= 0 and c not in s["board"]):
        put(s, q, k, cell)
    assert rules.objective_count(s, p, "tiles") == 0
    assert rules.objective_count(s, q, "tiles") > 0


def test_f14_6_the_last_tile_of_a_stack_stays() -> None:
    """F14.6 derived check: two tiles leave, the third can be bought again and again."""
    s = fresh(3)
    p = s["turn"]
    s["coins"][p] = 500
    pile = s["obj_stacks"][0][2]
    last = pile[0]
    for _ in range(4):
        run(s, p, [["transactions", 1]])
        do(s, "objective", stack=2)
    assert pile == [last] and s["objectives"][p][-2:] == [last, last]
    assert s["outposts"][p] == 2


def test_f14_7_skyside_buys_from_the_right() -> None:
    """F14.7 (A22), F14.1 step 2, F28.5: a Skyside player's Outpost/Tower buys a right stack."""
    s = fresh(3)
    p = s["turn"]
    s["sky"][p] = 1
    s["coins"][p] = 30
    run(s, p, [["transactions", 1]])
    obj = s["obj_stacks"][1][0][-1]
    events = do(s, "objective", stack=0)
    assert s["objectives"][p] == [obj]
    # The event tells the face scored (the player may change sides later): its text is that
    # face's, in either language.
    scored = next(e for e in events if e["type"] == "objective")
    assert scored["objective"] == obj and scored["sky"] is True
    words = flotilla_texts.describe(scored, "en")
    assert names.objective(obj, True) in words and f"({scored['vp']} VP)" in words
    portuguese = flotilla_texts.describe(scored, "pt_BR")
    assert names.objective(obj, True, flotilla_texts.CATALOG.gettext("pt_BR")) in portuguese


def test_f1_3_f1_4_sides_earn_differently() -> None:
    """F1.3, F1.4: the Sinkside sells Resources for coins; the Skyside gains Income."""
    s = fresh(3)
    p = s["turn"]
    s["reserve"][p][RED] = 1
    coins = s["coins"][p]
    run(s, p, [["transactions", 1]])
    do(s, "sell", colour="red")
    assert s["coins"][p] == coins + 5
