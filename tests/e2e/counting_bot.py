"""`clients.bot_example` run as it is, on a session that counts its HTTP requests: writes a
JSON list of [method, path, status] to the file named by its third argument when it ends."""

from __future__ import annotations

import json
import sys
from typing import Any
from urllib.parse import urlsplit

import requests

from clients import bot_example
from clients.sdk import Client


class CountingSession(requests.Session):
    """A session that records each request it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[list[Any]] = []

    def request(self, method: str | bytes, url: str | bytes, *args: Any,
                **kwargs: Any) -> requests.Response:
        response = super().request(method, url, *args, **kwargs)
        path = urlsplit(url if isinstance(url, str) else url.decode()).path
        self.sent.append([str(method), path, response.status_code])
        return response


if __name__ == "__main__":
    session = CountingSession()
    try:
        bot_example.play(Client(session=session), sys.argv[1], sys.argv[2])
    finally:
        with open(sys.argv[3], "w") as out:
            json.dump(session.sent, out)
