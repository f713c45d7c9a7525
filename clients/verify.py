"""`bgb verify GAME|RECORD.json`: check a finished game's deal and replay it from its seed and
log, from the server or offline from a record file (docs/records.md).

The server commits to a game's effective seed when the game is created and reveals it when
the game is over (`core.deals`). Verifying checks, with nothing but public answers of the
API: the revealed seed and salt match the commitment; a ranked game's seed is the client's
seed mixed with the server's nonce; and replaying the rules from the seed and the full move
log reproduces every move's events and the result. A game on a server is verified from its
record (`GET /v1/games/{id}/record`), so a record file and a server's game are checked by the
same code. It is the one client feature that needs the rules engine itself (`core`):
checking a replay means running the rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from clients.sdk import Client


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
ADDED = {"game_over": ("result",)}


def _facts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events without their words (`WORDS`) and what the API adds (`ADDED`)."""
    return [{k: v for k, v in event.items()
             if k not in WORDS and k not in ADDED.get(event.get("type"), ())}
            for event in events]


# The record format this verifier reads (docs/records.md).
RECORD_FORMAT = "bgb-record"
RECORD_FORMAT_VERSION = 1
# What a resignation changes in a result (the server ranks resigned seats last): the rest of
# the result is the rules'.
RESIGNATION_KEYS = ("ranking", "places", "resigned", "finished", "ended_by", "winners")


def verify_game(client: Client, game_id: str) -> Verification:
    """Verify a finished or aborted game of the server `client` talks to, from its record."""
    from clients.sdk import GameActive

    try:
        record = client.get_record(game_id)
    except GameActive:
        report = Verification(game_id)
        report.faults.append("the game is still active: its deal is revealed when it ends")
        return report
    return verify_record(record)


def load_record(path: str) -> dict[str, Any]:
    """A record file's JSON document (ValueError when it is not JSON or not an object)."""
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    if not isinstance(document, dict):
        raise ValueError(f"{path}: a record is a JSON object")
    return document


def verify_record(record: dict[str, Any]) -> Verification:
    """Verify a game record (docs/records.md) offline: its deal against its commitment, every
    move's events against a replay of the rules from the revealed seed, and the result."""
    report = Verification(str(record.get("id", "?")))
    try:
        _verify(record, report)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        report.faults.append(f"the record is malformed ({type(exc).__name__}: {exc})")
    return report


def _verify(record: dict[str, Any], report: Verification) -> None:
    """The checks of `verify_record`, appended to `report` (stops at the first fault that
    makes the rest meaningless)."""
    import core
    from core.deals import check_revealed
    from core.takeback import Replay, TakebackRefused, takeback_of

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
    replayed = taken_back = 0
    # Take-backs (core.takeback) return to the state before the move taken back: the replay
    # keeps the states a take-back may still return to, and checks each take-back against
    # the rules' own test (the seat's last move standing, which drew and revealed nothing).
    replay = Replay(game, state)
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
            continue
        if entry["seat"] is None or entry.get("system"):
            continue  # not a move of the rules (an abort, a resignation, abandonment)
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
        if not _same(_facts(events), _facts(entry["events"])):
            report.faults.append(f"move {entry['index']}: the replay's events differ from "
                                 "the record's (another deal than the one revealed, or an "
                                 "edited record?)")
            return
        replayed += 1
    report.checks.append(f"{replayed} moves replayed with the same events")
    if taken_back:
        report.checks.append(f"{taken_back} take-backs, each of a move that could be")
    _check_result(game, replay.state, record, report)


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
