from __future__ import annotations

from fastapi import APIRouter, Request, Response

from ...config import Settings
from ...schemas import LoginRequest, SessionPublic, UserPublic
from ...services import accounts
from ..deps import SessionDep, SettingsDep, session_token

router = APIRouter(prefix="/api/session", tags=["session"])


def set_session_cookie(response: Response, settings: Settings, token: str) -> None:
    response.set_cookie(
        settings.session_cookie,
        token,
        max_age=settings.session_days * 86400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


@router.post("", response_model=SessionPublic)
async def log_in(
    body: LoginRequest, request: Request, session: SessionDep, settings: SettingsDep, response: Response
) -> SessionPublic:
    """Log in: sets the HttpOnly cookie and returns the same token for `Authorization: Bearer`."""
    client_ip = request.client.host if request.client else "unknown"
    user, token = await accounts.login(session, settings, body.username, body.password, client_ip)
    await session.commit()
    set_session_cookie(response, settings, token)
    return SessionPublic(token=token, user=UserPublic.model_validate(user))


@router.delete("", status_code=204)
async def log_out(request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    token = session_token(request, settings)
    if token:
        await accounts.end_session(session, settings, token)
        await session.commit()
    response = Response(status_code=204)
    response.delete_cookie(settings.session_cookie, path="/", httponly=True, samesite="lax")
    return response
