"""The guarded fetch against loopback servers: pages, redirectors, a slow server, an endless body, a bomb.

Names resolve through a stub resolver (a table), so "private.test" can resolve to 10.0.0.1
without any connection being attempted: the guard refuses before connecting.
"""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from citeloop.tools._web_fetch import FetchLimits, _Inflater, fetch
from citeloop.tools._web_guard import Blocked, GuardOptions
from helpers.web_pages import BOMB_SIZE, PAGE, PageServer, ipv6_loopback_available, page_server, self_signed

pytestmark = pytest.mark.anyio

TRUSTED = GuardOptions(allow_http=True, allow_hosts=frozenset({"127.0.0.1", "pages.test", "::1"}))
QUICK = FetchLimits(timeout=2.0, max_bytes=1_000_000, max_decoded=1_000_000)


class StubResolver:
    """Resolves from a table and counts the lookups (a fetch must look a name up once per hop)."""

    def __init__(self, table: dict[str, Sequence[str]]) -> None:
        self.table = table
        self.lookups: list[str] = []

    async def __call__(self, host: str, port: int) -> Sequence[str]:
        self.lookups.append(host)
        if host not in self.table:
            raise OSError(f"stub resolver: no such name {host}")
        return self.table[host]


def stub() -> StubResolver:
    return StubResolver(
        {
            "pages.test": ["127.0.0.1"],
            "private.test": ["10.0.0.1"],
            "mixed.test": ["93.184.216.34", "127.0.0.1"],
            "mapped.test": ["::ffff:127.0.0.1"],
            "metadata.test": ["169.254.169.254"],
        }
    )


@pytest.fixture
def server() -> Iterator[PageServer]:
    with page_server() as running:
        yield running


async def refused(url: str, guard: GuardOptions = TRUSTED, limits: FetchLimits = QUICK) -> str:
    with pytest.raises(Blocked) as caught:
        await fetch(url, guard, limits, stub())
    return caught.value.code


async def test_a_page_is_fetched_with_its_identity(server: PageServer) -> None:
    fetched = await fetch(f"{server.base}/page", TRUSTED, QUICK, stub())
    assert fetched.status == 200
    assert fetched.media_type == "text/html"
    assert fetched.charset == "utf-8"
    assert fetched.body == PAGE.encode()
    assert fetched.url == f"{server.base}/page"
    assert len(fetched.sha256) == 64


async def test_a_name_is_resolved_once_and_kept_in_the_host_header(server: PageServer) -> None:
    resolver = stub()
    fetched = await fetch(f"http://pages.test:{server.port}/page", TRUSTED, QUICK, resolver)
    assert fetched.body == PAGE.encode()
    assert resolver.lookups == ["pages.test"]
    assert server.seen_hosts == [f"pages.test:{server.port}"]


async def test_redirects_are_followed_and_the_final_url_kept(server: PageServer) -> None:
    fetched = await fetch(f"{server.base}/chain/3", TRUSTED, QUICK, stub())
    assert fetched.url == f"{server.base}/page"
    assert len(fetched.redirects) == 4


async def test_a_redirect_to_a_trusted_name_is_resolved_and_followed(server: PageServer) -> None:
    fetched = await fetch(f"{server.base}/to-trusted-name", TRUSTED, QUICK, stub())
    assert fetched.url == f"http://pages.test:{server.port}/page"


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/to-blocked", "blocked: private_address"),
        ("/to-metadata", "blocked: private_address"),
        ("/to-decimal", "blocked: private_address"),
        ("/to-private-name", "blocked: private_address"),
        ("/to-file", "blocked: scheme"),
        ("/to-gopher", "blocked: scheme"),
        ("/loop", "too_many_redirects"),
        ("/chain/5", "too_many_redirects"),
        ("/no-location", "bad_redirect"),
        ("/pdf", "content_type: pdf"),
        ("/json", "content_type"),
        ("/missing", "http_status"),
        ("/slow", "timeout"),
    ],
)
async def test_each_trap_is_refused_with_its_code(server: PageServer, path: str, code: str) -> None:
    # One second only where the timeout is the trap: a loaded CI machine took longer than that to
    # follow five redirects on loopback, and the chain was refused as "timeout".
    limits = FetchLimits(timeout=1.0 if code == "timeout" else 15.0, max_bytes=1_000_000, max_decoded=100_000)
    assert await refused(f"{server.base}{path}", limits=limits) == code


# asyncio only: httpx's response streams are async generators that trio warns about when a
# body is cut short (encode/httpx#3686); the fetch closes what it holds, the rest is httpx's.
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("path", ["/endless", "/bomb", "/declared-large"])
async def test_a_body_over_a_cap_is_cut_short(server: PageServer, path: str) -> None:
    limits = FetchLimits(timeout=5.0, max_bytes=1_000_000, max_decoded=100_000)
    assert await refused(f"{server.base}{path}", limits=limits) == "too_large"


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_a_declared_length_over_the_wire_cap_is_refused_before_reading(server: PageServer) -> None:
    limits = FetchLimits(timeout=5.0, max_bytes=1000, max_decoded=100_000)
    with pytest.raises(Blocked) as caught:
        await fetch(f"{server.base}/declared-large", TRUSTED, limits, stub())
    # The declared length refused it, not the streaming cap (which would say "on the wire").
    assert caught.value.code == "too_large" and "Content-Length" in caught.value.message


async def test_a_redirect_to_plain_http_is_refused_when_http_is_not_enabled(server: PageServer) -> None:
    # The first hop is an allowed https URL on a trusted name; its redirect must be checked again.
    guard = GuardOptions(allow_hosts=frozenset({"127.0.0.1"}))
    assert await refused(f"{server.base}/page", guard) == "blocked: scheme"


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://private.test/", "blocked: private_address"),
        ("http://mixed.test/", "blocked: private_address"),  # one private address among public ones
        ("http://mapped.test/", "blocked: private_address"),
        ("http://metadata.test/", "blocked: private_address"),
        ("http://unknown.test/", "unresolvable"),
        ("http://127.0.0.2/", "blocked: private_address"),
        ("http://localhost/", "blocked: private_address"),
    ],
)
async def test_names_resolving_to_private_addresses_are_refused_unconnected(url: str, code: str) -> None:
    assert await refused(url) == code


async def test_a_loopback_server_is_refused_unless_trusted(server: PageServer) -> None:
    assert await refused(f"{server.base}/page", GuardOptions(allow_http=True)) == "blocked: private_address"


async def test_gzip_and_deflate_bodies_are_decompressed(server: PageServer) -> None:
    for path in ("/gzip", "/deflate"):
        fetched = await fetch(f"{server.base}{path}", TRUSTED, QUICK, stub())
        assert fetched.body == PAGE.encode()
        assert fetched.wire_bytes < len(PAGE)


def test_the_inflater_never_produces_more_than_the_room_it_is_given() -> None:
    bomb = gzip.compress(b"\0" * BOMB_SIZE, compresslevel=9)
    inflater = _Inflater("gzip")
    out = inflater.feed(bomb, 100_000)
    assert len(out) == 100_001  # one byte over tells the caller it overflowed; never the 50 MB


async def test_an_ipv6_loopback_server_is_fetched_when_trusted() -> None:
    if not ipv6_loopback_available():
        pytest.skip("no IPv6 loopback here")
    with page_server("::1") as running:
        fetched = await fetch(f"{running.base}/page", TRUSTED, QUICK, stub())
        assert fetched.body == PAGE.encode()
        with pytest.raises(Blocked):
            await fetch(f"{running.base}/page", GuardOptions(allow_http=True), QUICK, stub())


async def test_https_to_the_checked_address_keeps_the_name_for_sni_and_the_certificate(
    tmp_path: Path,
) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make a test certificate")
    server_tls, client_tls = self_signed(tmp_path, "pages.test")
    guard = GuardOptions(allow_hosts=frozenset({"pages.test", "127.0.0.1"}))
    with page_server(tls=server_tls) as running:
        resolver = stub()
        url = f"https://pages.test:{running.port}/page"
        fetched = await fetch(url, guard, QUICK, resolver, client_tls)
        assert fetched.body == PAGE.encode()
        assert resolver.lookups == ["pages.test"]  # connected to 127.0.0.1 without a second lookup
        assert running.server_names == ["pages.test"]  # the TLS server name is the host, not the address
        assert running.seen_hosts == [f"pages.test:{running.port}"]
        # The certificate is still checked against the name: the address itself does not match it.
        with pytest.raises(Blocked) as caught:
            await fetch(f"https://127.0.0.1:{running.port}/page", guard, QUICK, stub(), client_tls)
        assert caught.value.code == "unreachable"
