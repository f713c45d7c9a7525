"""The table's geometry rules: where tiles may go, Watercraft, Artifact circles, Sonar Stations."""

from __future__ import annotations

import functools
from typing import Any

from core.flotilla import data as D

Board = dict[int, list[int]]


def sink(tile: int) -> dict[str, Any]:
    return D.TILES[tile]["sinkside"]


def sky(tile: int) -> dict[str, Any]:
    return D.TILES[tile]["skyside"]


_AREA_CACHE: dict[tuple[int, int], frozenset[int]] = {}


def area(n: int, k: int) -> frozenset[int]:
    """Cells of the k-th sector (the k-th player in turn order): inside their boundary lines
    (F3.4.13, F16.2), off the Hub."""
    key = (n, k)
    if key not in _AREA_CACHE:
        _, sector = D.LAYOUT[n]
        _AREA_CACHE[key] = frozenset(c for c, owner in sector.items() if owner == k)
    return _AREA_CACHE[key]


def open_cells(s: dict[str, Any], p: int) -> list[int]:
    """Empty cells next to one of `p`'s tiles, inside `p`'s boundary, touching no opponent's
    tile (F16.1, F18.1 step 3), in a fixed order."""
    board = s["board"]
    mine = area(s["n"], s["sector"][p])
    found: set[int] = set()
    for cell, entry in board.items():
        if entry[2] != p:
            continue
        for nb in D.NEIGH[cell]:
            if nb >= 0 and nb not in board and nb in mine:
                found.add(nb)
    out = []
    for cell in sorted(found):
        if all(nb < 0 or nb not in board or board[nb][2] == p for nb in D.NEIGH[cell]):
            out.append(cell)
    return out


def depth_fits(board: Board, cell: int, tile: int) -> bool:
    """A23: the lost icon read as a Depth rule: next to your Ocean Tiles a placed tile's Depth
    differs by at most 1 (no Shallows beside Slope). Starter Tiles have no Depth."""
    depth = sink(tile)["depth"]
    for nb in D.NEIGH[cell]:
        entry = board.get(nb) if nb >= 0 else None
        if entry is not None and entry[0] >= 0 and abs(sink(entry[0])["depth"] - depth) > 1:
            return False
    return True


@functools.cache
def rotations(tile: int, side: str) -> list[int]:
    """Rotations of a tile that differ in effect (the rulebook allows any, F16.5).

    Cached: tile data do not change during a run (tests that patch a face call
    `rotations.cache_clear`)."""
    seen: dict[Any, int] = {}
    for rot in range(6):
        if side == "sink":
            key: Any = tuple(sorted(((v + rot) % 6, col) for v, col in sink(tile)["wedges"]))
        else:
            face = sky(tile)
            sonar = face["sonar"]
            key = (tuple(sorted((e + rot) % 6 for e in face["watercraft_edges"])),
                   None if sonar is None else (sonar + rot) % 6)
        seen.setdefault(key, rot)
    return sorted(seen.values())


def _corner_cells(cell: int, vertex: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two other cells at `vertex` of `cell`, each with that corner's index on them."""
    return ((D.NEIGH[cell][vertex], (vertex + 2) % 6),
            (D.NEIGH[cell][(vertex + 1) % 6], (vertex + 4) % 6))


def completed_circles(board: Board, cell: int) -> int:
    """Artifact circles the tile just placed at `cell` completes (F16.6: one Artifact each)."""
    tile, rot = board[cell][0], board[cell][1]
    count = 0
    for v, colour in sink(tile)["wedges"]:
        gv = (v + rot) % 6
        ok = True
        for other, corner in _corner_cells(cell, gv):
            entry = board.get(other) if other >= 0 else None
            if entry is None or entry[0] < 0 or not any(
                    (w + entry[1]) % 6 == corner and c == colour
                    for w, c in sink(entry[0])["wedges"]):
                ok = False
                break
        count += ok
    return count


def completed_station(board: Board, cell: int) -> bool:
    """Whether the Skyside tile just built at `cell` completes a Sonar Station (F27.5)."""
    tile, rot = board[cell][0], board[cell][1]
    sonar = sky(tile)["sonar"]
    if sonar is None:
        return False
    gv = (sonar + rot) % 6
    for other, corner in _corner_cells(cell, gv):
        entry = board.get(other) if other >= 0 else None
        if entry is None or entry[0] < 0:
            return False
        theirs = sky(entry[0])["sonar"]
        if theirs is None or (theirs + entry[1]) % 6 != corner:
            return False
    return True


def edges(entry: list[int]) -> set[int]:
    """The edges a Skyside tile's Watercraft reaches (the Starter Tile's face: data)."""
    tile, rot = entry[0], entry[1]
    if tile < 0:
        return set(D.BOARDS["starter_tiles"][0]["skyside"]["watercraft_edges"])
    return {(e + rot) % 6 for e in sky(tile)["watercraft_edges"]}


def _linked(board: Board, cell: int, e: int, p: int) -> int:
    """The cell across edge `e` of `cell` when the Watercraft continues there, else -1."""
    nb = D.NEIGH[cell][e]
    entry = board.get(nb) if nb >= 0 else None
    if entry is None or entry[2] != p:
        return -1
    return nb if e in edges(board[cell]) and (e + 3) % 6 in edges(entry) else -1


def watercraft(board: Board, cell: int, p: int) -> set[int]:
    """All cells of the Watercraft through `cell` (F19.2: connected art is one Watercraft)."""
    seen = {cell}
    todo = [cell]
    while todo:
        c = todo.pop()
        for e in range(6):
            nb = _linked(board, c, e, p)
            if nb >= 0 and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen


def districts(entry: list[int]) -> list[int]:
    """Colour indexes of a Skyside tile's Districts (A27: one or more per face)."""
    if entry[0] < 0:
        return []
    return [D.COLOURS.index(c) for c in sky(entry[0])["districts"]]


def district_chain(board: Board, cell: int, colour: int, p: int) -> int:
    """B of F20.1: tiles of that District colour linked to `cell` without gaps.

    A29: reading (a), the chain runs along edges where the Watercraft connects.
    """
    seen = {cell}
    todo = [cell]
    while todo:
        c = todo.pop()
        for e in range(6):
            nb = _linked(board, c, e, p)
            if nb >= 0 and nb not in seen and colour in districts(board[nb]):
                seen.add(nb)
                todo.append(nb)
    return len(seen)


def build_score(s: dict[str, Any], cell: int, colour: int, p: int) -> tuple[int, int]:
    """(A, B) of F20.1 for the District `colour` of the tile just built at `cell`.

    A30: the new tile's own Building counts (it is part of the Watercraft once placed).
    A28: a Building's type is its tile's District colour (data: `building` is a colour).
    """
    board = s["board"]
    guild = D.COLOUR_GUILD[colour]
    buildings = 0
    for c in watercraft(board, cell, p):
        tile = board[c][0]
        if tile >= 0 and sky(tile)["building"] == D.COLOURS[colour]:
            buildings += 1
    a = min(D.DIAL_MAX, s["dials"][guild] + buildings)
    return a, district_chain(board, cell, colour, p)
