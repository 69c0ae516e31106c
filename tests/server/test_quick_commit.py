"""server/services/games.py, the quick path (Postgres): a running game this process already knows is
judged against its cached engine and stored by ONE compare-and-set statement, without the row lock.
These tests hold it to the locked path's answers: the same log and snapshot, 409 when another process
moved the game on, the first answer for a repeated command id, and refusals that change nothing."""

from __future__ import annotations

import copy
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Player, pick_command, server_game, start_game

from server.config import Settings

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_client(postgres_settings: Settings) -> Iterator[TestClient]:
    from server.main import create_app

    with TestClient(create_app(postgres_settings)) as client:
        yield client


class LockSpy:
    """Counts the locked path's row locks in one app."""

    def __init__(self, client: TestClient) -> None:
        self.calls = 0
        service = client.app.state.service
        original = service._lock_for_command

        async def counting(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return await original(*args, **kwargs)

        service._lock_for_command = counting


def _through(player: Player, client: TestClient) -> Player:
    """The same account speaking to another server process."""
    other = copy.copy(player)
    other.client = client
    return other


def _send(player: Any, game_id: str, command: dict[str, Any], version: int, command_id: str | None = None) -> Any:
    return player.post(
        f"/api/games/{game_id}/commands",
        json={"command": command, "expected_version": version, "command_id": command_id or str(uuid.uuid4())},
    )


def _mover(client: TestClient, game_id: str, a: Any, b: Any) -> tuple[Any, str]:
    engine_game, _ = server_game(client, game_id)
    side = engine_game.awaiting
    return (a if side == "blue" else b), side


def _play(client: TestClient, game_id: str, a: Any, b: Any, version: int, rng: random.Random) -> int:
    player, side = _mover(client, game_id, a, b)
    response = _send(player, game_id, pick_command(client, game_id, side, rng), version)
    assert response.status_code == 200, response.text
    assert response.json()["version"] == version + 1
    return version + 1


def _stored(client: TestClient, game_id: str) -> tuple[Any, list[Any], Any]:
    app = client.app

    async def read() -> tuple[Any, list[Any], Any]:
        service = app.state.service
        async with app.state.sessionmaker() as session:
            row = await service.get_row(session, game_id)
            rows = await service.log_rows(session, game_id)
            return row, rows, service.replay(row, rows)

    assert client.portal is not None
    return client.portal.call(read)


def test_commands_of_a_known_game_are_stored_without_the_row_lock(pg_client: TestClient) -> None:
    a, b, game = start_game(pg_client)
    gid = game["id"]
    spy = LockSpy(pg_client)
    rng = random.Random(3)
    version = 0
    # Both players have the game open here, so no command has a mail to compose (which would
    # take the locked path, with the mail in the command's transaction).
    with a.ws(gid) as ws_a, b.ws(gid) as ws_b:
        for ws in (ws_a, ws_b):
            assert ws.receive_json()["type"] == "snapshot"
        for _ in range(12):
            version = _play(pg_client, gid, a, b, version, rng)
    # The players' snapshots taught the process the game: not one command took the row lock.
    assert spy.calls == 0, spy.calls
    row, rows, replayed = _stored(pg_client, gid)
    assert row.version == version == len(rows)
    assert [r.seq for r in rows] == list(range(1, version + 1))
    assert replayed.to_json(include_log=False) == row.snapshot
    assert row.awaiting_side == replayed.awaiting


def test_a_process_whose_cache_is_stale_gets_409_and_writes_nothing(postgres_settings: Settings) -> None:
    from server.main import create_app

    # The second process listens on another channel, so the first hears nothing of its change
    # and keeps its cached state: exactly the window the compare-and-set must close.
    deaf = postgres_settings.model_copy(update={"notify_channel": f"{postgres_settings.notify_channel}_other"})
    with TestClient(create_app(postgres_settings)) as first, TestClient(create_app(deaf)) as second:
        a, b, game = start_game(first)
        gid = game["id"]
        rng = random.Random(5)
        with a.ws(gid) as ws_a, b.ws(gid) as ws_b:
            for ws in (ws_a, ws_b):
                assert ws.receive_json()["type"] == "snapshot"
            _stale_cache_round(first, second, a, b, gid, rng)


def _stale_cache_round(first: TestClient, second: TestClient, a: Player, b: Player, gid: str,
                       rng: random.Random) -> None:
    version = _play(first, gid, a, b, 0, rng)
    version = _play(first, gid, a, b, version, rng)
    spy = LockSpy(first)

    # The second process moves the game on; the first still holds the game at `version`.
    player, side = _mover(first, gid, a, b)
    command = pick_command(first, gid, side, rng)
    taken_id = str(uuid.uuid4())
    moved = _send(_through(player, second), gid, command, version, taken_id)
    assert moved.status_code == 200, moved.text

    stale = _send(player, gid, command, version)
    assert stale.status_code == 409, stale.text
    assert stale.json()["error"] == "stale_version" and stale.json()["version"] == version + 1
    assert spy.calls == 0  # refused by the compare-and-set itself, not by the locked path
    # The repeat of the id the other process applied gets that first answer, applied once.
    repeat = _send(player, gid, command, version, taken_id)
    assert repeat.status_code == 200, repeat.text
    assert repeat.json() == moved.json()

    row, rows, replayed = _stored(first, gid)
    assert row.version == version + 1 == len(rows)
    assert replayed.to_json(include_log=False) == row.snapshot
    # Having forgotten the game, the first process plays on from what is stored.
    after = _play(first, gid, a, b, version + 1, rng)
    assert after == version + 2

def test_a_refused_command_on_the_quick_path_changes_nothing(pg_client: TestClient) -> None:
    a, b, game = start_game(pg_client)
    gid = game["id"]
    rng = random.Random(9)
    version = _play(pg_client, gid, a, b, 0, rng)
    before, _, _ = _stored(pg_client, gid)
    player, _side = _mover(pg_client, gid, a, b)
    refused = _send(player, gid, {"type": "move", "units": ["no-such-unit"], "path": ["0101", "0102"]}, version)
    assert refused.status_code == 422, refused.text
    assert refused.json()["rule"]
    waiting = b if player is a else a
    not_yours = _send(waiting, gid, {"type": "end_phase"}, version)
    assert not_yours.status_code == 422, not_yours.text
    after, rows, _ = _stored(pg_client, gid)
    assert after.version == version and len(rows) == version
    assert after.snapshot == before.snapshot
    assert _play(pg_client, gid, a, b, version, rng) == version + 1
