"""The Encyclopedia board in the terminal (registered with `clients.board.renderer`)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from clients.board import renderer, seat_name

AREAS = ("Bank", "Embassy", "University", "Academy")


def _die(view: dict[str, Any], d: int) -> str:
    colour = view["catalog"]["colours"][d // 4]
    return f"{colour[:3]} {view['dval'][d]}"


def _animal(view: dict[str, Any], card: int, cubes: bool = True) -> str:
    info = view["catalog"]["animals"][str(card)]
    text = f"{info['name']} ({view['catalog']['colours'][info['colour']][:3]})"
    if cubes:
        mask = view["cubes"][card]
        marks = "".join(t if mask >> i & 1 else "·"
                        for i, t in enumerate(("I", "II", "III", "IV")))
        text += f" [{marks}]"
    return text


def _expert(view: dict[str, Any], card: int) -> str:
    info = view["catalog"]["experts"][str(card)]
    return f"{info['name']}: {info['text']}"


def _seat_name(view: dict[str, Any], seat: int) -> str:
    return seat_name(seat, view)  # the AI by its name, whatever bot relays its moves


@renderer("encyclopedia")
def encyclopedia_view(view: dict[str, Any]) -> RenderableType:
    """Round and tile, the main board, then each seat's board."""
    cat = view["catalog"]
    head = Text(f"Round {view['round']} of 6 · phase {view['phase']} · first player "
                f"{_seat_name(view, view['first'])} · to act: "
                f"{_seat_name(view, view['to_act']) if view['to_act'] is not None else '—'}")
    if cat.get("tile"):
        head.append(f"\nRound tile: {cat['tile']}")
    board = Table(title="Main board", title_justify="left", show_header=False)
    board.add_column("where")
    board.add_column("what")
    board.add_row("Experts", "\n".join(_expert(view, c) for c in view["xdisplay"]) or "—")
    board.add_row("Animals", ", ".join(_animal(view, c, False) for c in view["adisplay"]) or "—")
    for i, name in enumerate(AREAS):
        board.add_row(name, ", ".join(_die(view, d) for d in view["areas"][i]) or "—")
    for c, slots in enumerate(view["cont"]):
        board.add_row(cat["colours"][c],
                      " | ".join(_die(view, d) if d >= 0 else "free" for d in slots))
    board.add_row("Bag", ", ".join(f"{cat['colours'][c][:3]} {n}"
                                   for c, n in enumerate(view["bag"])))
    board.add_row("Decks", f"experts {view['xdeck']}, animals {view['adeck']}")
    if view.get("to_place"):
        board.add_row("To place", ", ".join(_die(view, d) for d in view["to_place"]))
    # One block per player (a 10-column table does not fit 80 columns).
    seats: list[RenderableType] = []
    for p in range(view["seat_count"]):
        dice = "\n".join(f"{cat['spaces'][i]}: " + ", ".join(_die(view, d) for d in space)
                         for i, space in enumerate(view["spaces"][p]) if space)
        experts = "\n".join(_expert(view, stack[-1]) + (f" (+{len(stack) - 1} under)"
                                                        if len(stack) > 1 else "")
                            for stack in view["experts"][p] if stack)
        rows = Table.grid(padding=(0, 1))
        rows.add_column(style="cyan", no_wrap=True)
        rows.add_column(overflow="fold")
        mark = "▶ " if p == view.get("to_act") else ""
        rows.add_row(Text(mark + _seat_name(view, p), style="bold"),
                     f"{view['coins'][p]} coins · {view['tokens'][p]} tokens · "
                     f"{view['seals'][p]} seals · {view['vp'][p]} VP · "
                     f"reputation {view['rep'][p]} · {len(view['published'][p])} published")
        rows.add_row("dice", dice or "—")
        rows.add_row("experts", experts or "—")
        rows.add_row("animals", ", ".join(_animal(view, c) for c in view["hand"][p]) or "—")
        seats.append(rows)
    parts: list[RenderableType] = [Panel(head, title="Encyclopedia"), board,
                                   Text("Players", style="bold"), *seats]
    ai = view.get("ai")
    if ai:
        order = " > ".join(cat["colours"][c] for c in ai["priority"])
        parts.append(Text(f"AI: behaviour card {ai['behaviour'] or 'hidden'}, scoring card "
                          f"{ai['scoring'] or 'hidden'}; continent priority {order}"))
    return Group(*parts)
