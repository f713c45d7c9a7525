"""bench/tune_mcts.py plays paired deals per variant, records, resumes and refuses bad input."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    path = ROOT / "bench" / "tune_mcts.py"
    spec = importlib.util.spec_from_file_location("bench_tune_mcts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_tune_mcts"] = module
    spec.loader.exec_module(module)
    return module


def test_variants_play_the_same_deals_and_resume(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    bench = _bench()
    state = tmp_path / "tune.jsonl"
    args = ["--game", "toy-pontoon", "--options", '{"players": 1}', "--iterations", "5",
            "--games", "2", "--variant", "base={}", "--variant", 'wide={"c": 0.5}',
            "--state", str(state)]
    assert bench.main(args) == 0
    records = [json.loads(line) for line in state.read_text().splitlines()]
    assert len(records) == 4
    # deal by deal, each variant in turn, on the same seeds
    assert [(r["matchup"].split("/")[2], r["seed"]) for r in records] == [
        ("base", 1000), ("wide", 1000), ("base", 1001), ("wide", 1001)]
    assert '"c":0.5' in records[1]["matchup"] and '"iterations":5' in records[1]["matchup"]
    out = capsys.readouterr().out
    assert "paired diff" in out and "(2 deals)" in out
    assert bench.main(args) == 0  # resumed: nothing left to play
    assert len(state.read_text().splitlines()) == 4


def test_bad_variants_and_tables_are_refused(tmp_path: Path) -> None:
    bench = _bench()
    state = ["--state", str(tmp_path / "t.jsonl"), "--game", "toy-pontoon"]
    for bad in (["--variant", "no-equals-sign"], ["--variant", "x=[1]"],
                ["--options", '{"players": 2}'], ["--shard", "2/2"]):
        with pytest.raises(SystemExit):
            bench.main([*state, "--options", '{"players": 1}', *bad])
    assert not (tmp_path / "t.jsonl").exists() or not (tmp_path / "t.jsonl").read_text()
