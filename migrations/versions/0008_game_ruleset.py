"""The edition of the rules a game is played under (`games.ruleset`, issue 41): a scenario may declare more than
one (`also_rulesets`) and the creator picks one in the lobby, so the scenario's own `ruleset` no longer says which.
The engine's snapshot has always named it; the row holds it too so that the lobby's lists, which read no
snapshot, name each game's edition. Existing games are filled in from their stored snapshot.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # In place, not through a batch table copy: copying `games` would cascade-delete its seats and log (0007).
    op.add_column("games", sa.Column("ruleset", sa.String(32), nullable=False, server_default="quickplay"))
    snapshot_ruleset = (
        "s.snapshot ->> 'ruleset'" if op.get_bind().dialect.name == "postgresql"
        else "json_extract(s.snapshot, '$.ruleset')"
    )
    op.execute(
        f"UPDATE games SET ruleset = COALESCE((SELECT {snapshot_ruleset} FROM game_states s"
        " WHERE s.game_id = games.id), 'quickplay')"
    )


def downgrade() -> None:
    op.execute("ALTER TABLE games DROP COLUMN ruleset")
