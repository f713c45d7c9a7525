"""The terminal client's languages: English (the messages' source) and Brazilian Portuguese.

Messages are marked with `_("English text")` and `ngettext`; their translations are the
gettext catalog `clients/locales/<locale>/LC_MESSAGES/bgb.po`, read with Babel when first
needed and compiled in memory (no build step, no `.mo` file to keep in step). English needs
no catalog: a message id is its English text. The language is `bgb --lang`, else the
locale's (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), else English.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from babel.support import NullTranslations

from core.texts import Catalog

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "bgb"
# Locale name (gettext's spelling) -> the BCP 47 tag HTTP speaks (Accept-Language).
LANGUAGES = {"en": "en", "pt_BR": "pt-BR"}

_active: NullTranslations = NullTranslations()
_active_locale = "en"


def normalize(lang: str | None) -> str | None:
    """`pt-BR`, `pt_BR.UTF-8`, `pt` -> "pt_BR"; `en_US` -> "en"; unknown -> None."""
    if not lang:
        return None
    code = lang.split(".")[0].split("@")[0].replace("-", "_").lower()
    if code.startswith("pt"):
        return "pt_BR"  # the rulebooks' Portuguese is the only one we have
    if code.startswith("en") or code in ("c", "posix"):
        return "en"
    return None


def choose(lang: str | None = None) -> str:
    """The locale to use: `lang` when given, else the environment's, else English."""
    if lang:
        return normalize(lang) or "en"
    # gettext's own order. Not LC_CTYPE: Python sets it to C.UTF-8 itself (PEP 538) when the
    # system lacks the asked locale, which says nothing of the language wanted.
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for candidate in os.environ.get(variable, "").split(":"):
            if candidate:
                return normalize(candidate) or "en"
    return "en"


@functools.cache
def translations(locale: str, domain: str = DOMAIN,
                 directory: Path = LOCALES_DIR) -> NullTranslations:
    """The compiled catalog of `locale` (an empty one for English or a missing file)."""
    return Catalog(directory, domain).translations(locale)


def activate(lang: str | None = None) -> str:
    """Make `choose(lang)` the language of every message from now on; returns its locale."""
    global _active, _active_locale
    _active_locale = choose(lang)
    _active = translations(_active_locale)
    return _active_locale


def active_locale() -> str:
    """The locale messages are shown in now ("en" or "pt_BR")."""
    return _active_locale


def http_language() -> str:
    """The active language as an Accept-Language value ("pt-BR")."""
    return LANGUAGES[_active_locale]


def _(message: str) -> str:
    """`message` (English, its own id) in the active language."""
    return _active.gettext(message)


def translate(text: str) -> str:
    """A text that comes as data (a card's text in a view) in the active language; not a
    message marked in the code, so message extraction leaves it to the catalog's own list."""
    return _active.gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the active language."""
    return _active.ngettext(singular, plural, n)
