"""The bot registry, `GET /v1/bots` descriptions and parameter validation."""

from __future__ import annotations

import pytest

from ai_worker.bots import UnknownBot, bot_names, describe_bots, get_bot
from tests.toygame import GAME as TOY


def test_registry_lists_every_bot() -> None:
    assert bot_names() == ["alfred", "automa", "greedy", "mcts", "random"]
    for name in bot_names():
        assert get_bot(name).name == name


def test_unknown_bot_is_a_value_error_naming_the_known_ones() -> None:
    with pytest.raises(UnknownBot, match="known: alfred, automa, greedy, mcts, random"):
        get_bot("deep-blue")
    assert issubclass(UnknownBot, ValueError)


def test_descriptions_carry_full_param_schemas() -> None:
    described = {d["name"]: d for d in describe_bots()}
    assert set(described) == set(bot_names())
    for entry in described.values():
        assert entry["description"]
        for spec in entry["params"].values():
            assert spec["type"] in {"int", "float", "bool"}
            assert {"default", "description"} <= set(spec)
    assert set(described["mcts"]["params"]) == {"iterations", "ms", "c", "rollout_depth",
                                                "quiet", "widening", "ponder", "reuse"}


@pytest.mark.parametrize(
    ("bot", "params", "message"),
    [
        ("mcts", {"iterations": "many"}, "'iterations' must be of type int"),
        ("mcts", {"iterations": True}, "'iterations' must be of type int"),
        ("mcts", {"iterations": 1.5}, "'iterations' must be of type int"),
        ("mcts", {"ms": -1}, "'ms' must be >= 0"),
        ("mcts", {"ms": 10**9}, "'ms' must be <= 600000"),
        ("mcts", {"c": "wide"}, "'c' must be of type float"),
        ("mcts", {"depth": 3}, "unknown parameter 'depth'"),
        ("greedy", {"ms": 5}, "unknown parameter 'ms' \\(known: none\\)"),
        ("random", [], "params must be an object"),
    ],
)
def test_bad_params_are_value_errors_naming_the_parameter(bot: str, params: object,
                                                          message: str) -> None:
    state = TOY.new_game({"players": 2}, seed=1)
    view = TOY.view(state, 0)
    with pytest.raises(ValueError, match=message):
        get_bot(bot).choose(TOY, view, 0, TOY.legal_moves(state), params, seed=1)  # type: ignore[arg-type]


def test_good_params_are_accepted_and_ints_pass_as_floats() -> None:
    state = TOY.new_game({"players": 2}, seed=1)
    move = get_bot("mcts").choose(TOY, TOY.view(state, 0), 0, TOY.legal_moves(state),
                                  {"iterations": 30, "c": 1, "rollout_depth": 0, "ms": 0}, seed=1)
    assert move in TOY.legal_moves(state)


def test_no_legal_moves_is_refused() -> None:
    state = TOY.new_game({"players": 2}, seed=1)
    for name in ("random", "greedy", "mcts"):
        with pytest.raises(ValueError, match="no legal moves"):
            get_bot(name).choose(TOY, TOY.view(state, 0), 0, [], {}, seed=1)
