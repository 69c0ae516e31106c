"""Request dependencies (Annotated), shared by every route module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Query, Request
from sqlalchemy.ext.asyncio import AsyncSession

from ..config import Settings
from ..errors import ApiError, unauthorized
from ..models import User
from ..realtime.hub import GameHub
from ..scenarios import ScenarioRegistry
from ..services import accounts
from ..services.commands import CommandService
from ..services.lobby import Lobby
from ..services.messages import Table
from ..services.priority import CommandGate
from ..services.spectators import Spectators
from ..services.store import GameStore
from ..services.wiring import GameServices


async def get_settings(request: Request) -> Settings:
    # `async def`, though nothing here awaits: FastAPI runs a plain `def` dependency on its thread pool,
    # a hand-off to another thread and back on every request (issue 16's lifecycle profile).
    settings: Settings = request.app.state.settings
    return settings


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.sessionmaker() as session:
        yield session


def _games(request: Request) -> GameServices:
    games: GameServices = request.app.state.games
    return games


async def get_store(request: Request) -> GameStore:
    return _games(request).store


async def get_commands(request: Request) -> CommandService:
    return _games(request).commands


async def get_lobby(request: Request) -> Lobby:
    return _games(request).lobby


async def get_spectators(request: Request) -> Spectators:
    return _games(request).spectators


async def get_table(request: Request) -> Table:
    return _games(request).table


async def get_gate(request: Request) -> CommandGate:
    return _games(request).gate


async def get_hub(request: Request) -> GameHub:
    hub: GameHub = request.app.state.hub
    return hub


async def get_registry(request: Request) -> ScenarioRegistry:
    registry: ScenarioRegistry = request.app.state.scenarios
    return registry


SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]
StoreDep = Annotated[GameStore, Depends(get_store)]
CommandsDep = Annotated[CommandService, Depends(get_commands)]
LobbyDep = Annotated[Lobby, Depends(get_lobby)]
SpectatorsDep = Annotated[Spectators, Depends(get_spectators)]
TableDep = Annotated[Table, Depends(get_table)]
GateDep = Annotated[CommandGate, Depends(get_gate)]
HubDep = Annotated[GameHub, Depends(get_hub)]
RegistryDep = Annotated[ScenarioRegistry, Depends(get_registry)]
# How a spectator of a private game shows that it may look: the link it was given.
WatchToken = Annotated[str | None, Query(max_length=64, description="The game's watch token")]
InviteToken = Annotated[str | None, Query(max_length=64, description="The game's invite token")]


async def commands_first(gate: GateDep) -> None:
    """A lobby request starts once the players' commands in flight have finished (services/priority.py)."""
    await gate.yield_to_commands()


def session_token(request: Request, settings: Settings) -> str | None:
    """The bearer token (scripts) or, failing that, the session cookie (browsers)."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.cookies.get(settings.session_cookie)


async def get_optional_user(request: Request, session: SessionDep, settings: SettingsDep) -> User | None:
    return await accounts.user_for_token(session, settings, session_token(request, settings))


OptionalUser = Annotated[User | None, Depends(get_optional_user)]


def _signed_in(user: User | None) -> User:
    if user is None:
        raise unauthorized()
    return user


async def get_current_user(user: OptionalUser) -> User:
    return _signed_in(user)


CurrentUser = Annotated[User, Depends(get_current_user)]


async def get_optional_player(request: Request, settings: SettingsDep) -> User | None:
    """Who acts on a game's route, found by one plain statement (issue 16: the ORM lookup was two
    statements and two mapped objects, on every lobby request and every lobby page's poll). The same
    rules as `get_optional_user`. The `User` belongs to no session: for reading who it is (id, name,
    address, admin flag), never to be added to one; account routes, which change it, keep
    `CurrentUser`."""
    return await accounts.user_for_token_plain(request.app.state.engine, settings, session_token(request, settings))


OptionalPlayer = Annotated[User | None, Depends(get_optional_player)]


async def get_current_player(user: OptionalPlayer) -> User:
    return _signed_in(user)


CurrentPlayer = Annotated[User, Depends(get_current_player)]


async def get_admin(user: CurrentUser) -> User:
    if not user.is_admin:
        raise ApiError(403, "admin_only", "This is for administrators.")
    return user


AdminUser = Annotated[User, Depends(get_admin)]
