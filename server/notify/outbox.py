"""The transactional outbox: `enqueue` inside the caller's transaction, `OutboxWorker` sends.

Delivery guarantee (honest version):
* A mail row commits in the same transaction as the change that causes it, or not at all.
  A crash before that commit loses both; a crash after it loses neither: the row waits.
* A worker CLAIMS a row in one short transaction (status "sending", a lease, attempts+1;
  Postgres: SELECT ... FOR UPDATE SKIP LOCKED so two workers never claim the same row;
  SQLite: the claim reads and updates under the database's write lock), talks SMTP with no
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

from sqlalchemy import bindparam, insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..models import User
from ..services.commandlog import (
    parse_sqlite_timestamp,
    plain_read,
    plain_transaction,
    sqlite_timestamp,
)
from . import compose
from .config import NotifySettings
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
    rows = await plan_mails(session, settings, mails, game_id=game_id, now=now)
    await add_mails(session, rows)
    return rows


# What `plan_mails` fills in of a row (the rest start empty), and the one INSERT `add_mails` writes them with.
_PLANNED = ("idempotency_key", "message_id", "user_id", "game_id", "kind", "to_addr", "subject", "body", "status",
            "attempts", "next_attempt_at", "created_at")
_INSERT_MAILS = insert(OutboxMail.__table__)
# `plan_mails`'s two reads (every join, every game's end), built once (see services/store.py `_GAME_ROW`).
_PREFS_OF = select(NotificationPrefs).where(NotificationPrefs.user_id.in_(bindparam("user_ids", expanding=True)))
_QUEUED_KEYS = select(OutboxMail.idempotency_key).where(
    OutboxMail.idempotency_key.in_(bindparam("keys", expanding=True))
)


async def plan_mails(
    session: AsyncSession, settings: NotifySettings, mails: list[QueuedMail], *, game_id: str | None,
    now: datetime,
) -> list[OutboxMail | None]:
    """The outbox rows `mails` make (None: the user wants no mail, or the cause queued it already),
    read but not added: a caller that writes by compare-and-set reads before its write transaction
    and adds them in it (`add_mails`)."""
    user_ids = {mail.user.id for mail in mails}
    prefs = {p.user_id: p for p in (await session.scalars(_PREFS_OF, {"user_ids": list(user_ids)})).all()}
    keys = [mail.key[:200] for mail in mails]
    queued = set((await session.scalars(_QUEUED_KEYS, {"keys": keys})).all())
    rows: list[OutboxMail | None] = []
    for mail, key in zip(mails, keys, strict=True):
        user_prefs = prefs.get(mail.user.id)
        mode = user_prefs.mode if user_prefs is not None else "every"
        if mode == "none" or key in queued:
            rows.append(None)
            continue
        queued.add(key)
        rows.append(OutboxMail(
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
        ))
    return rows


async def add_mails(session: AsyncSession, rows: list[OutboxMail | None]) -> None:
    """Write planned rows in the caller's transaction: one INSERT for them all, without the ORM's unit of
    work, which cost more than the statement itself at every join and every game's end (issue 16). The
    row objects stay as they were planned (not added to the session; no id)."""
    planned = [row for row in rows if row is not None]
    if planned:
        await session.execute(_INSERT_MAILS, [{name: getattr(row, name) for name in _PLANNED} for row in planned])


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
        sqlite_writer: asyncio.Lock | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        # The game service's queue of SQLite writers, which the claims join (None: a worker of its own).
        self.sqlite_writer = sqlite_writer
        self.settings = settings
        self.secret_key = secret_key
        self.mailer = mailer
        self.now = now
        self.postgres = postgres
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
        writer lock); a worker woken by a commit that queued mail skips the look.

        Plain statements, not the ORM (`commandlog.plain_transaction`): a claim is two of them, and on
        the embedded database its transaction holds SQLite's only write lock, which every command of
        every game waits for (issue 16). The rows come back as detached `OutboxMail` objects."""
        now = self.now()
        lease = now + timedelta(seconds=self.settings.outbox_lease_seconds)
        bind = self._bind()
        if look:
            ts = sqlite_timestamp(now)
            found = await plain_read(
                bind,
                lambda conn: conn.execute(_SQLITE_DUE_ONE, (PENDING, ts, SENDING, ts)).fetchone(),
                lambda conn: conn.fetchval(_PG_DUE_ONE, PENDING, now, SENDING),
            )
            if found is None:
                return []
        claimed = await plain_transaction(
            bind,
            lambda conn: _claim_sqlite(conn, now, lease, self.worker_id, limit),
            lambda conn: _claim_postgres(conn, now, lease, self.worker_id, limit),
            sqlite_writer=self.sqlite_writer,
        )
        rows = []
        for values, previous in sorted(claimed, key=lambda pair: pair[0]["id"]):
            row = OutboxMail(**values)
            if previous == SENDING:
                log.warning("outbox mail %s: lease expired (worker died mid-send?); sending again "
                            "with the same Message-ID %s", row.id, row.message_id)
            rows.append(row)
        return rows

    def _bind(self) -> Any:
        bind = self.sessionmaker.kw.get("bind")
        if bind is None:
            raise RuntimeError("the outbox worker's sessionmaker must be bound to the app's engine")
        return bind

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
        """Store the outcomes of claimed rows in one transaction (plain statements, as the claim).
        Only rows whose claim we still hold: a row whose lease expired and was re-claimed by another
        worker is that worker's to finish."""
        now = self.now()
        sent = [(row.id, row.attempts) for row, outcome in outcomes if outcome.status == SENT]
        others = [(row, outcome) for row, outcome in outcomes if outcome.status != SENT]
        worker = self.worker_id

        def sqlite(conn: Any) -> None:
            ts = sqlite_timestamp(now)
            conn.executemany(_SQLITE_SENT, [(ts, row_id, attempts, worker) for row_id, attempts in sent])
            conn.executemany(_SQLITE_OUTCOME, [
                (o.status, o.error, sqlite_timestamp(o.next_attempt), row.id, row.attempts, worker)
                for row, o in others
            ])

        async def postgres(conn: Any) -> None:
            if sent:
                await conn.executemany(_PG_SENT, [(now, row_id, attempts, worker) for row_id, attempts in sent])
            if others:
                await conn.executemany(_PG_OUTCOME, [
                    (o.status, o.error, o.next_attempt, row.id, row.attempts, worker) for row, o in others
                ])

        await plain_transaction(self._bind(), sqlite, postgres, sqlite_writer=self.sqlite_writer)


_COLUMNS = (
    "id", "idempotency_key", "message_id", "user_id", "game_id", "kind", "to_addr", "subject", "body",
    "status", "attempts", "next_attempt_at", "lease_until", "claimed_by", "last_error", "digest_id",
    "created_at", "sent_at",
)
_TIMESTAMPS = frozenset({"next_attempt_at", "lease_until", "created_at", "sent_at"})
_DUE = "((status = {0} AND next_attempt_at <= {1}) OR (status = {2} AND lease_until < {3}))"
_SQLITE_DUE_ONE = "SELECT id FROM outbox WHERE " + _DUE.format("?", "?", "?", "?") + " LIMIT 1"
_PG_DUE_ONE = "SELECT id FROM outbox WHERE " + _DUE.format("$1", "$2", "$3", "$2") + " LIMIT 1"
_SQLITE_DUE = (
    f"SELECT {', '.join(_COLUMNS)} FROM outbox WHERE " + _DUE.format("?", "?", "?", "?") + " ORDER BY id LIMIT ?"
)
_PG_CLAIM = (
    "WITH due AS (SELECT id, status AS previous FROM outbox WHERE " + _DUE.format("$1", "$2", "$3", "$2")
    + " ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED)"
    " UPDATE outbox SET status = $3, lease_until = $5, claimed_by = $6, attempts = outbox.attempts + 1"
    f" FROM due WHERE outbox.id = due.id RETURNING {', '.join('outbox.' + c for c in _COLUMNS)}, due.previous"
)
_SQLITE_SENT = (
    "UPDATE outbox SET status = 'sent', lease_until = NULL, last_error = NULL, sent_at = ?"
    " WHERE id = ? AND attempts = ? AND claimed_by = ?"
)
_PG_SENT = (
    "UPDATE outbox SET status = 'sent', lease_until = NULL, last_error = NULL, sent_at = $1"
    " WHERE id = $2 AND attempts = $3 AND claimed_by = $4"
)
_SQLITE_OUTCOME = (
    "UPDATE outbox SET status = ?, lease_until = NULL, last_error = ?,"
    " next_attempt_at = COALESCE(?, next_attempt_at) WHERE id = ? AND attempts = ? AND claimed_by = ?"
)
_PG_OUTCOME = (
    "UPDATE outbox SET status = $1, lease_until = NULL, last_error = $2,"
    " next_attempt_at = COALESCE($3, next_attempt_at) WHERE id = $4 AND attempts = $5 AND claimed_by = $6"
)


def _claim_sqlite(
    conn: Any, now: datetime, lease: datetime, worker: str, limit: int
) -> list[tuple[dict[str, Any], str]]:
    """The claim under SQLite's write lock (taken by BEGIN IMMEDIATE): nobody changes the rows
    between this read and the update."""
    ts = sqlite_timestamp(now)
    found = conn.execute(_SQLITE_DUE, (PENDING, ts, SENDING, ts, limit)).fetchall()
    if not found:
        return []
    ids = [row[0] for row in found]
    conn.execute(
        f"UPDATE outbox SET status = ?, lease_until = ?, claimed_by = ?, attempts = attempts + 1"
        f" WHERE id IN ({', '.join('?' * len(ids))})",
        (SENDING, sqlite_timestamp(lease), worker, *ids),
    )
    claimed = []
    for row in found:
        values = {c: (parse_sqlite_timestamp(v) if c in _TIMESTAMPS else v) for c, v in zip(_COLUMNS, row, strict=True)}
        previous = values["status"]
        values.update(status=SENDING, attempts=values["attempts"] + 1, claimed_by=worker, lease_until=lease)
        claimed.append((values, previous))
    return claimed


async def _claim_postgres(
    conn: Any, now: datetime, lease: datetime, worker: str, limit: int
) -> list[tuple[dict[str, Any], str]]:
    """One statement: the due rows locked (skipping those another worker is claiming) and leased."""
    records = await conn.fetch(_PG_CLAIM, PENDING, now, SENDING, limit, lease, worker)
    return [({c: record[c] for c in _COLUMNS}, record["previous"]) for record in records]
