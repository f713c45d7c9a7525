"""The log's events in words: a `text` on each event, in the asked language, written by the
game's own texts (`core/<game>/i18n.py describe`) or, for the server's events, by the API's;
a solo game's automa named as its rulebook names it."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from api import bots, i18n
from core.darwins_journey import i18n as dj_texts
from core.encyclopedia import i18n as encyclopedia_texts
from tests.api.conftest import create, move
from tests.api.test_i18n_games import ENGLISH


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_every_event_of_the_log_has_its_text_in_the_asked_language(
        client: FlaskClient, lang: str) -> None:
    created = create(client, game="encyclopedia", players=2)
    for _ in range(3):
        read = client.get(f"/v1/games/{created.id}").get_json()
        token = created.auth(read["to_act"])
        legal = client.get(f"/v1/games/{created.id}", headers=token).get_json()["legal_moves"]
        played = client.post(f"/v1/games/{created.id}/moves", headers=token,
                             json={"move": legal[0], "version": read["version"]})
        assert played.status_code == 200, played.get_json()
    log = client.get(f"/v1/games/{created.id}/moves?lang={lang}").get_json()["moves"]
    locale = i18n.normalize(lang)
    events = [event for entry in log for event in entry["events"]]
    assert len(events) >= 3
    for event in events:
        data = {k: v for k, v in event.items() if k != "text"}
        assert event["text"] == encyclopedia_texts.describe(data, locale), event
        if locale == "pt_BR":
            assert not ENGLISH["encyclopedia"].search(event["text"]), event["text"]


def test_seats_are_named_as_the_page_and_bgb_name_them() -> None:
    """The reader's own seat is "You"; an automa as its rulebook names it (ENC solo: "a IA";
    DJ solo: Alfred; without these names both games' texts said "Player 2" for the automa's
    own events); another bot "Player n (bot)"; a human "Player n" (the game's own words)."""
    human, alfred = {"kind": "human"}, {"kind": "bot", "bot": "alfred"}
    assert i18n.seat_names("encyclopedia", [human, alfred], [1], None, "pt_BR") == {1: "IA"}
    assert i18n.seat_names("encyclopedia", [human, alfred], [1], 0, "en") == {0: "You",
                                                                               1: "AI"}
    assert i18n.seat_names("darwins-journey", [human, alfred], [1], 1, "en") == {1: "You"}
    greedy = {"kind": "bot", "bot": "greedy"}
    assert i18n.seat_names("flotilla", [human, human, greedy], [], 1, "pt_BR") == {
        1: "Você", 2: "Jogador 3 (greedy)"}
    assert i18n.seat_names("toy-pontoon", [human, alfred], [1], None, "en") == {
        1: "Player 2 (alfred)"}, "a game without texts has no automa name"
    event = {"type": "coins", "seat": 1, "n": 4}
    entry = {"index": 0, "version": 1, "seat": 1, "move": {"type": "x"}, "events": [event]}
    names = i18n.seat_names("darwins-journey", [human, alfred], [1], None, "en")
    shown = i18n.with_event_texts([entry], "darwins-journey", names, "en")
    assert shown[0]["events"][0]["text"] == dj_texts.describe(event, "en", names)
    assert shown[0]["events"][0]["text"].startswith("Alfred")
    assert "text" not in event, "the stored entry is not changed"
    hidden = {**entry, "events": [{"type": "draft", "redacted": True}]}
    assert i18n.with_event_texts([hidden], "darwins-journey", names, "pt_BR")[0]["events"] == [
        {"type": "draft", "redacted": True, "text": "Um evento oculto"}]


def test_a_bot_seat_is_named_by_its_title_in_the_asked_language(client: FlaskClient) -> None:
    created = create(client, game="flotilla", players=3,
                     seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                            {"kind": "human"}])
    titles = {bot["name"]: bot["title"]
              for bot in client.get("/v1/bots?lang=pt-BR").get_json()["bots"]}
    assert titles["greedy"] == "Guloso"
    names = i18n.seat_names("flotilla", created.body["seats"], [], None, "pt_BR",
                            lambda bot: bots.bot_title(bot, "pt_BR"))
    assert names == {1: "Jogador 2 (Guloso)"}


def test_the_readers_own_seat_is_you(client: FlaskClient) -> None:
    created = create(client, game="encyclopedia", players=2)
    mover = client.get(f"/v1/games/{created.id}").get_json()["to_act"]
    token = created.auth(mover)
    read = client.get(f"/v1/games/{created.id}", headers=token).get_json()
    played = client.post(f"/v1/games/{created.id}/moves", headers=token,
                         json={"move": read["legal_moves"][0], "version": read["version"]})
    assert played.status_code == 200, played.get_json()
    log = client.get(f"/v1/games/{created.id}/moves?lang=pt-BR", headers=token).get_json()
    mine = [e for e in log["moves"][0]["events"] if e.get("seat") == mover]
    assert mine and all(e["text"].startswith("Você") for e in mine), mine


def test_the_servers_own_events_have_their_texts(client: FlaskClient) -> None:
    resigned = create(client, game="toy-pontoon", players=3)
    answer = client.post(f"/v1/games/{resigned.id}/resign", json={},
                         headers=resigned.auth(1))
    assert answer.status_code == 200, answer.get_json()
    log = client.get(f"/v1/games/{resigned.id}/moves?lang=pt-BR").get_json()["moves"]
    assert log[-1]["system"] and log[-1]["events"][0]["text"] == "Jogador 2 desistiu"

    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    aborted = create(client, players=2, seats=seats)
    assert move(client, aborted, 0, 0).status_code == 200
    creator = {"Authorization": f"Bearer {aborted.body['creator_token']}"}
    assert client.post(f"/v1/games/{aborted.id}/abort", headers=creator).status_code == 200
    log = client.get(f"/v1/games/{aborted.id}/moves").get_json()["moves"]
    assert log[-1]["events"][0]["text"] == "The game was aborted by its creator"
    # The toy game has no texts of its own: its events carry none.
    assert all("text" not in event for event in log[0]["events"])
