"""The catalog area: which games and which bots this server offers."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

import core
from api.bots import bot_catalog
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
            games.append({"name": game.name, "title": game.title,
                          "min_players": game.min_players, "max_players": game.max_players,
                          "options": game.options_schema()})
        return {"games": games}


@blp.route("/bots")
class Bots(MethodView):
    """The registered bots."""

    @blp.response(200, BotsSchema)
    def get(self) -> dict[str, Any]:
        """Every bot with its description and parameters."""
        return {"bots": bot_catalog()}
