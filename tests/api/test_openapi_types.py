"""Issue 19: each game's JSON Schemas (`json_schemas()`) against what its engine produces.

Seeded random games of every registered game: every legal move, every event, views of the
seat to act and of a spectator along the way, and the final result validate against the
game's schemas (jsonschema, draft 2020-12). This test is the judge of `core/*/schemas.py`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import core
from api import botauth
from api.openapi import pascal
from core.contract import has_json_schemas

jsonschema = pytest.importorskip("jsonschema")

# Options each game is played with (the default for a game not listed).
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "darwins-journey": [{"players": 2}, {"players": 1}, {"players": 3, "first_game": True},
                        {"players": 4}, {"players": 1, "alfred": "green"}],
    "flotilla": [{"players": 3}, {"players": 4, "open_hands": True},
                 {"players": 5, "captain_returns": False}],
    "encyclopedia": [{"players": 1}, {"players": 2}, {"players": 3},
                     {"players": 1, "behaviour": 2, "scoring": 3}, {"players": 4}],
}
MAX_STEPS = 2500
VIEW_EVERY = 25  # views are large: validate one decision in VIEW_EVERY (and the last ones)
PER_TYPE = 150  # moves and events validated per type and game (the rest only need a schema)


class Checker:
    """Validators of one game's schemas, and the errors found."""

    def __init__(self, schemas: dict[str, Any]) -> None:
        make = jsonschema.Draft202012Validator
        self.moves = {t: make(s) for t, s in schemas["moves"].items()}
        self.events = {t: make(s) for t, s in schemas["events"].items()}
        self.view = make(schemas["view"])
        self.result = make(schemas["result"])
        self.options = make(schemas["options"])
        self.errors: list[str] = []
        self.counts: dict[str, int] = {}

    def check(self, what: str, validator: Any, value: Any) -> None:
        for error in validator.iter_errors(value):
            if len(self.errors) < 20:
                self.errors.append(f"{what}: {error.message} at {list(error.absolute_path)}")

    def typed(self, what: str, table: dict[str, Any], value: dict[str, Any]) -> None:
        validator = table.get(value.get("type"))
        if validator is None:
            self.errors.append(f"{what}: no schema for type {value.get('type')!r}: {value}")
            return
        key = f"{what} {value['type']}"
        self.counts[key] = self.counts.get(key, 0) + 1
        if self.counts[key] <= PER_TYPE:
            self.check(key, validator, value)


def _steered(legal: list[dict[str, Any]], chosen: dict[str, int],
             rng: random.Random) -> dict[str, Any]:
    """A random legal move, or (one time in three) one of the type played least so far: rare
    moves (a crew card's copy, a knowledge conversion) lead to rare events and views, which
    uniformly random play reaches only on some deals."""
    move = rng.choice(legal)
    if rng.random() < 1 / 3:
        move = min(legal, key=lambda m: chosen.get(m["type"], 0))
    chosen[move["type"]] = chosen.get(move["type"], 0) + 1
    return move


@pytest.mark.parametrize("name", core.game_names())
def test_every_game_describes_its_json(name: str) -> None:
    game = core.get_game(name)
    assert has_json_schemas(game), f"{name} has no json_schemas()"
    schemas = game.json_schemas()
    assert set(schemas) == {"moves", "events", "view", "result", "options"}
    for part in ("view", "result", "options"):
        jsonschema.Draft202012Validator.check_schema(schemas[part])
    for kind in ("moves", "events"):
        for type_, schema in schemas[kind].items():
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["properties"]["type"]["const"] == type_
            assert "$ref" not in repr(schema)
            for example in schema.get("examples", []):
                assert not list(jsonschema.Draft202012Validator(schema).iter_errors(example))
    checker = Checker(schemas)
    for options in OPTIONS.get(name, [{}]):
        checker.check("options", checker.options, options)
    seen_moves: set[str] = set()
    chosen: dict[str, int] = {}
    for number, options in enumerate(OPTIONS.get(name, [{}]) * 2):
        state = game.new_game(options, 1000 + number)
        rng = random.Random(number)
        for step in range(MAX_STEPS):
            seat = game.to_act(state)
            if seat is None:
                break
            if step % VIEW_EVERY == 0:
                checker.check(f"view of seat {seat}", checker.view, game.view(state, seat))
                checker.check("spectator view", checker.view, game.view(state, None))
            legal = game.legal_moves(state)
            for move in legal:
                checker.typed("move", checker.moves, move)
                seen_moves.add(move["type"])
            for event in game.apply(state, _steered(legal, chosen, rng)):
                checker.typed("event", checker.events, event)
            assert not checker.errors, checker.errors
        for seat in [None, *range(game.seat_count(options))]:
            checker.check(f"final view of {seat}", checker.view, game.view(state, seat))
        if game.to_act(state) is None:
            checker.check("result", checker.result, game.result(state))
        assert not checker.errors, checker.errors
    assert seen_moves, name


class Document:
    """The live OpenAPI document, checking answers against the schema of their operation."""

    def __init__(self, spec: dict[str, Any]) -> None:
        from openapi_schema_validator import OAS30Validator

        self.spec = spec
        self.validator = OAS30Validator
        self.checked = 0
        self.statuses: set[int] = set()
        self.errors: list[str] = []

    def check(self, response: Any, method: str, path: str) -> Any:
        """Validate `response` against the document; its JSON body."""
        operation = self.spec["paths"][path][method]
        status = str(response.status_code)
        assert status in operation["responses"], (method, path, status, response.data[:300])
        self.statuses.add(response.status_code)
        documented = operation["responses"][status]
        if "content" not in documented:
            return None
        content_type = response.mimetype
        assert content_type in documented["content"], (method, path, status, content_type)
        body = response.get_json(force=True)
        schema = {**documented["content"][content_type]["schema"],
                  "components": self.spec["components"]}
        for error in self.validator(schema).iter_errors(body):
            self.errors.append(f"{method} {path} {status}: {error.message[:300]} at "
                               f"{list(error.absolute_path)}")
        self.checked += 1
        return body


def _play(doc: Document, client: Any, name: str, players: int, moves: int,
          rng: random.Random) -> None:
    """Create a game, read and move through the document's eyes, provoke its errors."""
    created = doc.check(client.post("/v1/games", json={"game": name, "seed": 7,
                                                       "options": {"players": players}}),
                        "post", "/v1/games")
    url, game_path = f"/v1/games/{created['id']}", "/v1/games/{game_id}"
    tokens = {s["seat"]: {"Authorization": f"Bearer {s['token']}"}
              for s in created["seats"] if "token" in s}
    doc.check(client.get(url), "get", game_path)
    for _ in range(moves):
        seen = doc.check(client.get(url, headers=tokens.get(created["to_act"], {})), "get",
                         game_path)
        if seen["to_act"] is None or seen["to_act"] not in tokens:
            break
        auth = tokens[seen["to_act"]]
        other = next((t for s, t in tokens.items() if s != seen["to_act"]), None)
        if other is not None and rng.random() < 0.2:
            doc.check(client.post(f"{url}/moves", json={"move": seen["legal_moves"][0],
                                                        "version": seen["version"]},
                                  headers=other), "post", game_path + "/moves")
        if rng.random() < 0.2:
            for body in ({"move": {"type": "nope"}, "version": seen["version"]},
                         {"move": seen["legal_moves"][0], "version": seen["version"] + 5},
                         {"move": seen["legal_moves"][0]}):
                doc.check(client.post(f"{url}/moves", json=body, headers=auth), "post",
                          game_path + "/moves")
        answer = doc.check(client.post(f"{url}/moves", json={
            "move": rng.choice(seen["legal_moves"]), "version": seen["version"]},
            headers=auth), "post", game_path + "/moves")
        created["to_act"] = answer["to_act"]
    if created["to_act"] is None:  # over: a move now is a game-over problem
        doc.check(client.post(f"{url}/moves", json={"move": {"type": "draw"}, "version": 0},
                              headers=next(iter(tokens.values()))), "post", game_path + "/moves")
    doc.check(client.get(f"{url}/moves?limit=200", headers=next(iter(tokens.values()))),
              "get", game_path + "/moves")
    doc.check(client.get(f"{url}/moves?limit=200"), "get", game_path + "/moves")


def test_live_answers_match_the_document(client: Any) -> None:
    """Every answer of games played over HTTP (reads, moves, the log, refusals) validates
    against the schema the document gives its operation and status."""
    pytest.importorskip("openapi_schema_validator")
    doc = Document(client.get("/v1/openapi.json").get_json())
    rng = random.Random(3)
    _play(doc, client, "toy-secret", 2, 60, rng)
    _play(doc, client, "toy-pontoon", 3, 60, rng)
    for name, players in (("darwins-journey", 2), ("flotilla", 3), ("encyclopedia", 2)):
        if name in core.game_names():
            _play(doc, client, name, players, 25, rng)
    assert not doc.errors, doc.errors[:10]
    assert doc.checked > 100, doc.checked
    assert {200, 201, 403, 409, 422} <= doc.statuses, doc.statuses


GENERATOR_CONFIG = "post_hooks: []\npackage_name_override: generated_bgb_client\n"
DJ_DEALS = 3  # ranked Darwin's Journey solo games the generated client plays to the end
# Whole games the generated client plays: (game, players). Every move and event it parses
# must land in that game's classes (issue 28: the games share `done`, `skip`, `game_over`).
TYPED_GAMES = [("darwins-journey", 2), ("flotilla", 3), ("encyclopedia", 1),
               ("encyclopedia", 2)]
MAX_TURNS = 3000  # more than any random game of these takes (Flotilla: about 550)
READ_ALL_EVERY = 25  # a read as every seat and a spectator, one turn in READ_ALL_EVERY
# The server's own log entries and events (abort, resign, abandon): in every game's log.
NEUTRAL = {"SystemEvent", "SystemMove"}
PROGRAM = Path(__file__).with_name("typed_client_program.py")


class Typing:
    """The classes a generated client parsed one game's moves and events into."""

    def __init__(self, name: str) -> None:
        self.prefix = pascal(name)
        self.checked = 0
        self.foreign: list[str] = []

    def check(self, where: str, objects: list[Any]) -> None:
        """Each of `objects` must be of a class of this game (or the server's own)."""
        for item in objects:
            self.checked += 1
            kind = type(item).__name__
            if not kind.startswith(self.prefix) and kind not in NEUTRAL:
                self.foreign.append(f"{where}: {kind} {item!r}"[:200])


# A move of another game than the key, never legal in it.
FOREIGN_MOVES = {"darwins-journey": ("FlotillaMoveRegroup", "regroup"),
                 "flotilla": ("EncyclopediaMoveStop", "stop"),
                 "encyclopedia": ("FlotillaMoveRegroup", "regroup")}


def _foreign_move(models: Any, name: str) -> Any:
    kind, type_ = FOREIGN_MOVES[name]
    return getattr(models, kind).from_dict({"type": type_, "label": "another game's move"})


def _play_generated(module: Any, models: Any, create: Any, spectator: Any, name: str,
                    players: int, rng: random.Random, turns: int) -> tuple[Any, Typing]:
    """Play `name` with the generated client alone, random legal moves (bots' turns with
    their seats' tokens), each posted as the typed object the read gave (no conversion),
    to the end or `turns` moves; every read typed as the game's variant by each seat and a
    spectator, every answer the game's MoveResult, then the whole move log as each seat,
    its entries the game's. The last answer and the classes met."""
    get_game, post_move = module("api.games.get_game"), module("api.games.post_move")
    get_log = module("api.games.get_move_log")
    created, seats = create(name, players, rng.randrange(2**31))
    prefix, typing = pascal(name), Typing(name)
    variant = getattr(models, f"{prefix}Game")
    answer, to_act = None, created.to_act
    for turn in range(turns):
        if to_act is None:
            break
        for who in ([] if turn % READ_ALL_EVERY else [*seats, None]):
            read = get_game.sync(created.id, client=spectator if who is None else seats[who])
            assert isinstance(read, variant), (name, who, read)
        game = get_game.sync(created.id, client=seats[to_act])
        assert isinstance(game, variant), game
        assert isinstance(game.view, getattr(models, f"{prefix}View"))
        typing.check("legal move", game.legal_moves)
        if turn == 2:  # another game's move: an illegal-move problem of this game's moves
            illegal = post_move.sync(created.id, client=seats[to_act], body=models.MoveRequest(
                move=_foreign_move(models, name), version=game.version))
            assert isinstance(illegal, getattr(models, f"{prefix}IllegalMoveProblem")), illegal
            typing.check("legal move of an illegal-move problem", illegal.legal_moves)
        move = rng.choice(game.legal_moves)
        answer = post_move.sync(created.id, client=seats[to_act],
                                body=models.MoveRequest(move=move, version=game.version))
        assert isinstance(answer, getattr(models, f"{prefix}MoveResult")), answer
        typing.check("event of a move's answer", answer.events)
        if isinstance(answer.legal_moves, list):
            typing.check("legal move of a move's answer", answer.legal_moves)
        to_act = answer.to_act
    if to_act is None:
        final = get_game.sync(created.id, client=seats[0])
        assert isinstance(final.result, getattr(models, f"{prefix}Result"))
    for who in seats:
        after: int | None = -1
        while after is not None:
            log = get_log.sync(created.id, client=seats[who], after=after, limit=200)
            assert isinstance(log, getattr(models, f"{prefix}MoveLog")), (name, who, log)
            typing.check("log entry", log.moves)
            for entry in log.moves:
                typing.check("logged move", [entry.move])
                typing.check("logged event", entry.events)
            after = log.next_ if isinstance(log.next_, int) else None
    return answer, typing


def _mypy_strict(where: Path) -> None:
    """`mypy --strict` on PROGRAM, with the generated client beside it in `where`."""
    import shutil
    import subprocess
    import sys

    pytest.importorskip("mypy")
    shutil.copy(PROGRAM, where / PROGRAM.name)
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-color-output",
                           "--cache-dir", str(where / ".mypy_cache"), PROGRAM.name],
                          cwd=where, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def _generated_client(spec: dict[str, Any], where: Any) -> Any:
    """The Python client openapi-python-client generates from `spec`, imported."""
    import importlib
    import json
    import shutil
    import subprocess
    import sys

    generator = shutil.which("openapi-python-client")
    if generator is None:
        pytest.skip("openapi-python-client is not installed (pip install openapi-python-client)")
    (where / "spec.json").write_text(json.dumps(spec))
    (where / "config.yaml").write_text(GENERATOR_CONFIG)
    done = subprocess.run([generator, "generate", "--path", str(where / "spec.json"),
                           "--meta", "none", "--config", str(where / "config.yaml"),
                           "--output-path", str(where / "generated_bgb_client")],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    # A schema the generator cannot turn into a model is dropped with only a warning.
    assert "Unable to process schema" not in done.stdout, done.stdout[-4000:]
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module("generated_bgb_client")
    finally:
        sys.path.remove(str(where))


def _program() -> Any:
    """PROGRAM, imported (the generated client is imported already)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("typed_client_program", PROGRAM)
    assert spec is not None and spec.loader is not None
    program = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(program)
    return program


@pytest.mark.slow
def test_a_generated_python_client_plays_games(app: Any, client: Any, tmp_path: Any,
                                               redis_client: Any) -> None:
    """Issue 19: a client generated from the live document alone plays games to their end
    (toy-pontoon; Darwin's Journey solo against Alfred), reads typed games (a union by `game`,
    typed views, legal moves and results) and handles 409 and 422 as typed problems."""
    httpx = pytest.importorskip("httpx")
    generated = _generated_client(client.get("/v1/openapi.json").get_json(), tmp_path)
    import importlib
    import sys

    def module(name: str) -> Any:
        return importlib.import_module(f"generated_bgb_client.{name}")

    try:
        models = module("models")
        transport = httpx.WSGITransport(app=app)
        anonymous = generated.Client(base_url="http://bgb.test",
                                     httpx_args={"transport": transport})

        def seat(token: str) -> Any:
            return generated.AuthenticatedClient(base_url="http://bgb.test", token=token,
                                                 httpx_args={"transport": transport})

        def create(name: str, players: int, seed: int = 11) -> tuple[Any, dict[int, Any]]:
            options = models.CreateGameOptions.from_dict({"players": players})
            # Ranked: the seed is mixed with the server's nonce, a new deal each run.
            created = module("api.games.create_game").sync(
                client=anonymous, body=models.CreateGame(game=models.CreateGameGame(name),
                                                         seed=seed,
                                                         options=options))
            assert isinstance(created, models.CreatedGame), created
            tokens = {s.seat: seat(s.token) for s in created.seats
                      if isinstance(s, models.HumanCreatedSeat)}
            for bot_seat in created.seats:
                if not isinstance(bot_seat, models.HumanCreatedSeat):
                    # A bot's turns are posted as the worker would, with its derived token.
                    tokens[bot_seat.seat] = seat(botauth.bot_token(redis_client, created.id,
                                                                   bot_seat.seat))
            return created, tokens

        # toy-pontoon, solo, to the end; one stale version and one illegal move on the way.
        created, seats = create("toy-pontoon", 1)
        get_game, post_move = module("api.games.get_game"), module("api.games.post_move")
        for turn in range(40):
            game = get_game.sync(created.id, client=seats[0])
            assert isinstance(game, models.ToyPontoonGame), game
            if game.to_act is None:
                break
            assert isinstance(game.view, models.ToyPontoonView) and game.legal_moves
            chosen = game.legal_moves[turn % len(game.legal_moves)] if turn else \
                next(m for m in game.legal_moves if m.type_ == "draw")
            body = models.MoveRequest(move=chosen, version=game.version)
            if turn == 1:
                stale = post_move.sync(created.id, client=seats[0], body=models.MoveRequest(
                    move=body.move, version=game.version - 1))
                assert isinstance(stale, models.StaleVersionProblem), stale
                assert isinstance(stale.current, models.ToyPontoonGame)
                foreign = models.DarwinsJourneyMoveEndTurn.from_dict({
                    "type": "end_turn", "label": "End the turn"})
                illegal = post_move.sync(created.id, client=seats[0], body=models.MoveRequest(
                    move=foreign, version=game.version))
                assert isinstance(illegal, models.ToyPontoonIllegalMoveProblem), illegal
                assert illegal.legal_moves
            answer = post_move.sync(created.id, client=seats[0], body=body)
            assert isinstance(answer, models.ToyPontoonMoveResult), answer
        assert game.to_act is None and game.status == models.ToyPontoonGameStatus.FINISHED
        assert game.result is not None and game.result.scores
        over = post_move.sync(created.id, client=seats[0], body=body)
        assert isinstance(over, models.GameOverProblem), over

        # Darwin's Journey solo against Alfred to the end, on several random deals (a rare
        # move or event of one deal once made the generated client fail); then a whole game
        # of every typed game, read as each seat and a spectator, and its move log: every
        # move and event in that game's classes (issue 28: 0 mis-typed).
        if "darwins-journey" in core.game_names():
            for deal in range(DJ_DEALS):
                answer, typing = _play_generated(module, models, create, anonymous,
                                                 "darwins-journey", 1, random.Random(deal),
                                                 MAX_TURNS)
                assert answer.status == models.DarwinsJourneyMoveResultStatus.FINISHED
                assert not typing.foreign, typing.foreign[:10]
        for name, players in TYPED_GAMES:
            if name in core.game_names():
                answer, typing = _play_generated(module, models, create, anonymous, name,
                                                 players, random.Random(players), MAX_TURNS)
                assert answer.status.value == "finished", (name, answer.status)
                assert typing.checked > 500, (name, typing.checked)
                assert not typing.foreign, (name, len(typing.foreign), typing.foreign[:10])
        # A typed program against the client: mypy --strict, then run (a legal move
        # narrowed by class, posted as it is).
        if "darwins-journey" in core.game_names():
            _mypy_strict(tmp_path)
            program = _program()
            location, placed = program.place_a_worker(anonymous, seat)
            assert placed == [location], (location, placed)
        stream = module("api.games.stream_game_events")
        assert "str" in repr(stream.sync.__annotations__.get("return"))
    finally:
        for name in [n for n in sys.modules if n.startswith("generated_bgb_client")]:
            del sys.modules[name]


TS_PROGRAM = Path(__file__).with_name("typed_client_program.ts")
TS_TOOLS = {"openapi-typescript": "openapi-typescript@7", "tsc": "typescript@5"}


def _npx(where: Path, *args: str) -> Any:
    import subprocess

    return subprocess.run(["npx", "--yes", *args], cwd=where, capture_output=True, text=True,
                          timeout=300)


def test_typescript_types_narrow_by_game(client: Any, tmp_path: Path) -> None:
    """Issue 28: with the types openapi-typescript generates from the live document, a
    TypeScript program narrows a game read by `game`, a legal move by `type` and reads its
    `location`, posts a legal move as it is, and creates a game with only its name:
    `tsc --noEmit --strict` passes (skipped without node, or when npx cannot install the
    tools from the npm registry)."""
    import json
    import shutil

    if shutil.which("node") is None or shutil.which("npx") is None:
        pytest.skip("node/npx are not installed")
    for package in TS_TOOLS.values():
        found = _npx(tmp_path, "-p", package, "node", "--version")
        if found.returncode != 0:
            pytest.skip(f"npx cannot install {package}: {found.stderr[-300:]}")
    (tmp_path / "spec.json").write_text(json.dumps(client.get("/v1/openapi.json").get_json()))
    made = _npx(tmp_path, TS_TOOLS["openapi-typescript"], "spec.json", "-o", "bgb.ts")
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    shutil.copy(TS_PROGRAM, tmp_path / "program.ts")
    checked = _npx(tmp_path, "-p", TS_TOOLS["tsc"], "tsc", "--noEmit", "--strict",
                   "--target", "es2020", "--module", "es2020", "--moduleResolution", "node",
                   "program.ts")
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]
    # The check can fail: narrowed to another game, a place has no `location`.
    wrong = TS_PROGRAM.read_text().replace('game.game !== "darwins-journey"',
                                           'game.game === "darwins-journey"')
    (tmp_path / "program.ts").write_text(wrong)
    refused = _npx(tmp_path, "-p", TS_TOOLS["tsc"], "tsc", "--noEmit", "--strict",
                   "--target", "es2020", "--module", "es2020", "--moduleResolution", "node",
                   "program.ts")
    assert refused.returncode != 0 and "location" in refused.stdout, refused.stdout[-2000:]
