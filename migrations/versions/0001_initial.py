"""Initial schema: users, sessions, login failures, games, seats, command log, spectators.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("username", sa.String(32), nullable=False, unique=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("is_admin", sa.Boolean, nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_table(
        "user_sessions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("expires_at", TS, nullable=False),
    )
    op.create_index("ix_user_sessions_user_id", "user_sessions", ["user_id"])
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("failed_at", TS, nullable=False),
    )
    op.create_index("ix_login_failures_key_failed_at", "login_failures", ["key", "failed_at"])
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("scenario_id", sa.String(64), nullable=False),
        sa.Column("scenario_json", sa.JSON, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("invite_token", sa.String(64), nullable=False, unique=True),
        sa.Column("watch_token", sa.String(64), nullable=False, unique=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("snapshot", sa.JSON, nullable=False),
        sa.Column("initial_snapshot", sa.JSON, nullable=False),
        sa.Column("awaiting_side", sa.String(32), nullable=True),
        sa.Column("awaiting_since", TS, nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("side", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("joined_at", TS, nullable=False),
        sa.UniqueConstraint("game_id", "user_id", name="uq_game_seats_game_user"),
    )
    op.create_index("ix_game_seats_user_id", "game_seats", ["user_id"])
    op.create_table(
        "game_commands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("side", sa.String(32), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("command_id", sa.String(100), nullable=False),
        sa.Column("command", sa.JSON, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("game_id", "seq", name="uq_game_commands_game_seq"),
        sa.UniqueConstraint("game_id", "command_id", name="uq_game_commands_game_command_id"),
    )
    op.create_table(
        "spectator_connections",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seen_at", TS, nullable=False),
    )
    op.create_index("ix_spectator_connections_game_id", "spectator_connections", ["game_id"])


def downgrade() -> None:
    op.drop_table("spectator_connections")
    op.drop_table("game_commands")
    op.drop_table("game_seats")
    op.drop_table("games")
    op.drop_table("login_failures")
    op.drop_table("user_sessions")
    op.drop_table("users")
