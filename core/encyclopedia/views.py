"""What a seat may see (`view`) and a full state sampled from it (`determinize`).

E23: hidden are the decks' contents (shown as sizes), the dice in the bag (shown as counts
per colour), the round tiles not yet flipped (a count) and, in solo, the AI's behaviour and
scoring cards when they were drawn at random (A4). The state stores no order for any of
these (draws are made when they happen), so determinize only rebuilds the sets.
G32 / A36: coins, tokens, seals, VP and published piles are public.
"""

from __future__ import annotations

from typing import Any

from core.encyclopedia import rules, scoring
from core.encyclopedia.data import DATA
from core.encyclopedia.rng import randbelow, seed_value
from core.encyclopedia.state import FIELDS, State, from_json, to_json

_HIDDEN = {"rng", "xdeck", "adeck", "bag", "tiles_left", "ai"}
_VISIBLE = tuple(name for name in FIELDS if name not in _HIDDEN)


def _ai_view(s: State, seat: int | None) -> dict[str, Any] | None:
    if not s.solo:
        return None
    out = dict(s.ai)
    for name in ("behaviour", "scoring"):
        if s.options.get(name) == "random" and seat != rules.AI_SEAT:
            out[name] = None  # drawn at random: the AI's hidden card
    return out


def view(s: State, seat: int | None) -> dict[str, Any]:
    """The state as `seat` (None: a spectator) may see it."""
    data = to_json(s)
    out: dict[str, Any] = {"game": "encyclopedia", "seat": seat, "to_act": rules.to_act(s),
                           "seat_count": s.n,
                           "automa_seats": {str(rules.AI_SEAT): "automa"} if s.solo else {}}
    for name in _VISIBLE:
        out[name] = data[name]
    out["xdeck"] = len(s.xdeck)
    out["adeck"] = len(s.adeck)
    bag = [0] * len(DATA.colours)
    for d in s.bag:
        bag[rules.DIE_COLOUR[d]] += 1
    out["bag"] = bag
    out["tiles_left"] = len(s.tiles_left)
    # what each seat's published animals and experts would score by continent if the game
    # ended now (E20.2(b)), for clients that show it beside the piles
    out["continent_vp"] = [scoring.continents(s, p) for p in range(s.n)]
    out["ai"] = _ai_view(s, seat)
    out["catalog"] = catalog(s)
    return out


def catalog(s: State) -> dict[str, Any]:
    """Names and texts of the components in sight, for clients that draw the board. An
    animal's `categories` are words (translated for a reader); its `category_ids` are the
    same categories as indices within each type (I-IV), the stable keys a client draws an
    icon or a grid cell from."""
    animals = set(s.adisplay)
    for cards in (*s.hand, *s.published):
        animals.update(cards)
    experts = set(s.xdisplay)
    for boards in s.experts:
        for stack in boards:
            experts.update(stack)
    experts.update(f[2] for f in s.stack if f[0] == "xplace")
    return {
        "colours": list(DATA.colours),
        "types": list(DATA.types),
        "spaces": list(DATA.space_labels),
        "tile": DATA.tile_texts[s.tiles[-1]] if s.tiles and len(s.tiles) >= s.round else None,
        "animals": {str(c): {"name": DATA.animals[c].name, "colour": DATA.animals[c].colour,
                             "categories": [DATA.categories[t][k] for t, k in
                                            enumerate(DATA.animals[c].categories)],
                             "category_ids": list(DATA.animals[c].categories)}
                    for c in sorted(animals)},
        "experts": {str(c): {"name": DATA.experts[c].name, "colour": DATA.experts[c].colour,
                             "text": DATA.experts[c].text()} for c in sorted(experts)},
    }


def hidden(s: State) -> dict[str, Any]:
    """What no view shows every seat (E23): the RNG, the decks, the bag, the round tiles
    still face down and the AI's cards drawn at random. A move that changes none of it drew
    and revealed nothing (core.takeback)."""
    out: dict[str, Any] = {name: getattr(s, name) for name in sorted(_HIDDEN - {"ai"})}
    if s.solo:
        out["ai"] = {name: s.ai.get(name) for name in ("behaviour", "scoring")}
    return out


def determinize(v: dict[str, Any], seat: int, seed: int) -> State:
    """A full state consistent with view `v` of `seat`, the hidden parts sampled from `seed`."""
    data = {name: v[name] for name in _VISIBLE}
    data["rng"] = seed_value(seed)
    data["xdeck"], data["adeck"], data["bag"], data["tiles_left"] = [], [], [], []
    data["ai"] = dict(v["ai"]) if v.get("ai") else {}
    s = from_json(data)
    seen_x = set(s.xdisplay) | set(s.xdiscard)
    for boards in s.experts:
        for stack in boards:
            seen_x.update(stack)
    for frame in s.stack:
        if frame[0] == "xplace":
            seen_x.add(frame[2])
    s.xdeck = [c for c in range(len(DATA.experts)) if c not in seen_x]
    seen_a = set(s.adisplay) | set(s.adiscard) | set(s.removed)
    for cards in (*s.hand, *s.published):
        seen_a.update(cards)
    s.adeck = [c for c in range(len(DATA.animals)) if c not in seen_a]
    used = set(rules.main_board_dice(s)) | set(s.on_cards) | set(s.to_place)
    used.update(frame[2] for frame in s.stack if frame[0] == "mod")  # the die in hand
    for board in s.spaces:
        for space in board:
            used.update(space)
    s.bag = [d for d in range(DATA.dice) if d not in used]
    s.tiles_left = [t for t in range(len(DATA.tiles)) if t not in s.tiles]
    if s.solo:
        for name in ("behaviour", "scoring"):
            if s.ai.get(name) is None:
                s.ai[name] = 1 + randbelow(s, 3)
    return s
