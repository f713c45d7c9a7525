"""The API's own texts in the caller's language: English (the source) or Brazilian Portuguese.

A request chooses with `?lang=pt-BR`, else its `Accept-Language` header; English otherwise.
The texts are gettext messages whose ids are the English texts, translated in
`api/locales/<locale>/LC_MESSAGES/api.po`, read with Babel on first use and compiled in
memory (no build step). A message id may hold `{name}` placeholders: a text made from it
("no game 'x7'" from "no game {id}") is recognised and translated with its values kept,
so the handlers that raise problems need not know about languages.

To add texts: write them in English in the code, then add the msgid and its translation to
the `.po` file (`pybabel extract` lists the marked ones); `tests/api/test_i18n.py` checks
that every id is translated.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from flask import Response, has_request_context, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from core.texts import Catalog

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "api"
LOCALES = ("en", "pt_BR")
# BCP 47 tags as HTTP speaks them, best first when a client's preferences tie.
TAGS = {"en": "en", "pt-BR": "pt_BR", "pt": "pt_BR"}


def normalize(lang: str | None) -> str | None:
    """`pt-BR`, `pt_br`, `pt` -> "pt_BR"; `en-US` -> "en"; anything else -> None."""
    if not lang:
        return None
    code = lang.strip().replace("_", "-").lower()
    if code.startswith("pt"):
        return "pt_BR"
    if code.startswith("en"):
        return "en"
    return None


def request_locale() -> str:
    """The locale the current request asks for (`?lang=`, then Accept-Language), else "en"."""
    if not has_request_context():
        return "en"
    return locale_of(request.args.get("lang"), request.headers.get("Accept-Language"))


def locale_of(lang: str | None, accept_language: str | None) -> str:
    """The locale a `?lang=` value asks for, else an Accept-Language header's best match
    (parsed as werkzeug parses `request.accept_languages`), else "en"."""
    asked = normalize(lang)
    if asked:
        return asked
    if not accept_language:
        return "en"
    best = parse_accept_header(accept_language, LanguageAccept).best_match(list(TAGS))
    return TAGS.get(best or "", "en")


def content_language(locale: str) -> str:
    """The Content-Language header of an answer in `locale`."""
    return locale.replace("_", "-")


CATALOG = Catalog(LOCALES_DIR, DOMAIN)
translations = CATALOG.translations  # the compiled catalog of a locale (empty for English)


def has_key(key: str) -> bool:
    """Whether the catalog has message `key` (an option the catalog names, a bot...)."""
    return translations("pt_BR").gettext(key) != key


def keyed(key: str, english: str, locale: str | None = None) -> str:
    """The text of message `key` (e.g. "bot.mcts") in the request's language; `english`
    (the code's own text) in English or when the catalog lacks the key. Catalog texts use
    keys so that editing an English description never silently drops its translation."""
    locale = locale or request_locale()
    if locale == "en":
        return english
    translated = translations(locale).gettext(key)
    return english if translated == key else translated


def gettext(text: str, locale: str | None = None) -> str:
    """`text` in the request's language (or `locale`'s): its translation, else itself."""
    return CATALOG.translate(text, locale or request_locale())


# -- the engines' move labels ------------------------------------------------------------------


@functools.cache
def game_texts(game: str) -> ModuleType | None:
    """A game's translation module (`core/<game>/i18n.py`: `label(move, locale)`, and
    `catalog(texts, locale)` when its views carry a catalog of texts), if any."""
    try:
        return importlib.import_module(f"core.{game.replace('-', '_')}.i18n")
    except ImportError:
        return None


def relabel(value: Any, texts: ModuleType, locale: str) -> bool:
    """Give every move inside `value` (a dict with a `type` and a `label`) its label in
    `locale`, and every view inside it (a dict with a `game` and a `catalog`) its catalog's
    texts, in place; whether any changed."""
    changed = False
    if isinstance(value, dict):
        if isinstance(value.get("type"), str) and isinstance(value.get("label"), str):
            text = texts.label(value, locale)
            changed = text != value["label"]
            value["label"] = text
        if (isinstance(value.get("game"), str) and isinstance(value.get("catalog"), dict)
                and hasattr(texts, "catalog")):
            translated = texts.catalog(value["catalog"], locale)
            changed = changed or translated != value["catalog"]
            value["catalog"] = translated
        for item in value.values():
            changed = relabel(item, texts, locale) or changed
    elif isinstance(value, list):
        for item in value:
            changed = relabel(item, texts, locale) or changed
    return changed


# -- the log's events in words -----------------------------------------------------------------

# The server's own events (the log's entries marked `system`), in words.
SYSTEM_EVENTS = {"aborted": "The game was aborted by its creator",
                 "abandoned": "The game was abandoned: no move in time",
                 "resigned": "{seat} resigned",
                 "timed_out": "{seat} ran out of time",
                 "taken_back": "{seat} took back a move"}


def seat_names(game: str, seats: list[dict[str, Any]], automa_seats: Iterable[int],
               caller: int | None, locale: str,
               bot_title: Callable[[str], str] = str) -> dict[int, str]:
    """The names the log's texts give seats, as the page names them: the caller's own seat
    "You", an automa's seat its name in the game's own texts ("Alfred"), another bot's
    "Player 3 (Greedy)" (`bot_title` of its name); a human seat keeps the game's "Player n"."""
    _ = translations(locale).gettext
    automa_name = getattr(game_texts(game), "automa_name", None)
    automa = set(automa_seats) if automa_name else set()
    names = {}
    for number, seat in enumerate(seats):
        if number == caller:
            names[number] = _("You")
        elif number in automa:
            names[number] = automa_name(locale)  # type: ignore[misc]
        elif seat.get("kind") == "bot":
            names[number] = _("Player {n} ({bot})").format(
                n=number + 1, bot=bot_title(str(seat.get("bot"))))
    return names


def with_event_texts(entries: list[dict[str, Any]], game: str, names: dict[int, str],
                     locale: str) -> list[dict[str, Any]]:
    """The log's `entries` with a `text` on each event: the event in words, in `locale`,
    written by the game's own texts (`describe(event, locale, seat_names)`; a game without
    them leaves its events as they are) or, for the server's events, by the API's."""
    describe = getattr(game_texts(game), "describe", None)
    shown = []
    for entry in entries:
        events = []
        for event in entry["events"]:
            if entry.get("system") or entry.get("takeback") is not None:
                # The server's entries: a take-back is no move of the game's rules either.
                text = _system_event_text(event, names, locale)
            elif describe is None:
                text = None
            elif event.get("redacted"):
                # Redaction leaves only the type: the game's words would name nobody.
                text = translations(locale).gettext("A hidden event")
            else:
                text = describe(event, locale, names)
            events.append(event if text is None else {**event, "text": text})
        shown.append({**entry, "events": events})
    return shown


def _system_event_text(event: dict[str, Any], names: dict[int, str], locale: str) -> str | None:
    message = SYSTEM_EVENTS.get(str(event.get("type")))
    if message is None:
        return None
    _ = translations(locale).gettext
    seat = event.get("seat")
    who = ""
    if isinstance(seat, int):
        who = names.get(seat) or _("Player {n}").format(n=seat + 1)
    return _(message).format(seat=who)


def localize_response(response: Response) -> Response:
    """After a /v1 request: `Content-Language` and `Vary: Accept-Language` on its JSON answer;
    for a game asked in another language than English, its move labels (legal moves, the log,
    a stale move's current game) and its view's catalog texts in that language."""
    if response.is_streamed or not response.is_json:
        return response
    locale = request_locale()
    if request.path.startswith("/v1/"):
        # every /v1 answer may hold texts in the asked language: say which, for caches too
        response.vary.add("Accept-Language")
        response.headers.setdefault("Content-Language", content_language(locale))
    game_id = (request.view_args or {}).get("game_id")
    if not game_id:
        return response
    if locale == "en":
        return response
    body = response.get_json(silent=True)
    if not isinstance(body, dict):
        return response
    game = body.get("game")
    if not isinstance(game, str):
        from api.services import services  # the app's store: only inside a request

        meta = services().store.meta(str(game_id))
        game = meta.get("game") if meta else None
    texts = game_texts(game) if isinstance(game, str) else None
    if texts is not None and relabel(body, texts, locale):
        response.set_data(json.dumps(body, separators=(",", ":")))
    return response
