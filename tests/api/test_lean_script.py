"""The store's read and commit scripts run on a pooled connection directly
(`api.lean_script`): the same replies as redis-py's Script, and the same recovery from a
restarted Redis (its scripts and its connections gone)."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from api.lean_script import Held, LeanScript, retry_policy

_ECHO = "return {KEYS[1], ARGV[1], tonumber(ARGV[2]) + 1}"


def _pooled(redis_url: str) -> redis.Redis:
    return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
        redis_url, max_connections=4, timeout=1, socket_timeout=1, retry=retry_policy()))


def test_a_lean_call_answers_as_the_clients_script(redis_client: redis.Redis,
                                                   redis_url: str) -> None:
    client = _pooled(redis_url)
    lean, plain = LeanScript(client, _ECHO), client.register_script(_ECHO)
    assert lean(keys=["k"], args=["é", 41]) == plain(keys=["k"], args=["é", 41]) \
        == [b"k", "é".encode(), 42]


def test_a_script_redis_lost_is_loaded_again(redis_client: redis.Redis,
                                             redis_url: str) -> None:
    lean = LeanScript(_pooled(redis_url), _ECHO)
    assert lean(keys=["k"], args=["a", 1])[2] == 2
    redis_client.script_flush()  # as after a restart
    assert lean(keys=["k"], args=["a", 2])[2] == 3


def test_a_held_connection_redis_dropped_is_replaced(redis_client: redis.Redis,
                                                    redis_url: str) -> None:
    client = _pooled(redis_url)
    lean = LeanScript(client, _ECHO)
    assert lean(keys=["k"], args=["a", 1])[2] == 2
    # Redis drops the connection the call holds (as a restart would): the next call breaks
    # on it, gives it back, and goes through on one from the pool.
    [held] = lean.held._idle
    host, port = held._sock.getsockname()[:2]
    assert redis_client.client_kill_filter(addr=f"{host}:{port}") == 1
    assert lean(keys=["k"], args=["a", 5])[2] == 6


def test_held_connections_stay_few_and_a_fork_takes_its_own(redis_client: redis.Redis,
                                                            redis_url: str) -> None:
    client = _pooled(redis_url)
    held = Held(client.connection_pool, keep=2)
    taken = [held.take() for _ in range(4)]
    for connection in taken:
        held.give(connection)
    assert held._idle == taken[:2]  # the other two went back to the pool
    held._pid = -1  # as in a child after a fork: the parent's connections are not used
    assert held.take() not in taken[:2] and held._idle == []


def test_a_connection_that_breaks_mid_call_is_retried_once_on_a_new_one(
        redis_client: redis.Redis, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    client = _pooled(redis_url)
    lean = LeanScript(client, _ECHO)
    broken: list[int] = []
    send = redis.Connection.send_command

    def breaking(connection: redis.Connection, *args: Any, **kwargs: Any) -> None:
        if args[0] == "EVALSHA" and len(broken) < failures:
            broken.append(id(connection))
            connection.disconnect()
            raise redis.ConnectionError("connection reset mid-call")
        send(connection, *args, **kwargs)

    monkeypatch.setattr(redis.Connection, "send_command", breaking)
    failures = 1
    assert lean(keys=["k"], args=["a", 1])[2] == 2 and len(broken) == 1
    broken.clear()
    failures = 2  # broken again on the new connection: raised, never a third try
    with pytest.raises(redis.ConnectionError):
        lean(keys=["k"], args=["a", 1])
    assert len(broken) == 2


def test_errors_of_the_script_are_raised_and_the_connection_kept(
        redis_client: redis.Redis, redis_url: str) -> None:
    client = _pooled(redis_url)
    failing = LeanScript(client, "return redis.error_reply('NOPE refused')")
    for _ in range(3):  # more calls than the pool holds connections: each was released
        try:
            failing(keys=[], args=[])
        except redis.ResponseError as error:
            assert "refused" in str(error)
        else:
            raise AssertionError("the script's error was not raised")
    assert LeanScript(client, _ECHO)(keys=["k"], args=["a", 0])[2] == 1


def test_the_retry_policy_never_retries_a_timeout() -> None:
    policy = retry_policy()
    assert policy.get_retries() == 1
    assert redis.ConnectionError in policy._supported_errors
    assert not any(issubclass(redis.TimeoutError, error)
                   for error in policy._supported_errors)
