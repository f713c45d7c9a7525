"""The catalog area: which games and which bots this server offers."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

import core
from api import i18n
from api.bots import bot_catalog, bot_title
from api.parsing import Blueprint
from api.schemas import BotsSchema, CatalogSchema

blp = Blueprint("catalog", __name__, url_prefix="/v1",
                description="The games this server plays and the bots that can take a seat.")


@blp.route("/games-catalog")
class GamesCatalog(MethodView):
    """The registered games."""

    @blp.response(200, CatalogSchema)
    def get(self) -> dict[str, Any]:
        """Every game with its player counts and the options `POST /v1/games` accepts."""
        games = []
        for name in core.game_names():
            game = core.get_game(name)
            games.append({"name": game.name, "title": i18n.keyed(f"game.{name}", game.title),
                          "min_players": game.min_players, "max_players": game.max_players,
                          "options": _named_options(name, game.options_schema())})
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
