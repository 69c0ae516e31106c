"""The lobby: creating a game, a seat's dice contribution, joining, and the lists of games.

Its writes are short transactions of their own (`WriteQueue.writing`), taken between steps that let the
players' commands in flight finish first (`priority.py`); a join takes the free seat by compare-and-set, so
that of two joiners (in any process) one gets it. The hooks (server/notify/hooks.py) add the clock row and
the mails inside those transactions.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer
from sqlalchemy.orm.attributes import set_committed_value

from ..errors import ApiError, not_found
from ..models import Game, GameSeat, User, utcnow
from ..models import game_states_table as GAME_STATES
from ..models import games_table as GAMES
from .access import require_seat
from .engine import rules
from .priority import CommandGate
from .store import GameStore
from .views import GameMeta
from .writes import WriteQueue

LEGACY_DICE = "vedette-dice-1"

# The lobby's statements, built once (see store.py `_GAME_ROW`); each is executed with its bound values.
_TAKE_FREE_SEAT = (
    update(GAMES)
    # `updated_at`: a dice contribution sent meanwhile changed the snapshot this join rewrites.
    .where(GAMES.c.id == bindparam("game_id"), GAMES.c.status == "waiting",
           GAMES.c.updated_at == bindparam("read_updated_at"))
    .values(status="active", awaiting_since=bindparam("now"), updated_at=bindparam("now"))
)
_SET_STARTING_SNAPSHOTS = (
    # Not "game_id": an UPDATE reserves its columns' names for their new values.
    update(GAME_STATES).where(GAME_STATES.c.game_id == bindparam("of_game"))
    .values(snapshot=bindparam("started_snapshot"), initial_snapshot=bindparam("started_snapshot"))
)
_INSERT_GAME = GAMES.insert()
_INSERT_GAME_STATE = GAME_STATES.insert()
_INSERT_SEAT = GameSeat.__table__.insert()


class Lobby:
    """The games before their first command, and the lists the lobby page shows."""

    def __init__(
        self, registry: Any, store: GameStore, gate: CommandGate, writes: WriteQueue, hooks: list[Any],
        fixed_seed: str | None = None,
    ) -> None:
        self.registry = registry
        self.store = store
        self.gate = gate
        self.writes = writes
        # Called inside the lobby's transactions, before COMMIT (server/notify/hooks.py).
        self.hooks = hooks
        self._fixed_seed = fixed_seed  # tests only: Settings refuses it outside VEDETTE_ENV=test

    async def create_game(
        self, session: AsyncSession, user: User, scenario_id: str, side: str, visibility: str,
        decision_hours: int | None = None, options: dict[str, bool] | None = None,
        quota: Callable[[AsyncSession], Awaitable[None]] | None = None, ruleset: str | None = None,
        rated: bool = False,
    ) -> Game:
        """`ruleset`: the edition to play, one the scenario declares (its own when None; issue 41).
        `quota` (the account's game quotas) is checked inside the write transaction that inserts the game,
        after taking the account's row lock, so simultaneous creations are counted one after another and a
        burst never makes more games than the quota (issue 38). `rated`: its result moves both players'
        ratings in its edition (issue 44; the route never rates a game against the computer)."""
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
        ruleset = ruleset or entry.ruleset
        editions = entry.rulesets
        if ruleset not in editions:
            raise ApiError(
                422, "unknown_ruleset",
                f"Scenario '{scenario_id}' is not played under the ruleset '{ruleset}': it declares "
                f"{', '.join(editions)}.", rulesets=editions,
            )
        # The dice (R11, docs/dice.md): the server commits to its seed now (the seed hash in every view);
        # each seat adds its own contribution after seeing it: the creator with `contribute`, the joiner
        # when joining. No die is rolled before both are in.
        try:  # the game's options (Standard 17.3's free set-up): each one the scenario offers
            engine_game = rules().Game.new(entry.scenario, self._fixed_seed or secrets.token_hex(32), ruleset,
                                           contributions={}, options=options or None)
        except ValueError as e:
            raise ApiError(422, "bad_game_option", str(e)) from e
        snapshot = engine_game.to_json(include_log=False)
        now = utcnow()
        row = Game(
            id=secrets.token_urlsafe(9),
            scenario_id=scenario_id,
            ruleset=engine_game.ruleset.name,
            rated=rated,
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
            result=None,
            created_at=now,
            updated_at=now,
            mail_owed=None,
            snapshot_version=0,
        )
        seat = GameSeat(game_id=row.id, side=side, user_id=user.id, joined_at=now)
        await self.gate.yield_to_commands()
        # A write transaction from the start (SQLite: the request already read the session user).
        async with self.writes.writing(session):
            if quota is not None:
                if session.bind.dialect.name != "sqlite":  # SQLite's BEGIN IMMEDIATE already serialises writers
                    await session.execute(select(User.id).where(User.id == user.id).with_for_update())
                await quota(session)
            # Three INSERTs of the row's values, not the ORM's unit of work, which cost more than they do
            # (issue 16); `row` and `seat` stay objects of this request only (not in the session).
            await session.execute(_INSERT_GAME, _values(row, GAMES))
            await session.execute(_INSERT_GAME_STATE, _values(row, GAME_STATES, game_id="id"))
            await session.execute(_INSERT_SEAT, _values(seat, GameSeat.__table__))
            for hook in self.hooks:
                await hook.game_created(session, row, decision_hours=decision_hours)
            await session.commit()
        # The row as written, with its one seat: nobody else can have changed a game its creator has not
        # yet shared, so it is not read back (a read decoded the whole scenario again; issue 16).
        set_committed_value(seat, "user", user)
        set_committed_value(row, "seats", [seat])
        return row

    async def contribute(self, session: AsyncSession, user: User, game_id: str, contribution: str) -> dict[str, Any]:
        """A seat's own random contribution to the dice (R11, docs/dice.md), sent after it has seen the
        server's commitment (the seed hash) and before the game starts."""
        async with self.writes.writing(session):
            row = await self.store.get_row(session, game_id, for_update=True)
            side = require_seat(row, user)
            engine_game = rules().Game.from_json(self.store.scenario_of(row), row.snapshot)
            if row.status != "waiting" or side in engine_game.contributions:
                raise ApiError(409, "contribution_closed",
                               "This seat's dice contribution is already fixed (the game has started, or it was sent).")
            snapshot = _with_contributions(engine_game, {side: contribution})
            row.snapshot = snapshot
            row.initial_snapshot = snapshot
            row.updated_at = utcnow()  # a join that read the game before this must read it again
            await session.commit()
        self.store.forget(game_id)
        return {"game": game_id, "side": side, "contribution": contribution, "seed_hash": engine_game.seed_hash}

    async def join_game(
        self, session: AsyncSession, user: User, game_id: str, invite_token: str | None,
        contribution: str | None = None,
    ) -> Game:
        """Take the game's free seat. The row is read, checked and the joiner's mails composed first;
        the write after it is short and takes the seat by compare-and-set (the game still waiting and
        unchanged since that read): on the embedded database a write transaction holds SQLite's only
        write lock, which every command of every game waits for (issue 16)."""
        for _ in (0, 1):
            await session.commit()  # a fresh read: not a snapshot older than another writer's commit
            row = await self.store.get_row(session, game_id)
            await self.gate.yield_to_commands()  # between the join's steps: `priority.py`
            engine_game, side, values = self._join_plan(row, user, invite_token, contribution)
            await self.gate.yield_to_commands()
            prepared = [await hook.prepare_join(session, row, user, side) for hook in self.hooks]
            await self.gate.yield_to_commands()
            async with self.writes.writing(session):
                taken = await session.execute(
                    _TAKE_FREE_SEAT, {"game_id": row.id, "read_updated_at": row.updated_at, "now": values["now"]}
                )
                if taken.rowcount != 1:
                    continue  # another join or a contribution came first: read the game again
                if values["dice"] is not None:
                    await session.execute(
                        _SET_STARTING_SNAPSHOTS, {"of_game": row.id, "started_snapshot": values["dice"]}
                    )
                seat = GameSeat(game_id=row.id, side=side, user_id=user.id, joined_at=values["now"])
                session.add(seat)
                for hook, plan in zip(self.hooks, prepared, strict=True):
                    await hook.game_joined(session, row, user, side, plan)
                try:
                    await session.commit()
                except IntegrityError:
                    await session.rollback()
                    raise ApiError(409, "game_full", "Both seats of this game are taken.") from None
            break
        else:
            raise ApiError(409, "game_full", "The game changed while you joined; try again.")
        await self.gate.yield_to_commands()  # the write is over: the rest is a step of its own
        # The row after the join is the row read before it with the join's own changes: the compare-and-set
        # took the seat only if nothing had changed the game since that read, and nothing else changes a
        # game before its first command (which needs both seats). Not read back (issue 16).
        set_committed_value(seat, "user", user)
        _set_committed(row, status="active", awaiting_since=values["now"], updated_at=values["now"],
                       seats=sorted([*row.seats, seat], key=lambda s: s.side))
        if values["dice"] is not None:
            _set_committed(row, snapshot=values["dice"], initial_snapshot=values["dice"])
        self.store.forget(game_id)
        # The process now holds the started game (the engine is the stored snapshot's): the computer's
        # check and the players' first snapshots need no read of their own.
        self.store.engines.put(game_id, row.version, engine_game)
        self.store.recent.seed(GameMeta.of(row))
        return row

    def _join_plan(
        self, row: Game, user: User, invite_token: str | None, contribution: str | None,
    ) -> tuple[Any, str, dict[str, Any]]:
        """Whether `user` may take the free seat of `row`: (the started engine, the side, the values
        the join writes), or the refusal."""
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
        free = [s for s in self.store.scenario_of(row).side_order if s not in taken]
        if not free:
            raise ApiError(409, "game_full", "Both seats of this game are taken.")
        # The joiner's dice contribution, and "" (none) for a creator that has not sent one (docs/dice.md).
        engine_game = rules().Game.from_json(self.store.scenario_of(row), row.snapshot)
        started_snapshot: dict[str, Any] | None = None  # the game's first snapshot, with every contribution
        if engine_game.dice_scheme != LEGACY_DICE:
            missing = {s: "" for s in taken if s not in engine_game.contributions}
            started_snapshot = _with_contributions(engine_game, {**missing, free[0]: contribution or ""})
        return engine_game, free[0], {"now": utcnow(), "dice": started_snapshot}

    async def list_games(self, session: AsyncSession, user: User | None) -> tuple[list[Game], list[Game]]:
        mine: list[Game] = []
        if user is not None:
            mine = list(
                (
                    await session.scalars(
                        select(Game)
                        # Summaries read the scenario's title and sides, never the state: up to 500
                        # games' snapshots were decoded for nothing on every lobby refresh.
                        .options(defer(Game.snapshot), defer(Game.initial_snapshot))
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
                    .options(defer(Game.snapshot), defer(Game.initial_snapshot))
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

    async def all_games(self, session: AsyncSession, limit: int, offset: int) -> list[Game]:
        return list(
            (
                await session.scalars(
                    select(Game).order_by(Game.updated_at.desc()).limit(limit).offset(offset)
                )
            ).unique().all()
        )


def _values(obj: Any, table: Any, **renamed: str) -> dict[str, Any]:
    """`obj`'s value of every column of `table` (an INSERT's parameters); `renamed`: a column whose
    attribute has another name (the state's `game_id` is the game's `id`)."""
    return {column.key: getattr(obj, renamed.get(column.key, column.key)) for column in table.columns}


def _set_committed(row: Game, **values: Any) -> None:
    """Set a loaded row's attributes to what the database now holds, without marking them changed."""
    for name, value in values.items():
        set_committed_value(row, name, value)


def _with_contributions(engine_game: Any, contributions: dict[str, str]) -> dict[str, Any]:
    """The game's snapshot with these seats' dice contributions added (before any command)."""
    for side, value in contributions.items():
        try:
            engine_game.contribute(side, value)
        except ValueError as exc:
            raise ApiError(422, "bad_contribution", str(exc)) from None
    snapshot: dict[str, Any] = engine_game.to_json(include_log=False)
    return snapshot


__all__ = ["LEGACY_DICE", "Lobby"]
