"""Each webhook delivery checks its URL again and connects to the address it checked
(issue 27): a name that comes to point inside is not delivered to, a redirect is not
followed, the log players read is coarse, and no log line holds a URL's secrets.

The worker's `deliver` runs here in the test process (as an RQ worker would call it), on
the test Redis, against receivers on loopback that the operator's allow-list opens."""

from __future__ import annotations

import json
import logging
import ssl
import threading
import traceback
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import redis
import requests
import trustme
from flask.testing import FlaskClient

from ai_worker import webhooks
from api import keys, outbound
from api.notify import new_message_id
from clients.localredis import free_port
from tests.api.dnsstub import Resolver, resolver_fixture  # noqa: F401  (a fixture)

HOOKS = "/v1/players/me/webhooks"
PUBLIC = "93.184.215.14"  # a global unicast address the stub may answer (never connected to)
BODY = json.dumps({"type": "ping", "timestamp": "2026-12-04T00:00:00+00:00", "data": {}})
COARSE = {"message_id", "at", "event", "outcome", "status_class", "ok"}


class Receiver:
    """An HTTP server on 127.0.0.1 recording each request's path and Host; it answers
    `status` (with `location` as its Location header, when set)."""

    def __init__(self, status: int = 204, location: str | None = None) -> None:
        self.requests: list[tuple[str, str]] = []
        self.status = status
        self.location = location
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers.get("content-length", "0")))
                receiver.requests.append((self.path, self.headers.get("host", "")))
                self.send_response(receiver.status)
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers() -> Iterator[list[Receiver]]:
    """Receivers a test starts (`receivers.append(Receiver())`), stopped after it."""
    running: list[Receiver] = []
    yield running
    for receiver in running:
        receiver.stop()


@pytest.fixture
def worker_env(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    """The worker's Redis is the test one; no allow-list unless a test sets one."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.delenv("BGB_WEBHOOK_ALLOW", raising=False)


def _register(client: FlaskClient, url: str) -> tuple[dict[str, str], str, str]:
    """A new player with a webhook on `url`: its auth header, player id and webhook id."""
    created = client.post("/v1/players", json={"name": "Ada"}).get_json()
    auth = {"Authorization": f"Bearer {created['key']}"}
    answer = client.post(HOOKS, headers=auth, json={"url": url, "events": ["your_turn"]})
    assert answer.status_code == 201, answer.get_json()
    return auth, created["id"], answer.get_json()["id"]


def _stored(redis_client: redis.Redis, url: str) -> tuple[str, str]:
    """A webhook written straight into Redis (as one registered before the checks existed)."""
    player_id, webhook_id = "Xq3f9LmQ2aZk7WcP", "wh_oldhook0001"
    redis_client.hset(keys.player_webhooks(player_id), webhook_id, json.dumps({
        "id": webhook_id, "url": url, "events": ["your_turn"], "created": 1796100000.0,
        "secret": "whsec_" + "A" * 32}))
    return player_id, webhook_id


def _log(client: FlaskClient, auth: dict[str, str], webhook_id: str) -> list[dict[str, Any]]:
    answer = client.get(f"{HOOKS}/{webhook_id}/deliveries", headers=auth)
    assert answer.status_code == 200
    return answer.get_json()["deliveries"]


def test_a_name_that_comes_to_point_inside_is_not_delivered(
        client: FlaskClient, resolver: Resolver, receivers: list[Receiver],
        worker_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    receivers.append(receiver := Receiver())
    resolver["hooks.example.com"] = [PUBLIC]  # public when registered ...
    auth, player_id, webhook_id = _register(client, f"http://hooks.example.com:{receiver.port}/h")
    resolver["hooks.example.com"] = ["127.0.0.1"]  # ... then its DNS answer points inside
    assert webhooks.deliver(player_id, webhook_id, new_message_id(), BODY) == "forbidden"
    assert receiver.requests == []
    [entry] = _log(client, auth, webhook_id)
    assert entry["outcome"] == "forbidden" and entry["status_class"] is None and not entry["ok"]
    # The same answer inside a range the operator opens is delivered to (the control: the
    # refusal above is the check's, not a receiver that could not be reached).
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.1/32")
    assert webhooks.deliver(player_id, webhook_id, new_message_id(), BODY) == "delivered"
    assert receiver.requests == [("/h", f"hooks.example.com:{receiver.port}")]


def test_a_mixed_answer_is_refused_whole(client: FlaskClient, resolver: Resolver,
                                        receivers: list[Receiver], worker_env: None) -> None:
    receivers.append(receiver := Receiver())
    resolver["hooks.example.com"] = [PUBLIC]
    auth, player_id, webhook_id = _register(client, f"http://hooks.example.com:{receiver.port}/")
    resolver["hooks.example.com"] = [PUBLIC, "169.254.169.254"]
    assert webhooks.deliver(player_id, webhook_id, new_message_id(), BODY) == "forbidden"
    assert _log(client, auth, webhook_id)[0]["outcome"] == "forbidden"


@pytest.mark.parametrize("inside", ["::ffff:127.0.0.1", "64:ff9b::7f00:1", "::ffff:0:7f00:1",
                                    "2002:7f00:1::", "1::1"])
def test_an_answer_carrying_loopback_is_refused_at_the_connection(
        client: FlaskClient, resolver: Resolver, receivers: list[Receiver],
        worker_env: None, monkeypatch: pytest.MonkeyPatch, inside: str) -> None:
    """The connection's own lookup is checked with the same table (ours added to
    ssrfguard's), and opening 127.0.0.1 does not open the IPv6 forms carrying it."""
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.1/32")
    receivers.append(receiver := Receiver())
    resolver["hooks.example.com"] = [PUBLIC]
    auth, player_id, webhook_id = _register(client, f"http://hooks.example.com:{receiver.port}/")
    resolver["hooks.example.com"] = [inside]
    assert webhooks.deliver(player_id, webhook_id, new_message_id(), BODY) == "forbidden"
    assert receiver.requests == [] and _log(client, auth, webhook_id)[0]["outcome"] == "forbidden"


def test_the_delivery_connects_to_the_address_it_checked(
        client: FlaskClient, resolver: Resolver, receivers: list[Receiver],
        worker_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The name is resolved once per attempt, by the check: a later answer (here another
    loopback address where nothing listens) is never asked for nor connected to."""
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.0/8")
    receivers.append(receiver := Receiver())
    resolver["hooks.example.com"] = ["127.0.0.1"]
    auth, player_id, webhook_id = _register(client, f"http://hooks.example.com:{receiver.port}/")
    resolver.lookups.clear()
    resolver.then["hooks.example.com"] = ["127.0.0.2"]
    resolver["hooks.example.com"] = ["127.0.0.1"]
    assert webhooks.deliver(player_id, webhook_id, new_message_id(), BODY) == "delivered"
    assert resolver.lookups == ["hooks.example.com"]
    assert len(receiver.requests) == 1


def test_a_redirect_to_loopback_is_not_followed(client: FlaskClient, receivers: list[Receiver],
                                                worker_env: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.1/32")
    receivers.append(inside := Receiver())
    receivers.append(redirecting := Receiver(302, f"http://127.0.0.1:{inside.port}/admin"))
    auth, player_id, webhook_id = _register(client, f"http://127.0.0.1:{redirecting.port}/h")
    with pytest.raises(webhooks.DeliveryFailed):  # refused: RQ retries it
        webhooks.deliver(player_id, webhook_id, new_message_id(), BODY)
    assert len(redirecting.requests) == 1 and inside.requests == []
    [entry] = _log(client, auth, webhook_id)
    assert (entry["outcome"], entry["status_class"]) == ("refused", "3xx")


def test_the_log_is_coarse(client: FlaskClient, receivers: list[Receiver], worker_env: None,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Delivered, refused (a status class), unreachable: no error kind, status or timing."""
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.1/32")
    receivers.append(receiver := Receiver(204))
    auth, player_id, webhook_id = _register(client, f"http://127.0.0.1:{receiver.port}/h")
    webhooks.deliver(player_id, webhook_id, new_message_id(), BODY)
    receiver.status = 503
    with pytest.raises(webhooks.DeliveryFailed):
        webhooks.deliver(player_id, webhook_id, new_message_id(), BODY)
    closed_auth, closed_player, closed_hook = _register(
        client, f"http://127.0.0.1:{free_port()}/h")  # nothing listens there
    with pytest.raises(webhooks.DeliveryFailed):
        webhooks.deliver(closed_player, closed_hook, new_message_id(), BODY)
    log = _log(client, auth, webhook_id) + _log(client, closed_auth, closed_hook)
    assert [(e["outcome"], e["status_class"], e["ok"]) for e in log] == [
        ("refused", "5xx", False), ("delivered", "2xx", True), ("unreachable", None, False)]
    assert all(set(entry) == COARSE for entry in log)


def test_no_log_line_holds_a_urls_credentials_or_query(
        client: FlaskClient, redis_client: redis.Redis, receivers: list[Receiver],
        worker_env: None, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.1/32")
    receivers.append(receiver := Receiver(500))
    caplog.set_level(logging.DEBUG)
    failures: list[str] = []
    # One with a secret in its query, refused by its receiver (RQ logs the exception) ...
    _, player_id, webhook_id = _register(
        client, f"http://127.0.0.1:{receiver.port}/h?token=query-sekrit")
    with pytest.raises(webhooks.DeliveryFailed) as failed:
        webhooks.deliver(player_id, webhook_id, new_message_id(), BODY)
    failures.append("".join(traceback.format_exception(failed.value)))
    # ... and one stored before the checks existed, with a password: forbidden, logged.
    old_player, old_hook = _stored(
        redis_client, f"http://ada:pw-sekrit@127.0.0.1:{receiver.port}/h?key=query-sekrit")
    assert webhooks.deliver(old_player, old_hook, new_message_id(), BODY) == "forbidden"
    assert len(receiver.requests) == 1
    logged = caplog.text + "".join(failures)
    assert f"127.0.0.1:{receiver.port}/h" in logged  # the lines name the receiver ...
    assert "sekrit" not in logged and "ada:" not in logged  # ... without its secrets


@pytest.mark.parametrize("certified", ["hooks.example.com", "other.example.com"])
def test_https_to_a_pinned_address_still_checks_the_urls_name(
        certified: str, resolver: Resolver, monkeypatch: pytest.MonkeyPatch) -> None:
    """Connected to the checked address, TLS sends the URL's name (SNI) and verifies the
    certificate against it: a certificate for another name is refused."""
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.1/32")
    resolver["hooks.example.com"] = ["127.0.0.1"]
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(certified).configure_cert(context)
    names: list[str | None] = []

    def note_name(_socket: ssl.SSLObject, name: str | None, _context: ssl.SSLContext) -> None:
        names.append(name)

    context.sni_callback = note_name  # type: ignore[assignment]
    receiver = Receiver()
    receiver.server.socket = context.wrap_socket(receiver.server.socket, server_side=True)
    url = f"https://hooks.example.com:{receiver.port}/h"
    try:
        with ca.cert_pem.tempfile() as bundle, outbound.session() as session:
            if certified == "hooks.example.com":
                answer = session.post(url, data=b"{}", verify=bundle, timeout=5)
                assert answer.status_code == 204
                assert receiver.requests == [("/h", f"hooks.example.com:{receiver.port}")]
            else:
                with pytest.raises(requests.exceptions.SSLError):
                    session.post(url, data=b"{}", verify=bundle, timeout=5)
                assert receiver.requests == []
        assert names and set(names) == {"hooks.example.com"}
        assert resolver.lookups == ["hooks.example.com"]
    finally:
        receiver.stop()


def test_attempts_logged_before_outcomes_are_shown_coarse(
        client: FlaskClient, redis_client: redis.Redis, worker_env: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A log written by an older worker (exact status, error kind, milliseconds) is read
    through the same coarse view."""
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.1/32")
    auth, player_id, webhook_id = _register(client, f"http://127.0.0.1:{free_port()}/h")
    old = [{"message_id": "msg_a", "at": 1796100002, "event": "ping", "status": None,
            "ok": False, "error": "ConnectionError", "ms": 3},
           {"message_id": "msg_a", "at": 1796100001, "event": "ping", "status": 503,
            "ok": False, "ms": 12},
           {"message_id": "msg_b", "at": 1796100000, "event": "ping", "status": 204,
            "ok": True, "ms": 41}]
    redis_client.rpush(keys.webhook_deliveries(player_id, webhook_id),
                       *[json.dumps(entry) for entry in old])
    log = _log(client, auth, webhook_id)
    assert [(e["outcome"], e["status_class"], e["ok"]) for e in log] == [
        ("unreachable", None, False), ("refused", "5xx", False), ("delivered", "2xx", True)]
    assert all(set(entry) == COARSE for entry in log)
