"""Encyclopedia's animal cards: stand-in names a player can believe, never a changed card.

The names were replaced (issue 30) by real species of each card's continent fitting its
categories; the colours and categories are what games and recorded replays depend on, so
they are pinned by a digest taken before the names changed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from babel.messages.pofile import read_po

import core.encyclopedia
from core.encyclopedia.data import DATA
from core.encyclopedia.i18n import CATALOG

ANIMALS_JSON = Path(core.encyclopedia.__file__).parent / "data" / "animals.json"
# sha256 of the compact JSON of [[id, colour, categories], ...] in card order, as on main
# before issue 30's renaming: any change to a card's colour or categories changes games.
CARDS_DIGEST = "cdc99bb6b25b3b2bdeb84146c4783e2b22dac898d64ef894c72842ad029834b6"
# names that are the same word in Brazilian Portuguese
SAME_IN_PORTUGUESE = {"Emu", "Bilby"}


def test_cards_colours_and_categories_unchanged() -> None:
    rows = [[a.id, a.colour, list(a.categories)] for a in DATA.animals]
    digest = hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()
    assert [a.id for a in DATA.animals] == list(range(75))
    assert digest == CARDS_DIGEST


def test_names_unique_and_still_marked_stand_ins() -> None:
    names = [a.name for a in DATA.animals]
    assert len(set(names)) == len(names) == 75
    assert all(name.strip() == name and name for name in names)
    note = json.loads(ANIMALS_JSON.read_text("utf-8"))["_note"]
    assert "stand-in" in note


def test_every_name_has_its_portuguese_name_and_no_stale_one() -> None:
    _ = CATALOG.gettext("pt_BR")
    names = {a.name for a in DATA.animals}
    for name in names:
        assert name in CATALOG.message_ids("pt_BR"), f"no Portuguese entry for {name!r}"
        if name not in SAME_IN_PORTUGUESE:
            assert _(name) != name, f"{name!r} left in English"
    portuguese = [_(name) for name in names]
    assert len(set(portuguese)) == len(portuguese)
    # the catalog's animal entries are exactly the cards' names (old names removed)
    with CATALOG.path("pt_BR").open("rb") as source:
        entries = {str(m.id) for m in read_po(source)
                   if "animal card name (stand-in)" in m.auto_comments}
    assert entries == names
