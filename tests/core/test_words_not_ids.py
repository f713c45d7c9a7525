"""Players read names, never engine ids (issue 30): every legal move's label and every
event in words, in English and Portuguese, over seeded random games of the three games,
holds no id such as `explore.1`, `special.0` or `turn_order`."""

from __future__ import annotations

import importlib
import random
import re
from typing import Any

import pytest

import core

# An id: a dotted place ("explore.1", "special.0") or a snake_case word ("turn_order").
ENGINE_ID = re.compile(r"\b[a-z]+(?:_[a-z]+)*\.\d+\b|\b[a-z]+_[a-z_]+\b")
TABLES = [("darwins-journey", {"players": 1, "alfred": "green"}),
          ("darwins-journey", {"players": 2}), ("flotilla", {"players": 3}),
          ("encyclopedia", {"players": 1}), ("encyclopedia", {"players": 2})]


def ids_in(game_name: str, options: dict[str, Any], seed: int) -> set[tuple[str, str]]:
    """(id, text) of every text of one seeded random game that names an id."""
    game = core.get_game(game_name)
    texts = importlib.import_module(f"core.{game_name.replace('-', '_')}.i18n")
    state = game.new_game(options, seed)
    rng = random.Random(seed)
    found: set[tuple[str, str]] = set()
    for _ in range(800):
        if game.to_act(state) is None:
            break
        legal = game.legal_moves(state)
        for move in legal:
            for locale in ("en", "pt-BR"):
                text = move["label"] if locale == "en" else texts.label(move, locale)
                found.update((hit, text) for hit in ENGINE_ID.findall(text))
        for event in game.apply(state, rng.choice(legal)):
            for locale in ("en", "pt-BR"):
                text = texts.describe(event, locale)
                found.update((hit, text) for hit in ENGINE_ID.findall(text))
    return found


@pytest.mark.parametrize(("game_name", "options"), TABLES,
                         ids=[f"{g}-{o['players']}" for g, o in TABLES])
def test_moves_and_events_name_places_not_ids(game_name: str, options: dict[str, Any]) -> None:
    found: set[tuple[str, str]] = set()
    for seed in range(2):
        found |= ids_in(game_name, options, seed)
    assert not found, sorted(found)[:10]


def test_the_check_finds_an_id() -> None:
    assert ENGINE_ID.findall("Worker 1 to explore.1, then turn_order") == ["explore.1",
                                                                         "turn_order"]
