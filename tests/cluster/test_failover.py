"""A master of the cluster killed (-9) while games are played: its replica takes over and,
with BGB_MIN_REPLICAS=1, every acknowledged move is still in its game's log.

The topology of issue 29 on loopback: 3 masters + 3 replicas, a queue Redis, two API nodes
(gunicorn, as `bgb serve` runs it) behind HAProxy (deploy/haproxy-cluster.cfg) and two bot
workers reaching the API through it. Players create 200 games of
the three rulebooks (human seats against a `random` bot or each other) and play a move in
each in turn, posting with an Idempotency-Key and retrying on 503 or a broken connection,
as the SDK does; each 200 is an acknowledged move, looked for in
the log afterwards. Watchers stream the games' events meanwhile, through the proxy too. The
same run with BGB_MIN_REPLICAS=0 prints how many it lost: the doomed master's replica is
frozen for a moment before the master dies (replication is asynchronous: what that master
acknowledged meanwhile is gone).
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from dataclasses import dataclass
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

PLAYERS = 4  # threads, each playing its share of the games in turn
GAMES = 200  # bot and human games of the three rulebooks, created before the kill
# Each table: a game, its options and its seats (None: a human seat the thread plays).
TABLES: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [
    ("darwins-journey", {"players": 2}, [{"kind": "human"}, {"kind": "bot", "bot": "random"}]),
    ("encyclopedia", {"players": 2}, [{"kind": "human"}, {"kind": "human"}]),
    ("flotilla", {"players": 3},
     [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}]),
    ("darwins-journey", {"players": 2}, [{"kind": "human"}, {"kind": "human"}]),
    ("encyclopedia", {"players": 2}, [{"kind": "human"}, {"kind": "bot", "bot": "random"}]),
]
WATCHERS = 4  # threads, each streaming one game's events after another
LAGGING = 1.5  # seconds the doomed master's replica is frozen before the master dies
AFTER_PROMOTION = 4.0  # seconds of play once its replica took over
# "A few seconds of 503": how long a player may go from a refused attempt to an answer.
# Promotion takes about twice the cluster's node timeout (1 s, tools/redis_cluster.py),
# the replica is frozen LAGGING seconds first and an attempt may hang up to its 5 s timeout.
# With BGB_MIN_REPLICAS=1 the promoted replica has no replica of its own: its shard refuses
# every write (nothing it acknowledged could survive its loss) until the dead node is back as
# its replica, so there the bound counts from that node's return.
REFUSED_AT_MOST = 15.0


@dataclass
class Table:
    """One game a player thread plays: its id, the tokens of its human seats, its
    creator's token and its number of seats."""

    game_id: str
    tokens: dict[int, str]
    creator: str
    seats: int


class Players:
    """Threads creating their share of GAMES games, then playing a move in each in turn,
    recording every acknowledged move and the longest run of refused attempts."""

    def __init__(self, api_url: str) -> None:
        self.api_url = api_url
        self.acked: list[tuple[str, int, str]] = []  # game, seat, Idempotency-Key
        self.refused = 0  # 503s and broken connections, each retried
        self.unavailable = 0  # of which 503s
        self.without_retry_after = 0  # 503s without a Retry-After header
        self.refusals: list[tuple[float, float]] = []  # (first refused, answered) monotonic
        self.tables: list[Table] = []
        self.stop = threading.Event()
        self.failures: list[str] = []  # what stopped a player thread
        self._lock = threading.Lock()

    @property
    def games(self) -> set[str]:
        """The ids of every game created so far."""
        with self._lock:
            return {table.game_id for table in self.tables}

    def _send(self, method: str, path: str, **options: Any) -> requests.Response | None:
        """The answer, retried while the API answers 503 or cannot be reached (None once
        stopped)."""
        first_refusal: float | None = None
        while not self.stop.is_set():
            try:
                answer = requests.request(method, self.api_url + path, timeout=5, **options)
            except requests.RequestException:
                answer = None
            if answer is not None and answer.status_code != 503:
                if first_refusal is not None:
                    with self._lock:
                        self.refusals.append((first_refusal, time.monotonic()))
                return answer
            with self._lock:
                self.refused += 1
                if answer is not None:
                    self.unavailable += 1
                    self.without_retry_after += "Retry-After" not in answer.headers
            if first_refusal is None:
                first_refusal = time.monotonic()
            time.sleep(0.2)
        return None

    def play(self, index: int) -> None:
        """Create this thread's share of the games, then play them in turn until stopped
        (a failure recorded)."""
        try:
            self._play(index)
        except Exception as failure:  # noqa: BLE001 - the test reports it
            with self._lock:
                self.failures.append(repr(failure))

    def _play(self, index: int) -> None:
        mine: list[Table] = []
        for number in range(index, GAMES, PLAYERS):
            game, options, seats = TABLES[number % len(TABLES)]
            created = self._send("POST", "/v1/games", json={
                "game": game, "options": options, "seats": seats})
            if created is None:
                return
            assert created.status_code == 201, created.text
            body = created.json()
            table = Table(body["id"], {s["seat"]: s["token"] for s in body["seats"]
                                       if s["kind"] == "human"}, body["creator_token"],
                          len(body["seats"]))
            mine.append(table)
            with self._lock:
                self.tables.append(table)
        while not self.stop.is_set():
            for table in mine:
                if self.stop.is_set():
                    return
                self._move(table)

    def _move(self, table: Table) -> None:
        """One move in `table`'s game when a human seat of it is to act."""
        read = self._send("GET", f"/v1/games/{table.game_id}",
                          headers=self._auth(next(iter(table.tokens.values()))))
        if read is None:
            return
        game = read.json()
        to_act = game.get("to_act")
        if game.get("status") != "active" or to_act not in table.tokens:
            return  # over, or the bot's turn
        auth = self._auth(table.tokens[to_act])
        if not game.get("legal_moves"):  # read with another seat's token
            again = self._send("GET", f"/v1/games/{table.game_id}", headers=auth)
            if again is None:
                return
            game = again.json()
            if game.get("to_act") != to_act or game.get("status") != "active":
                return
        key = uuid.uuid4().hex
        answer = self._send("POST", f"/v1/games/{table.game_id}/moves",
                            json={"move": game["legal_moves"][0], "version": game["version"]},
                            headers={**auth, "Idempotency-Key": key})
        if answer is not None and answer.status_code == 200:
            with self._lock:
                self.acked.append((table.game_id, to_act, key))

    def end_all(self) -> None:
        """End every game still running, so that its record can be verified: in a two-seat
        game its first human seat resigns; a three-seat game (where a resigned seat goes
        on as a bot) is aborted by its creator."""
        for table in self.tables:
            seat, token = next(iter(table.tokens.items()))
            if table.seats == 2:
                path, auth = "resign", self._auth(token)
            else:
                path, auth = "abort", self._auth(table.creator)
            for _ in range(50):  # a 503 (no replica confirmed it in time) is retried
                answer = requests.post(f"{self.api_url}/v1/games/{table.game_id}/{path}",
                                       json={}, headers=auth, timeout=10)
                if answer.status_code != 503:
                    break
                time.sleep(0.2)
            # A retried resignation or abort stored after all answers 409 (already over).
            # 404: a creation lost with its master (BGB_MIN_REPLICAS=0), counted by _verified
            assert answer.status_code in (200, 404, 409), (table.game_id, seat, answer.text)

    @staticmethod
    def _auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}


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
            threads = [threading.Thread(target=players.play, args=(index,), daemon=True)
                       for index in range(PLAYERS)]
            streams = [threading.Thread(target=watchers.watch, daemon=True)
                       for _ in range(WATCHERS)]
            for thread in [*threads, *streams]:
                thread.start()
            # Every game created and each played a while before the master dies.
            deadline = time.monotonic() + 120
            while len(players.games) < GAMES or len(players.acked) < GAMES:
                assert time.monotonic() < deadline and not players.failures, (
                    len(players.games), len(players.acked), players.failures)
                time.sleep(0.2)
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
            # The dead machine is restarted (empty): it comes back as the new master's
            # replica, and a shard that waited for one accepts writes again.
            cluster.rejoin(victim)
            rejoined = time.monotonic()
            cluster.wait_healthy(timeout=60)
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
            players.end_all()
            ended, gone = _verified(stack.api_url, players.games)
            assert ended == GAMES - gone, (ended, GAMES, gone)
            since = rejoined if replicas else 0.0
            longest = max((end - max(start, since) for start, end in players.refusals),
                          default=0.0)
            overall = max((end - start for start, end in players.refusals), default=0.0)
            assert longest <= REFUSED_AT_MOST, (longest, players.refusals)
            assert gone == 0 or replicas == 0, gone  # an acknowledged creation is kept too
            # Every 503 says when to come back (the API's and HAProxy's own).
            assert players.without_retry_after == 0, players.without_retry_after
            print(f"\nanswers by node: {served}; events streamed: {watchers.events} "
                  f"({heard} before the kill); games {len(players.games)}: {ended} over "
                  f"and their records verified, {gone} lost; longest run of refusals "
                  f"{overall:.1f} s" + (f", {max(0.0, longest):.1f} s once the dead node "
                                        "rejoined" if replicas else "")
                  + f"; {players.unavailable} of the refusals were 503 + Retry-After, "
                  f"{players.refused - players.unavailable} no answer")
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
