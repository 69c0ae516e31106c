"""`Spectators.spectator_count` (issue 16: a plain statement, not the ORM): a game's live spectators are
its connections seen within `SPECTATOR_TTL`; older rows (a process that died without removing them) and
other games' spectators do not count."""

from __future__ import annotations

from datetime import timedelta

from server_helpers import start_game

from server.models import SpectatorConnection, utcnow
from server.services.spectators import SPECTATOR_TTL


def test_only_a_games_recently_seen_spectators_count(client) -> None:
    _blue, _red, game = start_game(client)
    _b2, _r2, other = start_game(client)
    app = client.app
    now = utcnow()

    async def count_after_adding() -> tuple[int, int, int]:
        async with app.state.sessionmaker() as session:
            before = await app.state.games.spectators.spectator_count(session, game["id"])
            session.add_all([
                SpectatorConnection(id="fresh", game_id=game["id"], seen_at=now),
                SpectatorConnection(id="fresh-too", game_id=game["id"], seen_at=now - SPECTATOR_TTL / 2),
                SpectatorConnection(id="stale", game_id=game["id"], seen_at=now - SPECTATOR_TTL - timedelta(seconds=1)),
                SpectatorConnection(id="elsewhere", game_id=other["id"], seen_at=now),
            ])
            await session.commit()
        async with app.state.sessionmaker() as session:
            return (before, await app.state.games.spectators.spectator_count(session, game["id"]),
                    await app.state.games.spectators.spectator_count(session, other["id"]))

    assert client.portal.call(count_after_adding) == (0, 2, 1)
