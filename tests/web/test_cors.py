"""A page of another origin calls the API from a real browser (issue 15: CORS).

The page is served by a plain HTTP server on another port (another origin); it creates a
game with a JSON POST carrying an Idempotency-Key-free Authorization-free body (preflighted
for its content type), then reads it with a Bearer token (preflighted for Authorization),
and reads the ETag header the API exposes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from clients.localredis import free_port
from tests.e2e.conftest import Stack

pytestmark = pytest.mark.e2e

PAGE = """<!doctype html><html><body><pre id="out">running</pre><script>
const api = "%s/v1";
(async () => {
  const out = document.getElementById("out");
  try {
    const created = await fetch(api + "/games", {method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({game: "toy-pontoon", options: {players: 2}})});
    const game = await created.json();
    const token = game.seats[0].token;
    const read = await fetch(api + "/games/" + game.id,
      {headers: {"Authorization": "Bearer " + token}});
    const body = await read.json();
    out.textContent = "ok " + created.status + " " + read.status + " seat=" + body.seat +
      " etag=" + read.headers.get("ETag");
  } catch (error) { out.textContent = "failed " + error; }
})();
</script></body></html>"""


@pytest.fixture
def other_origin(stack: Stack) -> Iterator[str]:
    page = (PAGE % stack.api_url).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # "localhost" here and 127.0.0.1 for the API: two origins, as a browser sees them.
    yield f"http://localhost:{port}/"
    server.shutdown()


def test_a_page_of_another_origin_creates_and_reads_a_game(browser: Any,
                                                           other_origin: str) -> None:
    page = browser.new_page()
    try:
        page.goto(other_origin)
        page.wait_for_function("document.getElementById('out').textContent !== 'running'",
                               timeout=15000)
        text = page.text_content("#out") or ""
        assert text.startswith("ok 201 200 seat=0 etag=\""), text
    finally:
        page.close()
