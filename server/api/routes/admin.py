from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from ...services.access import resolve_viewer
from ...services.views import build_summary, build_view
from ..deps import AdminUser, HubDep, LobbyDep, SessionDep, SpectatorsDep, StoreDep, TableDep

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
            except Exception as exc:  # noqa: BLE001 one damaged game must not hide the others
                item["view"] = None
                item["view_error"] = type(exc).__name__
        out.append(item)
    return {"games": out, "limit": limit, "offset": offset}


@router.get("/games/{game_id}/messages")
async def game_messages(
    game_id: str, admin: AdminUser, session: SessionDep, store: StoreDep, table: TableDep,
) -> dict[str, Any]:
    """Every message of a game, both channels, removed ones marked. The players' private notes are not here:
    nobody but their author reads them, the admin included (docs/rulings.md "Messages in a game")."""
    await store.get_row(session, game_id, light=True)
    return {"game_id": game_id, "messages": await table.admin_listing(session, game_id)}


@router.delete("/messages/{message_id}")
async def remove_message(
    message_id: Annotated[int, Path(ge=1, le=2**31 - 1)], admin: AdminUser, session: SessionDep, store: StoreDep, table: TableDep, hub: HubDep,
) -> dict[str, Any]:
    """Remove a message from every reader's sight; the pages that showed it read their messages anew."""
    message = await table.remove(session, message_id)
    game_id, channel, removed_at = message.game_id, message.channel, message.removed_at
    row = await store.get_row(session, game_id, light=True)
    await hub.publish_chat(game_id, channel, row.status == "over")
    return {"id": message_id, "game_id": game_id, "removed": True, "removed_at": removed_at}
