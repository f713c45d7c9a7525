"""A tournament's plan: which games it plays, in which order, seated how, dealt how.

Pure functions of the stored tournament spec, so the API and every worker derive the same
numbered *slots* (one game each) without storing them:

- round robin (2-5 seats, no automa): every group of entrants as large as the table, each
  deal played once per seating rotation of the group, so every entrant plays every seat of
  the same deal;
- gauntlet (solo games): every entrant against the game's automa at each chosen level (an
  option of the game, e.g. Darwin's Journey's "alfred"), every deal once per level; each
  automa level is an entrant of the standings ("alfred:green").

Slots are numbered deal first: deal 0 of every group and rotation, then deal 1, ...; so a
tournament stopped part-way has played whole deals. Deal d's effective seed is the
tournament's seed + d mixed with a per-deal nonce drawn from the tournament's secret nonce
(`core.deals.mixed_seed`), the same for every rotation, level and group of that deal.
Revealing one game's deal (at its end) reveals its own deal's nonce only, never another
deal's.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
from typing import Any

from core.deals import Deal, make_deal

ROUND_ROBIN = "round_robin"
GAUNTLET = "gauntlet"
MAX_GAMES = 5000


def entrant_label(entrant: dict[str, Any]) -> str:
    """The name an entrant has in the standings."""
    return str(entrant["name"])


def automa_label(bot: str, level: Any) -> str:
    """The standings name of an automa at one level (just the bot without levels)."""
    return bot if level is None else f"{bot}:{level}"


def slots(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Every game of the tournament in schedule order: {"slot", "deal", "block", "options",
    "seats": [seat spec], "labels": [standings name per seat], "entrants": [entrant index or
    None per seat]}."""
    count = int(spec["seat_count"])
    automa = {int(seat): bot for seat, bot in spec["automa_seats"].items()}
    free = [seat for seat in range(count) if seat not in automa]
    entrants = list(range(len(spec["entrants"])))
    found: list[dict[str, Any]] = []
    if spec["format"] == ROUND_ROBIN:
        groups = list(itertools.combinations(entrants, len(free)))
        for deal in range(int(spec["deals"])):
            for number, group in enumerate(groups):
                for turn in range(len(group)):
                    seating = list(group[turn:] + group[:turn])
                    found.append(_slot(spec, len(found), deal, f"{deal}:{number}",
                                       dict(spec["options"]), automa, free, seating, None))
    else:
        levels = spec["automa"]["levels"] if spec.get("automa") else [None]
        for deal in range(int(spec["deals"])):
            for level in levels:
                options = dict(spec["options"])
                if level is not None:
                    options[spec["automa"]["option"]] = level
                for entrant in entrants:
                    found.append(_slot(spec, len(found), deal, f"{deal}:{level}", options,
                                       automa, free, [entrant], level))
    return found


def _slot(spec: dict[str, Any], number: int, deal: int, block: str, options: dict[str, Any],
          automa: dict[int, str], free: list[int], seating: list[int],
          level: Any) -> dict[str, Any]:
    seats: list[dict[str, Any]] = []
    labels: list[str] = []
    entrants: list[int | None] = []
    given = iter(seating)
    for seat in range(int(spec["seat_count"])):
        if seat in automa:
            seats.append({"kind": "bot", "bot": automa[seat], "params": {}})
            labels.append(automa_label(automa[seat], level))
            entrants.append(None)
            continue
        index = next(given)
        entrant = spec["entrants"][index]
        if entrant["kind"] == "external":
            seats.append({"kind": "human"})
        else:
            seats.append({"kind": "bot", "bot": entrant["bot"],
                          "params": dict(entrant.get("params") or {})})
        labels.append(entrant_label(entrant))
        entrants.append(index)
    return {"slot": number, "deal": deal, "block": block, "options": options, "seats": seats,
            "labels": labels, "entrants": entrants}


def standings_names(spec: dict[str, Any]) -> list[str]:
    """Every name of the standings: the entrants, then the automa at each level."""
    names = [entrant_label(e) for e in spec["entrants"]]
    if spec["format"] == GAUNTLET:
        levels = spec["automa"]["levels"] if spec.get("automa") else [None]
        for bot in dict.fromkeys(spec["automa_seats"].values()):
            names.extend(automa_label(bot, level) for level in levels)
    return names


def deal_nonce(tournament_nonce: str, deal: int) -> str:
    """Deal `deal`'s server nonce: an HMAC of the tournament's secret nonce (hex)."""
    return hmac.new(bytes.fromhex(tournament_nonce), f"deal:{deal}".encode(),
                    hashlib.sha256).hexdigest()


def deal_of(spec: dict[str, Any], tournament_nonce: str, deal: int, salt: str) -> Deal:
    """The deal of every game of deal number `deal` (a fresh `salt` per game)."""
    return make_deal(int(spec["seed"]) + deal, False, deal_nonce(tournament_nonce, deal),
                     salt, fallback_seed=0)
