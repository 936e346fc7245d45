"""Routes for the console and GraphiQL pages, their own files and the vendored libraries,
each answered with a strict Content-Security-Policy: scripts only from this origin (no inline
script, no eval), so memory content a page shows can never run as code."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from graphmem.console.assets import MISSING_HINT, STATIC, vendor_file

_BASE = ("default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; "
         "font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
CONSOLE_CSP = f"{_BASE}; style-src 'self'"
# GraphiQL's components set <style> elements at run time; scripts stay 'self' only.
GRAPHIQL_CSP = f"{_BASE}; style-src 'self' 'unsafe-inline'"
_COMMON = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Cross-Origin-Opener-Policy": "same-origin"}


def _page(name: str, csp: str) -> Response:
    return FileResponse(STATIC / name, media_type="text/html", headers={
        **_COMMON, "Content-Security-Policy": csp, "Cache-Control": "no-store"})


async def _console(request: Request) -> Response:
    return _page("index.html", CONSOLE_CSP)


async def _own(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in _own_files():
        return PlainTextResponse("not found", status_code=404)
    return FileResponse(STATIC / name, headers={**_COMMON, "Cache-Control": "no-cache"})


def _own_files() -> set[str]:
    return {p.name for p in STATIC.iterdir() if p.suffix in (".js", ".css")}


async def _vendor(request: Request) -> Response:
    path = vendor_file(request.path_params["name"])
    if path is None:
        return PlainTextResponse(f"not found ({MISSING_HINT})", status_code=404)
    return FileResponse(path, headers={**_COMMON, "Cache-Control": "public, max-age=3600"})


async def _home(request: Request) -> Response:
    return RedirectResponse("/console", status_code=302)


async def graphiql(scope: Scope, receive: Receive, send: Send) -> None:
    """The GraphiQL page (GET /graphql without a query): an ASGI app for the GraphQL route."""
    await _page("graphiql.html", GRAPHIQL_CSP)(scope, receive, send)


def routes() -> list[BaseRoute]:
    return [
        Route("/", _home),
        Route("/console", _console),
        Route("/console/static/{name}", _own),
        Route("/console/vendor/{name}", _vendor),
    ]
