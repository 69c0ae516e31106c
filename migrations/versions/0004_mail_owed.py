"""Mail owed after a command: the command path commits the command alone and marks the game
(`games.mail_owed` = the command's seq) when that command owes mails (the game ended, or the
decision passed to a player who may be away). The mails follow in their own transaction,
which clears the mark; a process that died in between leaves it for the sweep
(server/notify/runtime.py), and the mails' idempotency keys make a second try harmless.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("mail_owed", sa.Integer, nullable=True))
    op.create_index("ix_games_mail_owed", "games", ["mail_owed"])


def downgrade() -> None:
    op.drop_index("ix_games_mail_owed", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("mail_owed")
