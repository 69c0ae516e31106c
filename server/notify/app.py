"""Wiring into the FastAPI app: routers, and the runtime started in the app's lifespan."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, FastAPI

from ..config import Settings
from .config import NotifySettings
from .runtime import Notify

log = logging.getLogger(__name__)


def routers() -> list[APIRouter]:
    from ..api.routes import deadlines, notifications

    return [notifications.router, deadlines.router]


async def start_notify(app: FastAPI, settings: Settings, sessionmaker: Any, service: Any, hub: Any) -> Notify:
    """Create and start this process's runtime. Tests may preset `app.state.notify_settings`
    (a NotifySettings) and `app.state.notify_mailer` before the app starts."""
    nsettings = getattr(app.state, "notify_settings", None) or NotifySettings()
    rt = Notify(settings, nsettings, sessionmaker, service, hub,
                mailer=getattr(app.state, "notify_mailer", None))
    hooks = getattr(service, "hooks", None)
    if hooks is not None:
        hooks.append(rt.hooks)
    else:
        log.error("the game service has no hooks list: no mail will be queued")
    observers = getattr(hub, "observers", None)
    if observers is not None:
        observers.append(rt.presence)
    app.state.notify = rt
    await rt.start()
    return rt
