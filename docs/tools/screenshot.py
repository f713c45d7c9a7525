"""Take the web page's picture for the README and the docs (docs/images/web-page.png).

Starts `bgb serve` on a free port with its own Redis in a temporary directory, creates a
solo game of Darwin's Journey against Alfred, plays a few random moves through the SDK, and
photographs the seat's page in the system's Chromium with Playwright.

    python3 docs/tools/screenshot.py [--out docs/images/web-page.png]

Needs the test tools (`pip install -e '.[test]'`: Playwright; Pillow comes with matplotlib)
and `apt-get install chromium`.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from clients.localredis import free_port
from clients.sdk import Client, seat_token

REPO = Path(__file__).resolve().parents[2]
READY = "button.move:not([disabled])"


def main() -> int:
    """Serve, play a little, photograph."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "images" / "web-page.png")
    parser.add_argument("--moves", type=int, default=12, help="random moves before the picture")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("needs Chromium: apt-get install -y chromium")
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env["BGB_DATA_DIR"] = data
        server = subprocess.Popen([sys.executable, "-m", "clients.cli", "serve", "--port",
                                   str(port)], cwd=REPO, env=env, start_new_session=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            photograph(f"http://127.0.0.1:{port}", chromium, args.out, args.moves, args.seed)
        finally:
            os.killpg(server.pid, signal.SIGINT)
            server.wait(timeout=30)
    print(f"{args.out}: {args.out.stat().st_size} bytes")
    return 0


def photograph(url: str, chromium: str, out: Path, moves: int, seed: int) -> None:
    """Play `moves` random moves of a new solo game, then save the seat's page."""
    client = Client(url)
    deadline = time.monotonic() + 60
    while not client.health():
        if time.monotonic() > deadline:
            raise RuntimeError("bgb serve did not start")
        time.sleep(0.2)
    game = client.create_game("darwins-journey", {"players": 1, "alfred": "green"}, seed=seed,
                              unranked=True)  # the same picture from run to run
    token = seat_token(game, 0)
    rng = random.Random(seed)
    for _ in range(moves):
        body = client.wait_for_turn(game["id"], token, timeout=60)
        client.move(game["id"], token, rng.choice(body["legal_moves"]), body["version"])
    client.wait_for_turn(game["id"], token, timeout=60)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium,
                                             args=["--no-sandbox", "--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        page.goto(f"{url}/play/games/{game['id']}#token={token}")
        page.wait_for_selector(READY)
        # A few moves listed, so that the board shows under them in the picture.
        if page.query_selector("#move-filter") is not None:
            page.fill("#move-filter", "scroll 1")
        page.wait_for_timeout(500)
        page.screenshot(path=str(out))
        browser.close()
    # A palette of 128 colours: a flat page loses nothing visible, the file a good half.
    with Image.open(out) as picture:
        small = picture.convert("RGB").quantize(colors=128)
    small.save(out, optimize=True)


if __name__ == "__main__":
    raise SystemExit(main())
