"""Darwin's Journey component data: the JSON files in `data/`, loaded once into frozen objects."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"

COLOURS = ("G", "B", "R", "Y")  # regular wax seals; "P" is the purple (special) seal
COLOUR_NAMES = {"G": "green", "B": "blue", "R": "red", "Y": "yellow", "P": "purple"}
ISLANDS = ("A", "B", "C")
SPECIMEN_COLOURS = ("green", "blue", "red", "yellow")  # museum rows A-D
SPECIMEN_KINDS = ("reptile", "plant", "bird", "fossil")  # museum columns 1-4

Action = tuple[Any, ...]


def _action(raw: dict[str, Any]) -> Action:
    """A data action as a hashable tuple: (kind, value, extra)."""
    kind = raw["a"]
    if kind == "choice":
        return ("choice", tuple(tuple(_action(a) for a in option) for option in raw["of"]))
    if kind == "academy":
        return ("academy", raw.get("d", 0))
    if kind == "campsite":
        return ("campsite", raw["area"])
    if kind == "correspond":
        return ("correspond", raw["n"], bool(raw.get("split", False)))
    if kind == "unlock":
        return ("unlock", bool(raw.get("free", False)))
    if "n" in raw:
        return (kind, raw["n"])
    return (kind,)


def _actions(raw: list[dict[str, Any]]) -> tuple[Action, ...]:
    return tuple(_action(a) for a in raw)


def action_json(action: Action) -> dict[str, Any]:
    """An action in the data files' JSON form (`{"a": "coins", "n": 2}`), for clients that
    draw it (the inverse of `_action`, but for an academy's discount, named `discount`
    here: a member named `d` breaks the models openapi-python-client generates)."""
    kind = action[0]
    if kind == "choice":
        return {"a": "choice", "of": [[action_json(a) for a in option] for option in action[1]]}
    if kind == "academy":
        return {"a": "academy", "discount": action[1]} if action[1] else {"a": "academy"}
    if kind == "campsite":
        return {"a": "campsite", "area": action[1]}
    if kind == "correspond":
        return {"a": "correspond", "n": action[1], **({"split": True} if action[2] else {})}
    if kind == "unlock":
        return {"a": "unlock", **({"free": True} if action[1] else {})}
    if len(action) > 1:
        return {"a": kind, "n": action[1]}
    return {"a": kind}


@dataclass(frozen=True, slots=True)
class Location:
    """A worker-placement location of the central board."""

    id: str
    page: str
    diary: str
    kind: str  # circle / lens / square
    strength: int
    unlock_cost: int  # 0 = printed or neutral lens (never locked)
    seals: tuple[tuple[str, int], ...]
    actions: tuple[Action, ...]
    silver: tuple[Action, ...]
    gold: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class Space:
    """A space of the ocean or an island track."""

    id: str
    index: int
    next: tuple[int, ...]
    actions: tuple[Action, ...]
    band: str  # island whose start a silver band leads to ("" none)
    ribbon: int  # golden ribbon VP (0 none)


@dataclass(frozen=True, slots=True)
class Campsite:
    """A campsite area with its tent slots (each slot has its cost and its own actions, p.15)."""

    id: str
    space: str
    costs: tuple[int, ...]
    slot_actions: tuple[tuple[Action, ...], ...]


@dataclass(frozen=True, slots=True)
class SpecialTile:
    """A special action tile."""

    id: int
    seals: tuple[tuple[str, int], ...]
    actions: tuple[Action, ...]
    seq: bool
    text: str


@dataclass(frozen=True, slots=True)
class CrewCard:
    """A crew card: starting seal, five-seal requirement, reward actions."""

    id: int
    seal: str
    needs: tuple[tuple[str, int], ...]
    actions: tuple[Action, ...]
    seq: bool
    text: str


@dataclass(frozen=True, slots=True)
class BeagleGoal:
    """A Beagle goal tile."""

    id: int
    kind: str
    what: Any
    vp: int
    text: str


@dataclass(frozen=True, slots=True)
class CorrespondenceTile:
    """A correspondence tile with first- and second-place rewards."""

    id: int
    first: tuple[Action, ...]
    second: tuple[Action, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Objective:
    """An objective tile (silver or gold) and its requirements."""

    id: int
    gold: bool
    starting: bool
    needs: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True, slots=True)
class ObjectiveSlot:
    """A silver or gold objective slot of the personal board."""

    cost: int
    vp: int
    reward: str


@dataclass(frozen=True, slots=True)
class Data:
    """Every component of the game."""

    locations: dict[str, Location]
    location_ids: tuple[str, ...]
    placement_penalty: dict[int, int]
    reserve_coins: dict[int, int]
    turn_order_spots: int
    end_bonus: int
    beagle_spaces: tuple[int, ...]
    delay_penalties: tuple[int, ...]
    scroll_costs: tuple[int, ...]
    seal_slot_costs: tuple[int, ...]
    seal_end_vp: tuple[int, int]
    tent_rewards: tuple[tuple[Action, ...], ...]
    all_tents_vp: int
    stamp_rewards: tuple[tuple[Action, ...], ...]
    objective_slots: tuple[ObjectiveSlot, ...]  # 0-4 silver, 5-9 gold
    pair_vp: int
    books: tuple[int, ...]
    ocean: tuple[Space, ...]
    ocean_index: dict[str, int]
    islands: tuple[tuple[Space, ...], ...]
    island_index: dict[str, tuple[int, int]]
    campsites: dict[str, Campsite]
    campsite_ids: tuple[str, ...]
    specimen_spaces: dict[int, tuple[str, ...]]
    special_tiles: dict[int, SpecialTile]
    first_game_special: tuple[int, ...]
    crew: dict[int, CrewCard]
    beagle_goals: dict[int, BeagleGoal]
    first_game_goals: tuple[int, ...]
    corr_tiles: dict[int, CorrespondenceTile]
    first_game_corr: tuple[int, ...]
    first_game_crew: tuple[tuple[int, ...], ...]
    objectives: dict[int, Objective]

    def section(self, loc_id: str, players: int) -> str:
        """The diary section of a location for this player count ("" = no placement penalty).

        p.8: the special diary's red bookmark makes each of its pages a section at every player
        count; the main diaries are one section each, split by page on the 4-player side; the
        small diary is always one section.
        """
        loc = self.locations[loc_id]
        if loc.kind == "square" or not loc.diary:
            return ""
        if loc.diary == "special" or (players >= 4 and loc.diary != "small"):
            return loc.page
        return loc.diary


def _seals(raw: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(raw.items()))


def _track(raw: list[dict[str, Any]]) -> tuple[Space, ...]:
    index = {s["id"]: i for i, s in enumerate(raw)}
    return tuple(
        Space(s["id"], i, tuple(index[n] for n in s["next"]), _actions(s["actions"]),
              s.get("band", ""), s.get("ribbon", 0))
        for i, s in enumerate(raw)
    )


def load_data() -> Data:
    """Read every data file (called once at import)."""
    board = json.loads((_DIR / "board.json").read_text())
    tracks = json.loads((_DIR / "tracks.json").read_text())
    comp = json.loads((_DIR / "components.json").read_text())
    locations = {
        raw["id"]: Location(raw["id"], raw["page"], raw["diary"], raw["kind"], raw["strength"],
                            raw.get("unlock", 0), _seals(raw["seals"]), _actions(raw["actions"]),
                            _actions(raw["silver"]), _actions(raw["gold"]))
        for raw in board["locations"]
    }
    ocean = _track(tracks["ocean"])
    islands = tuple(_track(tracks["islands"][k]) for k in ISLANDS)
    island_index = {s.id: (i, s.index) for i, track in enumerate(islands) for s in track}
    slots = board["objective_slots"]
    return Data(
        locations=locations,
        location_ids=tuple(locations),
        placement_penalty={int(k): v for k, v in board["placement_penalty"].items()},
        reserve_coins={int(k): v for k, v in board["reserve_turn_order_coins"].items()},
        turn_order_spots=board["turn_order_spots"],
        end_bonus=board["end_bonus"],
        beagle_spaces=tuple(board["beagle_spaces"]),
        delay_penalties=tuple(board["delay_penalties"]),
        scroll_costs=tuple(board["scroll_costs"]),
        seal_slot_costs=tuple(board["seal_slot_costs"]),
        seal_end_vp=(board["seal_end_vp"]["5"], board["seal_end_vp"]["6"]),
        tent_rewards=tuple(_actions(r) for r in board["tent_rewards"]),
        all_tents_vp=board["all_tents_vp"],
        stamp_rewards=tuple(_actions(r) for r in board["stamp_stack_rewards"]),
        objective_slots=tuple(ObjectiveSlot(s["cost"], s["vp"], s["reward"])
                              for s in slots["silver"] + slots["gold"]),
        pair_vp=slots["pair_vp"],
        books=tuple(board["books"]),
        ocean=ocean,
        ocean_index={s.id: s.index for s in ocean},
        islands=islands,
        island_index=island_index,
        campsites={c["id"]: Campsite(c["id"], c["space"], tuple(c["costs"]),
                                     tuple(_actions(a) for a in c["slot_actions"]))
                   for c in tracks["campsites"]},
        campsite_ids=tuple(c["id"] for c in tracks["campsites"]),
        specimen_spaces={int(k): tuple(v) for k, v in tracks["specimen_spaces"].items()},
        special_tiles={t["id"]: SpecialTile(t["id"], _seals(t["seals"]), _actions(t["actions"]),
                                            bool(t.get("seq", False)), t["text"])
                       for t in comp["special_tiles"]},
        first_game_special=tuple(comp["first_game_special"]),
        crew={c["id"]: CrewCard(c["id"], c["seal"], _seals(c["needs"]), _actions(c["actions"]),
                                bool(c.get("seq", False)), c["text"])
              for c in comp["crew_cards"]},
        beagle_goals={g["id"]: BeagleGoal(g["id"], g["kind"], g["what"], g["vp"], g["text"])
                      for g in comp["beagle_goals"]},
        first_game_goals=tuple(comp["first_game_goals"]),
        corr_tiles={t["id"]: CorrespondenceTile(t["id"], _actions(t["first"]),
                                                _actions(t["second"]), t["text"])
                    for t in comp["correspondence_tiles"]},
        first_game_corr=tuple(comp["first_game_correspondence"]),
        first_game_crew=tuple(tuple(x) for x in comp["first_game_crew"]),
        objectives={o["id"]: Objective(o["id"], o["gold"], o["starting"],
                                       tuple(tuple(n) for n in o["needs"]))
                    for o in comp["objectives"]},
    )


DATA = load_data()
