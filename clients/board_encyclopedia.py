"""The Encyclopedia board in the terminal (registered with `clients.board.renderer`).

Names and texts of the cards in sight come from the view's `catalog`; the action areas' value
tables, the die spaces' rewards and the reputation track from the web page's copy of the
component data (`clients/web/data/encyclopedia.json`, checked against the engine by
tests/web/test_game_data.py).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from clients.board import quiet_events, renderer, seat_name, summary
from clients.i18n import _
from core.texts import plural

GAME = "encyclopedia"
TYPES = ("I", "II", "III", "IV")


@functools.cache
def _data() -> dict[str, Any]:
    path = resources.files("clients") / "web" / "data" / "encyclopedia.json"
    return json.loads(path.read_text("utf-8"))


def _action(name: Any) -> str:
    return {"bank": _("Bank"), "embassy": _("Embassy"), "university": _("University"),
            "academy": _("Academy"), "expedition": _("Expedition"),
            "publish": _("Publish")}.get(str(name), str(name))


def _phase(view: dict[str, Any]) -> str:
    return {"draft": _("starting animals"), "tile_pick": _("round tile choices"),
            "place": _("placing dice"), "turns": _("choosing dice"),
            "extra": _("additional actions"), "over": _("game over")}.get(
        str(view.get("phase")), str(view.get("phase")))


def _amount(kind: str, n: int) -> str:
    """"1 coin", "2 royal seals": an amount of a resource or reward, agreeing with `n`."""
    words = {"coins": (_("{n} coin"), _("{n} coins")),
             "rep": (_("{n} reputation"), _("{n} reputation")), "vp": (_("{n} VP"), _("{n} VP")),
             "tokens": (_("{n} token"), _("{n} tokens")),
             "seals": (_("{n} royal seal"), _("{n} royal seals")),
             "animal": (_("{n} animal"), _("{n} animals")),
             "expert": (_("{n} expert"), _("{n} experts"))}
    one, many = words.get(kind, (kind + " {n}", kind + " {n}"))
    return plural(n, one, many).format(n=n)


def _published(n: int) -> str:
    """"1 animal published", "3 animals published"."""
    return plural(n, _("{n} animal published"), _("{n} animals published")).format(n=n)


def _reward(reward: dict[str, int]) -> str:
    parts = [_amount(k, n) for k, n in reward.items()]
    return ", ".join(parts) or _("nothing")


def _colour(view: dict[str, Any], c: int) -> str:
    colours = view["catalog"]["colours"]
    return colours[c] if 0 <= c < len(colours) else "?"


def _die(view: dict[str, Any], d: int) -> str:
    return f"{_colour(view, d // 4)} {view['dval'][d]}"


def _animal(view: dict[str, Any], card: int, cubes: bool = True) -> str:
    info = view["catalog"]["animals"].get(str(card))
    if not info:
        return _("an animal")
    text = f"{info['name']} ({_colour(view, info['colour'])[:3]})"
    if cubes:
        mask = view["cubes"][card]
        text += " [" + " ".join(f"{t}:{c}" + ("■" if mask >> i & 1 else "")
                                for i, (t, c) in enumerate(zip(TYPES, info["categories"],
                                                               strict=True))) + "]"
    return text


def _expert(view: dict[str, Any], card: int) -> str:
    info = view["catalog"]["experts"].get(str(card))
    return f"{info['name']}: {info['text']}" if info else _("an expert")


def _ai_card(name: Any) -> str:
    """The name of an AI behaviour or scoring card (its data's English)."""
    return {"Collector": _("Collector"), "Explorer": _("Explorer"), "Rival": _("Rival"),
            "Apprentice": _("Apprentice"), "Scholar": _("Scholar"),
            "Master": _("Master")}.get(str(name), str(name)) if name else _("hidden")


@summary(GAME)
def headline(view: dict[str, Any]) -> str:
    """Round (or set-up) and phase."""
    rounds = _data()["rounds"]
    if not view.get("round"):
        return _("Set-up · {phase}").format(phase=_phase(view))
    return _("Round {round} of {rounds} · {phase}").format(
        round=min(view["round"], rounds), rounds=rounds, phase=_phase(view))


@renderer(GAME)
def encyclopedia_view(view: dict[str, Any]) -> RenderableType:
    """Round and tile, the main board, then each seat's board."""
    cat = view["catalog"]
    data = _data()
    head = Text(_("{headline} · first player {first} · to act: {seat}").format(
        headline=headline(view), first=seat_name(view["first"], view),
        seat=seat_name(view["to_act"], view) if view["to_act"] is not None else "—"))
    if cat.get("tile"):
        head.append("\n" + _("Round tile: {text}").format(text=cat["tile"]))
    board = Table(title=_("Main board"), title_justify="left", show_header=False)
    board.add_column(_("where"), no_wrap=True)
    board.add_column(_("what"), overflow="fold")
    tables = {"bank": _amount("coins", data["bank_coins"]),
              "embassy": _("tokens by value {t}").format(
                  t="/".join(map(str, data["embassy_tokens"][::2]))),
              "university": _("an expert"),
              "academy": _("an animal, reputation by value {t}").format(
                  t="/".join(map(str, data["academy_rep"][::2])))}
    for i, name in enumerate(data["areas"]):
        dice = ", ".join(_die(view, d) for d in view["areas"][i]) or "—"
        board.add_row(_action(name), f"{tables[name]}: {dice}")
    spaces = ", ".join(f"{s['rep']}/{s['bonus']}" for s in data["continent_spaces"])
    board.add_row(_("Expedition"), _("reputation/value bonus of the spaces: {spaces}").format(
        spaces=spaces))
    for c, slots in enumerate(view["cont"]):
        board.add_row("  " + _colour(view, c),
                      " | ".join(_die(view, d) if d >= 0 else _("free") for d in slots))
    board.add_row(_("Experts"), "\n".join(_expert(view, c) for c in view["xdisplay"]) or "—")
    board.add_row(_("Animals"), ", ".join(_animal(view, c, False) for c in view["adisplay"])
                  or "—")
    board.add_row(_("Bag"), ", ".join(f"{_colour(view, c)[:3]} {n}"
                                      for c, n in enumerate(view["bag"])))
    if view.get("to_place"):
        board.add_row(_("To place"), ", ".join(_die(view, d) for d in view["to_place"]))
    seats: list[RenderableType] = []
    for p in range(view["seat_count"]):
        seats.append(_seat(view, p))
    parts: list[RenderableType] = [Panel(head, title=_("Encyclopedia")), board,
                                   Text(_("Players"), style="bold"), *seats]
    ai = view.get("ai")
    if ai:
        order = " > ".join(_colour(view, c) for c in ai["priority"])
        behaviour = data["behaviours"].get(str(ai.get("behaviour")), {}).get("name")
        scoring = data["scorings"].get(str(ai.get("scoring")), {}).get("name")
        parts.append(Text(_("AI: behaviour card {b}, level {s}; continent priority "
                            "{order}").format(b=_ai_card(behaviour), s=_ai_card(scoring),
                                              order=order)))
    return Group(*parts)


def _seat(view: dict[str, Any], p: int) -> RenderableType:
    data = _data()
    dice = "\n".join(
        _("space {n} (owner gets {reward}): {dice}").format(
            n=i + 1, reward=_reward(data["die_spaces"][i]["reward"]),
            dice=", ".join(_die(view, d) for d in space))
        for i, space in enumerate(view["spaces"][p]) if space)
    experts = "\n".join(_expert(view, stack[-1]) + (_(" (+{n} covered)").format(
        n=len(stack) - 1) if len(stack) > 1 else "")
        for stack in view["experts"][p] if stack)
    rep = view["rep"][p]
    bonuses = {int(k): v for k, v in data["reputation"]["bonuses"].items()}
    upcoming = [k for k in sorted(bonuses) if k > rep]
    nxt = (_("next bonus at {k}: {reward}").format(k=upcoming[0],
                                                   reward=_reward(bonuses[upcoming[0]]))
           if upcoming else _("end of the track"))
    rows = Table.grid(padding=(0, 1))
    rows.add_column(style="cyan", no_wrap=True)
    rows.add_column(overflow="fold")
    mark = "▶ " if p == view.get("to_act") else ""
    rows.add_row(Text(mark + seat_name(p, view), style="bold"),
                 " · ".join([*(_amount(k, view[k][p]) for k in ("coins", "tokens", "seals", "vp")),
                             _published(len(view["published"][p]))]))
    rows.add_row(_("reputation"), f"{rep} · {nxt}")
    rows.add_row(_("dice"), dice or "—")
    rows.add_row(_("experts"), experts or "—")
    rows.add_row(_("animals"), "\n".join(_animal(view, c) for c in view["hand"][p]) or "—")
    if any(view["cubes"][c] for c in view["hand"][p]):
        rows.add_row("", _("■ a research cube"))
    return rows


# The log's events read in the server's words (their `text`); these it leaves out:
# it repeats its move.
quiet_events(GAME, "move")
