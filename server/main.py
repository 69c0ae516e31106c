"""The FastAPI application: `create_app(settings)` and the module-level `app` uvicorn serves."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .api.routes import admin, games, health, scenarios, session, users, ws
from .notify.app import routers as notify_routers
from .notify.app import start_notify
from .config import Settings, get_settings
from .db import asyncpg_dsn, create_engine, create_sessionmaker
from .errors import ApiError
from .gctune import GcPacer
from .realtime.broadcast import Broadcast, MemoryBackend, PostgresBackend
from .realtime.hub import GameHub
from .scenarios import load_scenarios
from .services.games import GameService

log = logging.getLogger(__name__)


class BodySizeLimit:
    """413 JSON for a request body over the limit, declared or streamed.

    The body (at most the limit, 64 KiB by default) is read up front and
    handed to the app afterwards, so an oversize body is refused before any
    route sees a byte of it.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
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
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; let the app see that
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return message
            return await receive()

        await self.app(scope, replay, send)


def _error_code(status: int) -> str:
    return {
        400: "bad_request",
        401: "not_authenticated",
        403: "forbidden",
        404: "not_found",
        405: "method_not_allowed",
        413: "body_too_large",
        415: "unsupported_media_type",
    }.get(status, "http_error")


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(exc.extra["retry_after"])} if "retry_after" in exc.extra else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        fields = []
        for err in exc.errors():
            loc = [str(p) for p in err.get("loc", ())]
            problem = err.get("msg", "invalid")
            if err.get("type") == "json_invalid":
                problem = f"the body is not valid JSON ({err.get('ctx', {}).get('error', 'syntax error')})"
                loc = ["body"]
            fields.append({"field": ".".join(loc), "problem": problem})
        names = ", ".join(sorted({f["field"] for f in fields}))
        return JSONResponse(
            {"error": "invalid_request", "message": f"Invalid request: {names}.", "fields": fields},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "Request refused."
        extra: dict[str, Any] = {}
        if exc.status_code == 404:
            message = "No such route or resource."
        elif exc.status_code == 413:
            limit = request.app.state.settings.max_body_bytes
            message = f"Request bodies may be at most {limit} bytes."
            extra["limit"] = limit
        return JSONResponse(
            {"error": _error_code(exc.status_code), "message": message, **extra},
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse(
            {"error": "internal_error", "message": "The server failed; this is a bug."},
            status_code=500,
        )


_MISSING_CLIENT = """<!doctype html><meta charset="utf-8"><title>Vedette</title>
<h1>Vedette</h1><p>The web client is not installed (web/index.html is missing).
The API is at <a href="/docs">/docs</a>.</p>"""


def install_web_client(app: FastAPI, settings: Settings) -> None:
    web = settings.web_dir

    def page(name: str, fallback: str = "index.html") -> Any:
        for candidate in (name, fallback):
            path = web / candidate
            if path.is_file():
                return FileResponse(path, media_type="text/html")
        return HTMLResponse(_MISSING_CLIENT)

    @app.get("/", include_in_schema=False)
    async def index() -> Any:
        return page("index.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Any:
        return page("game.html")

    @app.get("/admin", include_in_schema=False)
    async def admin_page() -> Any:
        return page("admin.html")

    if web.is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_engine(settings)
        sessionmaker = create_sessionmaker(engine)
        registry = load_scenarios(settings.scenarios_dir)
        service = GameService(registry, fixed_seed=settings.test_game_seed)
        backend = MemoryBackend() if settings.is_sqlite else PostgresBackend(asyncpg_dsn(settings.database_url))
        broadcast = Broadcast(backend)
        await broadcast.connect()
        hub = GameHub(broadcast, sessionmaker, service, settings.notify_channel)
        await hub.start()
        notify = await start_notify(app, settings, sessionmaker, service, hub)
        app.state.engine = engine
        app.state.sessionmaker = sessionmaker
        app.state.scenarios = registry
        app.state.service = service
        app.state.broadcast = broadcast
        app.state.hub = hub
        pacer = GcPacer(settings.gc_full_collect_seconds)
        pacer.start()
        app.state.gc_pacer = pacer
        try:
            yield
        finally:
            await pacer.stop()
            await notify.stop()
            await hub.stop()
            await broadcast.disconnect()
            await engine.dispose()

    app = FastAPI(
        title="Vedette",
        summary="Referee server for Musket & Saber Quick Play hex wargames",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.settings = settings
    install_error_handlers(app)
    for module in (users, session, scenarios, games, admin, health, ws):
        app.include_router(module.router)
    for router in notify_routers():
        app.include_router(router)

    @app.api_route("/api/{path:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
    async def unknown_api_route(path: str) -> JSONResponse:
        return JSONResponse({"error": "not_found", "message": f"No API route /api/{path}."}, status_code=404)

    install_web_client(app, settings)
    app.add_middleware(BodySizeLimit, limit=settings.max_body_bytes)
    return app


def _module_app() -> FastAPI:
    return create_app()


app = _module_app()
