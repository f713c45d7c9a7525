"""The queue Redis killed (-9) under a running worker, games created meanwhile (their first
turns could not be queued), then an empty queue Redis started on its port: every game still
ends (the sweeper finds each bot turn due in the cluster's index and queues it again) and
the worker, listening when the queue Redis was lost, waited for it and carries on.

Then the same loss in the middle of play, on issue 29's topology and at the failover run's
scale (tests/cluster/playing.py): 200 bot and human games of the three rulebooks on two API
nodes behind HAProxy while watchers stream; every bot turn is played after all, every game
with bots only to its end, no acknowledged move is lost and every record verifies."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

import pytest
import redis
import requests
from rq import Worker

from tests.cluster.balanced import BalancedStack, haproxy
from tests.cluster.conftest import redis_cluster
from tests.cluster.playing import (
    GAMES,
    RANDOM_BOT,
    TABLES,
    UNLIMITED,
    Play,
    Table,
    Tables,
    heads,
    lost_moves,
)
from tests.e2e.conftest import Stack

pytestmark = [pytest.mark.cluster, pytest.mark.e2e]

CREATED_MEANWHILE = 8  # bot games created while the queue Redis is gone
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
            for _ in range(CREATED_MEANWHILE):
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


# The first games created have a bot in every seat (BOTS_ONLY of each rulebook) and are
# played to their end; the others are the failover run's tables (a human seat or two,
# played by the player threads, against a `random` bot or each other). Not all of them to
# their end: a game is about 285 moves and this topology played about 85 a second on two
# cores shared with other tests, so 200 games would take some 11 minutes.
BOTS_ONLY = 3
KINDS: Tables = [
    *[(game, options, [RANDOM_BOT] * options["players"]) for game, options in (
        ("darwins-journey", {"players": 2}), ("encyclopedia", {"players": 2}),
        ("flotilla", {"players": 3}))] * BOTS_ONLY,
    *TABLES * GAMES][:GAMES]


@pytest.mark.skipif(haproxy() is None, reason="no haproxy here (Debian's `apt-get install "
                    "haproxy`): the API nodes need a balancer")
@pytest.mark.slow
def test_every_game_goes_on_when_the_queue_redis_dies_mid_play(tmp_path: Path) -> None:
    """Issue 29's topology (two API nodes behind HAProxy, two workers through it) while
    the failover run's players and watchers play GAMES games; the queue Redis killed (-9)
    in the middle, an empty one started on its port after a while. Workers that RQ's loop
    ended on the lost connection are started again, as `bgb serve` and compose restart
    them. Every bot turn due when the queue died, or that came due while it was gone, is
    played after all, every game with bots only plays to its end, no acknowledged move is
    lost, and every record verifies once the games with a human seat are ended as the
    failover run ends them (playing them all out would take the players minutes)."""
    with redis_cluster.LocalCluster() as cluster:
        stack = BalancedStack(cluster.url, tmp_path, nodes=2)
        stack.env.update({"BGB_QUEUE_URL": cluster.queue_url, **UNLIMITED})
        play = Play(stack.api_url, KINDS)
        players = play.players
        try:
            stack.start_api()
            stack.start_worker()
            stack.start_worker()
            play.start()
            heard = play.watchers.events
            cluster.kill(cluster.queue_port)
            # The turns the lost queue held (or a worker was playing) must be played after
            # all.
            due = _bot_turns(stack.api_url, players.tables)
            assert due  # the games with bots only, at least
            time.sleep(OUTAGE_SECONDS)
            during = len(players.acked)
            cluster.restart_queue()
            restarted = _wait_past(stack, due)
            play.stop()
            # Human moves played while the queue was gone could queue no bot turn: the
            # sweeper finds those too. The games with bots only play to their end.
            later = _bot_turns(stack.api_url, players.tables)
            bots_only = [table.game_id for table in players.tables if not table.tokens]
            restarted += _wait_past(stack, {**later, **dict.fromkeys(bots_only)})
            served = stack.served()
            ended, gone = play.wind_up(stack.api_url, served, heard)
            assert (ended, gone) == (GAMES, 0), (ended, gone)
            client = redis.RedisCluster(host="127.0.0.1", port=cluster.alive()[0])
            missing = lost_moves(client, players.acked)
            client.close()
            assert missing == 0, missing
            moves = sum(version for version, _, _ in
                        heads(stack.api_url, players.tables).values())
            print(f"\nqueue Redis lost for {OUTAGE_SECONDS:.0f} s: {GAMES} games "
                  f"({len(bots_only)} with bots only, played to their end), "
                  f"{moves} moves in all, {len(players.acked)} of them acknowledged to the "
                  f"players ({during} when the queue came back), 0 lost; {len(due)} bot "
                  f"turns due when it died and {len(later)} after the players stopped, "
                  f"each played; {ended} records verified; {restarted} workers started "
                  f"again; {play.watchers.events} events streamed; answers by node: "
                  f"{served}")
        finally:
            play.stop()
            stack.stop()


def _bot_turns(api_url: str, tables: list[Table]) -> dict[str, int]:
    """The games of `tables` at a bot's turn, each at its version."""
    now = heads(api_url, tables)
    return {table.game_id: now[table.game_id][0] for table in tables
            if now[table.game_id][2] == "active" and now[table.game_id][1] in table.bots}


def _wait_past(stack: BalancedStack, behind: Mapping[str, int | None],
               timeout: float = 120.0) -> int:
    """Until every game of `behind` is past the version it names there (None: until it
    ended), starting again each worker that ended meanwhile; how many were."""
    restarted = 0
    deadline = time.monotonic() + timeout
    pending = dict(behind)
    while pending:
        assert time.monotonic() < deadline, (pending, stack.log("worker-0"))
        restarted += stack.restart_stopped_workers()
        for game_id, version in list(pending.items()):
            game = requests.get(f"{stack.api_url}/v1/games/{game_id}", timeout=10).json()
            if game["status"] != "active" or (
                    version is not None and int(game["version"]) > version):
                del pending[game_id]
        time.sleep(0.5)
    return restarted
