"""Tournament scheduling and tallying (no server needed)."""

from __future__ import annotations

from collections import Counter

import pytest

from clients.tournament import Entrant, Standings, places_of, rerate, schedule, tally

A, B, C = Entrant("a", "random"), Entrant("b", "greedy"), Entrant("c", "mcts", {"ms": 5})


def test_two_player_schedule_alternates_seats_over_every_pairing() -> None:
    seatings = schedule([A, B, C], 2, 12)
    assert len(seatings) == 12
    pairs = Counter(frozenset(e.label for e in s) for s in seatings)
    assert set(pairs.values()) == {4}  # every pairing equally often
    firsts = Counter(s[0].label for s in seatings)
    assert set(firsts.values()) == {4}  # and every entrant first equally often


def test_solo_schedule_and_self_play() -> None:
    assert [s[0].label for s in schedule([A, B], 1, 4)] == ["a", "b", "a", "b"]
    assert [[e.label for e in s] for s in schedule([A], 2, 2)] == [["a", "a"], ["a", "a"]]


def test_places_from_places_or_ranking() -> None:
    assert places_of({"places": [2, 1, 1]}, 3) == [2, 1, 1]
    assert places_of({"ranking": [1, 2, 0]}, 3) == [3, 1, 2]


def test_tally_counts_wins_scores_margins_and_elo() -> None:
    standings = Standings()
    tally(standings, ["a", "b"], {"scores": [30, 20], "ranking": [0, 1]})
    tally(standings, ["b", "a"], {"scores": [25, 25], "places": [1, 1]})
    a, b = standings.records["a"], standings.records["b"]
    assert (a.games, a.wins, a.mean_score, a.mean_margin) == (2, 1.5, 27.5, 5.0)
    assert (b.games, b.wins) == (2, 0.5)
    assert a.rating > 1500 > b.rating
    assert a.rating + b.rating == pytest.approx(3000)
    assert [label for label, _ in standings.ordered()] == ["a", "b"]


def test_self_play_does_not_move_ratings() -> None:
    standings = Standings()
    tally(standings, ["a", "a"], {"scores": [1, 2], "ranking": [1, 0]})
    assert standings.records["a"].rating == 1500 and standings.records["a"].games == 2


def test_final_ratings_do_not_depend_on_the_order_games_ended_in() -> None:
    games = [(["a", "b"], {"scores": [3, 1], "ranking": [0, 1]}),
             (["b", "a"], {"scores": [3, 1], "ranking": [0, 1]}),
             (["a", "b"], {"scores": [5, 1], "ranking": [0, 1]})]
    ratings = []
    for order in ([0, 1, 2], [2, 1, 0]):
        standings = Standings()
        for number in order:
            tally(standings, *games[number], number=number)
        rerate(standings)
        ratings.append({label: r.rating for label, r in standings.records.items()})
    assert ratings[0] == pytest.approx(ratings[1])
    assert ratings[0]["a"] > 1500 > ratings[0]["b"]
