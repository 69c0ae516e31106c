"""An index for each game's creation quota (issue 12's games per hour, `accounts.check_game_quota`): its
count of the creator's games since an hour ago scanned the whole games table, once per game created, and
on the embedded database on the event loop's own thread (server/sqlite_inline.py).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_games_created_by_created_at", "games", ["created_by", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_games_created_by_created_at", table_name="games")
