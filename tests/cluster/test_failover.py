"""A master of the cluster killed (-9) while games are played: its replica takes over and,
with BGB_MIN_REPLICAS=1, every acknowledged move is still in its game's log.

The topology of issue 29 on loopback: 3 masters + 3 replicas, a queue Redis, two API nodes
(gunicorn, as `bgb serve` runs it) behind HAProxy (deploy/haproxy-cluster.cfg) and two bot
workers reaching the API through it. Players post moves with an Idempotency-Key and retry on
503 or a broken connection, as the SDK does; each 200 is an acknowledged move, looked for in
the log afterwards. Watchers stream the games' events meanwhile, through the proxy too. The
same run with BGB_MIN_REPLICAS=0 prints how many it lost: the doomed master's replica is
frozen for a moment before the master dies (replication is asynchronous: what that master
acknowledged meanwhile is gone).
"""

from __future__ import annotations

import itertools
import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from api.store import Store
from clients.verify import verify_record
from tests.cluster.balanced import BalancedStack, haproxy
from tests.cluster.conftest import redis_cluster

pytestmark = [pytest.mark.cluster, pytest.mark.e2e,
              pytest.mark.skipif(haproxy() is None, reason="no haproxy here (Debian's "
                                 "`apt-get install haproxy`): the API nodes need a balancer")]

PLAYERS = 4  # threads, each playing one game after another
WATCHERS = 4  # threads, each streaming one game's events after another
BEFORE_KILL = 4.0  # seconds of play before the master dies
LAGGING = 1.5  # seconds the doomed master's replica is frozen before the master dies
AFTER_PROMOTION = 4.0  # seconds of play once its replica took over


class Players:
    """Threads playing toy games through the API, recording every acknowledged move."""

    def __init__(self, api_url: str) -> None:
        self.api_url = api_url
        self.acked: list[tuple[str, int, str]] = []  # game, seat, Idempotency-Key
        self.refused = 0  # 503s and broken connections, each retried
        self.games: set[str] = set()
        self.stop = threading.Event()
        self.failures: list[str] = []  # what stopped a player thread
        self._lock = threading.Lock()
        self._count = itertools.count()

    def _send(self, method: str, path: str, **options: Any) -> requests.Response | None:
        """The answer, retried while the API answers 503 or cannot be reached (None once
        stopped)."""
        while not self.stop.is_set():
            try:
                answer = requests.request(method, self.api_url + path, timeout=5, **options)
            except requests.RequestException:
                answer = None
            if answer is not None and answer.status_code != 503:
                return answer
            with self._lock:
                self.refused += 1
            time.sleep(0.2)
        return None

    def play(self) -> None:
        """Games one after another, until stopped (a failure recorded)."""
        try:
            self._play()
        except Exception as failure:  # noqa: BLE001 - the test reports it
            with self._lock:
                self.failures.append(repr(failure))

    def _play(self) -> None:
        """Games one after another, until stopped: every other one against a bot."""
        while not self.stop.is_set():
            against_bot = next(self._count) % 2 == 1
            seats = [{"kind": "human"},
                     {"kind": "bot", "bot": "random"} if against_bot else {"kind": "human"}]
            created = self._send("POST", "/v1/games", json={
                "game": "toy-pontoon", "options": {"players": 2}, "seats": seats})
            if created is None:
                return
            assert created.status_code == 201, created.text
            body = created.json()
            with self._lock:
                self.games.add(body["id"])
            tokens = {s["seat"]: s["token"] for s in body["seats"] if s["kind"] == "human"}
            self._play_game(body["id"], tokens)

    def _play_game(self, game_id: str, tokens: dict[int, str]) -> None:
        waited = 0
        while not self.stop.is_set():
            seat, token = next(iter(tokens.items()))
            read = self._send("GET", f"/v1/games/{game_id}",
                              headers={"Authorization": f"Bearer {token}"})
            if read is None:
                return
            game = read.json()
            if game.get("status") != "active":
                return
            to_act = game["to_act"]
            if to_act not in tokens:  # the bot's turn
                waited += 1
                if waited > 100:
                    return  # a bot turn that takes this long is the sweeper's to repair
                time.sleep(0.05)
                continue
            waited = 0
            auth = {"Authorization": f"Bearer {tokens[to_act]}"}
            if to_act != seat:
                game = self._send("GET", f"/v1/games/{game_id}", headers=auth)
                if game is None:
                    return
                game = game.json()
                if game.get("to_act") != to_act or game.get("status") != "active":
                    continue
            version = game["version"]
            chosen = game["legal_moves"][0]
            key = uuid.uuid4().hex
            answer = self._send("POST", f"/v1/games/{game_id}/moves",
                                json={"move": chosen, "version": version},
                                headers={**auth, "Idempotency-Key": key})
            if answer is None:
                return
            if answer.status_code == 200:
                with self._lock:
                    self.acked.append((game_id, to_act, key))


class Watchers:
    """Threads streaming the events of the players' games through the proxy, counting what
    they hear; a stream that ends or breaks (a failover) is opened again on another game."""

    def __init__(self, api_url: str, players: Players) -> None:
        self.api_url = api_url
        self.players = players
        self.events = 0
        self.stop = threading.Event()
        self._lock = threading.Lock()

    def watch(self) -> None:
        """Streams one after another until stopped, each of a game picked at random."""
        rng = random.Random()
        while not self.stop.is_set():
            with self.players._lock:
                games = sorted(self.players.games)
            if not games:
                time.sleep(0.1)
                continue
            game_id = rng.choice(games)
            try:
                with requests.get(f"{self.api_url}/v1/games/{game_id}/events", stream=True,
                                  timeout=(5, 10)) as answer:
                    if answer.status_code != 200:
                        time.sleep(0.2)
                        continue
                    for line in answer.iter_lines():
                        if line.startswith(b"event:"):
                            with self._lock:
                                self.events += 1
                        if self.stop.is_set():
                            break
            except requests.RequestException:
                time.sleep(0.2)


def _lost(client: redis.RedisCluster, acked: list[tuple[str, int, str]]) -> int:
    """How many acknowledged moves the store no longer holds: a move's Idempotency-Key record
    names its log entry (index and sha1), and stands only while the log holds that very
    entry (api.store); a move played again the same way after a rollback is not it."""
    store = Store(client)
    return sum(store.record(game_id, (seat, key)) is None for game_id, seat, key in acked)


def _verified(api_url: str, games: set[str]) -> tuple[int, int]:
    """(how many of `games` are over, each one's record verified: its deal, every move
    replayed by the rules, its result, `bgb verify`'s checks; how many are gone: a creation
    acknowledged and lost with its master). The others still run."""
    ended = gone = 0
    for game_id in sorted(games):
        answer = requests.get(f"{api_url}/v1/games/{game_id}/record", timeout=10)
        assert answer.status_code in (200, 404, 409), (game_id, answer.status_code,
                                                       answer.text)
        if answer.status_code == 404:
            gone += 1
        elif answer.status_code == 200:
            report = verify_record(answer.json())
            assert report.ok, (game_id, report.faults)
            ended += 1
    return ended, gone


def _run(replicas: int, log_dir: Path) -> tuple[int, int, int]:
    """Play, kill a master, play on; (acknowledged moves, lost ones, refused attempts)."""
    with redis_cluster.LocalCluster() as cluster:
        stack = BalancedStack(cluster.url, log_dir, nodes=2)
        stack.env.update({
            "BGB_QUEUE_URL": cluster.queue_url, "BGB_MIN_REPLICAS": str(replicas),
            "BGB_REPLICA_TIMEOUT_MS": "300", "BGB_REDIS_TIMEOUT": "1",
            "BGB_RATE_LIMIT_CREATE": "off", "BGB_RATE_LIMIT_MOVES": "off",
            "BGB_RATE_LIMIT_MOVES_PER_SEAT": "off", "BGB_RATE_LIMIT_READS": "off",
            "BGB_RATE_LIMIT_OTHER": "off", "BGB_MAX_BOT_GAMES_PER_CREATOR": "0"})
        try:
            stack.start_api()
            stack.start_worker()
            stack.start_worker()
            players = Players(stack.api_url)
            watchers = Watchers(stack.api_url, players)
            threads = [threading.Thread(target=players.play, daemon=True)
                       for _ in range(PLAYERS)]
            streams = [threading.Thread(target=watchers.watch, daemon=True)
                       for _ in range(WATCHERS)]
            for thread in [*threads, *streams]:
                thread.start()
            time.sleep(BEFORE_KILL)
            victim = next(port for port, role in sorted(cluster.roles().items())
                          if role == "master")
            # Its replica frozen a while before the master dies: the writes of that while
            # reach no replica (asynchronous replication at its worst), then the replica,
            # thawed, is promoted without them.
            replica = cluster.replica_of(victim)
            cluster.pause(replica)
            # ...and cut off (what the kernel holds in its socket for it is all it gets).
            redis.Redis(host="127.0.0.1", port=victim).client_kill_filter(_type="slave")
            time.sleep(LAGGING)
            before = len(players.acked)
            heard = watchers.events
            cluster.kill(victim)
            cluster.resume(replica)
            cluster.wait_healthy(timeout=60, replicas=0)
            time.sleep(AFTER_PROMOTION)
            players.stop.set()
            watchers.stop.set()
            for thread in [*threads, *streams]:
                thread.join(timeout=15)
            after = len(players.acked) - before
            assert not players.failures, (players.failures, stack.log("api-0"))
            assert before > 0 and after > 0, (before, after, stack.log("api-0"))
            # Both nodes served the players, and the watchers still hear moves once the
            # master died (their streams reopened where a failover broke them).
            served = stack.served()
            assert len(served) == 2 and all(count > 0 for count in served.values()), served
            assert heard < watchers.events, (heard, watchers.events)
            ended, gone = _verified(stack.api_url, players.games)
            assert ended > 0
            assert gone == 0 or replicas == 0, gone  # an acknowledged creation is kept too
            print(f"\nanswers by node: {served}; events streamed: {watchers.events} "
                  f"({heard} before the kill); games {len(players.games)}: {ended} over "
                  f"and their records verified, {gone} lost")
            client = redis.RedisCluster(host="127.0.0.1", port=cluster.alive()[0])
            lost = _lost(client, players.acked)
            client.close()
            return len(players.acked), lost, players.refused
        finally:
            stack.stop()


def test_no_acknowledged_move_is_lost_with_one_replica(tmp_path: Path) -> None:
    acked, lost, refused = _run(1, tmp_path)
    print(f"\nBGB_MIN_REPLICAS=1: {acked} moves acknowledged, {lost} lost, "
          f"{refused} attempts refused (503 or no connection) and retried")
    assert lost == 0


def test_without_replicas_the_loss_is_counted(tmp_path: Path) -> None:
    acked, lost, refused = _run(0, tmp_path)
    print(f"\nBGB_MIN_REPLICAS=0: {acked} moves acknowledged, {lost} lost, "
          f"{refused} attempts refused (503 or no connection) and retried")
    assert acked > 0
