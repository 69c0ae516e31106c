from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text

from ..deps import RegistryDep, SessionDep

router = APIRouter(tags=["health"])


_DEGRADED = {503: {"description": 'The database is unreachable or unmigrated (the same body, "status": "degraded")'}}


@router.get("/healthz", responses=_DEGRADED)
async def healthz(request: Request, session: SessionDep, registry: RegistryDep) -> JSONResponse:
    """Liveness plus the database state (reachable, schema version)."""
    body: dict[str, Any] = {
        "status": "ok",
        "scenarios": len(registry),
        "broadcast": request.app.state.broadcast.backend_name,
        "connections": request.app.state.hub.connection_count(),
    }
    process = request.app.state.settings.process_name
    if process:
        body["process"] = process  # VEDETTE_PROCESS_NAME: which process behind the proxy answered
    try:
        revision = await session.scalar(text("SELECT version_num FROM alembic_version"))
        body["database"] = {"ok": True, "backend": session.bind.dialect.name, "schema": revision}
        status = 200
    except Exception as exc:  # noqa: BLE001 the point of this route is to report it, not to fail
        body["status"] = "degraded"
        body["database"] = {"ok": False, "error": type(exc).__name__, "hint": "run `vedette migrate`"}
        status = 503
    return JSONResponse(body, status_code=status)
