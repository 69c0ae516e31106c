"""The game as an embedded SQLite file stores it, read the way a process loading it does: the snapshot
at `snapshot_version` and the logged commands after it replayed (migration 0005). For the tests that
check what was stored without going through a server (read-only connections are fine)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from server.rules import Game, parse_scenario
from server.services.store import apply_logged


def stored_game(conn: sqlite3.Connection, game_id: str, scenario: Any | None = None) -> Game:
    """The engine Game at the row's version; `scenario` parsed from the row when not given."""
    scenario_json, snapshot, at = conn.execute(
        "SELECT scenario_json, snapshot, snapshot_version FROM game_states WHERE game_id = ?", (game_id,)
    ).fetchone()
    tail = conn.execute(
        "SELECT side, command FROM game_commands WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, at)
    ).fetchall()
    if scenario is None:
        scenario = parse_scenario(json.loads(scenario_json), "stored")
    game = Game.from_json(scenario, json.loads(snapshot))
    for side, command in tail:
        apply_logged(game, side, json.loads(command))
    return game
