"""The service's only doorway into the rules core, plus per-process caches.

Imports of `server.rules` are resolved lazily so the service modules import
(and the CLI's --help works) even while the rules core is being changed.
"""

from __future__ import annotations

import importlib
import logging
from collections import OrderedDict
from types import ModuleType
from typing import Any

from .. import jsoncodec

log = logging.getLogger(__name__)

_rules: ModuleType | None = None


def rules() -> ModuleType:
    """The rules-core package (server.rules): Game, IllegalCommand, filter_events, parse_scenario."""
    global _rules
    if _rules is None:
        _rules = importlib.import_module("server.rules")
    return _rules


def use_rules(module: ModuleType | None) -> None:
    """Swap the rules core (tests); None goes back to server.rules."""
    global _rules
    _rules = module


class ScenarioCache:
    """Parsed scenarios keyed by game id: a game's stored scenario JSON never changes."""

    def __init__(self, capacity: int = 512) -> None:
        self._by_game: OrderedDict[str, Any] = OrderedDict()
        self._by_text: dict[str, Any] = {}
        self._capacity = capacity

    def peek(self, game_id: str) -> Any | None:
        return self._by_game.get(game_id)

    def get(self, game_id: str, scenario_json: dict[str, Any]) -> Any:
        hit = self._by_game.get(game_id)
        if hit is not None:
            self._by_game.move_to_end(game_id)
            return hit
        text = jsoncodec.dumps(scenario_json, sort_keys=True)
        scenario = self._by_text.get(text)
        if scenario is None:
            scenario = rules().parse_scenario(scenario_json, f"game {game_id}")
            self._by_text[text] = scenario
        self._by_game[game_id] = scenario
        if len(self._by_game) > self._capacity:
            self._by_game.popitem(last=False)
        return scenario


class EngineCache:
    """Most recent engine Game per game id, keyed by version, to skip re-parsing snapshots.

    A cached Game is only ever read (views) unless `take` removed it first, so a
    command that fails half-way can never leave a corrupted object behind.
    """

    def __init__(self, capacity: int = 1024) -> None:
        self._games: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        self._capacity = capacity

    def get(self, game_id: str, version: int) -> Any | None:
        hit = self._games.get(game_id)
        if hit is None or hit[0] != version:
            return None
        self._games.move_to_end(game_id)
        return hit[1]

    def take(self, game_id: str, version: int) -> Any | None:
        hit = self._games.get(game_id)
        if hit is None or hit[0] != version:
            return None
        del self._games[game_id]
        return hit[1]

    def put(self, game_id: str, version: int, game: Any) -> None:
        current = self._games.get(game_id)
        if current is not None and current[0] > version:
            return
        self._games[game_id] = (version, game)
        self._games.move_to_end(game_id)
        if len(self._games) > self._capacity:
            self._games.popitem(last=False)

    def drop(self, game_id: str) -> None:
        self._games.pop(game_id, None)


class RecentCache:
    """Per game, the newest state this process committed: the row's view-relevant fields
    (a `GameMeta`) and the last few log rows, so the process's own hub can push the change
    it just wrote without reading it back. Other processes read the database as before."""

    def __init__(self, capacity: int = 1024, entries: int = 16) -> None:
        self._games: OrderedDict[str, tuple[Any, list[Any]]] = OrderedDict()
        self._capacity = capacity
        self._entries = entries

    def put(self, meta: Any, entry: Any) -> None:
        current = self._games.get(meta.id)
        if current is not None and current[0].version >= meta.version:
            return
        if current is not None and current[1] and current[1][-1].seq == entry.seq - 1:
            entries = [*current[1][-(self._entries - 1):], entry]
        else:
            entries = [entry]
        self._games[meta.id] = (meta, entries)
        self._games.move_to_end(meta.id)
        if len(self._games) > self._capacity:
            self._games.popitem(last=False)

    def seed(self, meta: Any) -> None:
        """What a full read of the game row showed (no log rows): lets this process's next command
        take the quick path without having committed one first. Never replaces a newer state."""
        current = self._games.get(meta.id)
        if current is not None and current[0].version >= meta.version:
            return
        self._games[meta.id] = (meta, [])
        self._games.move_to_end(meta.id)
        if len(self._games) > self._capacity:
            self._games.popitem(last=False)

    def meta(self, game_id: str) -> Any | None:
        hit = self._games.get(game_id)
        return hit[0] if hit is not None else None

    def command(self, game_id: str, side: str, command_id: str) -> Any | None:
        """`side`'s log row with this command id among the rows held (a repeat answered from memory)."""
        hit = self._games.get(game_id)
        if hit is None:
            return None
        return next((e for e in hit[1] if e.side == side and e.command_id == command_id), None)

    def lookup(self, game_id: str, at_least: int, after: int) -> tuple[Any, list[Any]] | None:
        """(meta, log rows with seq > `after`) if this process holds a state at version
        `at_least` or newer and every log row since `after`; otherwise None."""
        hit = self._games.get(game_id)
        if hit is None:
            return None
        meta, entries = hit
        if meta.version < at_least:
            return None
        if after < meta.version and (not entries or entries[0].seq > after + 1):
            return None
        return meta, [e for e in entries if e.seq > after]

    def drop(self, game_id: str) -> None:
        self._games.pop(game_id, None)
