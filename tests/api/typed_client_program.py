"""A small program written against the Python client that openapi-python-client generates
from /v1/openapi.json (package `generated_bgb_client`), as a third-party developer would.

tests/api/test_openapi_types.py generates the client, checks this file with `mypy --strict`
and runs `place_a_worker`: a game read is narrowed by its class (its `game`), a legal move by
its class (its `type`), and the typed legal move is posted as it is, without conversion.
"""

from __future__ import annotations

from collections.abc import Callable

from generated_bgb_client import AuthenticatedClient, Client
from generated_bgb_client.api.games import create_game, get_game, post_move
from generated_bgb_client.models import (
    CreatedGame,
    CreateGame,
    CreateGameGame,
    CreateGameOptions,
    DarwinsJourneyEventPlace,
    DarwinsJourneyGame,
    DarwinsJourneyMovePlace,
    DarwinsJourneyMoveResult,
    HumanCreatedSeat,
    MoveRequest,
)

MAX_DECISIONS = 60


def place_a_worker(anonymous: Client, seat_client: Callable[[str], AuthenticatedClient],
                   ) -> tuple[str, list[str]]:
    """Start a two-player Darwin's Journey, play its first legal moves until a worker may be
    placed, place one; the location and the types of the answer's `place` events."""
    created = create_game.sync(client=anonymous, body=CreateGame(
        game=CreateGameGame.DARWINS_JOURNEY,
        options=CreateGameOptions.from_dict({"players": 2})))
    if not isinstance(created, CreatedGame):
        raise RuntimeError(f"no game: {created!r}")
    tokens = {seat.seat: seat_client(seat.token) for seat in created.seats
              if isinstance(seat, HumanCreatedSeat) and isinstance(seat.token, str)}
    to_act = created.to_act
    for _ in range(MAX_DECISIONS):
        if not isinstance(to_act, int):
            raise RuntimeError("the game ended before a worker was placed")
        seat = tokens[to_act]
        game = get_game.sync(created.id, client=seat)
        if not isinstance(game, DarwinsJourneyGame):
            raise RuntimeError(f"not a Darwin's Journey game: {game!r}")
        places = [move for move in game.legal_moves if isinstance(move, DarwinsJourneyMovePlace)]
        move = places[0] if places else game.legal_moves[0]
        answer = post_move.sync(created.id, client=seat,
                                body=MoveRequest(move=move, version=game.version))
        if not isinstance(answer, DarwinsJourneyMoveResult):
            raise RuntimeError(f"not a Darwin's Journey answer: {answer!r}")
        if isinstance(move, DarwinsJourneyMovePlace):
            placed = [event.location for event in answer.events
                      if isinstance(event, DarwinsJourneyEventPlace)]
            return move.location, placed
        to_act = answer.to_act
    raise RuntimeError("no worker placed")
