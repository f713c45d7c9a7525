"""bench/strength.py plays, records and resumes (on the toy game, tiny budgets)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_strength", ROOT / "bench" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_strength"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_strength_bench_records_and_resumes(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    bench = _bench()
    state = tmp_path / "strength.jsonl"
    args = ["--game", "toy-pontoon", "--games", "2", "--ms", "5", "--state", str(state)]
    assert bench.main(args) == 0
    records = [json.loads(line) for line in state.read_text().splitlines()]
    assert len(records) == 4  # two 2-player matchups x 2 games
    assert {r["matchup"] for r in records} == {"toy-pontoon/2p/mcts-vs-greedy@5ms",
                                               "toy-pontoon/2p/greedy-vs-random"}
    assert [r["subject"] for r in records[:2]] == [0, 1]  # seats alternate
    out = capsys.readouterr().out
    assert "skip solo" in out
    assert bench.main(args) == 0  # resumed: nothing left to play
    assert len(state.read_text().splitlines()) == 4


def test_strength_bench_names_mcts_settings_apart(tmp_path: Path) -> None:
    """--mcts-params reaches the mcts subject and keeps its records apart from the defaults."""
    bench = _bench()
    state = tmp_path / "strength.jsonl"
    args = ["--game", "toy-pontoon", "--games", "1", "--only", "mcts-vs-greedy",
            "--mcts-params", '{"iterations": 3, "ms": 0}', "--state", str(state)]
    assert bench.main(args) == 0
    [record] = [json.loads(line) for line in state.read_text().splitlines()]
    assert record["matchup"] == 'toy-pontoon/2p/mcts-vs-greedy{"iterations": 3, "ms": 0}'
    assert record["iterations"] == 3 * record["searched"]  # the budget came from the params
    with pytest.raises(SystemExit):
        bench.main([*args[:-4], "--mcts-params", "[1]", "--state", str(state)])


def test_strength_bench_rotates_every_deal_through_every_seat(tmp_path: Path) -> None:
    """A game of 3 or more plays each deal once from every seat (F1.8: Flotilla is 3-5)."""
    bench = _bench()
    state = tmp_path / "strength.jsonl"
    assert bench.main(["--game", "flotilla", "--games", "3", "--only", "greedy-vs-random",
                       "--state", str(state)]) == 0
    records = [json.loads(line) for line in state.read_text().splitlines()]
    assert [r["matchup"] for r in records] == ["flotilla/3p/greedy-vs-random"] * 3
    assert [r["seed"] for r in records] == [1000, 1000, 1000]  # one deal ...
    assert [r["subject"] for r in records] == [0, 1, 2]  # ... from each seat
    for r in records:
        assert r["bots"][r["subject"]] == "greedy"
        assert r["bots"].count("random") == 2


def test_strength_bench_plays_the_named_solo_set_up(tmp_path: Path) -> None:
    """--solo-options picks the automa's configuration (Encyclopedia's AI cards, E4)."""
    bench = _bench()
    state = tmp_path / "strength.jsonl"
    assert bench.main(["--game", "encyclopedia", "--games", "1", "--only", "solo-greedy",
                       "--solo-options", '{"behaviour": 3, "scoring": 3}',
                       "--state", str(state)]) == 0
    [record] = [json.loads(line) for line in state.read_text().splitlines()]
    assert record["matchup"] == "encyclopedia/behaviour=3,scoring=3/solo-greedy"
    assert record["bots"][record["subject"]] == "greedy"
    with pytest.raises(SystemExit):
        bench.main(["--game", "encyclopedia", "--solo-options", "[3]", "--state", str(state)])


def test_deals_from_plays_fresh_deals_under_their_own_name(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    bench = _bench()
    state = tmp_path / "strength.jsonl"
    args = ["--game", "toy-pontoon", "--games", "3", "--only", "greedy-vs-random",
            "--state", str(state)]
    assert bench.main(args) == 0
    assert bench.main([*args, "--deals-from", "50000"]) == 0
    records = [json.loads(line) for line in state.read_text().splitlines()]
    by_name: dict[str, list[int]] = {}
    for r in records:
        by_name.setdefault(r["matchup"], []).append(r["seed"])
    assert by_name == {"toy-pontoon/2p/greedy-vs-random": [1000, 1001, 1002],
                       "toy-pontoon/2p/greedy-vs-random@deals50000": [50000, 50001, 50002]}
    assert "95% interval" in capsys.readouterr().out


def test_the_wilson_interval() -> None:
    bench = _bench()
    low, high = bench.wilson(90, 100)
    assert round(low, 3) == 0.826 and round(high, 3) == 0.945
    assert bench.wilson(0, 0) == (0.0, 1.0)
    low, high = bench.wilson(10, 10)
    assert high == 1.0 and 0.69 < low < 0.73
