"""Set-up (RULES.md F3): a new game from options and a seed."""

from __future__ import annotations

from typing import Any

from core.contract import InvalidOptions
from core.flotilla import data as D
from core.flotilla.rng import randbelow, seed_value, shuffle

OPTIONS: dict[str, dict[str, Any]] = {
    "players": {"type": "int", "choices": [3, 4, 5], "default": 3,
                "description": "number of players (the rulebook covers 3 to 5, F1.8)"},
    # A10: two readings that both matter; (a) is the recommended default.
    "captain_returns": {"type": "bool", "default": True,
                        "description": "A10: Regroup returns the Captain to hand too (reading a);"
                                       " false: the Captain is discarded (reading b)"},
    # Readings where the print is ambiguous or lost (docs/flotilla-choices.md lists them).
    "sonar_optional": {"type": "bool", "default": True,
                       "description": "A44: completing a Sonar Station lets you choose to advance"
                                      " the Sonar marker (p. 11 'may'); false: always advanced"
                                      " (p. 15 'immediately')"},
    "drawn_tile_optional": {"type": "bool", "default": False,
                            "description": "A24: a tile drawn by the single-draw icon may be"
                                           " declined; false: it is placed if it can be (the"
                                           " glossary's 'you also place it')"},
    "sell_dock_skiffs": {"type": "bool", "default": False,
                         "description": "A45: joining the Flotilla sells a Skiff on the Starter"
                                        " Tile too; false: only Skiffs on Ocean Tiles are sold"
                                        " (the text), the other goes back unsold"},
    "depth_rule": {"type": "bool", "default": True,
                   "description": "A23: the lost placement icon read as a Depth rule (no"
                                  " Depth 1 beside Depth 3); false: no such restriction"},
    # F35.1: the rules declare nothing secret and a hand is deducible (starting cards plus
    # recruits from face-up stacks, minus the open discard pile); hidden by default, as
    # players do not usually track it, open on request.
    "open_hands": {"type": "bool", "default": False,
                   "description": "every seat sees every hand (F35.1: hands are deducible);"
                                  " false: a seat sees its own hand and the others' sizes"},
}


READINGS = ("sonar_optional", "drawn_tile_optional", "sell_dock_skiffs", "depth_rule")


def parse_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options with defaults filled in; `InvalidOptions` names a bad one."""
    if not isinstance(options, dict):
        raise InvalidOptions("options", "must be an object")
    for key in options:
        if key not in OPTIONS:
            raise InvalidOptions(key, "unknown option")
    players = options.get("players", 3)
    if isinstance(players, bool) or players not in (3, 4, 5):
        raise InvalidOptions("players", "must be 3, 4 or 5 (F1.8, F33.1)")
    flags = {}
    for key in ("captain_returns", "open_hands", *READINGS):
        value = options.get(key, OPTIONS[key]["default"])
        if not isinstance(value, bool):
            raise InvalidOptions(key, "must be true or false")
        flags[key] = value
    return {"players": players, **flags}


def new_game(options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A new game (F3): every random draw of set-up taken from `seed`, in a fixed order."""
    opts = parse_options(options)
    n = opts["players"]
    s: dict[str, Any] = {"n": n, "options": opts, "rng": seed_value(seed)}
    # F3.2.5 (R1): a random first player; seats follow clockwise from there (F4.1).
    first = randbelow(s, n)
    s["first"] = first
    s["turn"] = first
    s["round"] = 1
    s["end_round"] = None
    s["over"] = False
    # F3.3.6: 100 VP per player in the supply; A7: VP kept as integers, the reserve unbounded.
    s["vp_supply"] = D.BOARDS["supply"]["vp_per_player"] * n
    starters, _ = D.LAYOUT[n]
    order = [(first + k) % n for k in range(n)]  # turn order: First Player, Second Player, ...
    s["sector"] = [order.index(p) for p in range(n)]  # whose boundary lines are whose
    s["home"] = [starters[s["sector"][p]] for p in range(n)]
    s["board"] = {s["home"][p]: [-1 - p, 0, p, 0, 0] for p in range(n)}
    # F3.4.14: each player takes the coins of their Starter Tile
    s["coins"] = [D.BOARDS["starter_tiles"][order.index(p)]["coins"] for p in range(n)]
    s["vp"] = [0] * n
    s["sky"] = [0] * n
    s["tox"] = [0] * n  # F3.4.17: both Toxicity markers on their first space
    s["penalty"] = [0] * n
    s["rescued"] = [0] * n
    s["hand"] = [list(D.STARTER_CARDS) for _ in range(n)]  # F3.4.18
    s["discard"] = [[] for _ in range(n)]
    s["retired"] = [[] for _ in range(n)]
    # F3.4.16: one Skiff on the Starter Tile's Dock, three on the Player Board (-1)
    s["skiffs"] = [[s["home"][p], -1, -1, -1] for p in range(n)]
    s["cargo"] = [[[0] * 4 for _ in range(4)] for _ in range(n)]
    s["reserve"] = [[0] * 4 for _ in range(n)]
    s["tiles"] = [[] for _ in range(n)]  # Skyside tile Reserve
    s["outposts"] = [len(D.OUTPOST_PRICES)] * n
    s["floating"] = [0] * n
    s["seals"] = [[0] * 4 for _ in range(n)]
    s["wheel"] = [[0] * 4 for _ in range(n)]  # F3.4.20: top space; progress counted in spaces
    s["objectives"] = [[] for _ in range(n)]
    s["stations"] = [0] * n
    s["dials"] = [D.HUB["dial_start"]] * 4  # F3.2.4
    s["market"] = [D.BOARDS["market"]["start"][c] for c in D.COLOURS]  # F3.2.2
    s["sonar"] = 0  # F3.2.3
    s["survivor"] = 0  # F3.2.1
    s["hub"] = [[] for _ in range(4)]
    s["joined"] = 0
    s["trade"] = [[0] * 4, [0] * 4]  # Resources bought and sold this turn (F12.2-F12.4)
    # F3.3.7 (R2): objective sets chosen at random, one per player on each side; A8: a set is
    # the three tiles sharing `set`, highest value ("order" 0) on top (the end of the list).
    sets = sorted({o["set"] for o in D.OBJECTIVES})
    shuffle(s, sets)
    def stack(set_id: int) -> list[int]:
        tiles = [o for o in D.OBJECTIVES if o["set"] == set_id]
        return [o["id"] for o in sorted(tiles, key=lambda o: -o["order"])]
    s["obj_stacks"] = [[stack(x) for x in sets[:n]], [stack(x) for x in sets[n:2 * n]]]
    # F3.3.8 (R3, R4): one Artifact of each colour to the box, the rest in the bag
    s["art_box"] = []
    s["art_bag"] = []
    for g in range(4):
        ids = [a["id"] for a in D.ARTIFACTS if D.GUILDS.index(a["guild"]) == g]
        s["art_box"].append(ids.pop(randbelow(s, len(ids))))
        s["art_bag"].extend(ids)
    s["art_bag"].sort()
    s["ocean_bag"] = [t["id"] for t in D.TILES]  # R5: kept sorted; every draw is random
    # F3.3.9-F3.3.12 (R6, R7): per Guild and Level remove 5 - n cards, Level 1 over Level 2
    s["crew"] = []
    s["crew_box"] = []
    for guild in D.GUILDS:
        stack_cards: list[int] = []
        for level in (2, 1):
            ids = [c["id"] for c in D.CARDS if c["sinkside"]["guild"] == guild
                   and c["sinkside"]["level"] == level]
            for _ in range(5 - n):
                s["crew_box"].append(ids.pop(randbelow(s, len(ids))))
            shuffle(s, ids)
            stack_cards.extend(ids)
        s["crew"].append(stack_cards)  # top card last
    s["crew_box"].sort()
    s["stack"] = [["play"]]
    return s
