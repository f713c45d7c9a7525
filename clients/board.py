"""Drawing a game in the terminal with rich, from the view the API gives a seat.

`render_view(game, view)` draws any game generically: scalar facts in one table, a list of
records (players, locations, offers) as a table with a row each, nested parts as a tree,
every value as words and numbers (never JSON). A game with a better picture registers its
own renderer with `@renderer("game-name")`, and may name its moves (`@move_namer`) and
leave out events that repeat their move (`quiet_events`). The log's events read in the
server's words (each event's `text`). Seats have one name everywhere: "You", "Alfred" (a
game's automa), "Player 2 (Greedy)" — see `name_seats`, which the server's texts share.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from clients.i18n import _

Renderer = Callable[[dict[str, Any]], RenderableType]
MoveNamer = Callable[[dict[str, Any], dict[str, Any]], str | None]
Summary = Callable[[dict[str, Any]], str]
_RENDERERS: dict[str, Renderer] = {}
_SUMMARIES: dict[str, Summary] = {}
_MOVE_NAMERS: dict[str, MoveNamer] = {}
_QUIET_EVENTS: dict[str, frozenset[str]] = {}

CELL_WIDTH = 60
# Keys that say nothing a player needs on screen (echoed elsewhere or internal).
SKIP_KEYS = {"game"}
# Records with more fields than this read better as one line each than as a wide table.
MAX_TABLE_COLUMNS = 5

# The names of the seats of the game being drawn (set from a game body by `name_seats`).
_SEAT_NAMES: ContextVar[dict[int, str] | None] = ContextVar("seat_names", default=None)
# The bots' titles as the server gives them in the reader's language ("Greedy", "Ganancioso"),
# so that a seat reads "Player 3 (Greedy)" here as in the server's log texts.
_BOT_TITLES: ContextVar[dict[str, str] | None] = ContextVar("bot_titles", default=None)


def use_bot_titles(bots: list[dict[str, Any]]) -> None:
    """Name bots from now on by their titles in the server's bot list (`GET /v1/bots`)."""
    _BOT_TITLES.set({str(b["name"]): str(b.get("title") or b["name"]) for b in bots})


# -- registries --------------------------------------------------------------------------------


def renderer(game: str) -> Callable[[Renderer], Renderer]:
    """Register a game's own view renderer (decorator)."""
    def register(function: Renderer) -> Renderer:
        _RENDERERS[game] = function
        return function
    return register


def summary(game: str) -> Callable[[Summary], Summary]:
    """Register a game's one-line summary of a view (round, phase...) for the turn line."""
    def register(function: Summary) -> Summary:
        _SUMMARIES[game] = function
        return function
    return register


def move_namer(game: str) -> Callable[[MoveNamer], MoveNamer]:
    """Register how a game's moves read in a list: `f(move, view)` -> text or None."""
    def register(function: MoveNamer) -> MoveNamer:
        _MOVE_NAMERS[game] = function
        return function
    return register


def quiet_events(game: str, *types: str) -> None:
    """Register the events of `game` the log leaves out (they only repeat their move)."""
    _QUIET_EVENTS[game] = frozenset(types)


# -- names -------------------------------------------------------------------------------------


def bot_name(bot: str) -> str:
    """"alfred" -> "Alfred", "mcts" -> "Mcts"."""
    return bot[:1].upper() + bot[1:]


def automa_name(game: Any, bot: str) -> str:
    """A game's own automa by its rulebook's name: Alfred (Darwin's Journey), the AI
    (Encyclopedia), else the relaying bot's name."""
    if game == "encyclopedia":
        return _("AI")
    return bot_name(bot)


def name_seats(body: dict[str, Any]) -> dict[int, str]:
    """Name every seat of a game read body (and use these names from now on)."""
    view = body.get("view") or {}
    automa = view.get("automa_seats") or {}
    names: dict[int, str] = {}
    for entry in body.get("seats") or []:
        seat = int(entry.get("seat", len(names)))
        if seat == body.get("seat"):
            names[seat] = _("You")
        elif str(seat) in automa:
            names[seat] = automa_name(body.get("game"), str(automa[str(seat)]))
        elif entry.get("kind") == "bot":
            bot = str(entry.get("bot"))
            names[seat] = _("Player {n} ({bot})").format(
                n=seat + 1, bot=(_BOT_TITLES.get() or {}).get(bot, bot))
        else:
            names[seat] = _("Player {n}").format(n=seat + 1)
    _SEAT_NAMES.set(names)
    return names


def seat_name(seat: Any, view: dict[str, Any] | None = None) -> str:
    """The one name of `seat` on screen."""
    if not isinstance(seat, int):
        return compact(seat)
    names = _SEAT_NAMES.get() or {}
    if seat in names:
        return names[seat]
    view = view or {}
    automa = view.get("automa_seats") or {}
    if str(seat) in automa:
        return automa_name(view.get("game"), str(automa[str(seat)]))
    if view.get("seat") == seat:
        return _("You")
    return _("Player {n}").format(n=seat + 1)


def humanize(key: str) -> str:
    """"loc_owner" -> "Loc owner" (a view's key as a heading)."""
    text = str(key).replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:]


# -- values as text ----------------------------------------------------------------------------


def compact(value: Any, width: int = CELL_WIDTH) -> str:
    """A short one-line text for any JSON value: words and numbers, never JSON."""
    text = _plain(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _plain(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, dict):
        if not value:
            return "—"
        return ", ".join(f"{humanize(k) if isinstance(k, str) and '_' in k else k} "
                         f"{_nested(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if not value:
            return "—"
        if all(not isinstance(v, dict | list | tuple) for v in value):
            return ", ".join(_plain(v) for v in value)
        return "; ".join(_nested(v) for v in value)
    return str(value)


def _nested(value: Any) -> str:
    """A value inside another: parenthesised when it has parts of its own."""
    if isinstance(value, dict | list | tuple) and len(value) > 1:
        return f"({_plain(value)})"
    return _plain(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool) or (
        isinstance(value, list) and len(value) <= 12
        and all(v is None or isinstance(v, str | int | float | bool) for v in value))


def _is_records(value: Any) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(v, dict) for v in value))


# -- the generic picture -----------------------------------------------------------------------


def records_table(title: str, records: list[dict[str, Any]]) -> RenderableType:
    """One row per record and one column per key; records with many keys as a line each."""
    columns: list[str] = []
    for record in records:
        for key in record:
            if key not in columns:
                columns.append(key)
    if len(columns) > MAX_TABLE_COLUMNS:
        tree = Tree(Text(humanize(title), style="bold"))
        for index, record in enumerate(records, start=1):
            tree.add(f"[dim]{index}[/] " + ", ".join(
                f"[cyan]{humanize(k)}[/] {_nested(v)}" for k, v in record.items()))
        return tree
    table = Table(title=humanize(title), title_justify="left", show_lines=False, expand=False)
    table.add_column("#", style="dim")
    for column in columns:
        table.add_column(humanize(column), overflow="fold")
    for index, record in enumerate(records, start=1):
        table.add_row(str(index), *(compact(record.get(c), 40) for c in columns))
    return table


def _tree(label: str, value: Any, depth: int = 0) -> Tree:
    tree = Tree(Text(humanize(label), style="bold"))
    _grow(tree, value, depth)
    return tree


def _grow(tree: Tree, value: Any, depth: int) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if _is_scalar(item) or depth >= 3:
                tree.add(f"[cyan]{humanize(key)}[/]: {compact(item)}")
            else:
                _grow(tree.add(f"[cyan]{humanize(key)}[/]"), item, depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value, start=1):
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
            facts.add_row(humanize(key), compact(value, 80))
        elif _is_records(value) and len(value) <= 30:
            parts.append(records_table(key, value))
        else:
            parts.append(_tree(key, value))
    return Group(facts, *parts)


def render_view(game: str, view: dict[str, Any]) -> RenderableType:
    """The game's picture for `view`: its registered renderer, else the generic one."""
    special = _RENDERERS.get(game)
    if special is not None:
        try:
            return special(view)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass  # a view layout the renderer does not know (yet): show it generically
    return generic_view(view)


# -- moves, events, the log --------------------------------------------------------------------


def move_text(move: dict[str, Any], game: str = "", view: dict[str, Any] | None = None) -> str:
    """How a move reads in a list: the game's own words, its label, else its fields."""
    namer = _MOVE_NAMERS.get(game)
    if namer is not None:
        try:
            text = namer(move, view or {})
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            text = None
        if text:
            return text
    label = move.get("label")
    if label:
        return str(label)
    fields = {k: v for k, v in move.items() if k not in ("label", "type", "secret")}
    kind = humanize(str(move.get("type", _("move"))))
    return f"{kind} ({_plain(fields)})" if fields else kind


def event_text(game: str, event: dict[str, Any]) -> str:
    """How an event reads in the log: the server's words (the log's `text`, in the asked
    language, the reader's seat "You"), else its type and fields ("" for an event the game
    leaves out)."""
    if event.get("type") in _QUIET_EVENTS.get(game, ()):
        return ""
    if isinstance(event.get("text"), str) and event["text"]:
        return event["text"]
    if event.get("redacted"):
        return _("{what} (hidden)").format(what=humanize(str(event.get("type"))))
    fields = {k: v for k, v in event.items() if k not in ("type", "seat", "to", "text")}
    text = humanize(str(event.get("type", _("event"))))
    if fields:
        text += " " + _plain(fields)
    if isinstance(event.get("seat"), int):
        text = f"{seat_name(event['seat'])}: {text}"
    return text


def log_lines(game: str, entry: dict[str, Any], view: dict[str, Any] | None = None) -> list[str]:
    """One logged move as lines: who did what, then what followed (its events)."""
    move = entry.get("move") or {}
    who = seat_name(entry.get("seat"))
    taken = entry.get("takeback")
    if isinstance(taken, int) and not isinstance(taken, bool):
        # A take-back (docs/api.md): which move it undid says it all.
        return [f"{who}: " + _("took back move {number}").format(number=taken + 1)]
    if move.get("secret") is True and "label" not in move:
        what = _("a secret choice")
    else:
        what = move_text(move, game, view)
    # "Alfred: Alfred draws..." says the name twice
    lines = [what if what.startswith(who) else f"{who}: {what}"]
    for event in entry.get("events") or []:
        described = event_text(game, event)
        if described and described != lines[0]:  # an event saying what the move said
            lines.append(f"    · {described}")
    return lines


def moves_table(moves: list[dict[str, Any]], title: str | None = None, game: str = "",
                view: dict[str, Any] | None = None,
                numbers: list[int] | None = None) -> Table:
    """The numbered legal moves to choose from."""
    table = Table(title=title or _("Your moves"), title_justify="left", show_header=False,
                  box=None)
    table.add_column(justify="right", style="bold yellow", no_wrap=True)
    table.add_column(overflow="fold")
    for index, move in enumerate(moves):
        number = numbers[index] if numbers else index + 1
        table.add_row(str(number), move_text(move, game, view))
    return table


def turn_line(body: dict[str, Any]) -> str:
    """Whose turn it is, with the game's summary: "Your turn · Round 2 of 5 · ..."."""
    seat = body.get("to_act")
    line = (_("Your turn") if seat == body.get("seat")
            else _("{seat} to play").format(seat=seat_name(seat)))
    describe = _SUMMARIES.get(str(body.get("game")))
    if describe is not None:
        try:
            line += " · " + describe(body.get("view") or {})
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass
    return line


def status_of(status: Any) -> str:
    """A game status in words."""
    return {"active": _("in progress"), "finished": _("finished"),
            "aborted": _("aborted"), "abandoned": _("abandoned")}.get(str(status), str(status))


def game_header(body: dict[str, Any]) -> Panel:
    """A one-panel summary of a game read body: id, status, the seats, who acts."""
    names = name_seats(body)
    text = Text()
    text.append(f"{body.get('game')}  ", style="bold")
    text.append(_("game {id} · move {version} · {status}").format(
        id=body.get("id"), version=body.get("version"), status=status_of(body.get("status"))))
    for seat, name in names.items():
        mark = "▶ " if seat == body.get("to_act") else "  "
        text.append(f"\n{mark}{name}")
    return Panel(text, expand=False)


def result_table(result: dict[str, Any]) -> RenderableType:
    """The final scores, their breakdown and the ranking of a finished game."""
    scores = result.get("scores")
    if not isinstance(scores, list):
        return _tree(_("Result"), result)
    seats = range(len(scores))
    table = Table(title=_("Result"), title_justify="left")
    table.add_column("")
    for seat in seats:
        table.add_column(seat_name(seat), justify="right", overflow="fold")
    breakdown = result.get("breakdown")
    if isinstance(breakdown, list) and all(isinstance(b, dict) for b in breakdown):
        categories = [k for k in breakdown[0] if k != "total"] if breakdown else []
        for category in categories:
            table.add_row(score_category(category),
                          *(compact(breakdown[s].get(category)) for s in seats))
    table.add_row(_("Total"), *(compact(scores[s]) for s in seats), style="bold")
    places = result.get("places")
    if isinstance(places, list) and len(places) == len(scores):
        table.add_row(_("Place"), *(str(p) for p in places))
    winners = result.get("winners")
    if isinstance(winners, list) and winners:
        return Group(table, Text(_("Winner: {names}").format(
            names=", ".join(seat_name(s) for s in winners)), style="bold green"))
    return table


def score_category(key: str) -> str:
    """A score breakdown's category in words (the game's catalog, else the key)."""
    words = {"game": _("During the game"), "objectives": _("Objectives"),
             "objective_pair": _("Objective pairs"), "workers": _("Workers (seals)"),
             "tents": _("Tents"), "evolution": _("Evolution"), "coins": _("Coins"),
             "knowledge": _("Temporary Knowledge")}
    return words.get(key, humanize(key))


# Games whose renderers live in their own modules register on import.
from clients import (  # noqa: E402, F401
    board_darwins_journey,
    board_encyclopedia,
    board_flotilla,
)
