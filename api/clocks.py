"""Time controls: a game's clock as pure arithmetic (no Flask, no Redis).

A game created with a `clock` (docs/clocks.md) keeps, beside its version, a clock state
written by the same script as every move (`Store.commit_move`):

    {"remaining_ms": {seat: ms, ...},  # main time left per clocked seat (a live clock)
     "since_ms": when the seat to act started its current decision,
     "turn_ms": when the seat to act started its turn (its first decision in a row),
     "deadline_ms": when the seat to act runs out of time, or null (a bot or nobody acts),
     "warn_ms": when its player's webhooks are warned (`deadline_soon`), or null}

Only human seats are clocked: a bot seat keeps its own budget (and its forfeits), so a seat
a bot plays (from its creation, or since a resignation or a time-out) has no deadline.

A turn is every decision in a row of one seat (a complex turn is several moves): `per_move`
bounds the whole turn, from its first decision; a `main` clock runs during each decision and
gains `increment` when the turn passes to another seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from api import timestamps

ON_TIMEOUT = ("bot", "resign")
# The bot that plays a timed-out seat (`on_timeout: "bot"`) or a seat resigned by its clock:
# every game's seat may be played by it, and it is cheap.
TIMEOUT_BOT = "greedy"
# A seat's player is warned once a turn, when a fifth of the turn's time is left, at most an
# hour before the deadline (a day a turn: an hour before; a live minute: 12 s before).
WARN_SHARE = 0.2
WARN_MAX_MS = 3600 * 1000


def new_clock(control: dict[str, Any], clocked: Iterable[int], to_act: int | None,
              to_act_clocked: bool, now_ms: int) -> dict[str, Any]:
    """The clock state of a new game whose clocked seats are `clocked`."""
    main = control.get("main")
    clock: dict[str, Any] = {
        "remaining_ms": {str(seat): int(main * 1000) for seat in clocked} if main else {},
        "since_ms": now_ms, "turn_ms": now_ms, "deadline_ms": None}
    clock["deadline_ms"] = deadline_of(control, clock, to_act) if to_act_clocked else None
    clock["warn_ms"] = warn_of(clock)
    return clock


def warn_of(clock: dict[str, Any]) -> int | None:
    """When the seat to act is warned of its deadline: a fifth of its turn's time before it
    (at most WARN_MAX_MS); None without a deadline."""
    deadline = clock.get("deadline_ms")
    if deadline is None:
        return None
    span = max(0, int(deadline) - int(clock["turn_ms"]))
    return int(deadline) - min(WARN_MAX_MS, int(span * WARN_SHARE))


def deadline_of(control: dict[str, Any], clock: dict[str, Any], seat: int | None) -> int | None:
    """When `seat`, to act since the clock's `since_ms`, runs out of time (epoch ms)."""
    if seat is None:
        return None
    found: list[int] = []
    if control.get("per_move"):
        found.append(int(clock["turn_ms"]) + int(control["per_move"] * 1000))
    left = clock["remaining_ms"].get(str(seat))
    if control.get("main") and left is not None:
        found.append(int(clock["since_ms"]) + int(left))
    return min(found) if found else None


def timed_out(clock: dict[str, Any] | None, now_ms: int) -> bool:
    """Whether the seat to act has passed its deadline."""
    deadline = None if clock is None else clock.get("deadline_ms")
    return deadline is not None and now_ms > int(deadline)


def after_move(control: dict[str, Any], clock: dict[str, Any], mover: int,
               mover_clocked: bool, to_act: int | None, to_act_clocked: bool,
               now_ms: int) -> dict[str, Any]:
    """The clock once `mover` moved at `now_ms` and `to_act` is to act (None: the end)."""
    remaining = dict(clock["remaining_ms"])
    passes = to_act != mover
    if mover_clocked and control.get("main") and str(mover) in remaining:
        left = remaining[str(mover)] - max(0, now_ms - int(clock["since_ms"]))
        if passes:
            left += int(control.get("increment", 0) * 1000)
        remaining[str(mover)] = max(0, left)
    after = {"remaining_ms": remaining, "since_ms": now_ms,
             "turn_ms": now_ms if passes else clock["turn_ms"], "deadline_ms": None}
    if to_act_clocked:
        after["deadline_ms"] = deadline_of(control, after, to_act)
    after["warn_ms"] = warn_of(after)
    if not passes and clock.get("warn_ms") is not None and int(clock["warn_ms"]) <= now_ms:
        after["warn_ms"] = None  # warned already this turn (or due now): once a turn
    return after


def rfc3339(epoch_ms: int | None) -> str | None:
    """An epoch time in milliseconds (a clock's) as RFC 3339 (None stays None)."""
    return None if epoch_ms is None else timestamps.rfc3339(epoch_ms / 1000)


def shown(control: dict[str, Any], clock: dict[str, Any] | None, to_act: int | None,
          clocked: Iterable[int], seats: int, over: bool, now_ms: int) -> dict[str, Any]:
    """The clock as a game read shows it: the time control, and per seat its main time left
    (now, for the seat to act) and its deadline when it is to act."""
    clock = clock or {"remaining_ms": {}, "since_ms": now_ms, "turn_ms": now_ms,
                      "deadline_ms": None}
    clocked = set(clocked)
    rows = []
    for seat in range(seats):
        left = clock["remaining_ms"].get(str(seat))
        acting = not over and seat == to_act and seat in clocked
        if left is not None and acting:
            left = max(0, int(left) - max(0, now_ms - int(clock["since_ms"])))
        deadline = clock.get("deadline_ms") if acting else None
        rows.append({"seat": seat, "clocked": seat in clocked,
                     "remaining_ms": None if left is None or seat not in clocked else int(left),
                     "deadline": rfc3339(deadline)})
    return {"per_move": control.get("per_move"), "main": control.get("main"),
            "increment": control.get("increment"), "on_timeout": control["on_timeout"],
            "deadline": rfc3339(clock.get("deadline_ms"))
            if not over and to_act in clocked else None,
            "seats": rows}
