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


def test_a_weights_variant_plays_with_its_own_evaluation_weights(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench()
    from ai_worker.bots import eval_darwins_journey as ev

    fitted = tmp_path / "fitted.json"
    data = json.loads(ev.WEIGHTS_FILE.read_text())
    shipped = data["weights"]["worker5"]
    changed = data["weights"]["worker5"] = shipped + 2.0
    fitted.write_text(json.dumps(data))
    used: list[Path] = []
    real = ev.use_weights
    monkeypatch.setattr(ev, "use_weights", lambda path: (used.append(Path(path)), real(path)))
    state = tmp_path / "tune.jsonl"
    args = ["--iterations", "2", "--games", "1", "--variant", "base={}",
            "--variant", f'fit={{"weights": "{fitted}"}}', "--state", str(state)]
    try:
        assert bench.main(args) == 0
        assert ev.WEIGHTS[ev.FEATURES.index("worker5")] == changed  # the last game: `fit`'s
    finally:
        real(ev.WEIGHTS_FILE)
    assert ev.WEIGHTS[ev.FEATURES.index("worker5")] == shipped
    # each game is played with its variant's weights; the base with the shipped file
    assert used == [ev.WEIGHTS_FILE, fitted]
    records = [json.loads(line) for line in state.read_text().splitlines()]
    assert '"weights"' not in records[0]["matchup"] and '"weights"' in records[1]["matchup"]
    with pytest.raises(SystemExit):  # another game's evaluation has no such weights
        bench.main(["--game", "toy-pontoon", "--options", '{"players": 1}', "--state",
                    str(tmp_path / "t.jsonl"), "--variant", f'x={{"weights": "{fitted}"}}'])
