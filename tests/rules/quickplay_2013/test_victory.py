"""Winning the game (3.4): one VP per enemy unit or leader eliminated, two per one captured, unless the scenario
says otherwise (T2); the scenario's objectives."""

from __future__ import annotations

from server.rules.kernel.core import Ctx
from server.rules.quickplay_2013.victory import points

from .conftest import Position2013


def test_3_4_one_vp_per_unit_or_leader_eliminated_two_per_captured(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0204")
    pos.unit("b2", "blue", hex="0206")
    pos.leader("bl", "blue", hex="0204")
    pos.unit("r1", "red", hex="1008", reduced=True)
    pos.objective("0505", 3, owner="red")
    game = pos.game()
    units = game.state.units
    units["b1"].status, units["b1"].hex = "eliminated", None
    units["b2"].status, units["b2"].hex = "captured", None
    units["bl"].status, units["bl"].hex = "dead", None
    assert points(Ctx.of(game)) == {"blue": 0, "red": 3 + 1 + 2 + 1}  # a reduced unit scores nothing


def test_t2_the_scenarios_own_schedule_stands_when_it_gives_one(pos: Position2013) -> None:
    pos.victory_points = {"step_eliminated": 1, "unit_captured": 2, "leader_eliminated": 2, "leader_captured": 3}
    pos.unit("b1", "blue", hex="0204")
    pos.unit("r1", "red", hex="1008", reduced=True)
    game = pos.game()
    game.state.units["b1"].status, game.state.units["b1"].hex = "eliminated", None
    assert points(Ctx.of(game)) == {"blue": 1, "red": 2}  # per step, as the scenario says


def test_3_4_taking_an_objective_cites_seed_001s_victory_rule(pos: Position2013) -> None:
    """The objective's capture is the scenario's victory conditions, 3.4 in seed 001 (the revised seed's 14.0 is not
    one of its rules)."""
    pos.unit("b1", "blue", hex="0404")
    pos.objective("0505", 3, owner="red")
    game = pos.game()
    events = game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0404", "0505"]})
    (taken,) = [e for e in events if e["type"] == "control"]
    assert taken["rule"] == "3.4" and taken["text"].startswith("3.4: ") and game.state.control["0505"] == "blue"
