"""What the game services (the lobby, the command path) call around their writes, so every change gets
its mails.

* `game_created`  - a clock row when the game has a time per decision.
* `game_joined`   - "opponent joined" / "game started" mails; the first deadline starts.
* `mail_owed` / `command_stored` / `follow_up` - a command commits alone (its clock restart is
  part of its write, `commandlog.CLOCK_RESTART_SQL`); when it owes mails it is marked (`games.mail_owed`) and
  they follow in their own transaction: "your decision" (with the digest), game over / resigned,
  and a standing order that will settle the new decision suppresses its prompt mail. The mark
  survives a crash; `sweep` finishes what a dead process left.

A failure in here is logged and rolled back to a savepoint: a mail problem never
refuses a player's command (the command then commits without its mail).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, event, select, update

from ..errors import ApiError
from ..models import Game, GameCommand, GameSeat, User
from ..models import games_table as GAMES
from ..services.messages import mail_messages
from . import compose
from .context import NotifyContext
from .models import GameClock, OutboxMail, StandingOrders
from .outbox import QueuedMail, add_mails, plan_mails

log = logging.getLogger(__name__)
PENDING_KEY = "vedette_notify_pending"
# A digest lists at most DIGEST_ROWS log rows since its reader last decided in person, looked for
# among that reader's DIGEST_OWN_ROWS latest rows, all within the game's latest DIGEST_WINDOW rows.
DIGEST_ROWS = 500
DIGEST_OWN_ROWS = 200
DIGEST_WINDOW = DIGEST_ROWS + DIGEST_OWN_ROWS

# A command's follow-up reads and writes these on every game's end and every decision passed by mail;
# built once (see services/store.py `_GAME_ROW`).
_LOGGED_COMMAND = select(GameCommand).where(
    GameCommand.game_id == bindparam("game_id"), GameCommand.seq == bindparam("seq")
)
_CLEAR_MAIL_OWED = (
    update(GAMES).where(GAMES.c.id == bindparam("game_id"), GAMES.c.mail_owed == bindparam("owed"))
    .values(mail_owed=None)
)
# Only what a digest reads of a log row (`compose.digest_lines`), as plain rows: not ORM objects.
_LATEST_COMMANDS = (
    select(GameCommand.seq, GameCommand.side, GameCommand.events).where(GameCommand.game_id == bindparam("game_id"))
    .order_by(GameCommand.seq.desc()).limit(DIGEST_WINDOW)
)


def game_info(
    row: Game, base_url: str, extra_seat: tuple[str, User] | None = None, *, scenario: Any = None
) -> compose.GameInfo:
    """Names for mails; from the parsed `scenario` when the caller has it (the command path
    leaves the row's stored scenario unread), else from the row."""
    if scenario is not None:
        names = {s: str(scenario.sides[s].name) for s in scenario.side_order}
        title = str(scenario.title)
    else:
        sides = row.scenario_json.get("sides", {}) or {}
        names = {s: str((v or {}).get("name", s)) for s, v in sides.items()}
        title = str(row.scenario_json.get("title", row.scenario_id))
    seats: dict[str, str | None] = {s: None for s in names}
    for seat in row.seats:
        seats[seat.side] = seat.user.username
    if extra_seat is not None:
        seats[extra_seat[0]] = extra_seat[1].username
    return compose.GameInfo(row.id, title, f"{base_url}/games/{row.id}", names, seats)


def seat_users(row: Game, extra_seat: tuple[str, User] | None = None) -> dict[str, User]:
    users = {seat.side: seat.user for seat in row.seats}
    if extra_seat is not None:
        users[extra_seat[0]] = extra_seat[1]
    return users


def restart_clock(clock: GameClock, side: str | None, now: datetime) -> None:
    """The decision deadline starts over for `side` (it stands still until a pause ends)."""
    clock.side = side
    clock.reminded_at = None
    clock.overdue_since = None
    clock.updated_at = now
    if side is None or not clock.decision_hours:
        clock.started_at = None
        clock.deadline_at = None
        return
    start = now
    if clock.paused_until is not None and clock.paused_until > now:
        start = clock.paused_until  # the clock stands still during a pause
    clock.started_at = now
    clock.deadline_at = start + timedelta(hours=clock.decision_hours)


@dataclass(frozen=True, slots=True)
class JoinPlan:
    """What a join writes for the notifications, prepared before its write transaction."""

    mails: list[OutboxMail | None]
    clock: GameClock | None


class NotifyHooks:
    def __init__(self, runtime: NotifyContext) -> None:
        self.rt = runtime

    # ------------------------------------------------------------ plumbing

    def _defer(self, session: Any, *, wake: bool = False, settle: str | None = None) -> None:
        """Run `wake`/`settle` once the caller's transaction has committed (never if it rolls back)."""
        info = session.info
        pending = info.get(PENDING_KEY)
        if pending is None:
            pending = info[PENDING_KEY] = {"wake": False, "settle": set()}
            loop = asyncio.get_running_loop()
            runtime = self.rt

            sync = session.sync_session
            live = [True]  # listeners go inert after the outermost commit or rollback

            def on_commit(sync_session: Any) -> None:
                # after_commit also fires when a SAVEPOINT is released: wait for the real COMMIT.
                if not live[0] or sync_session.in_nested_transaction():
                    return
                live[0] = False
                done = info.pop(PENDING_KEY, None)
                if done is not None:
                    loop.call_soon(runtime.after_commit, done)

            def on_rollback(sync_session: Any) -> None:
                if not live[0] or sync_session.in_nested_transaction():
                    return
                live[0] = False
                info.pop(PENDING_KEY, None)

            event.listen(sync, "after_commit", on_commit)
            event.listen(sync, "after_rollback", on_rollback)
        pending["wake"] = pending["wake"] or wake
        if settle:
            pending["settle"].add(settle)

    async def _guarded(self, session: Any, what: str, coro_fn: Any, *args: Any, **kwargs: Any) -> None:
        try:
            async with session.begin_nested():
                await coro_fn(session, *args, **kwargs)
        except Exception:
            log.exception("notifications for %s failed; the change commits without them", what)

    # -------------------------------------------------------------- hooks

    async def game_created(self, session: Any, row: Game, *, decision_hours: int | None = None) -> None:
        if decision_hours:
            await self._guarded(session, "game creation", self._created, row, decision_hours)

    async def _created(self, session: Any, row: Game, decision_hours: int) -> None:
        await session.flush()  # the game row first: the clock refers to it
        session.add(GameClock(game_id=row.id, decision_hours=decision_hours, updated_at=self.rt.now()))
        await session.flush()

    async def prepare_join(self, session: Any, row: Game, user: User, side: str) -> JoinPlan:
        """The join's "opponent joined" / "game started" mails, composed and read (the preferences)
        before its write transaction, and its clock row."""
        extra = (side, user)
        info = game_info(row, self.rt.base_url, extra)
        awaiting = row.awaiting_side
        clock = await session.get(GameClock, row.id)
        hours = clock.decision_hours if clock is not None else None
        mails: list[QueuedMail] = []
        for seat_side, seat_user in seat_users(row, extra).items():
            if seat_side == side:
                composed = compose.game_started(info, seat_side, awaiting, hours)
                kind = "game_started"
            else:
                composed = compose.opponent_joined(info, seat_side, awaiting, hours)
                kind = "opponent_joined"
            mails.append(QueuedMail(f"{kind}:{row.id}:{seat_user.id}", seat_user, kind, composed))
        rows = await plan_mails(session, self.rt.nsettings, mails, game_id=row.id, now=self.rt.now())
        return JoinPlan(rows, clock)

    async def game_joined(self, session: Any, row: Game, user: User, side: str, plan: JoinPlan) -> None:
        await self._guarded(session, "join", self._joined, row, plan)

    async def _joined(self, session: Any, row: Game, plan: JoinPlan) -> None:
        # The clock row read before: a waiting game's clock changes only with the join itself, which the
        # service's compare-and-set makes this one.
        clock, awaiting = plan.clock, row.awaiting_side
        if clock is not None and clock.decision_hours and awaiting is not None:
            restart_clock(clock, awaiting, self.rt.now())  # the first deadline starts with the game
        # Both seats' mails; the clock's change is flushed with the guard's savepoint.
        await add_mails(session, plan.mails)
        self._defer(session, wake=True)

    def mail_owed(
        self, game_id: str, seat_sides: frozenset[str], engine_game: Any, previous_awaiting: str | None
    ) -> bool:
        """Whether the command just judged owes mails after its commit: the game is over, or the
        decision passed to a player who does not have the game open here (then `_follow_up`
        asks the presence table and the standing orders). The command path stores the answer
        with the command (`games.mail_owed`), so a process that dies before the mails leaves
        the mark for `sweep` (migration 0004)."""
        if engine_game.is_over:
            return True
        awaiting = engine_game.awaiting
        if awaiting is None or awaiting == previous_awaiting or awaiting not in seat_sides:
            return False
        return not (self.rt.presence.is_local(game_id, awaiting) and not self.rt.nsettings.mail_when_online)

    def command_stored(self, game_id: str, seq: int, previous_awaiting: str | None) -> None:
        """The command at `seq` is committed and owes mails: compose them now, off the command's path."""
        self.rt.spawn(self.follow_up(game_id, previous_awaiting))

    async def follow_up(self, game_id: str, previous_awaiting: str | None = None) -> bool:
        """Enqueue the mails the game's marked command owes (game over, or "your decision") and clear
        the mark. Idempotent: mails carry idempotency keys, and a cleared mark means done.
        `previous_awaiting` None (the sweep): the marked command's own side.

        The mails are composed first, in a read (a private engine, the digests: a few milliseconds),
        and written in a short transaction after it that clears the mark by compare-and-set: on the
        embedded database a write transaction holds SQLite's only write lock, which every command of
        every game waits for (issue 16)."""
        async with self.rt.game_lock(game_id), self.rt.sessionmaker() as session:
            # Without the large JSON columns (the scenario and both snapshots, decoded in one step of the
            # loop at each game's end; issue 16): `private_engine` reads what it needs when the engine is
            # not cached.
            try:
                row = await self.rt.store.get_row(session, game_id, light=True)
            except ApiError:
                return False
            if row.mail_owed is None:
                return False
            owed = row.mail_owed
            gate = self.rt.commands.gate  # the players' commands first, between the steps below
            await gate.yield_to_commands()
            entry = await session.scalar(_LOGGED_COMMAND, {"game_id": game_id, "seq": owed})
            mails: list[QueuedMail] = []
            rows: list[OutboxMail | None] = []
            settle = False
            what = f"command {owed} of game {row.id}"
            if entry is not None:
                try:
                    if row.status == "over":
                        # The shared engine: nothing changes a finished game's state, so the copy below
                        # (the whole state through JSON, at every game's end) is not needed.
                        engine_game = await self.rt.store.engine_at(session, row)
                        mails = await self._game_over(session, row, engine_game, entry)
                    else:
                        # A private copy: the command path mutates the live engine while this one composes.
                        engine_game = await self.rt.store.private_engine(session, row)
                        mails, settle = await self._decision_may_pass(
                            session, row, engine_game, entry, previous_awaiting or entry.side)
                    rows = await plan_mails(session, self.rt.nsettings, mails, game_id=row.id, now=self.rt.now())
                except Exception:
                    log.exception("notifications for %s failed; the change commits without them", what)
                    rows, settle = [], False
            await gate.yield_to_commands()
            async with self.rt.writing(session):
                cleared = await session.execute(_CLEAR_MAIL_OWED, {"game_id": game_id, "owed": owed})
                if cleared.rowcount != 1:
                    return False  # another process followed this command up meanwhile
                if any(r is not None for r in rows):
                    await self._guarded(session, what, self._add_mails, rows)
                if settle:
                    self._defer(session, settle=row.id)
                await session.commit()
        return True

    async def _add_mails(self, session: Any, rows: list[OutboxMail | None]) -> None:
        await add_mails(session, rows)
        self._defer(session, wake=True)

    async def _decision_may_pass(
        self, session: Any, row: Game, engine_game: Any, entry: GameCommand, previous_awaiting: str
    ) -> tuple[list[QueuedMail], bool]:
        """The "your decision" mail the command owes, if the decision passed to an absent player (and
        True instead when that player's standing orders will settle it)."""
        awaiting = engine_game.awaiting
        if awaiting is None or awaiting == previous_awaiting or awaiting not in {seat.side for seat in row.seats}:
            return [], False
        online = await self.rt.presence.is_online(session, row.id, awaiting)
        if online and not self.rt.nsettings.mail_when_online:
            return [], False
        clock = await session.get(GameClock, row.id, populate_existing=True)
        return await self._decision_passes(session, row, engine_game, entry, clock, awaiting, online)

    async def sweep(self) -> int:
        """Mails owed by commands whose process stopped before composing them (a crash)."""
        async with self.rt.sessionmaker() as session:
            game_ids = list((await session.scalars(
                select(Game.id).where(Game.mail_owed.is_not(None)).limit(500)
            )).all())
        done = 0
        for game_id in game_ids:
            try:
                done += int(await self.follow_up(game_id))
            except Exception:
                log.exception("owed mails of game %s failed", game_id)
        return done

    # ------------------------------------------------------------ commands

    async def _full_row(self, session: Any, row: Any) -> Game:
        """The ORM row with its seats' users (for their addresses), whatever the caller holds."""
        if isinstance(row, Game):
            return row
        full = await session.get(Game, row.id)
        assert full is not None
        return full

    async def _game_over(self, session: Any, row: Game, engine_game: Any, entry: GameCommand) -> list[QueuedMail]:
        row = await self._full_row(session, row)
        info = game_info(row, self.rt.base_url, scenario=engine_game.scenario)
        result = engine_game.result
        resigned = entry.command.get("type") == "resign"
        users = seat_users(row)
        # The game's last command waits for this: one log read and one batch of mails for both players.
        digests = await self._digests(session, row.id, [s for s in users if not (resigned and s != entry.side)],
                                      info, self.rt.filter_events)
        mails = []
        for side, user in users.items():
            if side not in digests:
                composed, kind = compose.opponent_resigned(info, side, result), "opponent_resigned"
            else:
                composed, kind = compose.game_over(info, side, result, digests[side][-40:]), "game_over"
            mails.append(QueuedMail(f"over:{row.id}:{user.id}", user, kind, composed))
        return mails

    async def _decision_passes(
        self, session: Any, row: Game, engine_game: Any, entry: GameCommand, clock: GameClock | None,
        awaiting: str, online: bool,
    ) -> tuple[list[QueuedMail], bool]:
        # An absent player's standing orders may answer the new decision at once: no prompt mail.
        if not online and await self._standing_order_will_answer(session, row.id, engine_game, awaiting):
            return [], True
        row = await self._full_row(session, row)
        info = game_info(row, self.rt.base_url, scenario=engine_game.scenario)
        user = seat_users(row)[awaiting]
        since: dict[str, int] = {}
        lines = (await self._digests(session, row.id, [awaiting], info, self.rt.filter_events, since))[awaiting]
        prompt = (engine_game.view(awaiting).get("prompt") or {}).get("text", "")
        deadline = clock.deadline_at if clock is not None and clock.decision_hours else None
        # What the seats said since this player last decided (the opponent's left out if muted): quoted as text.
        said = await mail_messages(session, row.id, user.id, since.get(awaiting, 0))
        composed = compose.your_decision(info, awaiting, prompt, lines, deadline, compose.message_lines(info, said))
        return [QueuedMail(f"turn:{row.id}:{entry.seq}:{user.id}", user, "your_turn", composed)], False

    async def _standing_order_will_answer(self, session: Any, game_id: str, engine_game: Any, side: str) -> bool:
        if engine_game.state.decision is None:
            return False
        orders = await session.get(StandingOrders, (game_id, side))
        if orders is None:
            return False
        return self.rt.standing_order_choice(engine_game, orders.orders) is not None

    async def _digests(
        self, session: Any, game_id: str, sides: list[str], info: compose.GameInfo, filter_events: Any,
        since_out: dict[str, int] | None = None,
    ) -> dict[str, list[str]]:
        """For each of `sides`, what happened since it last decided in person (looking back over
        its latest `DIGEST_OWN_ROWS` rows; at most `DIGEST_ROWS` rows), as its own log shows it.
        One read of the game's latest `DIGEST_WINDOW` rows serves every side: in a longer game, a
        side that has not decided in person within them is told of the window's first rows."""
        latest = list((await session.execute(_LATEST_COMMANDS, {"game_id": game_id})).all())
        digests = {}
        for side in sides:
            since, own = 0, 0
            for row in latest:  # newest first
                if row.side != side:
                    continue
                if not compose.is_standing_order_row(row.events):
                    since = row.seq
                    break
                own += 1
                if own == DIGEST_OWN_ROWS:
                    break
            if since_out is not None:
                since_out[side] = since
            rows = [row for row in reversed(latest) if row.seq > since][:DIGEST_ROWS]
            digests[side] = compose.digest_lines(rows, side, filter_events, info.side_names)
        return digests


async def seat_user(session: Any, game_id: str, side: str) -> User | None:
    seat = await session.scalar(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.side == side))
    return seat.user if seat is not None else None
