"""Python SDK for the BoardGamesBot HTTP API (/v1), over `requests`.

Every error answer (application/problem+json) becomes a typed exception; moves are posted
with an Idempotency-Key so a retry after a lost answer replays the first answer instead of
moving twice.

    client = Client("http://127.0.0.1:8000")
    game = client.create_game("darwins-journey", {"players": 1, "alfred": "green"})
    token = game["seats"][0]["token"]
    body = client.wait_for_turn(game["id"], token)
    client.move(game["id"], token, body["legal_moves"][0], body["version"])
"""

from __future__ import annotations

import json
import os
import random
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import requests

DEFAULT_URL = "http://127.0.0.1:8000"
PROBLEM_BASE = "https://boardgamesbot.dev/problems/"
# Back-off between retries of a safe request (seconds); jittered.
RETRY_DELAYS = (0.1, 0.3, 1.0, 2.0, 4.0)
# The server caps a long poll at 30 s; our read timeout must outlast it.
LONG_POLL_SLACK = 10.0
# A request that is not retried (it is not safe to repeat) never rides a pooled connection
# idle for longer than this: servers close idle keep-alive connections (ours and
# compose.yaml's proxy after 5 s), and a request sent as the server closes is lost with
# no answer ("Remote end closed connection"), which only a safe request may retry.
UNSAFE_REUSE_SECONDS = 2.0

Json = dict[str, Any]


class ApiError(Exception):
    """An error answer from the server, built from its problem+json body."""

    def __init__(self, status: int, problem: Json) -> None:
        self.status = status
        self.problem = problem
        self.slug = _slug(problem.get("type"))
        self.title = str(problem.get("title") or "")
        self.detail = str(problem.get("detail") or "")
        super().__init__(f"{status} {self.slug}: {self.detail or self.title}")


class BadRequest(ApiError):
    """400: the request could not be read (malformed JSON, bad query)."""


class ValidationError(ApiError):
    """422 validation-error: fields that do not match the schema (see `errors`)."""

    @property
    def errors(self) -> Any:
        """The per-field messages of the server."""
        return self.problem.get("errors")


class IllegalMoveError(ApiError):
    """422 illegal-move: the move is not legal now; `legal_moves` are the ones that are."""

    @property
    def legal_moves(self) -> list[Json]:
        """The moves that were legal when the server answered."""
        return list(self.problem.get("legal_moves") or [])


class Unauthorized(ApiError):
    """401: missing or unknown seat token."""


class Forbidden(ApiError):
    """403: the token does not allow this (another seat, another game)."""


class NotYourTurn(Forbidden):
    """403 not-your-turn: the seat is valid but another seat must act now."""


class NotYourSeat(Forbidden):
    """403 not-your-seat: the player's key does not own the seat it names (or any of the
    game's)."""


class SeatRequired(BadRequest):
    """400 seat-required: the player's key owns several seats of the game; name one
    (`seat=`)."""

    @property
    def seats(self) -> list[int]:
        """The seats of the game the player owns."""
        return [int(s) for s in self.problem.get("seats") or []]


class NotFound(ApiError):
    """404: no such game (or resource)."""


class StaleVersion(ApiError):
    """409 stale-version: the game moved on; `current` is the game as the caller sees it now."""

    @property
    def current(self) -> Json:
        """The game read body at its current version."""
        return dict(self.problem.get("current") or {})


class GameOver(ApiError):
    """409 game-over: the game has finished; no more moves."""


class GameActive(ApiError):
    """409 game-active: the game is not over yet (no rematch, no record)."""


class TakebackRefused(ApiError):
    """409 takeback-refused: the move stands (a ranked game, another seat acted since, or
    the move drew or revealed something); nothing changed."""


class IdempotencyKeyReused(ApiError):
    """422 idempotency-key-reused: the key was first used for another move or version."""


class TooManyRequests(ApiError):
    """429 rate-limited: too many requests; `retry_after` says when to try again (seconds)."""

    @property
    def retry_after(self) -> float:
        """Seconds to wait, from the problem's `retry_after` member."""
        return float(self.problem.get("retry_after") or 1.0)


class PayloadTooLarge(ApiError):
    """413: the request body is larger than the server accepts."""


class UnsupportedMediaType(ApiError):
    """415: the body is not JSON."""


class MethodNotAllowed(ApiError):
    """405: the method is not allowed on this resource."""


class ServerError(ApiError):
    """5xx: the server failed; safe requests were already retried."""


class ServiceUnavailable(ServerError):
    """503 service-unavailable: the server's store does not answer; safe requests were
    already retried (after the server's Retry-After)."""


class TransportError(Exception):
    """The server could not be reached (after the retries a safe request allows)."""


_BY_SLUG: dict[str, type[ApiError]] = {
    "bad-request": BadRequest,
    "validation-error": ValidationError,
    "illegal-move": IllegalMoveError,
    "unauthorized": Unauthorized,
    "forbidden": Forbidden,
    "not-your-turn": NotYourTurn,
    "not-your-seat": NotYourSeat,
    "seat-required": SeatRequired,
    "not-found": NotFound,
    "stale-version": StaleVersion,
    "game-over": GameOver,
    "game-active": GameActive,
    "takeback-refused": TakebackRefused,
    "payload-too-large": PayloadTooLarge,
    "idempotency-key-reused": IdempotencyKeyReused,
    "rate-limited": TooManyRequests,
    "unsupported-media-type": UnsupportedMediaType,
    "method-not-allowed": MethodNotAllowed,
    "internal-error": ServerError,
    "service-unavailable": ServiceUnavailable,
}

_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    405: MethodNotAllowed,
    409: StaleVersion,
    413: PayloadTooLarge,
    415: UnsupportedMediaType,
    422: ValidationError,
    429: TooManyRequests,
}


def _slug(problem_type: Any) -> str:
    text = str(problem_type or "")
    return text[len(PROBLEM_BASE):] if text.startswith(PROBLEM_BASE) else text.rsplit("/", 1)[-1]


MAX_RETRY_AFTER = 10.0


def _retry_after(response: requests.Response) -> float:
    """The server's Retry-After in seconds (a number only; capped), else 0."""
    text = response.headers.get("Retry-After", "").strip()
    return min(float(text), MAX_RETRY_AFTER) if text.isascii() and text.isdigit() else 0.0


def error_from_response(status: int, body: bytes | str, content_type: str = "") -> ApiError:
    """The typed exception for an error answer (problem+json, or anything else the wire gave)."""
    problem: Json
    try:
        parsed = json.loads(body) if body else {}
        problem = parsed if isinstance(parsed, dict) else {"detail": str(parsed)}
    except ValueError:
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        problem = {"detail": text[:500]}
    problem.setdefault("status", status)
    cls = _BY_SLUG.get(_slug(problem.get("type")))
    if cls is None:
        cls = ServerError if status >= 500 else _BY_STATUS.get(status, ApiError)
    return cls(status, problem)


def seat_token(created: Json, seat: int) -> str:
    """The secret token of `seat` in the answer to `create_game` (human seats only)."""
    for entry in created.get("seats", []):
        if entry.get("seat") == seat and entry.get("token"):
            return str(entry["token"])
    raise KeyError(f"seat {seat} has no token (is it a bot seat?)")


class Client:
    """A client of one BoardGamesBot server."""

    def __init__(self, base_url: str | None = None, *, timeout: float = 10.0, retries: int = 4,
                 session: requests.Session | None = None) -> None:
        self.base_url = (base_url or os.environ.get("BGB_API_URL") or DEFAULT_URL).rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.session = session or requests.Session()
        self._last_answer = float("-inf")  # time.monotonic() of the last answer received

    # -- plumbing ---------------------------------------------------------------------------

    def _url(self, path: str) -> str:
        return f"{self.base_url}/v1{path}"

    def _request(self, method: str, path: str, *, token: str | None = None,
                 json_body: Any = None, params: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None, safe: bool = True,
                 timeout: float | None = None) -> requests.Response:
        """Send one request; retry connection errors and 5xx answers when `safe`."""
        all_headers = {"Accept": "application/json"}
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        all_headers.update(headers or {})
        attempts = 1 + (self.retries if safe else 0)
        if not safe and time.monotonic() - self._last_answer > UNSAFE_REUSE_SECONDS:
            # Drop the idle pooled connections (a stream in use keeps its own): this one
            # request opens a fresh connection, which no idle timer is closing.
            self.session.close()
        last: Exception | None = None
        wait_hint = 0.0
        for attempt in range(attempts):
            if attempt:
                delay = RETRY_DELAYS[min(attempt - 1, len(RETRY_DELAYS) - 1)]
                time.sleep(max(delay * (0.5 + random.random()), wait_hint))
            try:
                response = self.session.request(
                    method, self._url(path), json=json_body, params=params,
                    headers=all_headers, timeout=timeout or self.timeout)
            except requests.RequestException as exc:
                last = exc
                continue
            self._last_answer = time.monotonic()
            retryable = response.status_code >= 500 or response.status_code == 429
            if retryable and attempt + 1 < attempts:
                last = error_from_response(response.status_code, response.content)
                wait_hint = _retry_after(response)
                continue
            if response.status_code >= 400:
                raise error_from_response(response.status_code, response.content,
                                          response.headers.get("Content-Type", ""))
            return response
        if isinstance(last, ApiError):
            raise last
        raise TransportError(f"{method} {self._url(path)}: {last}") from last

    # -- catalog ----------------------------------------------------------------------------

    def catalog(self) -> list[Json]:
        """The games this server runs, with their options and player counts."""
        return list(self._request("GET", "/games-catalog").json()["games"])

    def bots(self) -> list[Json]:
        """The bots a seat can be given, with their parameters."""
        return list(self._request("GET", "/bots").json()["bots"])

    def health(self) -> bool:
        """Whether the server answers its health check."""
        try:
            response = self.session.get(f"{self.base_url}/healthz", timeout=self.timeout)
        except requests.RequestException:
            return False
        return response.status_code == 200

    # -- games ------------------------------------------------------------------------------

    def create_game(self, game: str, options: Json | None = None,
                    seats: list[Json] | None = None, seed: int | None = None,
                    unranked: bool = False, clock: Json | None = None) -> Json:
        """Create a game; the answer holds its id, one secret token per human seat and the
        creator's token. A `seed` is mixed with the server's own unless `unranked` (then the
        deal is the seed itself: reproducible, and known to whoever knows the seed). `clock`:
        a time control for the human seats (docs/clocks.md)."""
        body: Json = {"game": game, "options": options or {}}
        if clock is not None:
            body["clock"] = clock
        if seats is not None:
            body["seats"] = seats
        if seed is not None:
            body["seed"] = seed
        if unranked:
            body["unranked"] = True
        # Not retried: a lost answer would create a second game.
        return dict(self._request("POST", "/games", json_body=body, safe=False).json())

    def abort(self, game_id: str, creator_token: str) -> Json:
        """Abort an active game with the creator token of its creation."""
        return dict(self._request("POST", f"/games/{game_id}/abort", token=creator_token,
                                  safe=True).json())

    def resign(self, game_id: str, token: str, bot: str | None = None) -> Json:
        """Resign the seat of `token` (games of 3+ seats: `bot` plays on for it)."""
        body = {"bot": bot} if bot else {}
        return dict(self._request("POST", f"/games/{game_id}/resign", token=token,
                                  json_body=body, safe=False).json())

    def rematch(self, game_id: str, token: str) -> Json:
        """A new game like this finished one: a creation answer holding only the caller's
        secrets (its own seat's new token, or the new creator token when `token` is the
        creator's); the other seats redeem theirs with `rematch_token`."""
        return dict(self._request("POST", f"/games/{game_id}/rematch", token=token,
                                  safe=False).json())

    def rematch_token(self, game_id: str, token: str) -> Json:
        """{"game", "seat", "token"}: the seat's token in the rematch of `game_id`, for the
        seat's `token` of that game (once per seat)."""
        return dict(self._request("POST", f"/games/{game_id}/rematch/token", token=token,
                                  safe=False).json())

    # -- analysis ---------------------------------------------------------------------------

    def request_analysis(self, game_id: str, token: str | None = None,
                         seats: list[int] | None = None) -> Json:
        """Ask for the engine's analysis of a finished game (its progress, then results).
        Safe to retry: a request the analysis already covers changes nothing."""
        body = {"seats": seats} if seats else {}
        return dict(self._request("POST", f"/games/{game_id}/analysis", token=token,
                                  json_body=body).json())

    def analysis(self, game_id: str, token: str | None = None) -> Json:
        """A game's analysis as it stands: `status`, `progress`, and once done `moves` and
        `accuracy`."""
        return dict(self._request("GET", f"/games/{game_id}/analysis", token=token).json())

    def wait_for_analysis(self, game_id: str, token: str | None = None, *,
                          seats: list[int] | None = None, timeout: float | None = None,
                          interval: float = 0.5,
                          on_progress: Callable[[Json], None] | None = None) -> Json:
        """Ask for the analysis (of `seats`, default every seat with decisions) and poll it
        until it is done or failed (TimeoutError after `timeout` seconds); `on_progress`
        sees every answer."""
        deadline = None if timeout is None else time.monotonic() + timeout
        answer = self.request_analysis(game_id, token, seats)
        while True:
            if on_progress is not None:
                on_progress(answer)
            if answer["status"] in ("done", "failed"):
                return answer
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"the analysis of {game_id} is not done after {timeout} s")
            time.sleep(interval)
            answer = self.analysis(game_id, token)

    # -- hints (practice games) -------------------------------------------------------------

    def request_hint(self, game_id: str, token: str) -> Json:
        """Ask for a hint for the seat to act (an unranked game): queued, then the search's
        top moves. The seat is marked assisted. Safe to retry at the same version."""
        return dict(self._request("POST", f"/games/{game_id}/hint", token=token).json())

    def hint(self, game_id: str, token: str) -> Json:
        """The seat's last hint: `status`, `current`, and once done `moves` (best first)."""
        return dict(self._request("GET", f"/games/{game_id}/hint", token=token).json())

    def wait_for_hint(self, game_id: str, token: str, *, timeout: float | None = 30.0,
                      interval: float = 0.25) -> Json:
        """Ask for a hint and poll it until it is done or failed (TimeoutError after
        `timeout` seconds)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        answer = self.request_hint(game_id, token)
        while answer["status"] not in ("done", "failed"):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"the hint for {game_id} is not ready after {timeout} s")
            time.sleep(interval)
            answer = self.hint(game_id, token)
        return answer

    # -- players ----------------------------------------------------------------------------

    def create_player(self, name: str | None = None) -> Json:
        """A new player; its `key` is shown only in this answer."""
        body = {"name": name} if name else {}
        return dict(self._request("POST", "/players", json_body=body, safe=False).json())

    def me(self, key: str) -> Json:
        """The player a key belongs to."""
        return dict(self._request("GET", "/players/me", token=key).json())

    def my_games(self, key: str, *, status: str | None = None, my_turn: bool | None = None,
                 limit: int = 20, before: float | None = None) -> Json:
        """A page of the player's games, newest first: {"games", "next"}."""
        params: dict[str, Any] = {"limit": limit}
        if status:
            params["status"] = status
        if my_turn is not None:
            params["my_turn"] = "true" if my_turn else "false"
        if before is not None:
            params["before"] = before
        return dict(self._request("GET", "/players/me/games", token=key, params=params).json())

    def rotate_key(self, key: str) -> str:
        """The player's new key (shown only in this answer); `key` stops working at once."""
        return str(self._request("POST", "/players/me/key", token=key, safe=False)
                   .json()["key"])

    def delete_player(self, key: str) -> Json:
        """Delete the player: its seats in active games resign, its data are deleted;
        {"id", "resigned": [{"game_id", "seat", "version", "status"}]}."""
        return dict(self._request("DELETE", "/players/me", token=key, safe=False).json())

    def invite(self, game_id: str, seat: int, seat_token: str, player_id: str) -> Json:
        """Offer `seat` (its token proves it is the caller's) to a player: the challenge."""
        return dict(self._request("POST", f"/games/{game_id}/seats/{seat}/invite",
                                  token=seat_token, json_body={"player": player_id},
                                  safe=False).json())

    def challenges(self, key: str) -> list[Json]:
        """The seats offered to the player, oldest first."""
        return list(self._request("GET", "/players/me/challenges", token=key)
                    .json()["challenges"])

    def accept_challenge(self, key: str, challenge_id: str) -> Json:
        """Take the offered seat: {"game_id", "seat", "token"} (the seat's new token)."""
        return dict(self._request("POST", f"/players/me/challenges/{challenge_id}/accept",
                                  token=key, safe=False).json())

    def decline_challenge(self, key: str, challenge_id: str) -> None:
        """Refuse the offered seat."""
        self._request("POST", f"/players/me/challenges/{challenge_id}/decline", token=key,
                      safe=False)

    def open_seat(self, game_id: str, seat: int, seat_token: str) -> Json:
        """Open the seat to any player (the lobby), with the seat's token."""
        return dict(self._request("POST", f"/games/{game_id}/seats/{seat}/open",
                                  token=seat_token).json())

    def close_seat(self, game_id: str, seat: int, seat_token: str) -> None:
        """Take the seat off the lobby."""
        self._request("DELETE", f"/games/{game_id}/seats/{seat}/open", token=seat_token)

    def open_seats(self, game: str | None = None) -> list[Json]:
        """The lobby: seats open to any player, oldest first (`game`: only that game's)."""
        params = None if game is None else {"game": game}
        return list(self._request("GET", "/open-seats", params=params).json()["seats"])

    def take_seat(self, key: str, game_id: str, seat: int) -> Json:
        """Take an open seat with a player's key: the answer holds the seat's new token."""
        return dict(self._request("POST", f"/open-seats/{game_id}/{seat}/take", token=key,
                                  safe=False).json())

    def claim_seat(self, game_id: str, seat: int, key: str, seat_token: str) -> Json:
        """Make the player of `key` the owner of `seat`, proven by the seat's token."""
        return dict(self._request("POST", f"/games/{game_id}/seats/{seat}/claim", token=key,
                                  json_body={"token": seat_token}).json())

    def new_seat_token(self, game_id: str, seat: int, key: str) -> str:
        """A new token for a seat the player owns (the old one stops working)."""
        return str(self._request("POST", f"/games/{game_id}/seats/{seat}/token", token=key,
                                 safe=False).json()["token"])

    def add_webhook(self, key: str, url: str,
                    events: tuple[str, ...] = ("your_turn", "game_over")) -> Json:
        """Register a webhook; its signing `secret` is shown only in this answer."""
        return dict(self._request("POST", "/players/me/webhooks", token=key, safe=False,
                                  json_body={"url": url, "events": list(events)}).json())

    def webhooks(self, key: str) -> list[Json]:
        """The player's webhooks."""
        return list(self._request("GET", "/players/me/webhooks", token=key).json()["webhooks"])

    def webhook_deliveries(self, key: str, webhook_id: str) -> list[Json]:
        """A webhook's delivery attempts, newest first."""
        return list(self._request("GET", f"/players/me/webhooks/{webhook_id}/deliveries",
                                  token=key).json()["deliveries"])

    def get_game(self, game_id: str, token: str | None = None, *,
                 wait_version: int | None = None, wait_timeout: float | None = None,
                 seat: int | None = None) -> Json:
        """The game as `token`'s seat (or a spectator) sees it; long-polls with `wait_version`.
        `token` may be a player's key: `seat` then names which of its seats reads (needed
        when it owns several)."""
        params: Json = {} if seat is None else {"seat": seat}
        timeout = None
        if wait_version is not None:
            params["wait_version"] = wait_version
            if wait_timeout is not None:
                params["timeout"] = wait_timeout
            timeout = (wait_timeout if wait_timeout is not None else 30.0) + LONG_POLL_SLACK
        return dict(self._request("GET", f"/games/{game_id}", token=token, params=params,
                                  timeout=timeout).json())

    def get_game_at(self, game_id: str, version: int, token: str | None = None, *,
                    seat: int | None = None) -> Json:
        """The game as it stood at `version`, as `token`'s seat (or a spectator) saw it then;
        once the game is over, `seat` shows that seat's view instead."""
        params: Json = {"at": version}
        if seat is not None:
            params["seat"] = seat
        return dict(self._request("GET", f"/games/{game_id}", token=token,
                                  params=params).json())

    def get_record(self, game_id: str) -> Json:
        """A finished game's portable record (docs/records.md); `GameActive` (409) while it
        runs."""
        return dict(self._request("GET", f"/games/{game_id}/record").json())

    def replay_record(self, record: Json, seat: int | None = None) -> Json:
        """`record` (a record file's document, from any server) verified by this server as
        `bgb verify` does, and replayed: its `checks`, its log in words (`moves`) and the game
        after each entry (`views[N]`) as `seat` (None: a spectator) saw it (docs/records.md).
        A record that does not verify is a `ValidationError` (422): `errors["json"]["record"]`
        lists the faults. Nothing is stored, so a lost answer is asked again."""
        params = {} if seat is None else {"seat": seat}
        return dict(self._request("POST", "/records/replay", json_body=record,
                                  params=params, safe=True).json())

    def legal_moves(self, game_id: str, token: str) -> list[Json]:
        """The seat's legal moves now (empty when another seat must act)."""
        return list(self.get_game(game_id, token).get("legal_moves") or [])

    def move(self, game_id: str, token: str, move: Json, version: int,
             idempotency_key: str | None = None, forfeit: Json | None = None,
             bot_job: str | None = None, *, seat: int | None = None) -> Json:
        """Play `move` against `version`; retried safely under one Idempotency-Key.
        `token` may be a player's key (`seat`: which of its seats moves, when it owns
        several). (`forfeit` and `bot_job`: the server's bot workers only, reporting a move
        over its budget, and holding the next bot turn for the worker's job.)"""
        key = idempotency_key or str(uuid.uuid4())
        body: Json = {"move": move, "version": version}
        if forfeit is not None:
            body["forfeit"] = forfeit
        if bot_job is not None:
            body["bot_job"] = bot_job
        return dict(self._request(
            "POST", f"/games/{game_id}/moves", token=token,
            json_body=body, params=None if seat is None else {"seat": seat},
            headers={"Idempotency-Key": key}).json())

    def take_back(self, game_id: str, token: str, version: int,
                  idempotency_key: str | None = None, *, seat: int | None = None) -> Json:
        """Take back the seat's last move, the game being at `version` (a practice game
        only, while no other seat has acted and if the move drew and revealed nothing: a
        game read's `takeback` says when); retried safely under one Idempotency-Key.
        {"game", "version", "taken_back", "status", "to_act", "legal_moves"};
        `TakebackRefused` (409) when the move stands."""
        key = idempotency_key or str(uuid.uuid4())
        return dict(self._request(
            "POST", f"/games/{game_id}/takeback", token=token, json_body={"version": version},
            params=None if seat is None else {"seat": seat},
            headers={"Idempotency-Key": key}).json())

    def wait_for_turn(self, game_id: str, token: str, *, timeout: float | None = None,
                      poll: float = 25.0) -> Json:
        """Block until the token's seat must act or the game is over; returns the game body.

        `timeout` bounds the whole wait (None: forever); TimeoutError when it runs out.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        body = self.get_game(game_id, token)
        while body.get("status") == "active" and body.get("to_act") != body.get("seat"):
            wait = poll
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"game {game_id}: not our turn after {timeout} s")
                wait = max(0.1, min(poll, left))
            body = self.get_game(game_id, token, wait_version=int(body["version"]),
                                 wait_timeout=wait)
        return body

    def wait_for_version(self, game_id: str, version: int, token: str | None = None, *,
                         timeout: float = 25.0) -> Json:
        """The game once its version is past `version` (or unchanged after `timeout`)."""
        return self.get_game(game_id, token, wait_version=version, wait_timeout=timeout)

    def moves(self, game_id: str, token: str | None = None, *, after: int | None = None,
              limit: int | None = None) -> Json:
        """One page of the move log: {"moves": [...], "next": index|None}, redacted for us."""
        params: Json = {}
        if after is not None:
            params["after"] = after
        if limit is not None:
            params["limit"] = limit
        return dict(self._request("GET", f"/games/{game_id}/moves", token=token,
                                  params=params).json())

    def iter_moves(self, game_id: str, token: str | None = None, *,
                   after: int | None = None) -> Iterator[Json]:
        """Every logged move after index `after` (all when None), following the pages."""
        while True:
            page = self.moves(game_id, token, after=after, limit=200)
            yield from page.get("moves") or []
            if page.get("next") is None or not page.get("moves"):
                return
            after = int(page["next"])

    def events(self, game_id: str, *, last_event_id: int | str | None = None,
               read_timeout: float = 60.0, resume: bool = True, token: str | None = None,
               view: bool = False) -> Iterator[Json]:
        """Server-sent version events of a game: yields each `data` (with "version") as a dict.

        Starts after `last_event_id`; when the server closes the stream (it bounds each one)
        it reconnects with Last-Event-ID unless `resume` is False; ends when the game finishes.
        With a seat's `token` and `view`, the event of each current version carries
        "current": the game as the seat's read answers it.
        """
        while True:
            finished = False
            for event in self._event_stream(game_id, last_event_id, read_timeout, token, view):
                if event.get("id"):
                    last_event_id = event["id"]
                if event.get("event", "message") not in ("version", "message"):
                    continue
                try:
                    data = json.loads(event.get("data") or "{}")
                except ValueError:
                    continue
                yield data
                if data.get("status") in ("finished", "aborted"):
                    finished = True
                    break
            if finished or not resume:
                return

    def _event_stream(self, game_id: str, last_event_id: int | str | None,
                      read_timeout: float, token: str | None = None,
                      view: bool = False) -> Iterator[dict[str, str]]:
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        try:
            response = self.session.get(self._url(f"/games/{game_id}/events"), headers=headers,
                                        params={"view": "1"} if view else None,
                                        stream=True, timeout=(self.timeout, read_timeout))
        except requests.RequestException as exc:
            raise TransportError(f"events of {game_id}: {exc}") from exc
        if response.status_code >= 400:
            raise error_from_response(response.status_code, response.content)
        with response:
            try:
                yield from parse_sse(response.iter_lines(decode_unicode=True))
            except requests.RequestException as exc:
                raise TransportError(f"events of {game_id}: {exc}") from exc

    def account_events(self, token: str, *, tournament: str | None = None, view: bool = False,
                       last_event_id: str | None = None, read_timeout: float = 60.0,
                       resume: bool = True) -> Iterator[Json]:
        """The account's events (`GET /v1/players/me/stream`): yields each event's data as a
        dict, with "type" and its stream "id" (keep it to resume after it).

        `token` is a player key, or with `tournament` an external entrant's token (then the
        events end with `tournament_finished`). With `view`, each `your_turn` carries the
        seat's game ("current": view and legal moves). When the server closes a stream (it
        bounds each one) it reconnects with Last-Event-ID unless `resume` is False."""
        params: Json = {"view": "1" if view else "0"}
        if tournament is not None:
            params["tournament"] = tournament
        while True:
            headers = {"Accept": "text/event-stream", "Authorization": f"Bearer {token}"}
            if last_event_id is not None:
                headers["Last-Event-ID"] = last_event_id
            try:
                response = self.session.get(self._url("/players/me/stream"), params=params,
                                            headers=headers, stream=True,
                                            timeout=(self.timeout, read_timeout))
            except requests.RequestException as exc:
                raise TransportError(f"account events: {exc}") from exc
            if response.status_code >= 400:
                raise error_from_response(response.status_code, response.content,
                                          response.headers.get("Content-Type", ""))
            with response:
                try:
                    for event in parse_sse(response.iter_lines(decode_unicode=True)):
                        last_event_id = event.get("id", last_event_id)
                        data = dict(json.loads(event.get("data") or "{}"), id=last_event_id)
                        yield data
                        if tournament is not None and data.get("type") == "tournament_finished":
                            return
                except requests.RequestException as exc:
                    raise TransportError(f"account events: {exc}") from exc
            if not resume:
                return

    # -- tournaments -------------------------------------------------------------------------

    def create_tournament(self, game: str, entrants: list[Json], options: Json | None = None,
                          **settings: Any) -> Json:
        """Start a tournament the server plays (`settings`: format, deals, seed, max_parallel,
        automa); the answer holds its id, the creator token and external entrants' tokens."""
        body: Json = {"game": game, "options": options or {}, "entrants": entrants,
                      **settings}
        # Not retried: a lost answer would start a second tournament.
        return dict(self._request("POST", "/tournaments", json_body=body, safe=False).json())

    def tournament(self, tournament_id: str) -> Json:
        """A tournament: its progress and standings so far."""
        return dict(self._request("GET", f"/tournaments/{tournament_id}").json())

    def tournament_games(self, tournament_id: str, entrant_token: str | None = None
                         ) -> list[Json]:
        """A tournament's games in schedule order (with an external entrant's token: the seat
        tokens of its seats)."""
        return list(self._request("GET", f"/tournaments/{tournament_id}/games",
                                  token=entrant_token).json()["games"])

    def cancel_tournament(self, tournament_id: str, creator_token: str) -> Json:
        """Cancel a tournament with the creator token of its creation."""
        return dict(self._request("DELETE", f"/tournaments/{tournament_id}",
                                  token=creator_token).json())

    def tournament_chart(self, tournament_id: str) -> bytes:
        """The PNG chart of the entrants' score distributions."""
        return bytes(self._request("GET", f"/tournaments/{tournament_id}/chart.png",
                                   headers={"Accept": "image/png"}).content)

    def tournament_events(self, tournament_id: str, *, read_timeout: float = 60.0
                          ) -> Iterator[Json]:
        """The tournament's progress events ({"status", "total", "finished", "in_progress"})
        until it ends, reconnecting when the server closes a stream."""
        while True:
            try:
                response = self.session.get(
                    self._url(f"/tournaments/{tournament_id}/events"),
                    headers={"Accept": "text/event-stream"}, stream=True,
                    timeout=(self.timeout, read_timeout))
            except requests.RequestException as exc:
                raise TransportError(f"events of tournament {tournament_id}: {exc}") from exc
            if response.status_code >= 400:
                raise error_from_response(response.status_code, response.content)
            with response:
                try:
                    for event in parse_sse(response.iter_lines(decode_unicode=True)):
                        data = json.loads(event.get("data") or "{}")
                        yield data
                        if data.get("status") in ("finished", "cancelled"):
                            return
                except requests.RequestException as exc:
                    raise TransportError(f"events of tournament {tournament_id}: {exc}"
                                         ) from exc


def parse_sse(lines: Iterator[str]) -> Iterator[dict[str, str]]:
    """Server-sent events from a stream's lines: dicts with "event", "data", "id"."""
    event: dict[str, str] = {}
    data: list[str] = []
    for raw in lines:
        line = raw.rstrip("\r") if isinstance(raw, str) else raw.decode().rstrip("\r")
        if not line:
            # As in browsers: a block without data lines (e.g. only "retry:") is no event.
            if data:
                event["data"] = "\n".join(data)
                yield event
            event, data = {}, []
            continue
        if line.startswith(":"):
            continue  # a heartbeat comment
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            data.append(value)
        elif name in ("event", "id", "retry"):
            event[name] = value
    if data:
        event["data"] = "\n".join(data)
        yield event
