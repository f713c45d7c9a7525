"""What a seat may see (`view`) and a full state sampled from it (`determinize`)."""

from __future__ import annotations

import functools
from typing import Any

from core.darwins_journey import hooks, rules
from core.darwins_journey.data import (
    COLOUR_NAMES,
    COLOURS,
    DATA,
    SPECIMEN_COLOURS,
    SPECIMEN_KINDS,
    action_json,
)
from core.darwins_journey.rng import seed_value, shuffle
from core.darwins_journey.state import FIELDS, State, from_json, to_json

# fields whose content is hidden and replaced in the view by something smaller
_HIDDEN = {"rng", "seal_bag", "obj_decks", "hands", "kept", "crew_pool", "alfred"}


_VISIBLE = tuple(name for name in FIELDS if name not in _HIDDEN)


def hidden(s: State) -> dict[str, Any]:
    """What no view shows every seat: the RNG, the seal bag's order, the objective decks, the
    crew cards in hands, kept and still in the pool, and Alfred's deck. A move that changes
    none of it drew and revealed nothing (core.takeback)."""
    return {name: getattr(s, name) for name in sorted(_HIDDEN)}


def _draft_round(s: State) -> int:
    for frame in reversed(s.stack):
        if frame[0] == "draft":
            return frame[2]
    return 0


def view(s: State, seat: int | None) -> dict[str, Any]:
    """The state as `seat` (None: a spectator) may see it; no hidden order, no RNG."""
    data = to_json(s)
    out: dict[str, Any] = {"game": "darwins-journey", "seat": seat, "to_act": rules.to_act(s),
                           "seat_count": s.n,
                           "automa_seats": {"1": "alfred"} if s.solo else {}}
    for name in FIELDS:
        if name not in _HIDDEN:
            out[name] = data[name]
    out["seal_bag"] = {c: s.seal_bag.count(c) for c in COLOURS}
    out["obj_decks"] = [len(d) for d in s.obj_decks]
    out["crew_pool"] = len(s.crew_pool)
    out["hand_sizes"] = [len(h) for h in s.hands]
    out["kept_sizes"] = [len(k) for k in s.kept]
    rnd = _draft_round(s)
    if seat is not None and 0 <= seat < s.n:
        out["hand_index"] = (seat - rnd) % s.n
        out["hand"] = list(s.hands[out["hand_index"]])
        out["kept"] = list(s.kept[seat])
    else:
        out["hand_index"] = -1
        out["hand"] = []
        out["kept"] = []
    out["alfred"] = hooks.solo().view(s, seat) if s.solo else None
    out["catalog"] = catalog(s, out["hand"] + out["kept"])
    return out


def _need_text(need: tuple[Any, ...]) -> str:
    kind = need[0]
    if kind == "ship_beagle":
        return "ship at or past the HMS Beagle"
    if kind == "kind":
        return f"{need[2]} {SPECIMEN_KINDS[need[1]]} specimen(s) researched"
    if kind == "color":
        return f"{need[2]} {SPECIMEN_COLOURS[need[1]]} specimen(s) researched"
    if kind == "seals":
        return f"{need[2]} {COLOUR_NAMES[need[1]]} wax seal(s)"
    names = {"empty_stacks": "empty stamp stack(s)", "lenses": "lenses used",
             "evo": "evolution steps", "tents": "tents on campsites"}
    return f"{need[1]} {names[kind]}"


@functools.cache
def _objective_needs(tile: int) -> tuple[str, ...]:
    """The texts of an objective tile's requirements (made once: every view lists them)."""
    return tuple(_need_text(need) for need in DATA.objectives[tile].needs)


# an objective's requirement kinds as the catalog names them (a Beagle goal's words)
_NEED_KINDS = {"kind": "specimen_kind", "color": "specimen_colour"}


def _requirement(kind: str, what: Any, n: int) -> dict[str, Any]:
    """A requirement (of an objective, or what a Beagle goal counts) for clients that draw
    it: its kind, what it names (a seal's colour letter, a specimen's kind or colour; "" for
    the others) and how many."""
    if kind == "specimen_kind":
        what = SPECIMEN_KINDS[what]
    elif kind == "specimen_colour":
        what = SPECIMEN_COLOURS[what]
    elif kind != "seals":
        what = ""
    return {"kind": kind, "what": what, "n": n}


def _objective_requires(tile: int) -> list[dict[str, Any]]:
    out = []
    for need in DATA.objectives[tile].needs:
        kind = _NEED_KINDS.get(need[0], need[0])
        out.append(_requirement(kind, need[1], need[2]) if len(need) > 2
                   else _requirement(kind, "", need[1]))
    return out


def _goal(tile: int) -> dict[str, Any]:
    goal = DATA.beagle_goals[tile]
    return {"tile": tile, "text": goal.text, "vp": goal.vp,
            **{k: v for k, v in _requirement(goal.kind, goal.what, 1).items() if k != "n"}}


def catalog(s: State, own_cards: list[int]) -> dict[str, Any]:
    """Texts and requirements of the components in play, for clients that draw the board.

    Made once per set of components (every read of a game makes the same one until a card
    or tile comes into play) and shared between views: treat it as read-only."""
    objectives = set(s.obj_gone) | {t for d in s.obj_display for t in d}
    for p in range(s.n):
        objectives.update(s.reserve[p])
        objectives.update(abs(x) for x in s.obj_slots[p] if x)
    objectives.update(t for pair in s.start_pairs for t in pair)
    crew = sorted({c for p in range(s.n) for c, _ in s.crew[p]} | set(own_cards))
    return _catalog(tuple(s.special), tuple(s.corr), tuple(s.goals), tuple(crew),
                    tuple(sorted(objectives)))


@functools.lru_cache(maxsize=4096)
def _catalog(special: tuple[int, ...], corr: tuple[int, ...], goals: tuple[int, ...],
             crew: tuple[int, ...], objectives: tuple[int, ...]) -> dict[str, Any]:
    return {
        "special": [{"position": i, "tile": t, "text": DATA.special_tiles[t].text,
                     "seals": dict(DATA.special_tiles[t].seals),
                     "actions": [action_json(a) for a in DATA.special_tiles[t].actions],
                     "seq": DATA.special_tiles[t].seq}
                    for i, t in enumerate(special) if t],
        "correspondence": [{"tile": t, "text": DATA.corr_tiles[t].text,
                            "first": [action_json(a) for a in DATA.corr_tiles[t].first],
                            "second": [action_json(a) for a in DATA.corr_tiles[t].second]}
                           for t in corr],
        "beagle_goals": [_goal(t) for t in goals],
        "crew": [{"card": c, "seal": DATA.crew[c].seal, "needs": dict(DATA.crew[c].needs),
                  "text": DATA.crew[c].text,
                  "actions": [action_json(a) for a in DATA.crew[c].actions],
                  "seq": DATA.crew[c].seq} for c in crew],
        "objectives": [{"tile": t, "gold": DATA.objectives[t].gold,
                        "needs": list(_objective_needs(t)),
                        "requires": _objective_requires(t)}
                       for t in objectives],
    }


# determinize runs once per MCTS iteration: the id lists it filters are sorted once here
# (regular objective tiles by colour: 0 silver, 1 gold; all crew cards)
_REGULAR_OBJECTIVES = tuple(
    tuple(sorted(o.id for o in DATA.objectives.values() if not o.starting and o.gold == bool(c)))
    for c in (0, 1))
_CREW_IDS = tuple(sorted(DATA.crew))


def determinize(v: dict[str, Any], seat: int, seed: int) -> State:
    """A full state consistent with view `v` of `seat`, the hidden parts sampled from `seed`."""
    # from_json copies every field as deep as it is nested, so the view is never aliased
    data = {name: v[name] for name in _VISIBLE}
    data["rng"] = seed_value(seed)
    data["alfred"] = v.get("alfred")
    data["seal_bag"] = []
    data["obj_decks"] = [[], []]
    data["hands"] = [[] for _ in v["hand_sizes"]]
    data["kept"] = [[] for _ in v["kept_sizes"]]
    data["crew_pool"] = []
    s = from_json(data)
    # the seal bag: its contents are known by colour, only the order is hidden
    s.seal_bag = [c for c in COLOURS for _ in range(v["seal_bag"][c])]
    shuffle(s, s.seal_bag)
    # objective piles: every regular tile not seen anywhere, shuffled
    seen = set(s.obj_gone)
    for d in s.obj_display:
        seen.update(d)
    for p in range(s.n):
        seen.update(s.reserve[p])
        seen.update(abs(x) for x in s.obj_slots[p] if x)
    for colour in (0, 1):
        unseen = [t for t in _REGULAR_OBJECTIVES[colour] if t not in seen]
        shuffle(s, unseen)
        s.obj_decks[colour] = unseen[: v["obj_decks"][colour]]
    # crew cards still hidden (the draft): own hand and kept cards are known
    known = set(v["hand"]) | set(v["kept"])
    for p in range(s.n):
        known.update(card for card, _ in s.crew[p])
    unseen = [c for c in _CREW_IDS if c not in known]
    shuffle(s, unseen)
    for i, size in enumerate(v["hand_sizes"]):
        if i == v["hand_index"]:
            s.hands[i] = list(v["hand"])
        else:
            s.hands[i] = [unseen.pop() for _ in range(size)]
    for p, size in enumerate(v["kept_sizes"]):
        s.kept[p] = list(v["kept"]) if p == seat else [unseen.pop() for _ in range(size)]
    s.crew_pool = [unseen.pop() for _ in range(v["crew_pool"])]
    if s.solo:
        hooks.solo().determinize(s)
    s.cache = None
    return s
