"""Darwin's Journey over the API: no body ever reveals what the rules keep hidden.

Plays a solo game (against Alfred, through his derived bot token) and a 2-player game to the
end, and at several points reads every body any caller can get (views, long polls, the move
log, the event stream, error answers, for each seat's token and a spectator). The hidden
values come from the true state: core's `load` of the snapshot stored in Redis. No body may
contain the RNG state (current or any earlier one) or the seed, the order of the objective
piles, of the seal bag or of Alfred's deck, or another seat's draft hand or kept cards.
"""

from __future__ import annotations

import json
import random
from typing import Any

import redis
from flask.testing import FlaskClient

import core
import core.deals
from api import botauth
from tests.api.conftest import snapshot

GAME = "darwins-journey"
SEED = 8675309123457  # long enough that its digits never appear by chance
# A run of this many items of a hidden order, in order, inside any list of a body is a leak.
RUN = 4
SEAL_RUN = 8  # seals have 4 colours: shorter runs of them occur by chance


class Hidden:
    """What the true state hides, gathered from every state the game went through."""

    def __init__(self) -> None:
        self.rng_states: set[int] = set()
        self.state: Any = None

    def update(self, redis_client: redis.Redis, game_id: str) -> None:
        """Read the true state of `game_id` from its stored snapshot."""
        self.state = core.get_game(GAME).load(snapshot(redis_client, game_id))
        self.rng_states.add(self.state.rng)

    def orders(self) -> list[tuple[str, list[Any], int]]:
        """(name, hidden order, run length that betrays it) of the current state."""
        s = self.state
        found: list[tuple[str, list[Any], int]] = []
        for colour, pile in enumerate(s.obj_decks):
            found.append((f"objective pile {colour}", list(pile), RUN))
        found.append(("seal bag", list(s.seal_bag), SEAL_RUN))
        if s.alfred:
            found.append(("Alfred's deck", list(s.alfred["deck"]), RUN))
        return found

    def other_cards(self, seat: int | None) -> list[tuple[str, list[int]]]:
        """Crew cards `seat` (None: a spectator) must not see: others' hands and kept cards."""
        s = self.state
        own_hand = None
        if seat is not None and seat < s.n:
            own_hand = (seat - _draft_round(s)) % s.n
        found = [(f"draft hand {i}", list(hand)) for i, hand in enumerate(s.hands)
                 if i != own_hand]
        found += [(f"kept cards of seat {p}", list(kept)) for p, kept in enumerate(s.kept)
                  if p != seat]
        found.append(("crew cards back in the box", list(s.crew_pool)))
        return found


def _draft_round(state: Any) -> int:
    for frame in reversed(state.stack):
        if frame[0] == "draft":
            return int(frame[2])
    return 0


def _scalar_lists(document: Any) -> list[list[Any]]:
    """Every list of a JSON document whose items include ints or strings (iteratively)."""
    found: list[list[Any]] = []
    pending = [document]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            pending.extend(node.values())
        elif isinstance(node, list):
            if any(isinstance(x, int | str) and not isinstance(x, bool) for x in node):
                found.append(node)
            pending.extend(x for x in node if isinstance(x, dict | list))
    return found


def _crew_card_mentions(document: Any) -> list[int]:
    """Crew card ids named by objects of a document ("card" keys outside Alfred's parts)."""
    found: list[int] = []
    pending = [document]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            kind = node.get("type")
            if "card" in node and not (isinstance(kind, str) and kind.startswith("alfred")):
                found.append(node["card"])
            # Alfred's own cards (his view, his events) share the small ids of crew cards.
            pending.extend(v for k, v in node.items() if k != "alfred")
        elif isinstance(node, list):
            pending.extend(node)
    return found


def _contains_run(haystack: list[Any], order: list[Any], run: int) -> bool:
    if len(order) < run:
        return False
    def key(value: Any) -> Any:  # an id may be a list in some events: compare as JSON
        return json.dumps(value, sort_keys=True) if isinstance(value, list | dict) else value

    order = [key(v) for v in order]
    haystack = [key(v) for v in haystack]
    windows = {tuple(order[i:i + run]) for i in range(len(order) - run + 1)}
    return any(tuple(haystack[i:i + run]) in windows for i in range(len(haystack) - run + 1))


def _views(document: Any) -> list[dict[str, Any]]:
    """Every game view inside a body (a read body, a 409's "current")."""
    found = []
    pending = [document]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if isinstance(node.get("view"), dict) and node["view"].get("game") == GAME:
                found.append(node["view"])
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return found


def assert_hidden(text: str, hidden: Hidden, seat: int | None, where: str) -> None:
    """`text` (one answer's body) reveals nothing hidden from `seat`."""
    for value in hidden.rng_states:
        assert str(value) not in text, f"{where} reveals an RNG state"
    assert str(SEED) not in text, f"{where} reveals the seed"
    try:
        document = json.loads(text)
    except ValueError:
        return  # the event stream: no JSON lists in it, only the numbers checked above
    lists = _scalar_lists(document)
    for name, order, run in hidden.orders():
        for found in lists:
            assert not _contains_run(found, order, run), f"{where} reveals the {name} order"
    mentioned = set(_crew_card_mentions(document))
    for name, cards in hidden.other_cards(seat):
        assert not mentioned & set(cards), f"{where} names a card of the {name}"
        if len(cards) < 2:
            continue  # one card id is just a small int, found everywhere
        for found in lists:
            assert found != cards and found != sorted(cards), f"{where} reveals {name}"
    for view in _views(document):
        assert view["seat"] == seat, where
        for key in ("rng", "hands", "deck"):
            assert key not in view, f"{where}: view has {key!r}"
        assert all(isinstance(n, int) for n in view["obj_decks"]), where
        assert all(isinstance(n, int) for n in view["seal_bag"].values()), where
        assert isinstance(view["crew_pool"], int), where
        alfred = view.get("alfred")
        assert alfred is None or "deck" not in alfred, f"{where}: Alfred's deck in the view"
        if seat is None:
            assert view["hand"] == [] and view["kept"] == [], where
    # Independently of how the view picks the hand: a seat drafting sees the hand it picks from.
    if isinstance(document, dict) and document.get("seat") == seat and seat is not None:
        drafts = [m["card"] for m in document.get("legal_moves") or [] if m["type"] == "draft"]
        if drafts:
            assert sorted(document["view"]["hand"]) == sorted(drafts), where


class Table:
    """One game through the API: the callers, their tokens, and the bodies they can read."""

    def __init__(self, client: FlaskClient, redis_client: redis.Redis,
                 created: dict[str, Any]) -> None:
        self.client = client
        self.redis = redis_client
        self.id = created["id"]
        self.tokens: dict[int, str] = {}
        for seat in created["seats"]:
            self.tokens[seat["seat"]] = (seat["token"] if seat["kind"] == "human" else
                                         botauth.bot_token(redis_client, self.id, seat["seat"]))
        self.hidden = Hidden()
        self.hidden.update(redis_client, self.id)

    def auth(self, seat: int | None) -> dict[str, str]:
        """The Authorization header of `seat` (none for a spectator)."""
        return {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}

    def read(self, seat: int | None = None) -> dict[str, Any]:
        """The game body for `seat`."""
        response = self.client.get(f"/v1/games/{self.id}", headers=self.auth(seat))
        assert response.status_code == 200
        return response.get_json()

    def play(self, rng: random.Random) -> dict[str, Any]:
        """One random legal move by the seat to act (Alfred's only move for him)."""
        game = self.read()
        seat = game["to_act"]
        mine = self.read(seat)
        assert mine["legal_moves"], mine
        move = rng.choice(mine["legal_moves"])
        response = self.client.post(f"/v1/games/{self.id}/moves",
                                    json={"move": move, "version": mine["version"]},
                                    headers=self.auth(seat))
        assert response.status_code == 200, response.get_json()
        self.hidden.update(self.redis, self.id)
        # The answer goes to the mover only.
        assert_hidden(response.text, self.hidden, seat, f"seat {seat}'s move answer")
        return response.get_json()

    def bodies(self, seat: int | None) -> list[tuple[str, str]]:
        """Every answer `seat` can get now, read-only requests and refused moves."""
        gid, headers, who = self.id, self.auth(seat), f"seat {seat}"
        version = self.read()["version"]
        out: list[tuple[str, str]] = []
        for path in (f"/v1/games/{gid}", f"/v1/games/{gid}?wait_version={version - 1}",
                     f"/v1/games/{gid}?wait_version={version}&timeout=0"):
            out.append((f"{who} GET {path}", self.client.get(path, headers=headers).text))
        after = -1
        while after is not None:
            response = self.client.get(f"/v1/games/{gid}/moves?after={after}&limit=50",
                                       headers=headers)
            out.append((f"{who} log after {after}", response.text))
            after = response.get_json()["next"]
        # Resumed a few versions back (version 0: from the start, without Last-Event-ID).
        resume = {"Last-Event-ID": str(max(version - 3, 0))} if version else {}
        stream = self.client.get(f"/v1/games/{gid}/events", buffered=False,
                                 headers={**headers, **resume})
        chunks: list[str] = []
        for chunk in stream.response:
            chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
            if f"id: {version}\n" in chunks[-1] or len(chunks) > 10:
                break
        stream.close()
        out.append((f"{who} events", "".join(chunks)))
        if seat is not None:
            before = snapshot(self.redis, gid)
            url = f"/v1/games/{gid}/moves"
            for payload in ({"move": {"type": "pass"}, "version": version + 3},
                            {"move": {"type": "peek", "pile": 0}, "version": version},
                            {"move": {"type": "pass"}, "version": version, "seat": 0}):
                response = self.client.post(url, json=payload, headers=headers)
                assert 400 <= response.status_code < 500, response.text
                out.append((f"{who} POST {payload}", response.text))
            assert snapshot(self.redis, gid) == before, "a refused move changed the game"
        return out

    def check(self) -> None:
        """Every caller's every body hides what it must."""
        for seat in [None, *self.tokens]:
            for where, text in self.bodies(seat):
                assert_hidden(text, self.hidden, seat, where)


def _play_and_check(client: FlaskClient, redis_client: redis.Redis, body: dict[str, Any],
                    seed: int) -> dict[str, Any]:
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    table = Table(client, redis_client, response.get_json())
    assert_hidden(response.text, table.hidden, None, "creation answer")
    rng = random.Random(seed)
    checkpoints = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144}
    version = 0
    while True:
        if version in checkpoints:
            table.check()
        answer = table.play(rng)
        version = answer["version"]
        if answer["status"] == "finished":
            break
        assert version < 2000, "the game does not end"
    # (No check of the final position: once over, the game reveals its deal and its log.)
    final = table.read()
    assert final["status"] == "finished" and final["result"]
    # Once over, the deal is revealed; these games are unranked (the same deal every run),
    # so it is the client's seed itself. tests/api/test_deals.py covers ranked deals.
    revealed = final["deal"]["revealed"]
    assert revealed["seed"] == body["seed"] and revealed["unranked"] is True
    assert core.deals.check_revealed(final["deal"]["commitment"], revealed) == []
    return final


def test_solo_game_hides_piles_bag_hands_alfreds_deck_and_rng(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    body = {"game": GAME, "options": {"players": 1, "alfred": "green"}, "seed": SEED,
            "unranked": True}
    final = _play_and_check(client, redis_client, body, seed=11)
    assert [s["kind"] for s in final["seats"]] == ["human", "bot"]


def test_two_player_game_hides_piles_bag_hands_and_rng(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    body = {"game": GAME, "options": {"players": 2}, "seed": SEED,
            "unranked": True}
    final = _play_and_check(client, redis_client, body, seed=12)
    assert len(final["result"]["scores"]) == 2
