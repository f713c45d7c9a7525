"""A game's message catalog: its texts in English (the message ids) or Brazilian Portuguese.

Each game keeps its Portuguese texts in `<game>/locales/pt_BR/LC_MESSAGES/<game>.po`, read
with Babel on first use and compiled in memory (no build step, no `.mo` file). Besides plain
lookups, a catalog translates a text an engine composed in English ("sail Skiff 2 to (1,-3)")
by the message id it was made from ("sail Skiff {skiff} to {cell}"): each id with `{name}`
placeholders is a pattern, and the values it captures are translated in turn ("Aardvark
(Africa)" -> "Porco-da-terra (África)"). A placeholder named `n` or ending in `_n` captures only
a number, one named `colour` only a lower-case word (an id such as "red"). `plural(n, one,
many)` picks the form of a text agreeing with its number ("1 coin", "2 coins"; singular for
exactly 1).

Pure: the only I/O is reading the game's own catalog file, once.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES = ("en", "pt_BR")
Gettext = Callable[[str], str]
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_NUMBER = r"[-+]?\d+"


def _capture(name: str) -> str:
    """The regex a placeholder captures: a number, an id word, or any text."""
    if name == "n" or name.endswith("_n"):
        return _NUMBER
    if name == "colour":
        return "[a-z]+"
    return ".+?"


def seat_name(seat: Any, _: Gettext, names: dict[int, str] | None = None) -> str:
    """A seat as a player reads it: its given name, else "Player n" counted from 1.

    The messages ("Player {n}", "nobody") are in each game's own catalog, whose `_` this is."""
    if isinstance(seat, int):
        return (names or {}).get(seat) or _("Player {n}").format(n=seat + 1)
    return _("nobody")


def plural(n: int | str, one: str, many: str) -> str:
    """Of a text's (singular, plural) forms, the one agreeing with the number `n`: `one` for
    exactly 1 (a signed change "+1" or -1 by its size), `many` otherwise (0 too), in English
    and Portuguese alike. `n` may be a number or its text ("1", "+1")."""
    try:
        return one if abs(int(n)) == 1 else many
    except (TypeError, ValueError):
        return many


def counted(n: int, one: str, many: str) -> str:
    """"1 coin", "3 coins": the number `n` and the noun agreeing with it (an engine's English
    label; a translated text chooses its whole message with `plural`)."""
    return f"{n} {plural(n, one, many)}"


def _noop(message: str) -> str:
    """Marks a message for extraction where it is only named, not translated yet."""
    return message


class Catalog:
    """The messages of one domain (a game) in `directory/<locale>/LC_MESSAGES/<domain>.po`."""

    def __init__(self, directory: Path, domain: str) -> None:
        self.directory = directory
        self.domain = domain

    def path(self, locale: str) -> Path:
        """The `.po` file of `locale`."""
        return self.directory / locale / "LC_MESSAGES" / f"{self.domain}.po"

    @functools.cache  # noqa: B019 (one catalog per game, alive as long as the process)
    def translations(self, locale: str) -> NullTranslations:
        """The compiled catalog of `locale` (an empty one for English or a missing file)."""
        path = self.path(locale)
        if locale == "en" or not path.exists():
            return NullTranslations()
        with path.open("rb") as source:
            catalog = read_po(source, locale=locale, domain=self.domain)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        return Translations(compiled, domain=self.domain)

    def gettext(self, locale: str) -> Gettext:
        """The `_` of `locale`: a message id -> its text (the id itself in English)."""
        return self.translations(locale).gettext

    @functools.cache  # noqa: B019
    def message_ids(self, locale: str) -> tuple[str, ...]:
        """Every message id of `locale`'s catalog (none for English)."""
        path = self.path(locale)
        if locale == "en" or not path.exists():
            return ()
        with path.open("rb") as source:
            return tuple(str(m.id) for m in read_po(source, locale=locale) if m.id)

    @functools.cache  # noqa: B019
    def _patterns(self, locale: str) -> tuple[tuple[re.Pattern[str], str], ...]:
        """(regex of the English text, its message id) for each id with placeholders, the
        longest (most specific) first."""
        found = []
        for message in self.message_ids(locale):
            if not _PLACEHOLDER.search(message):
                continue
            parts = _PLACEHOLDER.split(message)
            regex = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>{_capture(part)})"
                            for i, part in enumerate(parts))
            found.append((re.compile(regex + r"\Z", re.DOTALL), message))
        found.sort(key=lambda item: -len(item[1]))
        return tuple(found)

    def label(self, move: dict[str, Any], locale: str) -> str:
        """A move's label in `locale` (the engine's own label, in English, translated)."""
        return self.translate(str(move.get("label") or move.get("type") or ""), locale)

    def translate(self, text: str, locale: str) -> str:
        """`text` (an English text made from this catalog's messages) in `locale`: its own
        translation, else the one of the message it was made from with its values translated,
        else (a list "a, b") each part translated; else `text` unchanged."""
        if locale == "en" or not text:
            return text
        return self._translated(text, locale)

    # A text not in the catalog is matched against every pattern (tens of microseconds), and
    # the same labels come back on every read of a game: each text is translated once.
    @functools.lru_cache(maxsize=16384)  # noqa: B019 (one catalog per game, process-long)
    def _translated(self, text: str, locale: str) -> str:
        return self._translate(text, locale, 0)

    def _translate(self, text: str, locale: str, depth: int) -> str:
        """`translate`, `depth` levels into a text's values."""
        if not text:
            return text
        _ = self.gettext(locale)
        translated = _(text)
        if translated != text or depth > 6:
            return translated
        for pattern, message in self._patterns(locale):
            matched = pattern.match(text)
            if matched:
                values = {k: self._translate(v, locale, depth + 1)
                          for k, v in matched.groupdict().items()}
                return _(message).format(**values)
        if ", " in text:
            return ", ".join(self._translate(part, locale, depth + 1)
                             for part in text.split(", "))
        return text
