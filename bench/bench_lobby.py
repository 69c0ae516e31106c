"""CPU per lobby action in one process: creating a game and joining it, through the `Lobby` as the
routes call it, on the embedded SQLite file (or Postgres, `--db postgres`), without HTTP.

bench/bench_lifecycle.py measures a whole game's lifecycle through a real server by its CPU clock,
whose ticks make one stage's figure vary by half a millisecond between runs; this times the service's
own part with the process's CPU clock around each call, and reports medians.

    .venv/bin/python bench/bench_lobby.py --games 400 [--db postgres] [--scenario hougoumont]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

WARMUP = 50


async def run(args: argparse.Namespace) -> dict[str, object]:
    from bench_server import bench_database, drop_pg_schema

    from server.db import create_engine, create_sessionmaker
    from server.models import User
    from server.scenarios import load_scenarios
    from server.services.lobby import Lobby
    from server.services.wiring import GameServices

    settings, schema = await bench_database(args.db, "vedette_lobby", Path(tempfile.mkdtemp(prefix="vedette-lobby-")))
    engine = create_engine(settings)
    sessionmaker = create_sessionmaker(engine)
    lobby: Lobby = GameServices.build(load_scenarios(settings.scenarios_dir)).lobby
    sides = list(lobby.registry.get(args.scenario).scenario.side_order)
    try:
        async with sessionmaker() as session:
            users = [User(username=f"lobby{i}{secrets.token_hex(3)}", email="x@example.org", password_hash="x",
                          is_admin=False) for i in range(2)]
            session.add_all(users)
            await session.commit()
            user_ids = [u.id for u in users]

        async def one() -> tuple[float, float]:
            async with sessionmaker() as session:
                creator, joiner = [await session.get(User, uid) for uid in user_ids]
                started = time.process_time()
                row = await lobby.create_game(session, creator, args.scenario, sides[0], "open")
                created = time.process_time()
                await lobby.join_game(session, joiner, row.id, row.invite_token, secrets.token_hex(32))
                return created - started, time.process_time() - created

        for _ in range(WARMUP):
            await one()
        timings = [await one() for _ in range(args.games)]
    finally:
        await engine.dispose()
        if schema is not None:
            await drop_pg_schema(schema)
    return {
        "db": args.db, "scenario": args.scenario, "games": args.games,
        "cpu_ms_median": {"create": round(statistics.median(t[0] for t in timings) * 1000, 3),
                          "join": round(statistics.median(t[1] for t in timings) * 1000, 3)},
        "machine": f"{platform.machine()} {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--scenario", default="tutorial")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
