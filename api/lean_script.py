"""A Lua script run on a pooled Redis connection directly: the two commands every read and
move sends (`api.store`'s read and commit).

redis-py's client wraps each command in layers these two do not use: a retry loop,
observability hooks (no-ops unless a provider is configured), checks of deprecated
arguments, response callbacks. Under gevent they cost more CPU than the command's own I/O:
on the development VM, a script call through the client took ~150 us of CPU, the same call
on a pooled connection ~100, a bare socket round trip ~40 (`bench/redis_calls.py`).

A call here keeps what matters of the client's behaviour: the pool and its bounded wait for
a free connection, the connection's timeouts, health checks and parser (a reply of an error
raises its exception; a timeout or a broken connection disconnects it), the same retry
policy as the client's (`retry_policy`: a dead pooled connection is replaced and the
command sent once more, a timeout is never retried), and SCRIPT LOAD when Redis has lost the
script (a restart).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError
from redis.retry import Retry


def retry_policy() -> Retry:
    """The API's Redis retry policy: a command that met a dead connection (Redis restarted,
    an idle connection cut) is sent once more at once on a new one; a timeout is not retried,
    so a hung Redis costs a request one timeout (BGB_REDIS_TIMEOUT), never several.

    redis-py 6 and later retry timeouts three times with seconds of backoff by default:
    a hung Redis then held each request several seconds."""
    return Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))


class LeanScript:
    """A registered Lua script, called with its keys and arguments on a pooled connection."""

    def __init__(self, client: redis.Redis, text: str) -> None:
        self.pool = client.connection_pool
        self.script = client.register_script(text)  # its SHA1, and its text to load again

    def __call__(self, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """The script's reply (EVALSHA), as the client's call would give it."""
        for attempt in (0, 1):
            connection = self.pool.get_connection()
            try:
                return self._run(connection, keys, args)
            except redis.ConnectionError:
                # The connection disconnected itself; the pool makes a new one.
                if attempt:
                    raise
            finally:
                self.pool.release(connection)
        raise AssertionError("unreachable")

    def _run(self, connection: Any, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        try:
            connection.send_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
            return connection.read_response()
        except NoScriptError:
            # Redis lost its scripts (a restart, SCRIPT FLUSH): load it and call it again.
            connection.send_command("SCRIPT", "LOAD", self.script.script)
            sha = connection.read_response()
            self.script.sha = sha.decode() if isinstance(sha, bytes) else sha
            connection.send_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
            return connection.read_response()
