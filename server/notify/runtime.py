"""The asynchronous-play runtime of one process: hooks, outbox worker, scheduler, presence.

`Notify` builds the pieces and is what each is handed (`context.NotifyContext`)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from contextlib import suppress
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..config import Settings
from ..models import Game, utcnow
from ..services.engine import rules
from ..services.wiring import GameServices
from ..services.writes import WriteQueue
from . import standing
from .clocks import Clocks, Scheduler
from .config import NotifySettings
from .db import Writing
from .hooks import NotifyHooks
from .mailer import Mailer, make_mailer
from .models import StandingOrders
from .outbox import OutboxWorker
from .presence import Presence

log = logging.getLogger(__name__)


class Notify:
    def __init__(
        self,
        settings: Settings,
        nsettings: NotifySettings,
        sessionmaker: async_sessionmaker[AsyncSession],
        games: GameServices,
        hub: Any = None,
        *,
        mailer: Mailer | None = None,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.settings = settings
        self.nsettings = nsettings
        self.sessionmaker = sessionmaker
        self.store = games.store
        self.commands = games.commands
        self.hub = hub
        self.postgres = not settings.is_sqlite
        self._now = now or utcnow
        # VEDETTE_BASE_URL (the service's) wins over the notify defaults.
        if settings.base_url and not nsettings.base_url:
            nsettings = nsettings.model_copy(update={"base_url": settings.base_url})
            self.nsettings = nsettings
        self.base_url = nsettings.public_base_url
        self.mailer = mailer or make_mailer(nsettings)
        # Joins the game services' queue of SQLite writers: never a wait on SQLite's busy handler.
        self.writing: Writing = games.writes.writing
        self.presence = Presence(sessionmaker, nsettings.presence_ttl_seconds, on_leave=self.request_settle,
                                 writing=self.writing, local=getattr(hub, "has_seat", None),
                                 plain_write=self._plain_write(sessionmaker, games.writes))
        self.hooks = NotifyHooks(self)
        self.clocks = Clocks(self)
        self.worker = OutboxWorker(sessionmaker, nsettings, settings.secret_key, self.mailer,
                                   now=lambda: self.now(), postgres=self.postgres,
                                   sqlite_writer=games.writes.sqlite_writer)
        self.scheduler = Scheduler(self)
        self.filter_events = rules().filter_events
        self._tasks: set[asyncio.Task[Any]] = set()
        self._locks: dict[str, asyncio.Lock] = {}
        self._worker_started = False

    # ------------------------------------------------------------------ time

    def now(self) -> datetime:
        """The clock of deadlines, digests and the outbox (tests replace `_now`)."""
        return self._now()

    def set_clock(self, now: Callable[[], datetime]) -> None:
        self._now = now

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        # Mails owed by commands of a process that stopped before composing them (games.mail_owed).
        self._spawn(self.hooks.sweep())
        if self.nsettings.outbox_worker:
            self.worker.start()
            self._worker_started = True
        if self.nsettings.scheduler:
            self.scheduler.start()
        log.info("notifications: mail via %s, worker %s, scheduler %s", self.mailer.name,
                 "on" if self.nsettings.outbox_worker else "off", "on" if self.nsettings.scheduler else "off")

    async def stop(self) -> None:
        await self.scheduler.stop()
        await self.worker.stop()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with suppress(asyncio.CancelledError, Exception):
                await task

    @staticmethod
    def _plain_write(sessionmaker: async_sessionmaker[AsyncSession], writes: WriteQueue) -> Any:
        """Plain writes (`WriteQueue.write_plain`) on the app's database, if the sessions name one."""
        bind = sessionmaker.kw.get("bind")
        if bind is None:
            return None
        return functools.partial(writes.write_plain, bind)

    def worker_wake(self) -> None:
        if self._worker_started:
            self.worker.wake()

    # ------------------------------------------------------------- follow-ups

    def after_commit(self, pending: dict[str, Any]) -> None:
        """Called (on the event loop) once a transaction with notify work has committed."""
        if pending.get("wake"):
            self.worker_wake()
        for game_id in pending.get("settle", ()):
            self.request_settle(game_id)

    def request_settle(self, game_id: str) -> None:
        self._spawn(standing.settle(self, game_id))

    def spawn(self, coro: Any) -> None:
        """Run a follow-up (mails a command owes) beside the request that caused it; `wait_idle` waits for it."""
        self._spawn(coro)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("notify task failed", exc_info=task.exception())

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Wait for the follow-up tasks (standing orders) started so far (tests)."""
        async def _wait() -> None:
            while self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
        await asyncio.wait_for(_wait(), timeout)

    def game_lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # --------------------------------------------------------- standing orders

    def standing_order_choice(self, engine_game: Any, orders: dict[str, str]) -> tuple[str, str] | None:
        try:
            choice: tuple[str, str] | None = rules().standing_order_choice(engine_game, orders)
            return choice
        except Exception:
            log.exception("standing order proposal failed")
            return None

    async def sweep_owed_mails(self) -> int:
        """Mails owed by commands whose process stopped before composing them (`NotifyHooks.sweep`)."""
        return await self.hooks.sweep()

    async def sweep_standing_orders(self) -> int:
        """Games whose awaiting side has standing orders: settle what they cover (e.g. after a
        player closed the game with a decision pending)."""
        async with self.sessionmaker() as session:
            game_ids = list((await session.scalars(
                select(Game.id).join(StandingOrders, (StandingOrders.game_id == Game.id)
                                     & (StandingOrders.side == Game.awaiting_side))
                .where(Game.status == "active")
            )).all())
        done = 0
        for game_id in game_ids:
            try:
                done += await standing.settle(self, game_id)
            except Exception:
                log.exception("standing orders of game %s failed", game_id)
        return done
