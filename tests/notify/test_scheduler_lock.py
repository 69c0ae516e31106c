"""The scheduler's pass runs in one process at a time across the site (issue 38): on Postgres each pass holds a
session-level advisory lock, and a process that finds it taken skips its turn instead of sweeping deadlines,
digests and owed mails a second time."""

from __future__ import annotations

import zlib

import pytest
from notify_helpers import call, notify_client, runtime
from sqlalchemy import text

pytestmark = pytest.mark.postgres


def test_a_pass_is_skipped_while_another_process_holds_the_scheduler_lock(postgres_settings, smtp):
    _inbox, port = smtp
    with notify_client(postgres_settings, port) as client:
        rt = runtime(client)
        key = zlib.crc32(f"vedette-scheduler:{postgres_settings.notify_channel}".encode()) & 0x7FFFFFFF
        engine = rt.sessionmaker.kw["bind"]

        async def hold_and_tick() -> tuple[dict[str, int], dict[str, int]]:
            # Another process's pass: the same lock, taken on a connection of its own.
            async with engine.connect() as other:
                other = await other.execution_options(isolation_level="AUTOCOMMIT")
                assert await other.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": key})
                during = await rt.scheduler.tick()
                await other.scalar(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
            after = await rt.scheduler.tick()
            return during, after

        during, after = call(client, hold_and_tick)
        assert during == {"skipped": 1}
        assert "skipped" not in after and "reminders" in after

        async def lock_is_free() -> bool:
            async with engine.connect() as conn:
                conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                free = bool(await conn.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}))
                if free:
                    await conn.scalar(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
                return free

        assert call(client, lock_is_free)  # the pass gave its lock back
