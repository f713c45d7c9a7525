"""Starting a game: its state from the deal, its seats' credentials, its first bot turn.

Shared by `POST /v1/games` (after it validated the request and applied the limits) and by
anything else the server starts games for (tournaments, rematches).
"""

from __future__ import annotations

import json
import secrets
import string
import time
from typing import Any

import core
from api import clocks, metrics
from api.auth import new_human_token
from api.notify import notify_players
from api.presenters import public_deal, status_of
from api.services import Services
from api.store import Head, new_epoch
from core.deals import Deal

_ID_ALPHABET = string.ascii_letters + string.digits


def new_game_id() -> str:
    """A fresh random game id: 16 letters and digits (95 bits).

    Never url-safe base64: an id starting with "-" reads as an option on command lines
    (`bgb watch -x...` failed now and then).
    """
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(16))


def start_game(svc: Services, game: core.Game, options: dict[str, Any],
               specs: list[dict[str, Any]], deal: Deal,
               extra_meta: dict[str, Any] | None = None,
               clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """Store a new game of `game` dealt by `deal`, seated by the validated `specs` (human or
    bot), with the validated time control `clock` if any, and enqueue its first bot turn;
    the creation answer (with the human seats' tokens and the creator's, shown only there).
    `game.new_game` may raise InvalidOptions."""
    state = game.new_game(options, deal.seed)
    game_id = new_game_id()
    shown_seats: list[dict[str, Any]] = []
    stored_seats: list[dict[str, Any]] = []
    for seat, spec in enumerate(specs):
        if spec["kind"] == "human":
            token, digest = new_human_token()
            stored_seats.append({"seat": seat, "kind": "human", "token_sha256": digest})
            shown_seats.append({"seat": seat, "kind": "human", "token": token})
        else:
            stored_seats.append({"seat": seat, "kind": "bot", "bot": spec["bot"],
                                 "params": spec["params"]})
            shown_seats.append({"seat": seat, "kind": "bot", "bot": spec["bot"],
                                "params": spec["params"]})
    creator_token, creator_digest = new_human_token()
    # The seed stays server-side until the game is over: it would reveal every hidden order
    # of the game. Only its commitment is public.
    meta = {"game": game.name, "options": options, "seed": deal.seed, "created": time.time(),
            "seats": stored_seats, "creator_sha256": creator_digest,
            "deal": dict(deal.to_json(), commitment=deal.commitment), **(extra_meta or {})}
    if clock is not None:
        meta["clock"] = clock
    to_act = game.to_act(state)
    bot = None if to_act is None else stored_seats[to_act] if \
        stored_seats[to_act]["kind"] == "bot" else None
    clock_state = None
    if clock is not None:
        humans = [s["seat"] for s in stored_seats if s["kind"] == "human"]
        clock_state = clocks.new_clock(clock, humans, to_act, to_act in humans,
                                       int(time.time() * 1000))
    head = Head(0, to_act, status_of(to_act), clock=clock_state)
    epoch = new_epoch()
    svc.store.create(game_id, meta, head, json.dumps(game.dump(state), separators=(",", ":")),
                     bot is not None, epoch)
    svc.cache.put(game_id, 0, epoch, state)
    metrics.GAMES.labels(game.name).inc()
    if "accounts" in meta:
        # Before its first bot turn is queued: an account learns of its game before any
        # turn of it (api.notify).
        notify_players(svc, game_id, meta, {}, None, head, started=True,
                       tokens={s["seat"]: s["token"] for s in shown_seats if "token" in s})
    if bot is not None and to_act is not None:
        svc.bot_queue.enqueue(game_id, to_act, 0, bot["bot"])
    return {"id": game_id, "game": game.name, "options": options, "version": 0,
            "status": head.status, "to_act": to_act, "seats": shown_seats,
            "creator_token": creator_token, "deal": public_deal(meta, head.status != "active")}
