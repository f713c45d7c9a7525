"""MkDocs hooks: the pages generated from the code at build time.

- `reference/openapi.json`: the API's OpenAPI document, from `api.create_app` (building the
  app connects to nothing, so no Redis is needed), rendered by the swagger-ui-tag plugin.
- The configuration table of `operating.md` must be the one `api.settings` generates: a
  page that drifted from the code fails the build.
"""

from __future__ import annotations

import json
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

OPENAPI_PATH = "reference/openapi.json"
CONFIGURATION_PAGE = "operating.md"


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


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Refuse a configuration page whose settings table is not the generated one."""
    if page.file.src_uri != CONFIGURATION_PAGE:
        return markdown
    from api import settings

    if settings.table_in(markdown) != settings.markdown_table():
        raise PluginError(f"{CONFIGURATION_PAGE}: the settings table differs from "
                          "api/settings.py; run `python -m api.settings --write "
                          f"docs/{CONFIGURATION_PAGE}`")
    return markdown
