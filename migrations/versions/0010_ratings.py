"""Ratings (issue 44): one Glicko-2 rating per player and edition, and each rated game's change.

* `games.rated`: the creator's choice at creation (never with a computer seat). Games made before this
  migration were never offered the choice and are not rated (server default false).
* `player_ratings`: a player's current rating in one edition (`ruleset`), one row per (user, ruleset).
* `rating_changes`: what one finished rated game did to one player's rating, before and after. Written in the
  transaction that records the game's end (services/commandlog.py); its primary key (game, user) makes a
  second application of the same game's result impossible, in any process.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # In place, not through a batch table copy: copying `games` would cascade-delete its seats and log (0007).
    op.add_column("games", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "player_ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ruleset", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    # The lobby's filter by rating range reads ratings of one edition.
    op.create_index("ix_player_ratings_ruleset_rating", "player_ratings", ["ruleset", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),  # 1 a win, 0.5 a draw, 0 a loss
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rd_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("rd_after", sa.Float(), nullable=False),
        sa.Column("volatility_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_user_id", "rating_changes", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_user_id", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_player_ratings_ruleset_rating", table_name="player_ratings")
    op.drop_table("player_ratings")
    op.execute("ALTER TABLE games DROP COLUMN rated")
