"""bench/fit_evaluation.py: its regression recovers known weights; a tiny run writes a file."""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_fit", ROOT / "bench" / "fit_evaluation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fit"] = module
    spec.loader.exec_module(module)
    return module


def _samples(bench: ModuleType, truth: dict[str, float], n: int = 400) -> list[list[float]]:
    """Synthetic samples whose final score is exactly truth . features + 10 + 30 t."""
    rng = random.Random(1)
    names = bench.ev.FEATURES
    out = []
    for _ in range(n):
        t = rng.choice([0.2, 0.4, 0.6, 0.8, 1.0])
        f = [rng.uniform(0, 10) for _ in names]
        final = sum(truth[name] * x for name, x in zip(names, f, strict=True)) + 10 + 30 * t
        out.append([0, t, *f, final])
    return out


def test_fit_recovers_the_weights_and_the_time_curve() -> None:
    bench = _bench()
    truth = {name: 1.0 + 0.1 * i for i, name in enumerate(bench.ev.FEATURES)}
    truth.update({"points": 1.0, "beagle_future": 1.0})
    current = dict.fromkeys(bench.ev.FEATURES, 1.0)
    weights, curve = bench.fit(_samples(bench, truth), current, ridge=0.0)
    assert weights == pytest.approx(truth, abs=1e-6)
    assert curve == pytest.approx([10.0, 30.0, 0.0], abs=1e-6)


def test_fit_never_gives_a_negative_weight() -> None:
    bench = _bench()
    truth = dict.fromkeys(bench.ev.FEATURES, 1.0)
    truth["coins"] = -2.0  # what a correlation in the samples might suggest
    current = dict.fromkeys(bench.ev.FEATURES, 1.0)
    weights, _ = bench.fit(_samples(bench, truth), current, ridge=0.0)
    assert weights["coins"] == 0.0
    assert min(weights.values()) >= 0.0


def test_a_tiny_run_writes_weights_for_every_feature(tmp_path: Path) -> None:
    bench = _bench()
    weights = tmp_path / "weights.json"
    shutil.copy(bench.ev.WEIGHTS_FILE, weights)
    state = tmp_path / "fit.jsonl"
    args = ["--games", "2", "--iterations", "2", "--every", "10", "--state", str(state),
            "--weights", str(weights), "--write"]
    assert bench.main(args) == 0
    assert len(state.read_text().splitlines()) == 2
    written = json.loads(weights.read_text())
    assert set(written["weights"]) == set(bench.ev.FEATURES)
    assert bench.ev.load_weights(weights)["pending_action"]  # the rest of the file is kept


def test_shards_play_apart_and_fit_together_on_quiet_positions(tmp_path: Path) -> None:
    bench = _bench()
    weights = tmp_path / "weights.json"
    shutil.copy(bench.ev.WEIGHTS_FILE, weights)
    states = [tmp_path / "fit-0.jsonl", tmp_path / "fit-1.jsonl"]
    for k, state in enumerate(states):
        assert bench.main(["--games", "3", "--iterations", "2", "--shard", f"{k}/2",
                           "--state", str(state), "--weights", str(weights)]) == 0
    played = [[json.loads(line) for line in s.read_text().splitlines()] for s in states]
    assert [[r["index"] for r in rs] for rs in played] == [[0, 2], [1]]
    for record in played[0] + played[1]:
        assert record["at"] == "quiet" and len(record["finals"]) == 2
        # a 2-player game samples both seats; solo only the player, never Alfred
        seats = {sample[0] for sample in record["samples"]}
        assert seats == ({0} if record["options"]["players"] == 1 else {0, 1})
        assert all(sample[-1] == record["finals"][sample[0]] for sample in record["samples"])
    before = [s.read_text() for s in states]
    both = ["--state", str(states[0]), "--state", str(states[1])]
    assert bench.main(["--games", "3", "--iterations", "2", *both, "--weights", str(weights),
                       "--write"]) == 0
    assert [s.read_text() for s in states] == before  # nothing left to play: fitted on both


def test_a_bad_shard_is_refused(tmp_path: Path) -> None:
    bench = _bench()
    for bad in ("2/2", "x", "1/0"):
        with pytest.raises(SystemExit):
            bench.main(["--games", "1", "--shard", bad, "--state", str(tmp_path / "f.jsonl")])
    assert not (tmp_path / "f.jsonl").exists()
