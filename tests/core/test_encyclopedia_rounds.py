"""Encyclopedia set-up, rounds, round tiles and the end of a round (RULES.md E1-E7, E19)."""

from __future__ import annotations

import random

from core.encyclopedia.data import DATA
from core.encyclopedia.rules import DIE_COLOUR, fill_display, to_act
from tests.core.encyclopedia_helpers import GAME, at_turns, do, moves_of, play_first_until
from tests.core.random_play import pick


def _random_game(players: int, seed: int) -> tuple[object, list[dict]]:
    s = GAME.new_game({"players": players}, seed)
    rnd = random.Random(seed)
    events: list[dict] = []
    while to_act(s) is not None:
        events.extend(GAME.apply(s, pick(rnd, GAME.legal_moves(s))))
    return s, events


def test_e1_1_and_e5_1_six_rounds() -> None:
    """E1.1 / E5.1 / E6.5 / E20.1 / E19.3: 6 rounds, one tile flipped per round, then the end."""
    for players in (1, 2, 3, 4):
        s, events = _random_game(players, 11 + players)
        rounds = [e["round"] for e in events if e["type"] == "round"]
        assert rounds == [1, 2, 3, 4, 5, 6]
        assert len(s.tiles) == 6 and len(set(s.tiles)) == 6
        assert events[-1]["type"] == "game_over" and s.phase == "over"


def test_e1_2_player_board() -> None:
    """E1.2 / E1.3 / E2.1 / E12.2 / E3.2 / E3.3 / G6 / A2: 4 die spaces, 4 expert spaces, one
    reputation marker on space 0, score 0."""
    s = GAME.new_game({"players": 3}, 1)
    for p in range(3):
        assert len(s.spaces[p]) == 4 and len(s.experts[p]) == 4
        assert s.rep[p] == 0 and s.vp[p] == 0


def test_e1_4_dice_colours() -> None:
    """E1.4 / G1 / E2.6 / E24.1: 20 dice, 4 of each of 5 colours, all in the bag at set-up."""
    s = GAME.new_game({"players": 2}, 1)
    assert sorted(s.bag) == list(range(20))
    assert [DIE_COLOUR.count(c) for c in range(5)] == [4] * 5


def test_e2_3_round_tiles_drawn_from_twelve() -> None:
    """E2.3 / A1 / E24.9: 12 tiles (2 of each effect), 6 used in a game in random order."""
    assert sorted(DATA.tiles) == sorted(["token", "coins", "expert", "animal", "extra_die",
                                         "none"] * 2)
    orders = {tuple(_random_game(2, seed)[0].tiles) for seed in range(4)}
    assert len(orders) > 1


def test_e2_4_and_e2_5_displays() -> None:
    """E2.4 / E2.5 / G4 / E24.8: 6 experts; animals 4 (solo), 6, 8, 10 by player count."""
    for players, size in ((1, 4), (2, 6), (3, 8), (4, 10)):
        s = GAME.new_game({"players": players}, 5)
        assert len(s.xdisplay) == 6 and len(s.adisplay) == size


def test_e2_2_supply_is_unlimited() -> None:
    """E2.2 / G3: coins, tokens and seals have no limit."""
    s = at_turns(2, 3)
    s.coins[0] = 500
    from core.encyclopedia.rules import gain
    gain(s, 0, "coins", 100, [])
    assert s.coins[0] == 600


def test_e3_1_character_is_cosmetic() -> None:
    """E3.1 / G5: both seats start alike but for seat-order coins."""
    s = GAME.new_game({"players": 2}, 2)
    assert s.tokens == [1, 1] and s.rep == [0, 0]


def test_e3_4_first_player_at_random() -> None:
    """E3.4 / G7: the first player is drawn from the seed (solo: the human, E21.3.1)."""
    assert len({GAME.new_game({"players": 4}, seed).first for seed in range(20)}) > 1
    assert all(GAME.new_game({"players": 1}, seed).first == 0 for seed in range(5))


def test_e3_5_starting_draft_in_reverse_order() -> None:
    """E3.5 / A3(a) / E22.1: last player first, 2 cards at once, refilled after all chose."""
    s = GAME.new_game({"players": 3}, 4)
    order = [(s.first + 2 - k) % 3 for k in range(3)]
    size = len(s.adisplay)
    for k, seat in enumerate(order):
        assert to_act(s) == seat
        moves = GAME.legal_moves(s)
        n = len(s.adisplay)
        assert len(moves) == n * (n - 1) // 2 and n == size - 2 * k
        GAME.apply(s, moves[0])
        assert len(s.hand[seat]) == 2
    assert len(s.adisplay) == size


def test_e6_2_dice_before_the_round_tile() -> None:
    """E5.2 / E6.2 / E6.3 / E6.5 / A6(a) / A8(a): in the seed's order ("Cada Jogador compra 4
    dados ... e aloca ...; Vire a ficha de rodada") every player draws, rolls and places 4
    dice before the round tile is flipped."""
    s = GAME.new_game({"players": 2}, 8)
    s.tiles_left = [DATA.tiles.index("expert")]
    events = []
    while s.phase == "draft":
        events.extend(GAME.apply(s, GAME.legal_moves(s)[0]))
    assert s.phase == "place" and len(s.to_place) == 4 and not s.tiles
    assert all(1 <= s.dval[d] <= 6 for d in s.to_place)
    assert GAME.view(s, 0)["catalog"]["tile"] is None
    while s.phase == "place":
        events.extend(GAME.apply(s, GAME.legal_moves(s)[0]))
    kinds = [e["type"] for e in events]
    assert kinds.count("dice_drawn") == 2
    last_die = max(i for i, k in enumerate(kinds) if k == "dice_drawn")
    assert kinds.index("round") > last_die
    # T3's pick is made with every die already on the boards
    assert s.phase == "tile_pick" and all(len(x) == 1 for b in s.spaces for x in b)


def test_e6_4_sequential_placement() -> None:
    """E6.4 / A9(b) / E22.2: the first player places all dice before the next one draws;
    one die per space."""
    s = GAME.new_game({"players": 2}, 9)
    s.tiles_left = [5]  # T6: no effect
    s = play_first_until(s, "place")
    first = to_act(s)
    assert first == s.first and len(s.to_place) == 4
    for k in range(4):
        spaces = {m["space"] for m in GAME.legal_moves(s)}
        assert len(spaces) == 4 - k
        do(s, "place")
    assert sorted(len(x) for x in s.spaces[first]) == [1, 1, 1, 1]
    assert to_act(s) != first and len(s.to_place) == 4


def test_e6_1_displays_renewed_each_round() -> None:
    """E6.1 / A7(a) / E19.2: round 1 keeps the set-up displays; at round end both are
    discarded and round 2 deals fresh ones."""
    s = GAME.new_game({"players": 2}, 12)
    s.tiles_left = [5, 11]
    setup_experts = list(s.xdisplay)
    s = play_first_until(s, "turns")
    assert s.xdisplay == setup_experts
    rnd = random.Random(1)
    while s.round == 1:
        GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
    assert len(s.xdisplay) == 6 and not set(s.xdisplay) & set(setup_experts)
    assert set(setup_experts) <= set(s.xdiscard) | {c for b in s.experts for x in b for c in x}


def test_g11_deck_reshuffled_from_discards() -> None:
    """G11: an empty deck is refilled from its discard pile (not cards removed from play)."""
    s = GAME.new_game({"players": 2}, 1)
    s.removed = [s.adeck.pop()]
    s.adiscard, s.adeck = list(s.adeck), []
    display: list[int] = []
    fill_display(s, display, s.adeck, s.adiscard, 3)
    assert len(display) == 3 and s.removed[0] not in display


def _with_tile(effect: str, players: int = 2, seed: int = 3):  # noqa: ANN202
    s = GAME.new_game({"players": players}, seed)
    s.tiles_left = [DATA.tiles.index(effect)]
    while s.phase in ("draft", "place") and not s.tiles:
        GAME.apply(s, GAME.legal_moves(s)[0])
    return s


def test_e7_1_t1_and_e7_2_t2() -> None:
    """E7.1 / E7.2 / E7.7 (K2): T1 +1 token, T2 +3 coins, T6 nothing, for every player."""
    s = _with_tile("token", 3)
    assert s.tokens == [2, 2, 2]
    s = _with_tile("coins", 3)
    assert sorted(s.coins) == [5, 6, 6]
    s = _with_tile("none", 3)
    assert s.tokens == [1, 1, 1] and sorted(s.coins) == [2, 3, 3]


def test_e7_3_t3_expert_pick() -> None:
    """E7.3 / A10 / E22.3: in turn order each picks an expert (no colour token), places it;
    the display is refilled after all have chosen."""
    s = _with_tile("expert", 2)
    assert s.phase == "tile_pick" and to_act(s) == s.first
    tokens = list(s.tokens)
    for k in range(2):
        seat = to_act(s)
        assert seat == (s.first + k) % 2
        card = moves_of(s, "expert")[0]["card"]
        do(s, "expert", card=card)
        do(s, "top", space=0)
        assert s.experts[seat][0] == [card]
        gain = dict(DATA.experts[card].gain).get("tokens", 0)
        assert s.tokens[seat] == tokens[seat] + gain
    assert s.phase == "turns" and len(s.xdisplay) == 6


def test_e7_4_t4_animal_pick() -> None:
    """E7.4 / E22.4: in turn order each picks an animal of any colour; refilled after."""
    s = _with_tile("animal", 3)
    hands = [len(h) for h in s.hand]
    for _ in range(3):
        do(s, "animal")
    assert [len(h) for h in s.hand] == [h + 1 for h in hands]
    assert s.phase == "turns" and len(s.adisplay) == 8


def test_e7_5_t5_extra_die() -> None:
    """E7.5 / A11: 5 dice each, exactly one space holds 2; a 4-player T5 round empties the
    bag; each die of a double space pays its owner when taken."""
    s = _with_tile("extra_die", 4)
    s = play_first_until(s, "turns")
    assert not s.bag
    for p in range(4):
        sizes = sorted(len(x) for x in s.spaces[p])
        assert sizes == [1, 1, 1, 2]
    s = _with_tile("extra_die", 2, seed=5)
    s = play_first_until(s, "turns")
    actor = to_act(s)
    owner = 1 - actor
    space = next(i for i, x in enumerate(s.spaces[owner]) if len(x) == 2)
    s.spaces[owner][1], s.spaces[owner][space] = s.spaces[owner][space], s.spaces[owner][1]
    coins = s.coins[owner]
    do(s, "take", owner=owner, space=1)
    do(s, "act", action="bank")
    s.turn -= 1  # the same seat takes the second die of the pair
    do(s, "take", owner=owner, space=1)
    assert s.coins[owner] == coins + 4


def test_e7_6_t6_no_effect() -> None:
    """E7.6: T6 changes nothing."""
    s = _with_tile("none", 2)
    assert s.phase == "turns" and s.tokens == [1, 1]


def test_e19_1_additional_actions_at_round_end() -> None:
    """E19.1 / A18 / A34 / G28 / E22.15: in turn order, a seal buys one re-rolled die from the
    main board (a continent space is freed), played as a new action; one per player."""
    from tests.core.encyclopedia_helpers import clear_dice
    s = at_turns(2, 6)
    clear_dice(s)
    bank, explorer = s.bag[:2]
    s.bag = s.bag[2:]
    s.areas[0] = [bank]
    s.cont[DIE_COLOUR[explorer]][0] = explorer
    s.dval[bank] = s.dval[explorer] = 3
    s.phase, s.turn, s.busy = "extra", 0, False
    s.seals = [1, 1]
    first = to_act(s)
    assert first == s.first
    assert {m["die"] for m in moves_of(s, "extra")} == {bank, explorer}
    assert moves_of(s, "decline")
    do(s, "extra", die=explorer)
    assert s.cont[DIE_COLOUR[explorer]][0] == -1 and s.seals[first] == 0
    frame = s.stack[-1]
    assert frame[0] == "mod" and frame[2] == explorer and frame[6] == 1
    do(s, "act", action="bank")
    second = to_act(s)
    assert second == (first + 1) % 2 and s.phase == "extra"
    do(s, "decline")
    spent = [0, 1] if first == 0 else [1, 0]
    assert s.round == 2 and s.seals == spent


def test_e19_2_cleanup() -> None:
    """E19.2: at round end displays are discarded and all dice go back to the bag."""
    s = at_turns(2, 6)
    rnd = random.Random(3)
    while s.round == 1:
        GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
    assert s.phase != "over"
    assert len(s.xdiscard) >= 1
    assert len(s.bag) + sum(len(x) for b in s.spaces for x in b) + len(s.to_place) == 20
