"""How Flotilla's texts name its components: tiles, objectives, Guilds, dice faces.

Each name is made from a message of the game's catalog (`locales/.../flotilla.po`) and the
component's data, so the engine's English labels ("place the Shelf tile (depth 2, yellow
Resource)") and their Portuguese (`i18n.py`) name a thing the same way. `_` is the catalog's
gettext of a language; without one the text is English (and cached: labels are made in the
search bots' hottest loops).

Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from core.flotilla import data as D
from core.texts import Gettext, _noop


def _english(message: str) -> str:
    return message


# A Guild's name and a Dive die's kind (the Depth of its tile), by their ids.
GUILD_NAMES: dict[str, str] = {"speakers": _noop("Speakers"), "traders": _noop("Traders"),
                               "founders": _noop("Founders"), "delvers": _noop("Delvers")}
KIND_NAMES: dict[str, str] = {"shallows": _noop("Shallows"), "shelf": _noop("Shelf"),
                              "slope": _noop("Slope")}
# What an objective counts, one of it ("4 VP per Ocean Tile in play").
COUNT_NAMES: dict[str, str] = {
    "tiles": _noop("Ocean Tile in play"), "islands": _noop("tile with an Island"),
    "deep_tiles": _noop("depth-3 tile"), "skiffs": _noop("Skiff in play"),
    "crew": _noop("Crew Card owned"), "seals": _noop("Guild Seal placed"),
    "outposts": _noop("Outpost built"), "resources": _noop("Resource in your Reserve"),
    "cargo": _noop("Resource on your Skiffs"), "survivors": _noop("Survivor rescued"),
    "influence": _noop("Guild Wheel left its top space"),
    "buildings": _noop("Building on your Skyside tiles"),
    "largest_watercraft": _noop("tile of your largest Watercraft"),
    "reserve_tiles": _noop("tile in your tile Reserve"),
    "districts": _noop("District colour built"), "stations": _noop("Sonar Station completed")}


def guild(guild_id: str, _: Gettext = _english) -> str:
    """"speakers" -> "Speakers" ("Oradores")."""
    return _(GUILD_NAMES.get(guild_id, guild_id))


def sink_tile(tile: int, _: Gettext = _english) -> str:
    """An Ocean Tile's Sinkside: "Shelf tile (depth 2, yellow Resource, Island)"."""
    if _ is _english:
        return _SINK_EN[tile]
    face = D.TILES[tile]["sinkside"]
    message = (_("{depth} tile (depth {n}, {colour} Resource, Island)") if face["island"]
               else _("{depth} tile (depth {n}, {colour} Resource)"))
    return message.format(depth=_(KIND_NAMES[D.DEPTH_KIND[face["depth"]]]), n=face["depth"],
                          colour=_(face["resource"]))


def sky_tile(tile: int, _: Gettext = _english) -> str:
    """An Ocean Tile's Skyside: its District colours and what else it bears ("red and yellow
    District tile with a red Building, a Construction Site")."""
    if _ is _english:
        return _SKY_EN[tile]
    face = D.TILES[tile]["skyside"]
    colours = face["districts"]
    features = []
    if face["building"]:
        features.append(_("a {colour} Building").format(colour=_(face["building"])))
    if face["site"]:
        features.append(_("a Construction Site"))
    if face["sonar"] is not None:
        features.append(_("a Sonar Station piece"))
    both = len(colours) > 1
    if features:
        message = (_("{colour} and {other} District tile with {features}") if both
                   else _("{colour} District tile with {features}"))
    else:
        message = (_("{colour} and {other} District tile") if both
                   else _("{colour} District tile"))
    return message.format(colour=_(colours[0]), other=_(colours[-1]),
                          features=", ".join(features))


def tile(tile_id: int, sky: bool, _: Gettext = _english) -> str:
    """The tile by the face its player sees."""
    return sky_tile(tile_id, _) if sky else sink_tile(tile_id, _)


def objective(obj: int, sky: bool, _: Gettext = _english) -> str:
    """An Objective Tile's face: "4 VP per Outpost built (up to 28)"."""
    face = D.OBJECTIVES[obj]["skyside" if sky else "sinkside"]
    return _("{n} VP per {count} (up to {max_n})").format(
        n=face["vp_each"], count=_(COUNT_NAMES.get(face["count"], face["count"])),
        max_n=face["max_vp"])


def research_face(value: Any, _: Gettext = _english) -> str:
    """A Research die face (["coins", 2], ["guild", "speakers"], ["advance"], ["wild"])."""
    kind = value[0] if isinstance(value, list | tuple) and value else value
    if kind == "coins":
        return _("1 coin") if value[1] == 1 else _("{n} coins").format(n=value[1])
    if kind == "vp":
        return _("{n} VP").format(n=value[1])
    if kind == "guild":
        return guild(value[1], _)
    if kind == "advance":
        return _("Advance")
    if kind == "wild":
        return _("Wildcard")
    return str(value)


def _identity(message: str) -> str:
    """English: a message is its own text (built like a translation, not cached)."""
    return message


_SINK_EN = [sink_tile(t["id"], _identity) for t in D.TILES]
_SKY_EN = [sky_tile(t["id"], _identity) for t in D.TILES]
