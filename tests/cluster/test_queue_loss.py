"""The queue Redis killed (-9) under a running worker, games created meanwhile (their first
turns could not be queued), then an empty queue Redis started on its port: every game still
ends (the sweeper finds each bot turn due in the cluster's index and queues it again) and
the worker, listening when the queue Redis was lost, waited for it and carries on.

Then the same loss in the middle of play, on issue 29's topology: bot and human games of the
three rulebooks on two API nodes behind HAProxy, each played to its end and its record
verified."""

from __future__ import annotations

import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from rq import Worker

from clients.cli import worker_command
from clients.verify import verify_record
from tests.cluster.balanced import BalancedStack, haproxy
from tests.cluster.conftest import redis_cluster
from tests.e2e.conftest import Stack

pytestmark = [pytest.mark.cluster, pytest.mark.e2e]

GAMES = 8
OUTAGE_SECONDS = 5.0


def test_every_game_ends_after_the_queue_redis_is_lost(tmp_path: Path) -> None:
    with redis_cluster.LocalCluster() as cluster:
        stack = Stack(cluster.url, tmp_path)
        stack.env.update({"BGB_QUEUE_URL": cluster.queue_url, "BGB_RATE_LIMIT_CREATE": "off",
                          "BGB_MAX_BOT_GAMES_PER_CREATOR": "0"})
        try:
            stack.start_api()
            stack.start_worker()
            queues = redis.Redis.from_url(cluster.queue_url)
            started = time.monotonic() + 60
            # The worker listening on its queues (RQ's documented worker information): a queue
            # Redis lost while RQ's worker starts or between two jobs ends the worker (RQ's loop
            # quits on the error; `bgb serve` and compose restart it), one lost while it
            # listens it waits for.
            while not any(w.get_state() == "idle" for w in Worker.all(connection=queues)):
                assert time.monotonic() < started, stack.log("worker-0")
                time.sleep(0.2)
            cluster.kill(cluster.queue_port)
            bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
            ids = []
            for _ in range(GAMES):
                created = requests.post(stack.api_url + "/v1/games", timeout=10, json={
                    "game": "toy-pontoon", "options": {"players": 2}, "seats": bots})
                assert created.status_code == 201, created.text
                ids.append(created.json()["id"])
            # Down a while: the listening worker waits (RQ's dequeue retries with a back-off).
            time.sleep(OUTAGE_SECONDS)
            for game_id in ids:  # nothing could be played
                assert requests.get(f"{stack.api_url}/v1/games/{game_id}",
                                    timeout=10).json()["version"] == 0
            cluster.restart_queue()
            deadline = time.monotonic() + 90
            pending = set(ids)
            while pending and time.monotonic() < deadline:
                for game_id in list(pending):
                    read = requests.get(f"{stack.api_url}/v1/games/{game_id}", timeout=10)
                    if read.status_code == 200 and read.json()["status"] != "active":
                        pending.discard(game_id)
                time.sleep(0.5)
            assert not pending, (pending, stack.log("worker-0"))
            assert stack.workers[0].poll() is None, stack.log("worker-0")
        finally:
            stack.stop()


# The three rulebooks, every seat a `random` bot, and one game of each with a human seat
# (seat 0) that a player thread plays with random legal moves.
RULEBOOKS: list[tuple[str, dict[str, Any]]] = [
    ("darwins-journey", {"players": 2}), ("encyclopedia", {"players": 2}),
    ("flotilla", {"players": 3})]
BOT_GAMES = 2  # of each rulebook


class Human:
    """A thread playing seat 0 of its games with random legal moves to their end, each move
    posted with an Idempotency-Key and retried on a 503 or a broken connection."""

    def __init__(self, api_url: str, games: dict[str, str]) -> None:
        self.api_url = api_url
        self.games = games  # id -> seat 0's token
        self.moves = 0
        self.failures: list[str] = []
        self.stop = threading.Event()

    def _send(self, method: str, path: str, token: str, **options: Any) -> requests.Response:
        while not self.stop.is_set():
            try:
                answer = requests.request(method, self.api_url + path, timeout=10, headers={
                    "Authorization": f"Bearer {token}", **options.pop("headers", {})},
                    **options)
                if answer.status_code != 503:
                    return answer
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise RuntimeError("stopped")

    def play(self) -> None:
        rng = random.Random(7)
        try:
            while self.games and not self.stop.is_set():
                for game_id, token in list(self.games.items()):
                    game = self._send("GET", f"/v1/games/{game_id}", token).json()
                    if game["status"] != "active":
                        del self.games[game_id]
                    elif game["to_act"] == 0:
                        answer = self._send(
                            "POST", f"/v1/games/{game_id}/moves", token,
                            json={"move": rng.choice(game["legal_moves"]),
                                  "version": game["version"]},
                            headers={"Idempotency-Key": uuid.uuid4().hex})
                        assert answer.status_code in (200, 409), answer.text  # 409: stale
                        self.moves += answer.status_code == 200
                time.sleep(0.05)
        except Exception as failure:  # noqa: BLE001 - the test reports it
            if not self.stop.is_set():
                self.failures.append(repr(failure))


@pytest.mark.skipif(haproxy() is None, reason="no haproxy here (Debian's `apt-get install "
                    "haproxy`): the API nodes need a balancer")
def test_every_game_of_the_rulebooks_ends_when_the_queue_redis_dies_mid_play(
        tmp_path: Path) -> None:
    """Issue 29's topology (two API nodes behind HAProxy, two workers through it) playing
    bot and human games of the three rulebooks; the queue Redis killed (-9) while they play,
    an empty one started after a while. Workers that RQ's loop ended on the lost connection
    are started again, as `bgb serve` and compose restart them. Every game ends, and every
    record verifies (its deal, every move replayed, its result)."""
    with redis_cluster.LocalCluster() as cluster:
        stack = BalancedStack(cluster.url, tmp_path, nodes=2)
        stack.env.update({
            "BGB_QUEUE_URL": cluster.queue_url, "BGB_RATE_LIMIT_CREATE": "off",
            "BGB_RATE_LIMIT_MOVES": "off", "BGB_RATE_LIMIT_MOVES_PER_SEAT": "off",
            "BGB_RATE_LIMIT_READS": "off", "BGB_RATE_LIMIT_OTHER": "off",
            "BGB_MAX_BOT_GAMES_PER_CREATOR": "0"})
        human: Human | None = None
        try:
            stack.start_api()
            stack.start_worker()
            stack.start_worker()
            ids, tokens = [], {}
            for game, options in RULEBOOKS:
                bots = [{"kind": "bot", "bot": "random"}] * options["players"]
                for seats in [bots] * BOT_GAMES + [[{"kind": "human"}, *bots[1:]]]:
                    created = requests.post(stack.api_url + "/v1/games", timeout=10, json={
                        "game": game, "options": options, "seats": seats})
                    assert created.status_code == 201, created.text
                    body = created.json()
                    ids.append(body["id"])
                    if seats[0]["kind"] == "human":
                        tokens[body["id"]] = body["seats"][0]["token"]
            human = Human(stack.api_url, dict(tokens))
            player = threading.Thread(target=human.play, daemon=True)
            player.start()
            started = time.monotonic() + 60
            while not all(_version(stack, game_id) > 0 for game_id in ids):
                assert time.monotonic() < started, [stack.log(f"worker-{i}") for i in (0, 1)]
                time.sleep(0.2)
            cluster.kill(cluster.queue_port)
            time.sleep(OUTAGE_SECONDS)
            during = sum(_version(stack, game_id) for game_id in ids)
            cluster.restart_queue()
            restarted = 0
            deadline = time.monotonic() + 150
            pending = set(ids)
            while pending and time.monotonic() < deadline:
                for index, worker in enumerate(stack.workers):
                    if worker.poll() is not None:  # a supervisor starts it again
                        stack.workers[index] = stack._spawn(worker_command(),
                                                            f"worker-{index}")
                        restarted += 1
                for game_id in list(pending):
                    read = requests.get(f"{stack.api_url}/v1/games/{game_id}", timeout=10)
                    if read.status_code == 200 and read.json()["status"] != "active":
                        pending.discard(game_id)
                time.sleep(0.5)
            assert not pending, (pending, human.failures, stack.log("worker-0"))
            assert not human.failures, human.failures
            verified = 0
            for game_id in ids:
                record = requests.get(f"{stack.api_url}/v1/games/{game_id}/record", timeout=10)
                assert record.status_code == 200, (game_id, record.text)
                report = verify_record(record.json())
                assert report.ok, (game_id, report.faults)
                verified += 1
            moves = sum(_version(stack, game_id) for game_id in ids)
            print(f"\nqueue Redis lost for {OUTAGE_SECONDS:.0f} s: {len(ids)} games of the "
                  f"three rulebooks ({len(tokens)} with a human seat, {human.moves} human "
                  f"moves), {during} versions when it came back, {moves} at the end; all "
                  f"ended, {verified} records verified; {restarted} workers started again")
        finally:
            if human is not None:
                human.stop.set()
            stack.stop()


def _version(stack: Stack, game_id: str) -> int:
    return int(requests.get(f"{stack.api_url}/v1/games/{game_id}", timeout=10)
               .json()["version"])
