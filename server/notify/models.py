"""Tables of asynchronous play (migration 0002). They live on the service's metadata."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..models import Base, UTCDateTime, utcnow

# Outbox statuses.
PENDING = "pending"    # waiting for a worker (next_attempt_at)
SENDING = "sending"    # claimed by a worker until lease_until
SENT = "sent"          # the SMTP server accepted it
FAILED = "failed"      # given up (permanent refusal or too many attempts)
HELD = "held"          # a digest reader's notice, waiting to be merged into a digest
MERGED = "merged"      # merged into the digest row `digest_id`
CANCELLED = "cancelled"  # the recipient turned mail off before it went


class OutboxMail(Base):
    """One mail to send, written in the transaction of the change that causes it."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Unique per cause ("turn:GAME:SEQ:USER"): the same cause can never queue a mail twice.
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    # The Message-ID header, fixed at enqueue time: a resend after a crash carries the same one.
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True
    )
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), nullable=True
    )
    kind: Mapped[str] = mapped_column(String(32))
    to_addr: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default=PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    digest_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    __table_args__ = (
        Index("ix_outbox_status_next_attempt_at", "status", "next_attempt_at"),
    )


class NotificationPrefs(Base):
    """A user's mail preference; no row means "every" (a mail for every decision)."""

    __tablename__ = "notification_prefs"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16), default="every")  # every | digest | none
    digest_hours: Mapped[int] = mapped_column(Integer, default=24)
    last_digest_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class GameClock(Base):
    """A game's decision deadline, pause and overdue state (one row per game with a clock)."""

    __tablename__ = "game_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    decision_hours: Mapped[int | None] = mapped_column(Integer, nullable=True)
    side: Mapped[str | None] = mapped_column(String(32), nullable=True)  # whose deadline runs
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    reminded_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    overdue_since: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    pause_requested_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    pause_requested_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    pause_requested_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    paused_from: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    paused_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    __table_args__ = (Index("ix_game_clocks_deadline_at", "deadline_at"),)


class StandingOrders(Base):
    """A seat's standing orders for one game (never shown to the opponent)."""

    __tablename__ = "standing_orders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(32), primary_key=True)
    orders: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class SeatPresence(Base):
    """Open player websockets (any process), so "is this player here?" has one answer."""

    __tablename__ = "seat_presence"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    side: Mapped[str] = mapped_column(String(32))
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    __table_args__ = (Index("ix_seat_presence_game_side", "game_id", "side"),)


__all__ = [
    "CANCELLED",
    "FAILED",
    "HELD",
    "MERGED",
    "PENDING",
    "SENDING",
    "SENT",
    "GameClock",
    "NotificationPrefs",
    "OutboxMail",
    "SeatPresence",
    "StandingOrders",
]
