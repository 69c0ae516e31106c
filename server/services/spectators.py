"""Spectators: the table of watching connections (`spectator_connections`), shared by every process.

Each process's hub adds a row per spectator's websocket, removes it when it closes, and touches its rows
on every heartbeat; a row not touched within `SPECTATOR_TTL` (its process died) no longer counts, and
is deleted a few TTLs later.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import SpectatorConnection, utcnow
from . import commandlog

SPECTATOR_TTL = timedelta(seconds=90)
_PLAIN_LIVE_SPECTATORS = "SELECT count(*) FROM spectator_connections WHERE game_id = {0} AND seen_at > {1}"


class Spectators:
    """The spectator rows' writes and counts. It holds nothing: an object only so that the hub is handed
    its spectators (a test hands it others)."""

    async def add_spectator(self, session: AsyncSession, connection_id: str, game_id: str) -> None:
        session.add(SpectatorConnection(id=connection_id, game_id=game_id, seen_at=utcnow()))
        await session.commit()

    async def remove_spectator(self, session: AsyncSession, connection_id: str) -> None:
        await session.execute(delete(SpectatorConnection).where(SpectatorConnection.id == connection_id))
        await session.commit()

    async def touch_spectators(self, session: AsyncSession, connection_ids: list[str]) -> None:
        if not connection_ids:
            return
        now = utcnow()
        await session.execute(
            update(SpectatorConnection).where(SpectatorConnection.id.in_(connection_ids)).values(seen_at=now)
        )
        await session.execute(
            delete(SpectatorConnection).where(SpectatorConnection.seen_at < now - SPECTATOR_TTL * 4)
        )
        await session.commit()

    async def spectator_counts(self, session: AsyncSession, game_ids: list[str]) -> dict[str, int]:
        """Live spectators of each of `game_ids` (0 for a game nobody watches), in one read."""
        counts = dict.fromkeys(game_ids, 0)
        for start in range(0, len(game_ids), 500):
            chunk = game_ids[start:start + 500]
            rows = await session.execute(
                select(SpectatorConnection.game_id, func.count())
                .where(
                    SpectatorConnection.game_id.in_(chunk),
                    SpectatorConnection.seen_at > utcnow() - SPECTATOR_TTL,
                )
                .group_by(SpectatorConnection.game_id)
            )
            for game_id, count in rows:
                counts[game_id] = int(count)
        return counts

    async def spectator_count(self, session: AsyncSession, game_id: str) -> int:
        """A game's live spectators, by one plain statement (a new game's first snapshot asks; the ORM's
        session and statement cost more than a millisecond of its handshake, issue 16)."""
        since = utcnow() - SPECTATOR_TTL

        def sqlite(conn: Any) -> Any:
            return conn.execute(_PLAIN_LIVE_SPECTATORS.format("?", "?"),
                                (game_id, commandlog.sqlite_timestamp(since))).fetchone()[0]

        async def postgres(conn: Any) -> Any:
            return await conn.fetchval(_PLAIN_LIVE_SPECTATORS.format("$1", "$2"), game_id, since)

        return int(await commandlog.plain_read(session.bind, sqlite, postgres) or 0)


__all__ = ["SPECTATOR_TTL", "Spectators"]
