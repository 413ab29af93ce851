"""A loopback HTTP server with the pages the web `open` tests need: good pages, redirectors, traps.

It runs `http.server` in a thread on 127.0.0.1 (or ::1), port 0. Every route is in `_ROUTES`;
the redirectors name other hosts only in a Location header, which the guard must refuse
before any connection is made.
"""

from __future__ import annotations

import gzip
import socket
import ssl
import subprocess
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PAGE = (
    "<html><head><title>Mushrooms of the Alps</title></head><body>"
    "<h1>Mushrooms</h1><p>The chanterelle grows under spruce.</p>"
    "<dl><dt>cep</dt><dd>Boletus edulis</dd></dl></body></html>"
)
# Declared UTF-8, sent as Windows-1252: the text must still read "café" and "naïve".
WRONG_CHARSET = "<html><head><title>Café</title></head><body><p>A naïve café, open daily.</p></body></html>"
BOMB_SIZE = 50_000_000


@dataclass
class PageServer:
    """A running server: its base URL, the Host headers it saw, and a switch that releases slow handlers."""

    host: str
    port: int
    seen_hosts: list[str] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    scheme: str = "http"
    server_names: list[str | None] = field(default_factory=list)  # the TLS SNI of each handshake

    @property
    def base(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{shown}:{self.port}"


def _page(handler: _Handler) -> None:
    handler.reply(200, "text/html; charset=utf-8", PAGE.encode())


def _plain(handler: _Handler) -> None:
    handler.reply(200, "text/plain", b"line one\nline two\n")


def _wrong_charset(handler: _Handler) -> None:
    handler.reply(200, "text/html; charset=utf-8", WRONG_CHARSET.encode("cp1252"))


def _gzip_page(handler: _Handler) -> None:
    handler.reply(200, "text/html", gzip.compress(PAGE.encode()), {"Content-Encoding": "gzip"})


def _deflate_page(handler: _Handler) -> None:
    handler.reply(200, "text/html", zlib.compress(PAGE.encode()), {"Content-Encoding": "deflate"})


def _bomb(handler: _Handler) -> None:
    body = gzip.compress(b"\0" * BOMB_SIZE, compresslevel=9)
    handler.reply(200, "text/html", body, {"Content-Encoding": "gzip"})


def _endless(handler: _Handler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.end_headers()
    chunk = b"x" * 65536
    try:
        while not handler.state.release.is_set():
            handler.wfile.write(chunk)
    except OSError:
        return  # the client hung up: what the cap is for


def _slow(handler: _Handler) -> None:
    handler.state.release.wait(30)


def _redirect(location: Callable[[_Handler], str], status: int = 302) -> Callable[[_Handler], None]:
    def route(handler: _Handler) -> None:
        handler.reply(status, "text/plain", b"", {"Location": location(handler)})

    return route


def _chain(handler: _Handler) -> None:
    left = int(handler.path.rsplit("/", 1)[1])
    target = "/page" if left == 0 else f"/chain/{left - 1}"
    handler.reply(301, "text/plain", b"", {"Location": target})


_ROUTES: dict[str, Callable[[_Handler], None]] = {
    "/page": _page,
    "/plain": _plain,
    "/wrong-charset": _wrong_charset,
    "/gzip": _gzip_page,
    "/deflate": _deflate_page,
    "/bomb": _bomb,
    "/endless": _endless,
    "/slow": _slow,
    "/pdf": lambda h: h.reply(200, "application/pdf", b"%PDF-1.4\n"),
    "/json": lambda h: h.reply(200, "application/json", b"{}"),
    "/missing": lambda h: h.reply(404, "text/html", b"<p>gone</p>"),
    "/declared-large": lambda h: h.reply(200, "text/html", b"x" * 200_000),
    "/to-page": _redirect(lambda h: "/page"),
    "/to-blocked": _redirect(lambda h: "http://127.0.0.2/"),
    "/to-metadata": _redirect(lambda h: "http://169.254.169.254/latest/meta-data/", 307),
    "/to-decimal": _redirect(lambda h: "http://2130706434/"),
    "/to-file": _redirect(lambda h: "file:///etc/passwd"),
    "/to-gopher": _redirect(lambda h: "gopher://127.0.0.1:6379/_INFO"),
    "/to-private-name": _redirect(lambda h: f"http://private.test:{h.state.port}/page"),
    "/to-trusted-name": _redirect(lambda h: f"http://pages.test:{h.state.port}/page"),
    "/loop": _redirect(lambda h: "/loop"),
    "/no-location": lambda h: h.reply(302, "text/plain", b""),
}


class _Handler(BaseHTTPRequestHandler):
    state: PageServer

    def log_message(self, format: str, *args: object) -> None:  # quiet
        return

    def do_GET(self) -> None:
        self.state.seen_hosts.append(self.headers.get("Host", ""))
        path = self.path.split("?", 1)[0]
        route = _chain if path.startswith("/chain/") else _ROUTES.get(path)
        if route is None:
            self.reply(404, "text/plain", b"no such page")
            return
        route(self)

    def reply(
        self, status: int, content_type: str, body: bytes, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            return


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False


class _Server6(_Server):
    address_family = socket.AF_INET6


@contextmanager
def page_server(host: str = "127.0.0.1", tls: ssl.SSLContext | None = None) -> Iterator[PageServer]:
    """Serve the routes on `host` (127.0.0.1 or ::1), port 0, until the block ends; https with `tls`."""
    assert host in ("127.0.0.1", "::1"), "the tests serve on loopback only"
    server_class = _Server6 if ":" in host else _Server
    state = PageServer(host=host, port=0, scheme="https" if tls else "http")
    handler = type("Handler", (_Handler,), {"state": state})
    server = server_class((host, 0), handler)
    if tls is not None:

        def seen(sock: ssl.SSLObject | ssl.SSLSocket, name: str | None, context: ssl.SSLContext) -> None:
            state.server_names.append(name)

        tls.sni_callback = seen
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def ipv6_loopback_available() -> bool:
    """Whether ::1 can be bound here (some containers have no IPv6)."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def self_signed(folder: Path, name: str) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a self-signed certificate for `name`, and a client context trusting only it.

    Made by the `openssl` command (the caller skips when it is missing).
    """
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={name}",
            "-addext",
            f"subjectAltName=DNS:{name}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    client = ssl.create_default_context(cafile=str(cert))
    return server, client
