"""Webhooks through the real server and workers (issue 15): one signed "your turn" per turn
change and one "game over", retries until a failing receiver accepts, and a hanging receiver
never holds up a move."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests

from ai_worker.webhooks import verify
from clients.localredis import free_port
from tests.e2e.conftest import Stack, _start

pytestmark = pytest.mark.e2e


class Receiver:
    """A local HTTP server recording webhook deliveries; it can fail or hang on purpose."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[dict[str, str], str]] = []
        self.failures_left = 0
        self.hang = threading.Event()  # set: requests block until `release` is set
        self.release = threading.Event()
        self.in_flight = 0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("content-length", "0"))).decode()
                with receiver.lock:
                    receiver.in_flight += 1
                try:
                    if receiver.hang.is_set():
                        receiver.release.wait(30)
                    with receiver.lock:
                        failing = receiver.failures_left > 0
                        receiver.failures_left -= 1 if failing else 0
                        if not failing:
                            receiver.deliveries.append(
                                ({k.lower(): v for k, v in self.headers.items()}, body))
                    self.send_response(500 if failing else 204)
                    self.end_headers()
                finally:
                    with receiver.lock:
                        receiver.in_flight -= 1

            def log_message(self, *args: Any) -> None:
                pass

        self.port = free_port()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def events(self, kind: str) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(body) for _, body in self.deliveries
                    if json.loads(body)["type"] == kind]

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def webhook_stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory,
                  ) -> Iterator[Stack]:
    """The API and two workers, with webhook retries 1 s apart, and loopback opened to the
    receivers by the operator's allow-list (webhooks reach only public addresses without)."""
    import os

    os.environ["BGB_WEBHOOK_RETRY_INTERVALS"] = "1,1,1,1,1"
    os.environ["BGB_WEBHOOK_ALLOW"] = "127.0.0.1/32"
    try:
        running = _start(redis_url, tmp_path_factory.mktemp("e2e-webhooks"), workers=2)
    finally:
        del os.environ["BGB_WEBHOOK_RETRY_INTERVALS"]
        del os.environ["BGB_WEBHOOK_ALLOW"]
    yield running
    running.stop()


def _player(stack: Stack, receiver: Receiver) -> tuple[dict[str, str], dict[str, Any]]:
    base = stack.api_url + "/v1"
    key = requests.post(f"{base}/players", json={"name": "Ada"}, timeout=10).json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    hook = requests.post(f"{base}/players/me/webhooks", headers=auth, timeout=10, json={
        "url": receiver.url, "events": ["your_turn", "game_over"]}).json()
    return auth, hook


def _wait(condition: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_one_signed_your_turn_per_turn_change_and_one_game_over(
        webhook_stack: Stack, receiver: Receiver) -> None:
    base = webhook_stack.api_url + "/v1"
    auth, hook = _player(webhook_stack, receiver)
    created = requests.post(f"{base}/games", headers=auth, timeout=10, json={
        "game": "toy-pontoon", "options": {"players": 2},
        "seats": [{"kind": "human", "claim": True}, {"kind": "bot", "bot": "random"}]}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    seat_auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(5)
    while True:
        body = requests.get(f"{base}/games/{game_id}", headers=seat_auth, timeout=10,
                            params={"wait_version": -1}).json()
        if body["status"] != "active":
            break
        if body["to_act"] != 0:
            requests.get(f"{base}/games/{game_id}", timeout=40,
                         params={"wait_version": body["version"], "timeout": 20})
            continue
        answer = requests.post(f"{base}/games/{game_id}/moves", headers=seat_auth, timeout=10,
                               json={"move": rng.choice(body["legal_moves"]),
                                     "version": body["version"]})
        assert answer.status_code == 200, answer.text
    # The turn passes to seat 0 at creation (it acts first), then after each bot move that
    # the player's seat answers; a move of seat 0 after its own changes no hands.
    log = requests.get(f"{base}/games/{game_id}/moves", timeout=10,
                       params={"limit": 200}).json()["moves"]
    seats = [entry["seat"] for entry in log]
    handed = 1 + sum(1 for before, after in zip(seats, seats[1:], strict=False)
                     if before == 1 and after == 0)
    # Two workers may deliver out of order: wait for all, then for anything extra.
    _wait(lambda: len(receiver.events("game_over")) == 1
          and len(receiver.events("your_turn")) >= handed, timeout=60)
    time.sleep(1.0)  # nothing more arrives
    turns = receiver.events("your_turn")
    assert len(turns) == handed, (len(turns), handed)
    assert len(receiver.events("game_over")) == 1
    assert {t["data"]["game_id"] for t in turns} == {game_id}
    with receiver.lock:
        for headers, body in receiver.deliveries:
            assert verify(hook["secret"], headers, body)
            assert not verify(hook["secret"], headers, body + " ")
    ids = [h["webhook-id"] for h, _ in receiver.deliveries]
    assert len(ids) == len(set(ids))
    deliveries = requests.get(f"{base}/players/me/webhooks/{hook['id']}/deliveries",
                              headers=auth, timeout=10).json()["deliveries"]
    assert len(deliveries) == len(ids) and all(d["ok"] for d in deliveries)


def test_a_failing_receiver_is_retried_until_it_accepts(webhook_stack: Stack,
                                                        receiver: Receiver) -> None:
    base = webhook_stack.api_url + "/v1"
    auth, hook = _player(webhook_stack, receiver)
    receiver.failures_left = 2
    queued = requests.post(f"{base}/players/me/webhooks/{hook['id']}/test", headers=auth,
                           timeout=10)
    assert queued.status_code == 202
    _wait(lambda: len(receiver.events("ping")) == 1, timeout=60)
    log = requests.get(f"{base}/players/me/webhooks/{hook['id']}/deliveries", headers=auth,
                       timeout=10).json()["deliveries"]
    assert [(d["outcome"], d["status_class"]) for d in log] == [  # newest first
        ("delivered", "2xx"), ("refused", "5xx"), ("refused", "5xx")]
    assert len({d["message_id"] for d in log}) == 1  # one message, three attempts


def test_a_hanging_receiver_never_holds_a_move(webhook_stack: Stack,
                                               receiver: Receiver) -> None:
    base = webhook_stack.api_url + "/v1"
    auth, _ = _player(webhook_stack, receiver)
    receiver.hang.set()
    created = requests.post(f"{base}/games", headers=auth, timeout=10, json={
        "game": "toy-pontoon", "options": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "human", "claim": True}]}).json()
    token = created["seats"][0]["token"]
    # Seat 0 moves: seat 1 (the player's) is to act, a "your turn" is queued, and the
    # receiver hangs on it...
    answer = requests.post(f"{base}/games/{created['id']}/moves", timeout=10,
                           headers={"Authorization": f"Bearer {token}"},
                           json={"move": {"type": "draw"}, "version": 0})
    assert answer.status_code == 200
    _wait(lambda: receiver.in_flight == 1)
    # ... while the game goes on: the other seat's next move is answered at once.
    second = requests.post(f"{base}/games/{created['id']}/moves", timeout=10,
                           headers={"Authorization": f"Bearer {created['seats'][1]['token']}"},
                           json={"move": {"type": "stop"}, "version": 1})
    assert second.status_code == 200 and receiver.in_flight == 1
    receiver.release.set()
    # (A delivery held past the worker's 5 s timeout would be retried: at least one.)
    _wait(lambda: len(receiver.events("your_turn")) >= 1)
