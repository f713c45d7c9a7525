"""The game registry and the contract's helpers."""

import pytest

import core
from core.contract import find_move


def test_registry_lists_and_returns_games() -> None:
    assert "toy-pontoon" in core.game_names()
    game = core.get_game("toy-pontoon")
    assert isinstance(game, core.Game)


def test_unknown_game_is_a_typed_error() -> None:
    with pytest.raises(core.UnknownGame):
        core.get_game("no-such-game")


def test_find_move_ignores_labels() -> None:
    legal = [{"type": "draw", "label": "Draw"}, {"type": "stop", "label": "Stop"}]
    assert find_move(legal, {"type": "stop"}) == legal[1]
    assert find_move(legal, {"type": "pass"}) is None


def test_find_move_is_strict_json_equality() -> None:
    legal = [{"type": "take", "n": 1}, {"type": "take", "n": True}, {"type": "take", "n": 4.0},
             {"type": "route", "path": (1, 2)}, {"type": "route", "path": [[3, (4,)]]}]
    assert find_move(legal, {"type": "take", "n": True}) is legal[1]  # not legal[0]: 1 == True
    assert find_move(legal, {"type": "take", "n": 1}) is legal[0]
    assert find_move(legal, {"type": "take", "n": 4}) is None  # 4.0 is not 4
    # An engine's tuples are JSON arrays: a client's lists match them.
    assert find_move(legal, {"type": "route", "path": [1, 2]}) is legal[3]
    assert find_move(legal, {"type": "route", "path": [[3, [4]]]}) is legal[4]
    assert find_move(legal, {"type": "route", "path": [1, 2, 3]}) is None


def test_toy_game_contract_round_trip() -> None:
    game = core.get_game("toy-pontoon")
    state = game.new_game({"players": 3}, seed=7)
    while game.to_act(state) is not None:
        view = game.view(state, game.to_act(state))
        det = game.determinize(view, game.to_act(state), seed=1)
        assert game.view(det, game.to_act(state)) == view
        assert game.dump(game.load(game.dump(state))) == game.dump(state)
        hand_total = sum(state["hands"][state["turn"]])
        game.apply(state, game.legal_moves(state)[0 if hand_total < 15 else 1])
    assert game.result(state)["finished"]
    with pytest.raises(core.IllegalMove):
        game.apply(state, {"type": "draw"})
