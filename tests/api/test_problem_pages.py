"""The problem types' pages (`/problems/<slug>`) and their list, in English and Portuguese.

The meaning and action of each type are catalog keys (`problem.<slug>.meaning`): an English
text edited in the code would keep its old translation silently, so each entry carries the
English it translates as a translator comment, and a test compares that to the code's.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient
from markupsafe import escape

from api import i18n
from api.problems import PROBLEM_TYPES, localized, problem_page, text_key
from tests.api.conftest import problem

API_PO = i18n.CATALOG.path("pt_BR")
FIELDS = ("meaning", "action")
PORTUGUESE = {"Accept-Language": "pt-BR"}
CODE = re.compile(r"`[^`]+`")

# The English page of one type as it was before the pages had a Portuguese side: adding it
# must not change a byte of the English (only the headers say the language now).
STALE_VERSION_PAGE = (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
    'content="width=device-width, initial-scale=1"><title>Stale version (409)</title></head>'
    "<body><h1>Stale version</h1><p>Problem type <code>https://boardgamesbot.dev/problems/"
    "stale-version</code>, HTTP status 409, sent as <code>application/problem+json</code> "
    "(RFC 9457).</p><h2>What it means</h2><p>The move was chosen against an older version of "
    "the game; nothing changed. `current` is the game as it is now.</p><h2>What to do</h2><p>"
    "Choose again from `current.legal_moves` (if it is still your turn) and post with "
    "`current.version`.</p><p><a href=\"/problems/\">Every problem type</a> · "
    '<a href="/docs">API documentation</a></p></body></html>\n')


def _english_comments() -> dict[str, str]:
    """Each keyed entry's English as its translator comment gives it (the lines after the
    first, which says what the entry is)."""
    with API_PO.open("rb") as source:
        catalog = read_po(source)
    return {str(m.id): " ".join(m.auto_comments[1:]) for m in catalog
            if str(m.id).startswith("problem.")}


def _page(client: FlaskClient, path: str, **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, path
    assert response.mimetype == "text/html"
    return response.get_data(as_text=True)


def test_every_meaning_and_action_has_its_portuguese_text() -> None:
    for slug, kind in PROBLEM_TYPES.items():
        portuguese = localized(slug, "pt_BR")
        assert i18n.has_key(text_key(slug, "meaning")), slug
        assert i18n.has_key(text_key(slug, "action")), slug
        assert portuguese.meaning != kind.meaning, slug
        assert portuguese.action != kind.action, slug
        assert portuguese.title != kind.title, slug
        for field in FIELDS:  # code (`Retry-After`, `current.version`...) is never translated
            assert (set(CODE.findall(getattr(portuguese, field)))
                    == set(CODE.findall(getattr(kind, field)))), (slug, field)


def test_each_translation_was_made_from_the_english_in_the_code() -> None:
    """A failure here: the English of a problem type changed (or a type was added). Update
    the entry's translation in api.po, then its comment to the new English."""
    comments = _english_comments()
    expected = {text_key(slug, field): getattr(kind, field)
                for slug, kind in PROBLEM_TYPES.items() for field in FIELDS}
    assert set(comments) == set(expected), set(comments) ^ set(expected)
    for key, english in expected.items():
        assert comments[key] == english, f"{key}: its translation is of an older English text"


@pytest.mark.parametrize("slug", sorted(PROBLEM_TYPES))
def test_each_page_in_portuguese(client: FlaskClient, slug: str) -> None:
    page = _page(client, f"/problems/{slug}", **PORTUGUESE)
    portuguese = localized(slug, "pt_BR")
    assert '<html lang="pt-BR">' in page
    assert f"<h1>{escape(portuguese.title)}</h1>" in page
    assert f"<p>{escape(portuguese.meaning)}</p>" in page
    assert f"<p>{escape(portuguese.action)}</p>" in page
    english = PROBLEM_TYPES[slug]
    for text in (english.meaning, english.action, "What it means", "What to do",
                 "Every problem type", "API documentation", "HTTP status"):
        assert str(escape(text)) not in page, (slug, text)
    assert "<h2>O que significa</h2>" in page and "<h2>O que fazer</h2>" in page
    assert (f"Tipo de problema <code>https://boardgamesbot.dev/problems/{slug}</code>, status "
            f"HTTP {english.status}, enviado como <code>application/problem+json</code>") in page
    assert '<a href="/problems/?lang=pt-BR">Todos os tipos de problema</a>' in page


def test_the_english_page_is_unchanged(client: FlaskClient) -> None:
    assert _page(client, "/problems/stale-version") == STALE_VERSION_PAGE
    assert problem_page("stale-version") == STALE_VERSION_PAGE
    for slug in PROBLEM_TYPES:
        assert _page(client, f"/problems/{slug}", **{"Accept-Language": "fr, en;q=0.5"}
                     ) == problem_page(slug)


def test_the_query_or_the_header_chooses_the_language(client: FlaskClient) -> None:
    by_query = _page(client, "/problems/illegal-move?lang=pt-BR")
    assert by_query == _page(client, "/problems/illegal-move", **PORTUGUESE)
    assert by_query == _page(client, "/problems/illegal-move",
                             **{"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"})
    assert "<h1>Jogada ilegal</h1>" in by_query
    assert _page(client, "/problems/illegal-move?lang=en", **PORTUGUESE) == problem_page(
        "illegal-move")


@pytest.mark.parametrize("path", ["/problems/", "/problems/not-found"])
def test_the_headers_say_the_language(client: FlaskClient, path: str) -> None:
    for headers, said in (({}, "en"), (PORTUGUESE, "pt-BR")):
        response = client.get(path, headers=headers)
        assert response.headers["Content-Language"] == said, path
        assert "Accept-Language" in response.headers["Vary"], path
        assert response.headers["Content-Security-Policy"] == "default-src 'none'"
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_index_in_both_languages(client: FlaskClient) -> None:
    english = _page(client, "/problems/")
    assert '<html lang="en">' in english and "<h1>Problem types</h1>" in english
    assert ("Every error of the API is <code>application/problem+json</code> with one of these "
            "<code>type</code>s.") in english
    portuguese = _page(client, "/problems/", **PORTUGUESE)
    assert '<html lang="pt-BR">' in portuguese and "<h1>Tipos de problema</h1>" in portuguese
    assert ("Todo erro da API é <code>application/problem+json</code> com um destes valores de "
            "<code>type</code>.") in portuguese
    for slug, kind in PROBLEM_TYPES.items():
        assert f'<a href="{slug}">{slug}</a> ({kind.status}): {escape(kind.meaning)}</li>' in (
            english)
        assert (f'<a href="{slug}?lang=pt-BR">{slug}</a> ({kind.status}): '
                f"{escape(localized(slug, 'pt_BR').meaning)}</li>") in portuguese
        assert str(escape(kind.meaning)) not in portuguese, slug


def test_an_unknown_type_is_a_problem_in_the_asked_language(client: FlaskClient) -> None:
    body = problem(client.get("/problems/nope", headers=PORTUGUESE), 404, "not-found")
    assert (body["title"], body["detail"]) == ("Não encontrado", "tipo de problema inexistente")
