"""Write transactions for asynchronous play, the same way the game service takes them.

On SQLite the service queues its writers on an in-process lock (`GameService._writing`);
our writers join that queue when they can, so they never wait on SQLite's busy handler.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

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


def writing_for(service: Any) -> Writing:
    writing: Writing | None = getattr(service, "_writing", None)
    return writing or plain_writing
