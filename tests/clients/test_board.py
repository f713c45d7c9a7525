"""The terminal board: every view renders readably at 80 columns, with no raw JSON."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from rich.console import Console

import core
from api.i18n import with_event_texts
from clients import board, i18n
from core.darwins_journey import i18n as dj_texts

# What raw JSON looks like on screen: a quoted key, an object or a nested list.
RAW_JSON = re.compile(r'"\w+"\s*:|\{"|\[\[|\{\}|":\s*[\[{0-9"]')


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.activate("en")
    yield
    i18n.activate("en")


def _text(renderable: object, width: int = 80) -> str:
    console = Console(record=True, width=width)
    console.print(renderable)
    return console.export_text()


def assert_readable(text: str) -> None:
    assert not RAW_JSON.search(text), RAW_JSON.search(text)
    assert all(len(line) <= 80 for line in text.splitlines())


def test_generic_view_shows_facts_tables_and_trees_without_json() -> None:
    view = {"game": "x", "round": 2, "hands": [[1, 2], None], "bag": {"G": 3, "B": 1},
            "players": [{"name": "a", "coins": 3}, {"name": "b", "coins": 5, "vp": 1}],
            "wide": [{f"field_{i}": {"deep": [[i, i + 1]]} for i in range(8)}],
            "board": {"north": {"owner": 1, "items": [1, 2]}, "south": None}}
    text = _text(board.render_view("unknown-game", view))
    for word in ("Round", "Coins", "North", "Owner", "Field 3", "G: 3"):
        assert word in text
    assert_readable(text)


def test_compact_never_writes_json() -> None:
    assert board.compact({"O2": 8, "IA2": 5}) == "O2 8, IA2 5"
    assert board.compact([[0, 0], [1, 2]]) == "(0, 0); (1, 2)"
    assert board.compact([]) == "—" and board.compact(True) == "yes"


def test_moves_read_as_labels_or_words() -> None:
    text = _text(board.moves_table([{"type": "draw", "label": "Draw a card"},
                                    {"type": "stop"}, {"type": "take_card", "card": 3}]))
    assert "1  Draw a card" in text and "2  Stop" in text and "3  Take card (card 3)" in text


def logged(game: str, events: list[dict], locale: str = "en") -> list[dict]:
    """`events` as the server's log gives them: each with its `text`."""
    entry = {"index": 0, "version": 1, "seat": 0, "move": {"type": "x"}, "events": events}
    return with_event_texts([entry], game, {}, locale)[0]["events"]


def test_seats_have_one_name() -> None:
    body = {"seat": 0, "seats": [{"seat": 0, "kind": "human"}, {"seat": 1, "kind": "bot",
                                                                  "bot": "alfred"},
                                 {"seat": 2, "kind": "bot", "bot": "greedy"}],
            "view": {"automa_seats": {"1": "alfred"}}}
    board.use_bot_titles([])  # the server's list unread: a bot by its id
    assert board.name_seats(body) == {0: "You", 1: "Alfred", 2: "Player 3 (greedy)"}
    assert board.event_text("toy", {"type": "coins", "seat": 1, "n": 2}) == "Alfred: Coins n 2"
    # by the server's title, as its log texts name the seat ("Player 3 (Greedy)"; issue 30)
    board.use_bot_titles([{"name": "greedy", "title": "Ganancioso"}])
    try:
        assert board.name_seats(body)[2] == "Player 3 (Ganancioso)"
    finally:
        board.use_bot_titles([])


def test_an_event_reads_in_the_servers_words_else_by_its_fields() -> None:
    """The log's `text` (the API's) is the event's line, and never shows among its fields;
    a game's quiet events (they repeat their move) have none."""
    aborted = {"type": "aborted", "by": "creator", "text": "The game was aborted by its creator"}
    assert board.event_text("toy", aborted) == "The game was aborted by its creator"
    assert board.event_text("toy", {"type": "aborted", "by": "creator"}) == "Aborted by creator"
    play = {"type": "play", "seat": 0, "card": 3, "text": "Player 1 played the Captain"}
    assert board.event_text("flotilla", play) == ""


def test_toy_game_views_render() -> None:
    game = core.get_game("toy-pontoon")
    state = game.new_game({"players": 2}, 1)
    text = _text(board.render_view(game.name, game.view(state, 0)))
    assert "Deck size" in text
    assert_readable(text)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 1, "alfred": "green"}])
def test_darwins_journey_views_render_through_a_game(options: dict) -> None:
    game = core.get_game("darwins-journey")
    state = game.new_game(options, 3)
    rng = random.Random(0)
    for step in range(400):
        seat = game.to_act(state)
        if seat is None:
            break
        view = game.view(state, seat)
        moves = game.legal_moves(state)
        if step % 40 == 0:
            text = _text(board.render_view(game.name, view))
            assert "Main board" in text and "Worker 1" in text  # the game's own renderer
            assert_readable(text + _text(board.moves_table(moves, game=game.name, view=view)))
        for event in logged(game.name, game.apply(state, rng.choice(moves))):
            text = board.event_text(game.name, event)
            assert_readable(text)
            # every event in the server's words (or left out), none left to the generic
            assert text in ("", event["text"]), event
    assert "Total" in _text(board.result_table(game.result(state)))


def test_darwins_journey_cards_are_texts_not_numbers() -> None:
    game = core.get_game("darwins-journey")
    state = game.new_game({"players": 1, "alfred": "white"}, 5)
    view = game.view(state, 0)
    moves = game.legal_moves(state)
    assert moves[0]["type"] == "draft"
    text = board.move_text(moves[0], game.name, view)
    card = next(c for c in view["catalog"]["crew"] if c["card"] == moves[0]["card"])
    assert text.endswith(card["text"])
    # In Portuguese the server gives the catalog translated (as the API does): bgb shows it.
    portuguese = {**view, "catalog": dj_texts.catalog(view["catalog"], "pt_BR")}
    translated = next(c for c in portuguese["catalog"]["crew"] if c["card"] == moves[0]["card"])
    assert translated["text"] != card["text"]
    assert board.move_text(moves[0], game.name, portuguese).endswith(translated["text"])


@pytest.mark.parametrize("name", ["flotilla", "encyclopedia"])
def test_other_games_views_render_without_json(name: str) -> None:
    if name not in core.game_names():
        pytest.skip(f"{name} is not registered")
    game = core.get_game(name)
    state = game.new_game({}, 2)
    rng = random.Random(1)
    for _step in range(60):
        seat = game.to_act(state)
        if seat is None:
            break
        assert_readable(_text(board.render_view(game.name, game.view(state, seat))))
        game.apply(state, rng.choice(game.legal_moves(state)))


def test_a_renderer_that_fails_falls_back_to_the_generic_one() -> None:
    @board.renderer("broken-game")
    def broken(view: dict) -> str:
        raise KeyError("layout changed")

    assert "Round" in _text(board.render_view("broken-game", {"round": 1}))


def _words(path: str, attribute: str) -> set[str]:
    from babel.messages.pofile import read_po

    with open(path, "rb") as source:
        texts = [getattr(m, attribute) for m in read_po(source) if m.id]
    return {w for text in texts for w in re.findall(r"[^\W\d_][^\W\d_'-]+",
                                                    re.sub(r"\{\w*\}", " ", text))}


@pytest.mark.parametrize("name,players", [("flotilla", 4), ("encyclopedia", 1),
                                          ("encyclopedia", 3)])
def test_other_games_in_portuguese_leave_no_english(name: str, players: int) -> None:
    """`bgb --lang pt-BR`: the board, the moves and the log of Flotilla and Encyclopedia say no
    English word of their catalogs (the view's catalog and labels come translated by the API,
    as `core/<game>/i18n.py` does here)."""
    import importlib
    import json

    texts = importlib.import_module(f"core.{name}.i18n")
    catalogs = ["clients/locales/pt_BR/LC_MESSAGES/bgb.po",
                f"core/{name}/locales/pt_BR/LC_MESSAGES/{name}.po"]
    english = set().union(*(_words(p, "id") for p in catalogs)) - set().union(
        *(_words(p, "string") for p in catalogs)) - {"Flotilla", "Encyclopedia", "Sonar"}
    i18n.activate("pt-BR")
    game = core.get_game(name)
    state = game.new_game({"players": players}, 3)
    first = game.view(state, 0)
    seats = [{"seat": p, "kind": "bot" if str(p) in first["automa_seats"] else "human"}
             for p in range(first["seat_count"])]
    board.name_seats({"game": name, "seat": 0, "seats": seats, "view": first})
    rng = random.Random(3)
    screens = []
    for step in range(200):
        seat = game.to_act(state)
        if seat is None:
            break
        view = json.loads(json.dumps(game.view(state, seat)))
        view["catalog"] = texts.catalog(view["catalog"], "pt_BR")
        if step % 20 == 0:
            screens.append(_text(board.render_view(name, view)))
        moves = game.legal_moves(state)
        screens += [board.move_text({**m, "label": texts.label(m, "pt_BR")}, name, view)
                    for m in moves]
        screens += [board.event_text(name, e)
                    for e in logged(name, game.apply(state, rng.choice(moves)), "pt_BR")]
    board.name_seats({})
    for screen in screens:
        left = set(re.findall(r"[^\W\d_][^\W\d_'-]+", screen)) & english
        assert not left, (left, screen)

