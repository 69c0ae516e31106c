"""The outbox, mailer, tokens and digest on their own (no game service needed)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from notify_helpers import mail_body, notify_settings_for

from server.db import create_engine, create_sessionmaker
from server.models import User
from server.notify import compose
from server.notify.mailer import Mail, SmtpMailer, TransientMailError
from server.notify.models import FAILED, PENDING, SENDING, SENT, OutboxMail
from server.notify.outbox import OutboxWorker, enqueue
from server.notify.tokens import read_unsubscribe_token, unsubscribe_token
from server.services.commandlog import close_engine

ROOT = Path(__file__).resolve().parents[2]


def test_unsubscribe_token_round_trip_and_tampering():
    token = unsubscribe_token("secret-a", 42)
    assert read_unsubscribe_token("secret-a", token) == 42
    assert read_unsubscribe_token("secret-b", token) is None
    assert read_unsubscribe_token("secret-a", token.replace("42.", "43.")) is None
    assert read_unsubscribe_token("secret-a", "garbage") is None
    assert read_unsubscribe_token("secret-a", "") is None


def test_smtp_mailer_delivers_through_real_smtp(smtp):
    inbox, port = smtp
    mailer = SmtpMailer(notify_settings_for(port))
    mail = Mail("alice@example.org", "Hello", "Body text\n", "<abc@vedette.test>", {"X-Vedette-Kind": "test"})
    asyncio.run(mailer.send(mail))
    (message,) = inbox.wait_for(1)
    assert message["To"] == "alice@example.org" and message["Message-ID"] == "<abc@vedette.test>"
    assert mail_body(message).strip() == "Body text"


def test_smtp_mailer_reports_an_unreachable_server_as_transient():
    from notify_helpers import free_port

    mailer = SmtpMailer(notify_settings_for(free_port()))
    with pytest.raises(TransientMailError):
        asyncio.run(mailer.send(Mail("a@example.org", "s", "b", "<x@y>")))


def test_digest_uses_only_what_the_viewer_may_see():
    from server.rules import filter_events, parse_scenario
    from server.rules.kernel.game import Game

    scenario = parse_scenario(json.loads((ROOT / "scenarios" / "tutorial.json").read_text()), "tutorial")
    game = Game.new(scenario, "digest-test-seed-0123456789abcdef")

    class Row:
        def __init__(self, seq: int, side: str, events: list[dict[str, Any]]) -> None:
            self.seq, self.side, self.events = seq, side, events

    rows = [
        Row(1, "blue", [{"type": "place", "text": "3.2: Secret Battery placed at 0405", "visible_to": "blue"},
                        {"type": "move", "text": "Dragoons moves 0208 > 0308 (1 MP)"}]),
        Row(2, "blue", [{"type": "returns", "text": "11.4: Guards will return on turn 5 at 0105",
                         "visible_to": "blue"}]),
    ]
    names = {s: scenario.sides[s].name for s in scenario.side_order}
    red = "\n".join(compose.digest_lines(rows, "red", filter_events, names))
    assert "Dragoons moves 0208 > 0308" in red
    assert "placed at" not in red and "will return" not in red
    blue = "\n".join(compose.digest_lines(rows, "blue", filter_events, names))
    assert "placed at 0405" in blue and "will return" in blue
    assert game  # the scenario parses with the real rules core


# ------------------------------------------------------------------ the worker against a database


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


async def _with_db(settings, fn):
    engine = create_engine(settings)
    try:
        return await fn(create_sessionmaker(engine))
    finally:
        await close_engine(engine)


async def _user(sm, name: str) -> User:
    async with sm() as session:
        user = User(username=name, email=f"{name}@example.org", password_hash="x", is_admin=False)
        session.add(user)
        await session.commit()
        return user


async def _queue(sm, nsettings, user: User, key: str, clock: Clock) -> None:
    async with sm() as session:
        await enqueue(session, nsettings, key=key, user=user, kind="your_turn",
                      composed=compose.Composed("Subject " + key, "Body " + key), game_id=None, now=clock())
        await session.commit()


async def _rows(sm) -> list[OutboxMail]:
    from sqlalchemy import select

    async with sm() as session:
        return list((await session.scalars(select(OutboxMail).order_by(OutboxMail.id))).all())


def test_worker_retries_with_backoff_and_sends_once(settings, smtp):
    inbox, port = smtp
    nsettings = notify_settings_for(port, outbox_backoff_seconds=60)
    clock = Clock()

    async def run(sm):
        user = await _user(sm, "retry")
        await _queue(sm, nsettings, user, "k1", clock)
        await _queue(sm, nsettings, user, "k1", clock)  # the same cause twice: one row
        worker = OutboxWorker(sm, nsettings, "secret", SmtpMailer(nsettings), now=clock,
                              postgres=not settings.is_sqlite)
        inbox.fail_next = 1
        assert await worker.drain() == 1  # attempt 1: 451
        (row,) = await _rows(sm)
        assert row.status == PENDING and row.attempts == 1 and "451" in (row.last_error or "")
        assert row.next_attempt_at >= clock() + timedelta(seconds=60 * 0.8)
        assert await worker.drain() == 0  # not due yet
        clock.advance(seconds=73)
        assert await worker.drain() == 1
        (row,) = await _rows(sm)
        assert row.status == SENT and row.attempts == 2
        assert await worker.drain() == 0
        return row

    row = asyncio.run(_with_db(settings, run))
    (message,) = inbox.wait_for(1)
    assert message["Message-ID"] == row.message_id
    assert message["List-Unsubscribe"].startswith("<http://testserver/api/notifications/unsubscribe?token=")
    assert "Stop all Vedette mail" in mail_body(message)


def test_permanent_refusal_and_attempt_limit_mark_failed(settings, smtp):
    inbox, port = smtp
    nsettings = notify_settings_for(port, outbox_max_attempts=2, outbox_backoff_seconds=1)
    clock = Clock()

    async def run(sm):
        user = await _user(sm, "giveup")
        await _queue(sm, nsettings, user, "k2", clock)
        worker = OutboxWorker(sm, nsettings, "secret", SmtpMailer(nsettings), now=clock,
                              postgres=not settings.is_sqlite)
        inbox.fail_next = 5
        await worker.drain()
        clock.advance(seconds=10)
        await worker.drain()
        (row,) = await _rows(sm)
        return row

    row = asyncio.run(_with_db(settings, run))
    assert row.status == FAILED and row.attempts == 2
    assert inbox.messages == []


def test_a_claim_whose_worker_died_is_sent_again_with_the_same_message_id(settings, smtp):
    """Crash between claim (or SMTP accept) and mark-sent: after the lease the mail goes again,
    with the same Message-ID, so a duplicate is detectable (at-least-once, documented)."""
    inbox, port = smtp
    nsettings = notify_settings_for(port, outbox_lease_seconds=120)
    clock = Clock()

    async def run(sm):
        user = await _user(sm, "lease")
        await _queue(sm, nsettings, user, "k3", clock)
        dead = OutboxWorker(sm, nsettings, "secret", SmtpMailer(nsettings), now=clock,
                            postgres=not settings.is_sqlite)
        claimed = await dead.claim()  # ... and the process dies here
        assert claimed is not None
        (row,) = await _rows(sm)
        assert row.status == SENDING
        fresh = OutboxWorker(sm, nsettings, "secret", SmtpMailer(nsettings), now=clock,
                             postgres=not settings.is_sqlite)
        assert await fresh.drain() == 0  # the lease still holds
        clock.advance(seconds=121)
        assert await fresh.drain() == 1
        # The dead worker's late "sent" (if it ever came back) no longer matches the claim.
        await dead._finish(claimed, SENT)
        (row,) = await _rows(sm)
        assert row.status == SENT and row.claimed_by == fresh.worker_id
        return row

    row = asyncio.run(_with_db(settings, run))
    (message,) = inbox.wait_for(1)
    assert message["Message-ID"] == row.message_id


@pytest.mark.postgres
def test_two_workers_never_send_the_same_mail(postgres_settings, smtp):
    inbox, port = smtp
    nsettings = notify_settings_for(port)
    clock = Clock()

    async def run(sm):
        user = await _user(sm, "pair")
        for i in range(30):
            await _queue(sm, nsettings, user, f"pair-{i}", clock)
        workers = [OutboxWorker(sm, nsettings, "secret", SmtpMailer(nsettings), now=clock, postgres=True)
                   for _ in range(3)]
        counts = await asyncio.gather(*(w.drain() for w in workers))
        return counts

    counts = asyncio.run(_with_db(postgres_settings, run))
    assert sum(counts) == 30
    inbox.wait_for(30)
    ids = [m["Message-ID"] for m in inbox.messages]
    assert len(ids) == len(set(ids)) == 30


def test_digests_start_after_each_sides_last_decision_in_person_from_one_read():
    """server/notify/hooks.py `_digests`: a standing order's row does not count as deciding in person,
    a side that never decided in person is told everything, and one log read serves every side."""
    from server.notify.hooks import NotifyHooks

    class Row:
        def __init__(self, seq: int, side: str, text: str, standing: bool = False) -> None:
            self.seq, self.side = seq, side
            self.events = ([{"type": compose.STANDING_ORDER_EVENT, "text": "standing order"}] if standing else []) \
                + [{"type": "note", "text": text}]

    log = [Row(1, "blue", "b1"), Row(2, "red", "r2"), Row(3, "blue", "b3"), Row(4, "red", "r4"),
           Row(5, "blue", "b5", standing=True), Row(6, "red", "r6")]
    reads = []

    class Session:
        async def execute(self, statement: Any, params: dict[str, Any]) -> Any:
            reads.append((statement, params))

            class Result:
                def all(self) -> list[Row]:
                    return list(reversed(log))  # the query asks for newest first
            return Result()

    info = compose.GameInfo("g", "Title", "http://x/games/g", {"blue": "Blue", "red": "Red", "green": "Green"},
                            {"blue": "ann", "red": "bob", "green": None})
    hooks = NotifyHooks.__new__(NotifyHooks)
    digests = asyncio.run(hooks._digests(Session(), "g", ["blue", "red", "green"], info,
                                         lambda events, _viewer: events))
    assert len(reads) == 1
    text = {side: " ".join(lines) for side, lines in digests.items()}
    assert "r4" in text["blue"] and "b5" in text["blue"] and "b3" not in text["blue"]  # 5 was a standing order
    assert "r6" not in text["red"] and "b5" not in text["red"]  # red last decided at 6: nothing since
    assert "b1" in text["green"] and "r6" in text["green"]  # never decided in person: everything


def test_message_ids_are_unique_and_carry_the_senders_domain():
    from server.notify.mailer import new_message_id

    ids = {new_message_id(notify_settings_for(25)) for _ in range(50)}
    assert len(ids) == 50
    assert all(i.startswith("<") and i.endswith("@vedette.test>") for i in ids)
    bare = new_message_id(notify_settings_for(25, mail_from=""))
    assert bare.endswith("@vedette.localhost>")


def test_add_mails_writes_every_value_plan_mails_fills_in():
    """server/notify/outbox.py: `add_mails` inserts the planned rows' values by a fixed list of columns
    (`_PLANNED`), not through the ORM; a value `plan_mails` fills in but the list lacks would be lost."""
    from server.notify.outbox import _PLANNED, QueuedMail, add_mails, plan_mails

    writes = []

    class Session:
        async def scalars(self, statement: Any, params: dict[str, Any]) -> Any:
            class Result:
                def all(self) -> list[Any]:
                    return []  # no preferences stored, no mail queued yet
            return Result()

        async def execute(self, statement: Any, params: list[dict[str, Any]]) -> None:
            writes.append((statement, params))

    user = User(id=7, username="ann", email="ann@example.org", password_hash="x", is_admin=False)
    mails = [QueuedMail("over:g:7", user, "game_over", compose.Composed("Subject", "Body"))]
    now = datetime(2026, 11, 27, tzinfo=UTC)
    rows = asyncio.run(plan_mails(Session(), notify_settings_for(25), mails, game_id="g", now=now))
    filled = {column.key for column in OutboxMail.__table__.columns if getattr(rows[0], column.key) is not None}
    assert filled == set(_PLANNED)
    asyncio.run(add_mails(Session(), rows))
    [(statement, params)] = writes
    assert statement.table is OutboxMail.__table__
    assert params == [{name: getattr(rows[0], name) for name in _PLANNED}]
    assert params[0]["to_addr"] == "ann@example.org" and params[0]["status"] == PENDING
