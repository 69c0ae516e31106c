"""A real server process SIGKILLed while its outbox worker is in the middle of an SMTP conversation,
with another committed (and claimed) mail not yet sent. After a restart each mail is delivered exactly once."""

from __future__ import annotations

import asyncio
import threading
import time
from email import message_from_bytes
from pathlib import Path
from typing import Any

import httpx
import pytest
from notify_helpers import free_port
from server_process import ServerProcess
from sqlalchemy import select

from server.db import create_engine, create_sessionmaker
from server.notify.models import OutboxMail
from server.services.commandlog import close_engine

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.postgres]


class StallingInbox:
    """Stalls on the first DATA (never answering it), accepts everything after."""

    def __init__(self) -> None:
        self.accepted: list[Any] = []
        self.first_seen = threading.Event()
        self.release = asyncio.Event()
        self.stalled = False

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if not self.stalled:
            self.stalled = True
            self.first_seen.set()
            await self.release.wait()  # the client dies meanwhile; this mail is never accepted
            return "451 4.3.0 too late"
        self.accepted.append(message_from_bytes(envelope.content))
        return "250 OK"


def Server(settings: Any, smtp_port: int, log_path: Path) -> ServerProcess:
    """The real server, mailing through the test's SMTP inbox."""
    return ServerProcess(settings, free_port(), log_path, {
        "VEDETTE_SMTP_HOST": "127.0.0.1",
        "VEDETTE_SMTP_PORT": str(smtp_port),
        "VEDETTE_SMTP_TLS": "off",
        "VEDETTE_SMTP_TIMEOUT_SECONDS": "120",
        "VEDETTE_OUTBOX_POLL_SECONDS": "0.2",
        "VEDETTE_OUTBOX_LEASE_SECONDS": "2",
        "VEDETTE_BASE_URL": "http://vedette.test",
    })


async def _outbox(settings: Any) -> list[OutboxMail]:
    engine = create_engine(settings)
    try:
        async with create_sessionmaker(engine)() as session:
            return list((await session.scalars(select(OutboxMail).order_by(OutboxMail.id))).all())
    finally:
        await close_engine(engine)


def test_sigkill_mid_smtp_and_before_send_delivers_each_mail_once(postgres_settings, tmp_path):
    from aiosmtpd.controller import Controller

    inbox = StallingInbox()
    smtp_port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    server = Server(postgres_settings, smtp_port, tmp_path / "a.log")
    try:
        http = httpx.Client(base_url=server.url, timeout=10)
        tokens = {}
        for name in ("killblue", "killred"):
            r = http.post("/api/users", json={"username": name, "password": "password123",
                                               "email": f"{name}@example.org"})
            assert r.status_code == 201, r.text
            tokens[name] = {"Authorization": f"Bearer {r.json()['token']}"}
        game = http.post("/api/games", json={"scenario": "tutorial", "side": "blue"},
                         headers=tokens["killblue"]).json()
        joined = http.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]},
                           headers=tokens["killred"])
        assert joined.status_code == 200, joined.text
        # Two mails committed with the join; the worker is now stuck in the first one's DATA.
        assert inbox.first_seen.wait(15)
        server.kill()
        rows = asyncio.run(_outbox(postgres_settings))
        # The worker claims due mails in batches: both are leased to the dead worker, neither was accepted.
        assert [r.status for r in rows] == ["sending", "sending"]
        assert inbox.accepted == []
        stuck = rows[0]  # the oldest is sent first: the one in the stalled DATA

        server = Server(postgres_settings, smtp_port, tmp_path / "b.log")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(inbox.accepted) < 2:
            time.sleep(0.1)
        time.sleep(1.0)  # nothing more arrives
        assert len(inbox.accepted) == 2
        assert sorted(m["X-Vedette-Kind"] for m in inbox.accepted) == ["game_started", "opponent_joined"]
        resent = next(m for m in inbox.accepted if m["Message-ID"] == stuck.message_id)
        assert resent["To"] == stuck.to_addr
        rows = asyncio.run(_outbox(postgres_settings))
        assert [r.status for r in rows] == ["sent", "sent"]
        assert next(r for r in rows if r.id == stuck.id).attempts == 2
    finally:
        server.kill()
        controller.loop.call_soon_threadsafe(inbox.release.set)
        controller.stop()
