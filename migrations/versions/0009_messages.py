"""The players' table (issue 44): messages in a game (the seats' channel and the spectators'), a player's mute of
the opponent's messages, and each player's private note on a game.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "game_messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("side", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("removed_at", TS, nullable=True),
    )
    op.create_index("ix_game_messages_game_id_id", "game_messages", ["game_id", "id"])
    op.create_index("ix_game_messages_game_user_created", "game_messages", ["game_id", "user_id", "created_at"])
    op.create_table(
        "game_mutes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_table(
        "game_notes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_notes")
    op.drop_table("game_mutes")
    op.drop_index("ix_game_messages_game_user_created", table_name="game_messages")
    op.drop_index("ix_game_messages_game_id_id", table_name="game_messages")
    op.drop_table("game_messages")
