"""The settings registry (`api.settings`) lists every variable the code reads, with the
defaults the code uses, and the docs' configuration table is the one generated from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api import settings

REPO = Path(__file__).resolve().parents[1]
CODE = ("api", "ai_worker", "clients", "core")
# A whole BGB_ name: one that ends in "_" is a prefix an f-string completes (its full names
# appear elsewhere in the code, which this test finds).
NAME = re.compile(r"\b(BGB_[A-Z0-9_]*[A-Z0-9]|REDIS_URL|TEST_REDIS_URL)\b")
CONFIGURATION_PAGE = REPO / "docs" / "operating.md"


def names_in(folders: tuple[str, ...]) -> dict[str, str]:
    """Each setting name found in the Python files of `folders` (the registry itself left
    out) -> one file naming it."""
    registry = REPO / "api" / "settings.py"
    found: dict[str, str] = {}
    for folder in folders:
        for path in sorted((REPO / folder).rglob("*.py")):
            if path == registry:
                continue
            for name in NAME.findall(path.read_text(encoding="utf-8")):
                found.setdefault(name, str(path.relative_to(REPO)))
    return found


def test_every_name_the_code_reads_is_in_the_registry() -> None:
    registered = {setting.name for setting in settings.SETTINGS}
    missing = {name: where for name, where in names_in(CODE).items() if name not in registered}
    assert not missing, f"add these to api/settings.py SETTINGS: {missing}"


def test_every_registered_name_is_read_somewhere() -> None:
    used = names_in((*CODE, "tests"))
    stale = [setting.name for setting in settings.SETTINGS if setting.name not in used]
    assert not stale, f"settings nothing reads (remove them from api/settings.py): {stale}"


def test_registry_defaults_are_the_code_defaults() -> None:
    """Where a module keeps its own default, it is the registry's."""
    from ai_worker import worker
    from api import DEFAULTS, limits, notify, parse_duration, tournaments, watchers
    from clients import sdk

    for name, (variable, default) in limits.SETTINGS.items():
        assert settings.by_name(variable).default == str(default), name
    for name in ("ABANDON_AFTER", "RETAIN_FINISHED"):
        assert parse_duration(settings.by_name(f"BGB_{name}").default) == DEFAULTS[name]
    assert float(settings.by_name("BGB_REDIS_TIMEOUT").default) == DEFAULTS["REDIS_TIMEOUT"]
    assert int(settings.by_name("BGB_MAX_WATCHERS").default) == watchers.DEFAULT_MAX_WATCHERS
    assert int(settings.by_name("BGB_MAX_STREAMS_PER_CLIENT").default) == \
        watchers.DEFAULT_MAX_STREAMS_PER_CLIENT
    assert int(settings.by_name("BGB_MAX_TOURNAMENTS").default) == tournaments.DEFAULT_MAX_ACTIVE
    assert settings.by_name("BGB_WEBHOOK_RETRY_INTERVALS").default == \
        ",".join(str(seconds) for seconds in notify.RETRY_INTERVALS)
    assert settings.by_name("BGB_API_URL").default == sdk.DEFAULT_URL
    assert settings.by_name("REDIS_URL").default == worker.DEFAULT_REDIS_URL


def test_value_reads_the_environment_else_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BGB_WORKER_NICE", " 3 ")
    assert settings.value("BGB_WORKER_NICE") == "3"
    monkeypatch.setenv("BGB_WORKER_NICE", "")
    assert settings.value("BGB_WORKER_NICE") == "10"
    monkeypatch.delenv("BGB_WORKER_NICE")
    assert settings.value("BGB_WORKER_NICE") == "10"
    with pytest.raises(KeyError):
        settings.value("BGB_NOT_A_SETTING")


def test_the_docs_table_is_the_generated_one() -> None:
    page = CONFIGURATION_PAGE.read_text(encoding="utf-8")
    table = settings.table_in(page)
    assert table is not None, f"{CONFIGURATION_PAGE} lost its settings-table markers"
    assert table == settings.markdown_table(), (
        "the configuration table differs from api/settings.py: run "
        "`python -m api.settings --write docs/operating.md`")
    for setting in settings.SETTINGS:
        assert f"`{setting.name}`" in table
