"""server/notify/presence.py: a seat connected to this process is online without a query."""

from __future__ import annotations

import asyncio
from typing import Any

from server.notify.presence import Presence


class NoDatabase:
    """A session that fails the test if presence asks the database anything."""

    async def scalar(self, *_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("presence queried the database for a seat connected here")


def test_a_seat_connected_to_this_process_is_online_without_a_query() -> None:
    connected = {("g1", "blue")}
    presence = Presence(sessionmaker=None, ttl_seconds=60,  # type: ignore[arg-type]
                        local=lambda game_id, side: (game_id, side) in connected)

    assert asyncio.run(presence.is_online(NoDatabase(), "g1", "blue")) is True  # type: ignore[arg-type]


def test_a_seat_not_connected_here_is_looked_up_in_the_table() -> None:
    class Table:
        asked = 0

        async def scalar(self, *_args: Any, **_kwargs: Any) -> Any:
            Table.asked += 1
            return False

    presence = Presence(sessionmaker=None, ttl_seconds=60, local=lambda _g, _s: False)  # type: ignore[arg-type]

    assert asyncio.run(presence.is_online(Table(), "g1", "red")) is False  # type: ignore[arg-type]
    assert Table.asked == 1
