"""The bot registry (`ai_worker.bots`) as the API sees it: names, catalog, params, automa-only.

The API imports the registry to validate seats at creation time; the bots themselves
only ever run in the workers.
"""

from __future__ import annotations

from typing import Any

from ai_worker import bots as registry
from api import i18n


def known_bot_names() -> set[str]:
    """The names a bot seat may use."""
    return set(registry.bot_names())


def bot_catalog() -> list[dict[str, Any]]:
    """Every bot with its description and parameter schema."""
    return registry.describe_bots()


def bot_title(name: str, locale: str | None = None) -> str:
    """Bot `name` as a player reads it, in `locale` (the request's by default); an unknown
    bot (a seat stored by an older server) by its name."""
    try:
        english = registry.get_bot(name).title
    except ValueError:
        return name
    return i18n.keyed(f"bot.{name}.title", english, locale)


def check_params(name: str, params: dict[str, Any]) -> str | None:
    """Why `params` do not suit bot `name` (the registry's own check), or None."""
    try:
        registry.validate_params(name, registry.get_bot(name).params_schema(), params)
    except ValueError as exc:
        return str(exc)
    return None


def automa_only(name: str) -> bool:
    """Whether bot `name` can only take a game's automa seats (it relays the automa's move)."""
    try:
        return bool(registry.get_bot(name).automa_only)
    except ValueError:
        return False
