"""The analysis of a finished game (ai_worker.analysis), on toy-pontoon records."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import core
import tests.toygame  # noqa: F401  (registers toy-pontoon)
from ai_worker import analysis
from ai_worker.analysis import Budget, analyse_record

GAME = core.get_game("toy-pontoon")
OPTIONS = {"players": 2}
BUDGET = Budget(iterations=150, ms=60_000)  # the iterations decide: reproducible


def record(seed: int, planted_stop: bool = True) -> list[dict[str, Any]]:
    """A game's log: seat 0 stops at once (a blunder: no first card can bust it) when
    `planted_stop`, else draws to 14; seat 1 draws to 16."""
    state = GAME.new_game(OPTIONS, seed)
    entries: list[dict[str, Any]] = []
    while (seat := GAME.to_act(state)) is not None:
        total = sum(state["hands"][seat])
        limit = 16 if seat == 1 else (0 if planted_stop else 14)
        wanted = {"type": "draw" if total < limit else "stop"}
        move = core.find_move(GAME.legal_moves(state), wanted)
        assert move is not None
        index = len(entries)
        entries.append({"index": index, "version": index + 1, "seat": seat, "move": move})
        GAME.apply(state, move)
    return entries


@pytest.mark.parametrize("seed", [3, 7, 21])
def test_a_planted_stop_on_an_empty_hand_is_a_blunder(seed: int) -> None:
    found = analyse_record(GAME, OPTIONS, seed, record(seed), [0, 1], BUDGET)
    first = found["moves"][0]
    assert first["seat"] == 0 and first["move"]["type"] == "stop"
    assert first["classification"] == "blunder", first
    assert first["best"]["type"] == "draw"
    assert first["loss"] >= found["thresholds"]["blunder"]
    assert first["loss"] == pytest.approx(first["best_margin"] - first["played_margin"],
                                          abs=0.011)
    assert found["accuracy"]["0"] < found["accuracy"]["1"]


def test_the_same_game_gives_the_same_numbers_twice() -> None:
    entries = record(5, planted_stop=False)
    first = analyse_record(GAME, OPTIONS, 5, entries, [0, 1], BUDGET)
    second = analyse_record(GAME, OPTIONS, 5, entries, [0, 1], BUDGET)
    assert first == second
    assert len(first["moves"]) == len(entries)
    assert {m["classification"] for m in first["moves"]} <= set(analysis.CLASSES)


def test_only_the_asked_seats_are_analysed() -> None:
    entries = record(9)
    found = analyse_record(GAME, OPTIONS, 9, entries, [1], BUDGET)
    assert {m["seat"] for m in found["moves"]} == {1}
    assert set(found["accuracy"]) == {"1"}


def test_the_analysis_never_reads_another_seats_hidden_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The true states the replay yields are replaced by others that agree with the mover's
    view but hold other hidden cards (the rival's hand, the deck's order): the analysis must
    not change."""
    entries = record(11, planted_stop=False)
    honest = analyse_record(GAME, OPTIONS, 11, entries, [0, 1], BUDGET)
    replay = analysis.replay
    differed = []

    def other_truth(game: core.Game, options: dict[str, Any], seed: int,
                    log: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Any]]:
        for entry, state in replay(game, options, seed, log):
            seat = entry["seat"]
            other = game.determinize(game.view(state, seat), seat, 1000 + entry["index"])
            assert game.view(other, seat) == game.view(state, seat)
            differed.append(other["deck"] != state["deck"]
                            or other["hands"][1 - seat] != state["hands"][1 - seat])
            yield entry, other

    monkeypatch.setattr(analysis, "replay", other_truth)
    swapped = analyse_record(GAME, OPTIONS, 11, entries, [0, 1], BUDGET)
    assert any(differed)  # the hidden cards really were others
    assert swapped == honest

    def other_own_cards(game: core.Game, options: dict[str, Any], seed: int,
                        log: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Any]]:
        for entry, state in replay(game, options, seed, log):
            rival = 1 - entry["seat"]
            yield entry, game.determinize(game.view(state, rival), rival, 1000 + entry["index"])

    # The same swap of what the mover does see (its own hand) changes the analysis: the
    # comparison above can tell states apart.
    monkeypatch.setattr(analysis, "replay", other_own_cards)
    assert analyse_record(GAME, OPTIONS, 11, entries, [0, 1], BUDGET) != honest


def test_thresholds_are_per_game_and_ordered() -> None:
    for name in ("default", *core.game_names()):
        limits = analysis.thresholds(name)
        assert 0 < limits["inaccuracy"] < limits["mistake"] < limits["blunder"]
    assert analysis.classify(0.0, analysis.thresholds("x")) == "good"


def test_accuracy_falls_with_the_loss_and_a_blunder_is_lichess_s() -> None:
    limits = analysis.thresholds("darwins-journey")
    values = [analysis.move_accuracy(loss, limits) for loss in (0.0, 1.0, 3.0, 6.0, 12.0, 40.0)]
    assert values[0] == pytest.approx(100.0, abs=0.01)
    assert values == sorted(values, reverse=True) and values[-1] >= 0.0
    # a loss of the blunder threshold is Lichess's blunder: 30 points of win percentage
    assert values[4] == pytest.approx(103.1668 * 2.718281828 ** (-0.04354 * 30) - 3.1669)


def test_workers_take_analyses_after_bot_turns_and_webhooks() -> None:
    from ai_worker import worker

    assert worker.DEFAULT_QUEUES == ("bots", "webhooks", "analysis")


def test_darwins_journey_hidden_parts_do_not_reach_the_analysis(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same check on a real game with hidden decks and tiles (two players, a few
    decisions at a tiny budget)."""
    from ai_worker.bots import get_bot

    game = core.get_game("darwins-journey")
    options = {"players": 2}
    state = game.new_game(options, 5)
    entries: list[dict[str, Any]] = []
    greedy = get_bot("greedy")
    while len(entries) < 8:
        seat = game.to_act(state)
        move = greedy.choose(game, game.view(state, seat), seat, game.legal_moves(state), {},
                             len(entries))
        entries.append({"index": len(entries), "version": len(entries) + 1, "seat": seat,
                        "move": move})
        game.apply(state, move)
    budget = Budget(iterations=20, ms=60_000)
    honest = analyse_record(game, options, 5, entries, [0, 1], budget)
    replay = analysis.replay
    differed = []

    def other_truth(game: core.Game, options: dict[str, Any], seed: int,
                    log: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Any]]:
        for entry, true in replay(game, options, seed, log):
            seat = entry["seat"]
            other = game.determinize(game.view(true, seat), seat, 99 + entry["index"])
            assert game.view(other, seat) == game.view(true, seat)
            differed.append(game.dump(other) != game.dump(true))
            yield entry, other

    monkeypatch.setattr(analysis, "replay", other_truth)
    assert analyse_record(game, options, 5, entries, [0, 1], budget) == honest
    assert any(differed)
