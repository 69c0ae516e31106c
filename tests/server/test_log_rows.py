"""`GameStore.log_rows` (issue 16): the log read for a snapshot, a history or a replay is one plain
statement, and gives exactly the rows the ORM reads, in order and bounded as asked."""

from __future__ import annotations

from server_helpers import server_game, start_game
from sqlalchemy import select

from server.models import GameCommand


def _end_phases(client, players, game_id: str, count: int) -> None:
    by_side = {"blue": players[0], "red": players[1]}
    for _ in range(count):
        engine_game = server_game(client, game_id)[0]
        mover = by_side[engine_game.awaiting]
        answer = mover.post(f"/api/games/{game_id}/commands",
                            json={"command": {"type": "end_phase"}, "expected_version": engine_game.version})
        assert answer.status_code == 200, answer.text


def test_the_plain_log_read_equals_the_orm_read_row_for_row(client) -> None:
    blue, red, game = start_game(client)
    _end_phases(client, (blue, red), game["id"], 6)
    app = client.app
    columns = ("game_id", "seq", "side", "user_id", "command_id", "command", "events", "created_at")

    async def both(after: int, upto: int | None):
        async with app.state.sessionmaker() as session:
            plain = await app.state.games.store.log_rows(session, game["id"], after=after, upto=upto)
            stmt = select(GameCommand).where(GameCommand.game_id == game["id"], GameCommand.seq > after)
            if upto is not None:
                stmt = stmt.where(GameCommand.seq <= upto)
            orm = (await session.scalars(stmt.order_by(GameCommand.seq))).all()
            return ([tuple(getattr(r, c) for c in columns) for r in plain],
                    [tuple(getattr(r, c) for c in columns) for r in orm])

    for after, upto in ((0, None), (0, 6), (2, 5), (6, 6), (0, 0)):
        plain, orm = client.portal.call(both, after, upto)
        assert plain == orm, (after, upto)
        assert [r[1] for r in plain] == list(range(after + 1, (upto if upto is not None else 6) + 1))
    plain, _ = client.portal.call(both, 0, None)
    assert all(r[7].tzinfo is not None for r in plain)  # aware timestamps, as the ORM's `UTCDateTime`
