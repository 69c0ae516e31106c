"""Write transactions for asynchronous play, the same way the game services take them.

On SQLite the game services queue their writers on an in-process lock (`WriteQueue.writing`,
server/services/writes.py); the runtime hands that queue's `writing` to our writers, so they never wait
on SQLite's busy handler. `plain_writing` is the same transaction outside any queue.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncSession

from ..db import begin_write

Writing = Callable[[AsyncSession], AbstractAsyncContextManager[None]]


@asynccontextmanager
async def plain_writing(session: AsyncSession) -> AsyncIterator[None]:
    """One write transaction (BEGIN IMMEDIATE on SQLite); rolled back unless committed."""
    await session.commit()
    await begin_write(session)
    try:
        yield
    finally:
        if session.in_transaction():
            await session.rollback()
