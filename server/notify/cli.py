"""`vedette scheduler`: the outbox worker and the deadline scheduler without the web server.

The web app runs both itself (VEDETTE_SCHEDULER / VEDETTE_OUTBOX_WORKER, on by default);
this is for deployments that prefer a separate process (turn them off in the app then).
With Postgres, game changes it makes (standing orders) reach the app's websockets
through LISTEN/NOTIFY; with SQLite they show on the clients' next refresh.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from typing import Any


def add_parsers(subparsers: Any) -> None:
    p = subparsers.add_parser("scheduler", help="send queued mail and run deadlines (no web server)")
    p.add_argument("--once", action="store_true", help="one scheduler pass and one outbox pass, then exit")
    p.set_defaults(handler=scheduler_command)


class _Publisher:
    """Just enough of the realtime hub for `publish` through the broadcaster."""

    def __init__(self, broadcast: Any, channel: str) -> None:
        self.broadcast = broadcast
        self.channel = channel

    async def publish(self, game_id: str, version: int) -> None:
        await self._notice(game_id, f"{game_id}:{version}")

    async def publish_clock(self, game_id: str) -> None:
        """A deadline passed: the app's hubs tell the game's open pages (`GameHub.publish_clock`)."""
        from ..realtime.hub import CLOCK_NOTICE

        await self._notice(game_id, f"{game_id}:{CLOCK_NOTICE}")

    async def _notice(self, game_id: str, message: str) -> None:
        try:
            await self.broadcast.publish(self.channel, message)
        except Exception:
            logging.getLogger(__name__).exception("could not publish change of game %s", game_id)


async def run(once: bool = False) -> None:
    from ..config import get_settings
    from ..db import asyncpg_dsn, create_engine, create_sessionmaker
    from ..realtime.broadcast import Broadcast, MemoryBackend, PostgresBackend
    from ..scenarios import load_scenarios
    from ..services.wiring import GameServices
    from .config import NotifySettings
    from .runtime import Notify

    settings = get_settings()
    nsettings = NotifySettings()
    engine = create_engine(settings)
    sessionmaker = create_sessionmaker(engine)
    games = GameServices.build(load_scenarios(settings.scenarios_dir))
    backend = MemoryBackend() if settings.is_sqlite else PostgresBackend(asyncpg_dsn(settings.database_url))
    broadcast = Broadcast(backend)
    await broadcast.connect()
    rt = Notify(settings, nsettings, sessionmaker, games, _Publisher(broadcast, settings.notify_channel))
    games.hooks.append(rt.hooks)
    try:
        if once:
            print(await rt.scheduler.tick())
            print(f"sent {await rt.worker.drain()} mail(s)")
            await rt.wait_idle(60)
            return
        await rt.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        await rt.stop()
        await broadcast.disconnect()
        await engine.dispose()


def scheduler_command(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    asyncio.run(run(once=args.once))
    return 0
