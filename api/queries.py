"""Unknown query parameters are refused: 400 problem+json, never silently ignored.

A misspelled or unsupported parameter (`?version=5` on a game read, `?limt=10` on the log)
would otherwise be dropped by the argument parser and answer something the client did not
ask for, looking right. Each API operation takes the query parameters its OpenAPI document
declares (its webargs query schema, and `lang` on every /v1 operation: api.openapi): the
names are read once from flask-smorest's document at start-up, so what is refused and what
is documented cannot drift apart. Paths outside the document (the web page, the docs) are
left alone.

The fast lane (api.fastlane) hands every request with a query string to the app, so this
check holds there too.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, request

from api.problems import Problem

# Every /v1 operation reads its language from `?lang=` (api.i18n); api.openapi documents it.
EVERYWHERE = frozenset({"lang"})

_RULE_PARAMETER = re.compile(r"<(?:[^<>:]+:)?([^<>]+)>")


def path_template(rule: str) -> str:
    """A Flask rule as an OpenAPI path: "/v1/games/<game_id>" -> "/v1/games/{game_id}"."""
    return _RULE_PARAMETER.sub(r"{\1}", rule)


def declared(spec: dict[str, Any]) -> dict[tuple[str, str], frozenset[str]]:
    """The query parameter names of each (METHOD, path) of an OpenAPI document's paths."""
    found: dict[tuple[str, str], frozenset[str]] = {}
    for path, item in spec.get("paths", {}).items():
        shared = [p for p in item.get("parameters", []) if isinstance(p, dict)]
        for method, operation in item.items():
            if method == "parameters" or not isinstance(operation, dict):
                continue
            names = {p["name"] for p in [*shared, *operation.get("parameters", [])]
                     if isinstance(p, dict) and p.get("in") == "query" and "name" in p}
            found[(method.upper(), path)] = frozenset(names) | EVERYWHERE
    return found


def install(app: Flask, spec: dict[str, Any]) -> None:
    """Refuse, before any view runs, a request to an operation of `spec` (the API's OpenAPI
    document) with a query parameter the operation does not declare."""
    known = declared(spec)

    def refuse_unknown() -> None:
        if not request.args or request.url_rule is None:
            return
        method = "GET" if request.method == "HEAD" else request.method
        allowed = known.get((method, path_template(request.url_rule.rule)))
        if allowed is None:
            return
        unknown = sorted(name for name in request.args if name not in allowed)
        if unknown:
            names = ", ".join(repr(name) for name in unknown)
            raise Problem(400, "bad-request", "Bad request",
                          f"unknown query parameter {names}; this operation takes "
                          f"{', '.join(sorted(allowed))}",
                          errors={"query": {name: ["unknown parameter"] for name in unknown}})

    app.before_request(refuse_unknown)


def document_refusals(paths: dict[str, Any]) -> None:
    """Document, in place, the 400 bad-request every /v1 operation answers to an unknown
    query parameter (api.openapi then gives it its problem schema and headers)."""
    for path, item in paths.items():
        if not path.startswith("/v1/"):
            continue
        for method, operation in item.items():
            if method == "parameters" or not isinstance(operation, dict):
                continue
            operation.setdefault("responses", {}).setdefault("400", {
                "description": "bad-request: an unknown query parameter (or a malformed "
                               "request)",
                "content": {"application/problem+json": {
                    "schema": {"$ref": "#/components/schemas/Problem"}}}})
