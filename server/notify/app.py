"""Wiring into the FastAPI app: the runtime started in the app's lifespan. (The notifications' routes are
the app's own, server/api/routes/notifications.py and deadlines.py.)"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI

from ..config import Settings
from ..services.wiring import GameServices
from .config import NotifySettings
from .runtime import Notify

log = logging.getLogger(__name__)


async def start_notify(
    app: FastAPI, settings: Settings, sessionmaker: Any, games: GameServices, hub: Any,
) -> Notify:
    """Create and start this process's runtime. Tests may preset `app.state.notify_settings`
    (a NotifySettings) and `app.state.notify_mailer` before the app starts."""
    nsettings = getattr(app.state, "notify_settings", None) or NotifySettings()
    rt = Notify(settings, nsettings, sessionmaker, games, hub,
                mailer=getattr(app.state, "notify_mailer", None))
    games.hooks.append(rt.hooks)
    observers = getattr(hub, "observers", None)
    if observers is not None:
        observers.append(rt.presence)
    app.state.notify = rt
    await rt.start()
    return rt
