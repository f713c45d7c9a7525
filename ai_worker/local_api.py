"""The API in the bot worker's own process: the worker's requests go to the same WSGI app
that gunicorn serves (`api.create_app()`, its fast lane included), called in process rather
than over a socket.

A bot turn through the HTTP API is a chain of processes (worker -> API -> Redis -> API ->
worker), and one API process serves the turns of every worker: two workers wait on each
other there, so a second worker added little (bench/tournament.py). With the app in the
worker, each worker's turns run in its own process (worker -> Redis -> worker), and workers
scale with the cores. The requests, their checks and their answers are those of the HTTP
API: the SDK builds them, the app's own views and fast lane decide them (tokens, versions,
Idempotency-Keys, the atomic commit), only the socket and gunicorn are left out.

`BGB_BOT_API=local` chooses it (`bgb serve` does for its own workers); the default,
`http`, posts to BGB_API_URL, for workers on other machines than the API. A local worker
reads the API's settings from its own environment, so it must share the API's (REDIS_URL,
retention, limits): `bgb serve` gives both the same.
"""

from __future__ import annotations

import io
from typing import Any

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict
from requests.utils import get_encoding_from_headers
from werkzeug.test import EnvironBuilder, run_wsgi_app

from api import settings

# The base URL the worker's client uses for the app in its process (never resolved).
LOCAL_URL = "http://bgb.local"

WSGIApp = Any  # a WSGI callable


def wanted() -> bool:
    """Whether this worker posts through the app in its own process (BGB_BOT_API=local)."""
    choice = settings.value("BGB_BOT_API").lower()
    if choice not in ("http", "local"):
        raise ValueError(f"BGB_BOT_API must be 'http' or 'local', not {choice!r}")
    return choice == "local"


class WSGIAdapter(BaseAdapter):
    """A requests transport adapter that answers each request with a WSGI app, in process
    (Werkzeug builds the WSGI environ and runs the app, as its test client does)."""

    def __init__(self, app: WSGIApp) -> None:
        super().__init__()
        self.app = app

    def send(self, request: requests.PreparedRequest, stream: bool = False,
             timeout: Any = None, verify: Any = True, cert: Any = None,
             proxies: Any = None) -> requests.Response:
        """The app's answer to `request`, as a requests Response (read in full)."""
        body = request.body
        environ = EnvironBuilder(
            path=request.path_url, base_url=LOCAL_URL, method=request.method,
            headers=list(request.headers.items()),
            data=body.encode() if isinstance(body, str) else body,
            environ_overrides={"REMOTE_ADDR": "127.0.0.1"}).get_environ()
        app_iter, status, headers = run_wsgi_app(self.app, environ, buffered=True)
        response = requests.Response()
        response.status_code = int(status.split(" ", 1)[0])
        response.reason = status.split(" ", 1)[1] if " " in status else ""
        response.headers = CaseInsensitiveDict(headers.items())
        response.encoding = get_encoding_from_headers(response.headers)
        response.raw = io.BytesIO(b"".join(app_iter))  # `content` reads it once, in full
        response.url = request.url or ""
        response.request = request
        return response

    def close(self) -> None:
        """Nothing to release: no connection is held."""


def mount(session: requests.Session, app: WSGIApp | None = None) -> str:
    """Send `session`'s requests to `app` (default: a new `api.create_app()` configured from
    the environment, as gunicorn builds it); returns the base URL to use."""
    if app is None:
        from api import create_app

        app = create_app()
    session.mount(LOCAL_URL + "/", WSGIAdapter(app))
    return LOCAL_URL
