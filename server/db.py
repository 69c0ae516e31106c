"""Async engine and session factory for SQLite (embedded default) and Postgres."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from .config import Settings

# Execution option asking SQLite for a write transaction from the start: a
# deferred transaction that reads and then writes can fail with SQLITE_BUSY at
# once (no busy wait) when two connections both try to upgrade their read lock.
SQLITE_WRITE = {"vedette_sqlite_write": True}


def create_engine(settings: Settings) -> AsyncEngine:
    url = make_url(settings.database_url)
    kwargs: dict[str, Any] = {}
    if url.get_backend_name() == "sqlite":
        kwargs["connect_args"] = {"timeout": 30}
        engine = create_async_engine(url, **kwargs)
        _configure_sqlite(engine)
        return engine
    connect_args: dict[str, Any] = {}
    if settings.db_schema:
        connect_args["server_settings"] = {"search_path": settings.db_schema}
    return create_async_engine(
        url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_pool_size,
        pool_pre_ping=True,
        connect_args=connect_args,
    )


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control from the driver so BEGIN is ours to emit.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        if conn.get_execution_options().get("vedette_sqlite_write"):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


async def begin_write(session: AsyncSession) -> None:
    """Start the session's transaction as a write transaction (matters on SQLite only)."""
    await session.connection(execution_options=SQLITE_WRITE)


def asyncpg_dsn(database_url: str) -> str:
    """The plain libpq URL asyncpg wants, from a SQLAlchemy postgresql+asyncpg URL."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)
