"""The page's files as the API serves them, and the page's data: no browser needed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from api import create_app
from api.play import web_root
from clients import web_messages
from core.darwins_journey.data import DATA, ISLANDS

WEB = web_root()
MESSAGES = {lang: web_messages.messages(lang) for lang in ("en", "pt-BR")}
# Messages the same in both languages: names, numbers and symbols.
SAME_IN_BOTH = {"app.title", "bot.alfred", "automa.darwins-journey", "game.darwins-journey",
                "game.encyclopedia", "game.flotilla", "dj.location", "result.total", "seat.bot",
                "enc.behaviour.3", "enc.category.Polar", "enc.category.Tropical",
                "fl.dive.S", "fl.why.sonar"}


@pytest.fixture
def client(redis_url: str) -> FlaskClient:
    """A test client of the API app (the page needs no Redis)."""
    return create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()


def test_the_root_and_play_lead_to_the_page(client: FlaskClient) -> None:
    assert client.get("/").headers["Location"].endswith("/play/")
    assert client.get("/play").headers["Location"].endswith("/play/")
    for path in ("/play/", "/play/games/AbC123xyz"):
        page = client.get(path)
        assert page.status_code == 200 and page.mimetype == "text/html"
        assert b'<script type="module" src="/play/js/main.js">' in page.data


def test_files_have_their_content_types_and_a_strict_policy(client: FlaskClient) -> None:
    expected = {"/play/js/main.js": "text/javascript", "/play/css/app.css": "text/css",
                "/play/i18n/pt-BR.json": "application/json",
                "/play/js/renderers/darwins-journey.js": "text/javascript"}
    for path, mimetype in expected.items():
        answer = client.get(path)
        assert answer.status_code == 200 and answer.mimetype == mimetype, path
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        assert "unsafe" not in policy
        assert answer.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", [
    "/play/../api/play.py", "/play/%2e%2e/api/play.py", "/play/js/..%2f..%2f..%2fapi/play.py",
    "/play/js/../../../pyproject.toml", "/play/.gitignore", "/play/js/.hidden.js",
    "/play/README.md", "/play/nothing.js",
])
def test_nothing_outside_the_page_files_is_served(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_the_page_is_not_an_api_operation(client: FlaskClient) -> None:
    paths = client.get("/v1/openapi.json").get_json()["paths"]
    assert not [p for p in paths if p == "/" or p.startswith("/play")]


def test_both_languages_have_every_message() -> None:
    en, pt = MESSAGES["en"], MESSAGES["pt-BR"]
    assert set(en) == set(pt)
    assert all(isinstance(v, str) and v.strip() for v in [*en.values(), *pt.values()])
    for key in en:
        assert set(re.findall(r"\{\w+\}", en[key])) == set(re.findall(r"\{\w+\}", pt[key])), key
    english_left = [k for k in en if en[k] == pt[k] and k not in SAME_IN_BOTH]
    assert english_left == []


def test_the_messages_are_served_from_the_gettext_catalog(client: FlaskClient) -> None:
    """Issue 14: the page's texts live in a .po catalog (msgctxt = key), read with Babel."""
    with web_messages.catalog_path().open("rb") as source:
        catalog = read_po(source, locale="pt_BR", domain="web")
    entries = [m for m in catalog if m.id]
    assert len(entries) == len(MESSAGES["en"]) and all(m.context for m in entries)
    assert [m.context for m in entries if m.fuzzy or not m.string] == []  # all translated
    for lang in ("en", "pt-BR"):
        answer = client.get(f"/play/i18n/{lang}.json")
        assert answer.status_code == 200 and answer.get_json() == MESSAGES[lang]
    assert client.get("/play/i18n/fr.json").status_code == 404
    assert client.get("/play/i18n/../app.json").status_code == 404


def test_every_message_the_page_asks_for_exists() -> None:
    sources = [p.read_text("utf-8") for p in WEB.rglob("*.js")]
    sources.append((WEB / "index.html").read_text("utf-8"))
    asked = set()
    for text in sources:
        asked.update(re.findall(r"""\bt\(\s*["']([\w.-]+)["']""", text))
        asked.update(re.findall(r'data-i18n="([\w.-]+)"', text))
    assert asked, "the scan found the page's messages"
    assert sorted(asked - set(MESSAGES["en"])) == []


def test_portuguese_uses_the_rulebooks_terms() -> None:
    pt = " ".join(MESSAGES["pt-BR"].values())
    for term in ("Diário Principal", "Diário Especial", "Diário Pequeno", "Lupa", "Selo de Cera",
                 "Conhecimento Temporário", "Carta de Tripulação", "Meta", "Teoria da Evolução",
                 "Tabuleiro Central", "Acampamento", "Tenda", "Carimbo", "Espécime"):
        assert term in pt, term


def test_the_darwins_journey_layout_matches_the_engine_data() -> None:
    layout = json.loads((WEB / "data" / "darwins-journey.json").read_text("utf-8"))
    assert [loc["id"] for loc in layout["locations"]] == list(DATA.location_ids)
    assert [space["id"] for space in layout["ocean"]] == [space.id for space in DATA.ocean]
    assert list(layout["islands"]) == list(ISLANDS)
    for index, spaces in enumerate(layout["islands"].values()):
        assert [s["id"] for s in spaces] == [s.id for s in DATA.islands[index]]
    assert layout["beagle_spaces"] == list(DATA.beagle_spaces)


# A name, not an address: the namespace document.createElementNS needs for SVG elements.
SVG_NAMESPACE = '"http://www.w3.org/2000/svg"'


def test_the_page_fetches_nothing_from_elsewhere() -> None:
    for path in [*WEB.rglob("*.js"), *WEB.rglob("*.html"), *WEB.rglob("*.css")]:
        text = Path(path).read_text("utf-8").replace(SVG_NAMESPACE, "")
        assert not re.search(r"https?://", text), path


# A developer's note in a text: a rulebook paragraph ("F35.1", "A10:") or a value as code.
DEVELOPER_NOTE = re.compile(r"\b[A-Z]{1,2}\d+(\.\d+)*\b|\bfalse\b|\btrue\b|_")


def test_the_lobby_speaks_to_players(client: FlaskClient) -> None:
    """Issue 30: every option of every game and every bot and parameter the lobby shows has
    its name and help in both languages, in a player's words (the API's descriptions are
    written for developers: "F35.1: hands are deducible; false: …")."""
    keys = []
    hints = json.loads((WEB / "data" / "games.json").read_text("utf-8"))
    automas = {bot for game in hints.values() if isinstance(game, dict)
               for rule in game.get("automa", []) for bot in rule["seats"].values()}
    for game in client.get("/v1/games-catalog").get_json()["games"]:
        if not (WEB / "data" / f"{game['name']}.json").exists():
            continue  # the tests' toy games: no page of their own
        for name in game["options"]:
            keys += [f"option.{game['name']}.{name}", f"option.{game['name']}.{name}.help"]
    for bot in client.get("/v1/bots").get_json()["bots"]:
        if bot["name"] in automas:
            continue  # a game's own automa: the lobby seats it and names it, no choice
        keys.append(f"bot.{bot['name']}.help")
        for name in bot.get("params") or {}:
            keys += [f"bot.param.{name}", f"bot.param.{name}.help"]
    for lang in ("en", "pt-BR"):
        assert sorted({k for k in keys if k not in MESSAGES[lang]}) == []
        assert [MESSAGES[lang][k] for k in keys if DEVELOPER_NOTE.search(MESSAGES[lang][k])] == []
