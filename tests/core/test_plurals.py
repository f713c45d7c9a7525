"""A count of exactly 1 reads singular: no "1 coins", "+1 points", "1 Moedas" in any move label or
event text of the three games, in English or Brazilian Portuguese.

Seeded random games (a few seeds, the turns capped) of every player count; every legal move's
label and every event's description in both languages is searched for a 1 (signed or not, not
part of a larger number) followed by a plural noun of the games' words, one word between at
most ("1 royal seals", "1 fichas de Expedição").
"""

from __future__ import annotations

import importlib
import random
import re
from typing import Any

import pytest

import core
from tests.core.random_play import pick

PLAYERS = {"darwins-journey": (1, 2, 3, 4), "flotilla": (3, 4, 5), "encyclopedia": (1, 2, 3, 4)}
SEEDS = (1, 2)
TURNS = 150  # moves per game at most: enough for prices, costs and events of 1
LOCALES = ("en", "pt_BR")
PLURAL_WORDS = {
    "en": ("coins", "points", "stamps", "tokens", "seals", "cards", "experts", "animals", "dice",
           "workers", "specimens", "envelopes", "stops", "re-rolls", "Transactions", "Tiles",
           "Survivors", "Resources"),
    "pt_BR": ("Moedas", "moedas", "Pontos", "pontos", "Carimbos", "carimbos", "fichas", "Selos",
              "cartas", "especialistas", "animais", "dados", "Trabalhadores", "Envelopes",
              "rolagens", "Transações", "Peças", "Sobreviventes", "Recursos"),
}
ONE_THEN_PLURAL = {
    locale: re.compile(r"(?<![\d.,])[+-]?\b1 (?:[a-zà-ÿ]+ )?(?:"
                       + "|".join(map(re.escape, words)) + r")(?![\w-])")
    for locale, words in PLURAL_WORDS.items()}


def test_the_pattern_finds_a_plural_after_1_and_nothing_else() -> None:
    found = ONE_THEN_PLURAL["en"].search
    assert found("Player 2: +1 coins") and found("(1 coins)") and found("1 royal seals")
    assert found("Player 1: -1 points")
    assert not found("1 coin") and not found("11 coins") and not found("2,1 coins")
    assert not found("wildcard die 1 counts for the Speakers")
    assert ONE_THEN_PLURAL["pt_BR"].search("Jogador 2: +1 Pontos de Vitória")
    assert not ONE_THEN_PLURAL["pt_BR"].search("Jogador 2: +1 Ponto de Vitória")


def _texts(game: str, players: int, seed: int) -> list[tuple[str, str]]:
    """(locale, text) of every legal move's label and every event through a seeded game."""
    rules = core.get_game(game)
    texts = importlib.import_module(f"core.{game.replace('-', '_')}.i18n")
    state = rules.new_game({"players": players}, seed)
    rnd = random.Random(seed)
    out: list[tuple[str, str]] = []
    for _turn in range(TURNS):
        if rules.to_act(state) is None:
            break
        moves: list[dict[str, Any]] = rules.legal_moves(state)
        events = rules.apply(state, pick(rnd, moves))
        for locale in LOCALES:
            out += [(locale, texts.label(m, locale)) for m in moves]
            out += [(locale, texts.describe(e, locale)) for e in events]
    return out


@pytest.mark.parametrize("game,players", [(g, n) for g in PLAYERS for n in PLAYERS[g]])
def test_no_1_followed_by_a_plural_in_labels_or_events(game: str, players: int) -> None:
    wrong = {text for seed in SEEDS for locale, text in _texts(game, players, seed)
             if ONE_THEN_PLURAL[locale].search(text)}
    assert not wrong, sorted(wrong)[:10]
