"""The API's own texts in English and Brazilian Portuguese, chosen per request.

Also the catalogs themselves: every message id of the API's and the terminal client's
gettext catalogs has its Portuguese text, and every message the client's code marks, every
card text of Darwin's Journey's components, is in the client's catalog.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

import core
from ai_worker import bots
from api import i18n
from core.darwins_journey import data as dj_data
from core.darwins_journey import i18n as dj_texts
from core.darwins_journey import views as dj_views
from tests.api.conftest import create, move, problem

REPO = Path(__file__).resolve().parents[2]
API_PO = REPO / "api" / "locales" / "pt_BR" / "LC_MESSAGES" / "api.po"
CLIENT_PO = REPO / "clients" / "locales" / "pt_BR" / "LC_MESSAGES" / "bgb.po"
DJ_PO = REPO / "core/darwins_journey/locales/pt_BR/LC_MESSAGES/darwins_journey.po"
# English words of the engine's labels and events: none may be left in a Portuguese one.
ENGLISH = re.compile(r"\b(Worker|worker|Take|Keep|Explorer|Ship|Stamp|Research|Deliver|Unlock|"
                     r"Fulfil|Skip|coins|seal|onto|the|to|from|and|card|island|ocean|stack|"
                     r"envelope|Do|Choose|explore|navigate|academy|up|tent|campsite|slot|stops|"
                     r"points|knowledge|draws|rests|delivers|unlocks|space|round|bonus|track)\b")
CLIENT_CODE = ["clients/board.py", "clients/board_darwins_journey.py", "clients/board_flotilla.py",
               "clients/board_encyclopedia.py", "clients/cli.py", "clients/analysis.py"]
# Words that read the same in both languages (names, or values only).
SAME_IN_BOTH = {"Total", "Envelope {n}", "Alfred", "Darwin's Journey", "Flotilla", "Encyclopedia",
                "game.darwins-journey", "game.flotilla", "game.encyclopedia", "{colour} {price}",
                "{guild} {space}", "{seat}: {reward}"}


def _messages(path: Path) -> dict[str, str]:
    with path.open("rb") as source:
        catalog = read_po(source)
    return {str(m.id): str(m.string) for m in catalog if m.id}


def _comments(path: Path) -> dict[str, str]:
    with path.open("rb") as source:
        return {str(m.id): " ".join(m.auto_comments) for m in read_po(source) if m.id}


@pytest.mark.parametrize("path", [API_PO, CLIENT_PO, DJ_PO],
                         ids=["api", "clients", "darwins-journey"])
def test_every_message_has_its_portuguese_text(path: Path) -> None:
    for message, text in _messages(path).items():
        assert text, f"{path.name}: no translation of {message!r}"
        if message not in SAME_IN_BOTH and " " in message:
            assert text != message, f"{path.name}: {message!r} left in English"


def test_every_message_of_the_terminal_client_is_in_its_catalog() -> None:
    messages = _messages(CLIENT_PO)
    for file in CLIENT_CODE:
        for _line, message, _comments, _context in extract_from_file("python", REPO / file):
            assert message in messages, f"{file}: {message!r} is not in {CLIENT_PO.name}"


def test_every_darwins_journey_card_text_is_in_the_games_catalog() -> None:
    """Card and tile texts, and objective requirements, are data: the view's catalog gives
    them in the asked language (dj_texts.catalog), from the game's own catalog."""
    messages = _messages(DJ_PO)
    data = json.loads((REPO / "core/darwins_journey/data/components.json").read_text())
    for kind in ("special_tiles", "crew_cards", "beagle_goals", "correspondence_tiles"):
        for component in data[kind]:
            assert component["text"] in messages, (kind, component["id"])
    state = core.get_game("darwins-journey").new_game({"players": 4}, 1)
    every = dj_views.catalog(state, list(dj_data.DATA.crew))
    every = {**every, "objectives": [{"tile": t, "gold": o.gold, "needs": list(
        dj_views._objective_needs(t))} for t, o in dj_data.DATA.objectives.items()]}
    portuguese = dj_texts.catalog(every, "pt_BR")
    for kind in ("special", "correspondence", "beagle_goals", "crew"):
        for english, translated in zip(every[kind], portuguese[kind], strict=True):
            assert translated["text"] != english["text"], english
    for english, translated in zip(every["objectives"], portuguese["objectives"], strict=True):
        for need, text in zip(english["needs"], translated["needs"], strict=True):
            assert text != need and not ENGLISH.search(text), (need, text)


def test_every_game_option_and_bot_has_its_portuguese_text() -> None:
    messages = _messages(API_PO)
    for name in core.game_names():
        if name.startswith("toy-"):
            continue
        assert f"game.{name}" in messages
        for option in core.get_game(name).options_schema():
            assert f"option.{name}.{option}" in messages, (name, option)
            assert f"option.{name}.{option}.help" in messages, (name, option)
    for bot in bots.describe_bots():
        assert f"bot.{bot['name']}" in messages, bot["name"]
        assert f"bot.{bot['name']}.title" in messages, bot["name"]
        # the key's translator comment holds the English it translates (kept in step)
        assert bot["title"] in _comments(API_PO)[f"bot.{bot['name']}.title"], bot["name"]
        for param in bot["params"]:
            assert f"bot.{bot['name']}.{param}" in messages, (bot["name"], param)


def test_language_from_query_then_accept_language(client: FlaskClient) -> None:
    english = client.get("/v1/games/nope").get_json()
    assert (english["title"], english["detail"]) == ("Not found", "no game 'nope'")
    asked = client.get("/v1/games/nope", headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"})
    assert asked.get_json()["title"] == "Não encontrado"
    assert asked.get_json()["detail"] == "jogo inexistente: 'nope'"
    assert asked.headers["Content-Language"] == "pt-BR"
    assert "Accept-Language" in asked.headers["Vary"]
    assert client.get("/v1/games/nope", headers={"Accept-Language": "pt"}
                      ).get_json()["title"] == "Não encontrado"
    query = client.get("/v1/games/nope?lang=en", headers={"Accept-Language": "pt-BR"})
    assert query.get_json()["title"] == "Not found"
    assert client.get("/v1/games/nope?lang=pt-BR").get_json()["title"] == "Não encontrado"


def test_every_answer_says_its_language_so_caches_keep_them_apart(client: FlaskClient) -> None:
    """The catalog and the bots answer in the asked language: they say so (issue 14)."""
    for path in ("/v1/games-catalog", "/v1/bots"):
        for asked, said in (("pt-BR", "pt-BR"), ("en", "en")):
            answer = client.get(path, headers={"Accept-Language": asked})
            assert answer.status_code == 200
            assert answer.headers["Content-Language"] == said, path
            assert "Accept-Language" in answer.headers["Vary"], path
    assert client.get("/v1/games/nope", headers={"Accept-Language": "fr"}
                      ).get_json()["title"] == "Not found"


def test_refused_moves_in_portuguese(client: FlaskClient) -> None:
    created = create(client)
    portuguese = {"Accept-Language": "pt-BR"}
    wrong_turn = problem(move(client, created, 1, 0, **portuguese), 403, "not-your-turn")
    assert wrong_turn["title"] == "Não é a sua vez"
    assert wrong_turn["detail"] == "é a vez do assento 0, não do assento 1"
    assert move(client, created, 0, 0).status_code == 200
    stale = problem(move(client, created, 0, 0, **portuguese), 409, "stale-version")
    assert stale["detail"].startswith("a jogada foi escolhida na versão 0")


def test_catalog_and_bots_in_portuguese(client: FlaskClient) -> None:
    games = client.get("/v1/games-catalog?lang=pt-BR").get_json()["games"]
    darwin = next(g for g in games if g["name"] == "darwins-journey")
    assert darwin["options"]["players"]["label"] == "Jogadores"
    assert "solo contra Alfred" in darwin["options"]["players"]["description"]
    english = client.get("/v1/games-catalog").get_json()["games"]
    assert next(g for g in english if g["name"] == "darwins-journey"
                )["options"]["players"]["label"] == "Players"
    described = client.get("/v1/bots", headers={"Accept-Language": "pt-BR"}).get_json()["bots"]
    mcts = next(b for b in described if b["name"] == "mcts")
    assert "Monte Carlo" in mcts["description"] and mcts["description"].startswith("Busca")
    assert mcts["params"]["ms"]["description"].startswith("milissegundos")


def test_a_text_with_values_keeps_them() -> None:
    assert i18n.gettext("the game is finished; no move is taken", "pt_BR") == (
        "o jogo está terminado; nenhuma jogada é aceita")
    assert i18n.gettext("something new", "pt_BR") == "something new"
    assert i18n.normalize("pt_BR.UTF-8") == "pt_BR" and i18n.normalize("de") is None


def test_every_darwins_journey_message_of_its_module_is_in_its_catalog() -> None:
    messages = _messages(DJ_PO)
    keywords = {"_": None, "_noop": None}
    for _line, message, _comments, _context in extract_from_file(
            "python", REPO / "core/darwins_journey/i18n.py", keywords=keywords):
        assert message in messages, message


def test_darwins_journey_moves_and_events_in_portuguese_through_games() -> None:
    game = core.get_game("darwins-journey")
    for seed, options in enumerate([{"players": 1, "alfred": "green"}, {"players": 3}]):
        state = game.new_game(options, seed)
        rng = random.Random(seed)
        while game.to_act(state) is not None:
            moves = game.legal_moves(state)
            for legal in moves[:40]:
                text = dj_texts.label(legal, "pt_BR")
                assert not ENGLISH.search(text), (legal, text)
                # English from the same messages: places by name ("Exploration 1"), no ids
                english = dj_texts.label(legal, "en")
                assert english and not re.search(r"\b[a-z]+\.\d|\b[a-z]+_[a-z]", english)
            for event in game.apply(state, rng.choice(moves)):
                for locale in ("en", "pt_BR"):
                    described = dj_texts.describe(event, locale)
                    assert described and described != event["type"], event
                assert not ENGLISH.search(dj_texts.describe(event, "pt_BR")), event


def test_the_api_gives_move_labels_in_the_asked_language(client: FlaskClient) -> None:
    created = create(client, game="darwins-journey", players=2)
    token = created.auth(0)
    english = client.get(f"/v1/games/{created.id}", headers=token).get_json()
    assert english["legal_moves"][0]["label"].startswith("Keep crew card")
    portuguese = client.get(f"/v1/games/{created.id}?lang=pt-BR", headers=token)
    assert portuguese.get_json()["legal_moves"][0]["label"].startswith(
        "Ficar com a Carta de Tripulação")
    assert "Accept-Language" in portuguese.headers["Vary"]
    chosen = english["legal_moves"][0]
    played = client.post(f"/v1/games/{created.id}/moves", headers=token,
                         json={"move": chosen, "version": english["version"]})
    assert played.status_code == 200, played.get_json()
    log = client.get(f"/v1/games/{created.id}/moves", headers={**token,
                                                                 "Accept-Language": "pt-BR"})
    assert log.get_json()["moves"][0]["move"]["label"].startswith("Ficar com")


def test_a_darwins_journey_read_in_portuguese_has_its_card_texts_in_portuguese(
        client: FlaskClient) -> None:
    created = create(client, game="darwins-journey", players=2)
    english = client.get(f"/v1/games/{created.id}").get_json()["view"]["catalog"]
    portuguese = client.get(f"/v1/games/{created.id}?lang=pt-BR").get_json()["view"]["catalog"]
    assert portuguese == dj_texts.catalog(english, "pt_BR")
    assert portuguese["special"][0]["text"] != english["special"][0]["text"]
    again = client.get(f"/v1/games/{created.id}").get_json()["view"]["catalog"]
    assert again == english, "the shared catalog is never translated in place"
