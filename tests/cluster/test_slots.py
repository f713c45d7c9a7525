"""Every script runs on keys of one hash slot: games, tournaments, webhooks and analyses
through the API (and their jobs) on a Redis Cluster (a script on two slots would be refused
CROSSSLOT), every script call recorded and its keys' slots compared; and every transaction
(WATCH ... MULTI/EXEC) and command the cluster client is asked (seats claimed, challenges,
open seats, resignations, rematches, hints, players deleted, tournaments, webhooks),
recorded by `slot_recorder` with the function that made it, its keys in one slot."""

from __future__ import annotations

import ast
import json
import random
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import redis
from flask import Flask
from rq import SimpleWorker

from ai_worker import tournaments
from api import keys as key_names
from api import redis_conn, store
from api.botqueue import ANALYSIS_QUEUE_NAME
from api.botqueue import QUEUE_NAME as BOT_QUEUE
from api.notify import QUEUE_NAME as WEBHOOK_QUEUE
from api.redis_conn import GameScript, worker_games
from tests.api.conftest import create, move
from tests.cluster.slot_recorder import ROOT, Recorder

pytestmark = pytest.mark.cluster


def test_every_game_script_touches_one_slot(cluster_app: Flask,
                                            cluster_client: redis.RedisCluster,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, tuple[Any, ...]]] = []
    names = {text: name for name, text in vars(store).items()
             if name.startswith("_") and isinstance(text, str) and "KEYS" in text}
    real = GameScript.__call__

    def recorded(self: GameScript, keys: Sequence[Any], args: Sequence[Any],
                 durable: bool = False) -> Any:
        calls.append((names.get(self.text, "get"), tuple(keys)))
        return real(self, keys, args, durable)

    monkeypatch.setattr(GameScript, "__call__", recorded)
    client = cluster_app.test_client()
    human = create(client, clock={"per_move": 86400, "on_timeout": "bot"},
                   seats=[{"kind": "human"}, {"kind": "human"}])
    assert move(client, human, 0, 0, **{"Idempotency-Key": "k1"}).status_code == 200
    assert move(client, human, 0, 0, **{"Idempotency-Key": "k1"}).status_code == 200  # replay
    resigned = client.post(f"/v1/games/{human.id}/resign", headers=human.auth(1), json={})
    assert resigned.status_code == 200, resigned.get_json()
    with_bot = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert move(client, with_bot, 0, 0).status_code == 200
    assert client.get(f"/v1/games/{with_bot.id}").status_code == 200

    used = {name for name, _ in calls}
    assert {"_CREATE", "_READ", "_COMMIT", "_MARK", "get"} <= used, used
    for name, script_keys in calls:
        slots = {cluster_client.keyslot(key) for key in script_keys}
        assert len(slots) == 1, (name, script_keys)
    # The global indexes are written ahead, outside the game's slot (docs/scaling.md).
    assert cluster_client.zscore(key_names.bot_turns(), with_bot.id) is not None
    assert cluster_client.zscore(key_names.clock_deadlines(), human.id) is not None


class _Receiver:
    """A local HTTP server taking webhook deliveries (their bodies' types)."""

    def __init__(self) -> None:
        self.types: list[str] = []
        received = self.types

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                received.append(json.loads(body)["type"])
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _work(queues: redis.Redis) -> None:
    """Run every queued job (scheduler, analyses, webhooks) as a bgb worker would: RQ's
    SimpleWorker on the queues' Redis, the jobs reaching the cluster through the settings."""
    SimpleWorker([BOT_QUEUE, ANALYSIS_QUEUE_NAME, WEBHOOK_QUEUE],
                 connection=queues).work(burst=True)


def test_tournaments_webhooks_and_analyses_touch_one_slot(
        cluster_app: Flask, cluster_client: redis.RedisCluster, local_cluster: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament played out and one cancelled, a player's webhook registered and
    delivered, a game analysed: through the API and the jobs on the cluster, the queues on
    their own Redis, every script's keys in one slot."""
    calls: list[tuple[str, tuple[Any, ...]]] = []
    real_game = GameScript.__call__
    real_evalsha = redis.RedisCluster.evalsha
    real_eval = redis.RedisCluster.eval

    def game_script(self: GameScript, keys: Sequence[Any], args: Sequence[Any],
                    durable: bool = False) -> Any:
        calls.append(("game script", tuple(keys)))
        return real_game(self, keys, args, durable)

    def evalsha(self: redis.RedisCluster, sha: str, numkeys: int, *rest: Any) -> Any:
        calls.append((f"script {sha[:8]}", tuple(rest[:numkeys])))
        return real_evalsha(self, sha, numkeys, *rest)

    def eval_(self: redis.RedisCluster, text: str, numkeys: int, *rest: Any) -> Any:
        calls.append((text.strip().splitlines()[0], tuple(rest[:numkeys])))
        return real_eval(self, text, numkeys, *rest)

    recorder = Recorder()
    recorder.install(monkeypatch)
    monkeypatch.setattr(GameScript, "__call__", game_script)
    monkeypatch.setattr(redis.RedisCluster, "evalsha", evalsha)
    monkeypatch.setattr(redis.RedisCluster, "eval", eval_)
    # The jobs run here find the cluster and the queues as a worker does: in the settings.
    monkeypatch.setenv("REDIS_URL", local_cluster.url)
    monkeypatch.setenv("BGB_QUEUE_URL", local_cluster.queue_url)
    monkeypatch.setenv("BGB_WEBHOOK_ALLOW", "127.0.0.1/32")
    monkeypatch.setenv("BGB_ANALYSIS_ITERATIONS", "50")
    monkeypatch.setattr(redis_conn, "_worker_games", {})
    queues = redis.Redis.from_url(local_cluster.queue_url)
    client = cluster_app.test_client()
    rng = random.Random(5)

    # A player's webhook: registered, and told of its turns in a game it plays.
    receiver = _Receiver()
    try:
        player = client.post("/v1/players", json={"name": "Ada"}).get_json()
        auth = {"Authorization": f"Bearer {player['key']}"}
        hook = client.post("/v1/players/me/webhooks", headers=auth, json={
            "url": receiver.url, "events": ["your_turn", "game_over"]})
        assert hook.status_code == 201, hook.get_json()
        created = client.post("/v1/games", headers=auth, json={
            "game": "toy-pontoon", "options": {"players": 2}, "seed": 3,
            "seats": [{"kind": "human", "claim": True}, {"kind": "human"}]}).get_json()
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        _play(client, created["id"], tokens, rng)
        mine = client.get("/v1/players/me/games", headers=auth).get_json()["games"]
        assert [g["id"] for g in mine] == [created["id"]]
        _work(queues)
        assert "game_over" in receiver.types, receiver.types
        log = client.get(f"/v1/players/me/webhooks/{hook.get_json()['id']}/deliveries",
                         headers=auth).get_json()["deliveries"]
        assert log and all(entry["outcome"] == "delivered" for entry in log), log
    finally:
        receiver.stop()

    # The finished game analysed by its job.
    asked = client.post(f"/v1/games/{created['id']}/analysis", json={})
    assert asked.status_code == 202, asked.get_json()
    _work(queues)
    done = client.get(f"/v1/games/{created['id']}/analysis").get_json()
    assert done["status"] == "done", done

    # A tournament of two external entrants played out, its scheduler run by the jobs and
    # kicked by the sweeper's poll; another one cancelled.
    names = ["ann", "bob"]
    spec = {"game": "toy-pontoon", "options": {"players": 2}, "seed": 11, "deals": 1,
            "max_parallel": 2, "entrants": [{"kind": "external", "name": n} for n in names]}
    body = client.post("/v1/tournaments", json=spec).get_json()
    tournament_id = body["id"]
    assert cluster_client.sismember(key_names.tournaments_active(), tournament_id)
    for _ in range(50):
        tournaments.poll(queues, interval_ms=1, game_store=worker_games(queues))
        _work(queues)
        if client.get(f"/v1/tournaments/{tournament_id}").get_json()["status"] != "active":
            break
        for token in body["entrant_tokens"].values():
            games = client.get(f"/v1/tournaments/{tournament_id}/games",
                               headers={"Authorization": f"Bearer {token}"}).get_json()
            for game in games["games"]:
                if game["status"] == "active":
                    _play(client, game["game_id"], {int(s): t for s, t in
                                                    game.get("tokens", {}).items()}, rng)
    final = client.get(f"/v1/tournaments/{tournament_id}").get_json()
    assert final["status"] == "finished" and final["progress"]["finished"] == 2, final
    assert not cluster_client.sismember(key_names.tournaments_active(), tournament_id)
    other = client.post("/v1/tournaments", json=spec).get_json()
    _work(queues)
    cancelled = client.delete(f"/v1/tournaments/{other['id']}",
                              headers={"Authorization": f"Bearer {other['creator_token']}"})
    assert cancelled.status_code == 200, cancelled.get_json()
    assert not cluster_client.sismember(key_names.tournaments_active(), other["id"])

    scripts = {name for name, _ in calls}
    assert len(scripts) >= 5, scripts
    for name, script_keys in calls:
        slots = {cluster_client.keyslot(key) for key in script_keys}
        assert len(slots) <= 1, (name, script_keys)
    # Every transaction and command of the cluster client in one slot; a tournament's
    # creation (a MULTI of two slots on one node) is no transaction on a cluster.
    assert recorder.crossing(redis.Redis(host="127.0.0.1",
                                         port=local_cluster.alive()[0])) == []
    assert "api/tournament_store.py:create" in recorder.sites(transaction=False)
    assert "api/tournament_store.py:create" not in recorder.sites(transaction=True)
    assert {"ai_worker/webhooks.py:_record", "api/notify.py:publish"} <= recorder.sites()


def _play(client: Any, game_id: str, tokens: dict[int, str], rng: random.Random) -> None:
    """Random legal moves for the seats of `tokens` while one of them is to act."""
    while True:
        for seat, token in tokens.items():
            auth = {"Authorization": f"Bearer {token}"}
            view = client.get(f"/v1/games/{game_id}", headers=auth).get_json()
            if view["status"] != "active":
                return
            if view["to_act"] == seat:
                answer = client.post(f"/v1/games/{game_id}/moves", headers=auth, json={
                    "move": rng.choice(view["legal_moves"]), "version": view["version"]})
                assert answer.status_code == 200, answer.get_json()
                break
        else:
            return  # a seat of no token of ours is to act


# Every transaction on the game store (WATCH ... MULTI/EXEC, or a pipeline that is one on a
# single node), by the function that makes it, and how a cluster runs it.
TRANSACTIONS = {
    "api/seats.py:update_seat": "WATCH/MULTI of the game's seats hash",
    "api/challenges.py:_claim_if_free": "WATCH/MULTI of the game's seats hash",
    "api/challenges.py:post": "HSET+EXPIRE of the player's challenges (MULTI on one node)",
    "api/tournament_store.py:create": "one node only: a cluster lists and stores it apart",
}
# Transactions on the queues' Redis (never a cluster), outside this test.
QUEUE_TRANSACTIONS = {"ai_worker/sweeper.py:_sweep_turn": "INCR+EXPIRE of a sweep count"}
# Commands whose keys may be several (redis-py splits some across slots on a cluster).
MULTI_KEY = {"mget", "mset", "msetnx", "rename", "renamenx", "smove", "sunion", "sinter",
             "sdiff", "sunionstore", "sinterstore", "sdiffstore", "zunion", "zinter",
             "zdiff", "zunionstore", "zinterstore", "zdiffstore", "zrangestore", "rpoplpush",
             "brpoplpush", "lmove", "blmove", "pfmerge", "bitop", "mget_nonatomic",
             "mset_nonatomic"}
SPLIT_KEYS = {"delete", "unlink", "exists", "touch", "copy"}  # multi-key with 2+ arguments


def _code_sites() -> tuple[set[str], set[str]]:
    """(transaction sites, multi-key call sites) found in the source of api/ and ai_worker/:
    `pipeline()` without `transaction=False`, `pipe.watch`/`pipe.multi`; a multi-key
    command, or DEL/UNLINK/EXISTS/TOUCH of several (or starred) keys."""
    transactions, multi_key = set(), set()
    for path in sorted([*ROOT.glob("api/**/*.py"), *ROOT.glob("ai_worker/**/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            site = f"{path.relative_to(ROOT)}:{function.name}"
            for call in ast.walk(function):
                if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
                    continue
                name, owner = call.func.attr, call.func.value
                flag = next((k.value for k in call.keywords if k.arg == "transaction"), None)
                if name == "pipeline" and not (isinstance(flag, ast.Constant)
                                               and flag.value is False):
                    transactions.add(site)
                elif name in ("watch", "multi") and isinstance(owner, ast.Name) \
                        and owner.id == "pipe":
                    transactions.add(site)
                elif name in MULTI_KEY or (name in SPLIT_KEYS and (
                        len(call.args) > 1 or any(isinstance(a, ast.Starred)
                                                  for a in call.args))):
                    multi_key.add(site)
    return transactions, multi_key


def test_every_transaction_in_the_code_is_listed_here() -> None:
    """The inventory above is the code's: a transaction or multi-key command added (or a
    function renamed) fails here until it is listed and played on the cluster below."""
    transactions, multi_key = _code_sites()
    assert transactions == set(TRANSACTIONS) | set(QUEUE_TRANSACTIONS), transactions
    assert multi_key == set(), multi_key


def _player(client: Any, name: str) -> tuple[str, dict[str, str]]:
    body = client.post("/v1/players", json={"name": name}).get_json()
    return body["id"], {"Authorization": f"Bearer {body['key']}"}


def _ok(answer: Any, status: int = 200) -> Any:
    assert answer.status_code == status, answer.get_json()
    return answer.get_json()


def test_no_transaction_or_command_touches_two_slots(
        cluster_app: Flask, cluster_client: redis.RedisCluster, local_cluster: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats claimed, tokens issued again, a challenge accepted, an open seat taken, a
    resignation, a rematch and its token, a hint asked, a player's games listed and the
    player deleted: every transaction, pipeline and command of the cluster client
    recorded, each transaction's keys (WATCHed and written) and each command's in one slot;
    and every transaction of the inventory played at least once."""
    recorder = Recorder()
    recorder.install(monkeypatch)
    client = cluster_app.test_client()
    ada_id, ada = _player(client, "Ada")
    bob_id, bob = _player(client, "Bob")
    _, cat = _player(client, "Cat")
    game = create(client, players=2)
    _ok(client.post(f"/v1/games/{game.id}/seats/0/claim", headers=ada,
                    json={"token": game.tokens[0]}))
    ada_token = _ok(client.post(f"/v1/games/{game.id}/seats/0/token", headers=ada))["token"]
    challenge = _ok(client.post(f"/v1/games/{game.id}/seats/1/invite", json={"player": bob_id},
                                headers=game.auth(1)), 201)
    assert [c["id"] for c in _ok(client.get("/v1/players/me/challenges", headers=bob))[
        "challenges"]] == [challenge["id"]]
    bob_token = _ok(client.post(f"/v1/players/me/challenges/{challenge['id']}/accept",
                                headers=bob))["token"]
    other = create(client, players=2)
    opened = client.post(f"/v1/games/{other.id}/seats/1/open", headers=other.auth(1))
    assert opened.status_code in (200, 201), opened.get_json()
    _ok(client.get("/v1/open-seats"))
    _ok(client.post(f"/v1/open-seats/{other.id}/1/take", headers=cat))
    _ok(client.post(f"/v1/games/{game.id}/resign",
                    headers={"Authorization": f"Bearer {ada_token}"}, json={}))
    rematch = _ok(client.post(f"/v1/games/{game.id}/rematch",
                              headers={"Authorization": f"Bearer {ada_token}"}), 201)
    _ok(client.post(f"/v1/games/{game.id}/rematch/token",
                    headers={"Authorization": f"Bearer {bob_token}"}))
    practice = create(client, seed=7, unranked=True)
    _ok(client.post(f"/v1/games/{practice.id}/hint", headers=practice.auth(0)), 202)
    listed = _ok(client.get("/v1/players/me/games", headers=bob))["games"]
    assert {g["id"] for g in listed} >= {game.id, rematch["id"]}, listed
    _ok(client.delete("/v1/players/me", headers=bob))
    assert ada_id

    node = redis.Redis(host="127.0.0.1", port=local_cluster.alive()[0])
    assert recorder.crossing(node) == []
    played = recorder.sites(transaction=True)
    assert set(TRANSACTIONS) - {"api/tournament_store.py:create"} <= played, played
    # The player's keys, several slots, deleted one DEL each (none a multi-key DEL).
    assert "api/players.py:delete" in recorder.sites(transaction=False)
