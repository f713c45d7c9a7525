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
    return _RENDERERS.get(game, generic_view)(view)


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
