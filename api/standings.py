"""A tournament's standings from its finished games, and the chart of its score distributions.

Pure functions of the games in schedule order (never the order they finished in), so the
same games always give the same table:

- per entrant: games, wins / draws (a shared first place) / losses, mean score and mean
  margin (own score minus the best other seat's) with 95% confidence intervals;
- duplicate deals: the intervals are Student-t intervals over *blocks* (one block = one deal
  of one group of entrants, played once per seating rotation), each block contributing the
  entrant's mean over its rotations; the luck of a deal is shared by everyone in the block
  and cancels out of the margins;
- a head-to-head table (how often each entrant finished ahead of each other one), the
  likelihood of superiority between neighbours in the table from it;
- an openskill (Plackett-Luce) rating with its uncertainty (mu, sigma, ordinal mu - 3 sigma),
  the games rated in schedule order.
"""

from __future__ import annotations

import io
import math
import statistics
from collections import defaultdict
from typing import Any

from openskill.models import PlackettLuce
from scipy import stats

CONFIDENCE = 0.95


def places_of(result: dict[str, Any], seats: int) -> list[int]:
    """Each seat's place (1 = first; equal on a tie) from a game's result."""
    places = result.get("places")
    if isinstance(places, list) and len(places) == seats:
        return [int(p) for p in places]
    ranking = result.get("ranking") or list(range(seats))
    flat = [s for entry in ranking for s in (entry if isinstance(entry, list) else [entry])]
    return [flat.index(s) + 1 if s in flat else seats for s in range(seats)]


def scores_of(result: dict[str, Any], seats: int) -> list[float]:
    """Each seat's final score (a breakdown's "total" when the score is a dict)."""
    found = []
    for value in list(result.get("scores") or [])[:seats]:
        if isinstance(value, dict):
            value = value.get("total", 0)
        found.append(float(value) if isinstance(value, int | float) else 0.0)
    return found + [0.0] * (seats - len(found))


def interval(values: list[float]) -> list[float] | None:
    """The 95% Student-t confidence interval of the mean of `values` (None under 2 values)."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    spread = statistics.stdev(values)
    if spread == 0:
        return [mean, mean]
    half = float(stats.t.ppf((1 + CONFIDENCE) / 2, len(values) - 1)) * spread / math.sqrt(
        len(values))
    return [mean - half, mean + half]


def superiority(wins: float, losses: float) -> float | None:
    """Likelihood that the first of two entrants is the stronger, from their head-to-head
    wins and losses (draws carry no information): Phi((w - l) / sqrt(w + l))."""
    if wins + losses == 0:
        return None
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def standings(entrants: list[str], games: list[dict[str, Any]]) -> dict[str, Any]:
    """The standings of `entrants` (labels) after `games`, each {"slot", "block", "labels":
    [label per seat], "result"}; games are taken in slot order whatever order they come in."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in entrants}
    tally: dict[str, dict[str, Any]] = {
        name: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "scores": [],
               "blocks": defaultdict(lambda: ([], []))} for name in entrants}
    duels: dict[str, dict[str, list[int]]] = {a: {b: [0, 0, 0] for b in entrants if b != a}
                                              for a in entrants}
    for game in sorted(games, key=lambda g: g["slot"]):
        labels: list[str] = list(game["labels"])
        seats = len(labels)
        places = places_of(game["result"], seats)
        scores = scores_of(game["result"], seats)
        firsts = places.count(1)
        for seat, label in enumerate(labels):
            entry = tally.setdefault(label, {"games": 0, "wins": 0, "draws": 0, "losses": 0,
                                             "scores": [],
                                             "blocks": defaultdict(lambda: ([], []))})
            entry["games"] += 1
            outcome = ("wins" if firsts == 1 else "draws") if places[seat] == 1 else "losses"
            entry[outcome] += 1
            entry["scores"].append(scores[seat])
            others = [scores[o] for o in range(seats) if o != seat]
            block_scores, block_margins = entry["blocks"][str(game.get("block"))]
            block_scores.append(scores[seat])
            block_margins.append(scores[seat] - max(others) if others else 0.0)
            for other in range(seats):
                if other == seat or labels[other] == label:
                    continue
                row = duels.setdefault(label, {}).setdefault(labels[other], [0, 0, 0])
                row[0 if places[seat] < places[other] else
                    2 if places[seat] > places[other] else 1] += 1
        if len(set(labels)) == seats:
            for label in labels:
                ratings.setdefault(label, model.rating(name=label))
            rated = model.rate([[ratings[label]] for label in labels], ranks=places)
            for label, (rating,) in zip(labels, rated, strict=True):
                ratings[label] = rating
    rows = []
    for name, entry in tally.items():
        block_scores = [statistics.fmean(s) for s, _ in entry["blocks"].values()]
        block_margins = [statistics.fmean(m) for _, m in entry["blocks"].values()]
        rating = ratings.get(name) or model.rating(name=name)
        rows.append({
            "name": name, "games": entry["games"], "wins": entry["wins"],
            "draws": entry["draws"], "losses": entry["losses"],
            "mean_score": statistics.fmean(entry["scores"]) if entry["scores"] else None,
            "score_ci": interval(block_scores),
            "mean_margin": statistics.fmean(block_margins) if block_margins else None,
            "margin_ci": interval(block_margins),
            "rating": {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()},
        })
    rows.sort(key=lambda r: (-r["rating"]["ordinal"], r["name"]))
    neighbours = []
    for better, worse in zip(rows, rows[1:], strict=False):
        wins, _, losses = duels.get(better["name"], {}).get(worse["name"], [0, 0, 0])
        neighbours.append({"better": better["name"], "worse": worse["name"],
                           "likelihood": superiority(wins, losses)})
    return {"games": len(games), "entrants": rows,
            "head_to_head": {a: {b: {"wins": w, "draws": d, "losses": lo}
                                 for b, (w, d, lo) in row.items()} for a, row in duels.items()},
            "superiority": neighbours}


def chart_png(title: str, scores: dict[str, list[float]]) -> bytes:
    """A PNG of each entrant's final scores (a box plot with the games as dots)."""
    import matplotlib

    matplotlib.use("Agg")  # no display: a server renders to memory
    from matplotlib.figure import Figure

    names = list(scores)
    figure = Figure(figsize=(max(4.0, 1.4 * len(names) + 1.5), 4.0), dpi=100)
    axes = figure.subplots()
    data = [scores[name] or [math.nan] for name in names]
    axes.boxplot(data, showmeans=True)
    axes.set_xticks(range(1, len(names) + 1), names, rotation=20, ha="right")
    for index, values in enumerate(data, start=1):
        axes.plot([index] * len(values), values, ".", alpha=0.4, color="tab:blue")
    axes.set_ylabel("final score")
    axes.set_title(title)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


def score_lists(games: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Each label's final scores over `games`, in slot order."""
    found: dict[str, list[float]] = defaultdict(list)
    for game in sorted(games, key=lambda g: g["slot"]):
        labels = list(game["labels"])
        for label, score in zip(labels, scores_of(game["result"], len(labels)), strict=True):
            found[label].append(score)
    return dict(found)
