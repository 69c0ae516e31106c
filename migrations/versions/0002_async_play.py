"""Asynchronous play: mail outbox, notification preferences, game clocks, standing orders, presence.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("idempotency_key", sa.String(200), nullable=False, unique=True),
        sa.Column("message_id", sa.String(255), nullable=False, unique=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("to_addr", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", TS, nullable=False),
        sa.Column("lease_until", TS, nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("digest_id", sa.Integer, nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("sent_at", TS, nullable=True),
    )
    op.create_index("ix_outbox_status_next_attempt_at", "outbox", ["status", "next_attempt_at"])
    op.create_index("ix_outbox_user_id", "outbox", ["user_id"])
    op.create_table(
        "notification_prefs",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("digest_hours", sa.Integer, nullable=False),
        sa.Column("last_digest_at", TS, nullable=True),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_table(
        "game_clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("decision_hours", sa.Integer, nullable=True),
        sa.Column("side", sa.String(32), nullable=True),
        sa.Column("started_at", TS, nullable=True),
        sa.Column("deadline_at", TS, nullable=True),
        sa.Column("reminded_at", TS, nullable=True),
        sa.Column("overdue_since", TS, nullable=True),
        sa.Column("pause_requested_by", sa.String(32), nullable=True),
        sa.Column("pause_requested_days", sa.Integer, nullable=True),
        sa.Column("pause_requested_at", TS, nullable=True),
        sa.Column("paused_from", TS, nullable=True),
        sa.Column("paused_until", TS, nullable=True),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_index("ix_game_clocks_deadline_at", "game_clocks", ["deadline_at"])
    op.create_table(
        "standing_orders",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("side", sa.String(32), primary_key=True),
        sa.Column("orders", sa.JSON, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_table(
        "seat_presence",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("side", sa.String(32), nullable=False),
        sa.Column("seen_at", TS, nullable=False),
    )
    op.create_index("ix_seat_presence_game_side", "seat_presence", ["game_id", "side"])


def downgrade() -> None:
    op.drop_table("seat_presence")
    op.drop_table("standing_orders")
    op.drop_table("game_clocks")
    op.drop_table("notification_prefs")
    op.drop_table("outbox")
