"""A malformed chunked body against the real server (issue 27): 400 problem+json on every
endpoint that reads a body, never a 500, never a traceback in the server's log.

The bytes are the issue's own (no `Connection: close`): the server must answer and close,
or at least not answer 500. tools/smoke.py checks /v1/games the same way on a served
`bgb serve`; its raw-socket helpers are reused here."""

from __future__ import annotations

import json

import pytest

from clients.sdk import seat_token
from tests.e2e.conftest import Stack
from tools import smoke  # raw_exchange, expect_problem

pytestmark = pytest.mark.e2e

CHUNKED = (b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
           b"ZZ\r\n{}\r\n0\r\n\r\n")


def _post_malformed(stack: Stack, path: str, token: str | None = None) -> bytes:
    """The issue's request on `path` (with `token`, so that it gets past authorization to
    the body), on a new connection; the whole answer, read until the server closes."""
    head = b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n"
    if token is not None:
        head += b"Authorization: Bearer " + token.encode() + b"\r\nIdempotency-Key: k-1\r\n"
    return smoke.raw_exchange(stack.api_url, head + CHUNKED, timeout=10)


def test_a_malformed_chunked_body_answers_400_everywhere(bare_stack: Stack) -> None:
    client = bare_stack.client
    created = client.create_game("toy-pontoon", {"players": 2},
                                 [{"kind": "human"}, {"kind": "human"}], seed=3)
    token = seat_token(created, 0)
    version = client.get_game(created["id"], token)["version"]
    for path, auth in [("/v1/games", None), ("/v1/players", None),
                       (f"/v1/games/{created['id']}/moves", token)]:
        answer = _post_malformed(bare_stack, path, auth)
        smoke.expect_problem(path, answer, 400, "bad-request")
        detail = json.loads(answer.partition(b"\r\n\r\n")[2])["detail"]
        assert "chunk" in detail.lower(), detail
    # Nothing changed: the game is where it was, the server still answers.
    assert client.get_game(created["id"], token)["version"] == version
    assert client.health()
    log = (bare_stack.log_dir / "api.log").read_text(errors="replace")
    assert "Traceback" not in log and " 500 " not in log, log
