"""Outbound requests that cannot reach inside: which webhook URLs the server may post to.

The policy and the pinning are ssrfguard's (docs/webhooks-security.md, "The library"): its
`Policy` decides the scheme, credentials, host shape and every address (its IANA table,
IPv4-mapped, NAT64, 6to4 and Teredo addresses judged by the IPv4 address they carry), and its
`requests` session resolves a name once per connection, checks every answer and connects to
one of the addresses it checked, so a DNS answer that changes between the check and the
connection cannot move it. This module is the thin layer of our own policy on top:

- the operator's allow-list (`BGB_WEBHOOK_ALLOW`, comma-separated CIDRs, empty by default)
  and any port (receivers listen where their owners like);
- two refusals ssrfguard leaves to resolution, so that an allow-list opening loopback does not
  open them: `localhost` and the names under `.localhost`, and IPv4 addresses spelled with
  hex parts (`0x7f000001`; decimal, octal and short forms ssrfguard refuses itself);
- messages in the API's words (message ids of the catalog), coarse outcomes, log redaction.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import os
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import ssrfguard
import ssrfguard.requests
from urllib3.exceptions import LocationParseError
from urllib3.util import parse_url

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# getaddrinfo's shape: ssrfguard's stand-in for it (tests pass their DNS stub).
Resolver = Callable[..., Any]

MAX_URL_LENGTH = 2048
# A delivery's outcome as its log shows it: coarse on purpose, so that the log of a webhook
# pointed at someone else's network is no port scanner (no error kinds, no timings).
OUTCOMES = ("delivered", "refused", "unreachable", "forbidden")
ALLOW_ENV = "BGB_WEBHOOK_ALLOW"
NETWORKS_FILE = Path(__file__).parent / "data" / "forbidden_networks.json"
SCHEMES = ("http", "https")
EVERY_PORT = frozenset(range(1, 65536))
# A host whose last label is a number is an IPv4 address to URL parsers and to inet_aton
# (0x7f000001, 0x7F.0x0.0x0.0x1): only the dotted-quad form passes.
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
_UNSAFE_TEXT = re.compile(r"[\x00-\x20\x7f-\x9f\\]")


class ForbiddenUrl(ValueError):
    """A URL the server will not post to; `reason` is a message id, `params` its values."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason.format(**params))
        self.reason = reason
        self.params = params


class Unresolvable(Exception):
    """The URL's host has no address now (it may have one later)."""


@dataclass(frozen=True)
class Target:
    """A URL that passed the policy: the host as it is resolved (IDNA, lower case, an IPv6
    address without brackets) and the port."""

    url: str
    host: str
    port: int
    origin: ssrfguard.Target  # what ssrfguard resolves


def allowed_networks(raw: str | None = None) -> tuple[Network, ...]:
    """The operator's allow-list (BGB_WEBHOOK_ALLOW, comma-separated CIDRs; empty: none)."""
    text = os.environ.get(ALLOW_ENV, "") if raw is None else raw
    networks: list[Network] = []
    for part in text.split(","):
        if part.strip():
            try:
                networks.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError as exc:
                raise ValueError(f"{ALLOW_ENV}: {part.strip()!r} is not a CIDR range") from exc
    return tuple(networks)


@functools.cache
def denied_networks() -> ssrfguard.AddressTable:
    """ssrfguard's table of refused addresses with our rows added (the data file, read once)."""
    data = json.loads(NETWORKS_FILE.read_text(encoding="utf-8"))
    ours = tuple(ssrfguard.Block(network=ipaddress.ip_network(entry["network"]),
                                 name=entry["name"], rfc=entry["rfc"], reach=ssrfguard.Reach.DENIED)
                 for entry in data["networks"])
    return ssrfguard.AddressTable((*ssrfguard.DEFAULT_DENIED.blocks, *ours))


def policy() -> ssrfguard.Policy:
    """ssrfguard's policy for webhooks under the allow-list in the environment now (raises
    ValueError for a list that is not CIDR ranges or that would open a translation prefix)."""
    return _policy(os.environ.get(ALLOW_ENV, ""))


@functools.cache
def _policy(raw: str) -> ssrfguard.Policy:
    networks = allowed_networks(raw)
    try:
        return ssrfguard.Policy(allowed_networks=networks, denied_networks=denied_networks(),
                                allowed_ports=EVERY_PORT, max_url_length=MAX_URL_LENGTH)
    except ValueError as exc:  # e.g. 64:ff9b::/96, which would open every IPv4 address
        raise ValueError(f"{ALLOW_ENV}: {exc}") from exc


def _refusal(url: str, rules: ssrfguard.Policy) -> ForbiddenUrl:
    """Our message for a URL ssrfguard refused as written (ssrfguard's own names the rule in
    its words and a policy field, not for an API's caller)."""
    try:
        parts = urlsplit(url)
        host, credentials = parts.hostname, (parts.username, parts.password)
    except ValueError:
        return ForbiddenUrl("this is not a valid URL")
    if parts.scheme.lower() not in SCHEMES:
        return ForbiddenUrl("a webhook URL must use http or https")
    if credentials != (None, None):
        return ForbiddenUrl("a webhook URL may not carry a user name or password")
    if not host:
        return ForbiddenUrl("a webhook URL must name a host")
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and not rules.permits_address(literal):
        return ForbiddenUrl("{host} is not a public address", host=host)
    if re.fullmatch(r"[0-9.]+", host):
        return ForbiddenUrl("write an IP address in its standard form ({host} is not)", host=host)
    return ForbiddenUrl("not a valid host name: {host}", host=host)


def check(url: str) -> Target:
    """The target of `url` if the policy allows it as written, before any DNS lookup (a
    literal address is judged here): raises ForbiddenUrl."""
    if len(url) > MAX_URL_LENGTH:
        raise ForbiddenUrl("a webhook URL has at most {limit} characters", limit=MAX_URL_LENGTH)
    if _UNSAFE_TEXT.search(url):  # a backslash too: a path to some parsers, a host to others
        raise ForbiddenUrl("a webhook URL may not contain spaces, control characters or "
                           "backslashes")
    rules = policy()
    try:
        checked = rules.check_url(url)
    except ssrfguard.BlockedURLError:
        raise _refusal(url, rules) from None
    host = checked.host.removesuffix(".")
    if checked.address is None:
        if _NUMERIC_LABEL.match(host.rsplit(".", 1)[-1]):
            raise ForbiddenUrl("write an IP address in its standard form ({host} is not)",
                               host=host)
        if host == "localhost" or host.endswith(".localhost"):
            raise ForbiddenUrl("{host} is not a public address", host=host)
    return Target(url, host, checked.port, checked)


def check_url(url: str, *, require_address: bool = True) -> Target:
    """`check(url)`, then its host resolved now and every address public (or allowed):
    raises ForbiddenUrl, or Unresolvable when `require_address`. Registration calls this with
    `require_address=False` (a name may resolve later); a delivery checks with `check` and
    lets `session()` resolve, so that a name is looked up once per attempt."""
    checked = check(url)
    try:
        ssrfguard.resolve(checked.origin, policy=policy())
    except ssrfguard.BlockedAddressError:
        raise ForbiddenUrl("{host} is not a public address", host=checked.host) from None
    except (socket.gaierror, UnicodeError) as exc:
        if require_address:
            raise Unresolvable(checked.host) from exc
    return checked


def session(resolver: Resolver | None = None) -> ssrfguard.requests.Session:
    """A requests session that connects only where the policy allows: per connection one
    lookup of the name (`resolver`, default getaddrinfo), every answer checked, the socket
    opened to a checked address; Host, TLS SNI and the certificate check use the URL's name.
    It raises ssrfguard.SSRFGuardError for an address the policy refuses. No proxy or
    .netrc from the environment (either would connect somewhere unchecked), no retries."""
    guarded = ssrfguard.requests.Session(policy=policy(), resolver=resolver, max_retries=0)
    guarded.trust_env = False
    return guarded


def redact(url: str) -> str:
    """`url` fit for a log line: no user name, password, query or fragment."""
    try:
        parts = parse_url(url)
    except LocationParseError:
        return "<not a URL>"
    host = parts.host or ""
    port = f":{parts.port}" if parts.port is not None else ""
    return f"{parts.scheme}://{host}{port}{parts.path or ''}"
