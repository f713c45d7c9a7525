"""Encyclopedia component data: the JSON files in `data/` (all stand-ins), loaded once, frozen.

Every file is "stand-in, designed from the rules; replace with the physical components'
values": the seed gives kinds and ranges, not the printed cards (RULES.md E24).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.texts import counted

_DIR = Path(__file__).parent / "data"
# the singular of an expert's gain kind that has one ("+1 token"; "+1 rep", "+1 vp" as they are)
_GAIN_SINGULAR = {"coins": "coin", "tokens": "token", "seals": "seal"}


def _load(name: str) -> dict[str, Any]:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class Animal:
    """An animal card: its colour (continent) and its category for each type I-IV."""

    id: int
    name: str
    colour: int
    categories: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Expert:
    """An expert card: colour, timing and its effect over one of a few hooks."""

    id: int
    name: str
    colour: int
    when: str  # immediate / permanent / end
    gain: tuple[tuple[str, int], ...]  # immediate: (resource, amount)
    hook: str  # permanent: value / bank; end: published_colour / experts / seals
    action: str  # the action a "value" hook boosts
    n: int  # value bonus, bank coins or VP
    per: int
    cap: int

    def text(self) -> str:
        """A one-line description for views and labels."""
        if self.when == "immediate":
            return "now: " + ", ".join(f"+{counted(v, _GAIN_SINGULAR.get(k, k), k)}"
                                       for k, v in self.gain)
        if self.hook == "value":
            return f"always: +{self.n} value on {self.action}"
        if self.hook == "bank":
            return f"always: +{counted(self.n, 'coin', 'coins')} on Bank"
        if self.hook == "published_colour":
            return f"end: {self.n} VP per published animal of its colour"
        if self.hook == "experts":
            return f"end: {self.n} VP per {counted(self.per, 'expert', 'experts')}"
        return f"end: {self.n} VP per royal seal (up to {self.cap})"


def _expert(raw: dict[str, Any]) -> Expert:
    n = raw.get("n", raw.get("vp", raw.get("coins", 0)))
    return Expert(raw["id"], raw["name"], raw["colour"], raw["when"],
                  tuple(sorted(raw.get("gain", {}).items())), raw.get("hook", ""),
                  raw.get("action", ""), n, raw.get("per", 1), raw.get("max", 0))


@dataclass(frozen=True, slots=True)
class Behaviour:
    """A solo AI behaviour card (stand-in, G31; its fields are explained in solo.json)."""

    id: int
    name: str
    priority: tuple[str, ...]
    rival_dice_first: bool
    continental: bool
    extra_action: bool
    double_space: int
    animal: float
    cube: float
    rep: float
    deny: float
    rival: float
    bias: dict[str, float]


@dataclass(frozen=True, slots=True)
class Level:
    """A solo AI level card, the "scoring" option (stand-in, G31; fields in solo.json)."""

    id: int
    name: str
    coins: int
    seals: bool
    deny: bool
    own_first: bool
    foresight: float
    per_published: int
    first_useful: bool
    threshold: float
    # since procedure 2 (solo.json's "procedure"); the default is procedure 1's play
    first_die: bool = False
    # since procedure 3: per round 1-6, the research cubes an animal of the die's colour must
    # hold for the AI to publish (empty: any, even a bare card); whether it files extras
    publish_cubes: tuple[int, ...] = ()
    continental: bool = True


def _behaviour(b: dict[str, Any]) -> Behaviour:
    return Behaviour(b["id"], b["name"], tuple(b["priority"]), b["rival_dice_first"],
                     b["continental"], b["extra_action"], b["double_space"], b["animal"],
                     b["cube"], b["rep"], b["deny"], b["rival"], dict(b["bias"]))


def _level(x: dict[str, Any]) -> Level:
    return Level(x["id"], x["name"], x["coins"], x["seals"], x["deny"], x["own_first"],
                 x["foresight"], x["per_published"], x["first_useful"], x["threshold"],
                 x.get("first_die", False), tuple(x.get("publish_cubes", ())),
                 x.get("continental", True))


class Data:
    """All component data, read once."""

    def __init__(self) -> None:
        c = _load("components.json")
        self.colours: tuple[str, ...] = tuple(c["colours"])
        self.per_colour: int = c["dice_per_colour"]
        self.dice = len(self.colours) * self.per_colour
        self.die_colour: tuple[int, ...] = tuple(d // self.per_colour for d in range(self.dice))
        self.rounds: int = c["rounds"]
        self.dice_per_round: int = c["dice_per_round"]
        self.expert_display: int = c["expert_display"]
        self.animal_display: dict[int, int] = {int(k): v for k, v in c["animal_display"].items()}
        self.starting_coins: tuple[int, ...] = tuple(c["starting_coins"])
        self.starting_tokens: int = c["starting_tokens"]
        self.starting_animals: int = c["starting_animals"]
        self.space_ids: tuple[str, ...] = tuple(s["id"] for s in c["die_spaces"])
        self.space_labels: tuple[str, ...] = tuple(s["label"] for s in c["die_spaces"])
        self.space_rewards: tuple[tuple[tuple[str, int], ...], ...] = tuple(
            tuple(sorted(s["reward"].items())) for s in c["die_spaces"])
        self.tiles: tuple[str, ...] = tuple(t["effect"] for t in c["round_tiles"])
        # how much the tile gives each player (tokens, coins, picks, dice; 0: no effect)
        self.tile_amounts: tuple[int, ...] = tuple(t.get("n", 0) for t in c["round_tiles"])
        self.tile_texts: tuple[str, ...] = tuple(t["text"] for t in c["round_tiles"])
        self.actions: tuple[str, ...] = tuple(c["actions"])
        self.bank_coins: int = c["bank_coins"]
        self.embassy_tokens: tuple[int, ...] = tuple(c["embassy_tokens"])
        self.academy_rep: tuple[int, ...] = tuple(c["academy_rep"])
        track = c["reputation_track"]
        self.track_length: int = track["length"]
        self.track_bonus: dict[int, tuple[tuple[str, int], ...]] = {
            int(k): tuple(sorted(v.items())) for k, v in track["bonuses"].items()}
        self.vp_beyond_track: int = track["vp_beyond_end"]
        self.continent_rep: tuple[int, ...] = tuple(s["rep"] for s in c["continent_spaces"])
        self.continent_bonus: tuple[int, ...] = tuple(s["bonus"] for s in c["continent_spaces"])
        self.types: tuple[str, ...] = tuple(c["types"])
        self.categories: tuple[tuple[str, ...], ...] = tuple(tuple(x) for x in c["categories"])
        self.research_cost: tuple[int, ...] = tuple(c["research_cost"])
        self.research_vp: tuple[int, ...] = tuple(c["research_vp"])
        self.publish_continental: int = c["publish_min"]["continental"]
        self.publish_min: tuple[int, ...] = tuple(c["publish_min"]["types"])
        self.publish_vp: tuple[int, ...] = tuple(c["publish_vp"])
        self.category_collection: tuple[int, ...] = tuple(c["category_collection"])
        self.continent_collection: tuple[int, ...] = tuple(c["continent_collection"])
        self.seal_end_vp: int = c["seal_end_vp"]
        self.coins_per_vp: int = c["coins_per_vp"]
        self.token_end_vp: int = c["token_end_vp"]
        self.seal_coins: int = c["seal_coins"]
        self.seal_value: int = c["seal_value"]
        self.animals: tuple[Animal, ...] = tuple(
            Animal(a["id"], a["name"], a["colour"], tuple(a["categories"]))  # type: ignore[arg-type]
            for a in _load("animals.json")["animals"])
        self.experts: tuple[Expert, ...] = tuple(
            _expert(x) for x in _load("experts.json")["experts"])
        solo = _load("solo.json")
        self.continent_cards: tuple[int, ...] = tuple(x["colour"] for x in solo["continent_cards"])
        self.behaviours_by_procedure: dict[int, dict[int, Behaviour]] = {
            int(v): {b["id"]: _behaviour(b) for b in cards}
            for v, cards in solo["behaviour_cards_by_procedure"].items()}
        # the AI's procedure version: a game keeps the level cards it was set up with, so the
        # moves of a stored game replay (the AI is part of the rules, E21)
        self.procedure: int = solo["procedure"]
        self.levels_by_procedure: dict[int, dict[int, Level]] = {
            int(v): {x["id"]: _level(x) for x in cards}
            for v, cards in solo["level_cards_by_procedure"].items()}
        self.behaviours: dict[int, Behaviour] = self.behaviours_by_procedure[self.procedure]
        self.levels: dict[int, Level] = self.levels_by_procedure[self.procedure]
        # a card's category index on the publication grid, per type: type * 4 + category
        self.animal_cell: tuple[tuple[int, ...], ...] = tuple(
            tuple(t * 4 + cat for t, cat in enumerate(a.categories)) for a in self.animals)


DATA = Data()
