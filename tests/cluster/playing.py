"""Games played through issue 29's topology while a part of it dies (tests/cluster's
failover and queue-loss runs): player threads that create GAMES games of the three rulebooks
and play a move in each of their human seats' games in turn, as the SDK does (an
Idempotency-Key, a retry on 503 or a broken connection), recording each acknowledged move;
watcher threads streaming the games' events; and the checks made afterwards (every
acknowledged move still stored, every ended game's record verified)."""

from __future__ import annotations

import random
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

import redis
import requests

from api.store import Store
from clients.verify import verify_record

PLAYERS = 4  # threads, each playing its share of the games in turn
GAMES = 200  # bot and human games of the three rulebooks
# Each table: a game, its options and its seats (kind "human": a seat the thread plays).
Tables = list[tuple[str, dict[str, Any], list[dict[str, Any]]]]
RANDOM_BOT = {"kind": "bot", "bot": "random"}
TABLES: Tables = [
    ("darwins-journey", {"players": 2}, [{"kind": "human"}, RANDOM_BOT]),
    ("encyclopedia", {"players": 2}, [{"kind": "human"}, {"kind": "human"}]),
    ("flotilla", {"players": 3}, [{"kind": "human"}, RANDOM_BOT, {"kind": "human"}]),
    ("darwins-journey", {"players": 2}, [{"kind": "human"}, {"kind": "human"}]),
    ("encyclopedia", {"players": 2}, [{"kind": "human"}, RANDOM_BOT]),
]
WATCHERS = 4  # threads, each streaming one game's events after another
# The API's settings of these runs: no rate limit (every player, watcher and worker is one
# address, 127.0.0.1) and no cap on one creator's bot games.
UNLIMITED = {
    "BGB_RATE_LIMIT_CREATE": "off", "BGB_RATE_LIMIT_MOVES": "off",
    "BGB_RATE_LIMIT_MOVES_PER_SEAT": "off", "BGB_RATE_LIMIT_READS": "off",
    "BGB_RATE_LIMIT_OTHER": "off", "BGB_MAX_BOT_GAMES_PER_CREATOR": "0"}


@dataclass
class Table:
    """One game a player thread plays: its id, the tokens of its human seats (none: its
    bots play it all), its creator's token, its number of seats and its bots' seats."""

    game_id: str
    tokens: dict[int, str]
    creator: str
    seats: int
    bots: frozenset[int]


class Players:
    """Threads creating their share of GAMES games of `tables` (in turn), then playing a
    move in each with a human seat in turn, recording every acknowledged move and the
    longest run of refused attempts."""

    def __init__(self, api_url: str, tables: Tables = TABLES) -> None:
        self.api_url = api_url
        self.kinds = tables
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
            game, options, seats = self.kinds[number % len(self.kinds)]
            created = self._send("POST", "/v1/games", json={
                "game": game, "options": options, "seats": seats})
            if created is None:
                return
            assert created.status_code == 201, created.text
            body = created.json()
            table = Table(body["id"], {s["seat"]: s["token"] for s in body["seats"]
                                       if s["kind"] == "human"}, body["creator_token"],
                          len(body["seats"]), frozenset(s["seat"] for s in body["seats"]
                                                        if s["kind"] == "bot"))
            if table.tokens:
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
        """End every game with a human seat still running, so that its record can be
        verified: in a two-seat game its first human seat resigns; a three-seat game (where
        a resigned seat goes on as a bot) is aborted by its creator. Its bots end a game
        without a human seat."""
        for table in self.tables:
            if not table.tokens:
                continue
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
            # 404: a creation lost with its master (BGB_MIN_REPLICAS=0), counted by verified()
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


def lost_moves(client: redis.RedisCluster, acked: list[tuple[str, int, str]]) -> int:
    """How many acknowledged moves the store no longer holds: a move's Idempotency-Key record
    names its log entry (index and sha1), and stands only while the log holds that very
    entry (api.store); a move played again the same way after a rollback is not it."""
    store = Store(client)
    return sum(store.record(game_id, (seat, key)) is None for game_id, seat, key in acked)


def verified(api_url: str, games: set[str]) -> tuple[int, int]:
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


class Play:
    """The player and watcher threads on an API."""

    def __init__(self, api_url: str, tables: Tables = TABLES) -> None:
        self.players = Players(api_url, tables)
        self.watchers = Watchers(api_url, self.players)
        self._threads = [threading.Thread(target=self.players.play, args=(index,),
                                          daemon=True) for index in range(PLAYERS)]
        self._threads += [threading.Thread(target=self.watchers.watch, daemon=True)
                          for _ in range(WATCHERS)]

    def start(self, timeout: float = 120.0) -> None:
        """Start the threads; wait until every game is created and GAMES moves were
        acknowledged (each game played a while, on average)."""
        for thread in self._threads:
            thread.start()
        deadline = time.monotonic() + timeout
        players = self.players
        while len(players.games) < GAMES or len(players.acked) < GAMES:
            assert time.monotonic() < deadline and not players.failures, (
                len(players.games), len(players.acked), players.failures)
            time.sleep(0.2)

    def stop(self) -> None:
        """Stop the players and the watchers, waiting a while for each thread."""
        self.players.stop.set()
        self.watchers.stop.set()
        for thread in self._threads:
            if thread.ident is not None:  # started
                thread.join(timeout=15)

    def wind_up(self, api_url: str, served: dict[str, int], heard: int) -> tuple[int, int]:
        """Once stopped: no player failed, both API nodes served them (`served`: HAProxy's
        count), the watchers heard more than `heard` events (streams a loss broke were
        opened again); then every game with a human seat is ended and every record
        checked: `verified`'s (ended, gone)."""
        players = self.players
        assert not players.failures, players.failures
        assert len(served) == 2 and all(count > 0 for count in served.values()), served
        assert heard < self.watchers.events, (heard, self.watchers.events)
        players.end_all()
        return verified(api_url, players.games)


def heads(api_url: str, tables: list[Table]) -> dict[str, tuple[int, int | None, str]]:
    """Each table's game as it stands: (version, seat to act, status)."""
    found = {}
    for table in tables:
        game = requests.get(f"{api_url}/v1/games/{table.game_id}", timeout=10).json()
        found[table.game_id] = (int(game["version"]), game.get("to_act"), game["status"])
    return found
