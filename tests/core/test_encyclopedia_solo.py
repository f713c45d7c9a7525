"""Encyclopedia solo mode: set-up (E4) and the AI (E21; procedure AI1-AI10 in ai.py)."""

from __future__ import annotations

import hashlib
import json
import random

from core.encyclopedia import ai
from core.encyclopedia.data import DATA
from core.encyclopedia.rules import AI_SEAT, all_moves, to_act
from core.encyclopedia.scoring import breakdown
from tests.core.encyclopedia_helpers import (
    GAME,
    animal_of,
    clear_dice,
    give_animal,
    play_first_until,
    put_die,
)
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


def test_a_remembered_choice_is_the_one_worked_out_and_each_callers_own() -> None:
    """E21.4: the AI's choice, remembered by the state it was made in (`ai.choose` is asked
    again and again at one state by the rules and by searches), is the one worked out afresh
    at every AI decision of a game; changing a returned move changes nothing remembered."""
    s = _solo(5, behaviour=2, scoring=3)
    rnd = random.Random(5)
    ai._CHOICES.clear()
    checked = 0
    while to_act(s) is not None and checked < 20:
        if to_act(s) == AI_SEAT:
            fresh = ai._choose(s, all_moves(s))
            first = ai.choose(s, all_moves(s))  # worked out and remembered
            assert first == fresh
            first["type"] = "changed by its caller"
            again = ai.choose(GAME.clone(s), all_moves(s))  # remembered: an equal state
            assert again == fresh
            checked += 1
        GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
    assert checked == 20 and ai._CHOICES


def test_a_choice_worked_out_without_a_draw_holds_at_any_rng() -> None:
    """E21.4: a search's samples of one position differ only in the PRNG, so the AI's
    choices are remembered without it unless a plan drew while it was worked out: such a
    choice is the same at another `rng`, and `choose` at another `rng` always gives the
    choice worked out afresh there, whether or not one was remembered without it."""
    rnd = random.Random(7)
    seen = {True: 0, False: 0}
    for seed, behaviour in ((7, 1), (8, 3)):
        s = _solo(seed, behaviour=behaviour, scoring=3)
        ai._CHOICES.clear()
        while to_act(s) is not None:
            if to_act(s) == AI_SEAT and s.phase == "turns":
                fresh, drew = ai._choose_noting_draws(s, all_moves(s))
                other = GAME.clone(s)
                other.rng = rnd.getrandbits(64)
                elsewhere = ai._choose(other, all_moves(other))
                if not drew:
                    assert elsewhere == fresh
                seen[drew] += 1
                assert ai.choose(s, all_moves(s)) == fresh
                assert ai.choose(other, all_moves(other)) == elsewhere
            GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
    assert seen[True] and seen[False]


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
    """AI3 / E21.3.5 at level 2: the card's first worthwhile action in its order, own dice
    first (Collector: Academy before Expedition, so the die matching a display animal); at
    level 1 it does not choose among dice: the first die of its board."""
    s = play_first_until(_solo(6, behaviour=1, scoring=2), "turns")
    clear_dice(s)
    s.turn = 1
    s.hand[AI_SEAT] = []
    assert to_act(s) == AI_SEAT
    colour = DATA.animals[s.adisplay[0]].colour
    other = next(c for c in range(5) if not any(DATA.animals[a].colour == c
                                                 for a in s.adisplay))
    first = put_die(s, AI_SEAT, 0, other, 6)
    d = put_die(s, AI_SEAT, 1, colour, 1)
    put_die(s, 0, 0, colour, 6)
    easy = GAME.clone(s)
    easy.ai["scoring"] = 1
    assert GAME.legal_moves(easy)[0]["die"] == first
    move = GAME.legal_moves(s)[0]
    assert move["type"] == "take" and move["die"] == d
    GAME.apply(s, move)
    assert GAME.legal_moves(s)[0] == {**GAME.legal_moves(s)[0], "type": "act",
                                      "action": "academy"}


def test_ai3_plan_publishes_the_research_it_holds() -> None:
    """AI3: holding researched animals of a colour, the AI takes the high die of that colour
    and publishes (points now, a seal, the collections) rather than a low die's action."""
    for behaviour in (1, 2, 3):
        s = play_first_until(_solo(6, behaviour=behaviour, scoring=2), "turns")
        clear_dice(s)
        s.turn = 1
        cards = [a.id for a in DATA.animals if a.colour == 2][:2]
        s.hand[AI_SEAT] = list(cards)
        s.cubes[cards[0]], s.cubes[cards[1]] = 0b1111, 0b0111
        d = put_die(s, AI_SEAT, 0, 2, 6)
        put_die(s, AI_SEAT, 1, 3, 2)
        put_die(s, 0, 0, 4, 3)
        move = GAME.legal_moves(s)[0]
        assert move["die"] == d, behaviour
        GAME.apply(s, move)
        assert GAME.legal_moves(s)[0]["action"] == "publish", behaviour


def test_ai3_rival_behaviour_takes_the_human_dice_first() -> None:
    """AI3: of two equal dice the hard Rival takes the human's (its rival bonus), the
    Explorer its own; at level 2 the Rival took the human's until procedure 3 and takes its
    own since procedure 4 (its card's `rival_dice_first` is off)."""
    for behaviour, level, procedure, owner in ((3, 3, 4, 0), (2, 3, 4, AI_SEAT),
                                               (3, 2, 3, 0), (3, 2, 4, AI_SEAT),
                                               (2, 2, 4, AI_SEAT)):
        s = play_first_until(_solo(6, behaviour=behaviour, scoring=level), "turns")
        s.ai["procedure"] = procedure
        clear_dice(s)
        s.turn = 1
        s.hand[AI_SEAT] = []
        put_die(s, AI_SEAT, 0, 1, 2)
        put_die(s, 0, 0, 1, 2)  # the "no reward" space: taking it pays the human nothing
        assert GAME.legal_moves(s)[0]["owner"] == owner, (behaviour, level, procedure)


def _ai_moves(behaviour: int, level: int, seed: int) -> list[dict]:
    s = _solo(seed, behaviour=behaviour, scoring=level)
    rnd = random.Random(seed)
    played = []
    while to_act(s) is not None:
        moves = GAME.legal_moves(s)
        if to_act(s) == AI_SEAT:
            frame = s.stack[-1] if s.stack else None
            played.append({**moves[0], "frame": frame[0] if frame else s.phase,
                           "own_left": any(s.spaces[AI_SEAT][i] for i in range(4))})
        GAME.apply(s, pick(rnd, moves))
    played.append({"type": "end", "result": GAME.result(s)})
    return played


def test_ai4_modifiers_and_dice_by_level() -> None:
    """AI3 / AI4: the level changes how it plays. Level 1 takes only its own dice while it
    has any and never modifies a die; level 2 spends at most 1 coin on a die and never a
    seal; level 3 may do both; no level converts a seal to coins."""
    for level in (1, 2):
        moves = _ai_moves(2, level, 7)
        card = DATA.levels[level]
        coins_in_a_row = 0
        for m in moves[:-1]:
            assert m["type"] not in ("seal_coins", "boost", "recolour")
            if level == 1:
                assert m["type"] not in ("coin", "seal_die")
                if m["type"] == "take" and m["own_left"]:
                    assert m["owner"] == AI_SEAT
            coins_in_a_row = coins_in_a_row + 1 if m["type"] == "coin" else 0
            assert coins_in_a_row <= card.coins
            assert m["type"] != "seal_die" or card.seals


def test_ai10_level_card_and_solo_winner() -> None:
    """AI10 / E21.3.7 / E21.3.8: the level card adds its VP per published animal; the
    human must beat the AI (a tie is the AI's)."""
    s = _solo(8, scoring=3)
    s.published[AI_SEAT] = [0, 1]
    assert breakdown(s, AI_SEAT)["ai_card"] == 2 * DATA.levels[3].per_published
    assert breakdown(s, 0)["ai_card"] == 0
    s.published[AI_SEAT], s.experts[AI_SEAT], s.rep[AI_SEAT] = [], [[], [], [], []], 0
    for seat in (0, 1):
        s.coins[seat] = s.tokens[seat] = 0
        s.vp[seat] = 20
    r = GAME.result(s)
    assert r["scores"][0] == r["scores"][1] and r["ranking"] == [1, 0] and r["places"] == [2, 1]


def test_every_behaviour_publishes_and_levels_play_differently() -> None:
    """E24.11 / AI3: on the same deal each behaviour card publishes animals (it scores
    through publishing, not only expeditions), and levels 1 and 3 play different games."""
    for behaviour in (1, 2, 3):
        end = _ai_moves(behaviour, 2, 11)[-1]["result"]
        assert end["published"][AI_SEAT] >= 3, behaviour
    easy, hard = _ai_moves(2, 1, 12), _ai_moves(2, 3, 12)
    assert [m["type"] for m in easy] != [m["type"] for m in hard] or easy != hard


def _turn_states(seed: int, count: int) -> list:
    """States where the AI is about to take a die (a game against a random human)."""
    s = _solo(seed, behaviour=1, scoring=2)
    rnd = random.Random(seed)
    found = []
    while to_act(s) is not None and len(found) < count:
        if to_act(s) == AI_SEAT and s.phase == "turns" and not s.stack:
            found.append(GAME.clone(s))
        GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
    return found


def test_ai3_levels_choose_differently_from_the_same_state() -> None:
    """AI3 / G31: the level changes the play, not only the score: from the same positions,
    each pair of levels takes a different die or does a different action somewhere."""
    plans: dict[int, list] = {1: [], 2: [], 3: []}
    for s in _turn_states(21, 12):
        for level in plans:
            c = GAME.clone(s)
            c.ai["scoring"] = level
            take = GAME.legal_moves(c)[0]
            GAME.apply(c, take)
            move = GAME.legal_moves(c)[0]
            while move["type"] != "act":  # coins or a seal on the die, then the action
                GAME.apply(c, move)
                move = GAME.legal_moves(c)[0]
            plans[level].append((take["die"], move["action"]))
    assert plans[1] != plans[2] and plans[2] != plans[3] and plans[1] != plans[3]


def test_collector_publishes_at_every_level() -> None:
    """Issue 31: behaviour card 1 (Collector) publishes what it gathers (it once took the
    Academy and University all game and published nothing); procedure 3's level 1, which
    publishes late, too (4 deals: one game of it may publish 1)."""
    for level in (1, 2, 3):
        published = [_ai_moves(1, level, seed)[-1]["result"]["published"][AI_SEAT]
                     for seed in range(13, 17)]
        assert sum(published) / len(published) >= 3, (level, published)


def test_ai_procedure_version_kept_by_a_stored_game() -> None:
    """AI1: a new game records the AI's procedure version; a game set up before versions
    existed (no `procedure`) plays procedure 1's level cards, so its stored moves replay."""
    s = _solo(9, behaviour=1, scoring=1)
    assert s.ai["procedure"] == DATA.procedure and ai.level(s) == DATA.levels[1]
    old = GAME.clone(s)
    del old.ai["procedure"]
    assert ai.level(old) == DATA.levels_by_procedure[1][1] != ai.level(s)
    assert GAME.load(GAME.dump(old)).ai == old.ai
    old.ai["behaviour"] = s.ai["behaviour"] = 2  # the Explorer's order changed in version 2
    assert ai.behaviour(old).priority[1] == "expedition" != ai.behaviour(s).priority[1]


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
    s = play_first_until(_solo(6, behaviour=behaviour, scoring=2), "turns")
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
    """AI9: with a seal, the Explorer re-rolls its top-priority main-board die (above level
    1, before the last round); the Collector declines."""
    for behaviour, kind in ((2, "extra"), (1, "decline")):
        s = _ai_turn(behaviour)
        s.phase, s.turn = "extra", 1
        s.seals[AI_SEAT] = 1
        s.areas[0] = [0, 4, 8, 12, 16]
        assert GAME.legal_moves(s)[0]["type"] == kind
        if kind == "extra":
            assert GAME.legal_moves(s)[0]["die"] // 4 == s.ai["priority"][0]


# ---------------------------------------------------------------- procedure versions (AI0)

def _fingerprint(procedure: int, behaviour: int, level: int, seed: int) -> tuple[int, str]:
    """The AI's moves in a whole game against a seeded random human, set up under
    `procedure` (1: a game stored before versions existed): their count and a digest."""
    s = _solo(seed, behaviour=behaviour, scoring=level)
    if procedure == 1:
        del s.ai["procedure"]
    else:
        s.ai["procedure"] = procedure
    rnd = random.Random(seed)
    played = []
    while to_act(s) is not None:
        moves = GAME.legal_moves(s)
        if to_act(s) == AI_SEAT:
            played.append({k: v for k, v in moves[0].items() if k != "label"})
        GAME.apply(s, pick(rnd, moves))
    text = json.dumps(played, sort_keys=True)
    return len(played), hashlib.sha256(text.encode()).hexdigest()[:16]


def test_ai0_games_of_procedures_1_and_2_replay_the_same_moves() -> None:
    """AI0 / E21.4: a game set up under procedure 1 or 2 plays the moves it played before
    procedure 3 existed (digests recorded at commit 1adae54, procedure 2 the newest), so a
    stored game still replays; one level of each card at procedure 2."""
    assert _fingerprint(2, 1, 1, 31) == (102, "31cc35672036c489")
    assert _fingerprint(2, 2, 2, 32) == (109, "d632e310a954757a")
    assert _fingerprint(2, 3, 3, 33) == (118, "5cef6872eb52d6bc")
    assert _fingerprint(1, 2, 1, 34) == (107, "c1eef8784055df87")


def _publish_state(procedure: int, level: int, cubes: int):  # noqa: ANN202
    """The AI to take a die: its first die is an Africa 6, it holds one Africa animal with
    `cubes` research cubes, and the display offers an Africa animal (Academy is legal)."""
    s = play_first_until(_solo(6, behaviour=1, scoring=level), "turns")
    s.ai["procedure"] = procedure
    clear_dice(s)
    s.turn = 1
    s.hand[AI_SEAT] = []
    give_animal(s, AI_SEAT, animal_of(0), cubes)
    spare = animal_of(0, 1)
    give_animal(s, 0, spare)  # out of whichever pile holds it, then into the display
    s.hand[0].remove(spare)
    s.adisplay[0] = spare
    put_die(s, AI_SEAT, 0, 0, 6)
    put_die(s, AI_SEAT, 1, 1, 3)
    put_die(s, 0, 0, 2, 3)
    return s


def _action(s) -> str:  # noqa: ANN001
    """The action the AI does on this turn (after its take and any modifiers)."""
    GAME.apply(s, GAME.legal_moves(s)[0])
    move = GAME.legal_moves(s)[0]
    while move["type"] != "act":
        GAME.apply(s, move)
        move = GAME.legal_moves(s)[0]
    return move["action"]


def test_ai3_procedure_3_easy_level_publishes_late() -> None:
    """AI3 (procedure 3, level 1): before the last round it does not publish a bare card
    (procedure 2's level 1 does, for the seal) nor one with a single cube; it publishes an
    animal with 2 research cubes; in the last round it publishes whatever it holds. Level
    2 of procedure 3 still publishes the bare card."""
    assert _action(_publish_state(2, 1, 0)) == "publish"
    for cubes in (0, 0b1):
        assert _action(_publish_state(3, 1, cubes)) == "academy", cubes
    assert _action(_publish_state(3, 1, 0b11)) == "publish"
    last = _publish_state(3, 1, 0)
    last.round = DATA.rounds
    assert _action(last) == "publish"
    assert _action(_publish_state(3, 2, 0)) == "publish"


def test_ai8_procedure_3_easy_level_files_no_continental_extras() -> None:
    """AI8 (procedure 3): the Collector files Continental extras at levels 2 and 3, not at
    level 1; procedure 2's level 1 filed them."""
    for procedure, level, kind in ((3, 1, "finish"), (3, 2, "discard"), (3, 3, "discard"),
                                   (2, 1, "discard")):
        s = _ai_turn(behaviour=1)
        s.ai["procedure"], s.ai["scoring"] = procedure, level
        cards = [a.id for a in DATA.animals if a.colour == 1][:3]
        s.hand[AI_SEAT] = list(cards)
        s.cubes[cards[0]], s.cubes[cards[1]] = 0b1, 0b11
        s.stack.append(("focus", AI_SEAT, 1, 2))
        GAME.apply(s, GAME.legal_moves(s)[0])
        assert s.stack[-1][0] == "continental"
        moves = GAME.legal_moves(s)
        assert len(moves) == 1 and moves[0]["type"] == kind, (procedure, level)


def test_ai3_procedure_3_easy_level_in_a_whole_game() -> None:
    """AI3 / AI4 (procedures 3 and 4, level 1), over whole games against a random human: it
    takes its own dice while it has any, never modifies a die, and every Publish before the
    last round has an animal of the die's colour with 2 research cubes behind it."""
    for procedure, behaviour in ((p, b) for p in (3, 4) for b in (1, 2, 3)):
        s = _solo(40 + behaviour, behaviour=behaviour, scoring=1)
        s.ai["procedure"] = procedure
        rnd = random.Random(behaviour)
        while to_act(s) is not None:
            moves = GAME.legal_moves(s)
            if to_act(s) == AI_SEAT:
                m = moves[0]
                assert m["type"] not in ("coin", "boost", "recolour", "seal_die", "seal_coins")
                if m["type"] == "take" and any(s.spaces[AI_SEAT]):
                    assert m["owner"] == AI_SEAT
                if m.get("action") == "publish" and s.round < DATA.rounds:
                    colour = s.stack[-1][3]
                    assert any(bin(s.cubes[c]).count("1") >= 2 for c in s.hand[AI_SEAT]
                               if DATA.animals[c].colour == colour)
            GAME.apply(s, pick(rnd, moves))
        assert s.published_n[AI_SEAT] >= 1, (procedure, behaviour)


def test_ai0_games_of_procedure_3_replay_the_same_moves() -> None:
    """AI0 / E21.4: a game set up under procedure 3 plays the moves it played before
    procedure 4 existed (digests recorded at commit 6a5729b, procedure 3 the newest): the
    three cards procedure 4 changed (level 1, the Explorer's order, the Rival at level 2)."""
    assert _fingerprint(3, 1, 1, 35) == (116, "f57bd3d1971a1344")
    assert _fingerprint(3, 2, 2, 40) == (113, "a02bc4113b67c18a")
    assert _fingerprint(3, 3, 2, 37) == (115, "6796b7fc1a3d1d2a")
    assert _fingerprint(3, 2, 3, 38) == (116, "41c5c32c97b6e018")


def _rival_takes(procedure: int, seed: int) -> tuple[int, int]:
    """The medium Rival's takes in a whole game against a random human: (takes, takes of
    the human's die while a die of its own board was left)."""
    s = _solo(seed, behaviour=3, scoring=2)
    s.ai["procedure"] = procedure
    rnd = random.Random(seed)
    takes = theirs = 0
    while to_act(s) is not None:
        moves = GAME.legal_moves(s)
        if to_act(s) == AI_SEAT and moves[0]["type"] == "take":
            takes += 1
            theirs += moves[0]["owner"] != AI_SEAT and any(s.spaces[AI_SEAT])
        GAME.apply(s, pick(rnd, moves))
    return takes, theirs


def test_ai3_procedure_4_medium_rival_takes_its_own_dice_first() -> None:
    """AI3 (procedure 4): at level 2 the Rival takes the dice of its own board while any is
    left, as the other cards do (its card's `rival_dice_first` is off: in space order over
    both boards it won 74 % against greedy); procedure 3's medium Rival took the human's."""
    for seed in (51, 52):
        assert _rival_takes(4, seed)[1] == 0, seed
    assert sum(_rival_takes(3, seed)[1] for seed in (51, 52)) > 0


def test_ai3_procedure_4_easy_level_counts_only_points_now() -> None:
    """AI3 (procedure 4, level 1, foresight 0): it skips its card's next action only when
    that action would lose points now, so from the same positions it never does an action
    later in its card's order than procedure 3's level 1 (which also counted part of what
    an action's research and animals may score later) and somewhere does an earlier one."""
    earlier = 0
    for s in _turn_states(23, 16):
        order = ai.behaviour(s).priority
        chosen = []
        for procedure in (3, 4):
            c = GAME.clone(s)
            c.ai["procedure"], c.ai["scoring"] = procedure, 1
            chosen.append(order.index(_action(c)))
        assert chosen[1] <= chosen[0]
        earlier += chosen[1] < chosen[0]
    assert earlier > 0
