#!/usr/bin/env python3
"""A smoke test of a running server, as a new user meets it: `tools/smoke.py URL`.

It checks, in order, and stops at the first failure with the step's name (exit 1):
the server answers /healthz; the web page, one of its scripts and its Portuguese texts;
the games' catalog in English and Portuguese, /v1/bots, the OpenAPI document, /docs and the
problem types' pages; then for every game of the catalog a game with one human seat
(the others bots, or the game's automa when it is played solo) in which the human plays
a few moves and a bot answers. Standard library only: it runs in any environment.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

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
    return done


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
