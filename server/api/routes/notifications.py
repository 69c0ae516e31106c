"""Mail preferences, the login-free unsubscribe link, and "your move" counts for the client."""

from __future__ import annotations

import html
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from ...errors import ApiError
from ...models import Game, GameSeat, User
from ...notify.clocks import clock_json, is_overdue
from ...notify.models import GameClock, NotificationPrefs
from ...notify.prefs import prefs_json, set_prefs
from ...notify.runtime import Notify
from ...notify.tokens import read_unsubscribe_token
from ..deps import CurrentUser, SessionDep, SettingsDep

router = APIRouter(tags=["notifications"])


class PrefsUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mode: Literal["every", "digest", "none"]
    digest_hours: int | None = Field(default=None, ge=1, le=24 * 14)


def notify_of(request: Request) -> Notify:
    rt: Notify | None = getattr(request.app.state, "notify", None)
    if rt is None:
        raise ApiError(503, "notifications_unavailable", "Notifications are not running.")
    return rt


@router.get("/api/me/notifications")
async def get_prefs(request: Request, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """Your mail preference: every decision, a digest at most every N hours, or none."""
    rt = notify_of(request)
    prefs = await session.get(NotificationPrefs, user.id)
    return {**prefs_json(prefs, rt.nsettings.default_digest_hours), "email": user.email}


@router.put("/api/me/notifications")
async def put_prefs(request: Request, body: PrefsUpdate, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    rt = notify_of(request)
    async with rt.writing(session):
        prefs = await set_prefs(session, user.id, body.mode, body.digest_hours, rt.now(),
                                rt.nsettings.default_digest_hours)
        await session.commit()
    rt.worker_wake()
    return {**prefs_json(prefs, rt.nsettings.default_digest_hours), "email": user.email}


_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Vedette: {title}</title>
<body style="font-family: sans-serif; max-width: 36em; margin: 3em auto; line-height: 1.5">
<h1>{title}</h1><p>{text}</p><p><a href="/">Back to Vedette</a></p></body></html>"""


def _wants_json(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


async def _unsubscribe(request: Request, session: Any, settings: Any, token: str) -> Any:
    rt = notify_of(request)
    user_id = read_unsubscribe_token(settings.secret_key, token)
    if user_id is None:
        if _wants_json(request):
            raise ApiError(404, "bad_token", "This unsubscribe link is not valid.")
        page = _PAGE.format(title="Link not valid", text="This unsubscribe link is not valid.")
        return HTMLResponse(page, status_code=404)
    user = await session.get(User, user_id)
    if user is None:
        raise ApiError(404, "bad_token", "This unsubscribe link is not valid.")
    async with rt.writing(session):
        await set_prefs(session, user_id, "none", None, rt.now(), rt.nsettings.default_digest_hours)
        await session.commit()
    if _wants_json(request):
        return JSONResponse({"status": "unsubscribed", "username": user.username, "mode": "none"})
    text = (f"No more Vedette mail goes to {html.escape(user.email)} ({html.escape(user.username)}). "
            "You can turn mail back on in your settings once logged in.")
    return HTMLResponse(_PAGE.format(title="Unsubscribed", text=text))


@router.get("/api/notifications/unsubscribe", include_in_schema=True)
async def unsubscribe(request: Request, session: SessionDep, settings: SettingsDep, token: str = "") -> Any:
    """The link in every mail: turns that user's mail off; no login needed (HMAC-signed token)."""
    return await _unsubscribe(request, session, settings, token[:200])


@router.post("/api/notifications/unsubscribe")
async def unsubscribe_one_click(request: Request, session: SessionDep, settings: SettingsDep, token: str = "") -> Any:
    """RFC 8058 one-click unsubscribe (List-Unsubscribe-Post)."""
    return await _unsubscribe(request, session, settings, token[:200])


@router.get("/api/me/awaiting")
async def awaiting_me(request: Request, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """Games whose decision is yours, longest-waiting first, with deadlines: for the lobby,
    the page title and the favicon badge."""
    rt = notify_of(request)
    now = rt.now()
    rows = (await session.execute(
        select(Game, GameSeat.side, GameClock)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .outerjoin(GameClock, GameClock.game_id == Game.id)
        .where(GameSeat.user_id == user.id, Game.status == "active", Game.awaiting_side == GameSeat.side)
        .order_by(Game.awaiting_since.asc())
    )).unique().all()
    games = []
    for game, side, clock in rows:
        since = game.awaiting_since
        clock_view = clock_json(game, clock, side, now)
        games.append({
            "id": game.id,
            "title": game.scenario_json.get("title", game.scenario_id),
            "your_side": side,
            "awaiting_since": since.isoformat() if since else None,
            "waiting_seconds": max(0.0, (now - since).total_seconds()) if since else None,
            "deadline_at": clock_view["deadline_at"],
            "overdue": bool(clock is not None and is_overdue(clock, now)),
            "paused_until": clock_view["paused_until"],
            "url": f"/games/{game.id}",
        })
    return {"count": len(games), "games": games}
