"""The bot registry as the API sees it: ai_worker.bots when installed, else the contract's names.

Imported lazily so that the API runs (and its tests pass) before ai_worker.bots exists.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

# The bot names of the HTTP contract, offered while ai_worker.bots is not importable.
FALLBACK_BOTS = {
    "random": "Plays a uniformly random legal move.",
    "greedy": "Plays the move with the best immediate evaluation.",
    "mcts": "Monte Carlo tree search over determinized states.",
    "alfred": "Darwin's Journey's solo automa, following its card procedure.",
}


def _registry() -> Any | None:
    try:
        import ai_worker.bots as registry
    except ImportError:
        return None
    if not hasattr(registry, "bot_names") or not hasattr(registry, "get_bot"):
        return None
    return registry


def known_bot_names() -> set[str]:
    """The names a bot seat may use."""
    registry = _registry()
    if registry is None:
        return set(FALLBACK_BOTS)
    try:
        return set(registry.bot_names())
    except Exception:  # noqa: BLE001 - a broken registry must not break game creation
        log.warning("ai_worker.bots.bot_names() failed; using the contract's names",
                    exc_info=True)
        return set(FALLBACK_BOTS)


def bot_catalog() -> list[dict[str, Any]]:
    """Every bot with its description and parameter schema."""
    registry = _registry()
    if registry is not None:
        try:
            bots = []
            for name in registry.bot_names():
                bot = registry.get_bot(name)
                bots.append({"name": name, "description": str(bot.description),
                             "params": dict(bot.params_schema())})
            return bots
        except Exception:  # noqa: BLE001 - fall back rather than fail the listing
            log.warning("ai_worker.bots registry failed; listing the contract's bots",
                        exc_info=True)
    return [{"name": name, "description": text, "params": {}}
            for name, text in FALLBACK_BOTS.items()]


def check_params(name: str, params: dict[str, Any]) -> str | None:
    """Why `params` do not suit bot `name` (from the registry's own check), or None."""
    registry = _registry()
    if registry is None or not hasattr(registry, "validate_params"):
        return None
    try:
        bot = registry.get_bot(name)
        registry.validate_params(name, bot.params_schema(), params)
    except ValueError as exc:
        return str(exc)
    return None


def automa_only(name: str) -> bool:
    """Whether bot `name` can only play a game's automa seats (it relays the automa's move).

    Read from the registry's `automa_only` attribute when it has one; the contract's automa
    bot, "alfred", is automa-only otherwise.
    """
    registry = _registry()
    if registry is not None:
        try:
            return bool(getattr(registry.get_bot(name), "automa_only", name == "alfred"))
        except (ValueError, KeyError):
            return False
    return name == "alfred"
