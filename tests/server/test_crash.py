"""Crash safety: a real server process is SIGKILLed mid-stream and restarted, on each database.

Every acknowledged command is in the log, the snapshot equals a replay of the
log, and reconnecting websocket clients resynchronise.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import socket
import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest
from server_process import ServerProcess

from server.db import create_engine, create_sessionmaker
from server.services.commandlog import close_engine
from server.services.engine import rules
from server.services.store import GameStore

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _register(http: httpx.Client, name: str) -> str:
    response = http.post("/api/users", json={"username": name, "password": "password123", "email": f"{name}@example.org"})
    assert response.status_code == 201, response.text
    return str(response.json()["token"])


async def _db_state(settings, game_id):
    engine = create_engine(settings)
    try:
        async with create_sessionmaker(engine)() as session:
            store = GameStore()
            row = await store.get_row(session, game_id)
            rows = await store.log_rows(session, game_id)
            replayed = store.replay(row, rows)
            stored = (await store.private_engine(session, row)).to_json(include_log=False)
            return row, rows, replayed, stored, store.scenario_of(row)
    finally:
        await close_engine(engine)


def test_sigkill_mid_stream_loses_no_acknowledged_command(settings, tmp_path):
    """On both databases (`settings`: the embedded SQLite file and Postgres): the one command path
    acknowledges a command only once its write has committed."""
    port = free_port()
    server = ServerProcess(settings, port, tmp_path / "server.log")
    try:
        http = httpx.Client(base_url=server.url, timeout=10)
        tokens = {"blue": _register(http, "crashblue"), "red": _register(http, "crashred")}
        auth = {side: {"Authorization": f"Bearer {t}"} for side, t in tokens.items()}
        game = http.post("/api/games", json={"scenario": "tutorial", "side": "blue"}, headers=auth["blue"]).json()
        joined = http.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]}, headers=auth["red"])
        assert joined.status_code == 200
        row, _, _, _, scenario = asyncio.run(_db_state(settings, game["id"]))
        mirror = rules().Game.from_json(scenario, row.initial_snapshot)

        rng = random.Random(42)
        acked: list[tuple[str, int]] = []
        killer: threading.Thread | None = None
        for _ in range(500):
            if mirror.is_over:
                break
            side = mirror.awaiting
            command = rng.choice(list(mirror.legal_commands(side, rng)))
            command_id = str(uuid.uuid4())
            try:
                response = http.post(
                    f"/api/games/{game['id']}/commands",
                    json={"command": command, "expected_version": mirror.version, "command_id": command_id},
                    headers=auth[side],
                )
            except httpx.HTTPError:
                break  # the server died under this request: not acknowledged
            assert response.status_code == 200, response.text
            mirror.submit(side, command)
            acked.append((command_id, response.json()["version"]))
            if len(acked) == 15 and killer is None:
                killer = threading.Thread(target=lambda: (time.sleep(rng.uniform(0.0, 0.05)), server.kill()))
                killer.start()
        assert killer is not None, "the game ended before the crash"
        killer.join()
        assert server.proc.returncode == -signal.SIGKILL
    finally:
        server.kill()

    # Restart on the same database.
    server = ServerProcess(settings, free_port(), tmp_path / "server2.log")
    try:
        row, rows, replayed, stored, scenario = asyncio.run(_db_state(settings, game["id"]))
        logged = {r.command_id: r.seq for r in rows}
        for command_id, version in acked:
            assert logged.get(command_id) == version, f"acknowledged command {command_id} lost"
        assert [r.seq for r in rows] == list(range(1, row.version + 1))
        assert replayed.to_json(include_log=False) == stored  # the stored snapshot and the log after it
        assert row.version >= len(acked)

        # Reconnecting clients resynchronise from a snapshot at the stored version.
        asyncio.run(_reconnect_and_play(server.url, game["id"], tokens, row.version))
    finally:
        server.kill()


async def _reconnect_and_play(url: str, game_id: str, tokens: dict[str, str], version: int) -> None:
    import websockets

    ws_url = url.replace("http://", "ws://")
    async with websockets.connect(f"{ws_url}/ws/games/{game_id}?token={tokens['blue']}") as blue, \
            websockets.connect(f"{ws_url}/ws/games/{game_id}?token={tokens['red']}") as red:
        snapshots = {}
        for side, ws in (("blue", blue), ("red", red)):
            hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert hello["type"] == "snapshot" and hello["version"] == version
            snapshots[side] = hello["view"]
        async with httpx.AsyncClient(base_url=url) as http:
            for side in ("blue", "red"):
                fresh = (await http.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens[side]}"})).json()
                assert fresh["view"] == snapshots[side]
