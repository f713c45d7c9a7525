"""Final scoring (F30.1-F30.3) with its breakdown, and the ranking with the tie-breaks (F30.4)."""

from __future__ import annotations

from typing import Any

from core.flotilla import data as D
from core.flotilla.rules import toxicity_key


def seal_awards(s: dict[str, Any]) -> list[int]:
    """F9.3, F30.2-F30.3: 10 for the most Seals per Guild, 5 for the second most.

    Ties on Seals go to less Toxicity (A38); ties left are friendly (all get the best bonus
    they qualify for) and a friendly tie for the most leaves nobody the 5.
    """
    n = s["n"]
    awards = [0] * n
    for g in range(4):
        keys = {p: (-s["seals"][p][g], toxicity_key(s, p)) for p in range(n) if s["seals"][p][g]}
        if not keys:
            continue
        best = min(keys.values())
        firsts = [p for p, k in keys.items() if k == best]
        for p in firsts:
            awards[p] += D.SCORING["seal_first"]
        rest = {p: k for p, k in keys.items() if p not in firsts}
        if len(firsts) == 1 and rest:
            second = min(rest.values())
            for p, k in rest.items():
                if k == second:
                    awards[p] += D.SCORING["seal_second"]
    return awards


def breakdown(s: dict[str, Any], seat: int, seals: list[int] | None = None) -> dict[str, int]:
    """One seat's final score part by part; "total" is their sum (F30.1)."""
    if seals is None:
        seals = seal_awards(s)
    # A48: Resources left count the Reserve and any Cargo still on Skiffs
    resources = sum(s["reserve"][seat]) + sum(map(sum, s["cargo"][seat]))
    parts = {
        "game": s["vp"][seat],
        "coins": s["coins"][seat] // D.SCORING["coins_per_vp"],
        "resources": resources // D.SCORING["resources_per_vp"],
        "toxicity": D.PENALTY[s["penalty"][seat]],  # F24.4: gain or lose
        "seals": seals[seat],
    }
    parts["total"] = sum(parts.values())
    return parts


def tiebreak_key(s: dict[str, Any], seat: int, score: int) -> tuple[Any, ...]:
    """F30.4 (A49: Crew Cards owned = hand + discard pile; coins = the coin total)."""
    crew = len(s["hand"][seat]) + len(s["discard"][seat])
    pen, tox = toxicity_key(s, seat)
    return (-score, pen, tox, -crew, -s["coins"][seat])


def result(s: dict[str, Any]) -> dict[str, Any]:
    """Scores, breakdown, ranking and places; mid-game, the scoring as if it ended now."""
    seals = seal_awards(s)
    parts = [breakdown(s, p, seals) for p in range(s["n"])]
    scores = [b["total"] for b in parts]
    keys = [tiebreak_key(s, p, scores[p]) for p in range(s["n"])]
    order = sorted(range(s["n"]), key=lambda p: (keys[p], p))
    places = [1 + sum(1 for q in range(s["n"]) if keys[q] < keys[p]) for p in range(s["n"])]
    finished = bool(s["over"])
    return {
        "finished": finished,
        "scores": scores,
        "breakdown": parts,
        "ranking": order,
        "places": places,
        "winners": [p for p in range(s["n"]) if places[p] == 1] if finished else None,
    }
