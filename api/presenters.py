"""What a caller may see: game bodies built from views, and the redacted move log.

No answer is ever built from the raw snapshot: only from `game.view`, `legal_moves`,
`result`, and moves/events redacted here.
"""

from __future__ import annotations

from typing import Any

from api.seats import SeatStates, adjusted_result, effective_seat
from core import Game
from core.deals import SCHEME


def public_seats(meta: dict[str, Any], states: SeatStates | None = None,
                 ) -> list[dict[str, Any]]:
    """The seats as anyone may see them (no token hashes, no bot params): who plays each
    now, whether it resigned, and whether a player owns it."""
    seats = []
    for number in range(len(meta["seats"])):
        seat = effective_seat(meta, states or {}, number)
        shown: dict[str, Any] = {"seat": number, "kind": seat["kind"]}
        if seat["kind"] == "bot":
            shown["bot"] = seat["bot"]
        changes = (states or {}).get(number, {})
        if changes.get("resigned"):
            shown["resigned"] = True
        if changes.get("player"):
            shown["player"] = changes["player"]
        if changes.get("assisted"):
            shown["assisted"] = True
        seats.append(shown)
    return seats


def status_of(to_act: int | None) -> str:
    """"finished" once nobody is to act, else "active"."""
    return "finished" if to_act is None else "active"


def public_deal(meta: dict[str, Any], over: bool) -> dict[str, Any] | None:
    """The game's deal as anyone may see it: the commitment to its seed, and once the game is
    over the seed itself with what it was made of (None for games older than deals)."""
    deal = meta.get("deal")
    if deal is None:
        return None
    return {"commitment": deal["commitment"], "unranked": deal["unranked"], "scheme": SCHEME,
            "revealed": {k: v for k, v in deal.items() if k != "commitment"} if over else None}


def game_body(game: Game, game_id: str, meta: dict[str, Any], version: int, state: Any,
              seat: int | None, status: str = "active",
              states: SeatStates | None = None) -> dict[str, Any]:
    """The game read body for `seat` (None: a spectator); `status` is the stored one (a game
    aborted, abandoned or ended by a resignation still has a seat to act in its state)."""
    stopped = status != "active"
    to_act = None if stopped else game.to_act(state)
    shown_status = status if stopped else status_of(to_act)
    rules_over = game.to_act(state) is None
    result = None
    if shown_status == "finished":
        result = adjusted_result(game.result(state), states or {},
                                 ended_by_resignation=not rules_over)
    return {
        "id": game_id,
        "game": meta["game"],
        "options": meta["options"],
        "version": version,
        "status": shown_status,
        "to_act": to_act,
        "seat": seat,
        "seats": public_seats(meta, states),
        "view": game.view(state, seat),
        "legal_moves": game.legal_moves(state) if seat is not None and seat == to_act else [],
        "result": result,
        "deal": public_deal(meta, shown_status != "active"),
    }


def redact_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An event as `seat` may see it: one addressed with "to": [seats] is hidden from
    everyone else."""
    audience = event.get("to")
    # Only a list is an audience (the contract's form); games also use "to" for a destination
    # (Darwin's Journey: {"type": "navigate", "to": <ocean space>}), which everyone may see.
    if not isinstance(audience, list):
        return event
    if seat is not None and seat in audience:
        return event
    return {"type": event.get("type"), "redacted": True}


def redact_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Every event of a list as `seat` may see it."""
    return [redact_event(event, seat) for event in events]


def redact_entry(entry: dict[str, Any], seat: int | None, over: bool = False) -> dict[str, Any]:
    """A log entry as `seat` may see it: another seat's secret move shows only its type.
    Once the game is over nothing is secret any more: the whole log is shown, so that anyone
    can replay it from the revealed seed."""
    shown = {"index": entry["index"], "version": entry["version"], "seat": entry["seat"]}
    if entry.get("system"):
        # Not a move of the rules: an abort, a resignation, the game found abandoned.
        shown["system"] = True
    if entry.get("takeback") is not None:
        # The seat took back its move of that index (api.takeback): replays undo it.
        shown["takeback"] = entry["takeback"]
    if entry.get("forfeit"):
        # A bot overran its budget; public, like the seats' bots (the move stays redacted).
        shown["forfeit"] = entry["forfeit"]
    if over:
        return {**shown, "move": entry["move"], "events": entry["events"]}
    move = entry["move"]
    if move.get("secret") is True and entry["seat"] != seat:
        move = {"type": move.get("type"), "secret": True}
    return {**shown, "move": move, "events": redact_events(entry["events"], seat)}
