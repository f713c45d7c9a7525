"""Darwin's Journey in the terminal, 80 columns wide: the board, the explorers, the log.

Card and tile texts come from the view's `catalog`, which the server gives in the asked
language (`core/darwins_journey/i18n.py catalog`).
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.board import move_namer, quiet_events, renderer, seat_name, summary
from clients.i18n import _
from core.texts import plural

GAME = "darwins-journey"
_LOCKED, _OPEN = -1, -2
ROUNDS = 5


def colour(code: str) -> str:
    """A wax seal's colour letter in words."""
    return {"G": _("green"), "B": _("blue"), "R": _("red"), "Y": _("yellow"),
            "P": _("purple")}.get(code, code)


def board_colour(name: Any) -> str:
    """Alfred's board (his difficulty) in words."""
    return {"white": _("white"), "blue": _("blue"), "yellow": _("yellow"),
            "green": _("green")}.get(str(name), str(name))


def seals_text(seals: dict[str, int] | list[str]) -> str:
    """{"G": 2, "B": 1} -> "2 green, 1 blue"; ["P", "B"] -> "purple, blue"."""
    if isinstance(seals, dict):
        return ", ".join(f"{n} {colour(c)}" for c, n in seals.items()) or _("none")
    return ", ".join(colour(c) for c in seals) or _("no seals")


def specimen(k: int) -> str:
    """Specimen 0..15 in words: its colour (museum row k // 4) and kind (column k % 4)."""
    return (_("green reptile"), _("green plant"), _("green bird"), _("green fossil"),
            _("blue reptile"), _("blue plant"), _("blue bird"), _("blue fossil"),
            _("red reptile"), _("red plant"), _("red bird"), _("red fossil"),
            _("yellow reptile"), _("yellow plant"), _("yellow bird"), _("yellow fossil"))[k]


def location(place: str) -> str:
    """"explore.2" -> "Exploration 2", "special.0" -> "Special action 1", "deliver" -> ..."""
    page, _dot, number = place.partition(".")
    names = {"explore": _("Exploration"), "navigate": _("Navigation"),
             "correspond": _("Correspondence"), "academy": _("Academy"),
             "special": _("Special action"), "unlock": _("Unlock a lens"),
             "deliver": _("Museum: deliver"), "research": _("Museum: research"),
             "turn_order": _("Turn order")}
    name = names.get(page, place)
    if number.isdigit():
        return f"{name} {int(number) + 1 if page == 'special' else int(number)}"
    return name


def space(code: str) -> str:
    """"O6" -> "ocean 6", "IB4" -> "island B 4"."""
    if code.startswith("O") and code[1:].isdigit():
        return _("ocean {n}").format(n=code[1:])
    if code.startswith("I") and len(code) > 2:
        return _("island {island} {n}").format(island=code[1], n=code[2:])
    return code


def card_text(view: dict[str, Any], kind: str, number: int) -> str:
    """The text of a crew card, special tile, goal or correspondence tile."""
    key = "card" if kind == "crew" else "tile"
    for entry in (view.get("catalog") or {}).get(kind) or []:
        if entry.get(key) == number:
            return str(entry["text"])
    return ""


def objective_text(view: dict[str, Any], tile: int) -> str:
    """An objective tile's requirements in words."""
    for entry in (view.get("catalog") or {}).get("objectives") or []:
        if entry.get("tile") == tile:
            kind = _("gold") if entry.get("gold") else _("silver")
            needs = " + ".join(str(n) for n in entry.get("needs") or [])
            return f"{kind}: {needs}"
    return ""


# -- the board ---------------------------------------------------------------------------------


def _per_seat(view: dict[str, Any], key: str, seat: int, default: Any = None) -> Any:
    values = view.get(key)
    if isinstance(values, list) and seat < len(values):
        return values[seat]
    return default


def _phase(view: dict[str, Any]) -> str:
    return {"draft": _("crew card draft"), "start_objectives": _("starting objectives"),
            "actions": _("action phase"), "rewards": _("reward phase"),
            "over": _("game over")}.get(str(view.get("phase")), str(view.get("phase")))


def _player(view: dict[str, Any], seat: int) -> Table:
    """One explorer's personal board as a few lines."""
    lines = Table.grid(padding=(0, 1))
    lines.add_column(style="cyan", no_wrap=True)
    lines.add_column(overflow="fold")
    mark = "▶ " if seat == view.get("to_act") else ""
    coins = _per_seat(view, "coins", seat, 0)
    lines.add_row(Text(mark + seat_name(seat, view), style="bold"), plural(
        coins, _("{coins} coin · {vp} VP · {tk} temporary knowledge · evolution {evo}"),
        _("{coins} coins · {vp} VP · {tk} temporary knowledge · evolution {evo}")).format(
        coins=coins, vp=_per_seat(view, "vp", seat, 0),
        tk=_per_seat(view, "tk", seat, 0), evo=_per_seat(view, "evo", seat, 0)))
    explorers = _per_seat(view, "explorers", seat, []) or []
    on_islands = ", ".join(f"{'ABC'[i]} {pos}" for i, pos in enumerate(explorers) if pos >= 0)
    lines.add_row(_("Journey"), _("ship at ocean {ship} · explorers on islands: {where}").format(
        ship=_per_seat(view, "ship", seat, 0), where=on_islands or _("none")))
    home = set(_per_seat(view, "home", seat, []) or [])
    workers = []
    for index, seals in enumerate(_per_seat(view, "seals", seat, []) or []):
        if index == 4 and not _per_seat(view, "worker5", seat, False):
            continue
        where = _("home") if index in home else _("on the board")
        workers.append(_("Worker {n} ({seals}; {where})").format(
            n=worker_name(view, seat, index), seals=seals_text(seals), where=where))
    lines.add_row(_("Workers"), "\n".join(workers) or _("none"))
    stamps = " ".join(str(s) for s in _per_seat(view, "stamps", seat, []) or [])
    lines.add_row(_("Stamps"), _("stacks {stacks}, tray {tray} · tents placed {tents} · "
                                 "lenses {lenses}").format(
        stacks=stamps, tray=_per_seat(view, "tray", seat, 0),
        tents=_per_seat(view, "tents", seat, 0), lenses=_per_seat(view, "lenses", seat, 0)))
    research = int(_per_seat(view, "research", seat, 0) or 0)
    found = [specimen(k) for k in range(16) if research >> k & 1]
    lines.add_row(_("Specimens"), ", ".join(found) or _("none"))
    crew = []
    for card, row in _per_seat(view, "crew", seat, []) or []:
        done = _(" (fulfilled)") if row >= 0 else ""
        crew.append(_("Crew card {n}{done}: {text}").format(
            n=card, done=done, text=card_text(view, "crew", card)))
    if crew:
        lines.add_row(_("Crew"), "\n".join(crew))
    objectives = []
    for tile in _per_seat(view, "reserve", seat, []) or []:
        objectives.append(_("Objective {n} (reserve): {text}").format(
            n=tile, text=objective_text(view, tile)))
    for slot in _per_seat(view, "obj_slots", seat, []) or []:
        if slot:
            state = _("fulfilled") if slot < 0 else _("open")
            objectives.append(_("Objective {n} ({state}): {text}").format(
                n=abs(slot), state=state, text=objective_text(view, abs(slot))))
    if objectives:
        lines.add_row(_("Objectives"), "\n".join(objectives))
    return lines


def _locations(view: dict[str, Any]) -> RenderableType:
    """The main board, one line per page of locations: state and workers of each."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column(overflow="fold")
    workers = view.get("loc_workers") or {}
    pages: dict[str, list[str]] = {}
    for place, owner in (view.get("loc_owner") or {}).items():
        page, _dot, number = place.partition(".")
        state = {_LOCKED: _("locked"), _OPEN: _("open")}.get(
            owner, _("lens of {seat}").format(seat=seat_name(owner, view)))
        placed = ", ".join(seat_name(s, view) for s in workers.get(place) or [])
        text = f"{state}: {placed}" if placed else state
        name = location(page) if number else ""
        pages.setdefault(name or location(place), []).append(
            f"{location(place).removeprefix(name).strip()} {text}".strip() if name else text)
    for name, places in pages.items():
        table.add_row(name, " · ".join(places))
    return Group(Text(_("Main board"), style="bold"), table)


def _tiles(view: dict[str, Any]) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column(overflow="fold")
    cat = view.get("catalog") or {}
    for entry in cat.get("special") or []:
        grid.add_row(_("Special {n}").format(n=entry["position"] + 1), _(
            "tile {tile} (seals {seals}): {text}").format(
            tile=entry["tile"], seals=seals_text(entry.get("seals") or {}),
            text=entry["text"]))
    envelopes = view.get("envelopes") or []
    for index, entry in enumerate(cat.get("correspondence") or []):
        stamps = envelopes[index] if index < len(envelopes) else []
        who = ", ".join(f"{seat_name(s, view)} {n}" for s, n in enumerate(stamps) if n)
        grid.add_row(_("Envelope {n}").format(n=index + 1), _("{text} [stamps: {who}]").format(
            text=entry["text"], who=who or _("none")))
    goals = cat.get("beagle_goals") or []
    for index, entry in enumerate(goals):
        grid.add_row(_("Beagle goal {n}").format(n=index + 1), entry["text"])
    if "academy" in view:
        grid.add_row(_("Academy"), _("seals on the scrolls: {seals}").format(
            seals=seals_text([c for c in view["academy"] if c])))
    bag = view.get("seal_bag")
    if isinstance(bag, dict):
        grid.add_row(_("Seal bag"), seals_text(bag))
    specimens = view.get("specimens") or {}
    if specimens:
        grid.add_row(_("Specimens"), ", ".join(
            f"{space(place)}: {specimen(k)}" for place, k in specimens.items()))
    shown = [t for pile in view.get("obj_display") or [] for t in pile]
    for tile in shown:
        grid.add_row(_("Objective {n}").format(n=tile), objective_text(view, tile))
    return grid


def _draft(view: dict[str, Any]) -> Table | None:
    rows = [(_("in hand"), c) for c in view.get("hand") or []]
    rows += [(_("kept"), c) for c in view.get("kept") or []]
    if not rows:
        return None
    grid = Table(title=_("Your crew cards"), title_justify="left", box=None, show_header=False)
    grid.add_column(no_wrap=True, style="cyan")
    grid.add_column(overflow="fold")
    for where, card in rows:
        grid.add_row(_("Card {n} ({where})").format(n=card, where=where),
                     card_text(view, "crew", card))
    return grid


@summary(GAME)
def headline(view: dict[str, Any]) -> str:
    """Round, phase and turn order in one line."""
    order = " → ".join(seat_name(s, view) for s in view.get("order") or [])
    return _("Round {round} of {rounds} · {phase} · turn order: {order}").format(
        round=view.get("round"), rounds=ROUNDS, phase=_phase(view), order=order)


@renderer(GAME)
def darwins_journey_view(view: dict[str, Any]) -> RenderableType:
    """The board as the seat sees it: head line, each explorer, the main board, the tiles."""
    seats = int(view.get("seat_count") or view.get("n") or len(view.get("coins") or []))
    parts: list[RenderableType] = [Text(headline(view), style="bold")]
    parts += [_player(view, seat) for seat in range(seats)]
    parts += [_locations(view), _tiles(view)]
    draft = _draft(view)
    if draft is not None:
        parts.append(draft)
    alfred = view.get("alfred")
    if isinstance(alfred, dict):
        deck = alfred.get("deck_size")
        parts.append(Text(plural(
            deck, _("Alfred: {colour} board, {deck} action card left, bonus track space {bonus}"),
            _("Alfred: {colour} board, {deck} action cards left, bonus track space {bonus}"))
            .format(colour=board_colour(alfred.get("board")), deck=deck,
                    bonus=alfred.get("bonus"))))
    return Group(*parts)


# -- moves and events --------------------------------------------------------------------------


@move_namer(GAME)
def move_words(move: dict[str, Any], view: dict[str, Any]) -> str | None:
    """The engine's label, its places named and the text of the card or tile it names."""
    label = str(move.get("label") or "")
    if isinstance(move.get("location"), str):
        label = _replace_word(label, move["location"], location(move["location"]))
    for key in ("space", "campsite"):
        if isinstance(move.get(key), str):
            label = _replace_word(label, move[key], space(move[key]))
    kind = move.get("type")
    if kind == "draft" and isinstance(move.get("card"), int):
        return f"{label}: {card_text(view, 'crew', move['card'])}"
    if kind == "objective" and isinstance(move.get("tile"), int):
        return f"{label} ({objective_text(view, move['tile'])})"
    if kind == "pair":
        return (f"{label} ({objective_text(view, move['silver'])}; "
                f"{objective_text(view, move['gold'])})")
    return label or None


def _replace_word(text: str, word: str, by: str) -> str:
    """`text` with `word` (a whole word: "O1" not in "O12") replaced."""
    return re.sub(rf"(?<![\w.]){re.escape(word)}(?![\w.])", by, text)


def worker_name(view: dict[str, Any], seat: Any, index: Any) -> str:
    """A worker as its board shows it: 1-5 for an explorer, A-D for Alfred (the automa)."""
    if not isinstance(index, int):
        return str(index)
    if str(seat) in (view.get("automa_seats") or {}):
        return "ABCDE"[index]
    return str(index + 1)


# The log's events read in the server's words (their `text`); these it leaves out:
# the move itself says which card was kept.
quiet_events(GAME, "draft", "drafted")
