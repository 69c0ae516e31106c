"""Decision deadlines: the scheduler (reminder at a fifth of the time left, overdue on expiry),
claims, extensions and pauses.

A deadline runs for the side whose decision it is and restarts at every accepted
command (`hooks.restart_clock`). While a pause runs nothing is reminded or expires;
accepting a pause moves the deadline back by the pause's length.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import zlib
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, text

from ..errors import ApiError
from ..models import Game, User
from ..services.access import require_seat
from . import compose
from .context import NotifyContext
from .hooks import game_info, seat_users
from .models import GameClock
from .outbox import enqueue
from .prefs import sweep_digests

log = logging.getLogger(__name__)

REMINDER_FRACTION = 5  # remind when a fifth of the time is left
MAX_EXTEND_HOURS = 24 * 30
MAX_PAUSE_DAYS = 60


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when else None


def paused(clock: GameClock, now: datetime) -> bool:
    return clock.paused_until is not None and clock.paused_until > now


def is_overdue(clock: GameClock, now: datetime) -> bool:
    return (clock.deadline_at is not None and not paused(clock, now) and now >= clock.deadline_at)


async def decision_hours_of(session: Any, game_ids: list[str]) -> dict[str, int | None]:
    """Each game's time per decision (hours; None for no limit), read from the clock rows in one query."""
    if not game_ids:
        return {}
    rows = await session.execute(
        select(GameClock.game_id, GameClock.decision_hours).where(GameClock.game_id.in_(game_ids))
    )
    return {gid: hours for gid, hours in rows.all()}


def clock_json(row: Game, clock: GameClock | None, side: str | None, now: datetime) -> dict[str, Any]:
    """The game's clock as a player (side) or anyone else sees it."""
    if clock is None or not clock.decision_hours:
        out: dict[str, Any] = {"decision_hours": None, "deadline_at": None, "overdue": False,
                               "paused_until": None, "pause_request": None}
        if clock is not None and clock.pause_requested_by:
            out["pause_request"] = {"by": clock.pause_requested_by, "days": clock.pause_requested_days}
        if clock is not None and paused(clock, now):
            out["paused_until"] = _iso(clock.paused_until)
        out.update(can_claim=False, can_extend=False, waiting_for=None, seconds_left=None)
        return out
    active = row.status == "active"
    overdue = active and is_overdue(clock, now)
    late = clock.side if active else None
    opponent_of_late = side is not None and late is not None and side != late
    left = (clock.deadline_at - now).total_seconds() if clock.deadline_at and active else None
    return {
        "decision_hours": clock.decision_hours,
        "waiting_for": late,
        "deadline_at": _iso(clock.deadline_at) if active else None,
        "seconds_left": max(0.0, left) if left is not None and not paused(clock, now) else left,
        "reminded_at": _iso(clock.reminded_at),
        "overdue": overdue,
        "overdue_since": _iso(clock.overdue_since) if overdue else None,
        "paused_until": _iso(clock.paused_until) if paused(clock, now) else None,
        "pause_request": (
            {"by": clock.pause_requested_by, "days": clock.pause_requested_days,
             "at": _iso(clock.pause_requested_at)}
            if clock.pause_requested_by else None
        ),
        "can_claim": bool(overdue and opponent_of_late),
        "can_extend": bool(active and opponent_of_late),
    }


class Clocks:
    """The clock actions behind the routes; each runs in one write transaction on the game row."""

    def __init__(self, rt: NotifyContext) -> None:
        self.rt = rt

    async def _lock(self, session: Any, game_id: str, user: User | None) -> tuple[Game, str, GameClock | None]:
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to play.")
        row = await self.rt.store.get_row(session, game_id, for_update=True)
        side = require_seat(row, user)
        clock = await session.get(GameClock, game_id, populate_existing=True)
        return row, side, clock

    async def state(self, session: Any, game_id: str, user: User | None) -> dict[str, Any]:
        row = await self.rt.store.get_row(session, game_id)
        side = next((s.side for s in row.seats if user is not None and s.user_id == user.id), None)
        clock = await session.get(GameClock, game_id, populate_existing=True)
        return clock_json(row, clock, side, self.rt.now())

    async def _pushed(self, game_id: str) -> None:
        """The committed clock change goes to every open page of the game at once (issue 39: a pause request
        left unseen until a reload could sit unanswered for days in a game by mail)."""
        if self.rt.hub is not None:
            await self.rt.hub.publish_clock(game_id)

    def _need_clock(self, clock: GameClock | None) -> GameClock:
        if clock is None or not clock.decision_hours:
            raise ApiError(409, "no_deadline", "This game has no time limit per decision.")
        return clock

    def _need_active(self, row: Game) -> None:
        if row.status != "active":
            raise ApiError(409, "game_not_active", "The game is not running.", status=row.status)

    async def claim(self, session: Any, game_id: str, user: User | None) -> dict[str, Any]:
        """The waiting player's opponent takes the win once the deadline has passed: checked on a
        plain read, then stored through the command path as the referee's result, whose
        compare-and-set refuses it if the game moved on meanwhile."""
        if user is None:
            raise ApiError(401, "not_authenticated", "Log in to play.")
        row = await self.rt.store.get_row(session, game_id)
        side = require_seat(row, user)
        clock = await session.get(GameClock, game_id, populate_existing=True)
        self._need_active(row)
        clock = self._need_clock(clock)
        now = self.rt.now()
        engine_game = await self.rt.store.engine_at(session, row)
        late = engine_game.awaiting
        if late is None or late == side or clock.side != late:
            raise ApiError(409, "not_overdue", "Only the opponent of the player who must decide may claim.")
        if not is_overdue(clock, now):
            raise ApiError(409, "not_overdue", "The deadline has not passed yet.",
                           deadline_at=_iso(clock.deadline_at), paused_until=_iso(clock.paused_until))
        names = engine_game.scenario.sides
        reason = (f"{names[late].name} did not decide within {clock.decision_hours} hours; "
                  f"{names[side].name} claims the win")
        command = {"type": "adjudicate", "winner": side, "reason": reason}
        await session.commit()
        try:
            answer, _ = await self.rt.commands.referee(
                session, game_id, command, user_id=user.id, command_id=f"claim:{uuid.uuid4().hex}",
                expected_version=row.version,
                # Both players' profiles say how it ended: one lost on time, the other claimed it (issue 44).
                result_note={"lost_on_time": late},
            )
        except ApiError as exc:
            if exc.status == 409:
                raise ApiError(409, "stale_version", "The game changed; look again.") from None
            raise
        version = int(answer["version"])
        if self.rt.hub is not None:
            await self.rt.hub.publish(game_id, version)
        result = self.rt.commands.live_meta(game_id)
        return {"status": "over", "version": version, "result": result.result if result is not None else None}

    async def extend(self, session: Any, game_id: str, user: User | None, hours: int | None) -> dict[str, Any]:
        async with self.rt.writing(session):
            return await self._extend(session, game_id, user, hours)

    async def _extend(self, session: Any, game_id: str, user: User | None, hours: int | None) -> dict[str, Any]:
        row, side, clock = await self._lock(session, game_id, user)
        self._need_active(row)
        clock = self._need_clock(clock)
        now = self.rt.now()
        if clock.side is None or clock.side == side or clock.deadline_at is None:
            raise ApiError(409, "not_yours_to_extend",
                           "Only the opponent of the player who must decide may grant more time.")
        add = timedelta(hours=hours or clock.decision_hours or 24)
        base = max(now, clock.deadline_at)
        clock.deadline_at = base + add
        clock.overdue_since = None
        clock.reminded_at = None
        clock.updated_at = now
        info = game_info(row, self.rt.base_url)
        late_user = seat_users(row).get(clock.side)
        if late_user is not None:
            await enqueue(session, self.rt.nsettings,
                          key=f"extended:{row.id}:{clock.deadline_at.isoformat()}:{late_user.id}",
                          user=late_user, kind="extended",
                          composed=compose.extended(info, clock.side, side, clock.deadline_at),
                          game_id=row.id, now=now)
        await session.commit()
        self.rt.worker_wake()
        await self._pushed(row.id)
        return clock_json(row, clock, side, now)

    async def request_pause(self, session: Any, game_id: str, user: User | None, days: int) -> dict[str, Any]:
        async with self.rt.writing(session):
            return await self._request_pause(session, game_id, user, days)

    async def _request_pause(self, session: Any, game_id: str, user: User | None, days: int) -> dict[str, Any]:
        row, side, clock = await self._lock(session, game_id, user)
        self._need_active(row)
        now = self.rt.now()
        if not 1 <= days <= MAX_PAUSE_DAYS:
            raise ApiError(422, "bad_days", f"A pause lasts 1 to {MAX_PAUSE_DAYS} days.", field="days")
        if clock is None:
            clock = GameClock(game_id=row.id, decision_hours=None, updated_at=now)
            session.add(clock)
        if paused(clock, now):
            raise ApiError(409, "already_paused", "The game is paused already.",
                           paused_until=_iso(clock.paused_until))
        clock.pause_requested_by = side
        clock.pause_requested_days = days
        clock.pause_requested_at = now
        clock.updated_at = now
        info = game_info(row, self.rt.base_url)
        for other, other_user in seat_users(row).items():
            if other != side:
                await enqueue(session, self.rt.nsettings,
                              key=f"pause_requested:{row.id}:{now.isoformat()}:{other_user.id}",
                              user=other_user, kind="pause_requested",
                              composed=compose.pause_requested(info, other, side, days),
                              game_id=row.id, now=now)
        await session.commit()
        self.rt.worker_wake()
        await self._pushed(row.id)
        return clock_json(row, clock, side, now)

    async def answer_pause(self, session: Any, game_id: str, user: User | None, accept: bool) -> dict[str, Any]:
        async with self.rt.writing(session):
            return await self._answer_pause(session, game_id, user, accept)

    async def _answer_pause(self, session: Any, game_id: str, user: User | None, accept: bool) -> dict[str, Any]:
        row, side, clock = await self._lock(session, game_id, user)
        now = self.rt.now()
        if clock is None or clock.pause_requested_by is None:
            raise ApiError(409, "no_pause_request", "Nobody asked for a pause.")
        if accept:
            self._need_active(row)
            if clock.pause_requested_by == side:
                raise ApiError(409, "own_pause_request", "Your opponent must accept your pause.")
            length = timedelta(days=clock.pause_requested_days or 1)
            clock.paused_from = now
            clock.paused_until = now + length
            if clock.deadline_at is not None:
                clock.deadline_at = max(clock.deadline_at, now) + length
                clock.overdue_since = None
                clock.reminded_at = None
            info = game_info(row, self.rt.base_url)
            for s, u in seat_users(row).items():
                await enqueue(session, self.rt.nsettings,
                              key=f"paused:{row.id}:{now.isoformat()}:{u.id}", user=u, kind="pause_accepted",
                              composed=compose.pause_accepted(info, s, clock.paused_until), game_id=row.id,
                              now=now)
        # Declining (the opponent) and withdrawing (the asker) both just drop the request.
        clock.pause_requested_by = None
        clock.pause_requested_days = None
        clock.pause_requested_at = None
        clock.updated_at = now
        await session.commit()
        self.rt.worker_wake()
        await self._pushed(row.id)
        return clock_json(row, clock, side, now)

    async def resume(self, session: Any, game_id: str, user: User | None) -> dict[str, Any]:
        async with self.rt.writing(session):
            return await self._resume(session, game_id, user)

    async def _resume(self, session: Any, game_id: str, user: User | None) -> dict[str, Any]:
        """End a running pause early; the deadline gives back the unused pause time."""
        row, side, clock = await self._lock(session, game_id, user)
        now = self.rt.now()
        if clock is None or not paused(clock, now):
            raise ApiError(409, "not_paused", "The game is not paused.")
        assert clock.paused_until is not None
        unused = clock.paused_until - now
        if clock.deadline_at is not None:
            clock.deadline_at = clock.deadline_at - unused
        clock.paused_until = now
        clock.updated_at = now
        await session.commit()
        await self._pushed(row.id)
        return clock_json(row, clock, side, now)


class Scheduler:
    """Periodic pass: deadlines, digests, standing orders. `tick(now)` is the whole of it."""

    def __init__(self, rt: NotifyContext) -> None:
        self.rt = rt
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="vedette-scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler pass failed")
            await asyncio.sleep(self.rt.nsettings.scheduler_interval_seconds)

    async def tick(self, now: datetime | None = None) -> dict[str, int]:
        """One pass. On Postgres the pass runs in one process at a time across all the site's processes: it holds a
        session-level advisory lock for its length (issue 38), and a process that finds it taken skips its turn; the
        lock goes with the holder's connection, so a process that dies mid-pass frees it."""
        if not self.rt.postgres:
            return await self._tick(now)
        key = zlib.crc32(f"vedette-scheduler:{self.rt.settings.notify_channel}".encode()) & 0x7FFFFFFF
        engine = self.rt.sessionmaker.kw["bind"]
        async with engine.connect() as held:  # one connection, held for the pass: the lock is its session's
            conn = await held.execution_options(isolation_level="AUTOCOMMIT")
            if not await conn.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}):
                return {"skipped": 1}
            try:
                return await self._tick(now)
            finally:
                await conn.scalar(text("SELECT pg_advisory_unlock(:k)"), {"k": key})

    async def _tick(self, now: datetime | None = None) -> dict[str, int]:
        now = now or self.rt.now()
        report = {"reminders": 0, "overdue": 0, "digests": 0, "standing_orders": 0, "owed_mails": 0}
        for game_id in await self._due_clocks(now):
            try:
                outcome = await self._check_clock(game_id, now)
            except Exception:
                log.exception("deadline check of game %s failed", game_id)
                continue
            if outcome:
                report[outcome] += 1
        report["digests"] = await sweep_digests(self.rt.sessionmaker, self.rt.nsettings, now,
                                                postgres=self.rt.postgres, writing=self.rt.writing)
        report["standing_orders"] = await self.rt.sweep_standing_orders()
        report["owed_mails"] = await self.rt.sweep_owed_mails()
        if any(report.values()):
            self.rt.worker_wake()
        return report

    async def _due_clocks(self, now: datetime) -> list[str]:
        async with self.rt.sessionmaker() as session:
            rows = await session.execute(
                select(GameClock).join(Game, Game.id == GameClock.game_id).where(
                    Game.status == "active", GameClock.deadline_at.is_not(None),
                    GameClock.overdue_since.is_(None),
                )
            )
            due = []
            for (clock,) in rows.all():
                if paused(clock, now) or clock.deadline_at is None or not clock.decision_hours:
                    continue
                remind_at = clock.deadline_at - timedelta(hours=clock.decision_hours) / REMINDER_FRACTION
                if now >= clock.deadline_at or (clock.reminded_at is None and now >= remind_at):
                    due.append(clock.game_id)
            return due

    async def _check_clock(self, game_id: str, now: datetime) -> str | None:
        rt = self.rt
        async with rt.sessionmaker() as session, rt.writing(session):
            # Same lock order as a command (game row first), so a command's deadline reset and
            # this check never interleave.
            stmt = select(Game).where(Game.id == game_id).execution_options(populate_existing=True)
            if rt.postgres:
                stmt = stmt.with_for_update(skip_locked=True, of=Game)
            row = await session.scalar(stmt)
            clock = await session.get(GameClock, game_id, populate_existing=True)
            if row is None or clock is None or row.status != "active" or clock.deadline_at is None:
                await session.rollback()
                return None
            if paused(clock, now) or clock.overdue_since is not None or not clock.decision_hours:
                await session.rollback()
                return None
            late = clock.side
            info = game_info(row, rt.base_url)
            users = seat_users(row)
            deadline = clock.deadline_at
            stamp = deadline.isoformat()
            if now >= deadline:
                clock.overdue_since = now
                clock.updated_at = now
                for side, user in users.items():
                    if side == late:
                        composed = compose.overdue_late(info, side, deadline)
                    else:
                        composed = compose.overdue_opponent(info, side, late or "", deadline)
                    await enqueue(session, rt.nsettings, key=f"overdue:{game_id}:{stamp}:{user.id}", user=user,
                                  kind="overdue", composed=composed, game_id=game_id, now=now)
                outcome = "overdue"
            else:
                remind_at = deadline - timedelta(hours=clock.decision_hours) / REMINDER_FRACTION
                if clock.reminded_at is not None or now < remind_at:
                    await session.rollback()
                    return None
                clock.reminded_at = now
                clock.updated_at = now
                user = users.get(late or "")
                if user is not None:
                    await enqueue(session, rt.nsettings, key=f"reminder:{game_id}:{stamp}:{user.id}", user=user,
                                  kind="deadline_reminder",
                                  composed=compose.deadline_reminder(info, late or "", deadline,
                                                                     (deadline - now).total_seconds()),
                                  game_id=game_id, now=now)
                outcome = "reminders"
            await session.commit()
            log.info("game %s: %s (deadline %s)", game_id, outcome, stamp)
        if outcome == "overdue" and rt.hub is not None:
            await rt.hub.publish_clock(game_id)  # the opponent's page offers the claim at once
        return outcome
