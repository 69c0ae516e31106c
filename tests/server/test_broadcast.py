"""server/realtime/broadcast.py, the Postgres backend: notices published together go out in batches
(far fewer NOTIFY statements than notices), every one arrives, in the order published; a dropped
NOTIFY connection is replaced; and a failure reaches every publisher whose notice it took."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from server.config import Settings
from server.db import asyncpg_dsn
from server.realtime.broadcast import Broadcast, PostgresBackend

pytestmark = pytest.mark.postgres


async def _collect(broadcast: Broadcast, channel: str, count: int, ready: asyncio.Event) -> list[str]:
    received: list[str] = []
    async with broadcast.subscribe(channel) as subscriber:
        ready.set()
        async for event in subscriber:
            received.append(event.message)
            if len(received) == count:
                return received
    return received


async def _with_backend(settings: Settings, body) -> None:  # type: ignore[no-untyped-def]
    backend = PostgresBackend(asyncpg_dsn(settings.database_url))
    broadcast = Broadcast(backend)
    await broadcast.connect()
    try:
        await body(broadcast, backend, f"vedette_bcast_{uuid.uuid4().hex[:10]}")
    finally:
        await broadcast.disconnect()


def test_concurrent_notices_are_batched_and_all_arrive_in_order(postgres_settings: Settings) -> None:
    async def body(broadcast: Broadcast, backend: PostgresBackend, channel: str) -> None:
        statements = []
        send = backend._notify

        async def counting(notices: list[tuple[str, str]]) -> None:
            statements.append(len(notices))
            await send(notices)

        backend._notify = counting  # type: ignore[method-assign]
        messages = [f"game{i}:{i}" for i in range(300)]
        ready = asyncio.Event()
        listener = asyncio.create_task(_collect(broadcast, channel, len(messages), ready))
        await ready.wait()
        await asyncio.gather(*(broadcast.publish(channel, m) for m in messages))
        received = await asyncio.wait_for(listener, 10)
        assert received == messages
        assert sum(statements) == len(messages)
        assert len(statements) < len(messages) / 10, statements  # batched, not one NOTIFY each

    asyncio.run(_with_backend(postgres_settings, body))


def test_a_dropped_notify_connection_is_replaced(postgres_settings: Settings) -> None:
    async def body(broadcast: Broadcast, backend: PostgresBackend, channel: str) -> None:
        ready = asyncio.Event()
        listener = asyncio.create_task(_collect(broadcast, channel, 2, ready))
        await ready.wait()
        await broadcast.publish(channel, "before")
        await backend._publish_conn.close()
        await broadcast.publish(channel, "after")
        assert await asyncio.wait_for(listener, 10) == ["before", "after"]

    asyncio.run(_with_backend(postgres_settings, body))


def test_a_failed_batch_fails_every_publisher_in_it(postgres_settings: Settings) -> None:
    async def body(broadcast: Broadcast, backend: PostgresBackend, channel: str) -> None:
        async def refuse(_notices: list[tuple[str, str]]) -> None:
            raise OSError("database unreachable")

        backend._notify = refuse  # type: ignore[method-assign]
        results = await asyncio.gather(*(broadcast.publish(channel, f"m{i}") for i in range(5)),
                                       return_exceptions=True)
        assert all(isinstance(r, OSError) for r in results), results

    asyncio.run(_with_backend(postgres_settings, body))
