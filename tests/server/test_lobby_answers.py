"""The lobby's answers to a create and a join (issue 16): both are built from the row as the request wrote
it, without reading it back, so they must say exactly what a fresh read of the game says afterwards."""

from __future__ import annotations

from typing import Any

from server_helpers import Player


def _listed(player: Player, game_id: str) -> dict[str, Any]:
    mine = {g["id"]: g for g in player.get("/api/games").json()["mine"]}
    return _without_list_fields(mine[game_id])


def _without_list_fields(summary: dict[str, Any]) -> dict[str, Any]:
    # `decision_hours` and `ratings` are filled in lists only (server/schemas.py GameSummary), from the clock
    # row and the players' ratings.
    return {key: value for key, value in summary.items() if key not in ("decision_hours", "ratings")}


def test_the_create_and_join_answers_equal_a_fresh_read_of_the_game(client) -> None:
    host, guest = Player(client, "answer-host"), Player(client, "answer-guest")
    created = host.post("/api/games", json={"scenario": "tutorial", "side": "red", "visibility": "open",
                                            "decision_hours": 48})
    assert created.status_code == 201
    answer = created.json()
    game_id = answer["id"]
    for link in ("invite_url", "watch_url"):
        answer.pop(link)
    assert _without_list_fields(answer) == _listed(host, game_id)
    assert answer["status"] == "waiting" and answer["your_side"] == "red"

    joined = guest.post(f"/api/games/{game_id}/join", json={"contribution": "c" * 64})
    assert joined.status_code == 200
    assert _without_list_fields(joined.json()) == _listed(guest, game_id)
    assert joined.json()["status"] == "active" and joined.json()["your_side"] == "blue"
    assert set(joined.json()["seats"].values()) == {"answer-host", "answer-guest"}


def test_the_engine_a_join_leaves_in_memory_is_the_stored_starting_state(client) -> None:
    """The joining process keeps the started engine (no read for the first snapshots); it must be the state
    the join stored, the joiner's dice contribution included (docs/dice.md)."""
    host, guest = Player(client, "engine-host"), Player(client, "engine-guest")
    game_id = host.post("/api/games", json={"scenario": "tutorial", "side": "blue"}).json()["id"]
    invite = host.get("/api/games").json()["mine"][0]["invite_token"]
    assert guest.post(f"/api/games/{game_id}/join", json={"invite_token": invite,
                                                           "contribution": "d" * 64}).status_code == 200
    app = client.app
    store = app.state.games.store

    async def both() -> tuple[Any, Any]:
        async with app.state.sessionmaker() as session:
            row = await store.get_row(session, game_id)
            return store.engines.get(game_id, row.version), row.snapshot

    cached, stored = client.portal.call(both)
    assert cached is not None
    assert cached.to_json(include_log=False) == stored
    assert stored["dice"]["contributions"]["red"] == "d" * 64


def _columns(row: Any) -> dict[str, Any]:
    values = {column.key: getattr(row, column.key) for column in row.__mapper__.column_attrs}
    values["seats"] = [(seat.side, seat.user_id, seat.user.username, seat.joined_at) for seat in row.seats]
    return values


def test_the_rows_create_and_join_return_are_what_the_database_holds(client) -> None:
    """Every column and seat of the row `create_game` and `join_game` return (not read back) equals a
    fresh read in another session."""
    host, guest = Player(client, "row-host"), Player(client, "row-guest")
    app = client.app
    lobby, store = app.state.games.lobby, app.state.games.store
    host_id = host.get("/api/me").json()["id"]
    guest_id = guest.get("/api/me").json()["id"]

    async def scenario() -> list[tuple[dict[str, Any], dict[str, Any]]]:
        from server.models import User

        pairs = []
        async with app.state.sessionmaker() as session:
            user = await session.get(User, host_id)
            created = await lobby.create_game(session, user, "tutorial", "blue", "open", decision_hours=24)
            async with app.state.sessionmaker() as fresh:
                pairs.append((_columns(created), _columns(await store.get_row(fresh, created.id))))
        async with app.state.sessionmaker() as session:
            user = await session.get(User, guest_id)
            joined = await lobby.join_game(session, user, created.id, None, "e" * 64)
            async with app.state.sessionmaker() as fresh:
                pairs.append((_columns(joined), _columns(await store.get_row(fresh, created.id))))
        return pairs

    (created, created_fresh), (joined, joined_fresh) = client.portal.call(scenario)
    assert created == created_fresh
    assert joined == joined_fresh
    assert joined["status"] == "active" and len(joined["seats"]) == 2
    assert joined["snapshot"]["dice"]["contributions"]["red"] == "e" * 64
