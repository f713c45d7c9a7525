"""Malformed requests: each a clear 4xx problem+json, the game unchanged, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from tests.api.conftest import create, problem, snapshot

JSON = "application/json"


def _stored_keys(redis_client: redis.Redis) -> list[bytes]:
    """Every key but the rate limiter's counters (a refused request still counts against
    its client's limits: bad input is no way around them)."""
    return [k for k in redis_client.keys("*") if not k.startswith(b"bgb:limits")]


def _post(client: FlaskClient, url: str, data: Any, content_type: str | None = JSON,
          headers: dict[str, str] | None = None) -> Any:
    return client.post(url, data=data, content_type=content_type, headers=headers or {})


CREATE_CASES = [
    ("{not json", JSON, 400, "bad-request"),
    ('{"game": "toy-pontoon"', JSON, 400, "bad-request"),
    (b"\xff\xfe\x00", JSON, 400, "bad-request"),
    ('{"game": "toy-pontoon", "seed": NaN}', JSON, 400, "bad-request"),
    ("[" * 30000 + "]" * 30000, JSON, 400, "bad-request"),
    ('{"game": "toy-pontoon"}', "text/plain", 415, "unsupported-media-type"),
    ("game=toy-pontoon", "application/x-www-form-urlencoded", 415, "unsupported-media-type"),
    ("[1, 2]", JSON, 422, "validation-error"),
    ('"toy-pontoon"', JSON, 422, "validation-error"),
    ("null", JSON, 422, "validation-error"),
    ("{}", JSON, 422, "validation-error"),
    ('{"game": 5}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "options": []}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": "12"}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": 1.5}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": true}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": -1}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seed": 1e300}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "unknown": 1}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seats": {"kind": "human"}}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "seats": [{"kind": "human", "x": 1}, {"kind": "human"}]}', JSON,
     422, "validation-error"),
    ('{"game": "toy-pontoon", "options": {"players": "2"}}', JSON, 422, "validation-error"),
    ('{"game": "toy-pontoon", "options": {"players": true}}', JSON, 422, "validation-error"),
    ('{"game": "no-such-game"}', JSON, 422, "validation-error"),
]


@pytest.mark.parametrize(("data", "content_type", "status", "slug"), CREATE_CASES)
def test_bad_game_creation(client: FlaskClient, redis_client: redis.Redis, data: Any,
                           content_type: str, status: int, slug: str) -> None:
    problem(_post(client, "/v1/games", data, content_type), status, slug)
    assert _stored_keys(redis_client) == []


def test_huge_bodies_are_413(client: FlaskClient, redis_client: redis.Redis) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    huge = '{"game": "toy-pontoon", "options": {"pad": "' + "x" * 70_000 + '"}}'
    problem(_post(client, "/v1/games", huge), 413, "payload-too-large")
    huge_move = '{"version": 0, "move": {"type": "draw", "pad": "' + "x" * 70_000 + '"}}'
    problem(_post(client, f"/v1/games/{created.id}/moves", huge_move,
                  headers=created.auth(0)), 413, "payload-too-large")
    assert snapshot(redis_client, created.id) == before


def test_huge_chunked_bodies_are_413(client: FlaskClient, redis_client: redis.Redis) -> None:
    # Without Content-Length werkzeug cuts the body at the limit silently: it was a 400.
    # (gunicorn marks a chunked body wsgi.input_terminated; the test client must be told.)
    import io

    chunked = {"wsgi.input_terminated": True}

    huge = b'{"game": "toy-pontoon", "options": {"pad": "' + b"x" * 70_000 + b'"}}'
    response = client.post("/v1/games", input_stream=io.BytesIO(huge), environ_overrides=chunked,
                           headers={"Content-Type": JSON, "Transfer-Encoding": "chunked"})
    problem(response, 413, "payload-too-large")
    assert _stored_keys(redis_client) == []
    small = b'{"game": "toy-pontoon", "options": {"players": 2}}'
    response = client.post("/v1/games", input_stream=io.BytesIO(small),
                           environ_overrides=chunked,
                           headers={"Content-Type": JSON, "Transfer-Encoding": "chunked"})
    assert response.status_code == 201, response.text


MOVE_CASES = [
    ("{oops", JSON, 400, "bad-request"),
    ('{"move": {"type": "draw"}, "version": 0}', "text/plain", 415, "unsupported-media-type"),
    ('{"move": "draw", "version": 0}', JSON, 422, "validation-error"),
    ('{"move": ["draw"], "version": 0}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": "0"}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": 0.5}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": -1}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": null}', JSON, 422, "validation-error"),
    ('{"move": {"type": "draw"}, "version": 0, "seat": 1}', JSON, 422, "validation-error"),
    ('{"version": 0}', JSON, 422, "validation-error"),
    ("[]", JSON, 422, "validation-error"),
    ('{"move": {"type": "teleport"}, "version": 0}', JSON, 422, "illegal-move"),
    ('{"move": {"type": "draw", "n": 2}, "version": 0}', JSON, 422, "illegal-move"),
    ('{"move": {"type": {"nested": [1, {"deep": null}]}}, "version": 0}', JSON, 422,
     "illegal-move"),
    ('{"move": {"type": "draw"}, "version": 99999999999999999999999}', JSON, 409,
     "stale-version"),
]


@pytest.mark.parametrize(("data", "content_type", "status", "slug"), MOVE_CASES)
def test_bad_moves(client: FlaskClient, redis_client: redis.Redis, data: Any, content_type: str,
                   status: int, slug: str) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    problem(_post(client, f"/v1/games/{created.id}/moves", data, content_type,
                  headers=created.auth(0)), status, slug)
    assert snapshot(redis_client, created.id) == before
    assert client.get(f"/v1/games/{created.id}/moves").get_json()["moves"] == []


def test_empty_move_body_is_a_validation_error(client: FlaskClient) -> None:
    created = create(client)
    response = client.post(f"/v1/games/{created.id}/moves", headers=created.auth(0))
    problem(response, 422, "validation-error")


@pytest.mark.parametrize("path", [
    "/nope", "/v1", "/v1/games/abc/nope", "/v1/games/" + "x" * 500,
    "/v1/games/bad%20id", "/v1/games/..%2F..", "/v1/games/nosuchgame",
    "/v1/games/nosuchgame/moves", "/v1/games/nosuchgame/events",
])
def test_unknown_routes_and_games_are_404(client: FlaskClient, path: str) -> None:
    problem(client.get(path), 404, "not-found")


@pytest.mark.parametrize(("method", "path"), [
    ("delete", "/v1/games"), ("put", "/v1/games-catalog"), ("patch", "/healthz"),
    ("get", "/v1/games"), ("delete", "/v1/games/abc/moves"), ("post", "/v1/bots"),
])
def test_wrong_methods_are_405(client: FlaskClient, method: str, path: str) -> None:
    response = getattr(client, method)(path)
    problem(response, 405, "method-not-allowed")
    assert "Allow" in response.headers


def test_bad_query_parameters(client: FlaskClient) -> None:
    created = create(client)
    for query in ("wait_version=abc", "wait_version=0&timeout=31", "timeout=-1",
                  "wait_version=-5", "wait_version=99999999999999999999999", "timeout=nan"):
        problem(client.get(f"/v1/games/{created.id}?{query}"), 422, "validation-error")


def test_odd_header_characters_are_4xx(client: FlaskClient, redis_client: redis.Redis) -> None:
    # Found by fuzzing: each of these was a 500 (hmac.compare_digest refuses non-ASCII str;
    # str.isdigit accepts "²", which int() refuses).
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    before = snapshot(redis_client, created.id)
    url = f"/v1/games/{created.id}"
    for token in ("caf\u00e9", "a\u00b2", "tok en", "x" * 300, "abc=def"):
        headers = {"Authorization": f"Bearer {token}"}
        problem(client.get(url, headers=headers), 401, "unauthorized")
        problem(client.post(f"{url}/moves", json={"move": {"type": "draw"}, "version": 0},
                            headers=headers), 401, "unauthorized")
    for if_match in ('"\u00b2"', "\u00b9", '"1\u00b3"'):
        problem(client.post(f"{url}/moves", json={"move": {"type": "draw"}},
                            headers={**created.auth(0), "If-Match": if_match}),
                422, "validation-error")
    problem(client.get(f"{url}/events", headers={"Last-Event-ID": "\u00b2"}), 400,
            "bad-request")
    assert snapshot(redis_client, created.id) == before


@pytest.mark.parametrize("depth", [33, 200, 900])
def test_deeply_nested_bodies_are_400(client: FlaskClient, redis_client: redis.Redis,
                                      depth: int) -> None:
    nested = "[" * depth + "]" * depth
    problem(_post(client, "/v1/games",
                  '{"game": "toy-pontoon", "options": {"players": 2, "x": ' + nested + "}}"),
            400, "bad-request")
    assert _stored_keys(redis_client) == []
    created = create(client)
    before = snapshot(redis_client, created.id)
    problem(_post(client, f"/v1/games/{created.id}/moves",
                  '{"version": 0, "move": {"type": ' + nested + "}}", headers=created.auth(0)),
            400, "bad-request")
    assert snapshot(redis_client, created.id) == before


class _InvalidChunkSize(Exception):
    """What gunicorn raises from a body's read on a chunk size that is not hex: its own
    exception type, neither an OSError nor a ValueError (werkzeug turns those into a 400
    ClientDisconnected by itself)."""


class _BadChunks:
    """A WSGI body stream that fails as gunicorn's does on a malformed chunked body (a
    chunk size that is not hex: `ZZ`)."""

    def read(self, size: int = -1) -> bytes:
        raise _InvalidChunkSize("ZZ")

    def readline(self, size: int = -1) -> bytes:
        return self.read(size)


CHUNKED = {"Content-Type": JSON, "Transfer-Encoding": "chunked"}


def _bad_chunked(client: FlaskClient, url: str, headers: dict[str, str] | None = None) -> Any:
    return client.post(url, environ_overrides={"wsgi.input": _BadChunks(),
                                               "wsgi.input_terminated": True},
                       headers={**CHUNKED, **(headers or {})})


def test_malformed_chunked_bodies_are_400_without_a_traceback(
        client: FlaskClient, redis_client: redis.Redis, caplog: pytest.LogCaptureFixture,
) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    keys_before = _stored_keys(redis_client)
    caplog.clear()
    for url, headers in (("/v1/games", {}), ("/v1/players", {}),
                         (f"/v1/games/{created.id}/moves", created.auth(0))):
        body = problem(_bad_chunked(client, url, headers), 400, "bad-request")
        assert "framing" in body["detail"]
    assert _stored_keys(redis_client) == keys_before
    assert snapshot(redis_client, created.id) == before
    assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br", "x-unknown", "gzip, identity"])
def test_a_content_encoding_is_refused(client: FlaskClient, redis_client: redis.Redis,
                                       encoding: str) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    keys_before = _stored_keys(redis_client)
    coded = {"Content-Encoding": encoding}
    for url, data, headers in (
            ("/v1/games", '{"game": "toy-pontoon"}', coded),
            ("/v1/players", '{"name": "Ada"}', coded),
            (f"/v1/games/{created.id}/moves", '{"move": {"type": "draw"}, "version": 0}',
             {**coded, **created.auth(0)})):
        response = _post(client, url, data, headers=headers)
        problem(response, 415, "unsupported-media-type")
        assert response.headers["Accept-Encoding"] == "identity"
    assert _stored_keys(redis_client) == keys_before
    assert snapshot(redis_client, created.id) == before
    # identity is no coding at all
    response = _post(client, f"/v1/games/{created.id}/moves",
                     '{"move": {"type": "draw"}, "version": 0}',
                     headers={"Content-Encoding": "identity", **created.auth(0)})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("data", [
    '{"game": "toy-pontoon", "game": "toy-pontoon"}',
    '{"game": "toy-pontoon", "options": {"players": 2, "players": 3}}',
    '{"game": "toy-pontoon", "unranked": false, "unranked": true, "seed": 3}',
    '{"game": "toy-pontoon", "options": {"a:b": 1, "a:b": 2}}',
    '{"game": "toy-pontoon", "options": {"x": 1.5, "x": 2.5}}',
])
def test_duplicate_member_names_are_400(client: FlaskClient, redis_client: redis.Redis,
                                        data: str) -> None:
    body = problem(_post(client, "/v1/games", data), 400, "bad-request")
    assert "given twice" in body["detail"]
    assert _stored_keys(redis_client) == []


def test_duplicate_member_names_in_a_move_are_400(client: FlaskClient,
                                                  redis_client: redis.Redis) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    for data in ('{"move": {"type": "draw"}, "version": 0, "version": 0}',
                 '{"move": {"type": "stop", "type": "draw"}, "version": 0}',
                 '{"move": {"type": "draw", "label": "a: b", "label": "c"}, "version": 0}'):
        problem(_post(client, f"/v1/games/{created.id}/moves", data, headers=created.auth(0)),
                400, "bad-request")
    assert snapshot(redis_client, created.id) == before
    # colons inside strings are no duplicate
    response = _post(client, f"/v1/games/{created.id}/moves",
                     '{"move": {"type": "draw", "label": "x: y: z"}, "version": 0}',
                     headers=created.auth(0))
    assert response.status_code in (200, 422), response.text
    assert "given twice" not in response.text


@pytest.mark.parametrize("value", ['"yes"', '"true"', "1", "0", '"no"', "null", '"on"'])
def test_booleans_are_json_booleans(client: FlaskClient, redis_client: redis.Redis,
                                    value: str) -> None:
    body = problem(_post(client, "/v1/games",
                         '{"game": "toy-pontoon", "seed": 1, "unranked": ' + value + "}"),
                   422, "validation-error")
    assert "unranked" in body["errors"]["json"]
    body = problem(_post(client, "/v1/games",
                         '{"game": "toy-pontoon", "seats": [{"kind": "human", "claim": '
                         + value + '}, {"kind": "human"}]}'), 422, "validation-error")
    assert "seats" in body["errors"]["json"]
    assert _stored_keys(redis_client) == []


@pytest.mark.parametrize("if_match", ['"00"', "0", '"+0"', '" 0"', '"0 "', "W/\"0\"", '""',
                                      '"0', "'0'", '"-0"', '"0x0"'])
def test_if_match_is_an_exact_quoted_version(client: FlaskClient, redis_client: redis.Redis,
                                             if_match: str) -> None:
    created = create(client)
    before = snapshot(redis_client, created.id)
    body = problem(client.post(f"/v1/games/{created.id}/moves", json={"move": {"type": "draw"}},
                               headers={**created.auth(0), "If-Match": if_match}),
                   422, "validation-error")
    assert "If-Match" in body["errors"]["headers"]
    assert snapshot(redis_client, created.id) == before
    response = client.post(f"/v1/games/{created.id}/moves", json={"move": {"type": "draw"}},
                           headers={**created.auth(0), "If-Match": '"0"'})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("last_id", ["abc", "-5", "+1", "01", "1.0", "0x1", "1 2", "",
                                     "99999999999999999999999"])
def test_a_bad_last_event_id_is_400(client: FlaskClient, last_id: str) -> None:
    created = create(client)
    body = problem(client.get(f"/v1/games/{created.id}/events",
                              headers={"Last-Event-ID": last_id}), 400, "bad-request")
    assert "Last-Event-ID" in body["detail"]


@pytest.mark.parametrize("last_id", ["0", "1", "17"])
def test_a_good_last_event_id_opens_the_stream(client: FlaskClient, last_id: str) -> None:
    created = create(client)
    stream = client.get(f"/v1/games/{created.id}/events", headers={"Last-Event-ID": last_id},
                        buffered=False)
    assert stream.status_code == 200
    stream.close()


@pytest.mark.parametrize("url", ["/v1/games", "/v1/players"])
def test_an_empty_body_is_refused_where_one_is_required(client: FlaskClient,
                                                        redis_client: redis.Redis,
                                                        url: str) -> None:
    for content_type in (JSON, None):
        problem(_post(client, url, b"", content_type), 422, "validation-error")
    assert _stored_keys(redis_client) == []
    assert client.post("/v1/players", json={}).status_code == 201


@pytest.mark.parametrize("name", ["Ada\u0000", "\u001b[31mred\u001b[0m", "a\u202eb",
                                  "a\u2066b\u2069", "abc\n", "tab\there", "zero\u200bwidth",
                                  "\ufeffbom", "\u0085", "", "x" * 65])
def test_player_names_are_printable_text_of_bounded_length(client: FlaskClient,
                                                            redis_client: redis.Redis,
                                                            name: str) -> None:
    body = problem(client.post("/v1/players", json={"name": name}), 422, "validation-error")
    assert "name" in body["errors"]["json"]
    assert _stored_keys(redis_client) == []


@pytest.mark.parametrize(("raw", "status"), [(b'{"name": "a\\ud800b"}', 422),
                                             (b'{"name": "\\udfff"}', 422),
                                             (b'{"name": "\\ud83d\\ude00"}', 201)])
def test_a_lone_surrogate_is_no_name(client: FlaskClient, raw: bytes, status: int) -> None:
    """A JSON escape may spell half of a surrogate pair: not a character, refused (the
    documented pattern leaves them out, the validator does not); a whole pair is one."""
    response = client.post("/v1/players", data=raw, content_type="application/json")
    assert response.status_code == status, response.text


@pytest.mark.parametrize("name", ["Ada", "Zoë Lovelace", "李小龙", "عائشة", "x" * 64,
                                  "a-b_c.d (e)"])
def test_printable_player_names_are_kept(client: FlaskClient, name: str) -> None:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.text
    key = response.get_json()["key"]
    me = client.get("/v1/players/me", headers={"Authorization": f"Bearer {key}"}).get_json()
    assert me["name"] == name


@pytest.mark.parametrize("value", ["1", "0", "yes", "on", "True", "t", ""])
def test_a_query_boolean_is_true_or_false(client: FlaskClient, value: str) -> None:
    key = client.post("/v1/players", json={}).get_json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    problem(client.get("/v1/players/me/games", headers=auth, query_string={"my_turn": value}),
            422, "validation-error")
    for good in ("true", "false"):
        answer = client.get("/v1/players/me/games", headers=auth, query_string={"my_turn": good})
        assert answer.status_code == 200, answer.text
