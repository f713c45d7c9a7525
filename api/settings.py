"""Every environment variable BoardGamesBot reads: its name, default and meaning, in one place.

The API, the bot workers and `bgb` read their settings from the environment; this module is
the list of them. Code reads a value with `value(NAME)` (the environment's, else the
default), the configuration page of the docs is generated from `SETTINGS`
(`python -m api.settings` prints the table; `docs/operating.md` holds it), and
`tests/test_settings.py` fails when a `BGB_*` name the code uses is missing here or when the
page's table is not the generated one.

Importing this module has no side effect: it uses the standard library only, so the workers
and the docs build read it without building the app.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SETTINGS", "Setting", "by_name", "markdown_table", "value"]


@dataclass(frozen=True)
class Setting:
    """One environment variable."""

    name: str
    default: str  # the value used when the variable is unset or empty ("" = unset)
    meaning: str
    read_by: str  # who reads it: "API", "workers", "bgb", "tests", or several
    default_text: str = ""  # the default in words when it is not a plain value


SETTINGS: tuple[Setting, ...] = (
    Setting("REDIS_URL", "redis://127.0.0.1:6379/0",
            "the Redis holding games, players, tournaments and the bot queue",
            "API, workers, bgb",
            "`bgb serve`: a local Redis it starts; others: `redis://127.0.0.1:6379/0`"),
    Setting("BGB_REDIS_CLUSTER", "",
            "`1`: `REDIS_URL` names a node of a Redis Cluster (as a `redis+cluster://host:port"
            "[,host:port...]` URL does): games on the cluster, queues on `BGB_QUEUE_URL`",
            "API, workers", "unset: a cluster only for a `redis+cluster://` URL"),
    Setting("BGB_QUEUE_URL", "",
            "the plain Redis of the bot, analysis and webhook queues (RQ does not run on a "
            "cluster); required when `REDIS_URL` is a cluster; `redis+sentinel://host:port"
            "[,host:port...]/<master name>[/<db>]` finds its master through Redis Sentinel",
            "API, workers",
            "`REDIS_URL` when that is a single node"),
    Setting("BGB_MIN_REPLICAS", "0",
            "replicas that must confirm a move, a creation or a resignation (`WAIT`) before "
            "it is acknowledged; fewer within `BGB_REPLICA_TIMEOUT_MS`: 503 + Retry-After, "
            "the write kept (docs/scaling.md)", "API, workers"),
    Setting("BGB_REPLICA_TIMEOUT_MS", "250",
            "how long a write waits for `BGB_MIN_REPLICAS` replicas, in ms (keep it under "
            "`BGB_REDIS_TIMEOUT`)", "API, workers"),
    Setting("BGB_API_URL", "http://127.0.0.1:8000",
            "where bot workers (with `BGB_BOT_API=http`), the SDK and `bgb` reach the API",
            "workers, SDK, bgb"),
    Setting("BGB_BOT_API", "http",
            "`local`: a bot worker posts through the API app loaded in its own process; "
            "`http`: to `BGB_API_URL`", "workers", "`http` (`bgb serve`: `local`)"),
    Setting("BGB_BOT_SECRET", "",
            "the secret bot seats' tokens derive from; the same value on the API and every "
            "worker", "API, workers", "a random one created once in Redis"),
    Setting("BGB_WORKER_NICE", "10",
            "how much lower a bot worker's CPU priority is than its parent's (`0`: the same)",
            "workers"),
    Setting("BGB_LOG_LEVEL", "WARNING", "bot worker log level", "workers"),
    Setting("BGB_BOT_CHAIN_SECONDS", "0.5",
            "how long a worker's job plays a game's consecutive bot turns before it queues "
            "the next one (`0`: a job a turn)", "workers"),
    Setting("BGB_BOT_GRACE_MS", "1000",
            "how far past its `ms` budget a bot may think before its move is forfeited to a "
            "random legal move", "workers"),
    Setting("BGB_MAX_BOT_MS", "10000",
            "ceiling of a bot's thinking time a decision, in ms: larger budgets are refused "
            "at creation and workers cap every search at it", "API, workers"),
    Setting("BGB_ANALYSIS_ITERATIONS", "400",
            "search iterations per decision of a game's analysis (`POST /v1/games/{id}/"
            "analysis`): the same game then gives the same numbers", "API, workers"),
    Setting("BGB_ANALYSIS_MS", "2000",
            "wall-clock ceiling per decision of a game's analysis, in ms (at most "
            "`BGB_MAX_BOT_MS`); a search it cuts short is no longer reproducible",
            "API, workers"),
    Setting("BGB_HINT_ITERATIONS", "1000",
            "search iterations of a hint in a practice game (`POST /v1/games/{id}/hint`)",
            "API, workers"),
    Setting("BGB_HINT_MS", "1000",
            "wall-clock ceiling of a hint's search, in ms (at most `BGB_MAX_BOT_MS`)",
            "API, workers"),
    Setting("BGB_MAX_BOT_GAMES_PER_CREATOR", "16",
            "games with search-bot seats in progress per client address (`0`: no ceiling)",
            "API"),
    Setting("BGB_MAX_TOURNAMENTS", "32", "tournaments a server plays at once", "API"),
    Setting("BGB_RATE_LIMIT_CREATE", "30/minute;300/hour",
            "game and player creations per client address (Flask-Limiter string; `off` "
            "disables it)", "API"),
    Setting("BGB_RATE_LIMIT_MOVES", "1200/minute", "moves per client address", "API"),
    Setting("BGB_RATE_LIMIT_MOVES_PER_SEAT", "300/minute", "moves per seat token", "API"),
    Setting("BGB_RATE_LIMIT_READS", "3000/minute",
            "reads per client address, for each kind of read", "API"),
    Setting("BGB_RATE_LIMIT_OTHER", "6000/minute",
            "every other request (catalog, bots, the OpenAPI document, docs, /healthz) per "
            "client", "API"),
    Setting("BGB_RATE_LIMIT_HEADERS", "on",
            "`X-RateLimit-Limit`, `-Remaining` and `-Reset` on every rate-limited answer (one "
            "more Redis read per request; `off` leaves them out)", "API"),
    Setting("BGB_BODY_TIMEOUT", "10",
            "seconds a request's body may take to arrive after its headers (beyond: 408 and "
            "the connection closed; `off` disables)", "API"),
    Setting("BGB_MAX_CONNECTIONS_PER_CLIENT", "200",
            "connections one client (an IPv4 address, an IPv6 /64) may keep waiting on their "
            "requests' bodies (a body not in 0.25 s), all API processes together (beyond: 429; "
            "`off` disables)",
            "API"),
    Setting("BGB_REQUESTS_PER_CLIENT", "4",
            "requests of one client an API process works on at once, long polls and streams "
            "aside (`off` disables)", "API"),
    Setting("BGB_COUNTS_REDIS_URL", "",
            "the Redis holding the slow-body counts (one without persistence saves an fsync "
            "a slow body)", "API", "`REDIS_URL` (on a cluster: `BGB_QUEUE_URL`)"),
    Setting("BGB_TRUSTED_PROXIES", "0",
            "reverse proxies in front of the API (the client address then comes from "
            "`X-Forwarded-For`)", "API"),
    Setting("BGB_MAX_WATCHERS", "5000",
            "long polls and event streams one API process admits (beyond: 503)", "API"),
    Setting("BGB_MAX_STREAMS_PER_CLIENT", "100",
            "long polls and event streams one client address may hold open (beyond: 429)",
            "API"),
    Setting("BGB_REDIS_TIMEOUT", "0.5",
            "seconds a request's Redis command may take before the request answers 503",
            "API"),
    Setting("BGB_FAST_LANE", "on",
            "`off` sends plain game reads and moves through Flask too (see Scaling)", "API"),
    Setting("BGB_METRICS_TOKEN", "",
            "Bearer token `/metrics` asks for", "API", "unset: loopback callers only"),
    Setting("BGB_DOCS_URL", "",
            "where the documentation site (`mkdocs build`) is published, e.g. "
            "`https://docs.example.org/bgb/`: `/v1/games-catalog` then gives each game's "
            "`rules_url`, its rules page there, and the web page's rules panel links to it",
            "API", "unset: no rules links"),
    Setting("BGB_CORS_ORIGINS", "*",
            "origins allowed to call `/v1` from a browser (comma-separated)", "API"),
    Setting("BGB_ABANDON_AFTER", "30d",
            "a game nobody moved in for this long is abandoned (seconds, or `30m`, `12h`, "
            "`30d`; `0`: never)", "API, workers"),
    Setting("BGB_RETAIN_FINISHED", "90d",
            "an ended game or tournament is deleted this long after it ended (`0`: kept for "
            "ever)", "API, workers"),
    Setting("BGB_WEBHOOK_RETRY_INTERVALS", "10,60,300,1800,3600,10800,21600,43200",
            "seconds between a webhook delivery's attempts (comma-separated)", "API, workers",
            "about a day in 8 steps"),
    Setting("BGB_WEBHOOK_ALLOW", "",
            "private networks webhooks may reach (comma-separated CIDRs, e.g. "
            "`10.0.0.0/8`); every other non-public address is refused at registration and "
            "at each delivery", "API, workers", "none: public addresses only"),
    Setting("BGB_GAME_MODULES", "",
            "extra game modules to register (comma-separated), e.g. `tests.toygame`",
            "API, workers", "none"),
    Setting("BGB_DATA_DIR", "",
            "where `bgb serve`'s own Redis keeps its data", "bgb",
            "`$XDG_DATA_HOME/bgb` or `~/.local/share/bgb`"),
    Setting("BGB_PLAYER_KEY", "", "the player's key `bgb games` and `bgb player` use", "bgb",
            "unset"),
    Setting("TEST_REDIS_URL", "",
            "a Redis the tests may flush", "tests", "unset: the tests start their own"),
    Setting("BGB_FUZZ_EXAMPLES", "12",
            "examples per operation of the schemathesis pass (`tests/api/test_fuzz.py`)",
            "tests"),
)

_BY_NAME = {setting.name: setting for setting in SETTINGS}


def by_name(name: str) -> Setting:
    """The setting called `name` (KeyError for a name the registry does not list)."""
    return _BY_NAME[name]


def value(name: str) -> str:
    """The setting's value: the environment's (stripped) when set and not empty, else its
    default."""
    raw = os.environ.get(name, "").strip()
    return raw or by_name(name).default


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table() -> str:
    """The configuration table of the docs, one row a setting, in the registry's order."""
    rows = ["| variable | meaning | default | read by |", "| --- | --- | --- | --- |"]
    for setting in SETTINGS:
        default = setting.default_text or (f"`{setting.default}`" if setting.default
                                           else "unset")
        rows.append(f"| `{setting.name}` | {_cell(setting.meaning)} | {_cell(default)} "
                    f"| {setting.read_by} |")
    return "\n".join(rows) + "\n"


BEGIN = "<!-- settings-table: generated by `python -m api.settings --write`; do not edit -->"
END = "<!-- settings-table end -->"
_TABLE = re.compile(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), re.DOTALL)


def table_in(text: str) -> str | None:
    """The generated table as a docs page holds it (None when the page has no markers)."""
    found = _TABLE.search(text)
    return found.group(1) if found else None


def with_table(text: str) -> str:
    """The page with its table replaced by the generated one."""
    return _TABLE.sub(lambda _: f"{BEGIN}\n{markdown_table()}{END}", text)


def main(argv: list[str]) -> int:
    """Print the table, or with `--write PAGE` put it between the page's markers."""
    if len(argv) == 2 and argv[0] == "--write":
        page = Path(argv[1])
        page.write_text(with_table(page.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    sys.stdout.write(markdown_table())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
