"""Flotilla's move labels, event descriptions and catalog texts in English or Brazilian Portuguese.

Outside the rules. A move's label is the engine's English text, made from a fixed message
("sail Skiff {skiff} to {cell}"): its Portuguese is that message's text in
`locales/pt_BR/LC_MESSAGES/flotilla.po` with the values translated in turn (a card's name, a
Guild, a colour, a tile or an objective named by `names.py`). An event is written from its
fields as a gettext message. The terms are the Portuguese rulebook's (Esquife, Peça de Oceano,
Posto Avançado, Oradores, Lado Sideral...).

    label(move, "pt_BR")                -> "navegar com o Esquife 1 até (2,-1)"
    describe(event, "pt_BR")            -> "Jogador 2: +3 de Toxicidade"
    catalog(view["catalog"], "pt_BR")   -> the view's catalog with its names in Portuguese
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.flotilla import data as D
from core.flotilla import names as N
from core.texts import Catalog, Gettext, _noop, seat_name

CATALOG = Catalog(Path(__file__).parent / "locales", "flotilla")
LOCALES = ("en", "pt_BR")

# The words an event names by an id; the ids the engine writes in labels are messages too.
_ICONS = {"R": _noop("Resource"), "T": _noop("Toxicity"), "D": _noop("Depletion"),
          "N": _noop("Sonar"), "S": _noop("Survivor")}
_OBJECTIVE = re.compile(r"(\d+) VP per (\w+)\Z")


def _guild(guild: Any, _: Gettext) -> str:
    """A Guild's id ("speakers") as its name ("Speakers", "Oradores")."""
    text = _(str(guild))
    return text[:1].upper() + text[1:]


def _cell(cell: Any) -> str:
    """A cell for people: its axial coordinates "(q,r)", the Hub at (0,0)."""
    return "({},{})".format(*D.cell_qr(cell)) if isinstance(cell, int) else str(cell)


def _card(card: Any, _: Gettext) -> str:
    """A Crew Card's name (its Sinkside face's; both faces bear the same name)."""
    return _(D.CARDS[card]["sinkside"]["name"])


def face(value: Any, _: Gettext) -> str:
    """A Research die face (["coins", 2], ["guild", "speakers"], ["advance"], ["wild"])."""
    return N.research_face(value, _)


# -- moves -------------------------------------------------------------------------------------


def label(move: dict[str, Any], locale: str) -> str:
    """The move's label in `locale` (the engine's own label in English)."""
    return CATALOG.label(move, locale)


# -- events ------------------------------------------------------------------------------------




def describe(event: dict[str, Any], locale: str = "en",
             seat_names: dict[int, str] | None = None) -> str:
    """One event in words, in `locale`; seats named by `seat_names` ("Player 2" otherwise)."""
    _ = CATALOG.gettext(locale)
    who = seat_name(event.get("seat"), _, seat_names)
    kind = str(event.get("type"))
    if event.get("redacted"):
        return _("{seat}: a hidden event").format(seat=who)
    try:
        write = _EVENTS.get(kind)
        text = write(event, who, _, seat_names) if write else None
    except (KeyError, TypeError, ValueError, IndexError):
        text = None
    return text or kind


Writer = Callable[[dict[str, Any], str, Gettext, "dict[int, str] | None"], str]


def _objective(e: dict[str, Any], who: str, _: Gettext, names: Any) -> str:
    if isinstance(e.get("sky"), bool):  # the face scored: its text
        text = N.objective(e["objective"], e["sky"], _)
        if e["site"] < 0:
            return _("{seat}: a Floating Outpost and the objective “{text}” ({vp} VP)").format(
                seat=who, text=text, vp=e["vp"])
        return _("{seat}: an Outpost at {cell} and the objective “{text}” ({vp} VP)").format(
            seat=who, cell=_cell(e["site"]), text=text, vp=e["vp"])
    if e["site"] < 0:
        return _("{seat}: a Floating Outpost and objective {objective} ({vp} VP)").format(
            seat=who, objective=e["objective"], vp=e["vp"])
    return _("{seat}: an Outpost at {cell} and objective {objective} ({vp} VP)").format(
        seat=who, cell=_cell(e["site"]), objective=e["objective"], vp=e["vp"])


_EVENTS: dict[str, Writer] = {
    "vp": lambda e, who, _, names: _("{seat}: +{n} VP ({why})").format(
        seat=who, n=e["vp"], why=_(e["why"])),
    "end_triggered": lambda e, who, _, names: _(
        "{seat} took the last VP of the supply: round {round} is the last").format(
        seat=who, round=e["last_round"]),
    "toxicity": lambda e, who, _, names: _("{seat}: +{n} Toxicity").format(
        seat=who, n=e["amount"]),
    "tile_drawn": lambda e, who, _, names: _("{seat}: drew the {tile}").format(
        seat=who, tile=N.sink_tile(e["tile"], _)),
    "recruit": lambda e, who, _, names: _("{seat}: recruited {card} from the {guild}").format(
        seat=who, card=_card(e["card"], _), guild=_guild(e["guild"], _)),
    "seal": lambda e, who, _, names: _("{seat}: a Seal for the {guild}").format(
        seat=who, guild=_guild(e["guild"], _)),
    "skiff": lambda e, who, _, names: _("{seat}: a free Skiff at the Dock").format(seat=who),
    "regroup": lambda e, who, _, names: _(
        "{seat}: Regroup, the discard pile back to the hand").format(seat=who),
    "dive": lambda e, who, _, names: _("{seat}: Dive, rolled {results}").format(
        seat=who, results=", ".join(_(_ICONS.get(r, r)) for r in e["results"])
        or _("nothing")),
    "cargo": lambda e, who, _, names: _("{seat}: a {colour} Barrel on Skiff {skiff}").format(
        seat=who, colour=_(e["colour"]), skiff=e["skiff"] + 1),
    "depleted": lambda e, who, _, names: _("{seat}: the tile at {cell} is depleted").format(
        seat=who, cell=_cell(e["cell"])),
    "research": lambda e, who, _, names: _("{seat}: Research dice rolled {faces}").format(
        seat=who, faces=", ".join(face(f, _) for f in e["faces"]) or _("nothing")),
    "guild_reward": lambda e, who, _, names: _(
        "{seat}: the reward of the {guild} (their Artifacts' bonuses)").format(
        seat=who, guild=_guild(e["guild"], _)),
    "influence": lambda e, who, _, names: _(
        "{seat}: Influence with the {guild}, to space {space}").format(
        seat=who, guild=_guild(e["guild"], _), space=e["space"]),
    "objective": _objective,
    "joined_flotilla": lambda e, who, _, names: _(
        "{seat}: switched to the Skyside and joined the Flotilla (number {order})").format(
        seat=who, order=e["order"]),
    "tile_placed": lambda e, who, _, names: _("{seat}: placed the {tile} at {cell}").format(
        seat=who, tile=N.sink_tile(e["tile"], _), cell=_cell(e["cell"])),
    "tile_built": lambda e, who, _, names: _("{seat}: built the {tile} at {cell}").format(
        seat=who, tile=N.sky_tile(e["tile"], _), cell=_cell(e["cell"])),
    "district_scored": lambda e, who, _, names: _(
        "{seat}: {colour} District scored, {a} × {b} VP").format(
        seat=who, colour=_(e["colour"]), a=e["a"], b=e["b"]),
    "sonar": lambda e, who, _, names: _("{seat}: the Sonar marker to space {space}").format(
        seat=who, space=e["space"]),
    "survivor": lambda e, who, _, names: _(
        "{seat}: a Survivor rescued, the marker to space {space}").format(
        seat=who, space=e["space"]),
    "artifact": lambda e, who, _, names: _("{seat}: discovered the Artifact {artifact}").format(
        seat=who, artifact=_(D.ARTIFACTS[e["artifact"]]["name"])),
    "game_over": lambda e, who, _, names: _("Game over"),
    "play": lambda e, who, _, names: _("{seat}: plays {card}").format(
        seat=who, card=_(e.get("name") or D.CARDS[e["card"]]["sinkside"]["name"])),
    "copy": lambda e, who, _, names: _("{seat}: copies {card} of {target}").format(
        seat=who, card=_card(e["card"], _), target=seat_name(e["target"], _, names)),
    "reroll": lambda e, who, _, names: _("{seat}: rerolled die {die}: {face}").format(
        seat=who, die=e["die"] + 1, face=face(e["face"], _)),
    "dial": lambda e, who, _, names: _("{seat}: the {guild} Dial raised to {value}").format(
        seat=who, guild=_guild(e["guild"], _), value=e["value"]),
}


# -- the view's catalog ------------------------------------------------------------------------


def catalog(texts: dict[str, Any], locale: str) -> dict[str, Any]:
    """A view's `catalog` with the names a person reads in `locale` (cards, artifacts,
    objectives); the ids it uses as keys (guilds, colours) stay as they are."""
    if locale == "en":
        return texts
    _ = CATALOG.gettext(locale)
    out = dict(texts)
    out["cards"] = {k: {**card, "sinkside": _(card["sinkside"]), "skyside": _(card["skyside"])}
                    for k, card in texts.get("cards", {}).items()}
    out["artifacts"] = {k: _(name) for k, name in texts.get("artifacts", {}).items()}
    out["objectives"] = {k: {side: _objective_text(text, _) for side, text in sides.items()}
                         for k, sides in texts.get("objectives", {}).items()}
    return out


def _objective_text(text: str, _: Gettext) -> str:
    """"4 VP per tiles" -> "4 PV por Peça de Oceano sua em jogo"."""
    matched = _OBJECTIVE.match(text)
    if not matched:
        return _(text)
    return _("{n} VP per {count}").format(n=matched[1], count=_(f"count.{matched[2]}"))
