"""This process's write transactions outside the command path: the lobby's (create, join, contribute), the
mails', the presence table's, a player's settings.

On the embedded database every writer of the process queues on one asyncio lock (`sqlite_writer`) instead
of on SQLite's busy handler, which sleeps in steps of up to 100 ms; the command path's own write
(`commandlog.append`) and the WAL checkpointer take the same lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from ..db import begin_write
from . import commandlog


class WriteQueue:
    """The queue of this process's SQLite writers (on Postgres, the database orders them itself)."""

    def __init__(self) -> None:
        # Every SQLite write transaction of this process takes this lock or waits for it (the lobby
        # holds it across its awaits; commands and plain writes queue behind it).
        self.sqlite_writer = asyncio.Lock()

    @asynccontextmanager
    async def writing(self, session: AsyncSession) -> AsyncIterator[None]:
        """One write transaction in `session` (BEGIN IMMEDIATE on SQLite, in the queue); rolled back
        unless the caller commits it. Commands do not come here: they take `commandlog.append`."""
        # End whatever read transaction the request had: a write must start as one.
        await session.commit()
        lock = self.sqlite_writer if session.bind.dialect.name == "sqlite" else None
        if lock is not None:
            await lock.acquire()
        try:
            await begin_write(session)
            yield
        finally:
            if session.in_transaction():
                await session.rollback()
            if lock is not None:
                lock.release()

    async def write_plain(
        self, bind: Any, sqlite: tuple[str, tuple[Any, ...]], postgres: tuple[str, tuple[Any, ...]]
    ) -> None:
        """One small write without the ORM (`commandlog.plain_write`), queued behind this process's
        SQLite writers as a command is."""
        await commandlog.plain_write(bind, sqlite, postgres, sqlite_writer=self.sqlite_writer)


__all__ = ["WriteQueue"]
