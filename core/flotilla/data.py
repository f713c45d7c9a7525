"""Flotilla's component data (data/*.json, a stand-in set) and the hex geometry of the table.

Every data file is marked "stand-in, designed from the rulebook; replace with the physical
components' values": the rulebook gives no per-component values (RULES.md F36). Real values
can be dropped in by editing the JSON alone, as long as the shapes stay the same.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict[str, Any]:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


BOARDS = _load("boards.json")
TILES: list[dict[str, Any]] = _load("ocean_tiles.json")["tiles"]
DICE = _load("dice.json")
ARTIFACTS: list[dict[str, Any]] = _load("artifacts.json")["artifacts"]
OBJECTIVES: list[dict[str, Any]] = _load("objectives.json")["objectives"]
_CREW = _load("crew.json")
CARDS: list[dict[str, Any]] = _CREW["cards"]
STARTER_CARDS: list[int] = _CREW["starter"]
CAPTAIN, ACADEMIC = 0, 1
# A1: the component page's items are per player set (4 Skiffs, 6 Outposts, 10 Seals, ...).
# A2: 40 guild Crew Cards and 70 VP tokens as the seed says (the English lists' 46/67 ignored).
# A3: the caption numbers "14 10 12 8 1 5 / se exceder" are not used anywhere.
# A5: the 16 Resource Tokens are not modelled: cargo is counted as Barrels per colour.
# A22: "Tower" is read as the Skyside name of the Outpost; both use the same Outposts.
# A37: the Research dice's lost "[VP?]" icon is not on our stand-in faces (coins, Advance,
# Guild icons, one wildcard); an Artifact's research face may give VP instead.

# A4: four resource colours, one per Guild; only Delvers = blue is printed, the rest is ours.
COLOURS: list[str] = BOARDS["colours"]
GUILDS: list[str] = BOARDS["guilds"]
GUILD_COLOUR: list[int] = [COLOURS.index(BOARDS["guild_colour"][g]) for g in GUILDS]
COLOUR_GUILD: list[int] = [GUILD_COLOUR.index(c) for c in range(len(COLOURS))]
SCORING: dict[str, int] = BOARDS["scoring"]
PLAYER_BOARD = BOARDS["player_board"]
MARKET_PRICES: list[int] = BOARDS["market"]["prices"]
WHEEL_SPACES: int = BOARDS["wheels"]["spaces"]
# A18: the curved arrow lets one point of Influence jump over this space (reading (a)).
ARROW_SPACE: int = BOARDS["wheels"]["arrow_space"]
WHEELS: list[list[list[Any]]] = [BOARDS["wheels"][g] for g in GUILDS]
SONAR: list[dict[str, Any]] = BOARDS["sonar_track"]["spaces"]
DEPTH_KIND: dict[int, str] = {int(k): v for k, v in DICE["dive"]["depth_kind"].items()}
DIVE_KINDS = ("shallows", "shelf", "slope")
DIVE_FACES: dict[str, list[list[str]]] = {k: DICE["dive"][k] for k in DIVE_KINDS}
DIVE_SUPPLY: dict[str, int] = BOARDS["supply"]["dive_dice"]
RESEARCH_DICE: list[list[list[Any]]] = DICE["research"]
TOX_TRACK: int = PLAYER_BOARD["toxicity_track"]
PENALTY: list[int] = PLAYER_BOARD["score_penalty"]
OUTPOST_PRICES: list[int] = PLAYER_BOARD["outpost_prices"]
HUB = BOARDS["hub"]
DIAL_MAX: int = HUB["dial_max"]


def face(card: int, sky: bool) -> dict[str, Any]:
    """The face of a Crew Card a player on that side uses (A11: always the player's side)."""
    return CARDS[card]["skyside" if sky else "sinkside"]


def card_guild(card: int) -> int | None:
    """The card's Guild index; -1 for the Academic (all Guilds, F7.2); None for none."""
    g = CARDS[card]["sinkside"]["guild"]
    if g is None:
        return None
    return -1 if g == "all" else GUILDS.index(g)


def card_level(card: int) -> Any:
    return CARDS[card]["sinkside"]["level"]


# ---- hex geometry (A25: hexagonal tiles; axial coordinates, cells as small ints) ----
RADIUS: int = HUB["radius"]
_W = 2 * RADIUS + 1
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def cell_id(q: int, r: int) -> int:
    return (q + RADIUS) * _W + (r + RADIUS)


def cell_qr(cell: int) -> tuple[int, int]:
    return cell // _W - RADIUS, cell % _W - RADIUS


def _dist(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


CELLS: list[int] = [cell_id(q, r) for q in range(-RADIUS, RADIUS + 1)
                    for r in range(-RADIUS, RADIUS + 1) if _dist(q, r) <= RADIUS]
DIST: dict[int, int] = {c: _dist(*cell_qr(c)) for c in CELLS}
# NEIGH[c][e]: the cell across edge e of c, or -1 off the table
NEIGH: dict[int, tuple[int, ...]] = {}
for _c in CELLS:
    _q, _r = cell_qr(_c)
    NEIGH[_c] = tuple(cell_id(_q + dq, _r + dr) if _dist(_q + dq, _r + dr) <= RADIUS else -1
                      for dq, dr in DIRS)


def _angle(cell: int) -> float:
    q, r = cell_qr(cell)
    x, y = math.sqrt(3) * (q + r / 2), -1.5 * r
    return math.degrees(math.atan2(y, x)) % 360.0


def _layout(n: int) -> tuple[list[int], dict[int, int]]:
    """Starter Tile cells and each cell's owner sector for `n` players (F3.4.13, F36.5).

    Stand-in geometry: the Hub Board covers the cells within `hub_radius` of the centre; each
    player's boundary lines are two rays from the centre, so a player's area is a sector of
    360/n degrees, with the Starter Tile attached to the Hub in the sector's middle.
    """
    width = 360.0 / n
    sector = {c: int(((_angle(c) + 1e-6) % 360.0) // width) % n for c in CELLS
              if DIST[c] > HUB["hub_radius"]}
    starters = []
    for p in range(n):
        middle = (p + 0.5) * width
        ring = [c for c in CELLS if DIST[c] == HUB["starter_distance"] and sector[c] == p]
        starters.append(min(ring, key=lambda c: (abs((_angle(c) - middle + 180) % 360 - 180), c)))
    return starters, sector


LAYOUT: dict[int, tuple[list[int], dict[int, int]]] = {n: _layout(n) for n in (3, 4, 5)}
