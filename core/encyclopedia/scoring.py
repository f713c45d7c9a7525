"""Final scoring with its breakdown (E20.2), the tie-break (E20.5) and the solo AI's card."""

from __future__ import annotations

from typing import Any

from core.encyclopedia.data import DATA
from core.encyclopedia.rules import AI_SEAT, EXPERTS, active_experts
from core.encyclopedia.state import State


def experts_held(s: State, seat: int) -> list[int]:
    """Every expert on the seat's board, active or covered."""
    return [c for stack in s.experts[seat] for c in stack]


def categories(s: State, seat: int) -> int:
    """E20.2(a) / G29: per type, VP by the number of distinct categories holding a cube."""
    grid = s.grid[seat]
    table = DATA.category_collection
    return sum(table[sum(1 for cat in range(4) if grid[t * 4 + cat])] for t in range(4))


def continents(s: State, seat: int) -> int:
    """E20.2(b) / G30: per colour, published animals + experts (active or covered)."""
    counts = [0] * len(DATA.colours)
    for card in s.published[seat]:
        counts[DATA.animals[card].colour] += 1
    for card in experts_held(s, seat):
        counts[EXPERTS[card].colour] += 1
    table = DATA.continent_collection
    return sum(table[min(k, len(table) - 1)] for k in counts)


def expert_end(s: State, seat: int) -> int:
    """End-game effects of active experts (E12.1; covered ones count for nothing, E12.3)."""
    vp = 0
    for card in active_experts(s, seat):
        x = EXPERTS[card]
        if x.when != "end":
            continue
        if x.hook == "published_colour":
            vp += x.n * sum(1 for c in s.published[seat] if DATA.animals[c].colour == x.colour)
        elif x.hook == "experts":
            vp += x.n * (len(experts_held(s, seat)) // x.per)
        elif x.hook == "seals":
            vp += x.n * min(s.seals[seat], x.cap)
    return vp


def ai_card(s: State, seat: int) -> int:
    """E21.3.7 (G31, AI10): the solo AI's level card's end VP per published animal."""
    if not s.solo or seat != AI_SEAT:
        return 0
    from core.encyclopedia.ai import level

    return level(s).per_published * len(s.published[seat])


def score_before_ai_card(s: State, seat: int) -> int:
    """`breakdown`'s total without its "ai_card" part (the solo AI weighs its plans by it)."""
    return (s.vp[seat] + categories(s, seat) + continents(s, seat)
            + DATA.seal_end_vp * s.seals[seat] + s.coins[seat] // DATA.coins_per_vp
            + DATA.token_end_vp * s.tokens[seat] + expert_end(s, seat))


def breakdown(s: State, seat: int) -> dict[str, int]:
    """The final score of one seat, part by part ("total" is their sum)."""
    parts = {
        "game": s.vp[seat],  # E20.3: VP scored during play
        "categories": categories(s, seat),
        "continents": continents(s, seat),
        "seals": DATA.seal_end_vp * s.seals[seat],  # E20.2(c) / A17: 4 VP
        "coins": s.coins[seat] // DATA.coins_per_vp,  # E20.2(d): rounded down
        "tokens": DATA.token_end_vp * s.tokens[seat],  # E20.2(e)
        "experts": expert_end(s, seat),
        "ai_card": ai_card(s, seat),
    }
    parts["total"] = sum(parts.values())
    return parts


def result(s: State) -> dict[str, Any]:
    """Scores, breakdown, ranking; mid-game, the final scoring as if the game ended now.

    G2: most VP wins; E20.5 / A35: ties go to the most animals published; a tie that
    remains is shared, except in solo, where the human must beat the AI (E21.3.8).
    """
    parts = [breakdown(s, p) for p in range(s.n)]
    scores = [b["total"] for b in parts]
    keys = [(scores[p], s.published_n[p]) for p in range(s.n)]
    order = sorted(range(s.n), key=lambda p: (-keys[p][0], -keys[p][1], p))
    places = [1 + sum(1 for q in range(s.n) if keys[q] > keys[p]) for p in range(s.n)]
    if s.solo:
        human_wins = keys[0] > keys[AI_SEAT]
        order = [0, AI_SEAT] if human_wins else [AI_SEAT, 0]
        places = [1, 2] if human_wins else [2, 1]
    finished = s.phase == "over"
    return {
        "finished": finished,
        "scores": scores,
        "breakdown": parts,
        "published": list(s.published_n),
        "ranking": order,
        "places": places,
        "winners": [p for p in range(s.n) if places[p] == 1] if finished else None,
    }
