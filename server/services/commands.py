"""The command path: the one way a command changes a game, a player's as well as the referee's.

Each process holds the games it serves live in memory (`store.py`: the engine at the row's version, the
row's state and the last log rows). A command is judged by the rules core against that live game and
stored by ONE compare-and-set write of the log row and the game row (`commandlog.append`), on both
databases; the database is the log, and the authority when two processes race: the write stores nothing
if the game moved on, and the process then re-reads it. Commands of one game are judged one at a time in
a process (the engine is mutable), and each counts in flight while it is judged (`priority.py`). Mails a
command owes follow its commit (the hooks' `command_stored`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
import weakref
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import ApiError, Overloaded, not_found
from ..models import Game, GameCommand, User, utcnow
from . import commandlog
from .access import Viewer, require_seat
from .commandlog import Append, CommitConflict, LogRow
from .engine import rules
from .priority import CommandGate
from .ratings import rated_end
from .store import REFEREE, GameStore, apply_logged
from .views import GameMeta, build_command_answer
from .writes import WriteQueue

log = logging.getLogger(__name__)
_P = ParamSpec("_P")
_R = TypeVar("_R")

UNDO_COMMAND = {"type": "undo"}
RESIGN_COMMAND = {"type": "resign"}
# A repeated command id's first answer (built once, as the store's reads are).
_COMMAND_BY_ID = select(GameCommand).where(
    GameCommand.game_id == bindparam("game_id"), GameCommand.side == bindparam("side"),
    GameCommand.command_id == bindparam("command_id"),
)


def _in_flight(
    method: Callable[Concatenate[CommandService, _P], Coroutine[Any, Any, _R]],
) -> Callable[Concatenate[CommandService, _P], Coroutine[Any, Any, _R]]:
    """The command counts in flight while `method` judges and stores it, for the lobby, which lets it finish
    first (`priority.py`): a bot's, an HTTP client's and a referee's as well as the websocket's (which counts
    from its frame on)."""

    @functools.wraps(method)
    async def counted(self: CommandService, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.gate.command():
            return await method(self, *args, **kwargs)

    return counted


class CommandService:
    """Judges and stores commands against this process's live games (held in the `GameStore`)."""

    def __init__(
        self, store: GameStore, gate: CommandGate, writes: WriteQueue, hooks: list[Any], *, snapshot_every: int = 32,
        command_wait: float = 5.0,
    ) -> None:
        self.store = store
        # The commands in flight, which the lobby's steps let finish first (`priority.py`).
        self.gate = gate
        self.writes = writes
        # Called inside the service's transactions, before COMMIT (server/notify/hooks.py).
        self.hooks = hooks
        # The command path stores the whole state every this many commands (and at the game's end);
        # between them the log rows are the write-ahead log (`GameStore.engine_at` replays them).
        self.snapshot_every = max(1, snapshot_every)
        self._game_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # How long a command waits for its game's turn in this process before a 503 (issue 38): under a burst
        # of copies the queue behind one slow database call must not grow into minutes.
        self.command_wait = command_wait

    def live_meta(self, game_id: str) -> GameMeta | None:
        """The state of the game as this process last wrote or read it (no read now), or None when it
        does not hold the game: the other processes' commands are not in it."""
        meta: GameMeta | None = self.store.recent.meta(game_id)
        return meta

    @asynccontextmanager
    async def _game_turn(self, game_id: str) -> AsyncIterator[None]:
        """Commands for one game in this process are judged one at a time (the engine is mutable); one that
        cannot get its turn within `command_wait` seconds is answered 503 with Retry-After, unapplied."""
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = self._game_locks[game_id] = asyncio.Lock()
        try:
            await asyncio.wait_for(lock.acquire(), self.command_wait)
        except TimeoutError:
            raise Overloaded("too many commands for this game at once") from None
        try:
            yield
        finally:
            lock.release()

    async def submit(
        self,
        session: AsyncSession,
        game_id: str,
        user: User | None,
        command: dict[str, Any],
        expected_version: int | None,
        command_id: str | None,
        *,
        undo: bool = False,
        note_events: list[dict[str, Any]] | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Judge and store one player's command. Returns (answer, newly_applied)."""
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to play.")
        if command.get("type") == "adjudicate":
            raise ApiError(422, "illegal_command", "Only the referee adjudicates.", rule="commands")
        stored_command = dict(UNDO_COMMAND) if undo else command
        return await self._command(
            session, game_id, user.id, None, stored_command, expected_version, command_id or uuid.uuid4().hex,
            note_events=note_events, fresh_id=command_id is None,
        )

    async def referee(
        self, session: AsyncSession, game_id: str, command: dict[str, Any], *, user_id: int | None,
        command_id: str, expected_version: int, expected_status: str = "active",
        result_note: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """A result the service imposes through the rules core (a deadline claimed, a game abandoned
        before its second player came): the same path as a player's command, logged as the referee's.
        `result_note`: what the game's stored result says besides the rules core's (who lost on time)."""
        return await self._command(
            session, game_id, user_id, REFEREE, command, expected_version, command_id,
            expected_status=expected_status, result_note=result_note,
        )

    async def live_game(self, session: AsyncSession, game_id: str) -> tuple[GameMeta, Any, Any]:
        """This process's live game: its row's state (`GameMeta`), the engine at that version and the
        parsed scenario. Read from the database only when this process does not hold it (first
        sight of the game, or after `GameStore.forget`): then one read of the row, its seats and snapshot.
        The engine is the shared one: callers read it and never change it (standing orders, the
        computer's turn check); `GameStore.private_engine` gives a copy to change."""
        if len(game_id) > 32:
            raise not_found()
        meta = self.store.recent.meta(game_id)
        scenario = self.store.scenarios.peek(game_id)
        engine_game = self.store.engines.get(game_id, meta.version) if meta is not None else None
        if meta is not None and scenario is not None and engine_game is not None and meta.seat_ids:
            return meta, engine_game, scenario
        await session.commit()  # a fresh read: not a snapshot older than another writer's commit
        row = await self.store.get_row(session, game_id)
        meta = GameMeta.of(row)
        self.store.forget(game_id)
        self.store.recent.seed(meta)
        return meta, await self.store.engine_at(session, row), self.store.scenario_of(row)

    @_in_flight
    async def _command(
        self,
        session: AsyncSession,
        game_id: str,
        user_id: int | None,
        referee_side: str | None,
        command: dict[str, Any],
        expected_version: int | None,
        command_id: str,
        *,
        note_events: list[dict[str, Any]] | None = None,
        expected_status: str = "active",
        fresh_id: bool = False,
        result_note: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """THE command path, for every command on both databases (docs/engine-contract.md, "The command
        path"): judged by the rules core against this process's live game, then stored by one
        compare-and-set write (`commandlog.append`). If another process moved the game first, the
        write stores nothing, this process re-reads the game, and the answer is what the new state
        says (the first answer of a repeated command id, else 409 with the current version)."""
        async with self._game_turn(game_id):
            for attempt in (0, 1):
                meta, _, scenario = await self.live_game(session, game_id)
                side = referee_side or next((s for s, uid in meta.seat_ids if uid == user_id), None)
                if side is None:  # the routes answered strangers to a private game already (404)
                    raise ApiError(403, "not_a_player", "Only the game's two players may send commands.")
                viewer = Viewer("seat", side, user_id)

                # A command applied before moved the version on, so a repeat can only come with a
                # stale expected_version (or none); at the current version the unique index on
                # (game, side, command_id) catches any reuse.
                # `fresh_id`: the service made the id up for this call (a resignation by the page's button,
                # say): no earlier command can carry it, so there is nothing to look up.
                if not fresh_id and (expected_version is None or expected_version != meta.version):
                    earlier = self.store.recent.command(game_id, side, command_id)
                    if earlier is None:
                        earlier = await self._find_command(session, game_id, side, command_id)
                    if earlier is not None:
                        return build_command_answer(earlier, viewer, scenario), False

                # Every 409 of a command carries the game's current version: a client that raced
                # another command (which may have ended the game) knows where to resynchronise.
                if meta.status != expected_status:
                    if attempt == 0:
                        # Before refusing, read the row itself: a reader that loaded the game just before a
                        # join (or an end) committed may have left this process's cache one status behind.
                        self.store.forget(game_id)
                        continue
                    if meta.status == "waiting":
                        raise ApiError(409, "game_not_started", "The game waits for its second player.",
                                       version=meta.version)
                    if meta.status == "over":
                        raise ApiError(409, "game_over", "The game is over.", result=meta.result,
                                       version=meta.version)
                    raise ApiError(409, "game_started", "The game has started; resign instead.", version=meta.version)
                if expected_version is not None and expected_version != meta.version:
                    if expected_version > meta.version and attempt == 0:
                        self.store.forget(game_id)  # another process is ahead of this one: catch up, judge again
                        continue
                    raise ApiError(
                        409, "stale_version",
                        f"The game is at version {meta.version}, not {expected_version}; refresh and decide again.",
                        version=meta.version,
                    )

                engine_game = self.store.engines.take(game_id, meta.version)
                if engine_game is None:  # dropped meanwhile (e.g. a lobby change): read it again
                    self.store.forget(game_id)
                    continue
                previous_awaiting = engine_game.awaiting
                try:
                    events = apply_logged(engine_game, side, command)
                except rules().IllegalCommand as exc:
                    # The rules core leaves the state untouched on refusal: keep the object.
                    self.store.engines.put(game_id, meta.version, engine_game)
                    if attempt == 0 and await self._moved_elsewhere(session, game_id, meta.version):
                        self.store.forget(game_id)  # judged against a state another process has replaced
                        continue
                    error = exc.to_json() if hasattr(exc, "to_json") else {"error": "illegal_command"}
                    raise ApiError(422, error.get("error", "illegal_command"), exc.message, rule=exc.rule) from None
                except Exception as exc:  # a rules-core bug must not become a 500 or a stored command
                    self.store.forget(game_id)
                    log.exception("rules core failed on %s command in game %s", side, game_id)
                    raise ApiError(
                        422, "illegal_command",
                        f"The rules core could not apply this command ({type(exc).__name__}).", rule="commands",
                    ) from None
                return await self._append(
                    session, meta, scenario, engine_game, side, user_id, viewer, command, command_id,
                    [*note_events, *events] if note_events else events, previous_awaiting, expected_status,
                    result_note,
                )
        raise ApiError(409, "stale_version", "The game changed while this command was judged; try again.")

    async def _append(
        self, session: AsyncSession, meta: GameMeta, scenario: Any, engine_game: Any, side: str,
        user_id: int | None, viewer: Viewer, command: dict[str, Any], command_id: str,
        events: list[dict[str, Any]], previous_awaiting: str | None, expected_status: str,
        result_note: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], bool]:
        game_id = meta.id
        over = bool(engine_game.is_over)
        result = engine_game.result if over else None
        if result is not None and result_note:
            result = {**result, **result_note}
        new_version = meta.version + 1
        awaiting = None if over else engine_game.awaiting
        seat_sides = frozenset(s for s, _ in meta.seat_ids)
        mail_owed = any(hook.mail_owed(game_id, seat_sides, engine_game, previous_awaiting) for hook in self.hooks)
        now = utcnow()
        write = Append(
            game_id=game_id, version=meta.version, expected_status=expected_status,
            status="over" if over else "active", side=side, user_id=user_id, command_id=command_id,
            command=command, events=events,
            # The whole state every `snapshot_every` versions and at the end (the finished game's record);
            # otherwise the log row alone carries the command (migration 0005).
            snapshot=engine_game.to_json(include_log=False) if over or new_version % self.snapshot_every == 0 else None,
            awaiting=awaiting, result=result, mail_owed=mail_owed, now=now,
            rated=rated_end(game_id, meta.rated, meta.ruleset, meta.seat_ids, result) if over else None,
        )
        try:
            since = await commandlog.append(session, write, sqlite_writer=self.writes.sqlite_writer)
        except CommitConflict:
            self.store.forget(game_id)
            return await self._answer_after_race(session, game_id, side, command_id, user_id, scenario)
        except BaseException:
            self.store.forget(game_id)  # the engine holds a command that may not be stored
            raise
        entry = LogRow(
            game_id=game_id, seq=new_version, side=side, user_id=user_id, command_id=command_id,
            command=command, events=events, created_at=now,
        )
        self.store.engines.put(game_id, new_version, engine_game)
        # Built whole rather than by dataclasses.replace, which reads the class's fields on every call.
        self.store.recent.put(GameMeta(
            id=meta.id, version=new_version, status=write.status, visibility=meta.visibility,
            awaiting_since=since, result=write.result if over else meta.result, ruleset=meta.ruleset,
            seat_names=meta.seat_names, seat_ids=meta.seat_ids, rated=meta.rated,
        ), entry)
        if mail_owed:
            for hook in self.hooks:
                hook.command_stored(game_id, new_version, previous_awaiting)
        return build_command_answer(entry, viewer, scenario), True

    async def _moved_elsewhere(self, session: AsyncSession, game_id: str, version: int) -> bool:
        """Whether the stored game is past `version` (another process wrote it): a refusal is only
        answered once it is known to be judged against the current state."""
        if session.bind.dialect.name != "postgresql":
            return False  # SQLite is served by one process: this one
        await session.commit()
        current = await session.scalar(select(Game.version).where(Game.id == game_id))
        return current is not None and current != version

    def visible_live(self, game_id: str, user: User) -> bool:
        """Whether the live game (if this process serves it) shows `user` it exists: a seat, an open
        game, or an admin (server/services/access.py `resolve_viewer`). False means "ask the row"."""
        meta = self.store.recent.meta(game_id)
        if meta is None:
            return False
        return meta.visibility == "open" or user.is_admin or any(uid == user.id for _, uid in meta.seat_ids)

    def live_seat(self, game_id: str, user: User | None) -> Viewer | None:
        """The seat `user` holds in the live game this process serves, without a read: a seat, once
        taken, is never given up or changed, so the live game's seats are the row's. None: not known
        here (ask the row, `access.resolve_viewer`, which also answers spectators and admins)."""
        meta = self.store.recent.meta(game_id) if user is not None else None
        if meta is None or user is None:
            return None
        side = next((side for side, uid in meta.seat_ids if uid == user.id), None)
        return Viewer("seat", side, user.id) if side is not None else None

    async def _find_command(
        self, session: AsyncSession, game_id: str, side: str, command_id: str
    ) -> GameCommand | None:
        """The command `side` sent earlier with this id. Ids are each seat's own (unique per game,
        side and id): the other seat's command with the same id is not this one, and is never
        answered to this seat."""
        return await session.scalar(_COMMAND_BY_ID, {"game_id": game_id, "side": side, "command_id": command_id})

    async def _answer_after_race(
        self, session: AsyncSession, game_id: str, side: str, command_id: str, user_id: int | None, scenario: Any
    ) -> tuple[dict[str, Any], bool]:
        await session.commit()  # see the racing writer's commit
        earlier = await self._find_command(session, game_id, side, command_id)
        if earlier is not None:
            return build_command_answer(earlier, Viewer("seat", side, user_id), scenario), False
        current = await session.scalar(select(Game.version).where(Game.id == game_id))
        raise ApiError(
            409,
            "stale_version",
            "Another command for this game was accepted first; refresh and decide again.",
            version=current,
        )

    async def resign(self, session: AsyncSession, game_id: str, user: User | None) -> Game:
        """Resign, or call off a game nobody joined (`resign_version`); the game's row after it."""
        await self.resign_version(session, game_id, user)
        await session.commit()  # a fresh read: the command was written outside this session's transaction
        return await self.store.get_row(session, game_id, stateless=True)

    async def resign_version(self, session: AsyncSession, game_id: str, user: User | None) -> int:
        """Resign (the rules core ends the game for the opponent), or call off a game nobody joined;
        returns the game's version after it. A game in progress that this process holds live takes the
        command path with no read of its row (a game's last command costs what any command costs)."""
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to play.")
        meta = self.store.recent.meta(game_id)
        if meta is not None and meta.status == "active":
            answer, _ = await self.submit(session, game_id, user, dict(RESIGN_COMMAND), None, None)
            return int(answer["version"])
        row = await self.store.get_row(session, game_id, light=True)
        if row.status == "waiting":
            require_seat(row, user)
            command = {"type": "adjudicate", "winner": None, "reason": "abandoned before the second player joined"}
            answer, _ = await self.referee(session, game_id, command, user_id=user.id, command_id=uuid.uuid4().hex,
                                           expected_version=row.version, expected_status="waiting")
        else:
            answer, _ = await self.submit(session, game_id, user, dict(RESIGN_COMMAND), None, None)
        await session.commit()
        return int(answer["version"])


__all__ = ["RESIGN_COMMAND", "UNDO_COMMAND", "CommandService"]
