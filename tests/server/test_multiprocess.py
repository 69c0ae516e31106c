"""Two server processes on one Postgres: a command sent to one reaches a viewer on the other
through LISTEN/NOTIFY, as that viewer's own patch."""

from __future__ import annotations

import asyncio
import json
import uuid

import httpx
import jsonpatch
import pytest
from test_crash import ServerProcess, _register, free_port

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


def test_patch_crosses_processes(postgres_settings, tmp_path):
    first = ServerProcess(postgres_settings, free_port(), tmp_path / "a.log")
    second = ServerProcess(postgres_settings, free_port(), tmp_path / "b.log")
    try:
        http = httpx.Client(base_url=first.url, timeout=10)
        tokens = {"blue": _register(http, "mpblue"), "red": _register(http, "mpred")}
        game = http.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "open"},
                         headers={"Authorization": f"Bearer {tokens['blue']}"}).json()
        http.post(f"/api/games/{game['id']}/join", headers={"Authorization": f"Bearer {tokens['red']}"})
        asyncio.run(_play(first.url, second.url, game["id"], tokens))
    finally:
        first.kill()
        second.kill()


async def _play(url_a: str, url_b: str, game_id: str, tokens: dict[str, str]) -> None:
    import websockets

    def ws(url: str, query: str) -> str:
        return f"{url.replace('http://', 'ws://')}/ws/games/{game_id}?{query}"

    async def recv(sock):
        return json.loads(await asyncio.wait_for(sock.recv(), 10))

    async with websockets.connect(ws(url_a, f"token={tokens['blue']}")) as blue, \
            websockets.connect(ws(url_b, f"token={tokens['red']}")) as red:
        blue_view = (await recv(blue))["view"]
        red_view = (await recv(red))["view"]
        async with websockets.connect(ws(url_b, "")) as spectator:  # open game: anyone may watch
            spectator_view = (await recv(spectator))["view"]
            # The spectator's arrival (on process B) reaches both players' counts.
            blue_view = jsonpatch.apply_patch(blue_view, (await recv(blue))["patch"])
            red_view = jsonpatch.apply_patch(red_view, (await recv(red))["patch"])
            assert blue_view["spectators"] == red_view["spectators"] == 1
            assert blue_view["awaiting"] == "blue"
            command = {"type": "end_phase"}
            await blue.send(json.dumps({"type": "command", "command": command, "expected_version": 0,
                                        "command_id": str(uuid.uuid4())}))
            got = [await recv(blue), await recv(blue)]
            assert {m["type"] for m in got} == {"ack", "patch"}, got
            patch = await recv(red)
            assert patch["type"] == "patch" and patch["version"] == 1, patch
            red_view = jsonpatch.apply_patch(red_view, patch["patch"])
            spectator_patch = await recv(spectator)
            spectator_view = jsonpatch.apply_patch(spectator_view, spectator_patch["patch"])
            await red.send(json.dumps({"type": "snapshot"}))
            assert (await recv(red))["view"] == red_view
            await spectator.send(json.dumps({"type": "snapshot"}))
            assert (await recv(spectator))["view"] == spectator_view
