"""Which seats have the game open right now (a player websocket, in any process).

The realtime hub tells us about its connections (attached / detached / heartbeat);
rows not refreshed for `presence_ttl_seconds` (a crashed process) stop counting.
Presence is judged on the real wall clock, never on the scheduler's test clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, exists, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..models import utcnow
from ..services.commandlog import sqlite_timestamp
from .db import Writing, plain_writing
from .models import SeatPresence

log = logging.getLogger(__name__)

# (SQLite statement and arguments, Postgres statement and arguments) -> stored in a transaction of its own.
PlainWrite = Callable[[tuple[str, tuple[Any, ...]], tuple[str, tuple[Any, ...]]], Awaitable[None]]


class Presence:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        ttl_seconds: float,
        on_leave: Callable[[str], None] | None = None,
        writing: Writing = plain_writing,
        local: Callable[[str, str], bool] | None = None,
        plain_write: PlainWrite | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        # One statement without the ORM (`commandlog.plain_write`): a game's players connect and leave
        # with every game, so their rows are written the way commands are. None: through the ORM.
        self.plain_write = plain_write
        self.ttl = timedelta(seconds=ttl_seconds)
        self.on_leave = on_leave
        self.writing = writing
        # This process's own connections (the hub): a seat connected here needs no query.
        self.local = local
        self._tasks: set[asyncio.Task[None]] = set()
        self._pending: dict[str, asyncio.Task[None]] = {}  # connection id -> its presence insert

    @staticmethod
    def _is_seat(conn: Any) -> bool:
        viewer = getattr(conn, "viewer", None)
        return getattr(viewer, "role", None) == "seat" and getattr(viewer, "side", None) is not None

    async def attached(self, conn: Any) -> None:
        """Recorded in the background: the hub's attach path (the player's first snapshot) never
        waits for this write."""
        if not self._is_seat(conn):
            return
        task = asyncio.get_running_loop().create_task(self._record(conn))
        self._pending[conn.id] = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record(self, conn: Any) -> None:
        try:
            now = utcnow()
            if self.plain_write is not None:
                await self.plain_write(
                    ("INSERT INTO seat_presence (id, game_id, side, seen_at) VALUES (?, ?, ?, ?)",
                     (conn.id, conn.game_id, conn.viewer.side, sqlite_timestamp(now))),
                    ("INSERT INTO seat_presence (id, game_id, side, seen_at) VALUES ($1, $2, $3, $4)",
                     (conn.id, conn.game_id, conn.viewer.side, now)),
                )
                return
            async with self.sessionmaker() as session, self.writing(session):
                session.add(SeatPresence(id=conn.id, game_id=conn.game_id, side=conn.viewer.side, seen_at=now))
                await session.commit()
        except Exception:
            log.exception("could not record presence of %s", conn.id)

    async def detached(self, conn: Any) -> None:
        if not self._is_seat(conn):
            return
        # In its own task: the websocket handler calling us may be being cancelled.
        task = asyncio.get_running_loop().create_task(self._forget(conn))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _forget(self, conn: Any) -> None:
        recording = self._pending.pop(conn.id, None)
        if recording is not None:
            await asyncio.gather(recording, return_exceptions=True)  # insert before delete
        try:
            if self.plain_write is not None:
                await self.plain_write(("DELETE FROM seat_presence WHERE id = ?", (conn.id,)),
                                       ("DELETE FROM seat_presence WHERE id = $1", (conn.id,)))
            else:
                async with self.sessionmaker() as session, self.writing(session):
                    await session.execute(delete(SeatPresence).where(SeatPresence.id == conn.id))
                    await session.commit()
        except Exception:
            log.exception("could not remove presence of %s", conn.id)
        if self.on_leave is not None:
            self.on_leave(conn.game_id)  # a pending decision may now fall to standing orders

    async def heartbeat(self, conns: Iterable[Any]) -> None:
        ids = [c.id for c in conns if self._is_seat(c)]
        now = utcnow()
        try:
            async with self.sessionmaker() as session, self.writing(session):
                if ids:
                    await session.execute(
                        update(SeatPresence).where(SeatPresence.id.in_(ids)).values(seen_at=now)
                    )
                await session.execute(delete(SeatPresence).where(SeatPresence.seen_at < now - self.ttl * 4))
                await session.commit()
        except Exception:
            log.exception("presence heartbeat failed")

    def is_local(self, game_id: str, side: str) -> bool:
        """Whether `side`'s player has the game open on this process (known without a query)."""
        return self.local is not None and self.local(game_id, side)

    async def is_online(self, session: AsyncSession, game_id: str, side: str) -> bool:
        if self.is_local(game_id, side):
            return True
        found = await session.scalar(select(exists().where(
            SeatPresence.game_id == game_id, SeatPresence.side == side,
            SeatPresence.seen_at > utcnow() - self.ttl,
        )))
        return bool(found)
