"""The game services of one process, built together: they share its live games (`GameStore`), its queue of
SQLite writers (`WriteQueue`), its count of commands in flight (`CommandGate`) and the hooks the
notifications add (server/notify/hooks.py).

Nothing here delegates: each caller takes the service it uses (the routes through server/api/deps.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .commands import CommandService
from .lobby import Lobby
from .messages import Table
from .priority import CommandGate
from .spectators import Spectators
from .store import GameStore
from .writes import WriteQueue


@dataclass(frozen=True)
class GameServices:
    store: GameStore
    commands: CommandService
    lobby: Lobby
    spectators: Spectators
    # Messages in a game, mutes and private notes (issue 44).
    table: Table
    writes: WriteQueue
    gate: CommandGate
    # Called inside the lobby's and the command path's transactions, before COMMIT: the one list both hold.
    hooks: list[Any]

    @classmethod
    def build(
        cls, scenario_registry: Any, fixed_seed: str | None = None, *, snapshot_every: int = 32,
        command_wait: float = 5.0,
    ) -> GameServices:
        """`fixed_seed`: every new game's dice seed (tests only: Settings refuses it outside VEDETTE_ENV=test).
        `snapshot_every`: the command path stores the whole state every this many commands."""
        store, gate, writes = GameStore(), CommandGate(), WriteQueue()
        hooks: list[Any] = []
        return cls(
            store=store,
            commands=CommandService(store, gate, writes, hooks, snapshot_every=snapshot_every,
                                    command_wait=command_wait),
            lobby=Lobby(scenario_registry, store, gate, writes, hooks, fixed_seed=fixed_seed),
            spectators=Spectators(),
            table=Table(writes),
            writes=writes,
            gate=gate,
            hooks=hooks,
        )


__all__ = ["GameServices"]
