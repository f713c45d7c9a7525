"""The terminal picture of a Flotilla view: the table as a hex map, the boards, the players.

Names of the cards, tiles and objectives in sight come from the view's `catalog`; the cards'
effects and the tracks from the web page's copy of the component data
(`clients/web/data/flotilla.json`, checked against the engine by tests/web/test_game_data.py),
so the client needs no engine.
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

from clients.board import move_namer, quiet_events, renderer, seat_name, summary
from clients.i18n import _
from core.flotilla.names import COUNT_NAMES
from core.texts import plural

GAME = "flotilla"
_SEAT_STYLE = ["cyan", "magenta", "green", "yellow", "red"]


@functools.cache
def _data() -> dict[str, Any]:
    path = resources.files("clients") / "web" / "data" / "flotilla.json"
    return json.loads(path.read_text("utf-8"))


# -- words -------------------------------------------------------------------------------------


def guild(name: Any) -> str:
    """A Guild's name."""
    return {"speakers": _("Speakers"), "traders": _("Traders"), "founders": _("Founders"),
            "delvers": _("Delvers")}.get(str(name), str(name))


def colour(name: Any) -> str:
    """A Resource colour."""
    return {"red": _("red"), "yellow": _("yellow"), "green": _("green"),
            "blue": _("blue")}.get(str(name), str(name))


def objective(tile: int, sky: bool) -> str:
    """'4 VP per Outpost built (up to 28)'."""
    objectives = _data()["objectives"]
    if not 0 <= tile < len(objectives):
        return _("an objective")
    face = objectives[tile]["sky" if sky else "sink"]
    what = _(COUNT_NAMES.get(face["count"], face["count"]))  # the engine's names, translated
    return _("{vp} VP per {what} (up to {max})").format(vp=face["vp_each"], what=what,
                                                       max=face["max_vp"])


def op_text(op: list[Any]) -> str:
    """One printed effect in words."""
    kind, a, b = op[0], (op[1] if len(op) > 1 else None), (op[2] if len(op) > 2 else None)
    n = a if isinstance(a, int) else 1
    if kind == "influence":
        return {"same": _("{n} Influence, all for one Guild"),
                "diff": _("{n} Influence, each for a different Guild")}.get(
            str(b), _("{n} Influence, any Guilds")).format(n=n)
    if kind == "dive":
        dice = ", ".join(_dive_dice(x, m) for x, m in (a or {}).items())
        text = (_("Dive with your Skiffs' dice plus {dice}").format(dice=dice) if dice
                else _("Dive with your Skiffs' dice"))
        return text + (" " + _("(no Toxicity or Depletion after a Delver)")
                       if "dredger" in (b or []) else "")
    if kind == "research":
        return (plural(b, _("Research with {n} dice, {r} re-roll"),
                       _("Research with {n} dice, {r} re-rolls")).format(n=a, r=b) if b
                else _("Research with {n} dice").format(n=a))
    if kind == "draw_place":
        return _("draw {n} Ocean Tiles, place {k}").format(n=a, k=b)
    if kind == "seal":
        return (_("a Guild Seal of the {guild}").format(guild=guild(a))
                if isinstance(a, str) and a != "any" else _("a Guild Seal"))
    if kind == "discard_type":
        return plural(b, _("discard up to {n} {guild} card, each for {effect}"),
                      _("discard up to {n} {guild} cards, each for {effect}")).format(
            n=b, guild=guild(a), effect=", ".join(op_text(x) for x in op[3]))
    if kind == "retire":
        return _("retire this card for {effect}").format(
            effect=", ".join(op_text(x) for x in a or []))
    counted = {"coins": (_("+{n} coin"), _("+{n} coins")),
               "transactions": (_("{n} Transaction at the Market"),
                                _("{n} Transactions at the Market")),
               "draw": (_("draw {n} Ocean Tile"), _("draw {n} Ocean Tiles")),
               "build": (_("build {n} Ocean Tile"), _("build {n} Ocean Tiles")),
               "survivor": (_("rescue {n} Survivor"), _("rescue {n} Survivors")),
               "resource_any": (_("{n} Resource of your choice"),
                                _("{n} Resources of your choice"))}
    if kind in counted:
        return plural(n, *counted[kind]).format(n=n)
    words = {"vp": _("+{n} VP"), "toxicity": _("+{n} Toxicity"),
             "clinic": _("lower your Score Penalty {n}"),
             "recruit": _("recruit from this Guild"), "recruit_any": _("recruit from any Guild"),
             "regroup": _("Regroup"), "copy": _("copy the previous player's discard"),
             "skiff": _("a free Skiff"), "dial": _("raise a Guild Dial"),
             "tile": _("an Ocean Tile"), "extra_die": _("roll one more die"),
             "milestone": _("Milestone")}
    return words.get(kind, kind.replace("_", " ")).format(n=n)


def _dive_dice(kind: str, n: int) -> str:
    """"1 Shelf die", "2 Shallows dice": the Dive dice of a depth."""
    forms = {"shallows": (_("{n} Shallows die"), _("{n} Shallows dice")),
             "shelf": (_("{n} Shelf die"), _("{n} Shelf dice")),
             "slope": (_("{n} Slope die"), _("{n} Slope dice"))}
    one, many = forms.get(kind, (f"{{n}} {kind}", f"{{n}} {kind}"))
    return plural(n, one, many).format(n=n)


def card_effect(card: int, sky: bool) -> str:
    """What a Crew Card does on the side its owner plays."""
    cards = _data()["cards"]
    if not 0 <= card < len(cards):
        return ""
    face = cards[card]["sky" if sky else "sink"]
    ops = " + ".join(" / ".join(op_text(x) for x in op) if isinstance(op[0], list)
                     else op_text(op) for op in face["ops"])
    extra = (_("income {n}").format(n=face["income"]) if sky
             else _("Navigation {n}").format(n=face["nav"]))
    return f"{ops} · {extra}" if ops else extra


def _card(view: dict[str, Any], card: int | None, sky: bool) -> str:
    if card is None:
        return "—"
    info = view["catalog"]["cards"].get(str(card))
    return info["skyside" if sky else "sinkside"] if info else _("a Crew Card")


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
                tile, _rot, owner, depleted, outpost = entry
                if tile < 0:
                    code = f"S{owner + 1}"
                elif view["sky"][owner]:
                    code = f"{owner + 1}*"
                else:
                    code = f"{owner + 1}{cat['tiles'][str(tile)]['depth']}"
                code += "x" if depleted else ""
                text.append(f" {code}{'+' if outpost else ' '}",
                            style=_SEAT_STYLE[owner % len(_SEAT_STYLE)])
        text.append("\n")
    text.append(_("S1 Starter Tile of player 1 · 12 player 1's tile, depth 2 · 1* a Skyside "
                   "tile · x depleted · + Outpost · ## Hub"), style="dim")
    return text


@summary(GAME)
def headline(view: dict[str, Any]) -> str:
    """Round, the last round once known, and the VP left."""
    end = view.get("end_round")
    last = _(", last round {n}").format(n=end) if end is not None else ""
    return _("Round {round}{last} · {vp} VP left in the supply").format(
        round=view.get("round"), last=last, vp=view.get("vp_supply"))


@renderer(GAME)
def flotilla_view(view: dict[str, Any]) -> RenderableType:
    """Map, shared boards and one block per player."""
    cat = view["catalog"]
    data = _data()
    sonar = data["sonar"][min(view["sonar"], len(data["sonar"]) - 1)]
    head = Table.grid(padding=(0, 1))
    head.add_column(style="cyan", no_wrap=True)
    head.add_column(overflow="fold")
    head.add_row(_("round"), headline(view))
    head.add_row(_("to act"), seat_name(view["to_act"], view))
    head.add_row(_("Sonar"), _("S{n}: a Sonar result gives {what}").format(
        n=view["sonar"] + 1, what=" + ".join(op_text(op) for op in sonar["icon"])))
    track = data["survivor_tracks"].get(str(view["n"])) or [["milestone"]]
    nxt = track[(view["survivor"] + 1) % len(track)]
    head.add_row(_("Survivors"), _("marker on space {n}; next: {what}").format(
        n=view["survivor"] % len(track) + 1,
        what=_("Milestone") if nxt[0] == "milestone" else op_text(nxt)))
    head.add_row(_("Market"), " · ".join(
        _("{colour} {price}").format(colour=colour(c), price=cat["market_prices"][i])
        for c, i in zip(cat["colours"], view["market"], strict=True)))
    guilds = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    guilds.add_column(_("Guild"), no_wrap=True)
    guilds.add_column(_("Dial"), no_wrap=True)
    guilds.add_column(_("top of the crew stack"), overflow="fold")
    for g, name in enumerate(cat["guilds"]):
        top = view["crew_top"][g]
        guilds.add_row(guild(name), f"{view['dials'][g]}/{data['dial_max']}",
                       f"{_card(view, top, False)}: {card_effect(top, False)}"
                       if top is not None else _("empty"))
    objectives = Table.grid(padding=(0, 1))
    objectives.add_column(style="cyan", no_wrap=True)
    objectives.add_column(overflow="fold")
    for k, (side, name) in enumerate((("sink", _("Sinkside")), ("sky", _("Skyside")))):
        tops = [f"{objective(pile[-1], side == 'sky')} ({len(pile)})"
                for pile in view["obj_stacks"][k] if pile]
        objectives.add_row(_("{side} objectives").format(side=name), "\n".join(tops) or "—")
    players: list[RenderableType] = []
    for p in range(view["n"]):
        players.append(_player(view, p))
    return Group(Panel(head, title=_("Flotilla")), Panel(_hex_map(view), title=_("the ocean")),
                 Panel(guilds, title=_("Hub and Guild Board")), objectives,
                 Text(_("Players"), style="bold"), *players)


def _player(view: dict[str, Any], p: int) -> RenderableType:
    cat = view["catalog"]
    data = _data()
    sky = bool(view["sky"][p])
    skiffs = [c for c in view["skiffs"][p] if c >= 0]
    rows = Table.grid(padding=(0, 1))
    rows.add_column(style="cyan", no_wrap=True)
    rows.add_column(overflow="fold")
    mark = "▶ " if p == view["to_act"] else ""
    penalty = data["penalty"][min(view["penalty"][p], len(data["penalty"]) - 1)]
    rows.add_row(Text(mark + seat_name(p, view), style=f"bold {_SEAT_STYLE[p % 5]}"),
                 plural(view["coins"][p],
                        _("{side} · {vp} VP · {coins} coin · Toxicity {tox} · Score Penalty "
                          "{penalty}"),
                        _("{side} · {vp} VP · {coins} coins · Toxicity {tox} · Score Penalty "
                          "{penalty}")).format(side=_("Skyside") if sky else _("Sinkside"),
                                       vp=view["vp"][p], coins=view["coins"][p],
                                       tox=view["tox"][p], penalty=penalty))
    reserve = [f"{n} {colour(c)}" for c, n in zip(cat["colours"], view["reserve"][p],
                                                   strict=True) if n]
    rows.add_row(_("Reserve"), ", ".join(reserve) or _("none"))
    spaces = cat["wheel_spaces"]
    rows.add_row(_("Wheels"), " · ".join(
        _("{guild} {space}").format(guild=guild(g), space=view["wheel"][p][i] % spaces)
        for i, g in enumerate(cat["guilds"])))
    rows.add_row(_("Seals"), " · ".join(f"{guild(g)} {view['seals'][p][i]}"
                                        for i, g in enumerate(cat["guilds"])))
    hand = view["hand"][p]
    rows.add_row(_("Hand"), ", ".join(_card(view, c, sky) for c in hand) if hand
                 else plural(view["hand_sizes"][p], _("{n} card"), _("{n} cards")).format(
                     n=view["hand_sizes"][p]))
    discard = view["discard"][p]
    rows.add_row(_("Discard"), _card(view, discard[-1], sky) if discard else "—")
    cargo = sum(map(sum, view["cargo"][p]))
    rows.add_row(_("Skiffs"), _("{n} in play ({cargo} cargo)").format(n=len(skiffs),
                                                                      cargo=cargo)
                 if not sky else "—")
    tiles = sum(1 for e in view["board"].values() if e[2] == p and e[0] >= 0)
    rows.add_row(_("Tiles"), plural(
        view["outposts"][p], _("{n} in play, {r} in Reserve, {o} Outpost left"),
        _("{n} in play, {r} in Reserve, {o} Outposts left")).format(
        n=tiles, r=len(view["tiles"][p]), o=view["outposts"][p]))
    return rows


# -- moves and events --------------------------------------------------------------------------


@move_namer(GAME)
def move_words(move: dict[str, Any], view: dict[str, Any]) -> str | None:
    """The engine's label and what the card it names does (the label names tiles and
    objectives by their texts already)."""
    label = str(move.get("label") or "")
    seat = view.get("seat")
    sky = bool(view.get("sky", [])[seat]) if isinstance(seat, int) else False
    if move.get("type") == "play" and isinstance(move.get("card"), int):
        return f"{label}: {card_effect(move['card'], sky)}"
    return None


# The log's events read in the server's words (their `text`); these it leaves out:
# the move says it.
quiet_events(GAME, "play")
