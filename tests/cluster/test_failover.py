"""A master of the cluster killed (-9) while games are played: its replica takes over and,
with BGB_MIN_REPLICAS=1, every acknowledged move is still in its game's log.

The topology of issue 29 on loopback: 3 masters + 3 replicas, a queue Redis, two API nodes
(gunicorn, as `bgb serve` runs it) behind HAProxy (deploy/haproxy-cluster.cfg) and two bot
workers reaching the API through it. Players (tests/cluster/playing.py) create 200 games of
the three rulebooks (human seats against a `random` bot or each other) and play a move in
each in turn, posting with an Idempotency-Key and retrying on 503 or a broken connection,
as the SDK does; each 200 is an acknowledged move, looked for in
the log afterwards. Watchers stream the games' events meanwhile, through the proxy too. The
same run with BGB_MIN_REPLICAS=0 prints how many it lost: the doomed master's replica is
frozen for a moment before the master dies (replication is asynchronous: what that master
acknowledged meanwhile is gone).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis

from tests.cluster.balanced import BalancedStack, haproxy
from tests.cluster.conftest import redis_cluster
from tests.cluster.playing import GAMES, UNLIMITED, Play, lost_moves

pytestmark = [pytest.mark.cluster, pytest.mark.e2e,
              pytest.mark.skipif(haproxy() is None, reason="no haproxy here (Debian's "
                                 "`apt-get install haproxy`): the API nodes need a balancer")]

LAGGING = 1.5  # seconds the doomed master's replica is frozen before the master dies
AFTER_PROMOTION = 4.0  # seconds of play once its replica took over
# "A few seconds of 503": how long a player may go from a refused attempt to an answer.
# Promotion takes about twice the cluster's node timeout (1 s, tools/redis_cluster.py),
# the replica is frozen LAGGING seconds first and an attempt may hang up to its 5 s timeout.
# With BGB_MIN_REPLICAS=1 the promoted replica has no replica of its own: its shard refuses
# every write (nothing it acknowledged could survive its loss) until the dead node is back as
# its replica, so there the bound counts from that node's return.
REFUSED_AT_MOST = 15.0


def _run(replicas: int, log_dir: Path) -> tuple[int, int, int]:
    """Play, kill a master, play on; (acknowledged moves, lost ones, refused attempts)."""
    with redis_cluster.LocalCluster() as cluster:
        stack = BalancedStack(cluster.url, log_dir, nodes=2)
        stack.env.update({
            "BGB_QUEUE_URL": cluster.queue_url, "BGB_MIN_REPLICAS": str(replicas),
            "BGB_REPLICA_TIMEOUT_MS": "300", "BGB_REDIS_TIMEOUT": "1", **UNLIMITED})
        play = Play(stack.api_url)
        try:
            stack.start_api()
            stack.start_worker()
            stack.start_worker()
            # Every game created and each played a while before the master dies.
            play.start()
            players, watchers = play.players, play.watchers
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
            play.stop()
            after = len(players.acked) - before
            assert before > 0 and after > 0, (before, after, stack.log("api-0"))
            served = stack.served()
            ended, gone = play.wind_up(stack.api_url, served, heard)
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
            missing = lost_moves(client, players.acked)
            client.close()
            return len(players.acked), missing, players.refused
        finally:
            play.stop()
            stack.stop()


@pytest.mark.slow
def test_no_acknowledged_move_is_lost_with_one_replica(tmp_path: Path) -> None:
    acked, lost, refused = _run(1, tmp_path)
    print(f"\nBGB_MIN_REPLICAS=1: {acked} moves acknowledged, {lost} lost, "
          f"{refused} attempts refused (503 or no connection) and retried")
    assert lost == 0


@pytest.mark.slow
def test_without_replicas_the_loss_is_counted(tmp_path: Path) -> None:
    acked, lost, refused = _run(0, tmp_path)
    print(f"\nBGB_MIN_REPLICAS=0: {acked} moves acknowledged, {lost} lost, "
          f"{refused} attempts refused (503 or no connection) and retried")
    assert acked > 0
