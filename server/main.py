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
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from .api.guards import RequestGuard, SecurityHeaders
from .api.openapi import allowed_methods, install_openapi_errors
from .api.routes import (
    admin,
    deadlines,
    games,
    health,
    messages,
    notifications,
    players,
    scenarios,
    session,
    users,
    ws,
)
from .config import Settings, get_settings
from .db import WalCheckpointer, asyncpg_dsn, create_engine, create_sessionmaker
from .errors import ApiError, Overloaded
from .gctune import GcPacer
from .notify.app import start_notify
from .realtime.broadcast import Broadcast, MemoryBackend, PostgresBackend
from .realtime.hub import GameHub
from .scenarios import load_scenarios
from .services.botplay import BotRunner
from .services.commandlog import close_pools as close_command_pools
from .services.wiring import GameServices

log = logging.getLogger(__name__)


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
            path = request.url.path
            message = f"No API route {path[:200]}." if path.startswith("/api/") else "No such route or resource."
        elif exc.status_code == 405:
            allowed = allowed_methods(request.app, request.url.path)
            message = f"{request.method} is not allowed on {request.url.path[:200]}; use {', '.join(allowed)}."
            return JSONResponse(
                {"error": "method_not_allowed", "message": message, "allowed": allowed},
                status_code=405, headers={"Allow": ", ".join(allowed)},
            )
        elif exc.status_code == 413:
            limit = request.app.state.settings.max_body_bytes
            message = f"Request bodies may be at most {limit} bytes."
            extra["limit"] = limit
        return JSONResponse(
            {"error": _error_code(exc.status_code), "message": message, **extra},
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    @app.exception_handler(PoolTimeout)
    async def _pool_dry(_request: Request, _exc: PoolTimeout) -> JSONResponse:
        # A burst drained the database pool (issue 38): a fast 503 the client retries, never a 500.
        busy = Overloaded("every database connection is busy")
        return JSONResponse(busy.body(), status_code=503, headers={"Retry-After": str(busy.extra["retry_after"])})

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

    @app.get("/players/{username}", include_in_schema=False)
    async def player_page(username: str) -> Any:
        return page("player.html")

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
        game_services = GameServices.build(registry, fixed_seed=settings.test_game_seed,
                                           snapshot_every=settings.snapshot_every,
                                           command_wait=settings.command_wait_seconds)
        backend = MemoryBackend() if settings.is_sqlite else PostgresBackend(asyncpg_dsn(settings.database_url))
        broadcast = Broadcast(backend)
        await broadcast.connect()
        hub = GameHub(broadcast, sessionmaker, game_services.store, game_services.spectators,
                      settings.notify_channel)
        await hub.start()
        notify = await start_notify(app, settings, sessionmaker, game_services, hub)
        bots = BotRunner(sessionmaker, game_services.commands, hub, budget_s=settings.bot_budget_seconds,
                         workers=settings.bot_workers)
        await bots.start()
        app.state.bots = bots
        app.state.engine = engine
        app.state.sessionmaker = sessionmaker
        app.state.scenarios = registry
        app.state.games = game_services
        app.state.broadcast = broadcast
        app.state.hub = hub
        pacer = GcPacer(settings.gc_full_collect_seconds, settings.gc_middle_threshold, settings.gc_young_threshold)
        pacer.start()
        app.state.gc_pacer = pacer
        checkpointer = (WalCheckpointer(str(engine.url.database), writer=game_services.writes.sqlite_writer)
                        if settings.is_sqlite else None)
        if checkpointer is not None:
            checkpointer.start()
        try:
            yield
        finally:
            if checkpointer is not None:
                await checkpointer.stop()
            await pacer.stop()
            await bots.stop()
            await notify.stop()
            await hub.stop()
            await broadcast.disconnect()
            await close_command_pools()
            await engine.dispose()

    app = FastAPI(
        title="Vedette",
        summary="Referee server for Musket & Saber Quick Play hex wargames",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.settings = settings
    install_error_handlers(app)
    for module in (users, session, scenarios, games, messages, admin, health, ws, notifications, deadlines, players):
        app.include_router(module.router)

    install_web_client(app, settings)
    install_openapi_errors(app)
    # Outermost last: the security headers wrap every answer, the guard's refusals included.
    app.add_middleware(RequestGuard, settings=settings)
    app.add_middleware(SecurityHeaders, process_name=settings.process_name)
    return app


def _module_app() -> FastAPI:
    return create_app()


app = _module_app()
