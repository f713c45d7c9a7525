"""The web page's own texts, kept in a gettext catalog and served as one JSON object per language.

`clients/web/locales/pt_BR/LC_MESSAGES/web.po` holds every message of the page: its
`msgctxt` is the key the page's scripts ask for (`"lobby.create"`), its `msgid` the English
text and its `msgstr` the Brazilian Portuguese one, `{name}` placeholders filled by the page.
Translators edit it with any gettext tool; Babel reads it here, and the page fetches the
result as `/play/i18n/<lang>.json` (English from the ids, Portuguese from the translations, an
untranslated or fuzzy entry falling back to English).
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from babel.messages.pofile import read_po

LANGUAGES = {"en": None, "pt-BR": "pt_BR"}  # the page's language tags -> catalog locales
DOMAIN = "web"


def catalog_path(locale: str = "pt_BR") -> Path:
    """The `.po` file of the page's messages in `locale`."""
    return Path(str(resources.files("clients") / "web" / "locales" / locale / "LC_MESSAGES"
                    / f"{DOMAIN}.po"))


@functools.cache
def messages(lang: str) -> dict[str, str]:
    """Every message of the page in `lang` ("en" or "pt-BR"), by key."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    with catalog_path().open("rb") as source:
        catalog = read_po(source, locale="pt_BR", domain=DOMAIN)
    out: dict[str, str] = {}
    for message in catalog:
        if not message.id or not message.context:
            continue  # the header, or an entry without a key
        translated = message.string if not message.fuzzy else ""
        out[message.context] = (translated or message.id) if lang == "pt-BR" else message.id
    return out
