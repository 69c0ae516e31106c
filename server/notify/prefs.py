"""Mail preferences (every decision / a digest at most every N hours / none) and the digest sweep."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..models import User
from . import compose
from .config import NotifySettings
from .db import Writing, plain_writing
from .mailer import new_message_id
from .models import CANCELLED, HELD, MERGED, PENDING, NotificationPrefs, OutboxMail

log = logging.getLogger(__name__)

MODES = ("every", "digest", "none")


def prefs_json(prefs: NotificationPrefs | None, default_hours: int) -> dict[str, object]:
    if prefs is None:
        return {"mode": "every", "digest_hours": default_hours, "last_digest_at": None}
    return {
        "mode": prefs.mode,
        "digest_hours": prefs.digest_hours,
        "last_digest_at": prefs.last_digest_at.isoformat() if prefs.last_digest_at else None,
    }


async def set_prefs(
    session: AsyncSession, user_id: int, mode: str, digest_hours: int | None, now: datetime, default_hours: int
) -> NotificationPrefs:
    """Upsert a user's preference (caller commits). Leaving digest mode releases or drops held notices."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    prefs = await session.get(NotificationPrefs, user_id, with_for_update=True)
    if prefs is None:
        prefs = NotificationPrefs(user_id=user_id, mode=mode, digest_hours=digest_hours or default_hours,
                                  last_digest_at=None, updated_at=now)
        session.add(prefs)
    else:
        prefs.mode = mode
        if digest_hours is not None:
            prefs.digest_hours = digest_hours
        prefs.updated_at = now
    if mode != "digest":
        # Held notices follow the new preference: sent one by one ("every") or dropped ("none").
        await session.execute(
            update(OutboxMail)
            .where(OutboxMail.user_id == user_id, OutboxMail.status == HELD)
            .values(status=PENDING if mode == "every" else CANCELLED, next_attempt_at=now)
        )
    if mode == "none":
        await session.execute(
            update(OutboxMail)
            .where(OutboxMail.user_id == user_id, OutboxMail.status == PENDING)
            .values(status=CANCELLED, last_error="the recipient turned mail off")
        )
    await session.flush()
    return prefs


async def sweep_digests(
    sessionmaker: async_sessionmaker[AsyncSession], settings: NotifySettings, now: datetime, *, postgres: bool,
    writing: Writing = plain_writing,
) -> int:
    """Merge each digest reader's held notices into one digest mail, at most once per N hours."""
    async with sessionmaker() as session:
        user_ids = list((await session.scalars(
            select(OutboxMail.user_id).where(OutboxMail.status == HELD).distinct()
        )).all())
    made = 0
    for user_id in user_ids:
        if user_id is None:
            continue
        try:
            made += await _digest_for(sessionmaker, settings, user_id, now, postgres, writing)
        except Exception:
            log.exception("digest for user %s failed", user_id)
    return made


async def _digest_for(
    sessionmaker: async_sessionmaker[AsyncSession], settings: NotifySettings, user_id: int,
    now: datetime, postgres: bool, writing: Writing,
) -> int:
    async with sessionmaker() as session, writing(session):
        stmt = select(NotificationPrefs).where(NotificationPrefs.user_id == user_id)
        if postgres:
            stmt = stmt.with_for_update(skip_locked=True)
        prefs = await session.scalar(stmt)
        if prefs is None or prefs.mode != "digest":
            await session.rollback()
            return 0
        if prefs.last_digest_at is not None and now < prefs.last_digest_at + timedelta(hours=prefs.digest_hours):
            await session.rollback()
            return 0
        held = list((await session.scalars(
            select(OutboxMail).where(OutboxMail.user_id == user_id, OutboxMail.status == HELD)
            .order_by(OutboxMail.id)
        )).all())
        user = await session.get(User, user_id)
        if not held or user is None:
            await session.rollback()
            return 0
        composed = compose.digest_mail(user.username, [(m.subject, m.body) for m in held])
        digest = OutboxMail(
            idempotency_key=f"digest:{user_id}:{held[0].id}-{held[-1].id}",
            message_id=new_message_id(settings),
            user_id=user_id, game_id=None, kind="digest", to_addr=user.email,
            subject=composed.subject, body=composed.body, status=PENDING, attempts=0,
            next_attempt_at=now, created_at=now,
        )
        session.add(digest)
        await session.flush()
        done = await session.execute(
            update(OutboxMail)
            .where(OutboxMail.id.in_([m.id for m in held]), OutboxMail.status == HELD)
            .values(status=MERGED, digest_id=digest.id)
        )
        if done.rowcount != len(held):
            await session.rollback()
            return 0
        prefs.last_digest_at = now
        await session.commit()
        return 1
