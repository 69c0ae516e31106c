"""The players' table (issue 44): messages in a game and each player's private note.

Two channels per game (`models.CHANNELS`): the seats' (the two players, private to them) and the spectators'.
While the game runs each side reads only its own channel, so no watcher can coach a player and no watcher
reads what the players say to each other; once it is over, everyone who may see the game reads both
(docs/rulings.md "Messages in a game"). The admin reads (and removes) any message at any time.

A message is plain text and nothing else: it has its own route and is never parsed, judged or replayed as a
command. A note is read by its author alone: no view, frame, mail, record, replay or admin answer holds one.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import ApiError
from ..models import (
    SEATS_CHANNEL,
    SPECTATORS_CHANNEL,
    Game,
    GameMessage,
    GameMute,
    GameNote,
    User,
    utcnow,
)
from .access import Viewer
from .writes import WriteQueue

MAX_MESSAGE_CHARS = 500
MAX_NOTE_CHARS = 4000
# At most RATE_COUNT messages per user per game in any RATE_SECONDS (counted in the database, so every
# process of a deployment counts the same messages).
RATE_COUNT = 5
RATE_SECONDS = 10

# Besides the C0/C1 controls: the line and paragraph separators and the bidirectional overrides and
# isolates, which would let a message break a mail's lines or show its words in another order than sent.
_REFUSED_FORMAT = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# A note is a text box: its lines and tabs are the author's own.
_NOTE_WHITESPACE = frozenset("\n\t")


def _refused_character(text: str, allowed: frozenset[str] = frozenset()) -> str | None:
    for ch in text:
        if ch in allowed:
            continue
        if unicodedata.category(ch) == "Cc" or ch in _REFUSED_FORMAT:
            return f"U+{ord(ch):04X}"
    return None


def clean_message(text: Any) -> str:
    """The message as stored: one line of plain text, 1 to MAX_MESSAGE_CHARS characters; 422 otherwise."""
    if not isinstance(text, str):
        raise ApiError(422, "bad_message", "A message is a string of text.", field="text")
    text = text.strip(" ")
    bad = _refused_character(text)
    if bad is not None:
        raise ApiError(
            422, "control_character",
            f"A message is one line of plain text: the control character {bad} is not allowed.",
            field="text", character=bad,
        )
    text = text.strip()
    if not text:
        raise ApiError(422, "empty_message", "The message is empty.", field="text")
    if len(text) > MAX_MESSAGE_CHARS:
        raise ApiError(
            422, "message_too_long",
            f"A message may be at most {MAX_MESSAGE_CHARS} characters (this one has {len(text)}).",
            field="text", limit=MAX_MESSAGE_CHARS,
        )
    return text


def clean_note(text: Any) -> str:
    """The note as stored: plain text with lines and tabs, at most MAX_NOTE_CHARS characters; 422 otherwise."""
    if not isinstance(text, str):
        raise ApiError(422, "bad_note", "A note is a string of text.", field="text")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    bad = _refused_character(text, _NOTE_WHITESPACE)
    if bad is not None:
        raise ApiError(
            422, "control_character", f"A note is plain text: the control character {bad} is not allowed.",
            field="text", character=bad,
        )
    if len(text) > MAX_NOTE_CHARS:
        raise ApiError(
            422, "note_too_long", f"A note may be at most {MAX_NOTE_CHARS} characters (this one has {len(text)}).",
            field="text", limit=MAX_NOTE_CHARS,
        )
    return text


def _retry_after(oldest: Any, now: datetime) -> int:
    """Whole seconds until the oldest message in the window leaves it (1 to RATE_SECONDS)."""
    if isinstance(oldest, str):  # an aggregate the driver did not convert
        oldest = datetime.fromisoformat(oldest)
    if not isinstance(oldest, datetime):
        return RATE_SECONDS
    if oldest.tzinfo is None:
        oldest = oldest.replace(tzinfo=UTC)
    wait = math.ceil((oldest + timedelta(seconds=RATE_SECONDS) - now).total_seconds())
    return min(RATE_SECONDS, max(1, wait))


def is_over(row: Game) -> bool:
    return row.status == "over"


def readable_channels(viewer: Viewer, over: bool) -> tuple[str, ...]:
    """The channels `viewer` reads: its own while the game runs, both once it is over; the admin both always."""
    if viewer.role == "admin" or over:
        return (SEATS_CHANNEL, SPECTATORS_CHANNEL)
    if viewer.role == "seat":
        return (SEATS_CHANNEL,)
    return (SPECTATORS_CHANNEL,)


def posting_channel(viewer: Viewer) -> str:
    """Where `viewer` speaks: a seat in the seats' channel (only), anyone else in the spectators'."""
    return SEATS_CHANNEL if viewer.role == "seat" else SPECTATORS_CHANNEL


def public(message: GameMessage, *, admin: bool = False) -> dict[str, Any]:
    """A message as the page reads it (`removed` only in the admin's own listing)."""
    out: dict[str, Any] = {
        "id": message.id,
        "channel": message.channel,
        "side": message.side,
        "author": message.user.username,
        "version": message.version,
        "at": message.created_at,
        "text": message.text,
    }
    if admin:
        out["removed"] = message.removed_at is not None
        out["removed_at"] = message.removed_at
    return out


@dataclass(frozen=True)
class MailedMessage:
    """A seat's message as a mail quotes it."""

    side: str | None
    author: str
    version: int
    text: str


_VISIBLE = GameMessage.removed_at.is_(None)


async def is_muted(session: AsyncSession, game_id: str, user_id: int | None) -> bool:
    """Whether the player `user_id` muted the opponent's messages in the game."""
    if user_id is None:
        return False
    return await session.get(GameMute, (game_id, user_id)) is not None


async def mail_messages(
    session: AsyncSession, game_id: str, user_id: int, since_version: int, limit: int = 20,
) -> list[MailedMessage]:
    """The seats' messages said at versions >= `since_version`, for a mail to the seat `user_id` (the opponent's
    left out if it muted them; removed ones left out), the latest `limit`, oldest first. Never the spectators'
    channel: a mail goes to a player while the game runs."""
    query = select(GameMessage).where(
        GameMessage.game_id == game_id, GameMessage.channel == SEATS_CHANNEL, _VISIBLE,
        GameMessage.version >= since_version,
    ).order_by(GameMessage.id.desc()).limit(limit)
    muted = await is_muted(session, game_id, user_id)
    found = [m for m in (await session.scalars(query)).all() if not (muted and m.user_id != user_id)]
    return [MailedMessage(m.side, m.user.username, m.version, m.text) for m in reversed(found)]


class Table:
    """Messages, mutes and notes: each write one short transaction in the process's write queue."""

    def __init__(self, writes: WriteQueue) -> None:
        self.writes = writes

    # ------------------------------------------------------------ messages

    async def post(
        self, session: AsyncSession, row: Game, viewer: Viewer, user: User | None, text: Any,
        now: datetime | None = None,
    ) -> dict[str, Any]:
        """Say `text` in the viewer's channel. 401 logged out, 422 bad text, 429 past the rate limit."""
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to write in a game's messages.")
        clean = clean_message(text)
        channel = posting_channel(viewer)
        now = now or utcnow()
        async with self.writes.writing(session):
            recent = (await session.execute(
                select(func.count(), func.min(GameMessage.created_at)).where(
                    GameMessage.game_id == row.id, GameMessage.user_id == user.id,
                    GameMessage.created_at > now - timedelta(seconds=RATE_SECONDS),
                )
            )).one()
            if recent[0] >= RATE_COUNT:
                raise ApiError(
                    429, "too_many_messages",
                    f"At most {RATE_COUNT} messages in {RATE_SECONDS} seconds in one game; wait a moment.",
                    limit=RATE_COUNT, seconds=RATE_SECONDS, retry_after=_retry_after(recent[1], now),
                )
            message = GameMessage(
                game_id=row.id, channel=channel, user_id=user.id,
                side=viewer.side if channel == SEATS_CHANNEL else None,
                version=row.version, text=clean, created_at=now,
            )
            session.add(message)
            await session.flush()
            message_id = message.id
            await session.commit()
        stored = await session.get(GameMessage, message_id, populate_existing=True)
        assert stored is not None
        return public(stored)

    async def listing(
        self, session: AsyncSession, row: Game, viewer: Viewer, upto: int | None = None,
    ) -> dict[str, Any]:
        """What `viewer` reads of the game's messages (those said at versions <= `upto`, for a replay)."""
        over = is_over(row)
        channels = readable_channels(viewer, over)
        query = select(GameMessage).where(
            GameMessage.game_id == row.id, GameMessage.channel.in_(channels), _VISIBLE,
        ).order_by(GameMessage.id)
        if upto is not None:
            query = query.where(GameMessage.version <= upto)
        muted = viewer.role == "seat" and await self.is_muted(session, row.id, viewer.user_id)
        messages = [
            public(m) for m in (await session.scalars(query)).all()
            if not (muted and m.channel == SEATS_CHANNEL and m.side != viewer.side)
        ]
        return {
            "channels": list(channels),
            "post_channel": posting_channel(viewer),
            "can_post": viewer.user_id is not None,
            "muted": muted,
            "messages": messages,
            "limit": MAX_MESSAGE_CHARS,
        }

    async def record_messages(self, session: AsyncSession, game_id: str) -> list[dict[str, Any]]:
        """Every message not removed, for the game record (published once the game is over, or to the admin)."""
        query = select(GameMessage).where(GameMessage.game_id == game_id, _VISIBLE).order_by(GameMessage.id)
        return [public(m) for m in (await session.scalars(query)).all()]

    # ------------------------------------------------------------ mutes

    async def is_muted(self, session: AsyncSession, game_id: str, user_id: int | None) -> bool:
        return await is_muted(session, game_id, user_id)

    async def set_muted(self, session: AsyncSession, game_id: str, user_id: int, muted: bool) -> bool:
        async with self.writes.writing(session):
            existing = await session.get(GameMute, (game_id, user_id))
            if muted and existing is None:
                session.add(GameMute(game_id=game_id, user_id=user_id))
            elif not muted and existing is not None:
                await session.delete(existing)
            await session.commit()
        return muted

    # ------------------------------------------------------------ the admin

    async def admin_listing(self, session: AsyncSession, game_id: str) -> list[dict[str, Any]]:
        query = select(GameMessage).where(GameMessage.game_id == game_id).order_by(GameMessage.id)
        return [public(m, admin=True) for m in (await session.scalars(query)).all()]

    async def remove(self, session: AsyncSession, message_id: int) -> GameMessage:
        """Take a message out of every reader's sight (the admin's own listing keeps it, marked removed)."""
        async with self.writes.writing(session):
            message = await session.get(GameMessage, message_id)
            if message is None:
                raise ApiError(404, "not_found", "No such message.")
            if message.removed_at is None:
                message.removed_at = utcnow()
            await session.commit()
        return message

    # ------------------------------------------------------------ notes

    async def note(self, session: AsyncSession, game_id: str, user_id: int) -> dict[str, Any]:
        found = await session.get(GameNote, (game_id, user_id))
        return {"text": found.text if found else "", "updated_at": found.updated_at if found else None,
                "limit": MAX_NOTE_CHARS}

    async def set_note(self, session: AsyncSession, game_id: str, user_id: int, text: Any) -> dict[str, Any]:
        clean = clean_note(text)
        async with self.writes.writing(session):
            if clean:
                found = await session.get(GameNote, (game_id, user_id))
                if found is None:
                    session.add(GameNote(game_id=game_id, user_id=user_id, text=clean))
                else:
                    found.text, found.updated_at = clean, utcnow()
            else:  # an emptied note is no note
                await session.execute(delete(GameNote).where(
                    GameNote.game_id == game_id, GameNote.user_id == user_id))
            await session.commit()
        return await self.note(session, game_id, user_id)


__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_NOTE_CHARS",
    "RATE_COUNT",
    "RATE_SECONDS",
    "MailedMessage",
    "Table",
    "clean_message",
    "clean_note",
    "is_muted",
    "mail_messages",
    "posting_channel",
    "readable_channels",
]
