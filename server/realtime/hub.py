"""The per-process game hub: which websockets watch which game, and what each one is sent.

On every change notice (from any process, through the broadcaster) the hub
re-reads the game once and, for each of ITS connections, builds that viewer's
own view, diffs it against what that connection last received (RFC 6902 via
`jsonpatch`) and queues the patch with the new log entries filtered for it.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
import weakref
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .. import jsoncodec
from ..models import CHANNELS
from ..services.access import Viewer
from ..services.messages import readable_channels
from ..services.spectators import Spectators
from ..services.store import GameStore
from ..services.views import GameMeta, build_log_entries, build_view, build_views
from .broadcast import RESYNC, Broadcast
from .diff import make_patch

log = logging.getLogger(__name__)

# A client this far behind is resynchronised with a fresh snapshot instead.
MAX_QUEUED_MESSAGES = 256
HEARTBEAT_SECONDS = 30.0
# Hubs on one channel tell each other they exist ("@hello:ID", "@alive:ID", "@bye:ID"): a process
# that hears no other sends no change notices at all, since its own viewers are served directly
# (issue 16: a NOTIFY per command was 18% of a lone process's time). A peer is forgotten after
# PEER_EXPIRY seconds of silence.
PEER_BEAT_SECONDS = 5.0
PEER_EXPIRY_SECONDS = 3 * PEER_BEAT_SECONDS


plain = jsoncodec.plain


class Frame(dict[str, Any]):
    """A message to several connections: serialised once, on its first send (`text`)."""

    _text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = jsoncodec.dumps(self)
        return self._text


# A clock change (`publish_clock`): "<game id>:clock" on the channel, and this message to each viewer.
CLOCK_NOTICE = "clock"
CLOCK_CHANGED = Frame({"type": "clock"})
# A message said or removed in a channel (`publish_chat`): "<game id>:chat:<channel>:<0|1 over>" on the channel, and
# `{"type": "chat", "channel": ...}` to each viewer who reads that channel. The frame holds no message: each page
# reads the messages anew as its viewer may (`GET /api/games/{id}/messages`), so no frame can carry a message
# to a viewer who may not read it, a muted one included.
CHAT_NOTICE = "chat"
CHAT_FRAMES = {channel: Frame({"type": "chat", "channel": channel}) for channel in CHANNELS}


def _detached(view: dict[str, Any]) -> dict[str, Any]:
    """A view the connections may keep as their last one, which no later change of the game alters: a
    JSON-shaped copy of the fields that may share objects with the game's state, and the others as
    `build_views(share_units=True)` made them (`_KEPT_AS_BUILT`), among them the units (read-only objects
    of plain JSON values, kept from one command to the next while unchanged, so that the next patch skips
    them by identity) and the unit definitions (read-only scenario data, the same object while unchanged)."""
    copied = plain({k: v for k, v in view.items() if k not in _KEPT_AS_BUILT})
    return {k: v if k in _KEPT_AS_BUILT else copied[k] for k, v in view.items()}


# The fields of a view that `build_views` makes for each call out of plain JSON values, holding nothing of
# the game's state (fresh dicts of strings, numbers and booleans), and the read-only objects it keeps from
# call to call (units, unit definitions): kept as built. Everything else (the prompt and the combat, which
# share lists with the state; the result; an edition's own fields) is copied (issue 16: fewer copies per
# command; tests/server/test_detached_views.py checks that the kept fields share nothing with the state).
_KEPT_AS_BUILT = frozenset({
    "scenario", "ruleset", "viewer", "turn", "turns", "turn_label", "phase", "active", "awaiting",
    "units", "squares", "replacements", "control", "points", "seed_hash", "can_undo", "dice_rolled",
    "unit_defs", "dice", "seed",
})


def frame_text(message: dict[str, Any]) -> str:
    return message.text if isinstance(message, Frame) else jsoncodec.dumps(message)


class SendBacklog:
    """The connection queues of this process that hold messages their senders have not taken yet.

    A command's frames go out from each connection's sender task, which runs when the event loop
    reaches it. A second command whose frame arrived in the same turn of the loop was ahead of it, and
    its handling (about a millisecond) came between the first command and its opponent's update: on the
    200-game benchmark that wait was the largest share of the slowest updates' way out (issue 16,
    docs/benchmarks.md session 15). So a command that finds messages waiting lets the loop run once
    before it is handled (`let_senders_run`): the senders already woken go first.

    Held weakly: a queue dropped with messages in it (a connection gone) leaves the set with it."""

    queues: ClassVar[weakref.WeakSet[OutgoingQueue]] = weakref.WeakSet()


class OutgoingQueue(asyncio.Queue[dict[str, Any] | None]):
    """A connection's outgoing queue, in `SendBacklog` while it holds messages (asyncio's `_put` /
    `_get` hooks, which every put and get goes through)."""

    def _put(self, item: dict[str, Any] | None) -> None:
        if self.empty():  # joins the backlog once, not on every put (a weak reference each time)
            SendBacklog.queues.add(self)
        super()._put(item)

    def _get(self) -> dict[str, Any] | None:
        item: dict[str, Any] | None = super()._get()
        if self.empty():
            SendBacklog.queues.discard(self)
        return item

    def discard(self) -> None:
        """Drop what is still queued (the connection is gone): it no longer waits for anyone."""
        while not self.empty():
            self.get_nowait()


async def let_senders_run() -> None:
    """One turn of the loop when messages wait for their senders, so that they go out before the
    caller's work (see `SendBacklog`); nothing otherwise."""
    if SendBacklog.queues:
        await asyncio.sleep(0)


@dataclass(eq=False)
class ViewerConnection:
    game_id: str
    viewer: Viewer
    queue: OutgoingQueue = field(default_factory=OutgoingQueue)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    last_view: dict[str, Any] | None = None
    last_version: int = -1
    # The client reads `{"type": "batch", "messages": [...]}` frames (asked for with `?batch=1`): the
    # messages queued together go out in one frame, one socket write (`server/api/routes/ws.py`).
    batch: bool = False

    def send(self, message: dict[str, Any]) -> bool:
        if self.queue.qsize() >= MAX_QUEUED_MESSAGES:
            return False
        self.queue.put_nowait(message)
        return True


class GameHub:
    def __init__(
        self,
        broadcast: Broadcast,
        sessionmaker: async_sessionmaker[AsyncSession],
        store: GameStore,
        spectators: Spectators,
        channel: str,
    ) -> None:
        self.broadcast = broadcast
        self.sessionmaker = sessionmaker
        # The games this process serves live, and their stored state when it must read them.
        self.store = store
        # The spectator rows every process shares (each watching connection's).
        self.spectator_rows = spectators
        self.channel = channel
        self._connections: dict[str, set[ViewerConnection]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._consumer: asyncio.Task[None] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        # Told about connections (attached / detached / heartbeat): server/notify/presence.py.
        self.observers: list[Any] = []
        # Told the id of every game that changed, here or in another process (the computer's seats).
        self.change_listeners: list[Any] = []
        # Spectator counts per game, re-read only when a presence change is announced.
        self._spectators: dict[str, int] = {}
        # When each game's count last changed other than by the heartbeat (a tick of `_presence_clock`):
        # the heartbeat's recount, read before such a change, is older than it and must not replace it.
        self._presence_clock = 0
        self._presence_changed: dict[str, int] = {}
        self.instance = uuid.uuid4().hex[:16]
        self._peers: dict[str, float] = {}  # other hubs on the channel: id -> when last heard
        self._peer_beat: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self._consumer = asyncio.create_task(self._consume(), name="vedette-hub-consumer")
        self._heartbeat = asyncio.create_task(self._beat(), name="vedette-hub-heartbeat")
        await asyncio.wait_for(self._subscribed.wait(), 10)
        if self.broadcast.backend_name != "memory":
            await self._announce("hello")
            self._peer_beat = asyncio.create_task(self._beat_peers(), name="vedette-hub-peers")

    async def stop(self) -> None:
        if self._peer_beat is not None:
            self._peer_beat.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._peer_beat
            with suppress(Exception):
                await asyncio.wait_for(self._announce("bye"), 2)
        for task in (self._consumer, self._heartbeat, *self._tasks):
            if task is not None:
                task.cancel()
        for task in (self._consumer, self._heartbeat, *self._tasks):
            if task is not None:
                with suppress(asyncio.CancelledError, Exception):
                    await task
        for conns in self._connections.values():
            for conn in conns:
                conn.queue.put_nowait(None)

    def has_seat(self, game_id: str, side: str) -> bool:
        """Whether this process holds a live websocket of `side`'s player in the game."""
        return any(
            c.viewer.role == "seat" and c.viewer.side == side for c in self._connections.get(game_id, ())
        )

    def connection_count(self) -> int:
        return sum(len(c) for c in self._connections.values())

    # ---------------------------------------------------------------- peers

    def has_peers(self) -> bool:
        """Whether another hub listens on this channel (heard within PEER_EXPIRY_SECONDS)."""
        if not self._peers:
            return False
        cutoff = time.monotonic() - PEER_EXPIRY_SECONDS
        for peer, seen in list(self._peers.items()):
            if seen < cutoff:
                del self._peers[peer]
        return bool(self._peers)

    async def _announce(self, kind: str) -> None:
        await self.broadcast.publish(self.channel, f"@{kind}:{self.instance}")

    async def _beat_peers(self) -> None:
        while True:
            await asyncio.sleep(PEER_BEAT_SECONDS)
            try:
                await self._announce("alive")
            except Exception:
                log.exception("could not announce this hub to its peers")

    def _heard_peer(self, message: str) -> None:
        kind, _, peer = message[1:].partition(":")
        if not peer or peer == self.instance:
            return
        if kind == "bye":
            self._peers.pop(peer, None)
            return
        new = peer not in self._peers
        self._peers[peer] = time.monotonic()
        if kind == "hello" and new:
            # A process just started: it may have missed notices sent before it listened, and it
            # needs to hear of this one. Its viewers start from fresh snapshots anyway.
            self._spawn(self._announce("alive"))

    async def _consume(self) -> None:
        async with self.broadcast.subscribe(self.channel) as subscriber:
            self._subscribed.set()
            async for event in subscriber:
                if event.message.startswith("@"):
                    self._heard_peer(event.message)
                    continue
                if event.message == RESYNC:
                    for game_id in list(self._connections):
                        self._note_spectators(game_id, None)
                        self._spawn(self.refresh(game_id))
                    continue
                game_id, _, rest = event.message.partition(":")
                if rest == CLOCK_NOTICE:
                    self._nudge_clock(game_id)
                    continue
                if rest.startswith(CHAT_NOTICE + ":"):
                    _, channel, over = rest.split(":", 2)
                    self._nudge_chat(game_id, channel, over == "1")
                    continue
                if not rest.endswith(":presence"):
                    self._changed(game_id)
                if game_id in self._connections:
                    if rest.endswith(":presence"):
                        self._note_spectators(game_id, None)
                        self._spawn(self.refresh(game_id))
                        continue
                    version = rest.partition(":")[0]
                    self._spawn(self.refresh(game_id, int(version) if version.isdigit() else None))

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            await self._heartbeat_once()

    async def _heartbeat_once(self) -> None:
        ids = [
            c.id
            for conns in self._connections.values()
            for c in conns
            if c.viewer.role == "spectator"
        ]
        try:
            async with self.sessionmaker() as session:
                await self.spectator_rows.touch_spectators(session, ids)
                # Recounted, not forgotten: a crashed process's watchers age out of the counts
                # here, and the next command's push needs no read of its own.
                watched = list(self._connections)
                counted_at = self._presence_clock
                counts = await self.spectator_rows.spectator_counts(session, watched)
            for game_id, count in counts.items():
                if self._presence_changed.get(game_id, 0) > counted_at:
                    continue  # a spectator came or went while this count was read: it is out of date
                if game_id in self._connections and self._spectators.get(game_id) != count:
                    known = game_id in self._spectators
                    self._spectators[game_id] = count
                    if known:
                        self._spawn(self.refresh(game_id))
        except Exception:
            log.exception("spectator heartbeat failed")
            self._spectators.clear()
        for observer in self.observers:
            await observer.heartbeat([c for conns in self._connections.values() for c in conns])

    def _note_spectators(self, game_id: str, count: int | None) -> None:
        """A spectator count from a read newer than any heartbeat on its way, or None: forgotten (a
        presence change), to be read again by the next push."""
        self._presence_clock += 1
        self._presence_changed[game_id] = self._presence_clock
        if count is None:
            self._spectators.pop(game_id, None)
        else:
            self._spectators[game_id] = count

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("hub task failed", exc_info=task.exception())

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # --------------------------------------------------------- connections

    async def publish(
        self, game_id: str, version: int, *, presence: bool = False, actor: ViewerConnection | None = None,
    ) -> None:
        """Tell every viewer of `game_id` that it changed: this process's own viewers directly, other
        processes' through the broadcaster (only if another hub is listening; never awaited by the
        caller, so a command's answer does not wait for the notice's round trip).

        `actor`: the connection whose command made the change. Its viewers' patches are then queued
        before this returns, the actor's last, so that the opponent's update goes out first and does
        not wait behind the actor's own messages (its patch, then the answer the caller sends)."""
        if presence:
            self._note_spectators(game_id, None)
        else:
            self._changed(game_id)
        if game_id in self._connections:
            if actor is not None and not presence:
                try:
                    await self.refresh(game_id, version, last=actor)
                except Exception:  # the command is stored: its viewers catch up on their next snapshot
                    log.exception("hub refresh failed for game %s", game_id)
            else:
                self._spawn(self.refresh(game_id, None if presence else version))
        if self.broadcast.backend_name == "memory" or not self.has_peers():
            return
        message = f"{game_id}:{version}:presence" if presence else f"{game_id}:{version}"
        self._spawn(self._send_notice(game_id, message))

    async def publish_clock(self, game_id: str) -> None:
        """Tell every viewer of `game_id` that its clock changed (a pause asked for, answered or ended, more
        time granted, a deadline passed): a change that is no part of the game's state, so no patch carries it.
        Each page reads the clock anew, as its viewer may see it (`GET /api/games/{id}/clock`)."""
        self._nudge_clock(game_id)
        if self.broadcast.backend_name == "memory" or not self.has_peers():
            return
        self._spawn(self._send_notice(game_id, f"{game_id}:{CLOCK_NOTICE}"))

    async def publish_chat(self, game_id: str, channel: str, over: bool) -> None:
        """Tell the viewers of `game_id` who read `channel` that its messages changed (one said or removed)."""
        self._nudge_chat(game_id, channel, over)
        if self.broadcast.backend_name == "memory" or not self.has_peers():
            return
        self._spawn(self._send_notice(game_id, f"{game_id}:{CHAT_NOTICE}:{channel}:{int(over)}"))

    def _nudge_chat(self, game_id: str, channel: str, over: bool) -> None:
        frame = CHAT_FRAMES.get(channel)
        if frame is None:
            return
        for conn in self._connections.get(game_id, ()):
            if channel in readable_channels(conn.viewer, over):
                conn.send(frame)

    def _nudge_clock(self, game_id: str) -> None:
        for conn in self._connections.get(game_id, ()):
            conn.send(CLOCK_CHANGED)

    def _changed(self, game_id: str) -> None:
        for listener in self.change_listeners:
            try:
                listener(game_id)
            except Exception:
                log.exception("change listener failed for game %s", game_id)

    async def _send_notice(self, game_id: str, message: str) -> None:
        try:
            await self.broadcast.publish(self.channel, message)
        except Exception:
            # The command is committed; viewers will catch up on their next snapshot.
            log.exception("could not publish change of game %s", game_id)

    async def attach(self, conn: ViewerConnection) -> None:
        self._connections.setdefault(conn.game_id, set()).add(conn)
        for observer in self.observers:
            await observer.attached(conn)
        if conn.viewer.role == "spectator":
            async with self.sessionmaker() as session:
                await self.spectator_rows.add_spectator(session, conn.id, conn.game_id)
        await self.send_snapshot(conn)
        if conn.viewer.role == "spectator":
            await self.publish(conn.game_id, conn.last_version, presence=True)

    async def detach(self, conn: ViewerConnection) -> None:
        conns = self._connections.get(conn.game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                self._connections.pop(conn.game_id, None)
                self._locks.pop(conn.game_id, None)
                self._spectators.pop(conn.game_id, None)
                self._presence_changed.pop(conn.game_id, None)
        if conn.viewer.role == "spectator":
            try:
                async with self.sessionmaker() as session:
                    await self.spectator_rows.remove_spectator(session, conn.id)
                await self.publish(conn.game_id, conn.last_version, presence=True)
            except Exception:
                log.exception("could not remove spectator %s", conn.id)
        for observer in self.observers:
            await observer.detached(conn)

    async def send_snapshot(self, conn: ViewerConnection) -> None:
        async with self._lock(conn.game_id):
            async with self.sessionmaker() as session:
                # The live game when this process holds it and the database confirms its version (the
                # opponent connecting, a second tab): no read of the row at all. Else the row, without
                # its large JSON columns when the engine and scenario are cached (`load_for_views`).
                held = await self.store.held_live(session.bind, conn.game_id)
                if held is not None:
                    row, engine, scenario = held
                else:
                    loaded = await self.store.load_for_views(session, conn.game_id)
                    row, engine, scenario = loaded.row, loaded.engine, loaded.scenario
                # A game at version 0 has no log row yet (its first command is seq 1).
                rows = (await self.store.log_rows(session, conn.game_id, upto=row.version)
                        if row.version else [])
                spectators = self._spectators.get(conn.game_id)
                if spectators is None or conn.viewer.role == "spectator":
                    # Counted when not known here, or when a spectator arrives (a seat's arrival does
                    # not change it; the heartbeat recounts every watched game anyway).
                    spectators = await self.spectator_rows.spectator_count(session, conn.game_id)
                    self._note_spectators(conn.game_id, spectators)
            view = _detached(build_view(row, engine, conn.viewer, spectators=spectators, share_units=True))
            entries = build_log_entries(row, rows, conn.viewer, scenario)
            conn.last_view = view
            conn.last_version = row.version
            message = {"type": "snapshot", "version": row.version, "view": view, "log": plain(entries)}
            conn.queue.put_nowait(message)

    def _local_state(self, game_id: str, version: int | None, after: int) -> tuple[Any, Any, list[Any], Any] | None:
        if version is None:
            return None
        recent = self.store.recent.lookup(game_id, version, after)
        if recent is None:
            return None
        meta, rows = recent
        engine = self.store.engines.get(game_id, meta.version)
        scenario = self.store.scenarios.peek(game_id)
        if engine is None or scenario is None:
            return None
        return meta, engine, rows, scenario

    async def refresh(self, game_id: str, version: int | None = None, *, last: ViewerConnection | None = None) -> None:
        """Bring every connection watching `game_id` up to date; `version` is the one announced;
        `last`, a connection to serve after the others (`publish`'s actor).

        When this process committed that version itself, the state, the log rows and the
        engine are still in its caches and nothing is read back; otherwise one light read."""
        async with self._lock(game_id):
            conns = [c for c in self._connections.get(game_id, ()) if c.last_view is not None and c is not last]
            if last is not None and last.last_view is not None and last in self._connections.get(game_id, ()):
                conns.append(last)
            if not conns:
                return
            after = min(c.last_version for c in conns)
            if version is not None and after >= version:
                return  # everyone has it already (the echo of a change pushed locally)
            newest = max(c.last_version for c in conns)
            spectators = self._spectators.get(game_id)
            local = self._local_state(game_id, version, after) if spectators is not None else None
            if local is not None and local[0].version < newest:
                local = None  # another process's newer version was already pushed: never go back
            if local is not None:
                row, engine, rows, scenario = local
            else:
                async with self.sessionmaker() as session:
                    loaded = await self.store.load_for_views(session, game_id)
                    # Up to the row's version: a command committed between the two reads must not put
                    # its log entry in a frame that still names the older version.
                    db_rows = await self.store.log_rows(session, game_id, after=after, upto=loaded.row.version)
                    if spectators is None:
                        spectators = await self.spectator_rows.spectator_count(session, game_id)
                        self._note_spectators(game_id, spectators)
                row, engine, rows, scenario = GameMeta.of(loaded.row), loaded.engine, db_rows, loaded.scenario
                if row.status == "active":
                    self.store.recent.seed(row)  # another process's change: our next command may be quick
            # One view per kind of viewer, and one patch (serialised once) per group of connections
            # that hold the same last view: two seats and any number of spectators cost at most
            # three views, however many watch.
            kinds: dict[tuple[str, str | None], Viewer] = {}
            for conn in conns:
                kinds.setdefault((conn.viewer.role, conn.viewer.side), conn.viewer)
            built = build_views(row, engine, list(kinds.values()), spectators=spectators, share_units=True)
            views = {key: _detached(view) for key, view in zip(kinds, built, strict=True)}
            frames: dict[tuple[Any, ...], Frame | None] = {}
            for conn in conns:
                key = (conn.viewer.role, conn.viewer.side)
                view = views[key]
                group = (key, conn.last_version, id(conn.last_view))
                if group not in frames:
                    assert conn.last_view is not None
                    patch = make_patch(conn.last_view, view)
                    new_rows = [r for r in rows if r.seq > conn.last_version]
                    frames[group] = Frame({
                        "type": "patch",
                        "version": row.version,
                        "patch": patch,
                        "log": plain(build_log_entries(row, new_rows, conn.viewer, scenario)),
                    }) if patch or new_rows else None
                frame = frames[group]
                if frame is None:
                    continue
                if not conn.send(frame):
                    # Too far behind: drop the backlog and start it over from a snapshot.
                    conn.last_view = None
                    conn.queue.put_nowait(None)
                    continue
                conn.last_view = view
                conn.last_version = row.version
