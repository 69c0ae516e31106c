"""Server CPU per game lifecycle, outside the commands: create, join, both players' websocket
handshakes (snapshots), a resignation (its mails) and the two disconnects.

bench/bench_server.py's players end every phase at once, so a tutorial game ends after ~33 commands
and is replaced; the lifecycle's cost is then a large share of its "server CPU per command". This
measures that share on its own: the server's CPU clock (/proc) read around each stage of N games,
played one at a time on the embedded SQLite file (or on Postgres, `--db postgres`).

    .venv/bin/python bench/bench_lifecycle.py --games 200 [--db postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

STAGES = ("create", "join", "connect", "resign", "close")
WARMUP = 5
SETTLE = 0.05  # seconds after each stage, so that its follow-ups (mails, presence) run inside it


async def run(args: argparse.Namespace) -> dict[str, object]:
    import httpx
    import websockets
    from bench_server import bench_database, cpu_seconds, drop_pg_schema, free_port, start_server

    workdir = Path(tempfile.mkdtemp(prefix="vedette-lifecycle-"))
    settings, schema = await bench_database(args.db, "vedette_life", workdir)
    url = settings.database_url
    env = {"DATABASE_URL": url, "VEDETTE_DB_SCHEMA": schema or "",
           "VEDETTE_NOTIFY_CHANNEL": f"life_{secrets.token_hex(3)}",
           "VEDETTE_GAMES_PER_HOUR": "1000000", "VEDETTE_MAX_WAITING_GAMES": "100000"}
    port = free_port()
    proc = start_server(env, port, 1, workdir / "server.log")
    spent = dict.fromkeys(STAGES, 0.0)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            auth = {}
            for side in ("blue", "red"):
                r = await http.post("/api/users", json={"username": f"life{side}", "password": "password123",
                                                         "email": f"{side}@example.org"})
                auth[side] = {"Authorization": f"Bearer {r.json()['token']}"}
            tokens = {side: h["Authorization"].split()[1] for side, h in auth.items()}
            for i in range(args.games + WARMUP):
                marks = [cpu_seconds(proc.pid)]
                game = (await http.post("/api/games", json={"scenario": args.scenario, "side": "blue"},
                                        headers=auth["blue"])).json()
                await asyncio.sleep(SETTLE)
                marks.append(cpu_seconds(proc.pid))
                await http.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]},
                                headers=auth["red"])
                await asyncio.sleep(SETTLE)
                marks.append(cpu_seconds(proc.pid))
                ws_url = f"ws://127.0.0.1:{port}/ws/games/{game['id']}?token="
                blue = await websockets.connect(ws_url + tokens["blue"], max_size=None)
                red = await websockets.connect(ws_url + tokens["red"], max_size=None)
                await blue.recv()
                await red.recv()
                await asyncio.sleep(SETTLE)
                marks.append(cpu_seconds(proc.pid))
                await blue.send(json.dumps({"type": "resign", "command_id": secrets.token_hex(8)}))
                await blue.recv()
                await red.recv()
                await asyncio.sleep(2 * SETTLE)
                marks.append(cpu_seconds(proc.pid))
                await blue.close()
                await red.close()
                await asyncio.sleep(SETTLE)
                marks.append(cpu_seconds(proc.pid))
                if i >= WARMUP:
                    for stage, before, after in zip(STAGES, marks[:-1], marks[1:], strict=True):
                        spent[stage] += after - before
    finally:
        proc.terminate()
        if schema is not None:
            proc.wait(30)
            await drop_pg_schema(schema)
    per_game = {stage: round(seconds * 1000 / args.games, 2) for stage, seconds in spent.items()}
    return {"db": args.db, "scenario": args.scenario, "games": args.games, "server_cpu_ms_per_game": per_game,
            "total_ms_per_game": round(sum(spent.values()) * 1000 / args.games, 1),
            "machine": f"{platform.machine()} {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--scenario", default="tutorial")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
