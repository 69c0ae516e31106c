"""What the notify pieces ask of this process's runtime: `NotifyContext`, the protocol `runtime.Notify` meets.

Deadlines and the scheduler (`clocks.py`), the hooks around the game services' writes (`hooks.py`) and the
standing orders (`standing.py`) are each handed the runtime that builds them. They know it by this
protocol, which sits below them all, rather than by the runtime's module, which imports every one of them.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..config import Settings
from ..services.commands import CommandService
from ..services.store import GameStore
from .config import NotifySettings
from .db import Writing
from .presence import Presence


class NotifyContext(Protocol):
    settings: Settings
    nsettings: NotifySettings
    sessionmaker: async_sessionmaker[AsyncSession]
    # The game services: the stored games' reads, and the command path (a claim, a standing order).
    store: GameStore
    commands: CommandService
    hub: Any  # told of every game a piece changes (`publish`); None in a process without one
    presence: Presence
    base_url: str
    postgres: bool
    writing: Writing  # one write transaction, in this process's queue of SQLite writers
    filter_events: Any  # the rules core's per-viewer event filter (digests)

    def now(self) -> datetime:
        """The clock of deadlines, digests and the outbox."""
        ...

    def worker_wake(self) -> None:
        """Mail was queued: the outbox worker should look now."""
        ...

    def spawn(self, coro: Any) -> None:
        """Run a follow-up beside the caller (the mails a command owes)."""
        ...

    def game_lock(self, game_id: str) -> asyncio.Lock:
        """The lock of one game's follow-ups (mails, standing orders) in this process."""
        ...

    def after_commit(self, pending: dict[str, Any]) -> None:
        """A transaction with notify work committed: wake the worker, settle standing orders."""
        ...

    def standing_order_choice(self, engine_game: Any, orders: dict[str, str]) -> tuple[str, str] | None:
        """The option a side's standing orders pick for the decision pending, with the order's name."""
        ...

    async def sweep_standing_orders(self) -> int:
        """Settle the pending decisions that standing orders cover (the scheduler's pass)."""
        ...

    async def sweep_owed_mails(self) -> int:
        """Compose the mails commands owe that a stopped process left (the scheduler's pass)."""
        ...


__all__ = ["NotifyContext"]
