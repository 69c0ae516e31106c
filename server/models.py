"""ORM models (SQLAlchemy 2, typed with Mapped[...]). The API never returns these directly."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    join,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, column_property, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite stores them naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Stored lower-cased so "Alice" and "alice" are one account.
    username: Mapped[str] = mapped_column(String(32), unique=True)
    email: Mapped[str] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class UserSession(Base):
    __tablename__ = "user_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # HMAC of the token: a leaked table cannot be replayed as cookies.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())

    user: Mapped[User] = relationship(lazy="joined")


class LoginFailure(Base):
    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # "username|ip": the rate limit is per account and address together.
    key: Mapped[str] = mapped_column(String(128))
    failed_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    __table_args__ = (Index("ix_login_failures_key_failed_at", "key", "failed_at"),)


# A game's row holds what every command changes or the lobby lists; its large documents (the scenario
# and the stored states, tens of kilobytes) live in `game_states`, one row per game (migration 0007).
# The embedded database rewrites a whole row, overflow pages and all, whenever one of its columns
# changes size, and every command changes the row's `awaiting_side`, `version` and `updated_at`: with
# the documents in it, each command wrote about six pages more (issue 16, docs/benchmarks.md).
games_table = Table(
    "games",
    Base.metadata,
    Column("id", String(32), primary_key=True),
    Column("scenario_id", String(64), nullable=False),
    # The edition the game is played under, one its scenario declares (migration 0008; the snapshot names it too).
    Column("ruleset", String(32), nullable=False, server_default="quickplay"),
    # The creator's choice: the game's result moves both players' ratings (migration 0010; never with the computer).
    Column("rated", Boolean, nullable=False, default=False, server_default=false()),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=False),
    Column("visibility", String(16), nullable=False),  # "private" | "open"
    Column("status", String(16), nullable=False, index=True),  # "waiting" | "active" | "over"
    Column("invite_token", String(64), nullable=False, unique=True),
    Column("watch_token", String(64), nullable=False, unique=True),
    Column("version", Integer, nullable=False, default=0),
    Column("awaiting_side", String(32), nullable=True),
    Column("awaiting_since", UTCDateTime(), nullable=True),
    Column("result", JSON, nullable=True),
    Column("created_at", UTCDateTime(), nullable=False, default=utcnow),
    Column("updated_at", UTCDateTime(), nullable=False, default=utcnow),
    # The seq of a command whose mails are still owed (migration 0004; services/commandlog.py).
    Column("mail_owed", Integer, nullable=True, index=True),
    # The creation quota counts a creator's recent games (migration 0006).
    Index("ix_games_created_by_created_at", "created_by", "created_at"),
)

game_states_table = Table(
    "game_states",
    Base.metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # The scenario as it was when the game began, so later edits to the file
    # never break a game that runs for weeks.
    Column("scenario_json", JSON, nullable=False),
    # Full engine state including the secret seed: never leaves the server.
    Column("snapshot", JSON, nullable=False),
    # The version `snapshot` holds: the command path stores it every `snapshot_every` commands and at
    # the end; the log rows after it replay to `version` (migration 0005, `GameStore.engine_at`).
    Column("snapshot_version", Integer, nullable=False, default=0, server_default="0"),
    Column("initial_snapshot", JSON, nullable=False),
)


class Game(Base):
    """One game: its `games` row and its `game_states` row, loaded and stored as one object (the ORM
    writes only the table whose columns changed). Statements that change many games at once name
    `games_table` or `game_states_table`: an UPDATE cannot target the join."""

    __table__ = join(games_table, game_states_table)

    id: Mapped[str] = column_property(games_table.c.id, game_states_table.c.game_id)
    scenario_id: Mapped[str]
    ruleset: Mapped[str]
    rated: Mapped[bool]
    scenario_json: Mapped[dict[str, Any]]
    created_by: Mapped[int]
    visibility: Mapped[str]
    status: Mapped[str]
    invite_token: Mapped[str]
    watch_token: Mapped[str]
    version: Mapped[int]
    snapshot: Mapped[dict[str, Any]]
    snapshot_version: Mapped[int]
    initial_snapshot: Mapped[dict[str, Any]]
    awaiting_side: Mapped[str | None]
    awaiting_since: Mapped[datetime | None]
    result: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    mail_owed: Mapped[int | None]

    # Joined, so loading a game (even FOR UPDATE OF games) is one query.
    seats: Mapped[list[GameSeat]] = relationship(
        back_populates="game", lazy="joined", order_by="GameSeat.side"
    )


class GameSeat(Base):
    __tablename__ = "game_seats"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    side: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="seats")
    user: Mapped[User] = relationship(lazy="joined")

    __table_args__ = (UniqueConstraint("game_id", "user_id", name="uq_game_seats_game_user"),)


class GameCommand(Base):
    """The append-only log: one row per accepted command."""

    __tablename__ = "game_commands"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)  # the game version this command produced
    side: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    command_id: Mapped[str] = mapped_column(String(100))
    command: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_game_commands_game_seq"),
        # Command ids belong to the seat that sent them (migration 0003).
        UniqueConstraint("game_id", "side", "command_id", name="uq_game_commands_game_side_command_id"),
    )


class SpectatorConnection(Base):
    """Live spectator websockets, so every process can count a game's watchers."""

    __tablename__ = "spectator_connections"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    # Refreshed by the owning process; rows it stops refreshing (a crash) age out.
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class PlayerRating(Base):
    """A player's Glicko-2 rating in one edition (migration 0010; services/ratings.py)."""

    __tablename__ = "player_ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    __table_args__ = (Index("ix_player_ratings_ruleset_rating", "ruleset", "rating"),)


class RatingChange(Base):
    """What one finished rated game did to one player's rating. The primary key (game, user) is what makes
    a game's result count once, whichever process records the end (services/commandlog.py)."""

    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    score: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[float] = mapped_column(Float)
    rd_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    rd_after: Mapped[float] = mapped_column(Float)
    volatility_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


# The players' table (migration 0009, issue 44): messages in a game, mutes, private notes.
SEATS_CHANNEL = "seats"            # between the two seats, private to them while the game runs
SPECTATORS_CHANNEL = "spectators"  # the watchers'; the seats do not read it while the game runs
CHANNELS = (SEATS_CHANNEL, SPECTATORS_CHANNEL)


class GameMessage(Base):
    """One message said in a game: plain text, never a command (docs/rulings.md "Messages in a game")."""

    __tablename__ = "game_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))  # SEATS_CHANNEL | SPECTATORS_CHANNEL
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    # The seat's side for the seats' channel (its name is shown), None for a spectator.
    side: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The game's version when it was said: the replay at version N shows the messages of versions <= N.
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # Removed by the admin: kept for the admin's own reading, shown to nobody else.
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    user: Mapped[User] = relationship(lazy="joined")

    __table_args__ = (
        Index("ix_game_messages_game_id_id", "game_id", "id"),
        # The rate limit counts one user's recent messages in a game.
        Index("ix_game_messages_game_user_created", "game_id", "user_id", "created_at"),
    )


class GameMute(Base):
    """A player who muted the opponent's messages in one game (no row: not muted)."""

    __tablename__ = "game_mutes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class GameNote(Base):
    """A player's private note on a game: read by its author only, never by the admin, never sent anywhere."""

    __tablename__ = "game_notes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


__all__ = [
    "CHANNELS",
    "SEATS_CHANNEL",
    "SPECTATORS_CHANNEL",
    "Base",
    "Game",
    "GameCommand",
    "GameMessage",
    "GameMute",
    "GameNote",
    "GameSeat",
    "LoginFailure",
    "PlayerRating",
    "RatingChange",
    "SpectatorConnection",
    "User",
    "UserSession",
    "utcnow",
]
