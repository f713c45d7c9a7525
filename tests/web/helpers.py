"""Driving the page like a person: the lobby's form, move buttons, waiting for the game."""

from __future__ import annotations

import random
from typing import Any

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the tests using these helpers skip without Playwright (conftest.browser)
    PlaywrightError = Exception  # type: ignore[misc,assignment]

# What the page shows when it is ready for the next step: a move to click, or the result.
READY = "button.move:not([disabled]), #result:not([hidden])"


def create_in_lobby(page: Any, site: str, options: dict[str, str],
                    lang: str = "en") -> dict[str, Any]:
    """Fill the lobby (options by their select/checkbox id suffix and visible label) and
    create; the join links by seat and the spectator link."""
    page.goto(f"{site}/play/?lang={lang}")
    page.wait_for_selector("#create-game")
    for name, label in options.items():
        page.select_option(f"#option-{name}", label=label)
    page.click("#create-game")
    page.wait_for_selector(".created:not([hidden]) .join a")
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href")
             for a in page.query_selector_all(".join a")}
    spectator = page.get_attribute("a.spectate", "href")
    return {"seats": links, "spectator": spectator}


def version(page: Any) -> int:
    """The game version the page shows."""
    return int(page.get_attribute("#status", "data-version"))


def click_move(page: Any, rng: random.Random) -> str:
    """Click a random enabled move button and wait until the page has moved on; its label."""
    for _ in range(20):
        page.wait_for_selector("button.move:not([disabled])", timeout=30000)
        before = version(page)
        buttons = page.query_selector_all("button.move:not([disabled])")
        if not buttons:
            continue
        button = rng.choice(buttons)
        try:
            label = button.inner_text()
            button.click(timeout=2000)
            if page.is_visible("#confirm-bar"):  # confirmation on (a touch screen's default)
                page.click("#confirm-play", timeout=2000)
            break
        except PlaywrightError:
            # Redrawn under the pointer (another seat moved first): look again, as a person would.
            continue
    else:
        raise AssertionError("no move button stayed long enough to be clicked")
    page.wait_for_function(
        "([v]) => Number(document.querySelector('#status').dataset.version) > v"
        " || !document.querySelector('#notice').hidden", arg=[before], timeout=15000)
    return label


def play_to_the_end(page: Any, seed: int, max_clicks: int = 600) -> int:
    """Click random moves until the result shows; the number of clicks."""
    rng = random.Random(seed)
    clicks = 0
    while clicks < max_clicks:
        page.wait_for_selector(READY, timeout=30000)
        if page.is_visible("#result"):
            return clicks
        click_move(page, rng)
        clicks += 1
    raise AssertionError(f"no result after {max_clicks} clicks")


# Toggle buttons (issue 30): every element with aria-pressed is a button and says true or
# false; on the board, a place that picks its one move carries it exactly while confirmation
# is on, a place a move's steps start at always, and a place that lists its moves never.
ARIA_PRESSED_PROBLEMS = """(confirm) => {
    const problems = [];
    const what = (el) => `${el.tagName} ${el.id || el.className?.baseVal || el.className} `
        + `${el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30)}`;
    for (const el of document.querySelectorAll('[aria-pressed]')) {
        const role = el.getAttribute('role') || (el.tagName === 'BUTTON' ? 'button' : '');
        if (role !== 'button') problems.push(`not a button: ${what(el)}`);
        if (!['true', 'false'].includes(el.getAttribute('aria-pressed'))) {
            problems.push(`aria-pressed="${el.getAttribute('aria-pressed')}": ${what(el)}`);
        }
    }
    for (const el of document.querySelectorAll('#board .choosable[role=button]')) {
        const has = el.hasAttribute('aria-pressed');
        // Darwin's Journey's workers at home: the places a move's steps start at.
        const start = el.matches('[data-home-worker]');
        const picks = el.matches('[data-picks]');
        const toggle = start || (picks && confirm);
        if (toggle && !has) problems.push(`a toggle without it: ${what(el)}`);
        if (!toggle && has) problems.push(`not a toggle: ${what(el)}`);
    }
    for (const el of document.querySelectorAll('button.move')) {
        if (el.hasAttribute('aria-pressed') !== confirm) problems.push(`move button: ${what(el)}`);
    }
    return problems;
}"""


def aria_pressed_problems(page: Any) -> list[str]:
    """What breaks the page's rule for aria-pressed now (see ARIA_PRESSED_PROBLEMS)."""
    confirm = page.is_checked("#confirm-setting")
    return list(page.evaluate(ARIA_PRESSED_PROBLEMS, confirm))
