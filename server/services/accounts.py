"""Accounts, session tokens and the login rate limit."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..config import Settings
from ..db import begin_write
from ..errors import ApiError
from ..models import LoginFailure, User, UserSession, utcnow

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


def token_hash(settings: Settings, token: str) -> str:
    return hmac.new(settings.secret_key.encode(), token.encode(), hashlib.sha256).hexdigest()


async def create_user(
    session: AsyncSession, username: str, password: str, email: str, *, is_admin: bool = False
) -> User:
    user = User(
        username=username.lower(),
        email=email,
        password_hash=hash_password(password),
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


async def user_for_token(session: AsyncSession, settings: Settings, token: str | None) -> User | None:
    if not token or len(token) > 200:
        return None
    row = await session.scalar(
        select(UserSession).where(UserSession.token_hash == token_hash(settings, token))
    )
    if row is None or row.expires_at <= utcnow():
        return None
    return row.user


async def end_session(session: AsyncSession, settings: Settings, token: str) -> None:
    await session.execute(
        delete(UserSession).where(UserSession.token_hash == token_hash(settings, token))
    )


async def login(
    session: AsyncSession, settings: Settings, username: str, password: str, client_ip: str
) -> tuple[User, str]:
    # A write transaction from the start (SQLite): this reads, then writes, and a read transaction
    # cannot become a write one after any other connection (a command, the mail worker) committed.
    await begin_write(session)
    key = f"{username.lower()}|{client_ip}"[:128]
    window_start = utcnow() - timedelta(seconds=settings.login_window_seconds)
    recent_failures = await session.scalar(
        select(func.count())
        .select_from(LoginFailure)
        .where(LoginFailure.key == key, LoginFailure.failed_at > window_start)
    )
    if (recent_failures or 0) >= settings.login_attempts:
        raise ApiError(
            429,
            "too_many_attempts",
            f"Too many failed logins for this account from your address; "
            f"try again in {settings.login_window_seconds // 60} minutes.",
            retry_after=settings.login_window_seconds,
        )
    user = await session.scalar(select(User).where(User.username == username.lower()))
    ok = verify_password(user.password_hash if user else _DUMMY_HASH, password)
    if user is None or not ok:
        session.add(LoginFailure(key=key))
        await session.flush()
        await session.commit()
        raise ApiError(401, "bad_credentials", "Unknown username or wrong password.")
    # Old failures age out of the window; prune them so the table stays small.
    await session.execute(delete(LoginFailure).where(LoginFailure.failed_at <= window_start))
    token = await start_session(session, settings, user)
    return user, token
