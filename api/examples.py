"""The OpenAPI document's examples, recorded from real games played through the API.

`record(client, redis_client)` plays a Darwin's Journey solo game against Alfred to its end
(and a few more games, a player, a webhook, a tournament) through a Flask test client and
keeps, per operation, its request body and each answer's body by status: the document shows
them (`api.openapi.install`), `tests/api/test_openapi_contract.py` records them again and
validates both recordings against the document. `EXAMPLES_FILE` holds the recording; make it
anew after a change of the API's JSON with

    python -m api.examples          # starts a throw-away Redis, writes api/openapi_examples.json
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

EXAMPLES_FILE = Path(__file__).with_name("openapi_examples.json")
SEED = 7  # the recorded games' client seed (unranked: the same deal each recording)
METRICS_LINES = 12  # the metrics example: its first lines


Examples = dict[str, dict[str, Any]]  # "METHOD /path/{param}" -> {"request", "responses"}


class Recorder:
    """Calls the API and keeps each operation's first request and first answer per status."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.examples: Examples = {}
        self.headers: dict[tuple[str, str], set[str]] = {}  # (operation, status) -> names

    def call(self, method: str, template: str, status: int, path: str | None = None,
             body: Any = None, headers: dict[str, str] | None = None,
             query: str = "") -> Any:
        """`method` on `path` (default `template`); assert `status`; record; its body."""
        url = (path or template) + (f"?{query}" if query else "")
        response = self.client.open(url, method=method.upper(), json=body,
                                    headers=headers or {})
        assert response.status_code == status, (method, url, response.status_code,
                                                response.get_data()[:500])
        key = f"{method.upper()} {template}"
        entry = self.examples.setdefault(key, {"request": None, "responses": {}})
        self.headers.setdefault((key, str(status)), set()).update(
            name for name, _ in response.headers)
        if body is not None and entry["request"] is None:
            entry["request"] = body
        if response.is_json:
            answer: Any = response.get_json()
        elif response.mimetype.startswith("text/"):
            answer = text = response.get_data(as_text=True)
            if template == "/metrics":
                answer = "\n".join(text.splitlines()[:METRICS_LINES]) + "\n"
        else:
            answer = None  # a 204, or a binary body (the tournament chart)
        entry["responses"].setdefault(str(status), answer)
        return answer


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def record(client: Any, redis_client: Any, rec: Recorder | None = None) -> Examples:
    """Every operation's examples, from real games played through `client` (a Flask test
    client of an app on `redis_client`'s database, rate limits off), with `rec` if given."""
    from api import botauth

    rec = rec or Recorder(client)
    rec.call("get", "/healthz", 200)
    rec.call("get", "/v1/games-catalog", 200)
    rec.call("get", "/v1/bots", 200)
    player = rec.call("post", "/v1/players", 201, body={"name": "Ada"})
    key = _bearer(player["key"])
    rec.call("get", "/v1/players/me", 200, headers=key)

    # Darwin's Journey solo against Alfred, to the end.
    game = "/v1/games/{game_id}"
    created = rec.call("post", "/v1/games", 201, body={
        "game": "darwins-journey", "options": {"players": 1, "alfred": "green"},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "alfred"}],
        "seed": SEED, "unranked": True})
    url = f"/v1/games/{created['id']}"
    seats = {0: _bearer(created["seats"][0]["token"]),
             1: _bearer(botauth.bot_token(redis_client, created["id"], 1))}
    rng = random.Random(SEED)
    to_act, moves = created["to_act"], 0
    while to_act is not None:
        read = rec.call("get", game, 200, url, headers=seats[to_act])
        legal = read["legal_moves"]
        move = next((m for m in legal if m["type"] == "place"), rng.choice(legal)) \
            if moves < 40 else rng.choice(legal)
        body = {"move": move, "version": read["version"]}
        if to_act == 0 and "403" not in rec.examples.get(f"POST {game}/moves",
                                                          {}).get("responses", {}):
            rec.call("post", f"{game}/moves", 403, f"{url}/moves", body, seats[1])
            rec.call("post", f"{game}/moves", 422, f"{url}/moves",
                     {"move": {"type": "fly"}, "version": read["version"]}, seats[0])
        if to_act == 0 and f"POST {game}/hint" not in rec.examples:
            # A hint (a practice game): queued (a worker's job fills it in; none runs here).
            rec.call("post", f"{game}/hint", 202, f"{url}/hint", headers=seats[0])
            rec.call("post", f"{game}/hint", 200, f"{url}/hint", headers=seats[0])
            rec.call("get", f"{game}/hint", 200, f"{url}/hint", headers=seats[0])
        answer = rec.call("post", f"{game}/moves", 200, f"{url}/moves", body, seats[to_act])
        if to_act == 0 and "409" not in rec.examples[f"POST {game}/moves"]["responses"]:
            rec.call("post", f"{game}/moves", 409, f"{url}/moves", body, seats[0])
        if to_act == 0 and answer["to_act"] == 0 and f"POST {game}/takeback" not in \
                rec.examples and rec.call("get", game, 200, url,
                                          headers=seats[0])["takeback"] is not None:
            # A practice game: the seat takes its move back (then a stale one is refused).
            rec.call("post", f"{game}/takeback", 200, f"{url}/takeback",
                     {"version": answer["version"]}, seats[0])
            rec.call("post", f"{game}/takeback", 409, f"{url}/takeback",
                     {"version": answer["version"]}, seats[0])
        if moves == 12:
            rec.call("get", f"{game}/moves", 200, f"{url}/moves", headers=seats[0],
                     query="after=4&limit=3")
            rec.call("get", game, 400, url, query="version=5")
        to_act, moves = answer["to_act"], moves + 1
    rec.call("get", f"{game}/events", 200, f"{url}/events", headers=seats[0])
    # Its analysis, asked by its seat: queued (a worker's job fills it in; none runs here).
    rec.call("post", f"{game}/analysis", 202, f"{url}/analysis", {"seats": [0]}, seats[0])
    rec.call("post", f"{game}/analysis", 200, f"{url}/analysis", {"seats": [0]}, seats[0])
    rec.call("get", f"{game}/analysis", 200, f"{url}/analysis", headers=seats[0])
    rematch = rec.call("post", f"{game}/rematch", 201, f"{url}/rematch", headers=seats[0])
    # The rematch: its seat claimed by the player, then the seat's token issued again.
    claim = f"{game}/seats/{{seat}}/claim"
    rec.call("post", claim, 200, f"/v1/games/{rematch['id']}/seats/0/claim",
             {"token": rematch["seats"][0]["token"]}, key)
    rec.call("post", f"{game}/seats/{{seat}}/token", 200,
             f"/v1/games/{rematch['id']}/seats/0/token", headers=key)
    rec.call("get", "/v1/players/me/games", 200, headers=key)

    # Two players: one resigns (a bot takes the seat); another game is aborted.
    two = {"game": "darwins-journey", "options": {"players": 2}, "seed": SEED,
           "unranked": True}
    duel = rec.call("post", "/v1/games", 201, body={**two, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "mcts", "params": {"ms": 250}}]})
    resigned = rec.call("post", "/v1/games", 201, body=two)
    rec.call("post", f"{game}/resign", 200, f"/v1/games/{resigned['id']}/resign",
             {"bot": "greedy"}, _bearer(resigned["seats"][1]["token"]))
    rec.call("post", f"{game}/analysis", 409, f"/v1/games/{duel['id']}/analysis", {},
             _bearer(duel["seats"][0]["token"]))
    rec.call("post", f"{game}/abort", 200, f"/v1/games/{duel['id']}/abort",
             headers=_bearer(duel["creator_token"]))
    # Records: the aborted game's (a short one), none yet for the rematch in play.
    duel_record = rec.call("get", f"{game}/record", 200, f"/v1/games/{duel['id']}/record")
    rec.call("get", f"{game}/record", 409, f"/v1/games/{rematch['id']}/record")
    # That record posted back and replayed; then with a seed other than the one committed to.
    rec.call("post", "/v1/records/replay", 200, body=duel_record)
    deal = duel_record["deal"]
    rec.call("post", "/v1/records/replay", 422, body={**duel_record, "deal": {
        **deal, "revealed": {**deal["revealed"], "seed": deal["revealed"]["seed"] + 1}}})
    # Its rematch, asked by seat 1: seat 0 redeems its own token in it.
    rec.call("post", f"{game}/rematch", 201, f"/v1/games/{resigned['id']}/rematch",
             headers=_bearer(resigned["seats"][1]["token"]))
    rec.call("post", f"{game}/rematch/token", 200,
             f"/v1/games/{resigned['id']}/rematch/token",
             headers=_bearer(resigned["seats"][0]["token"]))

    # A webhook of the player: created, listed, tested, its deliveries, deleted.
    hooks = "/v1/players/me/webhooks"
    hook = rec.call("post", hooks, 201, body={"url": "https://push.example.com/bgb",
                                              "events": ["your_turn", "game_over"]},
                    headers=key)
    rec.call("get", hooks, 200, headers=key)
    rec.call("post", f"{hooks}/{{webhook_id}}/test", 202, f"{hooks}/{hook['id']}/test",
             headers=key)
    rec.call("get", f"{hooks}/{{webhook_id}}/deliveries", 200,
             f"{hooks}/{hook['id']}/deliveries", headers=key)
    rec.call("delete", f"{hooks}/{{webhook_id}}", 204, f"{hooks}/{hook['id']}", headers=key)
    # Challenges: two seats of a new game offered to the player; one accepted, one declined.
    table = rec.call("post", "/v1/games", 201, body=two)
    invite = f"{game}/seats/{{seat}}/invite"
    taken, left = (rec.call("post", invite, 201, f"/v1/games/{table['id']}/seats/{seat}/invite",
                            {"player": player["id"]}, _bearer(table["seats"][seat]["token"]))
                   for seat in (1, 0))
    rec.call("get", "/v1/players/me/challenges", 200, headers=key)
    challenge = "/v1/players/me/challenges/{challenge_id}"
    rec.call("post", f"{challenge}/accept", 200,
             f"/v1/players/me/challenges/{taken['id']}/accept", headers=key)
    rec.call("post", f"{challenge}/decline", 204,
             f"/v1/players/me/challenges/{left['id']}/decline", headers=key)
    # The lobby: seat 0 of that game opened to anyone, listed, taken by the player; seat 1
    # of another game opened, then closed.
    opened = f"{game}/seats/{{seat}}/open"
    seat0 = _bearer(table["seats"][0]["token"])
    rec.call("post", opened, 201, f"/v1/games/{table['id']}/seats/0/open", headers=seat0)
    rec.call("post", opened, 200, f"/v1/games/{table['id']}/seats/0/open", headers=seat0)
    rec.call("get", "/v1/open-seats", 200, query="game=toy-pontoon")
    rec.call("post", "/v1/open-seats/{game_id}/{seat}/take", 200,
             f"/v1/open-seats/{table['id']}/0/take", headers=key)
    other = rec.call("post", "/v1/games", 201, body=two)
    rec.call("post", opened, 201, f"/v1/games/{other['id']}/seats/1/open",
             headers=_bearer(other["seats"][1]["token"]))
    rec.call("delete", opened, 204, f"/v1/games/{other['id']}/seats/1/open",
             headers=_bearer(other["seats"][1]["token"]))
    # The player's key rotated, then the player deleted (its seat in the rematch resigns).
    rotated = rec.call("post", "/v1/players/me/key", 200, headers=key)
    rec.call("delete", "/v1/players/me", 200, headers=_bearer(rotated["key"]))

    # A tournament: planned, read, its games listed, cancelled, its event stream.
    tour = "/v1/tournaments/{tournament_id}"
    planned = rec.call("post", "/v1/tournaments", 201, body={
        "game": "darwins-journey", "options": {"players": 2}, "deals": 2, "seed": SEED,
        "entrants": [{"bot": "mcts", "params": {"ms": 250}}, {"bot": "greedy"}]})
    turl = f"/v1/tournaments/{planned['id']}"
    rec.call("get", tour, 200, turl)
    rec.call("get", f"{tour}/games", 200, f"{turl}/games")
    rec.call("get", f"{tour}/chart.png", 200, f"{turl}/chart.png")
    rec.call("delete", tour, 200, turl, headers=_bearer(planned["creator_token"]))
    rec.call("get", f"{tour}/events", 200, f"{turl}/events")
    # An external entrant's account stream: its tournament started, then was cancelled.
    remote = rec.call("post", "/v1/tournaments", 201, body={
        "game": "darwins-journey", "options": {"players": 2}, "deals": 1, "seed": SEED,
        "entrants": [{"kind": "external", "name": "remote"}, {"bot": "greedy"}]})
    rec.call("delete", tour, 200, f"/v1/tournaments/{remote['id']}",
             headers=_bearer(remote["creator_token"]))
    rec.call("get", "/v1/players/me/stream", 200,
             headers=_bearer(remote["entrant_tokens"]["remote"]),
             query=f"tournament={remote['id']}")
    rec.call("get", "/metrics", 200)
    return rec.examples


def load() -> Examples:
    """The recorded examples ({} when the file is missing)."""
    try:
        return json.loads(EXAMPLES_FILE.read_text())
    except FileNotFoundError:
        return {}


def main() -> int:
    """Record the examples on a throw-away Redis and write EXAMPLES_FILE."""
    import redis

    from api import create_app
    from clients.localredis import LocalRedis

    local = LocalRedis(tempfile.mkdtemp(prefix="bgb-examples-"))
    url = local.start()
    try:
        app = create_app({"REDIS_URL": url, "TESTING": True, "SSE_MAX_SECONDS": 0.5,
                          "RATE_LIMIT_CREATE": "off", "RATE_LIMIT_MOVES": "off",
                          "RATE_LIMIT_MOVES_PER_SEAT": "off", "RATE_LIMIT_READS": "off",
                          "MAX_BOT_GAMES_PER_CREATOR": 0,
                          # The catalog's example shows the games' rules links.
                          "DOCS_URL": "https://docs.example.org/bgb/"})
        examples = record(app.test_client(), redis.Redis.from_url(url))
    finally:
        local.stop()
        shutil.rmtree(local.data_dir, ignore_errors=True)
    EXAMPLES_FILE.write_text(json.dumps(examples, indent=1, sort_keys=True) + "\n")
    print(f"{len(examples)} operations recorded in {EXAMPLES_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
