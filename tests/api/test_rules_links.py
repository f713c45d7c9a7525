"""Issue 32: each game's rules as implemented are a page of the documentation site, and the
catalog links to it when the server names its site (`BGB_DOCS_URL`); the web page's rules
panel shows that link (tests/web/test_browser_player.py)."""

from __future__ import annotations

import pytest
import redis

import core
from api import catalog, create_app


def catalog_games(monkeypatch: pytest.MonkeyPatch, redis_url: str,
                  docs_url: str | None) -> dict[str, dict[str, object]]:
    """The catalog's games by name, from an app started with `BGB_DOCS_URL` = `docs_url`."""
    if docs_url is None:
        monkeypatch.delenv("BGB_DOCS_URL", raising=False)
    else:
        monkeypatch.setenv("BGB_DOCS_URL", docs_url)
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    answer = app.test_client().get("/v1/games-catalog")
    assert answer.status_code == 200
    return {game["name"]: game for game in answer.get_json()["games"]}


def test_no_site_named_no_rules_links(monkeypatch: pytest.MonkeyPatch,
                                      redis_client: redis.Redis, redis_url: str) -> None:
    games = catalog_games(monkeypatch, redis_url, None)
    assert all("rules_url" not in game for game in games.values())


@pytest.mark.parametrize("docs_url", ["https://docs.example.org/bgb", "https://docs.example.org/bgb/"])
def test_each_game_links_its_rules_page_on_the_named_site(
        monkeypatch: pytest.MonkeyPatch, redis_client: redis.Redis, redis_url: str,
        docs_url: str) -> None:
    games = catalog_games(monkeypatch, redis_url, docs_url)
    pages = catalog.rules_pages()
    # Every game of core/ has a page (the data file lists it); the tests' toy games have none.
    builtin = {name for name in games
               if type(core.get_game(name)).__module__.startswith("core.")}
    assert set(pages) == builtin == {"darwins-journey", "encyclopedia", "flotilla"}
    for name, game in games.items():
        expected = f"https://docs.example.org/bgb/{pages[name]}" if name in pages else None
        assert game.get("rules_url") == expected, name


def test_a_path_of_this_site_is_a_site_too(monkeypatch: pytest.MonkeyPatch,
                                           redis_client: redis.Redis, redis_url: str) -> None:
    games = catalog_games(monkeypatch, redis_url, "/manual")
    assert games["flotilla"]["rules_url"] == "/manual/games/flotilla/"


@pytest.mark.parametrize("bad", ["javascript:alert(1)", "docs.example.org", "ftp://docs.example.org/",
                                 "//docs.example.org/", "https:///no-host"])
def test_a_docs_url_that_is_no_site_fails_the_start(monkeypatch: pytest.MonkeyPatch,
                                                    bad: str) -> None:
    """The page puts the address in a link: a script URL or a typo is refused at start."""
    monkeypatch.setenv("BGB_DOCS_URL", bad)
    with pytest.raises(ValueError, match="BGB_DOCS_URL"):
        create_app({"TESTING": True})
