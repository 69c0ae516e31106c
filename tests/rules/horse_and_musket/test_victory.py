"""Victory (victory.py), designed by R16.18 over SR.1: the points for enemy units lost, guns captured, colours held
and objectives (the last side to have a unit in each), and the army break at half the starting units rounded up."""

from __future__ import annotations

from server.rules.horse_and_musket import victory
from server.rules.kernel.state import Status

from .builder import Board, ctx_of


def _board() -> Board:
    return (Board().unit("b1", "blue", "co", "0610").unit("b2", "blue", "artillery", "0410", formation="deployed")
            .unit("b3", "blue", "wagons", "0810").unit("r1", "red", "co", "0603", facing="S")
            .objective("0606", owner="red").objective("0206"))


def test_r16_18_points_for_losses_guns_colours_and_objectives() -> None:
    ctx = ctx_of(_board().game())
    assert victory.points(ctx) == {"blue": 0, "red": 2}
    ctx.set_status("b2", Status.CAPTURED)
    ctx.x["guns"] = {"red": 1}
    ctx.set_status("b3", Status.REMOVED)  # wagons count for nobody (R16.20(4))
    ctx.x["colours"] = [{"of": "r1", "side": "blue", "carrier": None, "held": True},
                        {"of": "b1", "side": "red", "carrier": None, "held": False}]
    assert victory.points(ctx) == {"blue": 2, "red": 2 + 1 + 1}


def test_r16_18_an_objective_goes_to_the_last_side_with_a_unit_in_it() -> None:
    g = _board().game()
    ctx = ctx_of(g)
    ctx.move_unit("b1", "0606")
    victory.update_control(ctx)
    ctx.move_unit("b1", "0607")
    victory.update_control(ctx)
    assert g.state.control["0606"] == "blue" and g.state.control.get("0206") is None


def test_r16_18_the_army_breaks_at_half_its_units_rounded_up_wagons_and_generals_apart() -> None:
    sc = _board().scenario()
    assert sc.break_at == {"blue": 1, "red": 1}  # blue: 2 units (the wagons not counted), red: 1
    ctx = ctx_of(_board().game())
    assert victory.broken(ctx) == []
    ctx.set_status("b3", Status.REMOVED)
    assert victory.broken(ctx) == []
    ctx.set_status("b1", Status.ELIMINATED)
    assert victory.broken(ctx) == ["blue"]
    assert victory.army_break(ctx)["winner"] == "red"  # type: ignore[index]
    ctx.set_status("r1", Status.ELIMINATED)
    both = victory.army_break(ctx)
    assert both is not None and "both armies break" in both["reason"]
