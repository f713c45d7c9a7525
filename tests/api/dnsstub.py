"""A DNS stub for the webhook tests: names under .example.com, .example and .test answer
what the test says (or do not resolve); every other name resolves for real (Redis, the
receivers on loopback). It replaces `socket.getaddrinfo`, which api.outbound calls."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest

STUBBED = (".example.com", ".example", ".test")


class Resolver:
    """The stub's answers: `resolver[name] = [addresses]`; `then[name]` answers from the
    name's second lookup on (a DNS answer that changes); `lookups` lists each name asked."""

    def __init__(self) -> None:
        self.table: dict[str, list[str]] = {}
        self.then: dict[str, list[str]] = {}
        self.lookups: list[str] = []

    def __setitem__(self, name: str, addresses: list[str]) -> None:
        self.table[name] = addresses

    def answer(self, name: str) -> list[str]:
        """What `name` resolves to now (raises gaierror for a name without an answer)."""
        self.lookups.append(name)
        if name in self.then and self.lookups.count(name) > 1:
            return self.then[name]
        if name not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return self.table[name]


@pytest.fixture(name="resolver")
def resolver_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[Resolver]:
    """The DNS stub in place of `socket.getaddrinfo`."""
    stub = Resolver()
    real: Callable[..., Any] = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if not name.endswith(STUBBED):
            return real(host, port, *args, **kwargs)
        answers = []
        for text in stub.answer(name):
            address = ipaddress.ip_address(text)
            family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
            sockaddr = (text, int(port), 0, 0) if address.version == 6 else (text, int(port))
            answers.append((family, socket.SOCK_STREAM, 6, "", sockaddr))
        return answers

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield stub
