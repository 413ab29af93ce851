"""One guarded HTTP(S) GET: resolve once, check every address, connect to the checked one, cap everything.

The host is resolved here, once, by a replaceable `Resolver`; every address is checked
(tools/_web_guard.py) and the request goes to the checked address, with the name kept in
the Host header and, for https, in the TLS server name (so the certificate is still
checked against the name). No second lookup happens, so a name cannot resolve to a public
address for the check and to a private one for the connection (DNS rebinding).

Redirects are followed here, each target checked like the first, at most
`FetchLimits.max_redirects`. The whole fetch runs under one deadline; the bytes read off
the wire and the bytes they decompress to are counted while streaming and the fetch
stops at either cap, so a gzip bomb is never inflated past it. Every refusal raises
`Blocked` with a named code.
"""

from __future__ import annotations

import hashlib
import ipaddress
import socket
import ssl
import zlib
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import Final, cast
from urllib.parse import urljoin

import anyio

from ._web_guard import Blocked, GuardOptions, IPAddress, Target, check_address, check_url

# `resolver(host, port)` -> the host's addresses as text; tests replace it with a table.
Resolver = Callable[[str, int], Awaitable[Sequence[str]]]

ALLOWED_MEDIA_TYPES: Final = frozenset({"text/html", "text/plain", "application/xhtml+xml"})
_REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})
_ENCODINGS: Final = {"": None, "identity": None, "gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate"}
_USER_AGENT: Final = "citeloop-open/0.1"


async def system_resolver(host: str, port: int) -> list[str]:
    """The operating system's addresses for `host` (A and AAAA), in its order."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


@dataclass(frozen=True, slots=True)
class FetchLimits:
    """Caps on one fetch: total seconds (redirects included), redirects, wire bytes, decompressed bytes."""

    timeout: float = 20.0
    max_redirects: int = 5
    max_bytes: int = 5_000_000
    max_decoded: int = 10_000_000


@dataclass(frozen=True, slots=True)
class Fetched:
    """A response admitted: the final URL, its status and media type, and the decompressed body."""

    url: str
    status: int
    media_type: str
    charset: str | None
    body: bytes
    wire_bytes: int
    redirects: tuple[str, ...]

    @property
    def sha256(self) -> str:
        """The hex digest of the body's bytes as received (after content-encoding, before any decoding)."""
        return hashlib.sha256(self.body).hexdigest()


async def fetch(
    url: str,
    guard: GuardOptions,
    limits: FetchLimits | None = None,
    resolver: Resolver = system_resolver,
    tls: ssl.SSLContext | None = None,
) -> Fetched:
    """GET `url` under the guard and the limits; raise `Blocked` with a named code when refused.

    `tls` replaces the default certificate checks (certifi's roots), e.g. for a private CA.
    """
    limits = limits or FetchLimits()
    redirects: list[str] = []
    current = url
    try:
        with anyio.fail_after(limits.timeout):
            for _ in range(limits.max_redirects + 1):
                target = check_url(current, guard)
                address = await resolve(target, guard, resolver)
                outcome = await _get(target, address, limits, tls)
                if isinstance(outcome, str):
                    redirects.append(current)
                    try:
                        current = urljoin(current, outcome)
                    except ValueError as exc:  # a Location no URL parser accepts
                        raise Blocked("bad_redirect", f"Location {outcome[:200]!r}: {exc}") from exc
                    continue
                status, media_type, charset, body, wire = outcome
                return Fetched(current, status, media_type, charset, body, wire, tuple(redirects))
    except TimeoutError as exc:
        raise Blocked("timeout", f"no complete response within {limits.timeout:g} s") from exc
    raise Blocked("too_many_redirects", f"more than {limits.max_redirects} redirects (last: {current})")


async def resolve(target: Target, guard: GuardOptions, resolver: Resolver) -> IPAddress:
    """The address to connect to: the literal, or the first resolved one once every one has been checked."""
    if target.address is not None:
        return target.address
    try:
        found = await resolver(target.host, target.port)
    except OSError as exc:
        raise Blocked("unresolvable", f"{target.host}: {exc}") from exc
    addresses = []
    for text in found:
        try:
            addresses.append(ipaddress.ip_address(text.split("%", 1)[0]))
        except ValueError as exc:
            raise Blocked("unresolvable", f"{target.host} resolved to {text!r}") from exc
    if not addresses:
        raise Blocked("unresolvable", f"{target.host} has no address")
    if not guard.trusted(target.host):
        for address in addresses:  # one private address among public ones is enough to refuse
            try:
                check_address(address)
            except Blocked as exc:
                raise Blocked(exc.code, f"{target.host} resolves to {exc.message}") from exc
    return addresses[0]


_Response = tuple[int, str, "str | None", bytes, int]


async def _get(
    target: Target, address: IPAddress, limits: FetchLimits, tls: ssl.SSLContext | None
) -> str | _Response:
    """One request to `address`: a redirect's Location, or (status, media type, charset, body, wire bytes)."""
    import httpx  # the `web` extra: only a fetch needs it

    host = f"[{address}]" if address.version == 6 else str(address)
    request_url = f"{target.scheme}://{host}:{target.port}{target.target}"
    headers = {
        "Host": target.host_header,
        "Accept": "text/html, application/xhtml+xml, text/plain;q=0.9",
        "Accept-Encoding": "gzip, deflate",
        "User-Agent": _USER_AGENT,
    }
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    try:
        async with (
            httpx.AsyncClient(
                trust_env=False, follow_redirects=False, timeout=limits.timeout, verify=tls or True
            ) as client,
            client.stream("GET", request_url, headers=headers, extensions=extensions) as response,
        ):
            if response.status_code in _REDIRECTS:
                location = response.headers.get("location")
                if not location:
                    raise Blocked("bad_redirect", f"HTTP {response.status_code} without a Location")
                return str(location)
            if not 200 <= response.status_code < 300:
                raise Blocked("http_status", f"HTTP {response.status_code}")
            media_type, charset = _content_type(response.headers.get("content-type", ""))
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limits.max_bytes:
                raise Blocked("too_large", f"Content-Length {declared} is over {limits.max_bytes} bytes")
            inflater = _Inflater(response.headers.get("content-encoding", ""))
            body = bytearray()
            wire = 0
            async with aclosing(
                cast("AsyncGenerator[bytes]", response.aiter_raw())
            ) as chunks:  # closed at once when a cap stops it
                async for chunk in chunks:
                    wire += len(chunk)
                    if wire > limits.max_bytes:
                        raise Blocked("too_large", f"more than {limits.max_bytes} bytes on the wire")
                    body += inflater.feed(chunk, limits.max_decoded - len(body))
                    if len(body) > limits.max_decoded:
                        raise Blocked("too_large", f"more than {limits.max_decoded} bytes once decompressed")
            return response.status_code, media_type, charset, bytes(body), wire
    except httpx.TimeoutException as exc:
        raise Blocked("timeout", f"{target.host}: {type(exc).__name__}") from exc
    except httpx.HTTPError as exc:
        raise Blocked("unreachable", f"{target.host}: {exc or type(exc).__name__}") from exc
    except httpx.InvalidURL as exc:  # not an HTTPError; check_url's length cap should come first
        raise Blocked("blocked: malformed", str(exc)) from exc


def _content_type(header: str) -> tuple[str, str | None]:
    """The media type (refused unless allowed) and the declared charset of a Content-Type header."""
    media_type, *params = (part.strip() for part in header.split(";"))
    media_type = media_type.lower()
    if media_type == "application/pdf":
        raise Blocked("content_type: pdf", "PDF is not admitted yet (no attachment path for the web open)")
    if media_type not in ALLOWED_MEDIA_TYPES:
        shown = media_type or "no Content-Type"
        raise Blocked("content_type", f"{shown} is not one of {', '.join(sorted(ALLOWED_MEDIA_TYPES))}")
    charset = None
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip(" \"'"):
            charset = value.strip(" \"'").lower()
    return media_type, charset


class _Inflater:
    """Decompresses a body chunk by chunk, never producing more than it is asked for (a bomb stays small)."""

    def __init__(self, header: str) -> None:
        coding = header.strip().lower()
        if coding not in _ENCODINGS:
            raise Blocked("content_encoding", f"Content-Encoding {header!r} is not gzip, deflate or identity")
        self._coding = _ENCODINGS[coding]
        wbits = 16 + zlib.MAX_WBITS if self._coding == "gzip" else zlib.MAX_WBITS
        self._zlib = zlib.decompressobj(wbits) if self._coding else None
        self._started = False

    def feed(self, data: bytes, room: int) -> bytes:
        """At most `room + 1` bytes out of `data`: one more than fits tells the caller it overflowed."""
        if self._zlib is None:
            return data[: room + 1]
        out = bytearray()
        pending = data
        try:
            while pending and len(out) <= room:
                out += self._zlib.decompress(pending, room + 1 - len(out))
                pending = self._zlib.unconsumed_tail
                self._started = True
        except zlib.error as exc:
            if self._coding == "deflate" and not self._started:  # servers that send raw deflate
                self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                self._started = True
                return self.feed(data, room)
            raise Blocked("content_encoding", f"a corrupt {self._coding} body: {exc}") from exc
        return bytes(out)
