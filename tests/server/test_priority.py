"""Commands first (server/services/priority.py, issue 16): the lobby's steps (creating and joining games,
websocket snapshots, a finished game's mails) wait while players' commands are in flight in this process,
so that one event loop answers a command without first finishing someone else's join."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest
from server_helpers import Player, pick_command, server_game, start_game

from server.api.routes import ws
from server.services import commands as command_path
from server.services.priority import CommandGate


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_with_no_command_in_flight_the_lobby_goes_on_at_once() -> None:
    async def main() -> int:
        gate = CommandGate(max_wait=60)
        await asyncio.wait_for(gate.yield_to_commands(), 5)  # would take the whole minute if it waited
        return gate.in_flight

    assert _run(main()) == 0


def test_a_lobby_step_waits_for_every_command_in_flight() -> None:
    order: list[str] = []

    async def main() -> None:
        gate = CommandGate(max_wait=60)
        finish = [asyncio.Event(), asyncio.Event()]

        async def command(n: int) -> None:
            with gate.command():
                await finish[n].wait()
                order.append(f"command {n} answered")

        async def lobby() -> None:
            await gate.yield_to_commands()
            order.append("lobby step")

        commands = [asyncio.create_task(command(n)) for n in (0, 1)]
        await asyncio.sleep(0)
        step = asyncio.create_task(lobby())
        for n in (0, 1):
            for _ in range(5):
                await asyncio.sleep(0)
            assert not step.done()
            finish[n].set()
        await asyncio.gather(step, *commands)

    _run(main())
    assert order == ["command 0 answered", "command 1 answered", "lobby step"]


def test_a_command_read_in_the_turn_after_the_lobby_yielded_still_goes_first() -> None:
    """A frame that arrives while a lobby step runs is parsed when the loop next polls, and its reader runs a
    turn later: the step's two turns of yielding let it be counted before the step goes on."""
    order: list[str] = []

    async def main() -> None:
        gate = CommandGate(max_wait=60)

        async def command() -> None:
            with gate.command():
                await asyncio.sleep(0.01)
                order.append("command answered")

        async def lobby() -> None:
            # The reader is woken during the lobby's own step (a frame parsed in the poll before it).
            asyncio.get_running_loop().call_soon(asyncio.ensure_future, command())
            await gate.yield_to_commands()
            order.append("lobby step")

        await lobby()

    _run(main())
    assert order == ["command answered", "lobby step"]


def test_a_server_saturated_with_commands_still_serves_its_lobby() -> None:
    async def main() -> tuple[bool, int]:
        gate = CommandGate(max_wait=0.05)
        never = asyncio.Event()

        async def command() -> None:
            with gate.command():
                await never.wait()

        task = asyncio.create_task(command())
        await asyncio.sleep(0)
        await asyncio.wait_for(gate.yield_to_commands(), 5)  # gives up waiting after max_wait
        still = gate.in_flight
        left_waiting = len(gate._waiting)
        task.cancel()
        return still == 1, left_waiting

    in_flight, left_waiting = _run(main())
    assert in_flight
    assert left_waiting == 0  # the step that gave up is no longer among the waiting


class _Socket:
    """The websocket's receive side: the given frames, then a disconnect."""

    def __init__(self, texts: list[str]) -> None:
        self.frames = [{"type": "websocket.receive", "text": t} for t in texts]

    async def receive(self) -> dict[str, Any]:
        return self.frames.pop(0) if self.frames else {"type": "websocket.disconnect"}


def test_the_websocket_counts_a_seats_command_in_flight_until_it_is_answered(monkeypatch, embedded_settings) -> None:
    from server.realtime.hub import ViewerConnection
    from server.services.access import Viewer
    from server.services.wiring import GameServices

    commands = GameServices.build({}).commands
    seen: dict[str, int] = {}

    async def handle(message: dict[str, Any], *args: Any) -> None:
        seen[message["type"]] = commands.gate.in_flight

    monkeypatch.setattr(ws, "_handle", handle)
    frames = [json.dumps({"type": kind, "command_id": "c"}) for kind in ("ping", "command", "snapshot", "undo", "resign")]

    async def main(viewer: Viewer) -> None:
        conn = ViewerConnection("g", viewer)
        await ws._receive_loop(_Socket(list(frames)), conn, None, embedded_settings, commands, None, None)  # type: ignore[arg-type]

    _run(main(Viewer(role="seat", side="blue")))
    assert seen == {"ping": 0, "command": 1, "snapshot": 0, "undo": 1, "resign": 1}
    assert commands.gate.in_flight == 0
    # A spectator's commands are refused, and hold up nothing, however many it sends.
    _run(main(Viewer(role="spectator")))
    assert seen == {"ping": 0, "command": 0, "snapshot": 0, "undo": 0, "resign": 0}


@pytest.fixture
def patient_gate(client) -> CommandGate:
    gate: CommandGate = client.app.state.games.gate
    gate.max_wait = 30.0
    return gate


def _hold_a_command(client, gate: CommandGate, seconds: float) -> list[datetime]:
    """A command in flight on the app's loop for `seconds`; the list gets the time it was answered."""
    released: list[datetime] = []

    async def command() -> None:
        with gate.command():
            await asyncio.sleep(seconds)
            released.append(datetime.now(UTC))

    client.portal.start_task_soon(command)
    client.portal.call(asyncio.sleep, 0.05)  # it is in flight before the request below is sent
    assert gate.in_flight == 1
    return released


def test_a_game_is_created_and_joined_only_after_the_commands_in_flight(client, patient_gate) -> None:
    host, guest = Player(client, "first-host"), Player(client, "first-guest")

    released = _hold_a_command(client, patient_gate, 0.3)
    created = host.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "open"})
    assert created.status_code == 201
    assert released, "the create answered while the command was in flight"
    game_id = created.json()["id"]
    created_at = datetime.fromisoformat(created.json()["created_at"])
    assert created_at >= released[0]

    released = _hold_a_command(client, patient_gate, 0.3)
    joined = guest.post(f"/api/games/{game_id}/join", json={"contribution": "e" * 64})
    assert joined.status_code == 200
    assert released, "the join answered while the command was in flight"
    assert patient_gate.in_flight == 0


def test_a_join_does_not_write_while_a_command_is_in_flight(client, patient_gate) -> None:
    """The service's own steps wait too (callers other than the routes: the computer's seat, say)."""
    host, guest = Player(client, "write-host"), Player(client, "write-guest")
    game_id = host.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "open"}).json()["id"]
    guest_id = guest.get("/api/me").json()["id"]
    app = client.app
    games = app.state.games

    async def scenario() -> list[str]:
        from server.models import User

        seen: list[str] = []

        async def status() -> str:
            async with app.state.sessionmaker() as session:
                return (await games.store.get_row(session, game_id, light=True)).status

        async def command() -> None:
            with patient_gate.command():
                await asyncio.sleep(0.2)
                seen.append(f"while the command was in flight: {await status()}")

        held = asyncio.create_task(command())
        await asyncio.sleep(0)
        async with app.state.sessionmaker() as session:
            user = await session.get(User, guest_id)
            await games.lobby.join_game(session, user, game_id, None, "f" * 64)
        seen.append(f"after the join: {await status()}")
        await held
        return seen

    assert client.portal.call(scenario) == ["while the command was in flight: waiting", "after the join: active"]


def test_every_command_counts_in_flight_not_only_the_websockets(client, monkeypatch) -> None:
    """A command through the HTTP route (as a bot's, a referee's) is in flight while it is judged."""
    a, b, game = start_game(client)
    gate = client.app.state.games.gate
    seen: list[int] = []
    apply = command_path.apply_logged

    def counting(*args: Any) -> Any:
        seen.append(gate.in_flight)
        return apply(*args)

    monkeypatch.setattr(command_path, "apply_logged", counting)
    engine_game, _ = server_game(client, game["id"])
    side = engine_game.awaiting
    awaiting = a if side == "blue" else b  # `start_game`: the creator is blue
    command = pick_command(client, game["id"], side, random.Random(5))
    answer = awaiting.post(f"/api/games/{game['id']}/commands", json={"command": command, "command_id": "http-1",
                                                                           "expected_version": engine_game.version})
    assert answer.status_code == 200, answer.text
    assert seen == [1]
    assert gate.in_flight == 0
