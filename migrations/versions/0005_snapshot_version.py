"""The stored snapshot every N commands: `games.snapshot_version` says which version the `snapshot`
column holds. The command path no longer rewrites the whole state with every command (tens of
kilobytes on the largest battles); the game log is the write-ahead log, and a process that loads
a game replays the commands after `snapshot_version` (at most N - 1, docs/api.md). Existing rows
hold the snapshot of their current version.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("snapshot_version", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE games SET snapshot_version = version")


def downgrade() -> None:
    # Before dropping the column every row must hold its current version's snapshot again: a
    # downgrade is refused while any game's snapshot is behind (replay them with this revision first).
    bind = op.get_bind()
    behind = bind.execute(sa.text("SELECT count(*) FROM games WHERE snapshot_version <> version")).scalar()
    if behind:
        raise RuntimeError(f"{behind} games hold a snapshot older than their version: the revision "
                           "before 0005 cannot read them; finish or replay those games first")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("snapshot_version")
