"""Alembic environment, async-aware.

The URL comes from Vedette's settings (DATABASE_URL) unless the caller passes
an open connection in `config.attributes["connection"]` (tests and
`vedette migrate` do, so Postgres schemas and SQLite files are theirs to pick).
"""

from __future__ import annotations

import asyncio
from typing import Any

from alembic import context
from sqlalchemy.engine import Connection

from server.config import get_settings
from server.db import create_engine
from server.models import Base

config = context.config
target_metadata = Base.metadata


def _run_with_connection(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    settings: Any = config.attributes.get("settings") or get_settings()
    engine = create_engine(settings)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run_with_connection)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_offline() -> None:
    settings = config.attributes.get("settings") or get_settings()
    context.configure(
        url=settings.database_url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_with_connection(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
