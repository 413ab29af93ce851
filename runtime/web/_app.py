"""The run viewer as an ASGI app (Starlette on anyio), and `serve`, which runs it under uvicorn."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources

from citeloop.events import UsageError, open_store
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ._routes import all_events, run_events, run_list, run_list_part, run_page, run_part
from ._security import LOOPBACK_NAMES, RequireToken, SecurityHeaders, is_loopback

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
_TOKEN = re.compile(r"[A-Za-z0-9._~-]{16,}")


def check_binding(host: str, token: str | None) -> None:
    """Refuse to serve beyond this machine without a token, and a token too weak or odd to carry in a URL."""
    if token is not None and not _TOKEN.fullmatch(token):
        raise UsageError("--token must be 16 or more of A-Z a-z 0-9 . _ ~ - (try: python -m secrets)")
    if token is None and not is_loopback(host):
        raise UsageError(f"--host {host} is reachable from other machines: give a --token too")


def create_app(store_url: str, *, host: str = DEFAULT_HOST, token: str | None = None) -> Starlette:
    """The viewer over the store at `store_url`, opened read-only for the app's lifetime.

    Bound to loopback, only requests naming a loopback host are served (a DNS-rebinding
    page cannot reach the app under another name); with `token`, every request needs it.
    """
    check_binding(host, token)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with open_store(store_url, readonly=True) as store:
            app.state.store = store
            yield

    static = resources.files("citeloop.runtime.web").joinpath("static")
    middleware = [Middleware(SecurityHeaders)]
    if is_loopback(host):
        names = [*LOOPBACK_NAMES, "[::1]", host]
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=names))
    if token is not None:
        middleware.append(Middleware(RequireToken, token=token))
    routes = [
        Route("/", run_list),
        Route("/part", run_list_part),
        Route("/events", all_events),
        Route("/runs/{run_id}", run_page),
        Route("/runs/{run_id}/part", run_part),
        Route("/runs/{run_id}/events", run_events),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


def serve(
    store_url: str, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, token: str | None = None
) -> None:
    """Serve the viewer until interrupted (uvicorn, asyncio)."""
    import uvicorn

    app = create_app(store_url, host=host, token=token)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
