"""Commands first: the lobby's work steps aside for the players' commands (issue 16).

One event loop serves both the commands of every game and the lobby around them (creating and joining
games, websocket handshakes, the mails a finished game owes). A command's CPU is about a millisecond; a
lobby step is several (a join reads the game, starts its engine and composes two mails), and on the
embedded database a lobby step never suspends between its statements (`server/sqlite_inline.py`). So a
command whose frame arrived while a join was running waited for all of it: the benchmark's 200-game p99
was made of such waits.

`CommandGate` counts the commands in flight in this process, from their frame's arrival to their answer.
Lobby work calls `yield_to_commands()` at the boundaries between its steps (never inside a write
transaction, where a waiting command would only find the database locked): it suspends for two turns of
the loop, so that a command frame that arrived meanwhile is read and counted, then waits while commands are
in flight, for at most `max_wait` seconds, so that a server saturated with commands still serves its lobby.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

# A command's work in this process is a few milliseconds even under load; the lobby waits at most this
# long at one step, so it is never starved, only slowed.
MAX_WAIT_S = 0.05


class CommandGate:
    def __init__(self, max_wait: float = MAX_WAIT_S) -> None:
        self.max_wait = max_wait
        self._in_flight = 0
        # Futures of the lobby steps waiting for the commands to finish, each on its own running loop
        # (a service object may outlive one loop in tests).
        self._waiting: list[asyncio.Future[None]] = []

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @contextmanager
    def command(self) -> Iterator[None]:
        """A command is being handled here, from its frame to its answer."""
        self._in_flight += 1
        try:
            yield
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                waiting, self._waiting = self._waiting, []
                for future in waiting:
                    if not future.done():
                        future.set_result(None)

    async def yield_to_commands(self) -> None:
        """Let the commands that arrived (or are in flight) finish before the caller's next step."""
        # The first turn polls the sockets (a frame that arrived is parsed and its reader woken, behind
        # this task in the ready queue); the second lets that reader run and enter `command()`.
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        if not self._in_flight:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        try:
            await asyncio.wait_for(future, self.max_wait)
        except TimeoutError:
            if future in self._waiting:
                self._waiting.remove(future)
