from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ...services.access import resolve_viewer
from ...services.views import build_summary, build_view
from ..deps import AdminUser, LobbyDep, SessionDep, SpectatorsDep, StoreDep

router = APIRouter(prefix="/api/admin", tags=["admin"])


@router.get("/games")
async def all_games(
    admin: AdminUser,
    session: SessionDep,
    lobby: LobbyDep,
    store: StoreDep,
    spectators: SpectatorsDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
    views: Annotated[bool, Query(description="Include each game's full (admin) view")] = True,
) -> dict[str, Any]:
    """Every game, newest activity first, each with the full admin view, except the games the
    admin plays: there it is a player, with its own side's view (`viewer` says which)."""
    out = []
    for row in await lobby.all_games(session, limit, offset):
        viewer = resolve_viewer(row, admin)  # a seat first: a seated admin gets no peek at the enemy
        item = build_summary(row, admin.id)
        item["viewer"] = viewer.label
        item["invite_token"] = row.invite_token
        item["watch_token"] = row.watch_token
        if views:
            try:
                engine_game = await store.engine_at(session, row)
                watching = await spectators.spectator_count(session, row.id)
                item["view"] = build_view(row, engine_game, viewer, spectators=watching)
            except Exception as exc:  # one damaged game must not hide the others
                item["view"] = None
                item["view_error"] = type(exc).__name__
        out.append(item)
    return {"games": out, "limit": limit, "offset": offset}
