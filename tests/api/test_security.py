"""No endpoint reveals hidden information: the deck order, other hands, the seed."""

from __future__ import annotations

import json
import re
from typing import Any

import redis
from flask.testing import FlaskClient

from tests.api.conftest import Created, create, move, snapshot

SEED = 424242424242


def _secrets(state: dict[str, Any]) -> list[str]:
    """Texts that would betray the deck order if they appeared in a body."""
    deck = state["deck"]
    spellings = [json.dumps(deck), json.dumps(deck, separators=(",", ":")),
                 json.dumps(list(reversed(deck))),
                 json.dumps(list(reversed(deck)), separators=(",", ":"))]
    return [*spellings, str(SEED), '"deck"']


def _assert_hidden(body: bytes, state: dict[str, Any], where: str) -> None:
    text = body.decode("utf-8", "replace")
    for secret in _secrets(state):
        assert secret not in text, f"{where} reveals {secret[:40]}"
    # No run of 4+ remaining deck cards, in order, appears as a JSON list anywhere.
    deck = state["deck"]
    for match in re.finditer(r"\[([0-9, ]+)\]", text):
        numbers = [int(n) for n in match.group(1).split(",") if n.strip()]
        if len(numbers) >= 4:
            for start in range(len(deck) - len(numbers) + 1):
                assert deck[start:start + len(numbers)] != numbers, where


def _every_body(client: FlaskClient, created: Created, version: int) -> list[tuple[str, bytes]]:
    gid = created.id
    bodies: list[tuple[str, bytes]] = []
    for who, headers in [("spectator", {}), *[(f"seat {s}", created.auth(s))
                                               for s in created.tokens]]:
        for path in (f"/v1/games/{gid}", f"/v1/games/{gid}/moves",
                     f"/v1/games/{gid}?wait_version=0&timeout=0"):
            bodies.append((f"{who} GET {path}", client.get(path, headers=headers).data))
        stream = client.get(f"/v1/games/{gid}/events", headers={**headers,
                                                                "Last-Event-ID": "0"},
                            buffered=False)
        chunks = []
        for chunk in stream.response:
            chunks.append(chunk if isinstance(chunk, bytes) else chunk.encode())
            if len(chunks) > 3:
                break
        stream.close()
        bodies.append((f"{who} events", b"".join(chunks)))
        if headers:
            for payload in ({"move": {"type": "draw"}, "version": version + 5},
                            {"move": {"type": "nope"}, "version": version},
                            {"move": {"type": "draw"}, "version": version}):
                response = client.post(f"/v1/games/{gid}/moves", json=payload,
                                       headers={**headers, "Idempotency-Key": "probe"})
                bodies.append((f"{who} POST {payload}", response.data))
    for path in ("/v1/games-catalog", "/v1/bots", "/v1/openapi.json", "/healthz", "/metrics"):
        bodies.append((path, client.get(path).data))
    return bodies


def test_no_endpoint_reveals_the_deck_order(client: FlaskClient,
                                            redis_client: redis.Redis) -> None:
    created = create(client, players=3, seed=SEED)
    _assert_hidden(json.dumps(created.body).encode(), snapshot(redis_client, created.id)["state"],
                   "creation answer")
    version = 0
    for seat in (0, 1, 2, 0):
        assert move(client, created, seat, version).status_code == 200
        version += 1
    state = snapshot(redis_client, created.id)["state"]
    for where, body in _every_body(client, created, version):
        _assert_hidden(body, state, where)
        # No seat ever sees another seat's hand.
        if where.startswith("spectator") and b'"hands"' in body:
            data = json.loads(body)
            assert data["view"]["hands"] == [None, None, None]


def test_a_token_moves_only_its_seat_of_its_game(client: FlaskClient) -> None:
    one, two = create(client, players=2), create(client, players=2, seed=9)
    for token_game, seat in ((two, 0), (two, 1), (one, 1)):
        response = client.post(f"/v1/games/{one.id}/moves",
                               json={"move": {"type": "draw"}, "version": 0},
                               headers=token_game.auth(seat))
        assert response.status_code in (401, 403)
    assert client.get(f"/v1/games/{one.id}").get_json()["version"] == 0
    assert client.get(f"/v1/games/{two.id}").get_json()["version"] == 0


def test_only_a_list_under_to_is_an_audience() -> None:
    from api.presenters import redact_event

    addressed = {"type": "card", "seat": 1, "card": 9, "to": [1]}
    assert redact_event(addressed, 1) == addressed
    for seat in (0, None):
        assert redact_event(addressed, seat) == {"type": "card", "redacted": True}
    # A destination (Darwin's Journey's navigate/explore) is public: it was redacted for all.
    for public in ({"type": "navigate", "seat": 0, "to": 12},
                   {"type": "explore", "seat": 0, "island": "A", "to": "a3"}):
        for seat in (0, 1, None):
            assert redact_event(public, seat) == public
