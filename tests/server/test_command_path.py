"""server/services/commands.py `_command` and server/services/commandlog.py: the one command path. A game
this process serves is judged against its live engine and stored by ONE compare-and-set write, on both
databases, with no read of the game. These tests hold it to its guarantees: the stored log and snapshot
equal a replay, 409 when another process moved the game on (and nothing written), the first answer for
a repeated command id, refusals that change nothing, and the mails a command owes (after its commit, or
by the sweep if the process died in between)."""

from __future__ import annotations

import asyncio
import copy
import random
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Player, pick_command, server_game, start_game
from sqlalchemy import text

from server.config import Settings
from server.models import User
from server.rules.kernel.game import verify_record
from server.services import commandlog


@pytest.fixture
def pg_client(settings: Settings) -> Iterator[TestClient]:
    """An app on each database (the `settings` fixture: SQLite and Postgres)."""
    from server.main import create_app

    with TestClient(create_app(settings)) as client:
        yield client


class ReadSpy:
    """Counts the command path's reads of a game row in one app (a live game needs none)."""

    def __init__(self, client: TestClient) -> None:
        self.calls = 0
        self.callers: list[str] = []  # who read, for the failure message
        self.active = False  # counts only while a command is on its way (not the tests' own reads)
        store = client.app.state.games.store
        original = store.get_row

        async def counting(*args: Any, **kwargs: Any) -> Any:
            if self.active:
                self.calls += 1
                self.callers.append(sys._getframe(1).f_code.co_name)
            return await original(*args, **kwargs)

        store.get_row = counting


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


def _play(client: TestClient, game_id: str, a: Any, b: Any, version: int, rng: random.Random,
          spy: ReadSpy | None = None) -> int:
    player, side = _mover(client, game_id, a, b)
    command = pick_command(client, game_id, side, rng)
    if spy is not None:
        spy.active = True
    response = _send(player, game_id, command, version)
    if spy is not None:
        spy.active = False
    assert response.status_code == 200, response.text
    assert response.json()["version"] == version + 1
    return version + 1


def _stored(client: TestClient, game_id: str) -> tuple[Any, list[Any], Any, dict[str, Any]]:
    """The game row, its log, the whole log replayed from the initial snapshot, and the state a
    process loading the game rebuilds (the stored snapshot and the log rows after it)."""
    app = client.app

    async def read() -> tuple[Any, list[Any], Any, dict[str, Any]]:
        store = app.state.games.store
        async with app.state.sessionmaker() as session:
            row = await store.get_row(session, game_id)
            rows = await store.log_rows(session, game_id)
            stored = (await store.stored_engine(session, row)).to_json(include_log=False)
            return row, rows, store.replay(row, rows), stored

    assert client.portal is not None
    return client.portal.call(read)


def _with_log(client: TestClient, game_id: str) -> Any:
    """The engine game a record is built from (`GameStore.engine_with_log`)."""
    app = client.app

    async def read() -> Any:
        async with app.state.sessionmaker() as session:
            row = await app.state.games.store.get_row(session, game_id)
            return await app.state.games.store.engine_with_log(session, row)

    assert client.portal is not None
    return client.portal.call(read)


def test_commands_of_a_live_game_are_stored_by_one_write_without_reading_it(pg_client: TestClient) -> None:
    a, b, game = start_game(pg_client)
    gid = game["id"]
    spy = ReadSpy(pg_client)
    rng = random.Random(3)
    version = 0
    # Both players have the game open here, so no command owes a mail.
    with a.ws(gid) as ws_a, b.ws(gid) as ws_b:
        for ws in (ws_a, ws_b):
            assert ws.receive_json()["type"] == "snapshot"
        for _ in range(12):
            version = _play(pg_client, gid, a, b, version, rng, spy)
    # The players' snapshots taught the process the game: not one command read it back.
    assert spy.calls == 0, spy.calls
    row, rows, replayed, stored = _stored(pg_client, gid)
    assert row.version == version == len(rows)
    assert [r.seq for r in rows] == list(range(1, version + 1))
    assert replayed.to_json(include_log=False) == stored
    assert row.awaiting_side == replayed.awaiting


@pytest.mark.postgres
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
    spy = ReadSpy(first)

    # The second process moves the game on; the first still holds the game at `version`.
    player, side = _mover(first, gid, a, b)
    command = pick_command(first, gid, side, rng)
    taken_id = str(uuid.uuid4())
    moved = _send(_through(player, second), gid, command, version, taken_id)
    assert moved.status_code == 200, moved.text

    spy.active = True
    stale = _send(player, gid, command, version)
    spy.active = False
    assert stale.status_code == 409, stale.text
    assert stale.json()["error"] == "stale_version" and stale.json()["version"] == version + 1
    assert spy.calls == 0  # refused by the compare-and-set itself; the game is read again on next use
    # The repeat of the id the other process applied gets that first answer, applied once.
    repeat = _send(player, gid, command, version, taken_id)
    assert repeat.status_code == 200, repeat.text
    assert repeat.json() == moved.json()

    row, rows, replayed, stored = _stored(first, gid)
    assert row.version == version + 1 == len(rows)
    assert replayed.to_json(include_log=False) == stored
    # Having forgotten the game, the first process plays on from what is stored.
    after = _play(first, gid, a, b, version + 1, rng)
    assert after == version + 2

def test_a_refused_command_changes_nothing(pg_client: TestClient) -> None:
    a, b, game = start_game(pg_client)
    gid = game["id"]
    rng = random.Random(9)
    version = _play(pg_client, gid, a, b, 0, rng)
    before, _, _, before_state = _stored(pg_client, gid)
    player, _side = _mover(pg_client, gid, a, b)
    refused = _send(player, gid, {"type": "move", "units": ["no-such-unit"], "path": ["0101", "0102"]}, version)
    assert refused.status_code == 422, refused.text
    assert refused.json()["rule"]
    waiting = b if player is a else a
    not_yours = _send(waiting, gid, {"type": "end_phase"}, version)
    assert not_yours.status_code == 422, not_yours.text
    after, rows, _, after_state = _stored(pg_client, gid)
    assert after.version == version and len(rows) == version
    assert after_state == before_state and after.snapshot == before.snapshot
    assert _play(pg_client, gid, a, b, version, rng) == version + 1


def _mail_state(client: TestClient, game_id: str) -> tuple[int | None, list[str]]:
    from sqlalchemy import select

    from server.models import Game
    from server.notify.models import OutboxMail

    async def read() -> tuple[int | None, list[str]]:
        async with client.app.state.sessionmaker() as session:
            owed = await session.scalar(select(Game.mail_owed).where(Game.id == game_id))
            kinds = (await session.scalars(
                select(OutboxMail.kind).where(OutboxMail.game_id == game_id).order_by(OutboxMail.id))).all()
            return owed, list(kinds)

    assert client.portal is not None
    return client.portal.call(read)


def test_a_game_ending_command_commits_first_and_its_mails_follow(pg_client: TestClient) -> None:
    a, _b, game = start_game(pg_client)
    gid = game["id"]
    resigned = a.post(f"/api/games/{gid}/resign")
    assert resigned.status_code == 200, resigned.text
    # The answer is the game as the resignation left it, read after the command's own write.
    assert (resigned.json()["status"], resigned.json()["version"]) == ("over", 1), resigned.json()
    runtime = pg_client.app.state.notify
    assert pg_client.portal is not None
    pg_client.portal.call(runtime.wait_idle)
    owed, kinds = _mail_state(pg_client, gid)
    assert owed is None  # the follow-up cleared the mark in the transaction that queued the mails
    assert kinds.count("opponent_resigned") + kinds.count("game_over") == 2, kinds


def test_mails_a_dead_process_owed_are_sent_by_the_sweep(pg_client: TestClient) -> None:
    """The process stops between the command's commit and its mails: the mark stays, the sweep
    (run at start-up and by the scheduler) queues them once, and clears it."""
    a, _b, game = start_game(pg_client)
    gid = game["id"]
    hooks = pg_client.app.state.notify.hooks
    hooks.command_stored = lambda *args, **kwargs: None  # the follow-up never runs: the process "died"
    assert a.post(f"/api/games/{gid}/resign").status_code == 200
    owed, kinds = _mail_state(pg_client, gid)
    assert owed == 1 and "game_over" not in kinds and "opponent_resigned" not in kinds
    assert pg_client.portal is not None
    assert pg_client.portal.call(hooks.sweep) == 1
    owed, kinds = _mail_state(pg_client, gid)
    assert owed is None
    assert kinds.count("opponent_resigned") + kinds.count("game_over") == 2, kinds
    assert pg_client.portal.call(hooks.sweep) == 0  # nothing twice
    assert _mail_state(pg_client, gid)[1] == kinds


@pytest.mark.postgres
def test_a_command_whose_pooled_connection_was_killed_is_stored_once(postgres_settings: Settings) -> None:
    """The command path's driver pool (services/commandlog.py): a connection the database dropped is
    replaced and the write tried again; had the first try committed, the command id's first answer
    would come back instead, so the retry never stores a command twice."""
    import asyncpg

    from server.db import asyncpg_dsn
    from server.main import create_app
    from server.services import commandlog

    with TestClient(create_app(postgres_settings)) as client:
        a, b, game = start_game(client)
        gid = game["id"]
        rng = random.Random(13)
        version = _play(client, gid, a, b, 0, rng)

        async def kill_pool_connections() -> int:
            killed = 0
            killer = await asyncpg.connect(asyncpg_dsn(postgres_settings.database_url))
            try:
                loop = asyncio.get_running_loop()
                for pool in [pool for owner, pool in commandlog._PG_POOLS.values() if owner is loop]:
                    async with pool.acquire() as conn:
                        pid = conn.get_server_pid()
                    killed += bool(await killer.fetchval("SELECT pg_terminate_backend($1)", pid))
            finally:
                await killer.close()
            return killed

        assert client.portal is not None
        assert client.portal.call(kill_pool_connections) >= 1
        version = _play(client, gid, a, b, version, rng)
        row, rows, replayed, stored = _stored(client, gid)
        assert row.version == version == len(rows) == 2
        assert replayed.to_json(include_log=False) == stored


def test_a_cache_one_status_behind_is_read_again_before_the_command_is_refused(pg_client: TestClient) -> None:
    """A reader that loaded the game just before the join committed can leave this process's cache saying
    "waiting" after the game started; the command path reads the row again rather than answer 409."""
    import dataclasses

    a, b, game = start_game(pg_client)
    store = pg_client.app.state.games.store
    version = _play(pg_client, game["id"], a, b, 0, random.Random(3))  # the game is now live in this process
    meta = store.recent.meta(game["id"])
    assert meta is not None and meta.status == "active" and meta.version == version
    held = store.recent._games[game["id"]]
    store.recent._games[game["id"]] = (dataclasses.replace(meta, status="waiting"), held[1])  # one status behind
    player, side = _mover(pg_client, game["id"], a, b)
    response = _send(player, game["id"], pick_command(pg_client, game["id"], side, random.Random(4)), version)
    assert response.status_code == 200, response.text
    assert store.recent.meta(game["id"]).status == "active"


def _played_with_snapshots_every_4(client: TestClient, commands: int, seed: int) -> tuple[Any, Any, str, int, random.Random]:
    """A new game with the whole state stored every 4 versions, `commands` random commands into it."""
    client.app.state.games.commands.snapshot_every = 4
    a, b, game = start_game(client)
    gid = game["id"]
    rng = random.Random(seed)
    version = 0
    for _ in range(commands):
        version = _play(client, gid, a, b, version, rng)
    return a, b, gid, version, rng


def test_the_whole_state_is_stored_every_n_commands_and_the_log_rows_after_it_rebuild_the_game(
    pg_client: TestClient,
) -> None:
    """Migration 0005: the command path writes the snapshot every `snapshot_every` versions and at the
    game's end; a process that forgot the game rebuilds it from that snapshot and the log after it."""
    store = pg_client.app.state.games.store
    a, b, gid, version, rng = _played_with_snapshots_every_4(pg_client, commands=10, seed=5)
    row, rows, replayed, stored = _stored(pg_client, gid)
    assert (row.version, row.snapshot_version) == (10, 8) and len(rows) == 10
    assert replayed.to_json(include_log=False) == stored
    assert row.snapshot != stored  # two commands behind: the log carries them
    # The record's game: the log up to the snapshot as stored, the two after it replayed with the same dice.
    with_log = _with_log(pg_client, gid)
    assert with_log.version == 10 and with_log.to_json(include_log=False) == stored
    assert [(e["side"], e["command"]) for e in with_log.log] == [(r.side, r.command) for r in rows]
    assert [e["dice"] for e in with_log.log] == [
        [d for ev in r.events if ev.get("type") == "dice" for d in ev.get("dice", [])] for r in rows]

    store.forget(gid)  # as a process that never saw the game: it loads snapshot 8 and replays 9 and 10
    version = _play(pg_client, gid, a, b, version, rng)
    version = _play(pg_client, gid, a, b, version, rng)
    row, _, replayed, stored = _stored(pg_client, gid)
    assert (row.version, row.snapshot_version) == (12, 12) and row.snapshot == stored
    assert replayed.to_json(include_log=False) == stored

    resigned = a.post(f"/api/games/{gid}/resign")
    assert resigned.status_code == 200, resigned.text
    row, _, replayed, stored = _stored(pg_client, gid)
    assert row.status == "over" and (row.version, row.snapshot_version) == (13, 13)  # the record's final state
    assert row.snapshot == stored == replayed.to_json(include_log=False)
    record = _with_log(pg_client, gid).record()
    assert verify_record(record, store.scenario_of(row)) == []


def test_a_command_meeting_another_writer_of_the_game_row_is_stored_once_that_writer_is_done(
    pg_client: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While a lobby/presence/mail transaction of this process holds the write (`WriteQueue.writing`,
    here on the game's own row), a command waits and is stored once that transaction ends. On SQLite it
    queues on the same process lock (commandlog `_append_sqlite`) instead of retrying in growing steps;
    on Postgres the row lock makes it wait."""
    client = pg_client
    games = client.app.state.games
    a, b, game = start_game(client)
    gid = game["id"]
    player, side = _mover(client, gid, a, b)
    command = pick_command(client, gid, side, random.Random(1))
    order: list[str] = []
    pauses: list[float] = []
    real_pause = commandlog._busy_pause

    async def counted_pause(seconds: float) -> None:
        pauses.append(seconds)
        await real_pause(seconds)

    monkeypatch.setattr(commandlog, "_busy_pause", counted_pause)

    async def scenario() -> None:
        async with client.app.state.sessionmaker() as holder, games.writes.writing(holder):
            await holder.execute(text("UPDATE games SET updated_at = updated_at WHERE id = :g"), {"g": gid})

            async def send() -> None:
                async with client.app.state.sessionmaker() as session:
                    user = await session.get(User, player.id)
                    answer, _ = await games.commands.submit(session, gid, user, command, 0, uuid.uuid4().hex)
                order.append(f"stored {answer['version']}")

            sending = asyncio.create_task(send())
            await asyncio.sleep(0.05)
            assert not sending.done()  # it cannot be written while the other writer holds the row...
            order.append("released")
        await asyncio.wait_for(sending, 5)  # ...and is, once that transaction is over

    assert client.portal is not None
    client.portal.call(scenario)
    assert order == ["released", "stored 1"]
    assert pauses == []  # it waited for the other writer, not in retry steps


def test_a_private_engine_from_the_cache_equals_the_stored_game_and_shares_nothing_with_the_live_one(
    pg_client: TestClient,
) -> None:
    """`private_engine` (the mails' composer, the computer's turn check) copies this process's cached engine
    instead of decoding the stored snapshot and replaying the log after it: the copy must be that game,
    and changing it must leave the live engine as it was."""
    store = pg_client.app.state.games.store
    _a, _b, gid, _version, _rng = _played_with_snapshots_every_4(pg_client, commands=6, seed=11)
    app = pg_client.app

    async def engines() -> tuple[Any, Any, Any, dict[str, Any]]:
        async with app.state.sessionmaker() as session:
            row = await store.get_row(session, gid, light=True)  # as the mails' composer reads it
            live = store.engines.get(gid, row.version)
            assert live is not None  # the cached engine this test is about
            before = live.to_json(include_log=False)
            private = await store.private_engine(session, row)
            stored = await store.stored_engine(session, row)
            return live, private, stored, before

    assert pg_client.portal is not None
    live, private, stored, before = pg_client.portal.call(engines)
    assert private is not live
    assert private.to_json(include_log=False) == stored.to_json(include_log=False) == before
    assert private.view("blue") == stored.view("blue") and private.view("red") == stored.view("red")
    side = private.awaiting
    command = next(iter(private.legal_commands(side)))
    private.submit(side, command)
    assert live.to_json(include_log=False) == before


def test_a_websocket_resignation_of_a_live_game_is_stored_by_one_write_without_reading_it(
    pg_client: TestClient,
) -> None:
    """3.4 resignation from the page: the game's last command takes the command path as any other
    (no read of the game row), is acknowledged with the new version and ends the game for both."""
    a, b, game = start_game(pg_client)
    gid = game["id"]
    spy = ReadSpy(pg_client)
    with a.ws(gid) as ws_a, b.ws(gid) as ws_b:
        for ws in (ws_a, ws_b):
            assert ws.receive_json()["type"] == "snapshot"
        spy.active = True
        ws_a.send_json({"type": "resign", "command_id": "resign-1"})
        ack = ws_a.receive_json()
        while ack["type"] != "ack":
            ack = ws_a.receive_json()
        spy.active = False
        assert ack == {"type": "ack", "status": "resigned", "version": 1, "command_id": "resign-1"}
        patch = ws_b.receive_json()
        assert patch["type"] == "patch" and patch["version"] == 1
    # The game-over mails composed after the commit read the light row (`NotifyHooks.follow_up`); the
    # resignation itself reads nothing.
    assert [caller for caller in spy.callers if caller != "follow_up"] == [], spy.callers
    row, rows, replayed, stored = _stored(pg_client, gid)
    assert row.status == "over" and row.version == 1 and [r.command for r in rows] == [{"type": "resign"}]
    assert replayed.to_json(include_log=False) == stored
    assert row.result == replayed.result
