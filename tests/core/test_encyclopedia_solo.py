"""Encyclopedia solo mode: set-up (E4) and the AI (E21; procedure AI1-AI10 in ai.py)."""

from __future__ import annotations

import random

from core.encyclopedia import ai
from core.encyclopedia.data import DATA
from core.encyclopedia.rules import AI_SEAT, all_moves, to_act
from core.encyclopedia.scoring import breakdown
from tests.core.encyclopedia_helpers import GAME, clear_dice, play_first_until, put_die
from tests.core.random_play import pick


def _solo(seed: int = 1, **options: object):  # noqa: ANN202
    return GAME.new_game({"players": 1, **options}, seed)


def test_e4_solo_setup() -> None:
    """E4.1 / E4.2 / E4.3 / E4.4 / E21.1 / G8 / G9 / A4 / A5 / E22.17: seat 1 is the AI;
    behaviour and scoring cards by option or at random; one continent card per continent
    in a random row (the colour priority); the human is first with 2 coins, the AI has 3;
    the AI does not draft."""
    s = _solo(3, behaviour=2, scoring=3)
    assert s.n == 2 and s.first == 0 and s.coins == [2, 3] and s.tokens == [1, 1]
    assert s.ai["behaviour"] == 2 and s.ai["scoring"] == 3
    assert sorted(s.ai["priority"]) == [0, 1, 2, 3, 4]
    assert [DATA.continent_cards[c] for c in s.ai["cards"]] == s.ai["priority"]
    assert len(DATA.continent_cards) == 15
    rows = {tuple(_solo(seed).ai["priority"]) for seed in range(6)}
    assert len(rows) > 1
    assert {_solo(seed).ai["behaviour"] for seed in range(12)} == {1, 2, 3}
    assert to_act(s) == 0 and s.phase == "draft"
    GAME.apply(s, GAME.legal_moves(s)[0])
    assert s.phase != "draft" and s.hand[AI_SEAT] == []


def test_e21_ai_move_is_dictated() -> None:
    """E21.2 / E21.3 / E21.4 / G31: on the AI's turn legal_moves offers exactly one move,
    taken from its full legal list, the same for equal states (deterministic)."""
    s = _solo(4, behaviour=1, scoring=1)
    rnd = random.Random(4)
    seen = 0
    while to_act(s) is not None and seen < 60:
        if to_act(s) == AI_SEAT:
            moves = GAME.legal_moves(s)
            assert len(moves) == 1 and moves[0] in all_moves(s)
            assert GAME.legal_moves(GAME.clone(s)) == moves
            seen += 1
        GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
    assert seen == 60


def test_ai2_dice_in_draw_order() -> None:
    """AI2 / E21.3.2: the AI's dice go to its spaces in draw order."""
    s = _solo(5, behaviour=1)
    s.tiles_left = [DATA.tiles.index("none")]
    while not (s.phase == "place" and to_act(s) == AI_SEAT):
        GAME.apply(s, GAME.legal_moves(s)[0])
    drawn = list(s.to_place)
    while s.to_place:
        GAME.apply(s, GAME.legal_moves(s)[0])
    assert [space[0] for space in s.spaces[AI_SEAT]] == drawn


def test_ai3_die_choice_follows_the_behaviour_priority() -> None:
    """AI3 / E21.3.5: the first action of the priority list with a useful die; own dice first
    (Collector: Academy first, so a die matching a display animal is chosen)."""
    s = play_first_until(_solo(6, behaviour=1), "turns")
    clear_dice(s)
    s.turn = 1
    assert to_act(s) == AI_SEAT
    colour = DATA.animals[s.adisplay[0]].colour
    other = next(c for c in range(5) if not any(DATA.animals[a].colour == c
                                                 for a in s.adisplay))
    put_die(s, AI_SEAT, 0, other, 6)
    d = put_die(s, AI_SEAT, 1, colour, 1)
    put_die(s, 0, 0, colour, 6)
    move = GAME.legal_moves(s)[0]
    assert move["type"] == "take" and move["die"] == d
    GAME.apply(s, move)
    assert GAME.legal_moves(s)[0] == {**GAME.legal_moves(s)[0], "type": "act",
                                      "action": "academy"}


def test_ai3_rival_behaviour_takes_the_human_dice_first() -> None:
    """AI3: the Rival behaviour looks at the human's dice before its own."""
    s = play_first_until(_solo(6, behaviour=3), "turns")
    clear_dice(s)
    s.turn = 1
    put_die(s, AI_SEAT, 0, 0, 6)
    d = put_die(s, 0, 2, 1, 2)
    move = GAME.legal_moves(s)[0]
    assert move["die"] == d and move["owner"] == 0


def test_ai4_no_modifiers() -> None:
    """AI4: the AI acts at once, never spending coins, tokens or seals."""
    s = _solo(7, behaviour=2)
    rnd = random.Random(7)
    while to_act(s) is not None:
        moves = GAME.legal_moves(s)
        if to_act(s) == AI_SEAT:
            assert moves[0]["type"] not in ("coin", "boost", "recolour", "seal_die",
                                            "seal_coins")
        GAME.apply(s, pick(rnd, moves))


def test_ai10_scoring_card_and_solo_winner() -> None:
    """AI10 / E21.3.7 / E21.3.8: the scoring card adds VP per published animal, expert and
    reputation; the human must beat the AI (a tie is the AI's)."""
    s = _solo(8, scoring=3)
    s.published[AI_SEAT] = [0, 1]
    s.experts[AI_SEAT] = [[3], [], [], []]
    s.rep[AI_SEAT] = 4
    assert breakdown(s, AI_SEAT)["ai_card"] == 3 * 2 + 2 * 1 + 1 * 4
    assert breakdown(s, 0)["ai_card"] == 0
    s.published[AI_SEAT], s.experts[AI_SEAT], s.rep[AI_SEAT] = [], [[], [], [], []], 0
    for seat in (0, 1):
        s.coins[seat] = s.tokens[seat] = 0
        s.vp[seat] = 20
    r = GAME.result(s)
    assert r["scores"][0] == r["scores"][1] and r["ranking"] == [1, 0] and r["places"] == [2, 1]


def _mean_ai_score(scoring: int, behaviour: int, games: int = 6) -> float:
    total = 0
    for seed in range(games):
        s = _solo(100 + seed, behaviour=behaviour, scoring=scoring)
        rnd = random.Random(seed)
        while to_act(s) is not None:
            GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
        total += GAME.result(s)["scores"][AI_SEAT]
    return total / games


def test_ai_cards_make_it_stronger_or_weaker() -> None:
    """E24.11: scoring card 3 scores more than card 1 on the same deals (deterministic)."""
    assert _mean_ai_score(3, 2) > _mean_ai_score(1, 2)


def test_solo_ai_view_hides_random_cards() -> None:
    """E23.2 / A4: cards drawn at random are hidden from the human and spectators; chosen
    ones are public (they are in the options)."""
    s = _solo(9)
    for seat in (0, None):
        v = GAME.view(s, seat)
        assert v["ai"]["behaviour"] is None and v["ai"]["scoring"] is None
        assert v["ai"]["priority"] == s.ai["priority"]
    assert GAME.view(s, AI_SEAT)["ai"]["behaviour"] == s.ai["behaviour"]
    v = GAME.view(_solo(9, behaviour=2, scoring=1), 0)
    assert (v["ai"]["behaviour"], v["ai"]["scoring"]) == (2, 1)
    det = GAME.determinize(GAME.view(s, 0), 0, 5)
    assert det.ai["behaviour"] in (1, 2, 3) and GAME.view(det, 0) == GAME.view(s, 0)
    assert ai.rank(s, s.ai["priority"][0]) == 0


def _ai_turn(behaviour: int = 2):  # noqa: ANN202
    s = play_first_until(_solo(6, behaviour=behaviour), "turns")
    clear_dice(s)
    s.turn = 1
    return s


def test_ai5_expert_of_the_die_colour_on_an_empty_space() -> None:
    """AI5: the expert matching the die's colour, on top of the lowest empty space."""
    s = _ai_turn()
    colour = DATA.experts[s.xdisplay[-1]].colour
    s.stack.append(("xpick", AI_SEAT, colour, "uni"))
    move = GAME.legal_moves(s)[0]
    assert DATA.experts[move["card"]].colour == colour
    GAME.apply(s, move)
    s.experts[AI_SEAT][0] = [0]
    assert GAME.legal_moves(s)[0] == {**GAME.legal_moves(s)[0], "type": "top", "space": 1}


def test_ai7_research_highest_type_first() -> None:
    """AI7: the highest affordable type first."""
    s = _ai_turn()
    card = next(a.id for a in DATA.animals if a.colour == 2)
    s.hand[AI_SEAT] = [card]
    s.stack.append(("research", AI_SEAT, 2, 8))
    move = GAME.legal_moves(s)[0]
    assert (move["type"], move["slot"]) == ("research", 2)


def test_ai8_publish_focus_and_continental() -> None:
    """AI8: focus on the card with most cubes; the Explorer files Continental extras."""
    s = _ai_turn(behaviour=2)
    cards = [a.id for a in DATA.animals if a.colour == 1][:3]
    s.hand[AI_SEAT] = list(cards)
    s.cubes[cards[0]], s.cubes[cards[1]] = 0b1, 0b11
    s.stack.append(("focus", AI_SEAT, 1, 2))
    move = GAME.legal_moves(s)[0]
    assert move["card"] == cards[1]
    GAME.apply(s, move)
    assert s.stack[-1][0] == "continental" and GAME.legal_moves(s)[0]["type"] == "discard"


def test_ai9_additional_action_by_behaviour() -> None:
    """AI9: with a seal, the Explorer re-rolls its top-priority main-board die; the Collector
    declines."""
    for behaviour, kind in ((2, "extra"), (1, "decline")):
        s = _ai_turn(behaviour)
        s.phase, s.turn = "extra", 1
        s.seals[AI_SEAT] = 1
        s.areas[0] = [0, 4, 8, 12, 16]
        assert GAME.legal_moves(s)[0]["type"] == kind
        if kind == "extra":
            assert GAME.legal_moves(s)[0]["die"] // 4 == s.ai["priority"][0]
