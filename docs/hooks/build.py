"""MkDocs hooks: the pages generated from the code at build time.

- `reference/openapi.json`: the API's OpenAPI document, from `api.create_app` (building the
  app connects to nothing, so no Redis is needed), rendered by the swagger-ui-tag plugin.
- The configuration table of `operating.md` must be the one `api.settings` generates: a
  page that drifted from the code fails the build.
- `<!-- rules-choices: core/<game>/data/<file>.json -->` in a page becomes the list of that
  data file's `rules_choices`, so a game's page shows the readings the engine runs.
- `<!-- provenance: core/<game>/data/<file>.json -->` becomes the list of that data file's
  values with a provenance note (a `_name` key beside `name`): each value the engine uses,
  where it comes from, read from the file the engine reads.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

OPENAPI_PATH = "reference/openapi.json"
CONFIGURATION_PAGE = "operating.md"
REPO = Path(__file__).resolve().parents[2]
RULES_CHOICES = re.compile(r"<!-- rules-choices: (\S+) -->")
PROVENANCE = re.compile(r"<!-- provenance: (\S+) -->")
SHORT_VALUE = 60  # characters: a longer value is left to the file


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document the API serves at /v1/openapi.json."""
    from api import create_app

    with create_app().test_client() as client:
        answer = client.get("/v1/openapi.json")
    if answer.status_code != 200:
        raise PluginError(f"/v1/openapi.json answered {answer.status_code}")
    return dict(answer.get_json())


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated OpenAPI document to the site."""
    content = json.dumps(openapi_document(), indent=1, sort_keys=False)
    files.append(File.generated(config, OPENAPI_PATH, content=content))
    return files


def rules_choices(match: re.Match[str]) -> str:
    """The `rules_choices` of a game's data file as a Markdown list."""
    path = REPO / match.group(1)
    try:
        choices = json.loads(path.read_text(encoding="utf-8"))["rules_choices"]
    except (OSError, KeyError, ValueError) as error:
        raise PluginError(f"rules-choices: {match.group(1)}: {error}") from error
    return "\n".join(f"- {choice}" for choice in choices)


def provenance(match: re.Match[str]) -> str:
    """Each provenance note of a data file (a `_name` key; `_note`, the file's own, aside),
    with the value of `name` when it is short, as a Markdown list."""
    path = REPO / match.group(1)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PluginError(f"provenance: {match.group(1)}: {error}") from error
    lines = []
    for key, note in data.items():
        if not key.startswith("_") or key in ("_note", "_about") or not isinstance(note, str):
            continue
        name = key[1:]
        # A note may describe a group of values (`_research`: research_cost, research_vp).
        shown = json.dumps(data[name], ensure_ascii=False) if name in data else ""
        value = f" = `{shown}`" if shown and len(shown) <= SHORT_VALUE else ""
        lines.append(f"- `{name}`{value}: {note}")
    if not lines:
        raise PluginError(f"provenance: {match.group(1)} has no provenance notes")
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fill in the rules choices; refuse a configuration page whose settings table is not
    the generated one."""
    markdown = RULES_CHOICES.sub(rules_choices, markdown)
    markdown = PROVENANCE.sub(provenance, markdown)
    if page.file.src_uri != CONFIGURATION_PAGE:
        return markdown
    from api import settings

    if settings.table_in(markdown) != settings.markdown_table():
        raise PluginError(f"{CONFIGURATION_PAGE}: the settings table differs from "
                          "api/settings.py; run `python -m api.settings --write "
                          f"docs/{CONFIGURATION_PAGE}`")
    return markdown
