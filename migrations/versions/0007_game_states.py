"""A game's large documents move off its row: `game_states` holds the scenario, the stored snapshot (with
`snapshot_version`) and the initial snapshot, one row per game; `games` keeps what commands change and
the lobby lists. The embedded database rewrites a whole row, overflow pages included, whenever one of
its columns changes size, and every command changes `games` (issue 16, docs/benchmarks.md).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_MOVED = ("scenario_json", "snapshot", "snapshot_version", "initial_snapshot")


def upgrade() -> None:
    op.create_table(
        "game_states",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("scenario_json", sa.JSON, nullable=False),
        sa.Column("snapshot", sa.JSON, nullable=False),
        sa.Column("snapshot_version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("initial_snapshot", sa.JSON, nullable=False),
    )
    op.execute(
        "INSERT INTO game_states (game_id, scenario_json, snapshot, snapshot_version, initial_snapshot)"
        " SELECT id, scenario_json, snapshot, snapshot_version, initial_snapshot FROM games"
    )
    # ALTER TABLE ... DROP COLUMN in place (SQLite 3.35+, Postgres): a batch table copy would drop the old
    # `games` table, and with foreign keys on that deletes every seat, log row and state by cascade.
    for column in _MOVED:
        op.execute(f"ALTER TABLE games DROP COLUMN {column}")


def downgrade() -> None:
    # Added in place and filled from game_states. On SQLite they stay nullable: making them NOT NULL
    # needs a table copy, which would cascade-delete the seats and the log (see upgrade).
    op.add_column("games", sa.Column("scenario_json", sa.JSON, nullable=True))
    op.add_column("games", sa.Column("snapshot", sa.JSON, nullable=True))
    op.add_column("games", sa.Column("snapshot_version", sa.Integer, nullable=False, server_default="0"))
    op.add_column("games", sa.Column("initial_snapshot", sa.JSON, nullable=True))
    for column in _MOVED:
        op.execute(
            f"UPDATE games SET {column} = (SELECT s.{column} FROM game_states s WHERE s.game_id = games.id)"
        )
    if op.get_bind().dialect.name == "postgresql":
        for column in ("scenario_json", "snapshot", "initial_snapshot"):
            op.alter_column("games", column, existing_type=sa.JSON, nullable=False)
    op.drop_table("game_states")
