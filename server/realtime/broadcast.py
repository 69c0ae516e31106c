"""A small broadcaster in the shape of encode/broadcaster.

`Broadcast` runs ONE listener task per process that pulls events from the
backend and fans them out to in-process subscriber queues. Backends:

* `MemoryBackend`: in-process only (SQLite, single worker, tests).
* `PostgresBackend`: asyncpg LISTEN/NOTIFY, so every worker process on the
  same database hears every game change.

Payloads are tiny ("game_id:version"): no game state crosses the channel; each
process re-reads the game and builds its own viewers' views.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

# Emitted by a backend after it lost and regained its channel: events may have
# been missed, so subscribers should resynchronise everything they hold.
RESYNC = "__resync__"


@dataclass(frozen=True, slots=True)
class Event:
    channel: str
    message: str


class BroadcastBackend(ABC):
    @abstractmethod
    async def connect(self) -> None: ...

    @abstractmethod
    async def disconnect(self) -> None: ...

    @abstractmethod
    async def subscribe(self, channel: str) -> None: ...

    @abstractmethod
    async def unsubscribe(self, channel: str) -> None: ...

    @abstractmethod
    async def publish(self, channel: str, message: str) -> None: ...

    @abstractmethod
    async def next_published(self) -> Event: ...


class MemoryBackend(BroadcastBackend):
    def __init__(self) -> None:
        self._channels: set[str] = set()
        self._queue: asyncio.Queue[Event] = asyncio.Queue()

    async def connect(self) -> None:
        pass

    async def disconnect(self) -> None:
        pass

    async def subscribe(self, channel: str) -> None:
        self._channels.add(channel)

    async def unsubscribe(self, channel: str) -> None:
        self._channels.discard(channel)

    async def publish(self, channel: str, message: str) -> None:
        if channel in self._channels:
            self._queue.put_nowait(Event(channel, message))

    async def next_published(self) -> Event:
        return await self._queue.get()


class PostgresBackend(BroadcastBackend):
    """LISTEN on one dedicated asyncpg connection; NOTIFY through another.

    If the listening connection drops, it reconnects with backoff and emits a
    RESYNC event, since notifications sent meanwhile are gone.
    """

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._listen_conn: Any = None
        self._publish_conn: Any = None
        self._pending: list[tuple[str, str, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._channels: set[str] = set()
        self._queue: asyncio.Queue[Event] = asyncio.Queue()
        self._watchdog: asyncio.Task[None] | None = None
        self._closing = False

    async def connect(self) -> None:
        import asyncpg

        self._asyncpg = asyncpg
        self._listen_conn = await asyncpg.connect(self._dsn)
        self._publish_conn = await asyncpg.connect(self._dsn)
        self._watchdog = asyncio.create_task(self._watch(), name="vedette-pg-listen-watchdog")

    async def disconnect(self) -> None:
        self._closing = True
        if self._flusher is not None:
            self._flusher.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._flusher
        if self._watchdog:
            self._watchdog.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._watchdog
        for conn in (self._listen_conn, self._publish_conn):
            if conn is not None:
                with suppress(Exception):
                    await asyncio.wait_for(conn.close(), 5)

    def _on_notify(self, _conn: Any, _pid: int, channel: str, payload: str) -> None:
        self._queue.put_nowait(Event(channel, payload))

    async def subscribe(self, channel: str) -> None:
        self._channels.add(channel)
        await self._listen_conn.add_listener(channel, self._on_notify)

    async def unsubscribe(self, channel: str) -> None:
        self._channels.discard(channel)
        with suppress(Exception):
            await self._listen_conn.remove_listener(channel, self._on_notify)

    async def publish(self, channel: str, message: str) -> None:
        """Notices are sent in batches: everything published while one batch is on the wire goes
        out as the next, in one statement. (One NOTIFY per notice through one connection made
        every publisher queue for a round trip and an event-loop turn each: at ~90 commands a
        second that queue reached a second.)"""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((channel, message, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="vedette-pg-notify")
        await done

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._notify([(channel, message) for channel, message, _ in batch])
            except Exception as exc:  # noqa: BLE001 - handed to every waiting publisher
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
            else:
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def _notify(self, notices: list[tuple[str, str]]) -> None:
        channels = [channel for channel, _ in notices]
        messages = [message for _, message in notices]
        for attempt in (1, 2):
            try:
                if self._publish_conn is None or self._publish_conn.is_closed():
                    self._publish_conn = await self._asyncpg.connect(self._dsn)
                # One transaction, the notices in order (identical ones are delivered once).
                await self._publish_conn.execute(
                    "SELECT pg_notify(c, m) FROM unnest($1::text[], $2::text[]) AS n(c, m)", channels, messages
                )
                return
            except (OSError, self._asyncpg.PostgresError, self._asyncpg.InterfaceError):
                if attempt == 2:
                    raise
                self._publish_conn = None

    async def next_published(self) -> Event:
        return await self._queue.get()

    async def _watch(self) -> None:
        delay = 0.5
        while not self._closing:
            await asyncio.sleep(1.0)
            conn = self._listen_conn
            if conn is not None and not conn.is_closed():
                delay = 0.5
                continue
            try:
                self._listen_conn = await self._asyncpg.connect(self._dsn)
                for channel in self._channels:
                    await self._listen_conn.add_listener(channel, self._on_notify)
                log.warning("LISTEN connection re-established; resynchronising viewers")
                for channel in self._channels:
                    self._queue.put_nowait(Event(channel, RESYNC))
            except Exception:
                log.exception("LISTEN reconnect failed; retrying in %.1fs", delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30)


class Subscriber:
    def __init__(self, queue: asyncio.Queue[Event | None]) -> None:
        self._queue = queue

    async def get(self) -> Event:
        item = await self._queue.get()
        if item is None:
            raise StopAsyncIteration
        return item

    def __aiter__(self) -> Subscriber:
        return self

    async def __anext__(self) -> Event:
        return await self.get()


class Broadcast:
    def __init__(self, backend: BroadcastBackend) -> None:
        self._backend = backend
        self._subscribers: dict[str, set[asyncio.Queue[Event | None]]] = {}
        self._listener_task: asyncio.Task[None] | None = None

    @property
    def backend_name(self) -> str:
        return "postgres" if isinstance(self._backend, PostgresBackend) else "memory"

    async def connect(self) -> None:
        await self._backend.connect()
        self._listener_task = asyncio.create_task(self._listener(), name="vedette-broadcast-listener")

    async def disconnect(self) -> None:
        if self._listener_task is not None:
            self._listener_task.cancel()
            with suppress(asyncio.CancelledError):
                await self._listener_task
        for queues in self._subscribers.values():
            for queue in queues:
                queue.put_nowait(None)
        await self._backend.disconnect()

    async def _listener(self) -> None:
        while True:
            event = await self._backend.next_published()
            for queue in list(self._subscribers.get(event.channel, ())):
                queue.put_nowait(event)

    async def publish(self, channel: str, message: str) -> None:
        await self._backend.publish(channel, message)

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscriber]:
        queue: asyncio.Queue[Event | None] = asyncio.Queue()
        try:
            if not self._subscribers.get(channel):
                await self._backend.subscribe(channel)
                self._subscribers[channel] = {queue}
            else:
                self._subscribers[channel].add(queue)
            yield Subscriber(queue)
        finally:
            self._subscribers[channel].discard(queue)
            if not self._subscribers.get(channel):
                self._subscribers.pop(channel, None)
                with suppress(Exception):
                    await self._backend.unsubscribe(channel)
