"""The web client: the static page at `/play/` (and `/` leading there).

Only files under `clients/web/` with a known extension are served, each with its own
content type, a Content-Security-Policy allowing nothing but this origin, and no
caching without revalidation (a new release shows at the next load). Not part of
the OpenAPI document: it is a plain Flask blueprint, not a flask-smorest one.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from flask import Blueprint, Response, jsonify, redirect, send_from_directory
from werkzeug.exceptions import NotFound

from clients import web_messages

blp = Blueprint("play", __name__)

# The only kinds of file the page is made of; anything else under the directory is not served.
CONTENT_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".svg": "image/svg+xml",
}

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")


def web_root() -> Path:
    """The directory holding the page's files (inside the installed `clients` package)."""
    return Path(str(resources.files("clients") / "web"))


def _send(filename: str) -> Response:
    suffix = Path(filename).suffix
    if suffix not in CONTENT_TYPES or filename.startswith(".") or "/." in filename:
        raise NotFound()
    # send_from_directory refuses any path that leaves the directory (safe_join).
    response = send_from_directory(web_root(), filename, mimetype=CONTENT_TYPES[suffix],
                                   max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.after_request
def _security_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    # The seat token travels in the URL fragment, never sent; no referrer leaks the game id.
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@blp.get("/")
def root() -> Response:
    """The site's root leads to the page."""
    return redirect("/play/", code=302)  # type: ignore[return-value]


@blp.get("/play")
def play_no_slash() -> Response:
    """`/play` leads to `/play/`."""
    return redirect("/play/", code=301)  # type: ignore[return-value]


@blp.get("/play/")
@blp.get("/play/games/<game_id>")
def page(game_id: str | None = None) -> Response:
    """The page (the lobby, or a game: the script reads the path and the fragment)."""
    return _send("index.html")


@blp.get("/play/i18n/<lang>.json")
def page_messages(lang: str) -> Response:
    """The page's texts in `lang`, read from its gettext catalog (`clients/web_messages.py`)."""
    try:
        body = web_messages.messages(lang)
    except KeyError:
        raise NotFound() from None
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.get("/play/<path:filename>")
def asset(filename: str) -> Response:
    """A script, style sheet or message file of the page."""
    return _send(filename)
