"""Deadlines (clock, claim, extend, pause) and standing orders of one game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ...errors import ApiError
from ...models import utcnow
from ...notify.models import StandingOrders
from ...services.access import require_seat, resolve_viewer
from ...services.engine import rules
from ..deps import (
    CurrentUser,
    HubDep,
    InviteToken,
    OptionalUser,
    SessionDep,
    StoreDep,
    WatchToken,
)
from .notifications import notify_of

router = APIRouter(prefix="/api/games", tags=["asynchronous play"])


class ExtendRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hours: int | None = Field(default=None, ge=1, le=24 * 30)


class PauseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    days: int = Field(ge=1, le=60)


@router.get("/{game_id}/clock")
async def get_clock(game_id: str, request: Request, user: OptionalUser, session: SessionDep,
                    store: StoreDep, watch: WatchToken = None, invite: InviteToken = None) -> dict[str, Any]:
    """The time per decision, the running deadline, overdue state and pause (spectators of a
    private game show its watch token, as for the game itself)."""
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user, watch_token=watch, invite_token=invite)
    return await notify_of(request).clocks.state(session, game_id, user)


@router.post("/{game_id}/claim")
async def claim(game_id: str, request: Request, user: CurrentUser, session: SessionDep,
                store: StoreDep) -> dict[str, Any]:
    """The waiting player's opponent claims the win once the decision is overdue."""
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user)
    return await notify_of(request).clocks.claim(session, game_id, user)


@router.post("/{game_id}/extend")
async def extend(game_id: str, request: Request, user: CurrentUser, session: SessionDep,
                 store: StoreDep, body: ExtendRequest | None = None) -> dict[str, Any]:
    """Grant the player who must decide more time (default: one more decision period)."""
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user)
    return await notify_of(request).clocks.extend(session, game_id, user, body.hours if body else None)


@router.post("/{game_id}/pause")
async def request_pause(game_id: str, body: PauseRequest, request: Request, user: CurrentUser,
                        session: SessionDep, store: StoreDep) -> dict[str, Any]:
    """Ask for a pause (vacation) of `days`; the opponent accepts with POST .../pause/accept."""
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user)
    return await notify_of(request).clocks.request_pause(session, game_id, user, body.days)


@router.post("/{game_id}/pause/accept")
async def accept_pause(game_id: str, request: Request, user: CurrentUser, session: SessionDep,
                       store: StoreDep) -> dict[str, Any]:
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user)
    return await notify_of(request).clocks.answer_pause(session, game_id, user, accept=True)


@router.post("/{game_id}/pause/decline")
async def decline_pause(game_id: str, request: Request, user: CurrentUser, session: SessionDep,
                        store: StoreDep) -> dict[str, Any]:
    """The opponent declines, or the asker withdraws, a pause request."""
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user)
    return await notify_of(request).clocks.answer_pause(session, game_id, user, accept=False)


@router.post("/{game_id}/resume")
async def resume(game_id: str, request: Request, user: CurrentUser, session: SessionDep,
                 store: StoreDep) -> dict[str, Any]:
    """End a running pause early (either player)."""
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user)
    return await notify_of(request).clocks.resume(session, game_id, user)


@router.get("/{game_id}/standing-orders")
async def get_orders(game_id: str, user: CurrentUser, session: SessionDep, store: StoreDep) -> dict[str, Any]:
    """Your own standing orders in this game (never your opponent's)."""
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user)
    side = require_seat(row, user)
    stored = await session.get(StandingOrders, (game_id, side))
    orders = rules().validate_orders(stored.orders if stored else {})
    return {"side": side, "orders": orders,
            "choices": {name: list(values) for name, (_, values) in rules().STANDING_ORDERS.items()}}


@router.put("/{game_id}/standing-orders")
async def put_orders(game_id: str, body: dict[str, Any], request: Request, user: CurrentUser,
                     session: SessionDep, store: StoreDep, hub: HubDep) -> dict[str, Any]:
    """Set answers in advance, e.g. {"retreat": "longest_safe", "advance": "never"}; "ask" = ask me.
    While you have no game window open, a decision they cover is taken for you (and logged). 409 `game_over`
    once the battle has ended."""
    row = await store.get_row(session, game_id)
    resolve_viewer(row, user)
    side = require_seat(row, user)
    if row.status == "over":
        # No decision is left for them to answer: a saved change would pretend otherwise (the page says so too).
        raise ApiError(409, "game_over", "The battle is over: its standing orders can no longer be changed.")
    try:
        orders = rules().validate_orders(body)
    except ValueError as exc:
        raise ApiError(422, "bad_standing_orders", str(exc)) from None
    rt = notify_of(request)
    async with rt.writing(session):
        stored = await session.get(StandingOrders, (game_id, side), populate_existing=True)
        if stored is None:
            session.add(StandingOrders(game_id=game_id, side=side, orders=orders, updated_at=utcnow()))
        else:
            stored.orders = orders
            stored.updated_at = utcnow()
        await session.commit()
    if row.status == "active":
        rt.request_settle(game_id)
    return {"side": side, "orders": orders}
