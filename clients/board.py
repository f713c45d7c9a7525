"""Drawing a game in the terminal with rich, from the view the API gives a seat.

`render_view(game, view)` draws any game generically: scalar facts in one table, a list of
records (players, locations, offers) as a table with a row each, nested parts as a tree.
A game with a better picture registers its own renderer with `@renderer("game-name")`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

Renderer = Callable[[dict[str, Any]], RenderableType]
_RENDERERS: dict[str, Renderer] = {}

CELL_WIDTH = 60
# Keys that say nothing a player needs on screen (echoed elsewhere or internal).
SKIP_KEYS = {"game"}


def renderer(game: str) -> Callable[[Renderer], Renderer]:
    """Register a game's own view renderer (decorator)."""
    def register(function: Renderer) -> Renderer:
        _RENDERERS[game] = function
        return function
    return register


def render_view(game: str, view: dict[str, Any]) -> RenderableType:
    """The game's picture for `view`: its registered renderer, else the generic one."""
    special = _RENDERERS.get(game)
    if special is not None:
        try:
            return special(view)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass  # a view layout the renderer does not know (yet): show it generically
    return generic_view(view)


def compact(value: Any, width: int = CELL_WIDTH) -> str:
    """A short one-line text for any JSON value."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str | int | float):
        text = str(value)
    elif isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
        text = ", ".join(compact(v) for v in value) if value else "—"
    else:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool) or (
        isinstance(value, list) and len(value) <= 12
        and all(v is None or isinstance(v, str | int | float | bool) for v in value))


def _is_records(value: Any) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(v, dict) for v in value))


def records_table(title: str, records: list[dict[str, Any]]) -> Table:
    """A table with one row per record and one column per key (in first-seen order)."""
    columns: list[str] = []
    for record in records:
        for key in record:
            if key not in columns:
                columns.append(key)
    table = Table(title=title, title_justify="left", show_lines=False, expand=False)
    table.add_column("#", style="dim")
    for column in columns:
        table.add_column(column, overflow="fold")
    for index, record in enumerate(records):
        table.add_row(str(index), *(compact(record.get(c), 40) for c in columns))
    return table


def _tree(label: str, value: Any, depth: int = 0) -> Tree:
    tree = Tree(Text(label, style="bold"))
    _grow(tree, value, depth)
    return tree


def _grow(tree: Tree, value: Any, depth: int) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if _is_scalar(item) or depth >= 3:
                tree.add(f"[cyan]{key}[/]: {compact(item)}")
            else:
                _grow(tree.add(f"[cyan]{key}[/]"), item, depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if _is_scalar(item) or depth >= 3:
                tree.add(f"[dim]{index}[/] {compact(item)}")
            else:
                _grow(tree.add(f"[dim]{index}[/]"), item, depth + 1)
    else:
        tree.add(compact(value))


def generic_view(view: dict[str, Any]) -> RenderableType:
    """Any view: facts, record tables and trees, in the view's own key order."""
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="cyan")
    facts.add_column()
    parts: list[RenderableType] = []
    for key, value in view.items():
        if key in SKIP_KEYS:
            continue
        if _is_scalar(value):
            facts.add_row(key, compact(value, 80))
        elif _is_records(value) and all(
                all(_is_scalar(v) or isinstance(v, dict | list) for v in r.values())
                for r in value) and len(value) <= 30:
            parts.append(records_table(key, value))
        else:
            parts.append(_tree(key, value))
    return Group(facts, *parts)


def move_text(move: dict[str, Any]) -> str:
    """How a move reads in a list: its label, else its compact JSON."""
    label = move.get("label")
    if label:
        return str(label)
    return compact({k: v for k, v in move.items() if k != "label"}, 100)


def moves_table(moves: list[dict[str, Any]], title: str = "Your moves") -> Table:
    """The numbered legal moves to choose from."""
    table = Table(title=title, title_justify="left", show_header=False, box=None)
    table.add_column(justify="right", style="bold yellow")
    table.add_column()
    for number, move in enumerate(moves, start=1):
        table.add_row(str(number), move_text(move))
    return table


def game_header(body: dict[str, Any]) -> Panel:
    """A one-panel summary of a game read body: id, version, status, who acts."""
    seats = body.get("seats") or []
    who = []
    for entry in seats:
        kind = entry.get("bot") if entry.get("kind") == "bot" else "human"
        mark = "▶ " if entry.get("seat") == body.get("to_act") else "  "
        you = " (you)" if entry.get("seat") == body.get("seat") else ""
        who.append(f"{mark}seat {entry.get('seat')}: {kind}{you}")
    text = Text()
    text.append(f"{body.get('game')}  ", style="bold")
    text.append(f"game {body.get('id')}  version {body.get('version')}  {body.get('status')}\n")
    text.append("\n".join(who))
    return Panel(text, expand=False)


def result_table(result: dict[str, Any]) -> RenderableType:
    """The final scores and ranking of a finished game."""
    scores = result.get("scores")
    if isinstance(scores, list):
        table = Table(title="Result", title_justify="left")
        table.add_column("seat")
        table.add_column("score", justify="right")
        table.add_column("rank", justify="right")
        ranking = result.get("ranking") or []
        flat = [s for group in ranking for s in (group if isinstance(group, list) else [group])]
        for seat, score in enumerate(scores):
            rank = str(flat.index(seat) + 1) if seat in flat else "—"
            table.add_row(str(seat), compact(score), rank)
        return table
    return _tree("result", result)


# -- Darwin's Journey ------------------------------------------------------------------------

_DJ_LOCKED, _DJ_OPEN = -1, -2
_ISLANDS = "ABC"


def _dj_seat_name(view: dict[str, Any], seat: int) -> str:
    automa = view.get("automa_seats") or {}
    if str(seat) in automa or seat in automa:
        return "Alfred"
    return f"seat {seat}" + (" (you)" if view.get("seat") == seat else "")


def _dj_seals(rows: list[list[str]]) -> str:
    return " | ".join("".join(row) or "·" for row in rows)


def _dj_per_seat(view: dict[str, Any], key: str, seat: int, default: Any = None) -> Any:
    values = view.get(key)
    if isinstance(values, list) and seat < len(values):
        return values[seat]
    return default


@renderer("darwins-journey")
def darwins_journey_view(view: dict[str, Any]) -> RenderableType:
    """Darwin's Journey: round and phase, one row per seat, the board's locations and tiles."""
    seats = int(view.get("seat_count") or view.get("n") or len(view.get("coins") or []))
    order = view.get("order") or []
    head = Text()
    head.append(f"Round {view.get('round')}/5  ", style="bold")
    head.append(f"phase {view.get('phase')}  ")
    head.append("turn order " + " → ".join(_dj_seat_name(view, s) for s in order))
    head.append(f"  Beagle space {view.get('beagle')}  goals {compact(view.get('goals'))}")

    players = Table(title="Explorers", title_justify="left")
    for column in ("", "coins", "VP", "know.", "evol.", "ship", "explorers A/B/C",
                   "seals (rows)", "workers home", "stamps+tray", "tents", "lenses",
                   "crew", "objectives"):
        players.add_column(column, overflow="fold")
    for seat in range(seats):
        explorers = _dj_per_seat(view, "explorers", seat, []) or []
        explorers_text = " ".join(
            f"{_ISLANDS[i]}{pos}" if pos >= 0 else f"{_ISLANDS[i]}–"
            for i, pos in enumerate(explorers))
        crew = _dj_per_seat(view, "crew", seat, []) or []
        crew_text = ", ".join(f"{card}{'✓' if row >= 0 else ''}" for card, row in crew) or "—"
        slots = _dj_per_seat(view, "obj_slots", seat, []) or []
        done = sum(1 for x in slots if x < 0)
        shown = sum(1 for x in slots if x > 0)
        reserve = _dj_per_seat(view, "reserve", seat, []) or []
        stamps = _dj_per_seat(view, "stamps", seat, []) or []
        mark = "▶ " if seat == view.get("to_act") else ""
        players.add_row(
            mark + _dj_seat_name(view, seat),
            compact(_dj_per_seat(view, "coins", seat)), compact(_dj_per_seat(view, "vp", seat)),
            compact(_dj_per_seat(view, "tk", seat)), compact(_dj_per_seat(view, "evo", seat)),
            compact(_dj_per_seat(view, "ship", seat)), explorers_text,
            _dj_seals(_dj_per_seat(view, "seals", seat, []) or []),
            compact(_dj_per_seat(view, "home", seat)),
            f"{compact(stamps)} +{_dj_per_seat(view, 'tray', seat, 0)}",
            compact(_dj_per_seat(view, "tents", seat)),
            compact(_dj_per_seat(view, "lenses", seat)),
            crew_text,
            f"{done} done, {shown} open, reserve {compact(reserve)}")

    places = Table(title="Locations", title_justify="left", box=None)
    places.add_column("location")
    places.add_column("lens / state")
    places.add_column("workers")
    owners = view.get("loc_owner") or {}
    workers = view.get("loc_workers") or {}
    for location, owner in owners.items():
        state = {_DJ_LOCKED: "locked", _DJ_OPEN: "open"}.get(owner, f"lens of seat {owner}")
        placed = workers.get(location) or []
        places.add_row(location, state, ", ".join(_dj_seat_name(view, s) for s in placed) or "")

    tiles = Table.grid(padding=(0, 2))
    tiles.add_column(style="cyan")
    tiles.add_column()
    for key, label in (("special", "special tiles"), ("corr", "correspondence"),
                       ("envelopes", "envelope stamps"), ("academy", "academy seals"),
                       ("seal_bag", "seal bag"), ("purple", "purple seals"),
                       ("specimens", "specimens"), ("campsites", "campsites"),
                       ("obj_display", "objectives shown"), ("ribbons", "ribbons taken"),
                       ("ends", "end bonuses")):
        if key in view:
            tiles.add_row(label, compact(view[key], 100))
    parts: list[RenderableType] = [head, players, places, tiles]
    if view.get("hand") or view.get("kept"):
        parts.append(Text(f"your draft hand: {compact(view.get('hand'))}   "
                          f"kept: {compact(view.get('kept'))}"))
    if view.get("alfred"):
        parts.append(_tree("Alfred", view["alfred"]))
    return Group(*parts)


# Games whose renderers live in their own modules register on import.
from clients import board_encyclopedia, board_flotilla  # noqa: E402, F401
