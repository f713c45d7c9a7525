"""`bgb verify GAME`: check a finished game's deal and replay it from its seed and log.

The server commits to a game's effective seed when the game is created and reveals it when
the game is over (`core.deals`). Verifying checks, with nothing but public answers of the
API: the revealed seed and salt match the commitment; a ranked game's seed is the client's
seed mixed with the server's nonce; and replaying the rules from the seed and the full move
log reproduces every move's events and the result. It is the one client feature that needs
the rules engine itself (`core`): checking a replay means running the rules.
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


def _facts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events without their words (`WORDS`)."""
    return [{k: v for k, v in event.items() if k not in WORDS} for event in events]


def verify_game(client: Client, game_id: str) -> Verification:
    """Verify a finished or aborted game of the server `client` talks to."""
    import core
    from core.deals import check_revealed

    report = Verification(game_id)
    body = client.get_game(game_id)
    deal = body.get("deal")
    if body.get("status") == "active":
        report.faults.append("the game is still active: its deal is revealed when it ends")
        return report
    if not deal or not deal.get("revealed"):
        report.faults.append("the server published no deal for this game")
        return report
    revealed = deal["revealed"]
    faults = check_revealed(deal["commitment"], revealed)
    report.faults.extend(faults)
    if not faults:
        report.checks.append(f"the seed matches the commitment {deal['commitment'][:16]}…")
        if not revealed.get("unranked"):
            report.checks.append("the seed mixes the client's seed with the server's nonce")
        else:
            report.checks.append("unranked: the seed is the one the client chose")
    try:
        game = core.get_game(body["game"])
    except core.UnknownGame:
        # A game this server plays but this bgb has no rules for (a newer server's game, a
        # test server's toy game): the deal is checked, the replay cannot be.
        report.faults.append(f"this bgb has no rules for {body['game']!r} (it knows "
                             f"{', '.join(core.game_names())}): the moves cannot be "
                             "replayed here; verify with a bgb that has them")
        return report
    try:
        state = game.new_game(body["options"], int(revealed["seed"]))
    except (core.InvalidOptions, TypeError, ValueError, KeyError) as exc:
        report.faults.append(f"the game's options do not start a game of {game.name}: {exc}")
        return report
    replayed = 0
    for entry in client.iter_moves(game_id):
        if entry["seat"] is None or entry.get("system"):
            continue  # not a move of the rules (an abort, a resignation, abandonment)
        if game.to_act(state) != entry["seat"]:
            report.faults.append(f"move {entry['index']}: seat {entry['seat']} played, but "
                                 f"the rules have seat {game.to_act(state)} to act")
            return report
        try:
            events = game.apply(state, entry["move"])
        except core.IllegalMove as exc:
            report.faults.append(f"move {entry['index']} is not legal in the replay: "
                                 f"{exc.reason}")
            return report
        if not _same(_facts(events), _facts(entry["events"])):
            report.faults.append(f"move {entry['index']}: the replay's events differ from "
                                 "the log's (another deal than the one revealed?)")
            return report
        replayed += 1
    report.checks.append(f"{replayed} moves replayed with the same events")
    if body.get("status") == "finished":
        if game.to_act(state) is not None:
            report.faults.append("the replay is not over where the game ended")
        elif not _same(game.result(state), body.get("result")):
            report.faults.append("the replay's result differs from the server's")
        else:
            report.checks.append("the result is the replay's")
    return report
