"""server/realtime/hub.py: pushes built from this process's own commit, and from the database otherwise."""

from __future__ import annotations

import asyncio
import gc
import weakref
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from server.realtime.hub import GameHub, SendBacklog, ViewerConnection, let_senders_run, plain
from server.rules_cli import find_scenario
from server.services.access import Viewer
from server.services.engine import EngineCache, RecentCache, ScenarioCache
from server.services.views import GameMeta, build_view

GAME = "g1"


class FakeEngine:
    """Just enough of an engine Game for build_view: a view that names its version."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.scenario = SimpleNamespace(side_order=("blue", "red"))

    def view(self, viewer: str) -> dict[str, Any]:
        return {"viewer": viewer, "turn": self.version}

    def views(self, viewers: list[str], *, share_units: bool = False) -> list[dict[str, Any]]:
        return [{**self.view(v), "units": {}} for v in viewers]


@dataclass
class Row:
    seq: int
    side: str = "blue"
    command: dict[str, Any] = field(default_factory=lambda: {"type": "end_phase"})
    events: list[dict[str, Any]] = field(default_factory=list)
    created_at: datetime = datetime(2026, 11, 22, tzinfo=UTC)


def meta(version: int) -> GameMeta:
    return GameMeta(id=GAME, version=version, status="active", visibility="private",
                    awaiting_since=None, result=None, ruleset="quickplay", seat_names=(("blue", "ann"), ("red", "bob")))


class FakeService:
    """The database's state is `db_version`; `reads` counts trips to it."""

    def __init__(self, db_version: int) -> None:
        self.db_version = db_version
        self.reads = 0
        self.recent = RecentCache()
        self.engines = EngineCache()
        self.scenarios = ScenarioCache()
        # a real scenario: the log's filter asks the game's edition whether a command is a side's secret
        self.scenarios._by_game[GAME] = find_scenario("tutorial")

    async def load_for_views(self, _session: Any, _game_id: str) -> Any:
        self.reads += 1
        row = SimpleNamespace(
            id=GAME, version=self.db_version, status="active", visibility="private",
            awaiting_since=None, result=None, ruleset="quickplay", rated=True,
            seats=[SimpleNamespace(side="blue", user_id=1, user=SimpleNamespace(username="ann")),
                   SimpleNamespace(side="red", user_id=2, user=SimpleNamespace(username="bob"))],
        )
        return SimpleNamespace(row=row, engine=FakeEngine(self.db_version), scenario=None)

    async def log_rows(self, _session: Any, _game_id: str, *, after: int = 0, upto: int | None = None) -> list[Row]:
        # `log_version`: a command another process committed after the row was read.
        newest = getattr(self, "log_version", self.db_version)
        return [Row(seq) for seq in range(after + 1, (newest if upto is None else min(upto, newest)) + 1)]

    async def spectator_count(self, _session: Any, _game_id: str) -> int:
        return 0


@asynccontextmanager
async def no_session() -> Any:
    yield None


def connected_hub(service: FakeService, version: int) -> tuple[GameHub, ViewerConnection]:
    hub = GameHub(broadcast=None, sessionmaker=no_session, store=service, spectators=service,  # type: ignore[arg-type]
                  channel="test")
    conn = ViewerConnection(GAME, Viewer("seat", "blue", 1))
    conn.last_version = version
    conn.last_view = plain(build_view(meta(version), FakeEngine(version), conn.viewer, spectators=0))
    hub._connections[GAME] = {conn}
    hub._spectators[GAME] = 0
    return hub, conn


def test_the_committing_process_pushes_its_own_change_without_reading_it_back() -> None:
    service = FakeService(db_version=6)
    hub, conn = connected_hub(service, version=6)
    service.recent.put(meta(7), Row(7))
    service.engines.put(GAME, 7, FakeEngine(7))

    asyncio.run(hub.refresh(GAME, 7))

    message = conn.queue.get_nowait()
    assert service.reads == 0
    assert message["version"] == 7
    assert sorted(op["path"] for op in message["patch"]) == ["/turn", "/version"]
    assert [entry["seq"] for entry in message["log"]] == [7]


def test_a_change_from_another_process_is_read_from_the_database() -> None:
    service = FakeService(db_version=7)
    hub, conn = connected_hub(service, version=6)

    asyncio.run(hub.refresh(GAME, 7))

    assert service.reads == 1
    assert conn.queue.get_nowait()["version"] == 7


def test_a_viewer_is_never_sent_back_to_an_older_version_held_locally() -> None:
    # This process committed version 7, but another process's version 8 reached the viewer first.
    service = FakeService(db_version=8)
    hub, conn = connected_hub(service, version=8)
    service.recent.put(meta(7), Row(7))
    service.engines.put(GAME, 7, FakeEngine(7))

    asyncio.run(hub.refresh(GAME, 7))

    assert conn.queue.empty()
    assert conn.last_version == 8


def test_the_echo_of_a_change_already_pushed_costs_nothing() -> None:
    service = FakeService(db_version=7)
    hub, conn = connected_hub(service, version=7)

    asyncio.run(hub.refresh(GAME, 7))

    assert service.reads == 0
    assert conn.queue.empty()


def test_a_spectator_count_change_is_pushed_at_the_same_version() -> None:
    service = FakeService(db_version=7)
    hub, conn = connected_hub(service, version=7)
    hub._spectators.pop(GAME)  # a presence notice: the count must be read again
    service.spectator_count = _three  # type: ignore[method-assign]

    asyncio.run(hub.refresh(GAME))

    message = conn.queue.get_nowait()
    assert message["version"] == 7
    assert message["patch"] == [{"op": "replace", "path": "/spectators", "value": 3}]


async def _three(_session: Any, _game_id: str) -> int:
    return 3


class CountingService(FakeService):
    """`spectator_counts` answers `stale`; while it is being read, `meanwhile` runs (a spectator
    arriving, whose own fresher count the hub notes)."""

    def __init__(self, stale: int, meanwhile: Any = None) -> None:
        super().__init__(db_version=7)
        self.stale = stale
        self.meanwhile = meanwhile

    async def touch_spectators(self, _session: Any, _ids: list[str]) -> None:
        return None

    async def spectator_counts(self, _session: Any, game_ids: list[str]) -> dict[str, int]:
        if self.meanwhile is not None:
            self.meanwhile()
        return dict.fromkeys(game_ids, self.stale)


def test_a_heartbeat_recount_read_before_a_spectator_arrived_does_not_replace_the_newer_count() -> None:
    service = CountingService(stale=0)
    hub, conn = connected_hub(service, version=7)
    # The spectator's arrival is counted (1) while the heartbeat's read, begun before it, says 0.
    service.meanwhile = lambda: hub._note_spectators(GAME, 1)

    asyncio.run(hub._heartbeat_once())

    assert hub._spectators[GAME] == 1
    assert not hub._tasks and conn.queue.empty()  # no push of the stale count


def test_a_heartbeat_recount_that_differs_is_pushed() -> None:
    service = CountingService(stale=2)
    hub, conn = connected_hub(service, version=7)

    async def beat_and_settle() -> None:
        await hub._heartbeat_once()
        await asyncio.gather(*list(hub._tasks))

    asyncio.run(beat_and_settle())

    assert hub._spectators[GAME] == 2
    assert conn.queue.get_nowait()["patch"] == [{"op": "replace", "path": "/spectators", "value": 2}]


def test_a_command_committed_between_the_row_read_and_the_log_read_stays_out_of_the_frame() -> None:
    """Another process commits version 9 after this one read the row at 8 but before it read the log:
    the frame names version 8 and carries the log up to 8 only (version 9 comes with its own notice)."""
    service = FakeService(db_version=8)
    service.log_version = 9  # type: ignore[attr-defined]
    hub, conn = connected_hub(service, version=7)

    asyncio.run(hub.refresh(GAME, 8))

    message = conn.queue.get_nowait()
    assert message["version"] == 8
    assert [entry["seq"] for entry in message["log"]] == [8]


def test_a_players_command_queues_the_opponents_patch_first_and_before_publish_returns() -> None:
    """The websocket route publishes a command with its connection as the actor, then sends the answer:
    every viewer's patch is queued by then (no task left to run), the actor's last, so the opponent's
    update is written before the mover's patch and answer (issue 16: command -> opponent's update)."""
    service = FakeService(db_version=6)
    hub, mover = connected_hub(service, version=6)
    hub.broadcast = SimpleNamespace(backend_name="memory")  # type: ignore[assignment]
    order: list[str] = []
    opponent = ViewerConnection(GAME, Viewer("seat", "red", 2))
    watcher = ViewerConnection(GAME, Viewer("spectator", None, None))
    for name, conn in (("mover", mover), ("opponent", opponent), ("watcher", watcher)):
        conn.last_version = 6
        conn.last_view = plain(build_view(meta(6), FakeEngine(6), conn.viewer, spectators=0))
        conn.send = (lambda message, name=name, send=conn.send: order.append(name) or send(message))  # type: ignore[method-assign]
        hub._connections[GAME].add(conn)
    service.recent.put(meta(7), Row(7))
    service.engines.put(GAME, 7, FakeEngine(7))

    asyncio.run(hub.publish(GAME, 7, actor=mover))

    assert sorted(order[:2]) == ["opponent", "watcher"] and order[2:] == ["mover"]
    assert all(c.queue.get_nowait()["version"] == 7 for c in (mover, opponent, watcher))
    assert service.reads == 0


def test_a_queue_is_in_the_backlog_while_it_holds_messages(monkeypatch: Any) -> None:
    monkeypatch.setattr(SendBacklog, "queues", weakref.WeakSet())  # other tests' connections stay out of it

    async def scenario() -> list[bool]:
        conn = ViewerConnection(GAME, Viewer("seat", "blue", 1))
        seen = [conn.queue in SendBacklog.queues]
        conn.send({"type": "patch", "version": 1})
        conn.send({"type": "ack", "version": 1})
        seen.append(conn.queue in SendBacklog.queues)
        conn.queue.get_nowait()
        seen.append(conn.queue in SendBacklog.queues)
        conn.queue.get_nowait()
        seen.append(conn.queue in SendBacklog.queues)
        conn.send({"type": "patch", "version": 2})
        conn.queue.discard()
        seen.append(conn.queue in SendBacklog.queues)
        conn.send({"type": "patch", "version": 3})
        del conn  # a connection dropped with a message queued does not stay in the backlog
        gc.collect()
        seen.append(bool(SendBacklog.queues))
        return seen

    assert asyncio.run(scenario()) == [False, True, True, False, False, False]


def test_a_command_lets_the_senders_already_woken_go_first_and_waits_for_nothing_otherwise(monkeypatch: Any) -> None:
    """Issue 16: a second command handled before the first one's frames went out delayed its opponent's
    update by a whole handling (docs/benchmarks.md, session 15)."""
    monkeypatch.setattr(SendBacklog, "queues", weakref.WeakSet())  # other tests' connections stay out of it

    async def scenario() -> tuple[list[str], list[str]]:
        conn = ViewerConnection(GAME, Viewer("seat", "red", 2))
        order: list[str] = []

        async def sender() -> None:
            while True:
                message = await conn.queue.get()
                order.append(f"sent {message['version']}")

        task = asyncio.create_task(sender())
        await asyncio.sleep(0)  # the sender now waits on its empty queue
        conn.send({"type": "patch", "version": 1})  # the first command's update: its sender is woken
        await let_senders_run()
        order.append("second command handled")
        with_backlog = list(order)

        order.clear()
        asyncio.get_running_loop().call_soon(order.append, "other work")
        await let_senders_run()  # nothing waits: no turn of the loop
        order.append("third command handled")
        without_backlog = list(order)
        task.cancel()
        return with_backlog, without_backlog

    with_backlog, without_backlog = asyncio.run(scenario())
    assert with_backlog == ["sent 1", "second command handled"]
    assert without_backlog == ["third command handled"]


def test_a_clock_change_from_another_process_reaches_the_viewers_without_a_read() -> None:
    """Issue 39: a pause asked for in another process (or a deadline the separate scheduler passed) reaches this
    process's viewers as `{"type": "clock"}`, at once; it reads nothing and is no change of the game's state
    (the computer's seats, told of every change, are not told of it)."""
    from server.realtime.broadcast import Broadcast, MemoryBackend

    service = FakeService(db_version=7)
    hub, conn = connected_hub(service, version=7)
    hub.broadcast = Broadcast(MemoryBackend())
    changed: list[str] = []
    hub.change_listeners.append(changed.append)

    async def scenario() -> dict[str, Any]:
        await hub.broadcast.connect()
        consumer = asyncio.create_task(hub._consume())
        await hub._subscribed.wait()
        await hub.broadcast.publish("test", f"{GAME}:clock")
        message = await asyncio.wait_for(conn.queue.get(), 5)
        consumer.cancel()
        await hub.broadcast.disconnect()
        return message

    assert asyncio.run(scenario()) == {"type": "clock"}
    assert service.reads == 0 and changed == []


def test_a_message_said_in_another_process_reaches_only_those_who_read_its_channel() -> None:
    """Issue 44: "<game>:chat:<channel>:<over>" from another process becomes `{"type": "chat", "channel": ...}` for
    this process's viewers who read that channel (a seat the seats', a spectator the spectators', everyone both once
    the game is over), reading nothing and changing nothing."""
    from server.realtime.broadcast import Broadcast, MemoryBackend

    service = FakeService(db_version=7)
    hub, seat = connected_hub(service, version=7)
    watcher = ViewerConnection(GAME, Viewer("spectator", None, 2))
    hub._connections[GAME].add(watcher)
    hub.broadcast = Broadcast(MemoryBackend())
    changed: list[str] = []
    hub.change_listeners.append(changed.append)

    async def scenario() -> list[tuple[str, Any]]:
        await hub.broadcast.connect()
        consumer = asyncio.create_task(hub._consume())
        await hub._subscribed.wait()
        got: list[tuple[str, Any]] = []
        for notice in (f"{GAME}:chat:spectators:0", f"{GAME}:chat:seats:0", f"{GAME}:chat:spectators:1"):
            await hub.broadcast.publish("test", notice)
            await asyncio.sleep(0.05)
            for name, conn in (("seat", seat), ("spectator", watcher)):
                while not conn.queue.empty():
                    got.append((name, dict(conn.queue.get_nowait())))
        consumer.cancel()
        await hub.broadcast.disconnect()
        return got

    assert asyncio.run(scenario()) == [
        ("spectator", {"type": "chat", "channel": "spectators"}),
        ("seat", {"type": "chat", "channel": "seats"}),
        ("seat", {"type": "chat", "channel": "spectators"}),  # the game is over: the seats read both
        ("spectator", {"type": "chat", "channel": "spectators"}),
    ]
    assert service.reads == 0 and changed == []
