#!/usr/bin/env python3
"""A smoke test of a running server, as a new user meets it: `tools/smoke.py URL`.

It checks, in order, and stops at the first failure with the step's name (exit 1):
the server answers /healthz; the web page, one of its scripts and its Portuguese texts;
the games' catalog in English and Portuguese, /v1/bots, the OpenAPI document, /docs and the
problem types' pages; then for every game of the catalog a game with one human seat
(the others bots, or the game's automa when it is played solo) in which the human plays
a few moves and a bot answers; then the refusals in front of the app: a target or headers
over the API's sizes answer problem+json (414, 431), as does a malformed chunked body (400),
while a header gunicorn cannot parse gets its own 400; on a server on this machine a client
keeping its cap of slow bodies waiting (`BGB_MAX_CONNECTIONS_PER_CLIENT`, as set for the
server) gets 429 `too-many-connections` for one more. With `BGB_BODY_TIMEOUT` of 3 s or less
(as tools/check_latest.py sets it) a body that never comes is answered 408. Standard library
only: it runs in any environment.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

MOVES = 3  # the human's moves a game (a bot must answer in between)


class SmokeFailed(Exception):
    """A step failed: its message says which and why."""


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None,
         language: str | None = None, timeout: float = 30) -> tuple[int, Any, bytes]:
    """One request: status, JSON body (or None) and raw body."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if language:
        headers["Accept-Language"] = language
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            status, raw, kind = answer.status, answer.read(), answer.headers["Content-Type"]
    except urllib.error.HTTPError as error:
        status, raw, kind = error.code, error.read(), error.headers["Content-Type"]
    parsed = json.loads(raw) if kind and "json" in kind else None
    return status, parsed, raw


def expect(step: str, base: str, path: str, status: int = 200, contains: bytes = b"",
           language: str | None = None) -> Any:
    """GET `path`: fail `step` unless it answers `status` with `contains` in its body."""
    got, parsed, raw = call(base, "GET", path, language=language)
    if got != status or contains not in raw:
        raise SmokeFailed(f"{step}: GET {path} answered {got}: {raw[:300]!r}")
    return parsed


def wait_up(base: str, seconds: float) -> None:
    """Wait until /healthz answers ok."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if call(base, "GET", "/healthz", timeout=5)[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SmokeFailed(f"serve: {base}/healthz did not answer in {seconds:.0f} s")
        time.sleep(0.5)


def play(base: str, game: dict[str, Any]) -> str:
    """Create a game of `game` (a catalog entry) with a human seat 0 and play a few moves;
    a line saying what happened."""
    name, players = game["name"], game["min_players"]
    body: dict[str, Any] = {"game": name, "options": {"players": players}}
    if players > 1:
        body["seats"] = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    status, created, raw = call(base, "POST", "/v1/games", body)
    if status != 201:
        raise SmokeFailed(f"{name}: creating a game answered {status}: {raw[:300]!r}")
    game_id, token = created["id"], created["seats"][0]["token"]
    played, answered, version = 0, 0, created["version"]
    mine: int | None = None  # the version our last move made, until another seat moves
    wait = False  # long poll only while another seat is to act
    deadline = time.monotonic() + 120
    while played < MOVES or answered == 0:
        if time.monotonic() > deadline:
            raise SmokeFailed(f"{name}: game {game_id} made no progress for 120 s "
                              f"(human moves {played}, bot moves {answered})")
        query = f"?wait_version={version}&timeout=5" if wait else ""
        status, now, raw = call(base, "GET", f"/v1/games/{game_id}{query}", token=token)
        if status != 200:
            raise SmokeFailed(f"{name}: reading game {game_id} answered {status}: {raw[:300]!r}")
        if now["status"] != "active":
            break
        if mine is not None and now["version"] > mine:
            answered, mine = answered + 1, None  # another seat moved after ours
        version, wait = now["version"], now.get("to_act") != 0
        if not wait and now.get("legal_moves"):
            move = {k: v for k, v in now["legal_moves"][0].items() if k != "label"}
            status, moved, raw = call(base, "POST", f"/v1/games/{game_id}/moves",
                                      {"move": move, "version": version}, token=token)
            if status != 200:
                raise SmokeFailed(f"{name}: move {move} answered {status}: {raw[:300]!r}")
            played, version = played + 1, moved["version"]
            mine, wait = version, moved.get("to_act") != 0
    return f"{name}: game {game_id}, {played} moves played, {answered} answered by bots"


def smoke(base: str, wait: float) -> list[str]:
    """Every step; the lines of what passed."""
    done = []
    wait_up(base, wait)
    done.append("serve: /healthz ok")
    expect("web page", base, "/play/", contains=b"<html")
    expect("web page", base, "/play/js/main.js")
    expect("web page", base, "/play/i18n/pt-BR.json")
    done.append("web page: /play/, its script and its Portuguese texts")
    catalog = expect("catalog", base, "/v1/games-catalog")
    expect("catalog", base, "/v1/games-catalog", language="pt-BR")
    expect("bots", base, "/v1/bots")
    expect("OpenAPI", base, "/v1/openapi.json", contains=b'"openapi"')
    expect("docs", base, "/docs", contains=b"<html")
    expect("problem pages", base, "/problems/", contains=b"stale-version")
    expect("problem pages", base, "/problems/stale-version")
    done.append("catalog, bots, OpenAPI, /docs and problem pages")
    names = [game["name"] for game in catalog["games"]]
    for wanted in ("darwins-journey", "flotilla", "encyclopedia"):
        if wanted not in names:
            raise SmokeFailed(f"catalog: {wanted} is missing (games: {names})")
    for game in catalog["games"]:
        if game["name"] in ("darwins-journey", "flotilla", "encyclopedia"):
            done.append(play(base, game))
    done.append(refusals(base))
    done += [line for line in (connection_cap(base), body_deadline(base)) if line]
    return done


def raw_exchange(base: str, data: bytes, source: str = "", timeout: float = 15) -> bytes:
    """Send `data` on a new connection (from address `source`) and read until it closes."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80),
                                  timeout=timeout,
                                  source_address=(source, 0) if source else None) as conn:
        conn.sendall(data)
        answer = b""
        try:
            while chunk := conn.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer


def expect_problem(step: str, answer: bytes, status: int, slug: str) -> None:
    """Fail `step` unless `answer` is an HTTP `status` problem+json of type `slug`."""
    head, _, body = answer.partition(b"\r\n\r\n")
    first = head.split(b"\r\n")[0]
    try:
        problem = json.loads(body)
    except ValueError:
        problem = {}
    if (not first.startswith(b"HTTP/1.1 %d" % status)
            or b"content-type: application/problem+json" not in head.lower()
            or not str(problem.get("type", "")).endswith("/" + slug)):
        raise SmokeFailed(f"{step}: expected {status} {slug} problem+json, got {answer[:300]!r}")


def refusals(base: str) -> str:
    """The API's sizes and a malformed chunked body answer problem+json; gunicorn answers
    what it cannot parse 400."""
    try:
        return _refusals(base)
    except OSError as exc:
        raise SmokeFailed(f"refusals: {exc!r}") from None


def _refusals(base: str) -> str:
    host = urlsplit(base).hostname or "127.0.0.1"
    expect_problem("refusals", raw_exchange(
        base, b"GET /v1/games/" + b"x" * 5000 + b" HTTP/1.1\r\nHost: a\r\n"
        b"Connection: close\r\n\r\n"), 414, "uri-too-long")
    many = b"".join(b"X-Field-%d: x\r\n" % i for i in range(120))
    expect_problem("refusals", raw_exchange(
        base, b"GET /healthz HTTP/1.1\r\nHost: a\r\n" + many + b"Connection: close\r\n\r\n"),
        431, "request-header-fields-too-large")
    answer = raw_exchange(base, b"GET /v1/games HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n")
    if not answer.startswith(b"HTTP/1.1 400"):
        raise SmokeFailed(f"refusals: a header gunicorn cannot parse: {answer[:300]!r}")
    expect_problem("refusals", raw_exchange(
        base, b"POST /v1/games HTTP/1.1\r\nHost: " + host.encode() + b"\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
        b"Connection: close\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n"), 400, "bad-request")
    return ("refusals: 414 and 431 problem+json, gunicorn's 400 for an unparseable header, "
            "a malformed chunked body 400 problem+json")


# Where the slow-body cap step connects from: an address of its own (Linux answers all of
# 127/8 on loopback), so that the smoke test's other connections and the bots' are not
# counted with it.
CAP_SOURCE = "127.0.9.1"
# A move's headers and 1 byte of its declared 100-byte body.
SLOW_BODY = (b"POST /v1/games HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
             b"Content-Length: 100\r\n\r\n{")


def connection_cap(base: str) -> str | None:
    """A client keeping its cap of slow bodies waiting gets 429 for one more (a local
    server only)."""
    cap = int(os.environ.get("BGB_MAX_CONNECTIONS_PER_CLIENT") or 200)
    parts = urlsplit(base)
    if cap <= 0 or os.environ.get("BGB_TRUSTED_PROXIES") or parts.hostname not in (
            "127.0.0.1", "localhost"):
        return None
    held: list[socket.socket] = []
    try:
        for _ in range(cap):
            try:
                conn = socket.create_connection(("127.0.0.1", parts.port or 80), timeout=10,
                                                source_address=(CAP_SOURCE, 0))
            except OSError:
                if not held:
                    return None  # no such source address here (not Linux)
                raise
            held.append(conn)
            conn.sendall(SLOW_BODY)
        time.sleep(0.5)  # past the server's grace (0.25 s): each of them counts
        try:
            answer = raw_exchange(base, SLOW_BODY, source=CAP_SOURCE)
        except OSError as exc:
            raise SmokeFailed(f"connection cap: one more slow body: {exc!r}") from None
    finally:
        for conn in held:
            conn.close()
    expect_problem("connection cap", answer, 429, "too-many-connections")
    return f"connection cap: {cap} slow bodies held, one more answered 429"


def body_deadline(base: str) -> str | None:
    """A declared body that never comes is answered 408 (when the deadline is short)."""
    seconds = float(os.environ.get("BGB_BODY_TIMEOUT") or 10)
    if not 0 < seconds <= 3:
        return None
    answer = raw_exchange(base, b"POST /v1/games HTTP/1.1\r\nHost: a\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
                          timeout=seconds + 20)
    expect_problem("body deadline", answer, 408, "request-timeout")
    return f"body deadline: a missing body answered 408 after {seconds:g} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", default="http://127.0.0.1:8000")
    parser.add_argument("--wait", type=float, default=90,
                        help="seconds to wait for the server to answer (default 90)")
    args = parser.parse_args(argv)
    try:
        for line in smoke(args.url.rstrip("/"), args.wait):
            print(f"smoke ok: {line}", flush=True)
    except (SmokeFailed, OSError, ValueError, KeyError) as failed:
        print(f"smoke FAILED: {type(failed).__name__}: {failed}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
