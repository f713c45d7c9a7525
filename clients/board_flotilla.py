"""The terminal picture of a Flotilla view: the table as a hex map, the boards, the players.

Everything comes from the view (its `catalog` names the cards, tiles and objectives in
sight), so the client needs no engine data.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from clients.board import renderer, seat_name

_SEAT_STYLE = ["cyan", "magenta", "green", "yellow", "red"]


def _hex_map(view: dict[str, Any]) -> Text:
    """Rows of the hex grid, offset by half a cell: `##` Hub, `Sn` Starter Tile of seat n,
    `nd` an Ocean Tile of seat n (d = Depth, or * on the Skyside), `x` when depleted,
    `+` an Outpost, `.` empty table."""
    cat = view["catalog"]
    radius, width = cat["radius"], 2 * cat["radius"] + 1
    board = {int(c): e for c, e in view["board"].items()}
    text = Text()
    for r in range(-radius, radius + 1):
        text.append(" " * (abs(r) * 2))
        for q in range(-radius, radius + 1):
            if max(abs(q), abs(r), abs(q + r)) > radius:
                continue
            entry = board.get((q + radius) * width + (r + radius))
            if max(abs(q), abs(r), abs(q + r)) <= cat["hub_radius"]:
                text.append(" ## ", style="dim")
            elif entry is None:
                text.append("  . ", style="dim")
            else:
                tile, _, owner, depleted, outpost = entry
                if tile < 0:
                    code = f"S{owner}"
                elif view["sky"][owner]:
                    code = f"{owner}*"
                else:
                    code = f"{owner}{cat['tiles'][str(tile)]['depth']}"
                code += "x" if depleted else ""
                text.append(f" {code}{'+' if outpost else ' '}",
                            style=_SEAT_STYLE[owner % len(_SEAT_STYLE)])
        text.append("\n")
    return text


def _card(view: dict[str, Any], card: int | None, sky: bool) -> str:
    if card is None:
        return "—"
    return view["catalog"]["cards"][str(card)]["skyside" if sky else "sinkside"]


@renderer("flotilla")
def flotilla_view(view: dict[str, Any]) -> RenderableType:
    """Map, shared boards and one row per player."""
    cat = view["catalog"]
    head = Table.grid(padding=(0, 2))
    end = f", last round {view['end_round']}" if view["end_round"] is not None else ""
    head.add_row(f"round {view['round']}{end}", f"to act: {seat_name(view['to_act'], view)}",
                 f"VP supply {view['vp_supply']}", f"sonar S{view['sonar'] + 1}",
                 f"survivor space {view['survivor']}")
    head.add_row("dials " + " ".join(f"{g[:4]} {d}" for g, d in zip(cat["guilds"], view["dials"],
                                                                  strict=True)),
                 "market " + " ".join(f"{c} {cat['market_prices'][i]}"
                                      for c, i in zip(cat["colours"], view["market"], strict=True)),
                 "crew tops " + ", ".join(_card(view, c, False) for c in view["crew_top"]))
    # One block per player (a 12-column table does not fit 80 columns).
    players: list[RenderableType] = []
    for p in range(view["n"]):
        sky = bool(view["sky"][p])
        skiffs = [c for c in view["skiffs"][p] if c >= 0]
        rows = Table.grid(padding=(0, 1))
        rows.add_column(style="cyan", no_wrap=True)
        rows.add_column(overflow="fold")
        mark = "▶ " if p == view["to_act"] else ""
        rows.add_row(Text(mark + seat_name(p, view), style=f"bold {_SEAT_STYLE[p % 5]}"),
                     f"{'Skyside' if sky else 'Sinkside'} · {view['vp'][p]} VP · "
                     f"{view['coins'][p]} coins · toxicity {view['tox'][p]}/"
                     f"{view['penalty'][p]}")
        rows.add_row("reserve", " ".join(
            f"{c} {k}" for c, k in zip(cat["colours"], view["reserve"][p], strict=True)))
        rows.add_row("seals, wheels", " ".join(str(k) for k in view["seals"][p]) + " · " +
                     " ".join(str(k % cat["wheel_spaces"]) for k in view["wheel"][p]))
        rows.add_row("hand", ", ".join(_card(view, c, sky) for c in view["hand"][p])
                     if view["hand"][p] else f"({view['hand_sizes'][p]} cards)")
        rows.add_row("discard top", _card(view, view["discard"][p][-1]
                                          if view["discard"][p] else None, sky))
        rows.add_row("skiffs, tiles", f"{len(skiffs)} skiffs "
                     f"({sum(map(sum, view['cargo'][p]))} cargo) · "
                     f"{len(view['tiles'][p])} tiles")
        players.append(rows)
    objectives = Table.grid(padding=(0, 2))
    for k, side in enumerate(("sinkside", "skyside")):
        tops = [f"{cat['objectives'][str(pile[-1])][side]} ({len(pile)})"
                for pile in view["obj_stacks"][k] if pile]
        objectives.add_row(f"{side} objectives", " · ".join(tops) or "—")
    return Group(Panel(head, title="Flotilla"), Panel(_hex_map(view), title="table"),
                 objectives, Text("players", style="bold"), *players)
