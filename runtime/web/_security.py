"""The app's guards: security headers on every response, an optional token, loopback by default.

Everything the pages show comes from a log, which is untrusted (page bodies, questions,
model replies): the templates escape it, and the Content-Security-Policy makes sure that
even a slip could not run a script — only the app's own script file may run, and nothing
may load from elsewhere.
"""

from __future__ import annotations

import hmac
import ipaddress
from http.cookies import SimpleCookie
from typing import Final
from urllib.parse import parse_qs, parse_qsl, quote, urlencode

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS: Final = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
TOKEN_COOKIE: Final = "citeloop_token"
LOOPBACK_NAMES: Final = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    """Whether binding to `host` keeps the app on this machine."""
    if host.strip("[]") in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class SecurityHeaders:
    """Adds `HEADERS` to every HTTP response the wrapped app sends."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def _presented(scope: Scope) -> tuple[str | None, bool]:
    """The token a request carries (header, cookie or `?token=`), and whether it came in the query."""
    headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope.get("headers", [])}
    authorization = headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip(), False
    cookie = SimpleCookie(headers.get("cookie", ""))
    if TOKEN_COOKIE in cookie:
        return cookie[TOKEN_COOKIE].value, False
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    given = query.get("token")
    return (given[0], True) if given else (None, False)


class RequireToken:
    """Refuses (401) every request without the token; a `?token=` link sets a cookie and redirects."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given, from_query = _presented(scope)
        if given is None or not hmac.compare_digest(given.encode(), self.token):
            body = b"citeloop serve: this viewer needs its token (open the link `citeloop serve` printed)\n"
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        if not from_query:
            await self.app(scope, receive, send)
            return
        # A link carrying the token: keep it in a cookie and send the browser on without it,
        # so that it stays out of the address bar and the history.
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
        kept = [(key, value) for key, value in query if key != "token"]
        # One leading slash: `//host` would send the browser to another site.
        location = "/" + quote(scope.get("path", "/").lstrip("/")) + (f"?{urlencode(kept)}" if kept else "")
        cookie = f"{TOKEN_COOKIE}={given}; HttpOnly; SameSite=Strict; Path=/".encode()
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [(b"location", location.encode("latin-1")), (b"set-cookie", cookie), *HEADERS],
            }
        )
        await send({"type": "http.response.body", "body": b""})
