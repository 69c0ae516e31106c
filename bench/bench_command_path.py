"""The command path's own CPU per command, in one process, without the network.

Drives `CommandService.submit` and the hub's fan-out to both players' connections (views, patches,
frames serialised as the websocket would send them) on a real database, one command at a time, and
times each command with the process's CPU clock (`time.process_time`): judging, the one write, the
fan-out. What it leaves out is the transport (HTTP/websocket frames, uvicorn) and the lobby;
bench/bench_server.py measures everything end to end.

    .venv/bin/python bench/bench_command_path.py --db sqlite --scenario tutorial --commands 2000
    .venv/bin/python bench/bench_command_path.py --db postgres --scenario hougoumont --commands 2000

A game that ends is replaced (its last command counted like any other). The players follow the
bench's usual policy (the first option of a decision, else end the phase). With `--profile FILE`
the run is also profiled (cProfile) and the top functions by cumulative time are printed.

With `--callgrind`, the same commands are counted in instructions instead (bench/callgrind.py): the run
goes twice under valgrind, with N commands and with none, and the difference is divided by N. Its
`played_sha256` (the commands and their events) is equal in two commits' runs when both counted the same
play; every game is on the same dice seed, so that it stays so should the players ever roll dice (they
end every phase, and roll none today). Slow (about fifty times the plain run), but a noisy VM does not
move it:

    .venv/bin/python bench/bench_command_path.py --db sqlite --scenario hougoumont --commands 300 --callgrind
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import hashlib
import json
import platform
import pstats
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def next_command(view: dict[str, Any], side: str) -> dict[str, Any]:
    prompt = view.get("prompt") or {}
    options = prompt.get("options") or []
    if prompt.get("side") == side and options:
        return {"type": "choose", "option": options[0]["id"]}
    return {"type": "end_phase"}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from bench_server import bench_database, drop_pg_schema

    from server import jsoncodec
    from server.db import LazySession, create_engine, create_sessionmaker
    from server.models import User
    from server.realtime.broadcast import Broadcast, MemoryBackend
    from server.realtime.hub import GameHub, ViewerConnection, frame_text
    from server.scenarios import load_scenarios
    from server.services.access import Viewer
    from server.services.wiring import GameServices

    settings, schema = await bench_database(args.db, "vedette_cpb", Path(tempfile.mkdtemp(prefix="vedette-cpb-")))
    engine = create_engine(settings)
    sessionmaker = create_sessionmaker(engine)
    # --callgrind's inner runs: every game on the same dice, so that every run plays the same commands.
    services = GameServices.build(load_scenarios(settings.scenarios_dir),
                                  fixed_seed="bench-command-path" if args.same_dice else None)
    hub = GameHub(Broadcast(MemoryBackend()), sessionmaker, services.store, services.spectators, "bench")
    await hub.broadcast.connect()
    await hub.start()
    scenario = json.loads((ROOT / "scenarios" / f"{args.scenario}.json").read_text())
    sides = list(scenario["sides"])[:2]
    try:
        async with sessionmaker() as session:
            users = []
            for side in sides:
                user = User(username=f"cpb{side}{secrets.token_hex(2)}", email="x@example.org", password_hash="x")
                session.add(user)
                users.append(user)
            await session.commit()

        async def new_game() -> tuple[str, dict[str, ViewerConnection]]:
            async with sessionmaker() as session:
                row = await services.lobby.create_game(session, users[0], args.scenario, sides[0], "open")
                await services.lobby.join_game(session, users[1], row.id, row.invite_token)
            conns = {}
            for side, user in zip(sides, users, strict=True):
                conn = ViewerConnection(row.id, Viewer("seat", side, user.id))
                await hub.attach(conn)
                conns[side] = conn
            return row.id, conns

        game_id, conns = await new_game()
        views = {side: c.last_view for side, c in conns.items()}
        cpu: list[float] = []
        played: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = []
        games = 1
        profiler = cProfile.Profile(time.process_time) if args.profile else None  # CPU, not wall time
        for _ in range(args.commands):
            view = views[sides[0]] or {}
            side = view.get("awaiting")
            if side not in conns:
                for c in conns.values():
                    await hub.detach(c)
                game_id, conns = await new_game()
                views = {s: c.last_view for s, c in conns.items()}
                games += 1
                continue
            command = next_command(views[side] or {}, side)
            user = users[sides.index(side)]
            version = int((views[side] or {}).get("version", 0))
            if profiler:
                profiler.enable()
            start = time.process_time()
            async with LazySession(sessionmaker, engine) as session:  # as the websocket route does
                answer, _applied = await services.commands.submit(session, game_id, user, command, version, None)
            frame_text({"type": "ack", **answer})
            await hub.publish(game_id, answer["version"])
            await asyncio.gather(*list(hub._tasks))  # the fan-out the command caused
            for c in conns.values():  # the frames as the websocket sends them
                while not c.queue.empty():
                    message = c.queue.get_nowait()
                    if message is not None:
                        frame_text(message)
            cpu.append((time.process_time() - start) * 1000)
            if profiler:
                profiler.disable()
            played.append((side, command, answer["events"]))  # outside the timing; the events carry any dice
            views = {s: c.last_view for s, c in conns.items()}
        if profiler:
            profiler.dump_stats(args.profile)
            pstats.Stats(args.profile).sort_stats("cumulative").print_stats(45)
        # The commands played and what they did, in order: with --same-dice, the same in every run and commit.
        played_sha256 = hashlib.sha256(json.dumps(played).encode()).hexdigest()[:16]
        if not cpu:  # --callgrind's run without commands (its start-up, subtracted)
            return {"commands": 0, "played_sha256": played_sha256}
        ordered = sorted(cpu)
        return {
            "db": args.db, "scenario": args.scenario, "commands": len(cpu), "games": games,
            "played_sha256": played_sha256,
            "cpu_ms_per_command": {
                "median": round(statistics.median(cpu), 3),
                "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
                "p99": round(ordered[int(0.99 * (len(ordered) - 1))], 3),
                "mean": round(statistics.mean(cpu), 3),
            },
            "machine": f"{platform.machine()} {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }
    finally:
        await hub.stop()
        await engine.dispose()
        if schema:
            await drop_pg_schema(schema)
        _ = jsoncodec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--scenario", default="tutorial")
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--profile", help="write a cProfile to this file and print its top functions")
    parser.add_argument("--callgrind", action="store_true", help="count instructions under valgrind instead")
    parser.add_argument("--same-dice", action="store_true", help=argparse.SUPPRESS)  # the inner runs of --callgrind
    args = parser.parse_args()
    if args.callgrind:
        from callgrind import instructions

        runs = [instructions([sys.executable, __file__, "--db", args.db, "--scenario", args.scenario,
                              "--commands", str(n), "--same-dice"]) for n in (args.commands, 0)]
        played = json.loads(runs[0][1].strip().splitlines()[-1])["played_sha256"]
        print(json.dumps({
            "db": args.db, "scenario": args.scenario, "commands": args.commands,
            "instructions_per_command": round((runs[0][0] - runs[1][0]) / args.commands),
            "played_sha256": played,  # equal in two commits' runs: both counted the same commands
            "machine": f"{platform.machine()} {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }))
        return
    import uvloop  # the server's own event loop (`vedette serve`)

    uvloop.install()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
