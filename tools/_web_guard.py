"""The SSRF guard of the web `open`: which URLs may be fetched and which addresses may be connected to.

A URL proposed by a model is untrusted. `check_url` parses it strictly (scheme, no
credentials, one normalized host) and `check_address` classifies every address its host
resolves to: loopback, private, link-local, multicast, reserved, unspecified, shared
(CGNAT), IPv4 inside IPv6 (mapped, compatible, NAT64, 6to4, Teredo) are all refused,
unless the deployment names the host in `allow_hosts`. Every refusal is a `Blocked` with a
named code, which the tool records as a `ToolError` (docs/events.md).
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import unquote, urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Characters no URL a fetcher acts on may hold: whitespace, controls and the backslash that
# browsers read as a slash ("http://a\@127.0.0.1/").
_UNSAFE: Final = re.compile(r"[\x00-\x20\x7f-\x9f\\]")
# A host label: letters, digits, hyphens and underscores after IDNA encoding.
_LABEL: Final = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_NUMBER: Final = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)")
_NAT64: Final = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))
_IPV4_COMPATIBLE: Final = ipaddress.IPv6Network("::/96")
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


class Blocked(Exception):
    """Raised when a URL, an address or a response is refused: `code` names the rule (`blocked: scheme`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class GuardOptions:
    """What a deployment admits: `allow_http` for plain http, `allow_hosts` for private hosts it trusts.

    A host in `allow_hosts` (a name or an address, normalized as a URL's host is) is connected
    to whatever it resolves to; every other host must resolve to public addresses only.
    """

    allow_http: bool = False
    allow_hosts: frozenset[str] = field(default_factory=frozenset)

    def trusted(self, host: str) -> bool:
        """Whether `host` (normalized) is one the deployment named."""
        return host in self.allowed_hosts()

    def allowed_hosts(self) -> frozenset[str]:
        """The `allow_hosts` entries, normalized like a URL's host (an entry that is no host is dropped)."""
        names = set()
        for entry in self.allow_hosts:
            try:
                names.add(normalize_host(entry.strip("[]") if ":" in entry else entry))
            except Blocked:
                continue
        return frozenset(names)


@dataclass(frozen=True, slots=True)
class Target:
    """A checked URL: scheme, normalized host (canonical for an address), port, path with query."""

    url: str
    scheme: str
    host: str
    port: int
    target: str
    address: IPAddress | None  # the host when it is an address literal

    @property
    def host_header(self) -> str:
        """The Host header: the host (bracketed when IPv6), with the port when it is not the scheme's."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if _DEFAULT_PORTS[self.scheme] == self.port else f"{host}:{self.port}"


def check_url(url: str, options: GuardOptions) -> Target:
    """Parse `url` for fetching, or raise `Blocked` (scheme, credentials, host, port)."""
    if len(url) > MAX_URL_CHARS:  # httpx refuses a longer one with an error of its own
        raise Blocked("blocked: malformed", f"the URL is longer than {MAX_URL_CHARS} characters")
    if _UNSAFE.search(url):
        raise Blocked("blocked: malformed", "the URL holds whitespace, a control character or a backslash")
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise Blocked("blocked: malformed", str(exc)) from exc
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http") or (scheme == "http" and not options.allow_http):
        allowed = "https or http" if options.allow_http else "https (http is not enabled)"
        raise Blocked("blocked: scheme", f"scheme {scheme or '(none)'!r} is not allowed: only {allowed}")
    netloc = parts.netloc
    if "@" in netloc or "@" in unquote(netloc):
        raise Blocked("blocked: credentials", "credentials (user:password@) in a URL are refused")
    host_part, port = _split_port(netloc, scheme)
    if host_part.startswith("["):
        if not host_part.endswith("]"):
            raise Blocked("blocked: host", "an unclosed IPv6 bracket")
        literal = host_part[1:-1]
        if "%" in literal:
            raise Blocked("blocked: host", "an IPv6 zone id is refused")
        try:
            address: IPAddress | None = ipaddress.IPv6Address(literal)
        except ValueError as exc:
            raise Blocked("blocked: host", f"not an IPv6 address: {literal!r}") from exc
        host = str(address)
    else:
        host = normalize_host(unquote(host_part))
        address = _address_literal(host)
    if address is not None and not options.trusted(host):
        check_address(address)
    if address is None and (host == "localhost" or host.endswith(".localhost")) and not options.trusted(host):
        raise Blocked("blocked: private_address", f"{host} names this machine (loopback)")
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return Target(url=url, scheme=scheme, host=host, port=port, target=target, address=address)


_PORT: Final = re.compile(r"[0-9]{1,5}")
MAX_URL_CHARS: Final = 8_192


def _split_port(netloc: str, scheme: str) -> tuple[str, int]:
    host, colon, port_text = netloc.rpartition(":")
    if not colon or (host.startswith("[") and not host.endswith("]")) or "]" in port_text:
        return netloc, _DEFAULT_PORTS[scheme]
    if port_text == "":
        return host, _DEFAULT_PORTS[scheme]
    # ASCII digits only: `"²".isdigit()` holds, and Arabic-Indic digits would pass `int`.
    if not _PORT.fullmatch(port_text) or not 0 < int(port_text) < 65536:
        raise Blocked("blocked: port", f"not a port: {port_text!r}")
    return host, int(port_text)


def normalize_host(raw: str) -> str:
    """A host as the resolver and `allow_hosts` see it: lower-case, IDNA, no trailing dot, IPv4 canonical.

    Raises `Blocked("blocked: host")` for a host that is empty, not IDNA-encodable, or an
    IPv4 address in a form no parser should guess at (`1.2.3.4.5`, `0x1g`).
    """
    if "%" in raw or _UNSAFE.search(raw):
        raise Blocked("blocked: host", f"a host that is still percent-encoded or holds controls: {raw!r}")
    try:
        return str(ipaddress.IPv6Address(raw))
    except ValueError:
        pass
    host = raw.rstrip(".").lower() if raw not in (".", "") else ""
    if not host:
        raise Blocked("blocked: host", "no host in the URL")
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise Blocked("blocked: host", f"not an IDNA host name: {raw!r}") from exc
    labels = host.split(".")
    if _NUMBER.fullmatch(labels[-1]):  # WHATWG: a last label that is a number makes the host IPv4
        return str(_parse_ipv4(labels, raw))
    if not all(_LABEL.fullmatch(label) for label in labels):
        raise Blocked("blocked: host", f"not a host name: {raw!r}")
    return host


def _parse_ipv4(labels: list[str], raw: str) -> ipaddress.IPv4Address:
    """inet_aton's forms: 1 to 4 parts, decimal, octal (leading 0) or hex (0x); the last fills the rest."""
    if len(labels) > 4:
        raise Blocked("blocked: host", f"not an IPv4 address: {raw!r}")
    numbers = []
    for label in labels:
        if not _NUMBER.fullmatch(label):
            raise Blocked("blocked: host", f"not an IPv4 address: {raw!r}")
        if label.startswith("0x"):
            numbers.append(int(label[2:] or "0", 16))
        elif len(label) > 1 and label.startswith("0"):
            if not set(label) <= set("01234567"):
                raise Blocked("blocked: host", f"not an IPv4 address: {raw!r}")
            numbers.append(int(label, 8))
        else:
            numbers.append(int(label))
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        raise Blocked("blocked: host", f"an IPv4 part out of range: {raw!r}")
    value = last
    for index, number in enumerate(head):
        value += number << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def _address_literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def check_address(address: IPAddress) -> None:
    """Raise `Blocked("blocked: private_address")` unless `address` is a public unicast address."""
    reason = address_class(address)
    if reason is not None:
        raise Blocked("blocked: private_address", f"{address} is {reason}")


def address_class(address: IPAddress) -> str | None:
    """Why `address` is not public (`"loopback"`, `"private"`, `"NAT64 of 127.0.0.1"`, ...), or None."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            kind, inner = embedded
            if kind in ("IPv4-mapped", "IPv4-compatible", "NAT64"):
                return f"{kind} ({inner})"  # never a route a fetcher needs, whatever it embeds
            inner_class = address_class(inner)
            if inner_class is not None:
                return f"{kind} of {inner} ({inner_class})"
    for name, test in (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
    ):
        if test:
            return name
    if not address.is_global:
        return "not globally routable"
    return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[str, ipaddress.IPv4Address] | None:
    if address.ipv4_mapped is not None:
        return "IPv4-mapped", address.ipv4_mapped
    if any(address in network for network in _NAT64):
        return "NAT64", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _IPV4_COMPATIBLE and int(address) > 1:
        return "IPv4-compatible", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return "6to4", address.sixtofour
    if address.teredo is not None:
        return "Teredo", address.teredo[1]
    return None
