from __future__ import annotations

from fastapi import APIRouter, Response

from ...errors import ApiError
from ...schemas import SessionPublic, UserCreate, UserPublic
from ...services import accounts
from ...services.botplay import BOT_PREFIX
from ..deps import CurrentUser, SessionDep, SettingsDep
from .session import set_session_cookie

router = APIRouter(prefix="/api", tags=["users"])


@router.post("/users", status_code=201, response_model=SessionPublic)
async def register(
    body: UserCreate, session: SessionDep, settings: SettingsDep, response: Response
) -> SessionPublic:
    """Create an account and log it in (cookie + token in the body). `computer-…` names are the bots'."""
    if body.username.lower().startswith(BOT_PREFIX):
        raise ApiError(422, "reserved_username", f"Names starting with '{BOT_PREFIX}' belong to the computer opponents.",
                       field="username")
    user = await accounts.create_user(session, body.username, body.password, body.email)
    token = await accounts.start_session(session, settings, user)
    await session.commit()
    set_session_cookie(response, settings, token)
    return SessionPublic(token=token, user=UserPublic.model_validate(user))


@router.get("/me", response_model=UserPublic)
async def me(user: CurrentUser) -> UserPublic:
    return UserPublic.model_validate(user)
