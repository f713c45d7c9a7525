"""A game record's verification (docs/records.md): its deal against its commitment, a replay
of the rules from the revealed seed checking every move's events, and the result.

Pure: no I/O. `bgb verify RECORD.json` (clients.verify) reads a record file or a server's
record and calls `verify_record`; the API's `POST /v1/records/replay` (api.replays) calls it
with `on_state` to show the game after each entry of a record it did not play itself. Both
check a record by this same code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import core
from core.deals import check_revealed
from core.takeback import Replay, TakebackRefused, takeback_of

# Called with (N, state) for the game as dealt (N = 0) and after each of the record's entries
# (N = its index + 1), as the replay goes; the state is the replay's own, changed by the next
# entry: a caller keeps what it needs of it at once.
OnState = Callable[[int, Any], None]


@dataclass
class Verification:
    """What verifying a game found: `ok` when every check held."""

    game_id: str
    checks: list[str] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every check held."""
        return not self.faults


# Words, not the deal: the API's `text` on each event of the log, and the labels, which the
# API gives in the reader's language and a later engine may word better. The rest of an
# event is what the rules made.
WORDS = ("text", "label")


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (tuples and lists alike), as the server stored them."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# What the API adds to an event of the log besides words: the result on `game_over` (checked
# on its own, against the replay's result).
ADDED: dict[str, tuple[str, ...]] = {"game_over": ("result",)}


def facts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An entry's events without their words (`WORDS`) and what the API adds (`ADDED`)."""
    return [{k: v for k, v in event.items()
             if k not in WORDS and k not in ADDED.get(str(event.get("type")), ())}
            for event in events]


# The log entries the server writes outside the rules (`system: true`): what each is and
# the events it carries. The API and the workers build them with these functions, and the
# verifier checks a record's against them, so the two cannot drift apart.
def abort_entry() -> dict[str, Any]:
    """The creator aborted the game (it ends: status `aborted`)."""
    return {"seat": None, "system": True, "move": {"type": "abort"},
            "events": [{"type": "aborted", "by": "creator"}]}


def abandon_entry() -> dict[str, Any]:
    """Nobody moved for the abandon-after time (it ends: status `abandoned`)."""
    return {"seat": None, "system": True, "move": {"type": "abandon"},
            "events": [{"type": "abandoned"}]}


def resign_entry(seat: int, timed_out: bool = False) -> dict[str, Any]:
    """`seat` resigned, or its time ran out with the action `resign`."""
    events: list[dict[str, Any]] = [{"type": "resigned", "seat": seat}]
    if timed_out:
        events.insert(0, {"type": "timed_out", "seat": seat, "action": "resign"})
    return {"seat": seat, "system": True, "move": {"type": "resign"}, "events": events}


def timeout_entry(seat: int, bot: str) -> dict[str, Any]:
    """`seat`'s time ran out with the action `bot`: `bot` plays its turns from now on."""
    return {"seat": seat, "system": True, "move": {"type": "timeout"},
            "events": [{"type": "timed_out", "seat": seat, "action": "bot", "bot": bot}]}


# The system entries that end a game, and the status they leave.
ENDING_ENTRIES = {"abort": "aborted", "abandon": "abandoned"}


# The record format this verifier reads (docs/records.md).
RECORD_FORMAT = "bgb-record"
RECORD_FORMAT_VERSION = 1
# What a resignation changes in a result (the server ranks resigned seats last): the rest of
# the result is the rules'.
RESIGNATION_KEYS = ("ranking", "places", "resigned", "finished", "ended_by", "winners")


def verify_record(record: dict[str, Any], on_state: OnState | None = None) -> Verification:
    """Verify a game record (docs/records.md) offline: its deal against its commitment, every
    move's events against a replay of the rules from the revealed seed, and the result;
    `on_state` sees the replayed game after each entry (see `OnState`)."""
    report = Verification(str(record.get("id", "?")))
    try:
        _verify(record, report, on_state or _ignore)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        report.faults.append(f"the record is malformed ({type(exc).__name__}: {exc})")
    return report


def _ignore(at: int, state: Any) -> None:
    """An `OnState` that keeps nothing."""


def _verify(record: dict[str, Any], report: Verification, on_state: OnState) -> None:
    """The checks of `verify_record`, appended to `report` (stops at the first fault that
    makes the rest meaningless)."""
    if record.get("format") != RECORD_FORMAT or \
            record.get("format_version") != RECORD_FORMAT_VERSION:
        report.faults.append(f"not a {RECORD_FORMAT} record of version "
                             f"{RECORD_FORMAT_VERSION} (format {record.get('format')!r}, "
                             f"version {record.get('format_version')!r})")
        return
    deal = record.get("deal")
    if not deal or not deal.get("revealed"):
        report.faults.append("the record has no revealed deal")
        return
    revealed = deal["revealed"]
    faults = check_revealed(deal["commitment"], revealed)
    report.faults.extend(faults)
    if faults:
        return
    report.checks.append(f"the seed matches the commitment {deal['commitment'][:16]}…")
    if not revealed.get("unranked"):
        report.checks.append("the seed mixes the client's seed with the server's nonce")
    else:
        report.checks.append("unranked: the seed is the one the client chose")
    try:
        game = core.get_game(record["game"])
    except core.UnknownGame:
        # A game this server plays but this bgb has no rules for (a newer server's game, a
        # test server's toy game): the deal is checked, the replay cannot be.
        report.faults.append(f"this bgb has no rules for {record['game']!r} (it knows "
                             f"{', '.join(core.game_names())}): the moves cannot be "
                             "replayed here; verify with a bgb that has them")
        return
    try:
        state = game.new_game(record["options"], int(revealed["seed"]))
    except (core.InvalidOptions, TypeError, ValueError, KeyError) as exc:
        report.faults.append(f"the game's options do not start a game of {game.name}: {exc}")
        return
    replayed = taken_back = system = 0
    resignations: set[int] = set()
    # Take-backs (core.takeback) return to the state before the move taken back: the replay
    # keeps the states a take-back may still return to, and checks each take-back against
    # the rules' own test (the seat's last move standing, which drew and revealed nothing).
    replay = Replay(game, state)
    on_state(0, replay.state)
    for position, entry in enumerate(record["moves"]):
        if entry.get("index") != position:
            report.faults.append(f"move {position}: the record numbers it "
                                 f"{entry.get('index')!r} (a move left out or added?)")
            return
        back = takeback_of(entry)
        if back is not None:
            try:
                replay.take_back(entry["seat"], back)
            except TakebackRefused as exc:
                report.faults.append(f"move {entry['index']} takes back move {back}, which "
                                     f"the rules do not allow: {exc.reason}")
                return
            taken_back += 1
            on_state(position + 1, replay.state)
            continue
        if entry["seat"] is None or entry.get("system"):
            # Not a move of the rules (an abort, a resignation, abandonment).
            fault = _system_fault(entry, record, resignations)
            if fault:
                report.faults.append(f"move {entry['index']}: {fault}")
                return
            system += 1
            on_state(position + 1, replay.state)
            continue
        state = replay.state
        if game.to_act(state) != entry["seat"]:
            report.faults.append(f"move {entry['index']}: seat {entry['seat']} played, but "
                                 f"the rules have seat {game.to_act(state)} to act")
            return
        try:
            events = replay.move(entry["index"], entry["seat"], entry["move"])
        except core.IllegalMove as exc:
            report.faults.append(f"move {entry['index']} is not legal in the replay: "
                                 f"{exc.reason}")
            return
        if not _same(facts(events), facts(entry["events"])):
            report.faults.append(f"move {entry['index']}: the replay's events differ from "
                                 "the record's (another deal than the one revealed, or an "
                                 "edited record?)")
            return
        replayed += 1
        on_state(position + 1, replay.state)
    report.checks.append(f"{replayed} moves replayed with the same events")
    if taken_back:
        report.checks.append(f"{taken_back} take-backs, each of a move that could be")
    if system:
        report.checks.append(f"{system} entries outside the rules (abort, resignation, "
                             "time-out, abandonment), each as the server writes it")
    listed = {seat["seat"] for seat in record.get("seats", []) if seat.get("resigned")}
    if listed != resignations:
        report.faults.append(f"the seats the record lists as resigned ({sorted(listed)}) are "
                             f"not those whose resignation it holds ({sorted(resignations)})")
        return
    _check_result(game, replay.state, record, report)


def _system_fault(entry: dict[str, Any], record: dict[str, Any],
                  resignations: set[int]) -> str | None:
    """What is wrong with a system entry of `record` (None when nothing is); a resignation
    is added to `resignations`."""
    kind = entry.get("move", {}).get("type")
    seat = entry["seat"]
    written: dict[str, Any] | None
    if kind not in (*ENDING_ENTRIES, "resign", "timeout"):
        return f"{kind!r} is no entry the server writes outside the rules"
    if kind in ENDING_ENTRIES:
        written = abort_entry() if kind == "abort" else abandon_entry()
        if entry is not record["moves"][-1]:
            return f"the {kind} ends the game, but entries follow it"
        if record.get("status") != ENDING_ENTRIES[kind]:
            return f"an {kind} leaves the game {ENDING_ENTRIES[kind]}, the record says " \
                   f"{record.get('status')!r}"
    elif not isinstance(seat, int) or isinstance(seat, bool) or \
            not 0 <= seat < len(record.get("seats", [])):
        return f"a {kind!r} entry of no seat of the game ({seat!r})"
    elif kind == "resign":
        if seat in resignations:
            return f"seat {seat} resigns a second time"
        resignations.add(seat)
        timed_out = len(entry.get("events", [])) == 2
        written = resign_entry(seat, timed_out)
    else:  # a time-out whose bot takes the seat
        bot = (entry.get("events") or [{}])[0].get("bot")
        written = timeout_entry(seat, bot) if isinstance(bot, str) else None
    if written is None or not _same(facts(entry["events"]), facts(written["events"])) or \
            entry.get("seat") != written["seat"]:
        return f"the {kind} entry's events are not those the server writes"
    return None


def _check_result(game: Any, state: Any, record: dict[str, Any],
                  report: Verification) -> None:
    """The record's result against the replay's (`state`: the game after its last move)."""
    if record.get("status") != "finished":
        if record.get("result") is not None:
            report.faults.append(f"a game {record.get('status')} has no result, but the "
                                 "record gives one")
        return
    claimed = record.get("result") or {}
    resigned = sorted(seat["seat"] for seat in record.get("seats", []) if seat.get("resigned"))
    if game.to_act(state) is not None:
        if claimed.get("ended_by") != "resignation" or not resigned:
            report.faults.append("the replay is not over where the game ended")
            return
    replayed = game.result(state)
    if resigned:
        # Resigned seats rank last (the server's rule); the scores are still the rules'.
        replayed = {k: v for k, v in replayed.items() if k not in RESIGNATION_KEYS}
        claimed = {k: v for k, v in claimed.items() if k not in RESIGNATION_KEYS}
        if (record.get("result") or {}).get("resigned") != resigned:
            report.faults.append("the result's resigned seats are not the record's")
            return
    if not _same(replayed, claimed):
        report.faults.append("the replay's result differs from the record's")
    else:
        report.checks.append("the result is the replay's")
