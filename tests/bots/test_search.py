"""Known positions: what greedy and MCTS must (and must not) play. Seeded, deterministic."""

from __future__ import annotations

from ai_worker.bots import get_bot
from ai_worker.bots.evaluation import Evaluation, register_evaluation
from ai_worker.bots.mcts import MCTSBot
from tests.bots.tinygames import Nim, Trap, trap_points
from tests.toygame import CARDS
from tests.toygame import GAME as TOY

register_evaluation("test-trap", Evaluation(evaluate=trap_points, scale=3.0))

NIM = Nim()
TRAP = Trap()


def nim_at(pile: int) -> dict:
    """Seat 0 to take from `pile` stones."""
    return NIM.new_game({"pile": pile}, seed=0)


def choose(bot: str, game, state, params: dict, seed: int) -> dict:  # noqa: ANN001
    seat = game.to_act(state)
    return get_bot(bot).choose(game, game.view(state, seat), seat, game.legal_moves(state),
                               params, seed)


def test_mcts_finds_the_forced_win_in_one() -> None:
    for seed in range(5):
        move = choose("mcts", NIM, nim_at(3), {"iterations": 50}, seed)
        assert move["stones"] == 3


def test_greedy_finds_the_win_in_one_too() -> None:
    for seed in range(5):
        assert choose("greedy", NIM, nim_at(2), {}, seed)["stones"] == 2


def test_mcts_finds_the_only_winning_move_two_plies_deep() -> None:
    # From 5 stones only taking 1 leaves the opponent a lost pile (4).
    for seed in range(5):
        assert choose("mcts", NIM, nim_at(5), {"iterations": 300}, seed)["stones"] == 1


def test_greedy_falls_into_the_trap() -> None:
    for seed in range(5):
        assert choose("greedy", TRAP, TRAP.new_game({}, 0), {}, seed)["type"] == "grab"


def test_mcts_avoids_the_move_greedy_loses_with() -> None:
    for seed in range(5):
        move = choose("mcts", TRAP, TRAP.new_game({}, 0), {"iterations": 100}, seed)
        assert move["type"] == "safe"


def _toy_solo_hand(hand: list[int]) -> dict:
    state = TOY.new_game({"players": 1}, seed=3)
    deck = list(CARDS)
    for card in hand:
        deck.remove(card)
    state["hands"][0] = list(hand)
    state["deck"] = deck
    return state


def test_mcts_with_hidden_cards_stops_on_twenty_and_draws_on_three() -> None:
    for seed in range(3):
        assert choose("mcts", TOY, _toy_solo_hand([10, 10]), {"iterations": 300}, seed)[
            "type"] == "stop"
        assert choose("mcts", TOY, _toy_solo_hand([2, 1]), {"iterations": 300}, seed)[
            "type"] == "draw"


def test_mcts_is_deterministic_for_an_iteration_budget() -> None:
    state = TOY.new_game({"players": 3}, seed=11)
    TOY.apply(state, {"type": "draw"})
    view, legal = TOY.view(state, 1), TOY.legal_moves(state)
    bot = MCTSBot()
    runs = [bot.search(TOY, view, 1, legal, {"iterations": 200}, seed=42) for _ in range(2)]
    assert runs[0][0] == runs[1][0]
    # at most the budget: the search may stop once its choice is settled
    assert runs[0][1].iterations == runs[1][1].iterations <= 200
    assert runs[0][1].nodes == runs[1][1].nodes


def test_mcts_time_budget_stops_and_answers() -> None:
    state = TOY.new_game({"players": 2}, seed=2)
    move, stats = MCTSBot().search(TOY, TOY.view(state, 0), 0, TOY.legal_moves(state),
                                   {"ms": 20}, seed=1)
    assert move in TOY.legal_moves(state)
    assert stats.iterations >= 1


def test_single_legal_move_needs_no_search() -> None:
    state = NIM.new_game({"pile": 1}, seed=0)
    move, stats = MCTSBot().search(NIM, NIM.view(state, 0), 0, NIM.legal_moves(state), {}, 0)
    assert move["stones"] == 1 and stats.iterations == 0


def test_widening_still_reaches_the_move_the_one_ply_ranking_puts_last() -> None:
    # The one-ply ranking prefers the grab; widening 1 starts with it alone, then widens.
    for seed in range(5):
        move = choose("mcts", TRAP, TRAP.new_game({}, 0), {"iterations": 100, "widening": 1},
                      seed)
        assert move["type"] == "safe"


def test_mcts_stops_early_once_the_best_move_cannot_change() -> None:
    move, stats = MCTSBot().search(NIM, nim_at(3), 0, NIM.legal_moves(nim_at(3)),
                                   {"iterations": 20_000, "reuse": False}, seed=0)
    assert move["stones"] == 3
    assert stats.stopped_early and stats.iterations < 20_000


class CountingNim(Nim):
    """Nim that counts the moves applied to a state (to see where a rollout stopped)."""

    name = "test-nim-counting"

    def apply(self, state: dict, move: dict) -> list[dict]:
        state["played"] = state.get("played", 0) + 1
        return super().apply(state, move)


def test_quiet_rollouts_play_on_to_a_quiet_position_within_twice_the_depth() -> None:
    """With `quiet`, a rollout passes its depth only to reach a position the evaluation calls
    quiet for the searching seat, and never plays more than twice the depth."""
    from ai_worker.bots.mcts import _Search

    game = CountingNim()
    start = game.new_game({"pile": 40}, seed=0)
    own_turn = Evaluation(evaluate=lambda g, s, seat: 0.0,
                          quiet=lambda g, s, seat: s["turn"] == seat)
    never = Evaluation(evaluate=lambda g, s, seat: 0.0, quiet=lambda g, s, seat: False)
    for evaluation, quiet, depth, played, turn in ((own_turn, True, 3, 4, 0),
                                                   (own_turn, False, 3, 3, 1),
                                                   (never, True, 3, 6, 0)):
        register_evaluation(game.name, evaluation)
        search = _Search(game, game.view(start, 0), 0, game.legal_moves(start), 0.15, depth,
                         0, seed=1, quiet=quiet)
        state = game.clone(start)
        search._rollout(state)
        assert (state["played"], state["turn"]) == (played, turn)
