"""Final scoring with its breakdown, and the ranking with the rulebook's tie-breaks."""

from __future__ import annotations

from typing import Any

from core.darwins_journey import hooks
from core.darwins_journey.data import DATA
from core.darwins_journey.state import State


def completed_museum_rows(s: State) -> int:
    """Museum rows holding all 4 museum tiles."""
    return sum(1 for row in range(4) if (s.museum >> (row * 4)) & 0xF == 0xF)


def books(s: State, seat: int) -> int:
    """Book multipliers reached on the evolution track (+1 with the silver-4 objective)."""
    return DATA.books[s.evo[seat]] + (1 if s.obj_slots[seat][3] < 0 else 0)


def breakdown(s: State, seat: int) -> dict[str, int]:
    """The final score of one seat, part by part ("total" is their sum)."""
    slots = s.obj_slots[seat]
    objectives = sum(DATA.objective_slots[k].vp for k in range(10) if slots[k] < 0)
    pair = DATA.pair_vp if slots[4] < 0 and slots[9] < 0 else 0
    workers = 0
    five, six = DATA.seal_end_vp
    for row in s.seals[seat]:
        if len(row) >= 5:
            workers += five
        if len(row) >= 6:
            workers += six
    tents = DATA.all_tents_vp if s.tents[seat] >= 5 else 0
    evolution = books(s, seat) * (2 + completed_museum_rows(s))
    parts = {
        "game": s.vp[seat],
        "objectives": objectives,
        "objective_pair": pair,
        "workers": workers,
        "tents": tents,
        "evolution": evolution,
        "coins": s.coins[seat] // 5,
        "knowledge": s.tk[seat],
    }
    parts["total"] = sum(parts.values())
    return parts


def ranking(s: State, scores: list[int]) -> list[int]:
    """Seats best first: points, then evolution steps, then coins (still tied: shared)."""
    return sorted(range(s.n), key=lambda p: (-scores[p], -s.evo[p], -s.coins[p], p))


def places(s: State, scores: list[int]) -> list[int]:
    """Each seat's place (1 = winner); seats still tied after the tie-breaks share a place."""
    keys = [(scores[p], s.evo[p], s.coins[p]) for p in range(s.n)]
    return [1 + sum(1 for q in range(s.n) if keys[q] > keys[p]) for p in range(s.n)]


def result(s: State) -> dict[str, Any]:
    """Scores with breakdown and ranking; mid-game, the final scoring as if the game ended now."""
    parts = [breakdown(s, p) for p in range(s.n)]
    scores = [b["total"] for b in parts]
    order = ranking(s, scores)
    place = places(s, scores)
    if s.solo:
        order = hooks.solo().ranking(s, scores)
        place = [order.index(p) + 1 for p in range(s.n)]
    finished = s.phase == "over"
    return {
        "finished": finished,
        "scores": scores,
        "breakdown": parts,
        "ranking": order,
        "places": place,
        "winners": [p for p in range(s.n) if place[p] == 1] if finished else None,
    }
