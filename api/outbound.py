"""Outbound requests that cannot reach inside: which webhook URLs the server may post to.

A webhook URL is checked when it is registered (`check_url`, its host resolved unless it
does not resolve yet) and again before every delivery (`check_url(..., resolve=True)`, the
worker), and the delivery connects to the very address that was checked (`PinnedAdapter`):
a DNS answer that changes between the check and the connection cannot move it.

Allowed: http(s), no user name or password, a host that is a DNS name or an IP address in its
standard form, every address it resolves to public (global unicast, not in
`data/forbidden_networks.json`). IPv4-mapped and NAT64 IPv6 addresses are judged by the IPv4
address they carry. `BGB_WEBHOOK_ALLOW` (comma-separated CIDRs) opens private ranges to an
operator's own receivers; it is empty by default.

No library fits (docs/webhooks-security.md, "Why not a library": requests-hardened, the
maintained SSRF filter for requests, takes no allow-list of ranges and has a fixed policy),
so this builds on `ipaddress` and the documented extension points of requests'
`HTTPAdapter`, pinning the address as requests-hardened does.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import os
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.exceptions import LocationParseError
from urllib3.util import parse_url

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

MAX_URL_LENGTH = 2048
# A delivery's outcome as its log shows it: coarse on purpose, so that the log of a webhook
# pointed at someone else's network is no port scanner (no error kinds, no timings).
OUTCOMES = ("delivered", "refused", "unreachable", "forbidden")
ALLOW_ENV = "BGB_WEBHOOK_ALLOW"
NETWORKS_FILE = Path(__file__).parent / "data" / "forbidden_networks.json"
SCHEMES = {"http": 80, "https": 443}
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
# A host whose last label is a number is an IPv4 address to every URL parser and to
# inet_aton (2130706433, 0x7f000001, 0177.0.0.1, 127.1): only the dotted-quad form passes.
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
_HOST_NAME = re.compile(r"^[a-z0-9_-]+(\.[a-z0-9_-]+)*$")
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
    """A checked URL: its normalised host, port and the address to connect to."""

    url: str
    scheme: str
    host: str  # lower case ASCII (IDNA), no trailing dot; an IPv6 address without brackets
    port: int
    address: Address | None  # None: a name that did not resolve (registration only)

    @property
    def host_header(self) -> str:
        """The Host header the receiver expects (the URL's host, not the pinned address)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == SCHEMES[self.scheme] else f"{host}:{self.port}"


@functools.cache
def forbidden_networks() -> tuple[Network, ...]:
    """The ranges refused beyond `ipaddress`'s own idea of global (data file, read once)."""
    data = json.loads(NETWORKS_FILE.read_text(encoding="utf-8"))
    return tuple(ipaddress.ip_network(entry["network"]) for entry in data["networks"])


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


def is_public(address: Address, allowed: tuple[Network, ...] = ()) -> bool:
    """Whether a webhook may reach `address`: public unicast, or in the operator's ranges."""
    if any(address in network for network in allowed if network.version == address.version):
        return True
    if isinstance(address, ipaddress.IPv6Address):
        carried = address.ipv4_mapped or (
            ipaddress.IPv4Address(int(address) & 0xFFFFFFFF) if address in NAT64 else None)
        if carried is not None:
            return is_public(carried, allowed)
    return (address.is_global and not address.is_multicast
            and not any(address in network for network in forbidden_networks()
                        if network.version == address.version))


def resolve(host: str, port: int) -> list[Address]:
    """Every address `host` resolves to now (raises Unresolvable)."""
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise Unresolvable(host) from exc
    addresses: list[Address] = []
    for family, _, _, _, sockaddr in answers:
        if family in (socket.AF_INET, socket.AF_INET6):
            address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
            if address not in addresses:
                addresses.append(address)
    if not addresses:
        raise Unresolvable(host)
    return addresses


def _literal(host: str) -> Address | None:
    """The IP address a host spells, None for a DNS name; refuses non-standard spellings."""
    if host.startswith("["):
        if "%" in host:  # a zone: link-local only, and interface names are not for users
            raise ForbiddenUrl("{host} is not a public address", host=host)
        try:
            return ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise ForbiddenUrl("not a valid host name: {host}", host=host) from None
    if _NUMERIC_LABEL.match(host.rsplit(".", 1)[-1]):
        try:
            return ipaddress.IPv4Address(host)
        except ValueError:
            raise ForbiddenUrl("write an IP address in its standard form ({host} is not)",
                               host=host) from None
    return None


def parse(url: str) -> tuple[str, str, int, Address | None]:
    """The scheme, host, port and literal address (None: a name) of a URL that may be used."""
    if len(url) > MAX_URL_LENGTH:
        raise ForbiddenUrl("a webhook URL has at most {limit} characters", limit=MAX_URL_LENGTH)
    if _UNSAFE_TEXT.search(url):
        raise ForbiddenUrl("a webhook URL may not contain spaces, control characters or "
                           "backslashes")
    try:
        parts = parse_url(url)
    except LocationParseError:
        raise ForbiddenUrl("this is not a valid URL") from None
    scheme = (parts.scheme or "").lower()
    if scheme not in SCHEMES or not url.lower().startswith(f"{scheme}://"):
        raise ForbiddenUrl("a webhook URL must use http or https")
    if parts.auth is not None or "@" in (parts.netloc or ""):
        raise ForbiddenUrl("a webhook URL may not carry a user name or password")
    host = (parts.host or "").lower()
    if host.endswith(".") and not host.startswith("["):
        host = host[:-1]  # one trailing dot: the same name, fully qualified
    if not host:
        raise ForbiddenUrl("a webhook URL must name a host")
    if parts.port == 0:
        raise ForbiddenUrl("this is not a valid URL")
    port = parts.port or SCHEMES[scheme]
    address = _literal(host)
    if address is None:
        if not _HOST_NAME.match(host):
            raise ForbiddenUrl("not a valid host name: {host}", host=host)
        if host == "localhost" or host.endswith(".localhost"):
            raise ForbiddenUrl("{host} is not a public address", host=host)
    return scheme, host.strip("[]"), port, address


def check_url(url: str, *, require_address: bool = True) -> Target:
    """The checked target of `url`, its host resolved now and every address public (or
    allowed): raises ForbiddenUrl, or Unresolvable when `require_address` (a delivery)."""
    scheme, host, port, literal = parse(url)
    allowed = allowed_networks()
    try:
        addresses = [literal] if literal is not None else resolve(host, port)
    except Unresolvable:
        if require_address:
            raise
        return Target(url, scheme, host, port, None)
    for address in addresses:
        if not is_public(address, allowed):
            raise ForbiddenUrl("{host} is not a public address", host=host)
    return Target(url, scheme, host, port, addresses[0])


def redact(url: str) -> str:
    """`url` fit for a log line: no user name, password, query or fragment."""
    try:
        parts = parse_url(url)
    except LocationParseError:
        return "<not a URL>"
    host = parts.host or ""
    port = f":{parts.port}" if parts.port is not None else ""
    return f"{parts.scheme}://{host}{port}{parts.path or ''}"


class PinnedAdapter(HTTPAdapter):
    """Connects to the checked address of a Target whatever DNS answers now; the Host header,
    TLS SNI and certificate check still use the URL's host name."""

    def __init__(self, target: Target) -> None:
        super().__init__(max_retries=0)
        if target.address is None:
            raise ValueError("a pinned target needs its checked address")
        self.target = target

    def build_connection_pool_key_attributes(
            self, request: Any, verify: bool | str,
            cert: str | tuple[str, str] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The connection pool of the checked address (requests' documented override)."""
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert)
        address = self.target.address
        host_params["host"] = f"[{address}]" if address.version == 6 else str(address)
        host_params["port"] = self.target.port
        if self.target.scheme == "https":
            pool_kwargs["server_hostname"] = self.target.host
            pool_kwargs["assert_hostname"] = self.target.host
        return host_params, pool_kwargs

    def add_headers(self, request: Any, **kwargs: Any) -> None:
        """The URL's host as the Host header (the connection's host is the bare address)."""
        request.headers["Host"] = self.target.host_header
