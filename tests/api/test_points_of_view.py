"""Words from the player's point of view (issue 30): seeded games of every game, played to
the end, read in English and Portuguese as the API writes them (move labels, and the log's
events with the seats' names), name places and seats, never engine ids; "you" only ever
means the reader; a seat with a name (the reader's "You", an automa's) is never "Player n".

Card and tile texts are quoted as printed ("4 VP per tile in your Reserve" speaks to the
card's owner): they are taken out before the second-person check.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import core
from api.i18n import game_texts, seat_names, with_event_texts

GAMES = [("darwins-journey", {"players": 1}), ("darwins-journey", {"players": 2}),
         ("flotilla", {"players": 3}), ("encyclopedia", {"players": 1}),
         ("encyclopedia", {"players": 2})]
LOCALES = ("en", "pt_BR")
# engine ids: "explore.1", "special.0", "turn_order", "free_scrolls"
IDS = re.compile(r"\b[a-z]+\.\d+\b|\b[a-z]+_[a-z_]+\b")
SECOND_PERSON = re.compile(r"\b(you|your|yours|você|vocês|seu|sua|seus|suas)\b", re.IGNORECASE)
QUOTED = re.compile(r"“[^”]*”")


def played(game: str, options: dict[str, Any],
           seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Any]:
    """A whole game of random legal moves (the automas' as their procedure dictates): its log
    as the API stores it, one of every legal move met (by label), and the last state."""
    rules = core.get_game(game)
    state = rules.new_game(options, seed)
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    met: dict[str, dict[str, Any]] = {}
    while (seat := rules.to_act(state)) is not None and len(log) < 5000:
        legal = rules.legal_moves(state)
        met.update((str(m.get("label")), m) for m in legal)
        move = rng.choice(legal)
        log.append({"index": len(log), "seat": seat, "move": move,
                    "events": rules.apply(state, move)})
    return log, list(met.values()), state


def card_texts(value: Any) -> set[str]:
    """Every long text of a view's catalog (card, tile and objective texts)."""
    if isinstance(value, dict):
        return set().union(*(card_texts(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_texts(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and len(value) > 12 else set()


@pytest.mark.parametrize(("game", "options"), GAMES, ids=lambda x: str(x))
def test_seeded_games_read_from_the_players_point_of_view(game: str,
                                                          options: dict[str, Any]) -> None:
    rules, texts = core.get_game(game), game_texts(game)
    assert texts is not None
    log, met, state = played(game, options, seed=7)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (
        rules.seat_count(options) - 1)
    wrong: list[str] = []
    for locale in LOCALES:
        catalog = rules.view(state, None).get("catalog") or {}
        if hasattr(texts, "catalog"):
            catalog = texts.catalog(catalog, locale)
        quoted = sorted(card_texts(catalog), key=len, reverse=True)
        for reader in (None, 0):  # a spectator, then the first seat ("You")
            names = seat_names(game, seats, rules.automa_seats(options), reader, locale,
                               str.title)
            for entry in with_event_texts(log, game, names, locale):
                lines = [("move", texts.label(entry["move"], locale))]
                lines += [("event", event.get("text") or "") for event in entry["events"]]
                for kind, text in lines:
                    spoken = QUOTED.sub("", text)
                    for card in quoted:
                        spoken = spoken.replace(card, "")
                    if IDS.search(text):
                        wrong.append(f"{locale} id: {text}")
                    if reader is None and SECOND_PERSON.search(spoken):
                        wrong.append(f"{locale} second person for a spectator: {text}")
                    # a move's label is written for the seat choosing it, without the names
                    named = [n for n in names if re.search(
                        rf"\b(Player|Jogador) {n + 1}\b(?! \()", text)]
                    if kind == "event" and named:
                        wrong.append(f"{locale} 'Player n' for a named seat: {text}")
        # Every move's label is the log's line for whoever plays it: never "your"
        for move in met:
            text = texts.label(move, locale)
            spoken = QUOTED.sub("", text)
            for card in quoted:
                spoken = spoken.replace(card, "")
            if SECOND_PERSON.search(spoken):
                wrong.append(f"{locale} second person in a move's label: {text}")
            if IDS.search(text):
                wrong.append(f"{locale} id in a move's label: {text}")
    assert not wrong, "\n".join(sorted(set(wrong))[:40])
