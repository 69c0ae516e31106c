"""The game service: lobby actions and the one path by which commands change a game.

Every accepted command is written in one transaction: the log row, the new
snapshot and the new version. Concurrent commands for one game are serialised,
on every backend, by a compare-and-set on the version (`UPDATE games SET
version = n + 1 WHERE id = ? AND version = n`) and the unique (game, seq) index.
On Postgres a running game this process knows is written by ONE such statement
(`_submit_quick`); otherwise the row is first locked (SELECT ... FOR UPDATE).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from asyncpg.exceptions import UniqueViolationError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from .. import jsoncodec
from ..db import begin_write
from ..errors import ApiError, not_found
from ..models import Game, GameCommand, GameSeat, SpectatorConnection, User, utcnow
from .access import Viewer, require_seat
from .engine import EngineCache, RecentCache, ScenarioCache, rules
from .views import GameMeta, build_command_answer

log = logging.getLogger(__name__)

SPECTATOR_TTL = timedelta(seconds=90)
UNDO_COMMAND = {"type": "undo"}
RESIGN_COMMAND = {"type": "resign"}
# The log's "side" for results the service imposes through the rules core.
REFEREE = "referee"
GAMES = Game.__table__
GAME_COMMANDS = GameCommand.__table__

# The quick path's single compare-and-set statement (Postgres): the game row moves from the
# judged version to the next only if nobody moved it first and it still runs; the log row is
# inserted only if it did; `{quiet}` adds the hooks' own writes (server/notify/hooks.py). One
# statement is one transaction: all of it commits, or none. No row back means nothing written.
QUICK_COMMIT_SQL = """
WITH g AS (
    UPDATE games SET version = $3, snapshot = $4::json, updated_at = $5::timestamptz,
        awaiting_since = CASE WHEN awaiting_side IS DISTINCT FROM $6::text
                              THEN $5::timestamptz ELSE awaiting_since END,
        awaiting_side = $6::text
    WHERE id = $1 AND version = $2 AND status = 'active'
    RETURNING id, awaiting_since
), c AS (
    INSERT INTO game_commands (game_id, seq, side, user_id, command_id, command, events, created_at)
    SELECT id, $3, $7, $8, $9, $10::json, $11::json, $5::timestamptz FROM g
    RETURNING seq
){quiet}
SELECT g.awaiting_since FROM g, c
"""


@dataclass(frozen=True, slots=True)
class LockedSeat:
    side: str
    user_id: int
    username: str


@dataclass(frozen=True, slots=True)
class LockedGame:
    """The game row's small columns, read under the row lock without the ORM; the seats (which
    never change once a game runs) come from this process's last look at the game. Code that
    needs more (the mail hooks composing a mail) loads the full row itself."""

    id: str
    version: int
    status: str
    visibility: str
    awaiting_side: str | None
    awaiting_since: datetime | None
    result: dict[str, Any] | None
    seats: tuple[LockedSeat, ...]


@dataclass(frozen=True, slots=True)
class Judged:
    """A command the rules core accepted against the engine at `version` (not yet stored)."""

    version: int
    side: str
    events: list[dict[str, Any]]
    engine: Any
    previous_awaiting: str | None


@dataclass
class LoadedGame:
    row: Game
    scenario: Any
    engine: Any


class GameService:
    """Per-process service object holding the parse caches; stateless otherwise."""

    def __init__(self, scenario_registry: Any, fixed_seed: str | None = None) -> None:
        self.registry = scenario_registry
        self._fixed_seed = fixed_seed  # tests only: Settings refuses it outside VEDETTE_ENV=test
        self.scenarios = ScenarioCache()
        self.engines = EngineCache()
        self.recent = RecentCache()
        # Called inside the service's transactions, before COMMIT (server/notify/hooks.py).
        self.hooks: list[Any] = []
        self._sqlite_writer = asyncio.Lock()

    # ---------------------------------------------------------------- loading

    async def get_row(self, session: AsyncSession, game_id: str, *, for_update: bool = False) -> Game:
        if len(game_id) > 32:
            raise not_found()
        stmt = select(Game).where(Game.id == game_id).execution_options(populate_existing=True)
        if for_update:
            stmt = stmt.with_for_update(of=Game)
        row = (await session.scalars(stmt)).unique().one_or_none()
        if row is None:
            raise not_found()
        return row

    def scenario_of(self, row: Game) -> Any:
        return self.scenarios.get(row.id, row.scenario_json)

    def engine_of(self, row: Game) -> Any:
        """A (shared, read-only) engine Game for the row's current version."""
        cached = self.engines.get(row.id, row.version)
        if cached is not None:
            return cached
        game = rules().Game.from_json(self.scenario_of(row), row.snapshot)
        self.engines.put(row.id, row.version, game)
        return game

    async def load_for_views(self, session: AsyncSession, game_id: str) -> LoadedGame:
        """Like `load`, but when this process already holds the parsed scenario and the engine at the row's
        version it skips reading and decoding the large JSON columns (the hot path of every live update).
        The row it returns must not be asked for `scenario_json`, `snapshot` or `initial_snapshot`."""
        stmt = (
            select(Game).where(Game.id == game_id)
            .options(defer(Game.scenario_json), defer(Game.snapshot), defer(Game.initial_snapshot))
            .execution_options(populate_existing=True)
        )
        row = (await session.scalars(stmt)).unique().one_or_none()
        if row is None:
            raise not_found()
        scenario = self.scenarios.peek(row.id)
        engine = self.engines.get(row.id, row.version)
        if scenario is None or engine is None:
            return await self.load(session, game_id)
        return LoadedGame(row, scenario, engine)

    async def load(self, session: AsyncSession, game_id: str) -> LoadedGame:
        row = await self.get_row(session, game_id)
        loaded = LoadedGame(row, self.scenario_of(row), self.engine_of(row))
        if row.status == "active":
            self.recent.seed(GameMeta.of(row))  # e.g. a player's snapshot: their first command is quick
        return loaded

    async def engine_with_log(self, session: AsyncSession, row: Game) -> Any:
        """An engine Game that carries its whole command log (snapshots are stored without it), for records."""
        if "log" in row.snapshot:
            return rules().Game.from_json(self.scenario_of(row), row.snapshot)
        rows = await self.log_rows(session, row.id, upto=row.version)
        log = [
            {"side": r.side, "command": r.command,
             "dice": [d for e in r.events if e.get("type") == "dice" for d in e.get("dice", [])]}
            for r in rows
        ]
        return rules().Game.from_json(self.scenario_of(row), row.snapshot, log=log)

    async def log_rows(
        self, session: AsyncSession, game_id: str, *, after: int = 0, upto: int | None = None
    ) -> list[GameCommand]:
        stmt = select(GameCommand).where(GameCommand.game_id == game_id, GameCommand.seq > after)
        if upto is not None:
            stmt = stmt.where(GameCommand.seq <= upto)
        return list((await session.scalars(stmt.order_by(GameCommand.seq))).all())

    def replay(self, row: Game, log_rows: list[GameCommand]) -> Any:
        """A fresh engine Game: the initial snapshot with the logged commands applied in order."""
        game = rules().Game.from_json(self.scenario_of(row), row.initial_snapshot)
        for entry in log_rows:
            apply_logged(game, entry.side, entry.command)
        return game

    # ------------------------------------------------------------------ lobby

    async def create_game(
        self, session: AsyncSession, user: User, scenario_id: str, side: str, visibility: str,
        decision_hours: int | None = None,
    ) -> Game:
        entry = self.registry.get(scenario_id)
        if entry is None:
            raise ApiError(
                422, "unknown_scenario", f"There is no scenario '{scenario_id}'.",
                scenarios=sorted(self.registry.ids()),
            )
        sides = list(entry.scenario.side_order)
        if side == "random":
            side = secrets.choice(sides)
        elif side not in sides:
            raise ApiError(
                422, "unknown_side", f"Scenario '{scenario_id}' has no side '{side}'.", sides=sides
            )
        # The dice (R11, docs/dice.md): the server commits to its seed now (the seed hash in every view);
        # each seat adds its own contribution after seeing it: the creator with `contribute`, the joiner
        # when joining. No die is rolled before both are in.
        engine_game = rules().Game.new(entry.scenario, self._fixed_seed or secrets.token_hex(32), contributions={})
        snapshot = engine_game.to_json(include_log=False)
        now = utcnow()
        row = Game(
            id=secrets.token_urlsafe(9),
            scenario_id=scenario_id,
            scenario_json=dict(entry.raw),
            created_by=user.id,
            visibility=visibility,
            status="waiting",
            invite_token=secrets.token_urlsafe(18),
            watch_token=secrets.token_urlsafe(18),
            version=engine_game.version,
            snapshot=snapshot,
            initial_snapshot=snapshot,
            awaiting_side=engine_game.awaiting,
            awaiting_since=now,
            created_at=now,
            updated_at=now,
        )
        # A write transaction from the start (SQLite: the request already read the session user).
        async with self._writing(session):
            session.add(row)
            session.add(GameSeat(game_id=row.id, side=side, user_id=user.id, joined_at=now))
            for hook in self.hooks:
                await hook.game_created(session, row, decision_hours=decision_hours)
            await session.commit()
        return await self.get_row(session, row.id)

    async def contribute(self, session: AsyncSession, user: User, game_id: str, contribution: str) -> dict[str, Any]:
        """A seat's own random contribution to the dice (R11, docs/dice.md), sent after it has seen the
        server's commitment (the seed hash) and before the game starts."""
        async with self._writing(session):
            row = await self.get_row(session, game_id, for_update=True)
            side = require_seat(row, user)
            engine_game = rules().Game.from_json(self.scenario_of(row), row.snapshot)
            if row.status != "waiting" or side in engine_game.contributions:
                raise ApiError(409, "contribution_closed",
                               "This seat's dice contribution is already fixed (the game has started, or it was sent).")
            snapshot = _with_contributions(engine_game, {side: contribution})
            row.snapshot = snapshot
            row.initial_snapshot = snapshot
            await session.commit()
        self.forget(game_id)
        return {"game": game_id, "side": side, "contribution": contribution, "seed_hash": engine_game.seed_hash}

    async def join_game(
        self, session: AsyncSession, user: User, game_id: str, invite_token: str | None,
        contribution: str | None = None,
    ) -> Game:
        async with self._writing(session):
            await self._join_locked(session, user, game_id, invite_token, contribution)
        self.forget(game_id)
        return await self.get_row(session, game_id)

    async def _join_locked(
        self, session: AsyncSession, user: User, game_id: str, invite_token: str | None,
        contribution: str | None = None,
    ) -> None:
        row = await self.get_row(session, game_id, for_update=True)
        invited = bool(invite_token) and secrets.compare_digest(
            str(invite_token).encode(), row.invite_token.encode()
        )
        if any(seat.user_id == user.id for seat in row.seats):
            raise ApiError(409, "already_seated", "You already play in this game.")
        if row.visibility == "private" and not invited and not user.is_admin:
            # A wrong token answers exactly like none: no stranger learns that the game exists.
            raise not_found()
        if row.status != "waiting":
            raise ApiError(409, "game_full", "Both seats of this game are taken.")
        if row.visibility == "private" and not invited:  # an admin sees the game, but needs its invite to play
            raise ApiError(403, "invite_required", "A seat in a private game needs the game's invite, even for an admin.")
        taken = {seat.side for seat in row.seats}
        free = [s for s in self.scenario_of(row).side_order if s not in taken]
        if not free:
            raise ApiError(409, "game_full", "Both seats of this game are taken.")
        now = utcnow()
        # The joiner's dice contribution, and "" (none) for a creator that has not sent one (docs/dice.md).
        engine_game = rules().Game.from_json(self.scenario_of(row), row.snapshot)
        dice_values: dict[str, Any] = {}
        if engine_game.dice_scheme != LEGACY_DICE:
            missing = {s: "" for s in taken if s not in engine_game.contributions}
            snapshot = _with_contributions(engine_game, {**missing, free[0]: contribution or ""})
            dice_values = {"snapshot": snapshot, "initial_snapshot": snapshot}
        session.add(GameSeat(game_id=row.id, side=free[0], user_id=user.id, joined_at=now))
        result = await session.execute(
            update(Game)
            .where(Game.id == row.id, Game.status == "waiting")
            .values(status="active", awaiting_since=now, updated_at=now, **dice_values)
        )
        if result.rowcount != 1:  # someone else took the seat first (SQLite multi-process)
            await session.rollback()
            raise ApiError(409, "game_full", "Both seats of this game are taken.")
        for hook in self.hooks:
            await hook.game_joined(session, row, user, free[0])
        try:
            await session.commit()
        except IntegrityError:
            await session.rollback()
            raise ApiError(409, "game_full", "Both seats of this game are taken.") from None

    async def list_games(self, session: AsyncSession, user: User | None) -> tuple[list[Game], list[Game]]:
        mine: list[Game] = []
        if user is not None:
            mine = list(
                (
                    await session.scalars(
                        select(Game)
                        .join(GameSeat, GameSeat.game_id == Game.id)
                        .where(GameSeat.user_id == user.id)
                        .order_by(Game.updated_at.desc())
                        .limit(500)
                    )
                ).unique().all()
            )
        mine_ids = {g.id for g in mine}
        open_games = [
            g
            for g in (
                await session.scalars(
                    select(Game)
                    .where(Game.visibility == "open", Game.status == "waiting")
                    .order_by(Game.created_at.desc())
                    .limit(200)
                )
            ).unique().all()
            if g.id not in mine_ids
        ]
        return mine, open_games

    async def watchable_games(self, session: AsyncSession, status: str, limit: int = 50) -> list[Game]:
        """Open games in progress ("active") or finished ("over"), newest first: anyone may watch or replay them."""
        return list(
            (
                await session.scalars(
                    select(Game)
                    .options(defer(Game.snapshot), defer(Game.initial_snapshot))
                    .where(Game.visibility == "open", Game.status == status)
                    .order_by(Game.updated_at.desc())
                    .limit(limit)
                )
            ).unique().all()
        )

    async def decision_hours_of(self, session: AsyncSession, game_ids: list[str]) -> dict[str, int | None]:
        """Each game's time per decision (hours; None for no limit), read from the clock rows in one query."""
        from ..notify.models import GameClock

        if not game_ids:
            return {}
        rows = await session.execute(
            select(GameClock.game_id, GameClock.decision_hours).where(GameClock.game_id.in_(game_ids))
        )
        return {gid: hours for gid, hours in rows.all()}

    async def all_games(self, session: AsyncSession, limit: int, offset: int) -> list[Game]:
        return list(
            (
                await session.scalars(
                    select(Game).order_by(Game.updated_at.desc()).limit(limit).offset(offset)
                )
            ).unique().all()
        )

    # --------------------------------------------------------------- commands

    @asynccontextmanager
    async def _writing(self, session: AsyncSession) -> AsyncIterator[None]:
        """One write transaction. On SQLite, writers of this process queue on an asyncio lock
        instead of on SQLite's busy handler, which sleeps in steps of up to 100 ms."""
        # End whatever read transaction the request had: a write must start as one.
        await session.commit()
        lock = self._sqlite_writer if session.bind.dialect.name == "sqlite" else None
        if lock is not None:
            await lock.acquire()
        try:
            await begin_write(session)
            yield
        finally:
            if session.in_transaction():
                await session.rollback()
            if lock is not None:
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
        """Judge and store one command. Returns (answer, newly_applied)."""
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to play.")
        if command.get("type") == "adjudicate":
            raise ApiError(422, "illegal_command", "Only the referee adjudicates.", rule="commands")
        command_id = command_id or uuid.uuid4().hex
        stored_command = dict(UNDO_COMMAND) if undo else command
        judged: Judged | None = None
        if note_events is None and session.bind.dialect.name == "postgresql":
            quick = await self._submit_quick(session, game_id, user, stored_command, expected_version, command_id)
            if isinstance(quick, Judged):
                judged = quick
            elif quick is not None:
                return quick
        async with self._writing(session):
            return await self._submit(
                session, game_id, user, stored_command, expected_version, command_id,
                note_events=note_events, judged=judged,
            )

    async def _submit_quick(
        self, session: AsyncSession, game_id: str, user: User, command: dict[str, Any],
        expected_version: int | None, command_id: str,
    ) -> tuple[dict[str, Any], bool] | Judged | None:
        """The hot path of live play (Postgres): a running game this process committed last.

        The command is judged against the cached engine at `expected_version` without a lock,
        and stored by ONE compare-and-set statement (game update, log insert and the hooks' quiet
        writes, committed together): if another process moved the game on meanwhile, nothing is
        written and the answer is the one the locked path would give (the first answer of a
        repeated command id, else 409). Returns None when the locked path must judge (nothing
        cached, a refusal to be confirmed against the stored state), or the judgement itself
        when the command is legal but a hook has more to write than the quiet statement
        (a mail to compose, the game's end): the locked path then stores that judgement."""
        meta = self.recent.meta(game_id)
        scenario = self.scenarios.peek(game_id)
        if (meta is None or scenario is None or meta.status != "active" or expected_version is None
                or expected_version != meta.version):
            return None
        side = next((s for s, uid in meta.seat_ids if uid == user.id), None)
        if side is None:
            return None
        engine_game = self.engines.take(game_id, expected_version)
        if engine_game is None:
            return None
        previous_awaiting = engine_game.awaiting
        try:
            events = apply_logged(engine_game, side, command)
        except rules().IllegalCommand:
            # Possibly judged against a state another process has since replaced: the locked
            # path answers (409 if the game moved on, otherwise this same refusal).
            self.engines.put(game_id, expected_version, engine_game)
            return None
        except Exception:  # noqa: BLE001 - the locked path reloads the stored state and reports it
            return None
        judged = Judged(expected_version, side, events, engine_game, previous_awaiting)
        if engine_game.is_over:
            return judged
        seat_sides = frozenset(s for s, _ in meta.seat_ids)
        quiet_writes = []
        for hook in self.hooks:
            write = hook.quiet_write(game_id, seat_sides, engine_game, previous_awaiting)
            if write is None:
                return judged
            quiet_writes.append(write)

        now = utcnow()
        new_version = expected_version + 1
        awaiting = engine_game.awaiting
        entry = GameCommand(
            game_id=game_id, seq=new_version, side=side, user_id=user.id, command_id=command_id,
            command=command, events=events, created_at=now,
        )
        params: list[Any] = [
            game_id, expected_version, new_version, _json(engine_game.to_json(include_log=False)),
            now, awaiting, side, user.id, command_id, _json(command), _json(events),
        ]
        ctes = []
        for i, (write_sql, write_params) in enumerate(quiet_writes):
            names = [f"${len(params) + k + 1}" for k in range(len(write_params))]
            params.extend(write_params)
            ctes.append(f", quiet_{i} AS ({write_sql.format(*names, game='g', awaiting='$6::text')})")
        sql = QUICK_COMMIT_SQL.format(quiet="".join(ctes))
        # A pooled connection of its own, outside the session (whatever the request read stays
        # there): the statement runs on the driver in autocommit, as its own transaction.
        async with session.bind.connect() as connection:
            driver = (await connection.get_raw_connection()).driver_connection
            assert driver is not None
            try:
                stored = await driver.fetchrow(sql, *params)
            except UniqueViolationError:
                stored = None  # a racing request stored this command id first
        if stored is None:
            self.forget(game_id)
            return await self._answer_after_race(session, game_id, side, command_id, user.id, scenario)
        self.engines.put(game_id, new_version, engine_game)
        self.recent.put(replace(meta, version=new_version, awaiting_since=stored["awaiting_since"]), entry)
        return build_command_answer(entry, Viewer("seat", side, user.id), scenario), True

    async def _submit(
        self,
        session: AsyncSession,
        game_id: str,
        user: User,
        stored_command: dict[str, Any],
        expected_version: int | None,
        command_id: str,
        *,
        note_events: list[dict[str, Any]] | None = None,
        judged: Judged | None = None,
    ) -> tuple[dict[str, Any], bool]:
        user_id = user.id
        row, scenario = await self._lock_for_command(session, game_id)
        side = require_seat(row, user)
        viewer = Viewer("seat", side, user_id)

        # A command applied before moved the version on, so a repeat can only come with a
        # stale expected_version (or none); at the current version the unique index on
        # (game_id, command_id) catches any reuse without this extra read.
        stale = expected_version is None or expected_version != row.version
        earlier = await self._find_command(session, game_id, side, command_id) if stale else None
        if earlier is not None:
            answer = build_command_answer(earlier, viewer, scenario)
            await session.rollback()
            return answer, False

        # Every 409 of a command carries the game's current version: a client that raced
        # another command (which may have ended the game) knows where to resynchronise.
        if row.status == "waiting":
            raise ApiError(409, "game_not_started", "The game waits for its second player.", version=row.version)
        if row.status == "over":
            raise ApiError(409, "game_over", "The game is over.", result=row.result, version=row.version)
        if expected_version is not None and expected_version != row.version:
            raise ApiError(
                409,
                "stale_version",
                f"The game is at version {row.version}, not {expected_version}; "
                "refresh and decide again.",
                version=row.version,
            )

        version = row.version
        if judged is not None and judged.version == version and judged.side == side:
            engine_game, events, previous_awaiting = judged.engine, judged.events, judged.previous_awaiting
        else:
            engine_game, events = await self._judge(session, row.id, version, scenario, side, stored_command)
            previous_awaiting = row.awaiting_side

        if note_events:  # e.g. "a standing order decided this" (server/notify/standing.py)
            events = [*note_events, *events]
        new_version = version + 1
        if getattr(engine_game, "version", new_version) != new_version:
            log.warning("engine version %s != service version %s", engine_game.version, new_version)
        # Core statements, not the unit of work: this is the hot path of every game, and `entry`
        # only carries the log row's values to the hooks, the answer and the hub.
        entry = GameCommand(
            game_id=row.id,
            seq=new_version,
            side=side,
            user_id=user_id,
            command_id=command_id,
            command=stored_command,
            events=events,
            created_at=utcnow(),
        )
        try:
            await session.execute(insert(GAME_COMMANDS).values(
                game_id=entry.game_id, seq=entry.seq, side=entry.side, user_id=entry.user_id,
                command_id=entry.command_id, command=entry.command, events=entry.events,
                created_at=entry.created_at,
            ))
        except IntegrityError:
            # The same command_id (or the same seq) was committed by a racing request.
            await session.rollback()
            return await self._answer_after_race(session, game_id, side, command_id, user_id, scenario)

        now = utcnow()
        values: dict[str, Any] = {
            "version": new_version,
            "snapshot": engine_game.to_json(include_log=False),
            "updated_at": now,
        }
        awaiting = engine_game.awaiting
        if awaiting != row.awaiting_side:
            values["awaiting_side"] = awaiting
            values["awaiting_since"] = now
        if engine_game.is_over:
            values["status"] = "over"
            values["result"] = engine_game.result
            values["awaiting_side"] = None
        result = await session.execute(
            update(GAMES).where(GAMES.c.id == row.id, GAMES.c.version == version).values(**values)
        )
        if result.rowcount != 1:
            await session.rollback()
            return await self._answer_after_race(session, game_id, side, command_id, user_id, scenario)
        for hook in self.hooks:
            await hook.command_applied(session, row, engine_game, entry, previous_awaiting)
        await session.commit()
        self.engines.put(row.id, new_version, engine_game)
        self.recent.put(
            GameMeta(
                id=row.id,
                version=new_version,
                status=values.get("status", row.status),
                visibility=row.visibility,
                awaiting_since=values.get("awaiting_since", row.awaiting_since),
                result=values.get("result", row.result),
                seat_names=tuple((seat.side, _username(seat)) for seat in row.seats),
                seat_ids=tuple((seat.side, seat.user_id) for seat in row.seats),
            ),
            entry,
        )
        return build_command_answer(entry, viewer, scenario), True

    async def _judge(
        self, session: AsyncSession, game_id: str, version: int, scenario: Any, side: str,
        command: dict[str, Any],
    ) -> tuple[Any, list[dict[str, Any]]]:
        """Apply `command` to the engine at `version` (cached, else the stored snapshot)."""
        engine_game = self.engines.take(game_id, version)
        if engine_game is None:
            snapshot = await session.scalar(select(Game.snapshot).where(Game.id == game_id))
            engine_game = rules().Game.from_json(scenario, snapshot)
        try:
            return engine_game, apply_logged(engine_game, side, command)
        except rules().IllegalCommand as exc:
            # The rules core leaves the state untouched on refusal: keep the object.
            self.engines.put(game_id, version, engine_game)
            error = exc.to_json() if hasattr(exc, "to_json") else {"error": "illegal_command"}
            raise ApiError(
                422, error.get("error", "illegal_command"), exc.message, rule=exc.rule
            ) from None
        except Exception as exc:  # a rules-core bug must not become a 500 or a stored command
            log.exception("rules core failed on %s command in game %s", side, game_id)
            raise ApiError(
                422, "illegal_command", f"The rules core could not apply this command ({type(exc).__name__}).",
                rule="commands",
            ) from None

    async def _lock_for_command(self, session: AsyncSession, game_id: str) -> tuple[Game | LockedGame, Any]:
        """The game row locked FOR UPDATE, and the parsed scenario.

        When this process has seen the running game before (its seats and scenario are cached),
        the lock reads only the row's small columns, without the ORM; otherwise the ORM row comes
        without its large JSON columns (the scenario and snapshot are read separately if needed).
        Neither answer may be asked for `scenario_json`, `snapshot` or `initial_snapshot`."""
        if len(game_id) > 32:
            raise not_found()
        known = self.recent.meta(game_id)
        scenario = self.scenarios.peek(game_id)
        if known is not None and scenario is not None and known.seat_ids and known.status == "active":
            light = (await session.execute(
                select(GAMES.c.version, GAMES.c.status, GAMES.c.visibility, GAMES.c.awaiting_side,
                       GAMES.c.awaiting_since, GAMES.c.result)
                .where(GAMES.c.id == game_id).with_for_update()
            )).one_or_none()
            if light is None:
                raise not_found()
            names = dict(known.seat_names)
            seats = tuple(LockedSeat(side, user_id, names.get(side, "")) for side, user_id in known.seat_ids)
            return LockedGame(game_id, light.version, light.status, light.visibility, light.awaiting_side,
                              light.awaiting_since, light.result, seats), scenario
        stmt = (
            select(Game).where(Game.id == game_id)
            .options(defer(Game.scenario_json), defer(Game.snapshot), defer(Game.initial_snapshot))
            .with_for_update(of=Game)
            .execution_options(populate_existing=True)
        )
        row = (await session.scalars(stmt)).unique().one_or_none()
        if row is None:
            raise not_found()
        if scenario is None:
            scenario_json = await session.scalar(select(Game.scenario_json).where(Game.id == row.id))
            scenario = self.scenarios.get(row.id, scenario_json)
        return row, scenario

    def forget(self, game_id: str) -> None:
        """Drop this process's cached state of a game changed outside `submit`."""
        self.engines.drop(game_id)
        self.recent.drop(game_id)

    async def _find_command(
        self, session: AsyncSession, game_id: str, side: str, command_id: str
    ) -> GameCommand | None:
        """The command `side` sent earlier with this id. Ids are each seat's own (unique per game,
        side and id): the other seat's command with the same id is not this one, and is never
        answered to this seat."""
        return await session.scalar(
            select(GameCommand).where(
                GameCommand.game_id == game_id, GameCommand.side == side, GameCommand.command_id == command_id
            )
        )

    async def _answer_after_race(
        self, session: AsyncSession, game_id: str, side: str, command_id: str, user_id: int, scenario: Any
    ) -> tuple[dict[str, Any], bool]:
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
        """Resign (the rules core ends the game for the opponent), or call off a game nobody joined."""
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to play.")
        row = await self.get_row(session, game_id)
        if row.status == "waiting":
            return await self._abandon(session, game_id, user)
        await self.submit(session, game_id, user, dict(RESIGN_COMMAND), None, None)
        return await self.get_row(session, game_id)

    async def _abandon(self, session: AsyncSession, game_id: str, user: User) -> Game:
        async with self._writing(session):
            await self._abandon_locked(session, game_id, user)
        return await self.get_row(session, game_id)

    async def _abandon_locked(self, session: AsyncSession, game_id: str, user: User) -> None:
        row = await self.get_row(session, game_id, for_update=True)
        require_seat(row, user)
        if row.status != "waiting":
            raise ApiError(409, "game_started", "The game has started; resign instead.")
        engine_game = rules().Game.from_json(self.scenario_of(row), row.snapshot)
        command = {"type": "adjudicate", "winner": None, "reason": "abandoned before the second player joined"}
        events = apply_logged(engine_game, REFEREE, command)
        now = utcnow()
        version = row.version
        session.add(GameCommand(
            game_id=row.id, seq=version + 1, side=REFEREE, user_id=user.id,
            command_id=uuid.uuid4().hex, command=command, events=events, created_at=now,
        ))
        await session.flush()
        done = await session.execute(
            update(Game).where(Game.id == row.id, Game.version == version).values(
                version=version + 1, status="over", result=engine_game.result,
                snapshot=engine_game.to_json(include_log=False), awaiting_side=None, updated_at=now,
            )
        )
        if done.rowcount != 1:
            await session.rollback()
            raise ApiError(409, "stale_version", "The game changed; try again.")
        await session.commit()
        self.forget(row.id)

    # ------------------------------------------------------------- spectators

    async def add_spectator(self, session: AsyncSession, connection_id: str, game_id: str) -> None:
        session.add(SpectatorConnection(id=connection_id, game_id=game_id, seen_at=utcnow()))
        await session.commit()

    async def remove_spectator(self, session: AsyncSession, connection_id: str) -> None:
        await session.execute(delete(SpectatorConnection).where(SpectatorConnection.id == connection_id))
        await session.commit()

    async def touch_spectators(self, session: AsyncSession, connection_ids: list[str]) -> None:
        if not connection_ids:
            return
        now = utcnow()
        await session.execute(
            update(SpectatorConnection).where(SpectatorConnection.id.in_(connection_ids)).values(seen_at=now)
        )
        await session.execute(
            delete(SpectatorConnection).where(SpectatorConnection.seen_at < now - SPECTATOR_TTL * 4)
        )
        await session.commit()

    async def spectator_counts(self, session: AsyncSession, game_ids: list[str]) -> dict[str, int]:
        """Live spectators of each of `game_ids` (0 for a game nobody watches), in one read."""
        counts = dict.fromkeys(game_ids, 0)
        for start in range(0, len(game_ids), 500):
            chunk = game_ids[start:start + 500]
            rows = await session.execute(
                select(SpectatorConnection.game_id, func.count())
                .where(
                    SpectatorConnection.game_id.in_(chunk),
                    SpectatorConnection.seen_at > utcnow() - SPECTATOR_TTL,
                )
                .group_by(SpectatorConnection.game_id)
            )
            for game_id, count in rows:
                counts[game_id] = int(count)
        return counts

    async def spectator_count(self, session: AsyncSession, game_id: str) -> int:
        count = await session.scalar(
            select(func.count())
            .select_from(SpectatorConnection)
            .where(
                SpectatorConnection.game_id == game_id,
                SpectatorConnection.seen_at > utcnow() - SPECTATOR_TTL,
            )
        )
        return int(count or 0)


LEGACY_DICE = "vedette-dice-1"


def _with_contributions(engine_game: Any, contributions: dict[str, str]) -> dict[str, Any]:
    """The game's snapshot with these seats' dice contributions added (before any command)."""
    for side, value in contributions.items():
        try:
            engine_game.contribute(side, value)
        except ValueError as exc:
            raise ApiError(422, "bad_contribution", str(exc)) from None
    snapshot: dict[str, Any] = engine_game.to_json(include_log=False)
    return snapshot


def _username(seat: Any) -> str:
    return str(seat.username) if isinstance(seat, LockedSeat) else str(seat.user.username)


def _json(value: Any) -> str:
    return jsoncodec.dumps(value)


def apply_logged(engine_game: Any, side: str, command: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply one logged command to an engine Game (replays use exactly this path)."""
    if side == REFEREE and command.get("type") == "adjudicate":
        return list(engine_game.end_by_referee(command.get("winner"), command.get("reason", "adjudicated")))
    # undo and resign are commands of the rules core like any other.
    return list(engine_game.submit(side, command))


__all__ = ["GameService", "LoadedGame", "LockedGame", "apply_logged"]
