"""Two clients send conflicting commands for one game at the same instant: exactly one applies.

Each "client" has its own engine (connection pool) and its own GameService (its
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
from server.services.games import GameService

ROUNDS = 100


async def _setup(settings):
    engines = [create_engine(settings), create_engine(settings)]
    makers = [create_sessionmaker(e) for e in engines]
    registry = load_scenarios(settings.scenarios_dir)
    services = [GameService(registry), GameService(registry)]
    async with makers[0]() as session:
        blue = await accounts.create_user(session, "raceblue", "password123", "b@example.org")
        red = await accounts.create_user(session, "racered", "password123", "r@example.org")
        await session.commit()
    return engines, makers, services, {"blue": blue, "red": red}


async def _new_game(service, maker, users):
    async with maker() as session:
        row = await service.create_game(session, users["blue"], "tutorial", "blue", "private")
        await service.join_game(session, users["red"], row.id, row.invite_token)
        return row.id


async def test_conflicting_commands_exactly_one_applies(settings):
    engines, makers, services, users = await _setup(settings)
    rng = random.Random(11)
    try:
        game_id = await _new_game(services[0], makers[0], users)
        applied_total = 0
        for _round in range(ROUNDS):
            async with makers[0]() as session:
                loaded = await services[0].load(session, game_id)
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
                        return await services[i].submit(session, game_id, users[side], command, version, None)
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
            await engine.dispose()


@pytest.mark.postgres
async def test_same_command_id_from_two_connections_applies_once(postgres_settings):
    engines, makers, services, users = await _setup(postgres_settings)
    rng = random.Random(5)
    try:
        game_id = await _new_game(services[0], makers[0], users)
        for _round in range(20):
            async with makers[0]() as session:
                loaded = await services[0].load(session, game_id)
                version, side = loaded.row.version, loaded.engine.awaiting
                command = next(iter(loaded.engine.legal_commands(side, rng)))
            command_id = f"cmd-{_round}"

            async def attempt(i):
                async with makers[i]() as session:
                    return await services[i].submit(session, game_id, users[side], command, version, command_id)

            (a, a_new), (b, b_new) = await asyncio.gather(attempt(0), attempt(1))
            assert a == b and a_new != b_new
    finally:
        for engine in engines:
            await engine.dispose()
