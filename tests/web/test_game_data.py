"""The page's Flotilla and Encyclopedia data files are copies of the engines' component data.

`clients/web/data/flotilla.json` and `encyclopedia.json` hold what the page's renderers draw
and the views do not carry (the wheels' spaces, the tracks, the cards' effects, the value
tables of the action areas). They are made from `core/*/data` by this module; the tests fail
when the engines' data change without them:

    python3 -m tests.web.test_game_data      # rewrite both files from the engines' data
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from api.play import web_root
from clients import web_messages

DATA_DIR = web_root() / "data"


def flotilla_layout() -> dict[str, Any]:
    """What the Flotilla renderer needs of core/flotilla/data."""
    from core.flotilla import data as D

    boards = D.BOARDS
    return {
        "_about": "Flotilla's board facts and card effects for the web page's renderer, copied "
                  "from core/flotilla/data (stand-ins designed from the rulebook); "
                  "tests/web/test_game_data.py makes it and checks it still matches.",
        "guild_colour": [D.COLOURS[c] for c in D.GUILD_COLOUR],
        "buildings": [boards["buildings"][g] for g in D.GUILDS],
        "dial_max": D.DIAL_MAX,
        "artifact_spaces": D.HUB["artifact_spaces"],
        "first_space_bonus": [D.HUB["first_space_bonus"][g] for g in D.GUILDS],
        "wheels": D.WHEELS,
        "arrow_space": D.ARROW_SPACE,
        "sonar": D.SONAR,
        "survivor_tracks": {n: boards["survivor_tracks"][n] for n in ("3", "4", "5")},
        "outpost_prices": D.OUTPOST_PRICES,
        "penalty": D.PENALTY,
        "seals": D.PLAYER_BOARD["seals"],
        "skiffs": D.PLAYER_BOARD["skiffs"],
        "cards": [{"sink": {"ops": c["sinkside"]["ops"], "nav": c["sinkside"]["nav"]},
                   "sky": {"ops": c["skyside"]["ops"], "income": c["skyside"]["income"]}}
                  for c in D.CARDS],
        "artifacts": [{"discovery": a["discovery"], "research": a["research"]}
                      for a in D.ARTIFACTS],
        "objectives": [{side[:-4]: {k: o[side][k] for k in ("count", "vp_each", "max_vp")}
                        for side in ("sinkside", "skyside")} for o in D.OBJECTIVES],
        # Each Ocean Tile as the map draws it (a placed or built tile, and the preview of
        # one being placed or built): Sinkside, its Depth, its Resource and its corner wedges
        # [vertex, colour]; Skyside (`sky`), its Districts, the edges its Watercraft reaches
        # and the corner of its Sonar piece (or null).
        "tiles": [{**{k: t["sinkside"][k] for k in ("depth", "resource", "wedges")},
                   "sky": {k: t["skyside"][k] for k in ("districts", "watercraft_edges", "sonar")}}
                  for t in D.TILES],
    }


def encyclopedia_layout() -> dict[str, Any]:
    """What the Encyclopedia renderer needs of core/encyclopedia/data."""
    from core.encyclopedia.data import DATA

    return {
        "_about": "Encyclopedia's board facts for the web page's renderer, copied from "
                  "core/encyclopedia/data (stand-ins designed from the rules); "
                  "tests/web/test_game_data.py makes it and checks it still matches.",
        "rounds": DATA.rounds,
        "areas": ["bank", "embassy", "university", "academy"],
        "bank_coins": DATA.bank_coins,
        "embassy_tokens": list(DATA.embassy_tokens),
        "academy_rep": list(DATA.academy_rep),
        "die_spaces": [{"id": i, "reward": dict(r)}
                       for i, r in zip(DATA.space_ids, DATA.space_rewards, strict=True)],
        "reputation": {"length": DATA.track_length,
                       "bonuses": {str(k): dict(v) for k, v in sorted(DATA.track_bonus.items())},
                       "vp_beyond": DATA.vp_beyond_track},
        "continent_spaces": [{"rep": r, "bonus": b} for r, b in
                             zip(DATA.continent_rep, DATA.continent_bonus, strict=True)],
        "categories": [list(c) for c in DATA.categories],
        "research_cost": list(DATA.research_cost),
        "research_vp": list(DATA.research_vp),
        "publish_min": list(DATA.publish_min),
        "publish_continental": DATA.publish_continental,
        "publish_vp": list(DATA.publish_vp),
        "behaviours": {str(b.id): {"name": b.name, "priority": list(b.priority)}
                       for b in DATA.behaviours.values()},
        # a game keeps the AI procedure it was set up under (view's ai.procedure, absent: 1),
        # and with it its behaviour card's order of actions
        "behaviour_orders_by_procedure": {
            str(version): {str(b.id): list(b.priority) for b in cards.values()}
            for version, cards in sorted(DATA.behaviours_by_procedure.items())},
        # the "scoring" option is the AI's level card (ai.py AI10): its end VP count
        # published animals only
        "scorings": {str(x.id): {"name": x.name, "per_published": x.per_published,
                                 "per_expert": 0, "per_reputation": 0}
                     for x in DATA.levels.values()},
        # each round tile's effect and amount, by id (the view's `tiles`), drawn as icons
        # (its words are the view's catalog)
        "tiles": [{"effect": effect, "n": n}
                  for effect, n in zip(DATA.tiles, DATA.tile_amounts, strict=True)],
        # each expert card's effect, by id, drawn as icons (its words are the view's catalog)
        "experts": [{"when": x.when, "gain": dict(x.gain), "hook": x.hook, "action": x.action,
                     "n": x.n, "per": x.per, "max": x.cap} for x in DATA.experts],
    }


LAYOUTS = {"flotilla": flotilla_layout, "encyclopedia": encyclopedia_layout}


def _file(game: str) -> Path:
    return DATA_DIR / f"{game}.json"


def _normal(value: Any) -> Any:
    """Tuples as lists, as a JSON round trip makes them."""
    return json.loads(json.dumps(value))


def test_the_flotilla_data_match_the_engine() -> None:
    assert json.loads(_file("flotilla").read_text("utf-8")) == _normal(flotilla_layout())


def test_the_encyclopedia_data_match_the_engine() -> None:
    assert json.loads(_file("encyclopedia").read_text("utf-8")) == _normal(encyclopedia_layout())


def _ops(value: Any) -> Iterator[list[Any]]:
    """Every printed effect ([kind, ...]) inside `value`, nested ones included."""
    if isinstance(value, list):
        if value and isinstance(value[0], str):
            yield value
        for item in value:
            yield from _ops(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ops(item)


# Effects the Flotilla renderer words itself (opText's own cases), not by a `fl.op.<kind>` key.
WORDED_APART = {"influence", "dive", "research", "draw_place", "seal", "discard_type", "retire"}


def test_every_key_the_renderers_make_from_the_data_has_its_message() -> None:
    messages = {lang: web_messages.messages(lang) for lang in ("en", "pt-BR")}
    flotilla = flotilla_layout()
    encyclopedia = encyclopedia_layout()
    keys = set()
    for op in _ops([flotilla["cards"], flotilla["artifacts"], flotilla["wheels"],
                    flotilla["sonar"], flotilla["survivor_tracks"],
                    flotilla["first_space_bonus"]]):
        if op[0] == "influence":
            keys.add(f"fl.op.influence.{op[2]}")
        elif op[0] == "dive":
            keys.update(f"fl.depth_kind.{kind}" for kind in op[1])
        elif op[0] not in WORDED_APART:
            keys.add(f"fl.op.{op[0]}")
    keys.update(f"fl.count.{o[side]['count']}" for o in flotilla["objectives"]
                for side in ("sink", "sky"))
    keys.update(f"fl.guild.{g}" for g in ("speakers", "traders", "founders", "delvers"))
    keys.update(f"fl.colour.{c}" for c in ("red", "yellow", "green", "blue"))
    rewards = [s["reward"] for s in encyclopedia["die_spaces"]]
    rewards += list(encyclopedia["reputation"]["bonuses"].values())
    keys.update(f"enc.res.{kind}" for reward in rewards for kind in reward)
    keys.update(f"enc.action.{a}" for b in encyclopedia["behaviours"].values()
                for a in b["priority"])
    keys.update(f"enc.action.{a}" for a in encyclopedia["areas"])
    keys.update(f"enc.category.{c}" for row in encyclopedia["categories"] for c in row)
    keys.update(f"enc.behaviour.{b}" for b in encyclopedia["behaviours"])
    keys.update(f"enc.scoring.{x}" for x in encyclopedia["scorings"])
    for lang, found in messages.items():
        assert sorted(keys - set(found)) == [], lang


def test_every_web_game_has_its_rules_in_short_in_both_languages() -> None:
    """clients/web/data/rules.json: each game with a renderer of its own, in the page's
    languages, the same number of paragraphs in each (one translation of the other)."""
    rules = json.loads((DATA_DIR / "rules.json").read_text("utf-8"))
    for game in ("darwins-journey", "encyclopedia", "flotilla"):
        english, portuguese = rules[game]["en"], rules[game]["pt-BR"]
        assert english and len(english) == len(portuguese), game
        assert all(p.strip() for p in english + portuguese), game
        assert english != portuguese, game


if __name__ == "__main__":
    for name, make in LAYOUTS.items():
        _file(name).write_text(json.dumps(make(), ensure_ascii=False, separators=(",", ":")) + "\n",
                               "utf-8")
        print(f"wrote {_file(name)}")
