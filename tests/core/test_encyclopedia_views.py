"""Encyclopedia hidden information (RULES.md E23) and the stand-in component data (E24)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from core.encyclopedia import i18n, scoring
from core.encyclopedia.data import DATA
from core.encyclopedia.rules import to_act
from tests.core.encyclopedia_helpers import GAME, at_turns
from tests.core.random_play import pick

DATA_DIR = Path(__file__).resolve().parents[2] / "core" / "encyclopedia" / "data"


def test_e23_views_hide_decks_bag_and_tiles() -> None:
    """E23.1 / E23.2 / E23.4: no view holds the RNG, a deck's content, the bag's dice or the
    tiles still face down: only their sizes."""
    s = at_turns(3, 2)
    for seat in (0, 1, 2, None):
        v = GAME.view(s, seat)
        assert "rng" not in v
        assert isinstance(v["xdeck"], int) and isinstance(v["adeck"], int)
        assert isinstance(v["tiles_left"], int) and v["tiles_left"] == 12 - len(s.tiles)
        assert v["bag"] == [sum(1 for d in s.bag if d // 4 == c) for c in range(5)]
        assert v["xdeck"] == len(s.xdeck) and v["adeck"] == len(s.adeck)


def test_e23_3_public_information() -> None:
    """E23.3 / A36 / G32: displays, dice, resources, hands, cubes and published piles are
    public: every seat sees the same thing but its own seat number."""
    s = at_turns(3, 2)
    views = [GAME.view(s, seat) for seat in (0, 1, 2, None)]
    for v in views:
        v.pop("seat")
    assert all(v == views[0] for v in views)
    assert views[0]["published"] == s.published and views[0]["coins"] == s.coins


def test_events_never_show_hidden_orders() -> None:
    """E23.2: events name only cards and dice as they become public (drawn, rolled, flipped)."""
    s = GAME.new_game({"players": 2}, 4)
    rnd = random.Random(4)
    while to_act(s) is not None:
        before_decks = (list(s.xdeck), list(s.adeck))
        for e in GAME.apply(s, pick(rnd, GAME.legal_moves(s))):
            text = json.dumps(e)
            assert "deck" not in e or e["type"] in ("deck_animal", "deck_expert")
            assert '"to": [' not in text
            if e["type"] == "round":
                assert set(e["experts"]) <= set(s.xdisplay) | set(s.xdiscard) | {
                    c for b in s.experts for x in b for c in x} | set(before_decks[0])


def test_the_view_scores_each_seats_continents_as_the_final_scoring_does() -> None:
    """E20.2(b): the view's `continent_vp` is what each seat's published animals and
    experts would score by continent if the game ended now."""
    s = GAME.new_game({"players": 2}, 3)
    rnd = random.Random(3)
    scored = False
    while to_act(s) is not None:
        shown = GAME.view(s, None)["continent_vp"]
        assert shown == [scoring.continents(s, p) for p in range(s.n)]
        scored |= any(shown) and any(s.published)
        GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
    assert scored, "no animal was published in the game"


def test_determinize_rebuilds_unseen_sets() -> None:
    """E23.4: determinize puts every unseen card and die back in its deck or the bag."""
    s = at_turns(2, 7)
    v = GAME.view(s, 0)
    det = GAME.determinize(v, 0, 99)
    assert sorted(det.xdeck) == sorted(s.xdeck) and sorted(det.adeck) == sorted(s.adeck)
    assert sorted(det.bag) == sorted(s.bag)
    assert GAME.view(det, 0) == v


def test_catalog_keys_each_category_by_index() -> None:
    """A client draws a category's icon from its stable index (`category_ids`), never from
    its words: the index names the same category as the words, in English and (translated)
    in Portuguese, where the words change and the indices do not."""
    s = at_turns(2, 7)
    animals = GAME.view(s, 0)["catalog"]["animals"]
    assert animals
    for card, entry in animals.items():
        assert entry["category_ids"] == list(DATA.animals[int(card)].categories)
        assert entry["categories"] == [DATA.categories[t][k]
                                       for t, k in enumerate(entry["category_ids"])]
    translated = i18n.catalog(GAME.view(s, 0)["catalog"], "pt_BR")["animals"]
    assert all(translated[c]["category_ids"] == animals[c]["category_ids"] for c in animals)
    assert any(translated[c]["categories"] != animals[c]["categories"] for c in animals)


def test_e24_data_files_are_marked_stand_in() -> None:
    """E24 / E24.10: every data file says it is a stand-in to replace with the real values."""
    for path in DATA_DIR.glob("*.json"):
        note = json.loads(path.read_text())["_note"]
        assert "stand-in, designed from the rules" in note, path.name


def test_e24_2_animals() -> None:
    """E24.2 / G24: 75 animals with distinct names, 15 per colour, every category of every
    type at least twice in each colour; research costs 2/4/7/10, VP 0/1/2/4 (G25)."""
    assert len(DATA.animals) == 75
    assert len({a.name for a in DATA.animals}) == 75  # a card is named in labels and events
    for colour in range(5):
        cards = [a for a in DATA.animals if a.colour == colour]
        assert len(cards) == 15
        for t in range(4):
            for cat in range(4):
                assert sum(1 for a in cards if a.categories[t] == cat) >= 2
    assert DATA.research_cost == (2, 4, 7, 10) and DATA.research_vp == (0, 1, 2, 4)


def test_e24_3_experts() -> None:
    """E24.3 / G19: 55 experts, 11 per colour: 4 immediate, 4 permanent, 3 end-game."""
    assert len(DATA.experts) == 55
    for colour in range(5):
        cards = [x for x in DATA.experts if x.colour == colour]
        assert [sum(1 for x in cards if x.when == w) for w in ("immediate", "permanent", "end")
                ] == [4, 4, 3]
        assert all(x.text() for x in cards)


def test_e24_4_to_e24_7_boards_and_tables() -> None:
    """E24.4 / G26 / E24.5 / E24.6 / E24.7: grid VP by type, 4 continent spaces with
    reputation and bonus, the reputation track, the collection tables."""
    assert DATA.publish_vp == (1, 2, 3, 4)
    assert DATA.continent_rep == (3, 2, 1, 0) and DATA.continent_bonus == (0, 1, 2, 3)
    assert DATA.track_length == 14 and DATA.track_bonus[4] == (("animal", 1),)
    assert DATA.track_bonus[8] == (("expert", 1),)
    assert DATA.category_collection == (0, 1, 3, 6, 10)
    assert DATA.continent_collection == (0, 1, 3, 6, 10, 15, 21)
    assert DATA.seal_end_vp == 4


def test_e24_11_solo_cards() -> None:
    """E24.11 / E24.12: 15 continent cards, 3 behaviour and 3 scoring cards; every behaviour
    lists the six actions once."""
    assert len(DATA.continent_cards) == 15 and sorted(set(DATA.continent_cards)) == list(range(5))
    assert sorted(DATA.behaviours) == [1, 2, 3] and sorted(DATA.levels) == [1, 2, 3]
    for card in DATA.behaviours.values():
        assert sorted(card.priority) == sorted(DATA.actions)


def test_terminal_board_draws_every_phase() -> None:
    """The view's catalog names what is in sight; `bgb play` draws it with its own renderer."""
    from rich.console import Console

    from clients import board
    for options in ({"players": 1}, {"players": 3}):
        s = GAME.new_game(options, 3)
        rnd = random.Random(0)
        step = 0
        while to_act(s) is not None:
            if step % 97 == 0:
                console = Console(record=True, width=200)
                console.print(board.render_view("encyclopedia", GAME.view(s, 0)))
                text = console.export_text()
                assert "Main board" in text and "Players" in text
            GAME.apply(s, pick(rnd, GAME.legal_moves(s)))
            step += 1
