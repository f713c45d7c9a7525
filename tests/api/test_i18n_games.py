"""Flotilla's and Encyclopedia's texts in English and Brazilian Portuguese.

Every message of their catalogs is translated; every message their modules mark and every
text of their component data is in the catalog; seeded random games check that every move
label, event description and catalog text has its Portuguese, with no English word left;
the API gives them in the asked language.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

import core
from core.encyclopedia import i18n as encyclopedia_texts
from core.encyclopedia.data import DATA
from core.flotilla import data as flotilla_data
from core.flotilla import i18n as flotilla_texts
from tests.api.conftest import create

REPO = Path(__file__).resolve().parents[2]
PO = {"flotilla": REPO / "core/flotilla/locales/pt_BR/LC_MESSAGES/flotilla.po",
      "encyclopedia": REPO / "core/encyclopedia/locales/pt_BR/LC_MESSAGES/encyclopedia.po"}
TEXTS: dict[str, ModuleType] = {"flotilla": flotilla_texts, "encyclopedia": encyclopedia_texts}
# Messages that read the same in both languages (values only, or words shared by both).
SAME_IN_BOTH = {"{n} {colour}", "{continent} {n}", "{animal} ({continent})",
                "{expert} ({continent}; {effect})"}
# English words of each game's labels, events and catalog: none may be left in Portuguese.
ENGLISH = {
    "flotilla": re.compile(
        r"\b(sail|skiff|play|plays|copy|copies|seat|tile|bag|turned|build|built|pay|score|"
        r"scored|resolve|result|Barrel|deplete|depleted|reroll|rerolled|die|keep|dice|"
        r"wildcard|counts|raise|raised|Dial|switch|switched|join|joined|stay|retire|card|"
        r"discard|buy|sell|for|end|the|and|with|Influence|Resource|Seal|from|recruit|"
        r"recruited|place|placed|stop|return|gain|wheel|space|Player|drew|Ocean|Tile|rolled|"
        r"rescued|marker|reward|their|VP|Toxicity|coins|objective|Outpost|Floating|at|to|of|"
        r"on|an|is|per|your|you|in|Speakers|Traders|Founders|Delvers|speakers|traders|"
        r"founders|delvers|red|yellow|green|blue|The|Starter|Diver|Captain)\b"),
    "encyclopedia": re.compile(
        r"\b(Take|Put|the|your|on|space|and|Spend|royal|seal|re-roll|re-rolled|die|from|for|"
        r"an|additional|action|seat|they|receive|receives|top|expert|active|covering|under|"
        r"covered|collections|only|Stop|researching|points|unspent|Publish|publish|value|"
        r"Also|type|cube|cubes|No|more|file|published|lost|Finish|publishing|Bank|take|coins|"
        r"with|Embassy|expedition|tokens|University|Academy|animals|coin|make|Research|cost|"
        r"VP|Player|reputation|bonus|at|took|deck|Round|round|tile|drew|rolled|End|first|"
        r"player|Game|over|taken|matches|colour|token|researched|of|filed|now|always|end|"
        r"per|up|to|Africa|Americas|Asia|Europe|Forest|Water|Bird|Ostrich|Moose|Frog|Each|"
        r"Quartermaster|Guide|Herald|Editor of|reward)\b"),
}
PLAYERS = {"flotilla": (3, 4, 5), "encyclopedia": (1, 2, 3, 4)}


def _messages(path: Path) -> dict[str, str]:
    with path.open("rb") as source:
        catalog = read_po(source)
    return {str(m.id): str(m.string) for m in catalog if m.id}


@pytest.mark.parametrize("game", sorted(PO))
def test_every_message_has_its_portuguese_text(game: str) -> None:
    for message, text in _messages(PO[game]).items():
        assert text, f"{game}: no translation of {message!r}"
        if message not in SAME_IN_BOTH and " " in message:
            assert text != message, f"{game}: {message!r} left in English"
        # the same placeholders on both sides: a translation can always be formatted
        assert sorted(re.findall(r"\{(\w+)\}", text)) == sorted(
            re.findall(r"\{(\w+)\}", message)), message


@pytest.mark.parametrize("game", sorted(PO))
def test_every_message_of_the_module_is_in_its_catalog(game: str) -> None:
    messages = _messages(PO[game])
    modules = [REPO / f"core/{game}/{name}" for name in ("i18n.py", "names.py")]
    for module in (m for m in modules if m.exists()):
        for _line, message, _comments, _context in extract_from_file(
                "python", module, keywords={"_": None, "_noop": None}):
            assert message in messages, (module.name, message)


def test_every_flotilla_component_name_is_in_the_catalog() -> None:
    messages = _messages(PO["flotilla"])
    for card in flotilla_data.CARDS:
        for side in ("sinkside", "skyside"):
            assert card[side]["name"] in messages, card
    for artifact in flotilla_data.ARTIFACTS:
        assert artifact["name"] in messages, artifact
    for objective in flotilla_data.OBJECTIVES:
        for side in ("sinkside", "skyside"):
            assert f"count.{objective[side]['count']}" in messages, objective
    for word in (*flotilla_data.GUILDS, *flotilla_data.COLOURS, *flotilla_data.DIVE_KINDS):
        assert word in messages, word


def test_every_encyclopedia_component_text_is_in_the_catalog() -> None:
    messages = _messages(PO["encyclopedia"])
    words = [*DATA.colours, *DATA.space_labels, *DATA.tile_texts,
             *(c for categories in DATA.categories for c in categories),
             *(a.name for a in DATA.animals), *(x.name for x in DATA.experts)]
    for word in words:
        assert word in messages, word
    for expert in DATA.experts:
        text = encyclopedia_texts.CATALOG.translate(expert.text(), "pt_BR")
        assert not ENGLISH["encyclopedia"].search(text), (expert.text(), text)


def _check_catalog(game: str, view: dict[str, Any]) -> None:
    texts = TEXTS[game]
    english = json.dumps(view["catalog"])
    portuguese = texts.catalog(view["catalog"], "pt_BR")
    assert json.dumps(view["catalog"]) == english, "the view's catalog changed in place"
    assert texts.catalog(view["catalog"], "en") == view["catalog"]
    for text in _strings(portuguese, game):
        assert not ENGLISH[game].search(text), text


def _strings(catalog: dict[str, Any], game: str) -> list[str]:
    """The texts of a translated catalog a person reads (not the ids used as keys)."""
    if game == "flotilla":
        cards = [c[side] for c in catalog["cards"].values() for side in ("sinkside", "skyside")]
        objectives = [t for sides in catalog["objectives"].values() for t in sides.values()]
        return cards + objectives + list(catalog["artifacts"].values())
    out = [*catalog["colours"], *catalog["spaces"], catalog["tile"] or ""]
    for animal in catalog["animals"].values():
        out += [animal["name"], *animal["categories"]]
    for expert in catalog["experts"].values():
        out += [expert["name"], expert["text"]]
    return out


@pytest.mark.parametrize("game,players", [(g, n) for g in sorted(PLAYERS) for n in PLAYERS[g]])
def test_moves_events_and_catalogs_in_portuguese_through_games(game: str, players: int) -> None:
    for seed in (players, 100 + players):
        _play_checking_texts(game, players, seed)


def _play_checking_texts(game: str, players: int, seed: int) -> None:
    """Play a seeded random game, checking every label, event and catalog on the way."""
    rules = core.get_game(game)
    texts = TEXTS[game]
    english_words = ENGLISH[game]
    state = rules.new_game({"players": players}, seed)
    rng = random.Random(seed)
    turns = 0
    while rules.to_act(state) is not None:
        moves = rules.legal_moves(state)
        for legal in moves:
            text = texts.label(legal, "pt_BR")
            assert text != legal["label"] and not english_words.search(text), (legal, text)
            assert texts.label(legal, "en") == legal["label"]
        for event in rules.apply(state, rng.choice(moves)):
            for locale in ("en", "pt_BR"):
                described = texts.describe(event, locale)
                assert described and described != event["type"], (event, locale)
            described = texts.describe(event, "pt_BR")
            assert not english_words.search(described), (event, described)
            if game == "encyclopedia" and event["type"] == "move":
                assert texts.describe(event, "en").endswith(event["label"])
        turns += 1
        if turns % 25 == 0:
            _check_catalog(game, rules.view(state, rules.to_act(state)))
    for seat in (None, 0):
        _check_catalog(game, rules.view(state, seat))


def test_the_api_gives_flotilla_labels_and_catalog_in_the_asked_language(
        client: FlaskClient) -> None:
    created = create(client, game="flotilla", players=3)
    token = created.auth(client.get(f"/v1/games/{created.id}").get_json()["to_act"])
    english = client.get(f"/v1/games/{created.id}", headers=token).get_json()
    assert english["legal_moves"][0]["label"].startswith("play ")
    assert english["view"]["catalog"]["cards"]["0"]["sinkside"] == "The Captain"
    portuguese = client.get(f"/v1/games/{created.id}?lang=pt-BR", headers=token).get_json()
    assert portuguese["legal_moves"][0]["label"].startswith("jogar ")
    assert portuguese["view"]["catalog"]["cards"]["0"]["sinkside"] == "A Capitã"
    assert portuguese["view"]["catalog"]["guilds"] == english["view"]["catalog"]["guilds"]


def test_the_api_gives_encyclopedia_labels_log_and_catalog_in_the_asked_language(
        client: FlaskClient) -> None:
    created = create(client, game="encyclopedia", players=2)
    token = created.auth(client.get(f"/v1/games/{created.id}").get_json()["to_act"])
    english = client.get(f"/v1/games/{created.id}", headers=token).get_json()
    assert english["legal_moves"][0]["label"].startswith("Take ")
    played = client.post(f"/v1/games/{created.id}/moves", headers=token,
                         json={"move": english["legal_moves"][0], "version": english["version"]})
    assert played.status_code == 200, played.get_json()
    log = client.get(f"/v1/games/{created.id}/moves", headers={**token,
                                                                 "Accept-Language": "pt-BR"})
    entry = log.get_json()["moves"][0]
    assert entry["move"]["label"].startswith("Pegar ")
    assert next(e for e in entry["events"] if e["type"] == "move")["label"].startswith("Pegar ")
    portuguese = client.get(f"/v1/games/{created.id}?lang=pt-BR", headers=token).get_json()
    assert portuguese["view"]["catalog"]["colours"][0] == "África"


def test_the_engines_reasons_in_portuguese(client: FlaskClient) -> None:
    """An engine's reason for refusing options, a value of the problem's detail."""
    portuguese = {"Accept-Language": "pt-BR"}
    refused = client.post("/v1/games", headers=portuguese,
                          json={"game": "flotilla", "options": {"players": 2}})
    assert refused.status_code == 422
    assert refused.get_json()["detail"] == (
        "opção inválida 'players': deve ser 3, 4 ou 5 (F1.8, F33.1)")
