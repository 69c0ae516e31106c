"""Request guards that run before any route (pure ASGI middleware), each the ONE place for its rule:

* `RequestGuard`: the body size limit (413) and NUL bytes (400 `bad_input`) in the path, the query,
  a header or the body — Postgres cannot store U+0000, so none may reach a query;
* `SecurityHeaders`: Content-Security-Policy, nosniff, Referrer-Policy on every response;
* CSRF: a state-changing request authenticated by the session cookie must come from this site
  (its Origin, else its Referer); otherwise 403 `cross_site_request`.

`contains_nul` is also what the websocket frame parser uses (server/api/routes/ws.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..config import Settings

# A JSON string escape for U+0000: "\u0000" preceded by an even number of backslashes
# ("\\u0000" is an escaped backslash followed by the text "u0000", which is harmless).
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
_JSON_NUL_TEXT = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")
_PERCENT_NUL = re.compile(rb"%00")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

# No inline script anywhere; style attributes are set by the client (SVG counters, panels), so
# style-src keeps 'unsafe-inline' (docs/api.md). Tokens travel in URLs: no Referer leaves the site.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
# FastAPI's interactive reference (/docs, /redoc) is one inline script plus its CDN bundle.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src 'self' https://fonts.gstatic.com; connect-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})


def contains_nul(data: bytes | str) -> bool:
    """True when `data` holds U+0000 raw or as a JSON escape."""
    if isinstance(data, str):
        return "\x00" in data or bool(_JSON_NUL_TEXT.search(data))
    return b"\x00" in data or bool(_JSON_NUL.search(data))


def nul_location(scope: Scope) -> str | None:
    """Where the request's path, query or headers carry a NUL byte (None: nowhere)."""
    if "\x00" in scope.get("path", "") or b"\x00" in scope.get("raw_path", b"") or b"%00" in scope.get(
        "raw_path", b""
    ):
        return "the path"
    query: bytes = scope.get("query_string", b"")
    if b"\x00" in query or _PERCENT_NUL.search(query):
        return "the query string"
    for name, value in scope.get("headers", ()):
        if b"\x00" in value or b"\x00" in name:
            return f"the {name.decode('latin-1', 'replace')} header"
    return None


def _bad_input(where: str) -> JSONResponse:
    return JSONResponse(
        {
            "error": "bad_input",
            "message": f"The request carries a NUL byte (\\u0000) in {where}; no field may contain one.",
        },
        status_code=400,
    )


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == wanted:
            return value.decode("latin-1")
    return None


def _cookie_names(scope: Scope) -> Iterable[str]:
    raw = _header(scope, b"cookie") or ""
    for part in raw.split(";"):
        name, _, _ = part.strip().partition("=")
        if name:
            yield name


def _has_bearer(scope: Scope) -> bool:
    scheme, _, value = (_header(scope, b"authorization") or "").partition(" ")
    return scheme.lower() == "bearer" and bool(value.strip())


def same_site(origin: str, host: str, settings: Settings) -> bool:
    """Whether `origin` (scheme://host[:port]) is this site: the request's own host or VEDETTE_BASE_URL."""
    parts = urlsplit(origin)
    if not parts.scheme or not parts.netloc:
        return False
    if host and parts.netloc.lower() == host.lower():
        return True
    return f"{parts.scheme}://{parts.netloc}".lower() in settings.allowed_origins


# Routes that set the session cookie: a forged login (login CSRF) is refused like a forged action.
_COOKIE_SETTING = frozenset({("POST", "/api/session"), ("POST", "/api/users")})


def csrf_refusal(scope: Scope, settings: Settings) -> str | None:
    """Why this request looks forged (None: it does not).

    Only state-changing requests that a browser would authenticate with the session cookie (no
    bearer token) are checked, and only against what the browser says: the Origin header, else
    the Referer. A request with neither (a script, an old browser) is let through."""
    method = scope.get("method", "GET")
    if method in SAFE_METHODS or _has_bearer(scope):
        return None
    if settings.session_cookie not in set(_cookie_names(scope)) and (method, scope.get("path")) not in _COOKIE_SETTING:
        return None
    host = _header(scope, b"host") or ""
    origin = _header(scope, b"origin")
    if origin is not None:
        if origin.strip().lower() == "null" or not same_site(origin.strip(), host, settings):
            return f"its Origin ({origin[:100]}) is not this site"
        return None
    referer = _header(scope, b"referer")
    if referer:
        parts = urlsplit(referer)
        if not same_site(f"{parts.scheme}://{parts.netloc}", host, settings):
            return "its Referer is not this site"
    return None


class RequestGuard:
    """Body size limit, NUL bytes and CSRF, before the app sees the request.

    The body (at most the limit, 64 KiB by default) is read up front and handed to the app
    afterwards, so an oversize body or one with a NUL byte is refused before any route sees a
    byte of it. Websocket handshakes with a NUL byte in the path, query or headers are refused
    (close 4400) before the route runs; frames are checked by the frame parser.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.limit = settings.max_body_bytes

    async def _refuse_size(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse(
            {
                "error": "body_too_large",
                "message": f"Request bodies may be at most {self.limit} bytes.",
                "limit": self.limit,
            },
            status_code=413,
        )
        await response(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            where = nul_location(scope)
            if where is not None:
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 4400, "reason": f"NUL byte in {where}"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        where = nul_location(scope)
        if where is not None:
            await _bad_input(where)(scope, receive, send)
            return
        forged = csrf_refusal(scope, self.settings)
        if forged is not None:
            response = JSONResponse(
                {
                    "error": "cross_site_request",
                    "message": f"Refused: a state-changing request with the session cookie must come from "
                    f"this site's own pages, and {forged}.",
                },
                status_code=403,
            )
            await response(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse_size(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        message: Message
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; let the app see that
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse_size(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                body = b"".join(chunks)
                if contains_nul(body) or (
                    b"%00" in body
                    and (_header(scope, b"content-type") or "").startswith("application/x-www-form-urlencoded")
                ):
                    await _bad_input("the body")(scope, receive, send)
                    return
                message = {"type": "http.request", "body": body, "more_body": False}
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return message
            return await receive()

        await self.app(scope, replay, send)


class SecurityHeaders:
    """The same security headers on every HTTP response (errors and static files included), and, when
    VEDETTE_PROCESS_NAME is set, `X-Vedette-Process` on every response and websocket handshake."""

    def __init__(self, app: ASGIApp, process_name: str | None = None) -> None:
        self.app = app
        self.process: list[tuple[bytes, bytes]] = (
            [(b"x-vedette-process", process_name.encode())] if process_name else []
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.process:
            async def accept_with_name(message: Message) -> None:
                if message["type"] == "websocket.accept":
                    message = {**message, "headers": [*message.get("headers", ()), *self.process]}
                await send(message)

            await self.app(scope, receive, accept_with_name)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = (DOCS_CSP if scope.get("path") in DOCS_PATHS else CSP).encode()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = [
                    (k, v) for k, v in message.get("headers", ())
                    if k.lower() not in _OURS
                ]
                headers += [
                    (b"content-security-policy", csp),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    *self.process,
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


_OURS = frozenset({b"content-security-policy", b"x-content-type-options", b"referrer-policy", b"x-frame-options",
                   b"x-vedette-process"})
