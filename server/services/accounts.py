"""Accounts, session tokens and the login rate limit."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..config import Settings
from ..db import begin_write
from ..errors import ApiError
from ..models import LoginFailure, User, UserSession, utcnow
from ..models import games_table as GAMES
from .commandlog import parse_sqlite_timestamp, plain_read

_hasher = PasswordHasher()
# Verifying against this when the user does not exist keeps the timing alike.
_DUMMY_HASH = _hasher.hash("not-a-real-password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


# Argon2 is built to be slow (~0.1-0.2 s here) and releases the GIL: on the event loop it would stall
# every game this process serves for that long on each registration and login (issue 16), so the
# service hashes and verifies on a worker thread.
async def hash_password_off_loop(password: str) -> str:
    return await asyncio.to_thread(hash_password, password)


async def verify_password_off_loop(password_hash: str, password: str) -> bool:
    return await asyncio.to_thread(verify_password, password_hash, password)


def token_hash(settings: Settings, token: str) -> str:
    return hmac.new(settings.secret_key.encode(), token.encode(), hashlib.sha256).hexdigest()


async def create_user(
    session: AsyncSession, username: str, password: str, email: str, *, is_admin: bool = False
) -> User:
    user = User(
        username=username.lower(),
        email=email,
        password_hash=await hash_password_off_loop(password),
        is_admin=is_admin,
    )
    session.add(user)
    try:
        await session.flush()
    except IntegrityError:
        await session.rollback()
        raise ApiError(409, "username_taken", f"The username '{username}' is already taken.") from None
    return user


async def start_session(session: AsyncSession, settings: Settings, user: User) -> str:
    token = secrets.token_urlsafe(32)
    session.add(
        UserSession(
            token_hash=token_hash(settings, token),
            user_id=user.id,
            expires_at=utcnow() + timedelta(days=settings.session_days),
        )
    )
    await session.flush()
    return token


# Every authenticated request's lookup, built once (see services/store.py `_GAME_ROW`).
_SESSION_BY_TOKEN = select(UserSession).where(UserSession.token_hash == bindparam("token_hash"))


async def user_for_token(session: AsyncSession, settings: Settings, token: str | None) -> User | None:
    if not token or len(token) > 200:
        return None
    row = await session.scalar(_SESSION_BY_TOKEN, {"token_hash": token_hash(settings, token)})
    if row is None or row.expires_at <= utcnow():
        return None
    return row.user


# The websocket handshake's lookup without the ORM: one plain statement on the command path's own
# connection (services/commandlog.py `plain_read`), for a handshake that needs no other read.
_PLAIN_TOKEN_USER = (
    "SELECT u.id, u.username, u.email, u.is_admin, u.created_at, s.expires_at"
    " FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = {0}"
)


async def user_for_token_plain(bind: Any, settings: Settings, token: str | None) -> User | None:
    """`user_for_token` without an ORM session (issue 16: the session and its two mapped objects cost
    a millisecond of a player's websocket handshake, which reads nothing else when this process serves
    the game live). The same rules: an unknown, over-long or expired token is nobody. The `User` is
    built from the row and belongs to no session: for reading who it is (its id, name and admin flag),
    never to be added to one; it has no password hash."""
    if not token or len(token) > 200:
        return None
    digest = token_hash(settings, token)

    def sqlite(conn: Any) -> tuple[Any, ...] | None:
        found = conn.execute(_PLAIN_TOKEN_USER.format("?"), (digest,)).fetchone()
        if found is None:
            return None
        # The embedded database keeps timestamps as text (`UTCDateTime`); Postgres's driver gives them aware.
        *columns, created_at, expires_at = found
        return (*columns, parse_sqlite_timestamp(created_at), parse_sqlite_timestamp(expires_at))

    async def postgres(conn: Any) -> tuple[Any, ...] | None:
        found = await conn.fetchrow(_PLAIN_TOKEN_USER.format("$1"), digest)
        return None if found is None else tuple(found)

    row = await plain_read(bind, sqlite, postgres)
    if row is None:
        return None
    uid, username, email, is_admin, created_at, expires_at = row
    if expires_at is None or expires_at <= utcnow():
        return None
    return User(id=uid, username=username, email=email, is_admin=bool(is_admin), created_at=created_at)


async def end_session(session: AsyncSession, settings: Settings, token: str) -> None:
    await session.execute(
        delete(UserSession).where(UserSession.token_hash == token_hash(settings, token))
    )


async def login(
    session: AsyncSession, settings: Settings, username: str, password: str, client_ip: str
) -> tuple[User, str]:
    """Check a password, at most `login_attempts` times per username and address per window.

    The attempt is recorded (committed) BEFORE the password is checked, then the attempts in the
    window are counted, its own included: of any number of simultaneous attempts, the ones
    committed after the first `login_attempts` all count more than the limit and are refused
    unchecked, on every backend and across processes. A refused attempt's row is removed again,
    a successful one's too; a failed one stays as the failure it is."""
    key = f"{username.lower()}|{client_ip}"[:128]
    now = utcnow()
    window_start = now - timedelta(seconds=settings.login_window_seconds)
    # A write transaction from the start (SQLite: the request may already have read).
    await begin_write(session)
    attempt = LoginFailure(key=key, failed_at=now)
    session.add(attempt)
    await session.flush()
    attempt_id = attempt.id
    await session.commit()
    await begin_write(session)
    recent = await session.scalar(
        select(func.count())
        .select_from(LoginFailure)
        .where(LoginFailure.key == key, LoginFailure.failed_at > window_start)
    )
    if (recent or 0) > settings.login_attempts:
        await session.execute(delete(LoginFailure).where(LoginFailure.id == attempt_id))
        await session.commit()
        raise ApiError(
            429,
            "too_many_attempts",
            f"Too many failed logins for this account from your address; "
            f"try again in {max(1, settings.login_window_seconds // 60)} minutes.",
            retry_after=settings.login_window_seconds,
        )
    user = await session.scalar(select(User).where(User.username == username.lower()))
    # No transaction is held while the hash is checked: on SQLite an open write transaction would
    # keep every game's commands waiting for the database for the whole check.
    stored_hash = user.password_hash if user else _DUMMY_HASH
    await session.commit()
    ok = await verify_password_off_loop(stored_hash, password)
    if user is None or not ok:
        raise ApiError(401, "bad_credentials", "Unknown username or wrong password.")  # the attempt row stays
    await begin_write(session)
    # Old failures age out of the window; prune them so the table stays small.
    await session.execute(
        delete(LoginFailure).where(
            (LoginFailure.failed_at <= window_start) | (LoginFailure.id == attempt_id)
        )
    )
    token = await start_session(session, settings, user)
    return user, token


def _games_counted_up_to(*where: Any) -> Any:
    """How many games match `where`, counted only up to the bound `limit`: the quota asks whether
    the limit is reached, and an account with thousands of games (a benchmark's, a busy admin's)
    must not cost a scan of all of them on every game it creates (issue 16)."""
    matching = select(GAMES.c.id).where(*where).limit(bindparam("limit")).subquery()
    return select(func.count()).select_from(matching)


# The quota's two counts, built once (see services/store.py `_GAME_ROW`).
_WAITING_GAMES = _games_counted_up_to(GAMES.c.created_by == bindparam("user_id"), GAMES.c.status == "waiting")
_GAMES_SINCE = _games_counted_up_to(
    GAMES.c.created_by == bindparam("user_id"), GAMES.c.created_at > bindparam("since")
)


async def _count_up_to(session: AsyncSession, statement: Any, limit: int, **params: Any) -> int:
    return int(await session.scalar(statement, {"limit": limit, **params}) or 0)


async def check_game_quota(session: AsyncSession, settings: Settings, user: User) -> None:
    """429 when the account already has `max_waiting_games` games nobody joined, or created
    `games_per_hour` games in the last hour. Admins have no quota."""
    if user.is_admin:
        return
    waiting = await _count_up_to(session, _WAITING_GAMES, settings.max_waiting_games, user_id=user.id)
    if waiting >= settings.max_waiting_games:
        raise ApiError(
            429,
            "too_many_waiting_games",
            f"You have {waiting} games waiting for a second player (at most "
            f"{settings.max_waiting_games}); start or call off one of them first.",
            retry_after=60,
        )
    hour_ago = utcnow() - timedelta(hours=1)
    recent = await _count_up_to(session, _GAMES_SINCE, settings.games_per_hour, user_id=user.id, since=hour_ago)
    if recent >= settings.games_per_hour:
        raise ApiError(
            429,
            "too_many_games",
            f"At most {settings.games_per_hour} new games an hour per account; try again later.",
            retry_after=600,
        )
