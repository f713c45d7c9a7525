"""What a tournament with an external entrant holds back while each deal is being played.

Duplicate deals (`api.tournament_plan`): every seating rotation, and every group, of deal d
is dealt from the same seed. So any game of deal d tells about all the others: its public
events show the cards the others will draw at the same point of their game, its full log
(shown to everyone once it is over) the other seats' hidden draws, its revealed deal (at its
end) the seed, from which anyone can compute every hidden card of every game of the deal.
Bots read nothing but their own seat's view of their own game (they are the server's, and
stateless); an external entrant, a person or a program playing its seats through the API,
could read the rest. So while deal d of a tournament with an external entrant is in play
(the tournament active, some game of the deal not recorded as ended):

- only a game's seats may read it: a spectator's read of its state or of its log is 403
  (`forbidden`); an entrant's seat tokens open its own games, never a sibling rotation;
- a game of the deal that has ended keeps its secrets even from its own seats: its deal is
  not revealed (no seed, no nonce), its log stays redacted per seat as while it ran, and its
  result (the final hands' scores) is null, in its read and in the answer to its last move;
- the tournament's games list shows no result (nor forfeits) of the deal's games, and the
  standings and the chart count whole deals only (a sibling's score would otherwise show as
  the change of a mean);
- the scheduler never runs two games of one deal that seat the same external entrant at the
  same time (the entrant would see one seat's cards in the first and another's in the
  second): they are played one after the other, other deals' games filling the places.

Once every game of the deal has ended, or the tournament is over (finished or cancelled),
the deal's games are shown as any game is. The event stream of a game (versions, status and
seat to act only) stays open to anyone: it carries no hidden information.

What this cannot prevent: memory, and collusion. An external entrant plays every seat of a
deal in turn, so a program can carry what it saw in one rotation to the next (as a bridge
player could, which is why duplicate bridge seats other pairs at the other tables); and two
external entrants can tell each other what they see. A tournament of bots only has nobody
to hide from: its games are shown as they are played.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import redis

from api import keys
from api.tournament_plan import slots

ACTIVE = "active"


def sealed(spec: dict[str, Any]) -> bool:
    """Whether a tournament holds its deals back: it has an external entrant."""
    return any(entrant.get("kind") == "external" for entrant in spec["entrants"])


@dataclass(frozen=True)
class DealPlan:
    """Which deal each slot plays, and the slots of each deal, of one tournament."""

    sealed: bool
    deal_of: tuple[int, ...]
    deal_slots: dict[int, tuple[int, ...]]


def deal_plan(spec: dict[str, Any]) -> DealPlan:
    """The deals of a tournament's slots."""
    plan = slots(spec)
    deal_slots: dict[int, list[int]] = {}
    for entry in plan:
        deal_slots.setdefault(int(entry["deal"]), []).append(int(entry["slot"]))
    return DealPlan(sealed(spec), tuple(int(entry["deal"]) for entry in plan),
                    {deal: tuple(found) for deal, found in deal_slots.items()})


_PLANS: OrderedDict[str, DealPlan] = OrderedDict()
_PLANS_SIZE = 64
_LOCK = threading.Lock()


def _cached_plan(client: redis.Redis, tournament_id: str) -> DealPlan | None:
    """A tournament's deal plan (cached in the process: a tournament's spec never changes);
    None for an unknown tournament."""
    with _LOCK:
        found = _PLANS.get(tournament_id)
        if found is not None:
            _PLANS.move_to_end(tournament_id)
            return found
    raw = client.hget(keys.tournament(tournament_id), "spec")
    if raw is None:
        return None
    found = deal_plan(json.loads(raw))
    with _LOCK:
        _PLANS[tournament_id] = found
        while len(_PLANS) > _PLANS_SIZE:
            _PLANS.popitem(last=False)
    return found


def held_back(client: redis.Redis, meta: dict[str, Any]) -> bool:
    """Whether a game's deal is held back: the game belongs to an active tournament with an
    external entrant, and some game of its deal has not ended yet (one round trip, none for
    a game outside a tournament or of a tournament of bots)."""
    reference = meta.get("tournament")
    if not isinstance(reference, dict) or not reference.get("id"):
        return False
    tournament_id, slot = str(reference["id"]), int(reference.get("slot", -1))
    plan = _cached_plan(client, tournament_id)
    if plan is None or not plan.sealed or not 0 <= slot < len(plan.deal_of):
        return False
    siblings = plan.deal_slots[plan.deal_of[slot]]
    pipe = client.pipeline(transaction=False)
    pipe.hget(keys.tournament(tournament_id), "status")
    pipe.hmget(keys.tournament_results(tournament_id), [str(s) for s in siblings])
    status, recorded = pipe.execute()
    if (status.decode() if isinstance(status, bytes) else status) != ACTIVE:
        return False
    return any(record is None for record in recorded)


def open_deals(spec: dict[str, Any], status: str,
               results: dict[int, Any]) -> set[int] | None:
    """The deals whose games may be shown (every game of them recorded), or None when all
    may be: a tournament of bots, or one that is over."""
    if status != ACTIVE or not sealed(spec):
        return None
    plan = deal_plan(spec)
    return {deal for deal, found in plan.deal_slots.items()
            if all(slot in results for slot in found)}


def busy_entrants(spec: dict[str, Any], plan: list[dict[str, Any]],
                  in_progress: list[int]) -> set[tuple[int, int]]:
    """(deal, external entrant) of every game in progress."""
    external = {index for index, entrant in enumerate(spec["entrants"])
                if entrant.get("kind") == "external"}
    return {(int(plan[slot]["deal"]), entrant) for slot in in_progress
            for entrant in plan[slot]["entrants"] if entrant in external}


def waits_for_sibling(entry: dict[str, Any], busy: set[tuple[int, int]]) -> bool:
    """Whether a slot must wait: a game of its deal seating one of its external entrants is
    in progress (`busy`, from `busy_entrants`)."""
    return any((int(entry["deal"]), entrant) in busy for entrant in entry["entrants"]
               if entrant is not None)
