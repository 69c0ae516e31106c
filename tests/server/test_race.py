"""Two clients send conflicting commands for one game at the same instant: exactly one applies.

Each "client" has its own engine (connection pool) and its own GameServices (its
own caches), as two server processes would; on Postgres they meet only in the DB.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import func, select

from server.db import create_engine, create_sessionmaker
from server.errors import ApiError
from server.models import Game, GameCommand
from server.scenarios import load_scenarios
from server.services import accounts
from server.services.commandlog import close_engine
from server.services.wiring import GameServices

ROUNDS = 100


async def _setup(settings):
    engines = [create_engine(settings), create_engine(settings)]
    makers = [create_sessionmaker(e) for e in engines]
    registry = load_scenarios(settings.scenarios_dir)
    services = [GameServices.build(registry), GameServices.build(registry)]
    async with makers[0]() as session:
        blue = await accounts.create_user(session, "raceblue", "password123", "b@example.org")
        red = await accounts.create_user(session, "racered", "password123", "r@example.org")
        await session.commit()
    return engines, makers, services, {"blue": blue, "red": red}


async def _new_game(service, maker, users):
    async with maker() as session:
        row = await service.lobby.create_game(session, users["blue"], "tutorial", "blue", "private")
        await service.lobby.join_game(session, users["red"], row.id, row.invite_token)
        return row.id


async def test_conflicting_commands_exactly_one_applies(settings):
    engines, makers, services, users = await _setup(settings)
    rng = random.Random(11)
    try:
        game_id = await _new_game(services[0], makers[0], users)
        applied_total = 0
        for _round in range(ROUNDS):
            async with makers[0]() as session:
                loaded = await services[0].store.load(session, game_id)
                version = loaded.row.version
                if loaded.engine.is_over:
                    game_id = await _new_game(services[0], makers[0], users)
                    continue
                side = loaded.engine.awaiting
                legal = list(loaded.engine.legal_commands(side, rng))
            if len(legal) < 2:
                legal = legal * 2
            first, second = rng.sample(legal, 2) if len(legal) > 2 else legal[:2]

            async def attempt(i, command):
                async with makers[i]() as session:
                    try:
                        # awaited within this iteration, so the loop's names are the ones meant
                        return await services[i].commands.submit(session, game_id, users[side], command, version, None)  # noqa: B023
                    except ApiError as exc:
                        return exc

            results = await asyncio.gather(attempt(0, first), attempt(1, second))
            applied = [r for r in results if isinstance(r, tuple) and r[1]]
            refused = [r for r in results if isinstance(r, ApiError)]
            assert len(applied) == 1, results
            assert len(refused) == 1 and refused[0].status == 409, results
            # The loser is told the version that won (stale_version, or game_over if it ended the game).
            assert refused[0].error in ("stale_version", "game_over"), refused[0].body()
            assert refused[0].extra["version"] == version + 1
            applied_total += 1
            async with makers[1]() as session:
                row_version = await session.scalar(select(Game.version).where(Game.id == game_id))
                logged = await session.scalar(
                    select(func.count()).select_from(GameCommand).where(GameCommand.game_id == game_id)
                )
            assert row_version == version + 1 and logged == version + 1
        assert applied_total >= ROUNDS * 0.9
    finally:
        for engine in engines:
            await close_engine(engine)


@pytest.mark.postgres
async def test_same_command_id_from_two_connections_applies_once(postgres_settings):
    engines, makers, services, users = await _setup(postgres_settings)
    rng = random.Random(5)
    try:
        game_id = await _new_game(services[0], makers[0], users)
        for _round in range(20):
            async with makers[0]() as session:
                loaded = await services[0].store.load(session, game_id)
                version, side = loaded.row.version, loaded.engine.awaiting
                command = next(iter(loaded.engine.legal_commands(side, rng)))
            command_id = f"cmd-{_round}"

            async def attempt(i):
                async with makers[i]() as session:
                    return await services[i].commands.submit(session, game_id, users[side], command, version, command_id)  # noqa: B023

            (a, a_new), (b, b_new) = await asyncio.gather(attempt(0), attempt(1))
            assert a == b and a_new != b_new
    finally:
        for engine in engines:
            await close_engine(engine)


class _ContributeWhileJoining:
    """A hook that lets the creator send the dice contribution (on another process) after the joiner
    read the game and before its write: the join must read the game again, not overwrite it."""

    def __init__(self, act) -> None:  # type: ignore[no-untyped-def]
        self.act = act
        self.reads = 0

    async def prepare_join(self, session, row, user, side):  # type: ignore[no-untyped-def]
        self.reads += 1
        if self.reads == 1:
            await self.act()

    async def game_joined(self, session, row, user, side, plan) -> None:  # type: ignore[no-untyped-def]
        pass


async def test_a_contribution_sent_while_the_joiner_reads_the_game_is_kept(settings):
    engines, makers, services, users = await _setup(settings)
    mine, theirs = "a1" * 32, "b2" * 32
    try:
        async with makers[0]() as session:
            row = await services[0].lobby.create_game(session, users["blue"], "tutorial", "blue", "private")

        async def creator_contributes() -> None:
            async with makers[1]() as session:
                await services[1].lobby.contribute(session, users["blue"], row.id, mine)

        hook = _ContributeWhileJoining(creator_contributes)
        services[0].hooks.append(hook)
        async with makers[0]() as session:
            joined = await services[0].lobby.join_game(session, users["red"], row.id, row.invite_token, theirs)
        assert joined.status == "active"
        assert hook.reads == 2  # the compare-and-set refused the first write; the second read saw the contribution
        async with makers[1]() as session:
            stored = await session.scalar(select(Game).where(Game.id == row.id))
            assert stored.snapshot["dice"]["contributions"] == {"blue": mine, "red": theirs}
            assert stored.initial_snapshot["dice"]["contributions"] == {"blue": mine, "red": theirs}
    finally:
        for engine in engines:
            await close_engine(engine)


async def test_two_players_joining_one_seat_at_once_one_sits(settings):
    engines, makers, services, users = await _setup(settings)
    try:
        async with makers[0]() as session:
            third = await accounts.create_user(session, "racethird", "password123", "t@example.org")
            await session.commit()
            row = await services[0].lobby.create_game(session, users["blue"], "tutorial", "blue", "open")

        async def join(i, user):  # type: ignore[no-untyped-def]
            async with makers[i]() as session:
                try:
                    return await services[i].lobby.join_game(session, user, row.id, None)
                except ApiError as exc:
                    return exc

        results = await asyncio.gather(join(0, users["red"]), join(1, third))
        seated = [r for r in results if not isinstance(r, ApiError)]
        refused = [r for r in results if isinstance(r, ApiError)]
        assert len(seated) == 1 and len(refused) == 1, results
        assert (refused[0].status, refused[0].error) == (409, "game_full")
        async with makers[0]() as session:
            stored = await services[0].store.get_row(session, row.id)
            assert stored.status == "active" and len(stored.seats) == 2
    finally:
        for engine in engines:
            await close_engine(engine)
