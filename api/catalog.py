"""The catalog area: which games and which bots this server offers."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import current_app
from flask.views import MethodView

import core
from api import i18n
from api.bots import bot_catalog, bot_title
from api.parsing import Blueprint
from api.schemas import BotsSchema, CatalogSchema

blp = Blueprint("catalog", __name__, url_prefix="/v1",
                description="The games this server plays and the bots that can take a seat.")

# Each game's rules page on the documentation site, by game (data, not code: a new game adds
# its line next to its page).
RULES_PAGES_FILE = Path(__file__).parent / "data" / "rules_pages.json"


@functools.cache
def rules_pages() -> dict[str, str]:
    """Game name -> the path of its rules page on the documentation site."""
    pages = json.loads(RULES_PAGES_FILE.read_text(encoding="utf-8"))
    return {name: path for name, path in pages.items() if not name.startswith("_")}


def docs_base(url: str) -> str:
    """`BGB_DOCS_URL` checked and ending in "/" ("" when unset): an http(s) address or a path
    of this site. Anything else (a `javascript:` URL, a typo) fails the start, since the page
    puts it in a link."""
    url = url.strip()
    if not url:
        return ""
    parts = urlsplit(url)
    absolute = parts.scheme in ("http", "https") and bool(parts.netloc)
    if not (absolute or (not parts.scheme and not parts.netloc and url.startswith("/"))):
        raise ValueError(f"BGB_DOCS_URL: {url!r} is neither an http(s) address nor a path "
                         "starting with /")
    return url if url.endswith("/") else url + "/"


def rules_url(game: str) -> str | None:
    """The game's rules page on the documentation site, or None (no site configured, or no
    page for the game)."""
    base, page = current_app.config.get("DOCS_URL", ""), rules_pages().get(game)
    return base + page if base and page else None


@blp.route("/games-catalog")
class GamesCatalog(MethodView):
    """The registered games."""

    @blp.response(200, CatalogSchema)
    def get(self) -> dict[str, Any]:
        """Every game with its player counts and the options `POST /v1/games` accepts."""
        games = []
        for name in core.game_names():
            game = core.get_game(name)
            entry = {"name": game.name, "title": i18n.keyed(f"game.{name}", game.title),
                     "min_players": game.min_players, "max_players": game.max_players,
                     "options": _named_options(name, game.options_schema())}
            if (url := rules_url(name)) is not None:
                entry["rules_url"] = url
            games.append(entry)
        return {"games": games}


def _named_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """A game's options, their `description` and (when the catalog names them) `label` in the
    request's language."""
    named = {}
    for option, spec in options.items():
        spec = dict(spec)
        key = f"option.{game}.{option}"
        if i18n.has_key(key):
            spec["label"] = i18n.keyed(key, option.replace("_", " ").capitalize())
        if isinstance(spec.get("description"), str):
            spec["description"] = i18n.keyed(f"{key}.help", spec["description"])
        named[option] = spec
    return named


def _described_bots(bots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bots, their descriptions and their parameters' in the request's language."""
    described = []
    for bot in bots:
        bot = dict(bot)
        key = f"bot.{bot['name']}"
        bot["title"] = bot_title(bot["name"])
        bot["description"] = i18n.keyed(key, str(bot.get("description") or ""))
        params = {}
        for param, spec in (bot.get("params") or {}).items():
            spec = dict(spec)
            if isinstance(spec.get("description"), str):
                spec["description"] = i18n.keyed(f"{key}.{param}", spec["description"])
            params[param] = spec
        bot["params"] = params
        described.append(bot)
    return described


@blp.route("/bots")
class Bots(MethodView):
    """The registered bots."""

    @blp.response(200, BotsSchema)
    def get(self) -> dict[str, Any]:
        """Every bot with its description and parameters."""
        return {"bots": _described_bots(bot_catalog())}
