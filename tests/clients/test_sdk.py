"""The SDK against a scripted HTTP server: problem+json -> typed errors, safe retries."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from clients import sdk
from clients.sdk import Client

BASE = "https://boardgamesbot.dev/problems/"


class Script:
    """Answers to give, in order, and the requests received."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, Any, str]] = []
        self.requests: list[dict[str, Any]] = []


def _handler(script: Script, keep_alive: bool = False) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.1 keeps a connection open for the next request; 1.0 closes it.
        protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            script.requests.append({"method": self.command, "path": self.path,
                                    "headers": dict(self.headers), "body": body,
                                    "connection": self.client_address})
            status, payload, ctype = script.answers.pop(0) if script.answers else (
                200, {}, "application/json")
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = _answer

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


def _serve(keep_alive: bool) -> Iterator[tuple[Script, str]]:
    script = Script()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script, keep_alive))
    httpd.daemon_threads = True  # a kept-alive connection's thread must not hold the end
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield script, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def server() -> Iterator[tuple[Script, str]]:
    yield from _serve(keep_alive=False)


@pytest.fixture
def keep_alive_server() -> Iterator[tuple[Script, str]]:
    yield from _serve(keep_alive=True)


def problem(slug: str, status: int, **extra: Any) -> tuple[int, dict[str, Any], str]:
    body = {"type": BASE + slug, "title": slug, "status": status, "detail": f"{slug} detail",
            **extra}
    return status, body, "application/problem+json"


@pytest.mark.parametrize(("slug", "status", "cls"), [
    ("bad-request", 400, sdk.BadRequest),
    ("validation-error", 422, sdk.ValidationError),
    ("illegal-move", 422, sdk.IllegalMoveError),
    ("unauthorized", 401, sdk.Unauthorized),
    ("forbidden", 403, sdk.Forbidden),
    ("not-your-turn", 403, sdk.NotYourTurn),
    ("not-found", 404, sdk.NotFound),
    ("stale-version", 409, sdk.StaleVersion),
    ("game-over", 409, sdk.GameOver),
    ("payload-too-large", 413, sdk.PayloadTooLarge),
    ("unsupported-media-type", 415, sdk.UnsupportedMediaType),
    ("method-not-allowed", 405, sdk.MethodNotAllowed),
    ("internal-error", 500, sdk.ServerError),
])
def test_each_problem_slug_maps_to_its_exception(slug: str, status: int,
                                                 cls: type[sdk.ApiError]) -> None:
    _, body, _ = problem(slug, status)
    error = sdk.error_from_response(status, json.dumps(body).encode())
    assert type(error) is cls
    assert error.status == status and error.slug == slug
    assert error.detail == f"{slug} detail"


def test_errors_without_problem_body_map_by_status() -> None:
    assert isinstance(sdk.error_from_response(404, b"<html>nope</html>"), sdk.NotFound)
    assert isinstance(sdk.error_from_response(502, b"Bad Gateway"), sdk.ServerError)
    assert type(sdk.error_from_response(418, b"")) is sdk.ApiError


def test_illegal_move_carries_legal_moves_and_stale_carries_current(server) -> None:
    script, url = server
    legal = [{"type": "draw", "label": "Draw"}]
    script.answers = [problem("illegal-move", 422, legal_moves=legal),
                      problem("stale-version", 409, current={"version": 7})]
    client = Client(url)
    with pytest.raises(sdk.IllegalMoveError) as illegal:
        client.move("g1", "tok", {"type": "fly"}, 3)
    assert illegal.value.legal_moves == legal
    with pytest.raises(sdk.StaleVersion) as stale:
        client.move("g1", "tok", {"type": "draw"}, 3)
    assert stale.value.current == {"version": 7}


def test_move_retries_5xx_with_the_same_idempotency_key(server) -> None:
    script, url = server
    script.answers = [problem("internal-error", 500), (503, b"busy", "text/plain"),
                      (200, {"version": 4, "events": []}, "application/json")]
    answer = Client(url).move("g1", "tok", {"type": "draw"}, 3)
    assert answer["version"] == 4
    keys = {r["headers"]["Idempotency-Key"] for r in script.requests}
    assert len(script.requests) == 3 and len(keys) == 1
    sent = json.loads(script.requests[0]["body"])
    assert sent == {"move": {"type": "draw"}, "version": 3}
    assert script.requests[0]["headers"]["Authorization"] == "Bearer tok"


def test_given_idempotency_key_is_sent(server) -> None:
    script, url = server
    Client(url).move("g1", "tok", {"type": "stop"}, 0, idempotency_key="k-1")
    assert script.requests[0]["headers"]["Idempotency-Key"] == "k-1"


def test_4xx_is_never_retried_and_create_is_not_retried_on_5xx(server) -> None:
    script, url = server
    script.answers = [problem("not-your-turn", 403), problem("internal-error", 500)]
    client = Client(url)
    with pytest.raises(sdk.NotYourTurn):
        client.move("g1", "tok", {"type": "stop"}, 0)
    with pytest.raises(sdk.ServerError):
        client.create_game("toy-pontoon")
    assert len(script.requests) == 2


def test_a_request_not_retried_never_rides_a_long_idle_connection(
        keep_alive_server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server closes an idle keep-alive connection after a few seconds; a request sent as
    it closes gets no answer, and only a safe request may be retried. So a request that is
    not retried goes on a fresh connection once the pooled one has idled a while, while
    safe requests, and unsafe ones right after an answer, reuse it."""
    script, url = keep_alive_server
    client = Client(url)
    monkeypatch.setattr(sdk, "UNSAFE_REUSE_SECONDS", 60.0)
    client.get_game("g1")
    client.get_game("g1")
    client.create_game("toy-pontoon")  # right after an answer: the same connection
    monkeypatch.setattr(sdk, "UNSAFE_REUSE_SECONDS", 0.0)
    client.get_game("g1")  # safe: retried if it meets a closing server, so it reuses it
    client.create_game("toy-pontoon")  # idle "too long" (0 s): a new connection
    client.get_game("g1")
    first, second, third, fourth, fifth, sixth = (r["connection"] for r in script.requests)
    assert first == second == third == fourth
    assert fifth != fourth
    assert sixth == fifth


def test_unreachable_server_is_a_transport_error() -> None:
    client = Client("http://127.0.0.1:9", retries=1, timeout=0.5)
    with pytest.raises(sdk.TransportError):
        client.get_game("g1")


def test_long_poll_and_paging_parameters(server) -> None:
    script, url = server
    script.answers = [
        (200, {"id": "g1", "version": 5}, "application/json"),
        (200, {"moves": [{"index": 0}, {"index": 1}], "next": 1}, "application/json"),
        (200, {"moves": [{"index": 2}], "next": None}, "application/json"),
    ]
    client = Client(url)
    client.get_game("g1", wait_version=4, wait_timeout=2)
    assert [m["index"] for m in client.iter_moves("g1")] == [0, 1, 2]
    paths = [r["path"] for r in script.requests]
    assert paths[0] == "/v1/games/g1?wait_version=4&timeout=2"
    assert paths[1] == "/v1/games/g1/moves?limit=200"
    assert paths[2] == "/v1/games/g1/moves?after=1&limit=200"


def test_parse_sse_events_and_heartbeats() -> None:
    lines = [": heartbeat", "id: 3", "event: version",
             'data: {"version": 3, "status": "active", "to_act": 1}', "", ": hb", "",
             "id: 4", "event: version", 'data: {"version": 4,', 'data: "status": "finished"}', ""]
    events = list(sdk.parse_sse(iter(lines)))
    assert [e["id"] for e in events] == ["3", "4"]
    assert json.loads(events[1]["data"]) == {"version": 4, "status": "finished"}


def test_events_stream_stops_when_the_game_finishes(server) -> None:
    script, url = server
    stream = (b"id: 1\nevent: version\ndata: {\"version\": 1, \"status\": \"active\"}\n\n"
              b": keep-alive\n\n"
              b"id: 2\nevent: version\ndata: {\"version\": 2, \"status\": \"finished\"}\n\n")
    script.answers = [(200, stream, "text/event-stream")]
    seen = list(Client(url).events("g1", last_event_id=0))
    assert [e["version"] for e in seen] == [1, 2]
    assert script.requests[0]["headers"]["Last-Event-ID"] == "0"


def test_seat_token_reads_the_create_answer() -> None:
    created = {"seats": [{"seat": 0, "kind": "human", "token": "t0"},
                         {"seat": 1, "kind": "bot", "bot": "random"}]}
    assert sdk.seat_token(created, 0) == "t0"
    with pytest.raises(KeyError):
        sdk.seat_token(created, 1)


def test_events_resume_after_the_server_closes_the_stream(server) -> None:
    script, url = server
    script.answers = [
        (200, b"retry: 1000\n\nid: 1\nevent: version\ndata: {\"version\": 1, \"status\": "
              b"\"active\"}\n\n", "text/event-stream"),
        (200, b"id: 2\nevent: version\ndata: {\"version\": 2, \"status\": \"finished\"}\n\n",
         "text/event-stream"),
    ]
    seen = list(Client(url).events("g1"))
    assert [e["version"] for e in seen] == [1, 2]
    assert "Last-Event-ID" not in script.requests[0]["headers"]
    assert script.requests[1]["headers"]["Last-Event-ID"] == "1"


def test_account_events_resume_and_end_with_the_tournament(server) -> None:
    script, url = server
    script.answers = [
        (200, b"retry: 1000\n\nid: 5-0\nevent: game_started\ndata: {\"type\": "
              b"\"game_started\", \"game_id\": \"g1\", \"token\": \"t\"}\n\n",
         "text/event-stream"),
        (200, b": heartbeat\n\nid: 6-0\nevent: tournament_finished\ndata: {\"type\": "
              b"\"tournament_finished\", \"status\": \"finished\"}\n\n"
              b"id: 7-0\nevent: game_over\ndata: {\"type\": \"game_over\"}\n\n",
         "text/event-stream"),
    ]
    seen = list(Client(url).account_events("key", tournament="t1", view=True))
    assert [(e["type"], e["id"]) for e in seen] == [("game_started", "5-0"),
                                                     ("tournament_finished", "6-0")]
    first, second = script.requests
    assert first["path"] == "/v1/players/me/stream?view=1&tournament=t1"
    assert first["headers"]["Authorization"] == "Bearer key"
    assert "Last-Event-ID" not in first["headers"]
    assert second["headers"]["Last-Event-ID"] == "5-0"


def test_account_events_raise_the_problem_of_a_refused_stream(server) -> None:
    script, url = server
    script.answers = [(401, {"type": BASE + "unauthorized", "title": "Unauthorized",
                             "status": 401, "detail": "no key"}, "application/problem+json")]
    with pytest.raises(sdk.Unauthorized):
        next(Client(url).account_events("nope"))


def test_a_player_key_names_its_seat_and_manages_its_account(server) -> None:
    script, url = server
    script.answers = [
        (200, {"id": "g1", "seat": 1}, "application/json"),
        (200, {"version": 4}, "application/json"),
        problem("seat-required", 400, seats=[0, 1]),
        problem("not-your-seat", 403),
        (200, {"id": "p1", "key": "bgbp_new"}, "application/json"),
        (200, {"id": "p1", "resigned": []}, "application/json"),
        (201, {"id": "ch_1"}, "application/json"),
        (200, {"challenges": [{"id": "ch_1"}]}, "application/json"),
        (200, {"game_id": "g1", "seat": 1, "token": "t"}, "application/json"),
        (204, b"", "application/json"),
    ]
    client = Client(url, retries=0)
    assert client.get_game("g1", "bgbp_key", seat=1)["seat"] == 1
    assert client.move("g1", "bgbp_key", {"type": "draw"}, 3, seat=1)["version"] == 4
    with pytest.raises(sdk.SeatRequired) as required:
        client.get_game("g1", "bgbp_key")
    assert required.value.seats == [0, 1]
    with pytest.raises(sdk.NotYourSeat):
        client.move("g1", "bgbp_key", {"type": "draw"}, 3, seat=0)
    assert client.rotate_key("bgbp_key") == "bgbp_new"
    assert client.delete_player("bgbp_new") == {"id": "p1", "resigned": []}
    assert client.invite("g1", 1, "seat-token", "p2")["id"] == "ch_1"
    assert client.challenges("bgbp_other") == [{"id": "ch_1"}]
    assert client.accept_challenge("bgbp_other", "ch_1")["token"] == "t"
    client.decline_challenge("bgbp_other", "ch_2")
    sent = [(r["method"], r["path"]) for r in script.requests]
    assert sent == [
        ("GET", "/v1/games/g1?seat=1"), ("POST", "/v1/games/g1/moves?seat=1"),
        ("GET", "/v1/games/g1"), ("POST", "/v1/games/g1/moves?seat=0"),
        ("POST", "/v1/players/me/key"), ("DELETE", "/v1/players/me"),
        ("POST", "/v1/games/g1/seats/1/invite"), ("GET", "/v1/players/me/challenges"),
        ("POST", "/v1/players/me/challenges/ch_1/accept"),
        ("POST", "/v1/players/me/challenges/ch_2/decline")]
    assert json.loads(script.requests[6]["body"]) == {"player": "p2"}
    assert script.requests[6]["headers"]["Authorization"] == "Bearer seat-token"


def test_the_lobby_opens_lists_takes_and_closes_seats(server) -> None:
    script, url = server
    script.answers = [
        (201, {"game_id": "g1", "seat": 1}, "application/json"),
        (200, {"seats": [{"game_id": "g1", "seat": 1}]}, "application/json"),
        (200, {"game_id": "g1", "seat": 1, "token": "t"}, "application/json"),
        (204, b"", "application/json"),
    ]
    client = Client(url, retries=0)
    assert client.open_seat("g1", 1, "seat-token")["seat"] == 1
    assert client.open_seats("flotilla") == [{"game_id": "g1", "seat": 1}]
    assert client.take_seat("bgbp_key", "g1", 1)["token"] == "t"
    client.close_seat("g2", 0, "seat-token")
    sent = [(r["method"], r["path"]) for r in script.requests]
    assert sent == [("POST", "/v1/games/g1/seats/1/open"), ("GET", "/v1/open-seats?game=flotilla"),
                    ("POST", "/v1/open-seats/g1/1/take"), ("DELETE", "/v1/games/g2/seats/0/open")]
    assert script.requests[2]["headers"]["Authorization"] == "Bearer bgbp_key"
