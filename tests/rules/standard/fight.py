"""Positions for the combat tests of tactics, coordination, artillery, cavalry, leaders and the fortune of war
(seed 002 7.13, 7.14, 8.x, 9.x, 10.3, 12.4): b-1 (CF 6, MR 4, MA 4) next to r-1 (CF 5, MR 4) at 0704, blue's combat
phase of turn 1; the hexes next to 0704 are 0603, 0604, 0703, 0705, 0803 and 0804."""

from __future__ import annotations

from typing import Any

from server.rules import Game

from .builder import standard_data, unit
from .play import end, load, new_game

INF = {"full": {"cf": 5, "mr": 4, "ma": 4}, "reduced": {"cf": 3, "mr": 3, "ma": 4}}
LEADER = {"kind": "leader", "leader": {"combat": 1, "morale": 2, "movement": 2},
          "leader_ineffective": {"combat": 0, "morale": 0, "movement": 1}}
ARTILLERY = {"kind": "artillery", "full": {"attack": 4, "defense": 1, "range": 3, "ma": 3},
             "ineffective": {"attack": 1, "defense": 0, "range": 2, "ma": 3}}


def place(data: dict[str, Any], uid: str, hex_: str) -> None:
    data["setup"] = [dict(s, hex=hex_) if s["unit"] == uid else s for s in data["setup"]]


def flag(data: dict[str, Any], uid: str, **flags: Any) -> None:
    data["setup"] = [dict(s, **flags) if s["unit"] == uid else s for s in data["setup"]]


def ground(b1: str = "0604") -> dict[str, Any]:
    data = standard_data()
    place(data, "b-1", b1)
    return data


def light(data: dict[str, Any], what: str) -> None:
    """Turn 1 in daylight, twilight (14.3) or night (14.2)."""
    data["trt"][0]["light"] = what


def combat(data: dict[str, Any], dice: list[int] | None = None) -> Game:
    """Blue's combat phase of turn 1 with the dice that follow loaded."""
    game = new_game(data, [])
    end(game)
    load(game, dice or [])
    return game


def decision(game: Game) -> dict[str, Any]:
    d = game.state.decision
    assert d is not None
    return d


def combat_event(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "combat")


def add_infantry(data: dict[str, Any], uid: str, hex_: str, formation: str = "1", side: str = "blue",
                 **more: Any) -> None:
    unit(data, uid, hex_, side=side, kind="infantry", formation=formation, **{**INF, **more})
