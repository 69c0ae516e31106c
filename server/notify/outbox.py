"""The transactional outbox: `enqueue` inside the caller's transaction, `OutboxWorker` sends.

Delivery guarantee (honest version):
* A mail row commits in the same transaction as the change that causes it, or not at all.
  A crash before that commit loses both; a crash after it loses neither: the row waits.
* A worker CLAIMS a row in one short transaction (status "sending", a lease, attempts+1;
  Postgres: SELECT ... FOR UPDATE SKIP LOCKED so two workers never claim the same row;
  SQLite: writes are serialised and the claim is a compare-and-set), talks SMTP with no
  transaction open, then marks it "sent" in a SEPARATE transaction.
* The one window left: the SMTP server accepted the mail and the process died before
  "sent" committed. After the lease runs out another worker sends it again. That resend
  carries the SAME Message-ID (fixed when the row was written), so it is detectable and
  most mail stores and clients fold it into one; it is at-least-once, not exactly-once.
  No SMTP protocol can close this window (SMTP has no idempotent submit).
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import uuid
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..models import User
from . import compose
from .config import NotifySettings
from .db import Writing, plain_writing
from .mailer import Mail, Mailer, PermanentMailError, new_message_id
from .models import FAILED, HELD, PENDING, SENDING, SENT, NotificationPrefs, OutboxMail
from .tokens import unsubscribe_token

log = logging.getLogger(__name__)

# Kinds that never wait for a digest: a deadline does not wait N hours.
URGENT_KINDS = frozenset({"deadline_reminder", "overdue"})
MODES = ("every", "digest", "none")


@dataclass(frozen=True, slots=True)
class QueuedMail:
    key: str
    user: User
    kind: str
    composed: compose.Composed


async def enqueue(
    session: AsyncSession,
    settings: NotifySettings,
    *,
    key: str,
    user: User,
    kind: str,
    composed: compose.Composed,
    game_id: str | None,
    now: datetime,
) -> OutboxMail | None:
    """Add one mail to the caller's transaction (nothing is sent here). None when the user's
    preference is "none" or this cause already queued its mail."""
    rows = await enqueue_many(session, settings, [QueuedMail(key, user, kind, composed)], game_id=game_id, now=now)
    return rows[0]


async def enqueue_many(
    session: AsyncSession, settings: NotifySettings, mails: list[QueuedMail], *, game_id: str | None,
    now: datetime,
) -> list[OutboxMail | None]:
    """`enqueue` for several mails of one cause (a game's end mails both players) in three
    statements whatever their number: the preferences, the keys already queued, the inserts."""
    user_ids = {mail.user.id for mail in mails}
    prefs = {p.user_id: p for p in (await session.scalars(
        select(NotificationPrefs).where(NotificationPrefs.user_id.in_(user_ids))
    )).all()}
    keys = [mail.key[:200] for mail in mails]
    queued = set((await session.scalars(
        select(OutboxMail.idempotency_key).where(OutboxMail.idempotency_key.in_(keys))
    )).all())
    rows: list[OutboxMail | None] = []
    for mail, key in zip(mails, keys, strict=True):
        user_prefs = prefs.get(mail.user.id)
        mode = user_prefs.mode if user_prefs is not None else "every"
        if mode == "none" or key in queued:
            rows.append(None)
            continue
        queued.add(key)
        row = OutboxMail(
            idempotency_key=key,
            message_id=new_message_id(settings),
            user_id=mail.user.id,
            game_id=game_id,
            kind=mail.kind,
            to_addr=mail.user.email,
            subject=mail.composed.subject[:300],
            body=mail.composed.body,
            status=HELD if mode == "digest" and mail.kind not in URGENT_KINDS else PENDING,
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
        session.add(row)
        rows.append(row)
    if any(row is not None for row in rows):
        await session.flush()
    return rows


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a claimed row says after one attempt to send it."""

    status: str
    error: str | None = None
    next_attempt: datetime | None = None


class OutboxWorker:
    """Sends pending outbox rows: claim, SMTP, mark; retries with exponential backoff."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        settings: NotifySettings,
        secret_key: str,
        mailer: Mailer,
        *,
        now: Callable[[], datetime],
        postgres: bool,
        writing: Writing = plain_writing,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.settings = settings
        self.secret_key = secret_key
        self.mailer = mailer
        self.now = now
        self.postgres = postgres
        self.writing = writing
        self.worker_id = f"{socket.gethostname()[:40]}:{uuid.uuid4().hex[:12]}"
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    # -------------------------------------------------------------- lifecycle

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="vedette-outbox-worker")

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._task

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        woken = False
        while not self._stopping:
            try:
                # Woken by a commit that queued mail: claim at once. On the poll: look first.
                await self.drain(look_first=not woken)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox worker pass failed")
            woken = False
            try:
                await asyncio.wait_for(self._wake.wait(), self.settings.outbox_poll_seconds)
                woken = True
            except TimeoutError:
                pass
            self._wake.clear()

    # ------------------------------------------------------------------ work

    # Rows claimed per transaction: each is sent within the claim's lease (outbox_lease_seconds), so a
    # batch is small beside lease / the mailer's timeout; a game's end owes two mails, its start two.
    BATCH = 10

    async def drain(self, limit: int = 1000, *, look_first: bool = True) -> int:
        """Send everything due now; returns how many rows were handled. Rows are claimed in batches
        (one transaction) and their outcomes stored together (one more): a batch costs two
        transactions instead of three per mail. A batch that came back short was everything due."""
        handled = 0
        look = look_first
        while handled < limit:
            wanted = min(self.BATCH, limit - handled)
            claimed = await self.claim_batch(wanted, look=look)
            if not claimed:
                break
            outcomes = [(row, await self._attempt(row)) for row in claimed]
            await self._finish_many(outcomes)
            handled += len(claimed)
            if len(claimed) < wanted:
                break  # a mail queued since then wakes the worker again
            look = True
        return handled

    async def claim(self) -> OutboxMail | None:
        """One due row, claimed (the tests' and the CLI's single step)."""
        claimed = await self.claim_batch(1)
        return claimed[0] if claimed else None

    async def claim_batch(self, limit: int, *, look: bool = True) -> list[OutboxMail]:
        """Up to `limit` due rows, oldest first, leased to this worker in one transaction. `look`: see
        first, without a write lock, whether anything is due (an idle poll never takes SQLite's
        writer lock); a worker woken by a commit that queued mail skips the look."""
        now = self.now()
        lease = now + timedelta(seconds=self.settings.outbox_lease_seconds)
        due = (
            ((OutboxMail.status == PENDING) & (OutboxMail.next_attempt_at <= now))
            | ((OutboxMail.status == SENDING) & (OutboxMail.lease_until < now))
        )
        if look:
            async with self.sessionmaker() as session:
                if await session.scalar(select(OutboxMail.id).where(due).limit(1)) is None:
                    return []
        async with self.sessionmaker() as session, self.writing(session):
            stmt = select(OutboxMail).where(due).order_by(OutboxMail.id).limit(limit)
            if self.postgres:
                stmt = stmt.with_for_update(skip_locked=True)
            rows = list((await session.scalars(stmt)).all())
            if not rows:
                await session.rollback()
                return []
            seen = [(row.id, row.status, row.attempts) for row in rows]
            # Each row only as it was read (its status and attempts): under SQLite's writer lock or
            # Postgres's row locks nobody changes them meanwhile, and a mismatch would claim nothing.
            done = await session.execute(
                update(OutboxMail)
                .where(tuple_(OutboxMail.id, OutboxMail.status, OutboxMail.attempts).in_(seen))
                .values(status=SENDING, lease_until=lease, claimed_by=self.worker_id,
                        attempts=OutboxMail.attempts + 1)
                .execution_options(synchronize_session=False)
            )
            if done.rowcount != len(rows):
                await session.rollback()
                return []
            await session.commit()
            for row, (_, previous, attempts) in zip(rows, seen, strict=True):
                session.expunge(row)  # ours now, whatever the session does on the way out
                if previous == SENDING:
                    log.warning("outbox mail %s: lease expired (worker died mid-send?); sending again "
                                "with the same Message-ID %s", row.id, row.message_id)
                row.status = SENDING
                row.attempts = attempts + 1
                row.claimed_by = self.worker_id
                row.lease_until = lease
            return rows

    def headers_for(self, row: OutboxMail) -> dict[str, str]:
        base = self.settings.public_base_url
        headers = {"X-Vedette-Kind": row.kind, "X-Vedette-Idempotency-Key": row.idempotency_key}
        if row.user_id is not None:
            url = f"{base}/api/notifications/unsubscribe?token={unsubscribe_token(self.secret_key, row.user_id)}"
            headers["List-Unsubscribe"] = f"<{url}>"
            headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        return headers

    def full_body(self, row: OutboxMail) -> str:
        if row.user_id is None:
            return row.body
        base = self.settings.public_base_url
        token = unsubscribe_token(self.secret_key, row.user_id)
        return row.body.rstrip("\n") + "\n" + compose.footer(
            f"{base}/api/notifications/unsubscribe?token={token}", f"{base}/#notifications"
        )

    async def deliver(self, row: OutboxMail) -> None:
        """Send one claimed row and store its outcome."""
        await self._finish_many([(row, await self._attempt(row))])

    async def _attempt(self, row: OutboxMail) -> Outcome:
        """Send one claimed row: what its row should say afterwards."""
        mail = Mail(row.to_addr, row.subject, self.full_body(row), row.message_id, self.headers_for(row))
        try:
            await self.mailer.send(mail)
        except PermanentMailError as exc:
            log.error("outbox mail %s to %s refused for good: %s", row.id, row.to_addr, exc)
            return Outcome(FAILED, error=str(exc))
        except Exception as exc:  # noqa: BLE001 - TransientMailError or anything unforeseen: retry
            if row.attempts >= self.settings.outbox_max_attempts:
                log.error("outbox mail %s: giving up after %s attempts: %s", row.id, row.attempts, exc)
                return Outcome(FAILED, error=f"gave up after {row.attempts} attempts: {exc}")
            delay = min(
                self.settings.outbox_backoff_seconds * (2 ** (row.attempts - 1)),
                self.settings.outbox_backoff_max_seconds,
            ) * random.uniform(0.8, 1.2)
            log.warning("outbox mail %s: attempt %s failed (%s); retry in %.0f s",
                        row.id, row.attempts, exc, delay)
            return Outcome(PENDING, error=f"{type(exc).__name__}: {exc}",
                           next_attempt=self.now() + timedelta(seconds=delay))
        return Outcome(SENT)

    async def _finish(
        self, row: OutboxMail, status: str, *, error: str | None = None, next_attempt: datetime | None = None
    ) -> None:
        await self._finish_many([(row, Outcome(status, error=error, next_attempt=next_attempt))])

    async def _finish_many(self, outcomes: list[tuple[OutboxMail, Outcome]]) -> None:
        """Store the outcomes of claimed rows in one transaction: the sent ones by one statement."""
        now = self.now()
        sent = [(row.id, row.attempts) for row, outcome in outcomes if outcome.status == SENT]
        async with self.sessionmaker() as session, self.writing(session):
            # Only rows whose claim we still hold: a row whose lease expired and was re-claimed by
            # another worker is that worker's to finish.
            if sent:
                await session.execute(
                    update(OutboxMail)
                    .where(tuple_(OutboxMail.id, OutboxMail.attempts).in_(sent),
                           OutboxMail.claimed_by == self.worker_id)
                    .values(status=SENT, lease_until=None, last_error=None, sent_at=now)
                    .execution_options(synchronize_session=False)
                )
            for row, outcome in outcomes:
                if outcome.status == SENT:
                    continue
                values: dict[str, Any] = {"status": outcome.status, "lease_until": None, "last_error": outcome.error}
                if outcome.next_attempt is not None:
                    values["next_attempt_at"] = outcome.next_attempt
                await session.execute(
                    update(OutboxMail)
                    .where(OutboxMail.id == row.id, OutboxMail.claimed_by == self.worker_id,
                           OutboxMail.attempts == row.attempts)
                    .values(**values)
                    .execution_options(synchronize_session=False)
                )
            await session.commit()
