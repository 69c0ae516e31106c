"""Command ids are scoped to the seat that sent them: unique per (game, side, command_id).

With the old (game, command_id) index a seat repeating the OTHER seat's id was answered with
that seat's first answer, hidden events included; now each seat's ids are its own.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_commands") as batch:
        batch.drop_constraint("uq_game_commands_game_command_id", type_="unique")
        batch.create_unique_constraint(
            "uq_game_commands_game_side_command_id", ["game_id", "side", "command_id"]
        )


def downgrade() -> None:
    # Ids two seats both used cannot go back under the narrower index; such a database stays at 0003.
    with op.batch_alter_table("game_commands") as batch:
        batch.drop_constraint("uq_game_commands_game_side_command_id", type_="unique")
        batch.create_unique_constraint("uq_game_commands_game_command_id", ["game_id", "command_id"])
