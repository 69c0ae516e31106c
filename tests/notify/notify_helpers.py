"""Helpers for the asynchronous-play tests: an app wired to the test SMTP server, clocks, play."""

from __future__ import annotations

import functools
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Inbox:
    """Everything the test SMTP server accepted."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.envelopes: list[Any] = []
        self.lock = threading.Lock()
        self.fail_next = 0  # answer this many DATA commands with a 451 (transient)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            if self.fail_next > 0:
                self.fail_next -= 1
                return "451 4.3.0 try again later"
            self.envelopes.append(envelope)
            self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    def kinds(self, address: str | None = None) -> list[str]:
        with self.lock:
            return [str(m["X-Vedette-Kind"]) for m in self.messages if address is None or m["To"] == address]

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Message]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.messages) >= count:
                    return list(self.messages)
            time.sleep(0.05)
        raise AssertionError(f"expected {count} mails, got {len(self.messages)}: {self.kinds()}")

    def clear(self) -> None:
        with self.lock:
            self.messages.clear()
            self.envelopes.clear()


def notify_settings_for(port: int, **overrides: Any) -> Any:
    from server.notify.config import NotifySettings

    values: dict[str, Any] = {
        "smtp_host": "127.0.0.1", "smtp_port": port, "smtp_tls": "off",
        "mail_from": "Vedette <referee@vedette.test>", "base_url": "http://testserver",
        "outbox_poll_seconds": 0.2, "outbox_backoff_seconds": 0.05, "scheduler": False,
        "smtp_timeout_seconds": 5,
    }
    values.update(overrides)
    return NotifySettings(**values)


def mail_body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")

# Blue's opening in the tutorial up to an attack whose result may force a retreat (moves roll no dice,
# so every seed reaches the attack; `retreat_seed` finds one whose dice make Red retreat).
RETREAT_OPENING = [
    {"type": "end_phase"},
    {"type": "move", "units": ["b-cav"], "path": ["0208", "0308", "0407", "0508", "0608", "0709"]},
    {"type": "move", "units": ["b-1", "b-ldr"], "path": ["0305", "0306", "0406"]},
    {"type": "move", "units": ["b-art"], "path": ["0306", "0406", "0407", "0408"]},
    {"type": "move", "units": ["b-jg"], "path": ["0403", "0504", "0603", "0703", "0803"]},
    {"type": "end_phase"},
    {"type": "attack", "target": "0808", "attackers": ["b-cav"], "primary": "b-cav", "leaders": []},
]


class Clock:
    """An injectable clock for deadlines, digests and the outbox."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> datetime:
        self.now += timedelta(**kw)
        return self.now


@contextmanager
def notify_client(settings: Any, port: int, **overrides: Any) -> Iterator[TestClient]:
    from server.main import create_app

    app = create_app(settings)
    app.state.notify_settings = notify_settings_for(port, **overrides)
    with TestClient(app) as client:
        yield client


def runtime(client: TestClient) -> Any:
    return client.app.state.notify


def call(client: TestClient, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run an async function on the app's event loop."""
    assert client.portal is not None
    return client.portal.call(functools.partial(fn, *args, **kwargs))


def settle(client: TestClient) -> None:
    """Wait for the runtime's follow-up tasks (standing orders) and the outbox to go quiet."""
    rt = runtime(client)
    call(client, rt.wait_idle)
    time.sleep(0.05)


def game_view(player: Any, game_id: str) -> dict[str, Any]:
    response = player.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def command(player: Any, game_id: str, cmd: dict[str, Any]) -> dict[str, Any]:
    version = game_view(player, game_id)["version"]
    response = player.post(f"/api/games/{game_id}/commands", json={"command": cmd, "expected_version": version})
    assert response.status_code == 200, response.text
    return dict(response.json())


def end_phases_until_not(player: Any, game_id: str, side: str, limit: int = 10) -> None:
    """`player` (playing `side`) ends phases until the decision is no longer theirs."""
    for _ in range(limit):
        view = game_view(player, game_id)["view"]
        if view["awaiting"] != side:
            return
        command(player, game_id, {"type": "end_phase"})
    raise AssertionError(f"{side} still awaited after {limit} end_phase")


def outbox_rows(client: TestClient) -> list[Any]:
    """The outbox once the mails the commands so far owe are queued (they follow each command's commit)."""
    from sqlalchemy import select

    call(client, runtime(client).wait_idle)

    from server.notify.models import OutboxMail

    async def load() -> list[Any]:
        async with client.app.state.sessionmaker() as session:
            return list((await session.scalars(select(OutboxMail).order_by(OutboxMail.id))).all())

    return list(call(client, load))


def force_seed(client: TestClient, game_id: str, seed: str) -> None:
    """Give a not-yet-played game a known dice seed (tests only)."""
    from server.db import begin_write
    from server.services.engine import rules

    app = client.app

    async def run() -> None:
        store = app.state.games.store
        async with app.state.sessionmaker() as session:
            await begin_write(session)
            row = await store.get_row(session, game_id)
            assert row.version == 0
            fresh = rules().Game.new(store.scenario_of(row), seed)
            snapshot = fresh.to_json()
            row.snapshot, row.initial_snapshot, row.awaiting_side = snapshot, snapshot, fresh.awaiting
            await session.commit()
        store.engines.drop(game_id)

    call(client, run)


def retreat_seed() -> tuple[str, list[str]]:
    """A seed whose dice make Red retreat (with several safe paths) after RETREAT_OPENING."""
    from server.rules import Game, parse_scenario

    scenario = parse_scenario(json.loads((ROOT / "scenarios" / "tutorial.json").read_text()), "tutorial")
    for i in range(400):
        seed = f"vedette-notify-test-seed-{i:04d}"
        game = Game.new(scenario, seed)
        try:
            for cmd in RETREAT_OPENING:
                game.submit("blue", cmd)
        except ValueError:
            continue
        d = game.state.decision
        if d and d["kind"] == "retreat" and d["side"] == "red" and len(d["options"]) > 1 \
                and any(o.get("safe") for o in d["options"]):
            return seed, [o["id"] for o in d["options"]]
    raise AssertionError("no seed in 400 gives a retreat: has the tutorial or the opening changed?")
