"""Webhook URLs that would reach inside are refused at registration (issue 27): every
spelling of loopback, private, link-local, shared, multicast and reserved addresses, names
that resolve to them, URLs with credentials; and the operator's allow-list opens ranges."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from api import create_app, outbound
from tests.api.conftest import problem
from tests.api.dnsstub import Resolver, resolver_fixture  # noqa: F401  (a fixture)

HOOKS = "/v1/players/me/webhooks"
PUBLIC = "93.184.215.14"  # a global unicast address (never connected to: registration only)

# Each a way to reach the server's own machine or network; all refused with 422.
FORBIDDEN = [
    "http://127.0.0.1/hook",
    "http://127.0.0.1:6379/",  # the Redis port
    "https://127.0.0.1./hook",  # a trailing dot
    "http://127.255.255.254/",
    "http://2130706433/",  # decimal
    "http://0x7f000001/",  # hex
    "http://0x7F.0x0.0x0.0x1/",  # hex parts
    "http://0177.0.0.1/",  # octal
    "http://017700000001/",  # octal, one number
    "http://127.1/",  # short
    "http://127.0.1/",
    "http://0/",
    "http://0.0.0.0:8000/",
    "http://localhost/",
    "http://LOCALHOST./",
    "http://localhost:6379/",
    "http://api.localhost/",
    "http://%6c%6f%63%61%6c%68%6f%73%74/",  # percent-encoded "localhost"
    "http://%31%32%37.0.0.1/",  # percent-encoded digits
    "http://ｌｏｃａｌｈｏｓｔ/",  # fullwidth letters
    "http://１２７。０。０。１/",  # fullwidth digits and dots
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]:6379/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",  # IPv4-mapped
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",  # IPv4-compatible
    "http://[::ffff:169.254.169.254]/",
    "http://[64:ff9b::7f00:1]/",  # NAT64 of loopback
    "http://[64:ff9b::a9fe:a9fe]/",  # NAT64 of the metadata service
    "http://[2002:7f00:1::]/",  # 6to4 of loopback
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",  # Teredo
    "http://169.254.169.254/latest/meta-data/",  # cloud metadata
    "http://[fd00:ec2::254]/",  # the IPv6 metadata service (unique-local)
    "http://[fe80::1]/",
    "http://[fe80::1%25eth0]/",  # a zone
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",  # shared address space (CGNAT)
    "http://198.18.0.1/",  # benchmarking
    "http://192.0.0.170/",
    "http://192.0.2.1/",  # documentation
    "http://224.0.0.1/",  # multicast
    "http://239.255.255.250:1900/",
    "http://[ff02::1]/",
    "http://255.255.255.255/",
    "http://240.0.0.1/",
    "http://user:pw@push.example.com/",  # credentials
    "https://token@push.example.com/",
    "http://push.example.com\\@127.0.0.1/",  # a backslash
    "http://push.example.com /",
    "ftp://push.example.com/",
    "file:///etc/passwd",
    "gopher://127.0.0.1:6379/_INFO",
    "http:///hook",
    "http://①②⑦.0.0.1/",  # circled digits (IDNA makes them 127.0.0.1)
    "http://0x7f.1/",  # hex and short
    "http://0x7f.0.0.1/",  # one hex part
    "http://:pw@push.example.com/",  # a password without a user name
    "http://push.example.com@127.0.0.1/",  # the name before '@' is not the host
    "http://[::ffff:a9fe:a9fe]/",  # IPv4-mapped metadata service, in hex
    "http://[64:ff9b::10.0.0.1]/",  # NAT64 of a private address
    "http://[::ffff:0:7f00:1]/",  # IPv4-translated (SIIT) loopback
    "https://metadata.localhost./",
]


def _player(client: FlaskClient) -> dict[str, str]:
    key = client.post("/v1/players", json={"name": "Ada"}).get_json()["key"]
    return {"Authorization": f"Bearer {key}"}


def _register(client: FlaskClient, auth: dict[str, str], url: str,
              events: list[str] | None = None) -> Any:
    return client.post(HOOKS, headers=auth,
                       json={"url": url, "events": events or ["your_turn"]})


def _refused(client: FlaskClient, auth: dict[str, str], url: str) -> dict[str, Any]:
    body = problem(_register(client, auth, url), 422, "validation-error")
    assert "url" in body["errors"]["json"], body
    assert client.get(HOOKS, headers=auth).get_json() == {"webhooks": []}  # nothing changed
    return body


@pytest.mark.parametrize("url", FORBIDDEN)
def test_a_url_reaching_inside_is_refused_at_registration(
        client: FlaskClient, resolver: Resolver, url: str) -> None:
    resolver["push.example.com"] = [PUBLIC]
    _refused(client, _player(client), url)


@pytest.mark.parametrize("url", FORBIDDEN)
def test_the_check_itself_refuses_every_spelling(resolver: Resolver,
                                                 url: str) -> None:
    """Not only the schema: api.outbound refuses each (the worker checks with it too)."""
    resolver["push.example.com"] = [PUBLIC]
    with pytest.raises(outbound.ForbiddenUrl):
        outbound.check_url(url)


def test_the_table_holds_thirty_spellings() -> None:
    assert len(set(FORBIDDEN)) == len(FORBIDDEN) >= 30


@pytest.mark.parametrize("answer", [["10.1.2.3"], ["127.0.0.1"], ["169.254.169.254"],
                                    ["fd00::1"], [PUBLIC, "192.168.0.10"],
                                    ["::ffff:10.0.0.1"], ["2606:2800:220:1::1", "::1"]])
def test_a_name_resolving_inside_is_refused(client: FlaskClient,
                                            resolver: Resolver,
                                            answer: list[str]) -> None:
    """Every address of the answer is checked: one inside is enough to refuse."""
    resolver["hooks.corp.example"] = answer
    body = _refused(client, _player(client), "https://hooks.corp.example/bgb")
    assert body["detail"] == "hooks.corp.example is not a public address"


def test_the_refusal_is_in_the_callers_language(client: FlaskClient) -> None:
    body = problem(client.post(HOOKS + "?lang=pt-BR", headers=_player(client),
                               json={"url": "http://[::1]/", "events": ["your_turn"]}),
                   422, "validation-error")
    assert body["detail"] == "::1 não é um endereço público"


@pytest.mark.parametrize("url", ["https://push.example.com/bgb",
                                 "https://Push.Example.COM./bgb?app=1",
                                 f"http://{PUBLIC}:8080/hook",
                                 "https://[2606:2800:220:1:248:1893:25c8:1946]/hook",
                                 "https://not-yet.example.com/hook"])
def test_a_public_receiver_is_registered(client: FlaskClient, resolver: Resolver,
                                         url: str) -> None:
    """A public address or a name resolving only to public addresses; a name that does not
    resolve yet passes too (each delivery checks again)."""
    resolver["push.example.com"] = [PUBLIC, "2606:2800:220:1:248:1893:25c8:1946"]
    auth = _player(client)
    answer = _register(client, auth, url)
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["url"] == url


def test_the_allow_list_opens_an_operators_ranges(client: FlaskClient,
                                                   resolver: Resolver,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "10.0.0.0/8, 127.0.0.1/32")
    resolver["hooks.corp.example"] = ["10.20.30.40"]
    auth = _player(client)
    for url in ("http://127.0.0.1:8080/hook", "https://127.0.0.1:8443/hook",
                "https://hooks.corp.example/bgb", "http://10.0.0.1/"):
        assert _register(client, auth, url).status_code == 201, url
    for url in ("http://127.0.0.2/", "http://localhost:8080/", "http://192.168.1.1/",
                "http://169.254.169.254/", "http://2130706433/"):
        problem(_register(client, auth, url), 422, "validation-error")
    assert len(client.get(HOOKS, headers=auth).get_json()["webhooks"]) == 4


@pytest.mark.parametrize("url", ["http://0x7f000001:8080/", "http://127.1:8080/",
                                 "http://2130706433:8080/", "http://localhost:8080/",
                                 "http://app.localhost:8080/", "http://[::ffff:127.0.0.1]:8080/"])
def test_the_allow_list_opens_addresses_not_their_other_spellings(
        monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """Opening loopback opens `127.x.y.z` written as such, not the forms that some parsers
    read as it (an IPv4-mapped address is not in an IPv4 range either)."""
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.0/8")
    assert outbound.check_url("http://127.0.0.1:8080/").port == 8080
    with pytest.raises(outbound.ForbiddenUrl):
        outbound.check_url(url)


def test_an_allow_list_opening_a_translation_prefix_fails_the_start(
        monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    """64:ff9b::/96 would open every IPv4 address behind NAT64, loopback included."""
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "64:ff9b::/96")
    with pytest.raises(ValueError, match="BGB_WEBHOOK_ALLOW: .*64:ff9b::/96"):
        create_app({"REDIS_URL": redis_url, "TESTING": True})


def test_the_allow_list_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BGB_WEBHOOK_ALLOW", raising=False)
    assert outbound.allowed_networks() == ()


def test_a_wrong_allow_list_fails_the_start(monkeypatch: pytest.MonkeyPatch,
                                            redis_url: str) -> None:
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "10.0.0.0/8,not-a-range")
    with pytest.raises(ValueError, match="BGB_WEBHOOK_ALLOW: 'not-a-range'"):
        create_app({"REDIS_URL": redis_url, "TESTING": True})


def test_a_long_url_is_refused(client: FlaskClient, resolver: Resolver) -> None:
    resolver["push.example.com"] = [PUBLIC]
    auth = _player(client)
    base = "https://push.example.com/"
    _refused(client, auth, base + "a" * 10_000)
    _refused(client, auth, base + "a" * (outbound.MAX_URL_LENGTH + 1 - len(base)))
    longest = base + "a" * (outbound.MAX_URL_LENGTH - len(base))
    assert _register(client, auth, longest).status_code == 201


def test_an_event_named_twice_is_refused(client: FlaskClient,
                                         resolver: Resolver) -> None:
    resolver["push.example.com"] = [PUBLIC]
    auth = _player(client)
    body = problem(_register(client, auth, "https://push.example.com/",
                             ["your_turn", "your_turn"]), 422, "validation-error")
    assert "events" in body["errors"]["json"]
    assert client.get(HOOKS, headers=auth).get_json() == {"webhooks": []}


def test_redact_drops_credentials_query_and_fragment() -> None:
    assert (outbound.redact("https://ada:s3cret@hooks.example.com:8443/p/q?token=t0k#frag")
            == "https://hooks.example.com:8443/p/q")
