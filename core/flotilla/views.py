"""What a seat may see (`view`) and a full state sampled from it (`determinize`).

F35.1: the rulebook declares nothing secret; a hand is deducible (starting cards plus recruits
from face-up stacks, minus the open discard pile). Hands are hidden by default (a seat sees its
own and the others' sizes; option `open_hands` shows them all). Coins, Reserves, VP, discard
piles and the tiles a player draws are open. Hidden from everybody (F35.2): the order of each
Guild's crew stack below its top card, the Crew Cards and Artifacts removed at set-up, which
Artifacts are still in the bag (only how many per Guild), the dice before they are rolled (the
RNG). No move is secret and no event is addressed to some seats only: every draw and roll is
seen by all at the table.
"""

from __future__ import annotations

from typing import Any

from core.flotilla import data as D
from core.flotilla import rules
from core.flotilla.rng import seed_value, shuffle
from core.flotilla.state import from_json, to_json

_HIDDEN = ("rng", "crew", "crew_box", "art_bag", "art_box")


def view(s: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The state as `seat` (None: a spectator) may see it."""
    data = to_json(s)
    out: dict[str, Any] = {k: v for k, v in data.items() if k not in _HIDDEN}
    out.update({"game": "flotilla", "seat": seat, "to_act": rules.to_act(s),
                "seat_count": s["n"], "automa_seats": {}})
    # F3.3.11: stacks lie face up, so each top card is public; below it only the Levels' sizes
    out["crew_top"] = [stack[-1] if stack else None for stack in s["crew"]]
    out["crew_sizes"] = [[sum(1 for c in stack if D.card_level(c) == lv) for lv in (1, 2)]
                         for stack in s["crew"]]
    out["art_bag_sizes"] = [sum(1 for a in s["art_bag"] if D.ARTIFACTS[a]["guild"] == g)
                            for g in D.GUILDS]
    out["crew_box_size"] = len(s["crew_box"])
    out["hand_sizes"] = [len(h) for h in s["hand"]]
    if not s["options"]["open_hands"]:
        out["hand"] = [list(h) if p == seat else [] for p, h in enumerate(s["hand"])]
    out["catalog"] = catalog(s, out["hand"])
    return out


def hidden(s: dict[str, Any]) -> dict[str, Any]:
    """What no view shows every seat (F35.2): the RNG, the crew stacks below their tops, what
    was removed at set-up, the artifacts' bag, and the hands unless `open_hands`. A move that
    changes none of it drew and revealed nothing (core.takeback)."""
    out = {name: s[name] for name in _HIDDEN}
    if not s["options"]["open_hands"]:
        out["hand"] = s["hand"]
    return out


def catalog(s: dict[str, Any], hands: list[list[int]]) -> dict[str, Any]:
    """Names and facts of the components in sight, so clients draw the board without data."""
    cards = {c for p in range(s["n"]) for c in hands[p] + s["discard"][p] + s["retired"][p]}
    cards.update(f[1] for f in s["stack"] if f[0] == "finish")
    cards.update(st[-1] for st in s["crew"] if st)
    tiles = {e[0] for e in s["board"].values() if e[0] >= 0}
    for p in range(s["n"]):
        tiles.update(s["tiles"][p])
    objectives = {o for side in s["obj_stacks"] for pile in side for o in pile}
    for p in range(s["n"]):
        objectives.update(s["objectives"][p])
    return {
        "radius": D.RADIUS, "hub_radius": D.HUB["hub_radius"], "colours": D.COLOURS,
        "guilds": D.GUILDS, "market_prices": D.MARKET_PRICES, "wheel_spaces": D.WHEEL_SPACES,
        "cards": {str(c): {"sinkside": D.CARDS[c]["sinkside"]["name"],
                           "skyside": D.CARDS[c]["skyside"]["name"],
                           "guild": D.CARDS[c]["sinkside"]["guild"],
                           "level": D.CARDS[c]["sinkside"]["level"]} for c in sorted(cards)},
        "tiles": {str(t): {"depth": D.TILES[t]["sinkside"]["depth"],
                           "resource": D.TILES[t]["sinkside"]["resource"],
                           "cost": D.TILES[t]["skyside"]["cost"],
                           "districts": D.TILES[t]["skyside"]["districts"]}
                  for t in sorted(tiles)},
        "objectives": {str(o): {side: f"{D.OBJECTIVES[o][side]['vp_each']} VP per "
                                      f"{D.OBJECTIVES[o][side]['count']}"
                                for side in ("sinkside", "skyside")} for o in sorted(objectives)},
        "artifacts": {str(a): D.ARTIFACTS[a]["name"] for a in sorted(drawn_artifacts(s))},
    }


def drawn_artifacts(s: dict[str, Any]) -> set[int]:
    """Artifacts out of the bag: on the Hub, or drawn and waiting for their reward to end
    (a "hub" frame, F26.2)."""
    out = {a for hub in s["hub"] for a in hub}
    out.update(f[1] for f in s["stack"] if f[0] == "hub")
    return out


def determinize(v: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
    """A full state consistent with view `v`, the hidden parts sampled from `seed`."""
    data = {k: v[k] for k in v if k not in ("game", "seat", "to_act", "seat_count",
                                             "automa_seats", "crew_top", "crew_sizes",
                                             "art_bag_sizes", "crew_box_size", "catalog",
                                             "hand_sizes")}
    data["rng"] = 0
    data["crew"] = [[] for _ in range(4)]
    data["crew_box"] = []
    data["art_bag"] = []
    data["art_box"] = []
    s = from_json(data)
    s["rng"] = seed_value(seed)
    n = s["n"]
    seen: set[int] = set()
    for p in range(n):
        seen.update(s["hand"][p])
        seen.update(s["discard"][p])
        seen.update(s["retired"][p])
    for frame in s["stack"]:
        if frame[0] == "finish":
            seen.add(frame[1])
    seen.update(c for c in v["crew_top"] if c is not None)
    hidden = [p for p in range(n) if len(s["hand"][p]) != v["hand_sizes"][p]]
    rest: list[int] = []
    for g, guild in enumerate(D.GUILDS):
        stack: list[int] = []
        for lv, size in ((2, v["crew_sizes"][g][1]), (1, v["crew_sizes"][g][0])):
            pool = [c["id"] for c in D.CARDS if c["sinkside"]["guild"] == guild
                    and c["sinkside"]["level"] == lv and c["id"] not in seen]
            shuffle(s, pool)
            top = v["crew_top"][g]
            take = size - (1 if top is not None and D.card_level(top) == lv else 0)
            stack.extend(pool[:take])
            rest.extend(pool[take:])
        if v["crew_top"][g] is not None:
            stack.append(v["crew_top"][g])
        s["crew"][g] = stack
    # hidden hands: the starting cards a seat still holds are known (one of each, minus its
    # discard pile, Retired cards and the card in play); recruits are sampled from the rest
    rest.sort()
    shuffle(s, rest)
    for p in hidden:
        gone = set(s["discard"][p]) | set(s["retired"][p])
        if p == s["turn"]:
            gone.update(f[1] for f in s["stack"] if f[0] == "finish")
        hand = [c for c in D.STARTER_CARDS if c not in gone]
        while len(hand) < v["hand_sizes"][p]:
            hand.append(rest.pop())
        s["hand"][p] = sorted(hand)
    s["crew_box"] = sorted(rest)
    placed = drawn_artifacts(s)
    for g, guild in enumerate(D.GUILDS):
        pool = [a["id"] for a in D.ARTIFACTS if a["guild"] == guild and a["id"] not in placed]
        shuffle(s, pool)
        size = v["art_bag_sizes"][g]
        s["art_bag"].extend(pool[:size])
        s["art_box"].extend(pool[size:])
    s["art_bag"].sort()
    return s
