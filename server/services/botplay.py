"""The computer opponent as a seat (issue 15): a bot account per level sits in the game like a person.

When a decision becomes a bot seat's, this process builds that side's BELIEF game (what the side may
see: `server.bots.belief_game`; never the seed, hidden units or future dice), hands it to a worker
PROCESS (so a thinking bot never holds the event loop that serves other games' commands), and submits
the command it returns through the ordinary command path, as that seat, with a command id fixed by
the version it answers (`bot:N`): if two processes play the same bot turn, the compare-and-set lets
one command in and answers the other with it. Its games are ordinary games: logged, replayable,
spectatable, mailed. It resigns a hopeless game (`server.bots.resign`), politely.

The bots' own code is pure (server/bots); this module is their seat in the service.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import random
import secrets
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..errors import ApiError
from ..models import Game, GameSeat, User
from . import commandlog
from .commands import CommandService

log = logging.getLogger(__name__)

BOT_PREFIX = "computer-"
UNUSABLE_PASSWORD = "!"  # not an argon2 hash: `accounts.verify_password` is False for every password
LEVELS = ("random", "greedy", "search")


def bot_username(level: str) -> str:
    return f"{BOT_PREFIX}{level}"


def bot_level_of(username: str) -> str | None:
    if username.startswith(BOT_PREFIX) and username[len(BOT_PREFIX):] in LEVELS:
        return username[len(BOT_PREFIX):]
    return None


# In the worker process: scenarios as each side may know them, parsed once per key.
_WORKER_SCENARIOS: dict[str, Any] = {}

_SQLITE_SEAT_USERS = "SELECT user_id FROM game_seats WHERE game_id = ?"
_PG_SEAT_USERS = "SELECT user_id FROM game_seats WHERE game_id = $1"
_UNSEATED_KEPT = 4096


async def _pg_seat_users(conn: Any, game_id: str) -> list[int]:
    return [row[0] for row in await conn.fetch(_PG_SEAT_USERS, game_id)]


def _belief_in_worker(belief: tuple[str, dict[str, Any], dict[str, Any], str, str], seed: int) -> Any:
    """The belief game, rebuilt in the worker from what the side may see (see `belief_inputs`)."""
    from ..rules import Game, GameState, parse_scenario
    from ..rules.kernel.edition import find_ruleset

    key, raw, state, ruleset, dice_scheme = belief
    sc = _WORKER_SCENARIOS.get(key)
    if sc is None:
        if len(_WORKER_SCENARIOS) > 64:
            _WORKER_SCENARIOS.clear()
        sc = _WORKER_SCENARIOS[key] = parse_scenario(raw, "belief")
    return Game(sc, f"belief-{seed:016x}", GameState.from_json(state), [], find_ruleset(ruleset),
                dice_scheme=dice_scheme)


def belief_inputs(engine_game: Any, side: str) -> tuple[str, dict[str, Any], dict[str, Any], str, str]:
    """In the serving process, cheaply: what the worker needs to rebuild `side`'s belief game: the
    scenario as the side may read it (plus enemy units it has seen enter) and the state as it may know
    it (`server.bots.belief`). Plain JSON values: no seed, no hidden unit, nothing else."""
    from ..bots.belief import belief_state_json

    state, view = belief_state_json(engine_game, side)
    # belief_scenario's own source: the public file as this side may read it, with seen units added.
    from ..bots.belief import belief_scenario

    key = json.dumps([engine_game.scenario.id, side, sorted(view.get("unit_defs", {}))])
    raw = _SERVING_RAW.get(key)
    if raw is None:
        sc = belief_scenario(engine_game, side, view.get("unit_defs", {}))
        if len(_SERVING_RAW) > 256:
            _SERVING_RAW.clear()
        raw = _SERVING_RAW[key] = json.loads(json.dumps(sc.raw))  # plain values, for the worker
    return key, raw, state, engine_game.ruleset.name, engine_game.dice_scheme


_SERVING_RAW: dict[str, dict[str, Any]] = {}


def decide(level: str, belief: Any, side: str, seed: int, budget_s: float) -> dict[str, Any]:
    """In the worker process: the bot's command for `side` on its belief game (or a resignation)."""
    from ..bots import make_bot, should_resign

    game = _belief_in_worker(belief, seed)
    if should_resign(game, side):
        return {"type": "resign"}
    return make_bot(level).choose(game, side, random.Random(seed), budget_s)


def fallback(belief: Any, side: str, seed: int) -> dict[str, Any]:
    """In the worker process: a random legal command, if the level's choice was refused (a bot bug)."""
    from ..bots import make_bot

    return make_bot("random").choose(_belief_in_worker(belief, seed), side, random.Random(seed), 0.1)


class BotRunner:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], commands: CommandService, hub: Any,
                 budget_s: float = 1.0, workers: int = 1) -> None:
        self.sessionmaker = sessionmaker
        self.commands = commands
        self.hub = hub
        self.budget_s = budget_s
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._playing: dict[str, asyncio.Task[None]] = {}
        self._users: dict[int, str] = {}  # bot user id -> level
        self._user_rows: dict[str, User] = {}
        # Games seen with both seats taken by people: a seat never changes hands, so no bot will play them.
        self._unseated: OrderedDict[str, None] = OrderedDict()

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        async with self.sessionmaker() as session:
            for level in LEVELS:
                user = await ensure_bot_user(session, level)
                self._users[user.id] = level
                self._user_rows[level] = user
        # A spawned worker imports the rules anew: no copy of this process's loop, sockets or threads.
        self._pool = ProcessPoolExecutor(max_workers=self._workers, mp_context=multiprocessing.get_context("spawn"))
        self.hub.change_listeners.append(self.poke)
        await self.sweep()

    async def stop(self) -> None:
        for task in list(self._playing.values()):
            task.cancel()
        for task in list(self._playing.values()):
            try:
                await task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001, S110 - shutting down
                pass
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    async def wait_idle(self, timeout: float = 60.0) -> None:
        """Until no bot turn is being played here (tests)."""
        async def _wait() -> None:
            while self._playing:
                await asyncio.gather(*list(self._playing.values()), return_exceptions=True)
        await asyncio.wait_for(_wait(), timeout)

    def user(self, level: str) -> User:
        return self._user_rows[level]

    def level_of(self, user_id: int) -> str | None:
        return self._users.get(user_id)

    async def sweep(self) -> None:
        """Running games whose decision is a bot's (e.g. after a restart): play them."""
        if not self._users:
            return
        async with self.sessionmaker() as session:
            game_ids = (await session.scalars(
                select(Game.id).join(GameSeat, (GameSeat.game_id == Game.id) & (GameSeat.side == Game.awaiting_side))
                .where(Game.status == "active", GameSeat.user_id.in_(list(self._users)))
            )).all()
        for game_id in game_ids:
            self.poke(game_id)

    # ---------------------------------------------------------------- play

    def poke(self, game_id: str) -> None:
        """A game changed: if its decision is now a bot seat's, play it (once per game at a time)."""
        task = self._playing.get(game_id)
        if task is not None and not task.done():
            return
        if game_id in self._unseated:
            return
        meta = self.commands.live_meta(game_id)
        if meta is not None and not any(uid in self._users for _, uid in meta.seat_ids):
            return  # known here, and no bot sits in it
        self._playing[game_id] = asyncio.get_running_loop().create_task(self._play(game_id, known=meta is not None))

    async def _bot_seated(self, game_id: str) -> bool:
        """Whether a bot sits in a game this process does not hold: its seats' accounts, by one plain read.
        Every process hears of every other process's commands: loading each such game (its row, snapshot
        and log, then its engine) only to find two people in it was a whole game's load per game in every
        other process (issue 16, scale-out)."""
        seated = await commandlog.plain_read(
            self.sessionmaker.kw["bind"],  # the statement needs no ORM session, as the outbox's look for mail
            lambda conn: [uid for (uid,) in conn.execute(_SQLITE_SEAT_USERS, (game_id,))],
            lambda conn: _pg_seat_users(conn, game_id),
        )
        if any(uid in self._users for uid in seated):
            return True
        if len(seated) >= 2:  # both seats taken by people (a waiting game may still be joined by a bot)
            self._unseated[game_id] = None
            if len(self._unseated) > _UNSEATED_KEPT:
                self._unseated.popitem(last=False)
        return False

    async def _play(self, game_id: str, *, known: bool = True) -> None:
        try:
            if not known and not await self._bot_seated(game_id):
                return
            for _ in range(10_000):  # a bot's turn is many decisions; never an endless loop
                if not await self._one_decision(game_id):
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer's turn in game %s failed", game_id)
        finally:
            self._playing.pop(game_id, None)

    async def _one_decision(self, game_id: str) -> bool:
        async with self.sessionmaker() as session:
            meta, engine_game, _ = await self.commands.live_game(session, game_id)
        if meta.status != "active" or engine_game.is_over:
            return False
        side = engine_game.awaiting
        user_id = dict(meta.seat_ids).get(side)
        level = self._users.get(user_id) if user_id is not None else None
        if level is None:
            return False
        version = meta.version
        seed = secrets.randbits(64)
        # What the side may see, taken here from its own view; the worker never sees the real game.
        belief = belief_inputs(engine_game, side)
        loop = asyncio.get_running_loop()
        assert self._pool is not None
        command = await loop.run_in_executor(self._pool, decide, level, belief, side, seed, self.budget_s)
        user = self._user_rows[level]
        try:
            answer = await self._submit(game_id, user, command, version)
        except ApiError as exc:
            if exc.status != 422:
                return False  # the game moved on (409): the next change pokes again
            log.warning("computer (%s) in game %s: %s refused (%s); playing a random legal command",
                        level, game_id, command, exc.message)
            command = await loop.run_in_executor(self._pool, fallback, belief, side, seed)
            answer = await self._submit(game_id, user, command, version)
        if answer is None:
            return False
        await self.hub.publish(game_id, int(answer["version"]))
        return True

    async def _submit(self, game_id: str, user: User, command: dict[str, Any], version: int) -> dict[str, Any] | None:
        async with self.sessionmaker() as session:
            if command.get("type") == "resign":
                log.info("computer %s resigns game %s (hopeless by its evaluation)", user.username, game_id)
                row = await self.commands.resign(session, game_id, user)
                return {"version": row.version}
            answer, _ = await self.commands.submit(session, game_id, user, command, version, f"bot:{version}")
            return dict(answer)


async def ensure_bot_user(session: AsyncSession, level: str) -> User:
    """The account a level plays under: its password hash is no hash at all (`!`, which no password
    verifies against), so nobody logs in as it; `computer-` names are refused at registration."""
    name = bot_username(level)
    user = await session.scalar(select(User).where(User.username == name))
    if user is not None:
        return user
    user = User(username=name, email=f"{name}@localhost", password_hash=UNUSABLE_PASSWORD)
    session.add(user)
    try:
        await session.commit()
    except Exception:  # noqa: BLE001 - another process created it first
        await session.rollback()
        user = await session.scalar(select(User).where(User.username == name))
        assert user is not None
    return user


__all__ = ["BOT_PREFIX", "LEVELS", "BotRunner", "bot_level_of", "bot_username", "decide", "ensure_bot_user"]
