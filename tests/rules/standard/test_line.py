"""19.7 Austrian line formation as a special rule (seed 002 19.7 A-D, special.py, line.py, line_fire.py, S64, S65).

Positions on builder.py's 10x8 clear map: b-1 (CF 6, MR 4, MA 4) in line at 0404; facing E its front hexes are 0504
and 0505, its flanks 0403 and 0405, its rear 0304 and 0305 (the kernel's arcs, `LINE_ARCS`); r-1 (CF 5) at 0704.
The line marker: MA 2, CF 2 unless a test names others."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import ScenarioError
from server.rules.standard.context import StdCtx
from server.rules.standard.scenario import parse_standard_scenario
from server.rules.standard.special import LINE_ARCS, line_arc, line_front

from .builder import standard_data
from .fight import add_infantry, flag, place
from .play import end, load, new_game, refused, submit

LINE = "line"
FIRE = "line_fire"
FORM = {"type": LINE, "unit": "b-1", "facing": "E"}


def lined(b1: str = "0404", **fields: Any) -> dict[str, Any]:
    data = standard_data()
    data["special_rules"] = {"line": {"side": "blue", "ma": 2, "cf": 2, **fields}}
    place(data, "b-1", b1)
    return data


def put(game: Any, uid: str, hex_: str) -> None:
    """Move a unit by hand (a position the test needs, not a move it tests)."""
    game.state.units[uid].hex = hex_
    StdCtx.of(game).dirty()


def formed(data: dict[str, Any] | None = None, facing: str = "E", dice: list[int] | None = None) -> Any:
    game = new_game(data or lined(), [])
    submit(game, "blue", {**FORM, "facing": facing})
    load(game, dice or [])
    return game


# --- the geometry (19.7 B, S64) -------------------------------------------------------------------------------------
def test_19_7_b_front_flank_and_rear_hexes_by_the_kernels_arcs() -> None:
    sc = parse_standard_scenario(lined(), "t")
    assert set(line_front(sc.grid, "0404", "E")) == {"0504", "0505"}
    arcs = {n: line_arc(sc.grid, "0404", "E", n).value for n in sc.grid.neighbors("0404")}
    assert arcs == {"0504": "front", "0505": "front", "0403": "flank", "0405": "flank", "0304": "rear",
                    "0305": "rear"}
    assert LINE_ARCS.front == 60 and LINE_ARCS.flank == 120
    with pytest.raises(ValueError, match="19.7 B"):
        line_front(sc.grid, "0404", "N")  # a hexside is not an apex


def test_19_7_scenario_fields_are_checked() -> None:
    data = lined()
    data["special_rules"]["line"]["sied"] = "blue"
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    assert any("special_rules.line" in p for p, _ in e.value.problems)
    data = lined()
    data["special_rules"]["line"]["side"] = "green"
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    assert any(p == "special_rules.line.side" for p, _ in e.value.problems)
    sc = parse_standard_scenario(lined(), "t")
    assert sc.special.line is not None and (sc.special.line.ma, sc.special.line.cf) == (2, 2)
    assert sc.terrain["clear"].line and not sc.terrain["woods"].line  # S64: left out, the terrain's `clear`


# --- 19.7 A creation and removal ------------------------------------------------------------------------------------
def test_19_7_a_formed_at_the_start_of_the_movement_phase() -> None:
    off = new_game(standard_data(), [])
    assert "line" not in off.view("blue")["standard"]
    assert refused(off, "blue", FORM).rule == "19.7 A"  # the rule off
    data = lined()
    add_infantry(data, "b-2", "0306")
    add_infantry(data, "b-3", "0306")  # stacked
    add_infantry(data, "b-4", "0302")
    flag(data, "b-4", disrupted=True)
    add_infantry(data, "b-5", "0602")  # next to r-1's ZOC? no: 0602 is clear of it; put r-2 beside it
    add_infantry(data, "r-2", "0702", side="red", formation="7")
    data["map"]["hexes"]["0208"] = "woods"
    add_infantry(data, "b-6", "0208")
    game = new_game(data, [])
    assert refused(game, "blue", {**FORM, "unit": "b-hq"}).rule == "19.7 A"  # not infantry
    assert refused(game, "blue", {**FORM, "unit": "r-1"}).rule == "19.7 A"  # not the named side's
    assert refused(game, "blue", {**FORM, "unit": "b-2"}).rule == "19.7 A"  # stacked
    assert refused(game, "blue", {**FORM, "unit": "b-4"}).rule == "19.7 A"  # disrupted
    assert refused(game, "blue", {**FORM, "unit": "b-5"}).rule == "19.7 A"  # in an EZOC
    e = refused(game, "blue", {**FORM, "unit": "b-6"})
    assert e.rule == "19.7 A" and "Woods" in e.message  # the TEC's terrain does not allow it (S64)
    assert refused(game, "blue", {**FORM, "facing": "N"}).rule == "19.7 B"  # an apex, not a hexside
    events = submit(game, "blue", FORM)
    assert any(ev.get("rule") == "19.7 A" for ev in events)
    assert game.state.units["b-1"].facing == "E"
    view = game.view("red")
    assert view["units"]["b-1"]["facing"] == "E"  # the marker's orientation is drawn (kernel facing)
    assert view["standard"]["line"]["front"] == {"b-1": ["0505", "0504"]}
    assert refused(game, "blue", FORM).rule == "19.7 C"  # in line already: the same apex is no pivot
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0306", "0206"]})
    assert refused(game, "blue", {**FORM, "unit": "b-3"}).rule == "19.7 A"  # a unit has moved: too late


def test_19_7_a_removed_when_stacked_even_during_movement_or_disrupted() -> None:
    data = lined()
    add_infantry(data, "b-2", "0304")
    game = formed(data)
    events = submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0304", "0404", "0504"]})
    assert game.state.units["b-1"].facing is None  # passed through its hex: stacked during movement
    assert any(e.get("rule") == "19.7 A" and e.get("unit") == "b-1" for e in events)
    game = formed()
    game.state.units["b-1"].disrupted = True  # as any result would
    submit(game, "blue", {"type": "flip", "unit": "b-hq"})
    assert game.state.units["b-1"].facing is None


def test_19_7_a_removed_when_the_unit_retreats() -> None:
    from server.rules.standard.retreating import decide_retreat
    game = formed()
    ctx = StdCtx.of(game)
    decide_retreat(ctx, {"units": ["b-1"], "rule": "7.9"}, {"path": ["0404", "0304"], "safe": True})
    assert ctx.st.units["b-1"].facing is None


def test_19_7_a_left_voluntarily_out_of_an_ezoc_ending_the_move() -> None:
    game = formed()
    submit(game, "blue", {"type": LINE, "unit": "b-1", "on": False})
    assert game.state.units["b-1"].facing is None and game.state.units["b-1"].moved
    game = formed(lined(b1="0504"))
    put(game, "r-1", "0604")  # next to it, in its front
    e = refused(game, "blue", {"type": LINE, "unit": "b-1", "on": False})
    assert e.rule == "19.7 A" and "zone of control" in e.message


# --- 19.7 B facing, ZOC and the flanks ------------------------------------------------------------------------------
def test_19_7_b_zoc_only_into_front_hexes() -> None:
    game = formed()
    ctx = StdCtx.of(game)
    assert {"0504", "0505"} <= ctx.zoc_of("blue")
    assert not {"0403", "0405", "0304", "0305"} & ctx.zoc_of("blue")


def _red_to(game: Any, path: list[str], dice: list[int]) -> list[dict[str, Any]]:
    end(game, 2)  # blue's combat phase, then red's movement phase
    load(game, dice)
    return submit(game, "red", {"type": "move", "units": ["r-1"], "path": path})


def test_19_7_b_an_enemy_entering_a_flank_hex_checks_morale_failing_it_routs() -> None:
    game = formed()
    events = _red_to(game, ["0704", "0603", "0503", "0403"], [6])  # 0403: b-1's flank
    checks = [e for e in events if e["type"] == "morale" and e.get("rule") == "19.7 B"]
    assert len(checks) == 1 and not checks[0]["passed"]
    assert any(e["type"] == "rout" and e.get("rule") == "19.7 B" for e in events)
    assert game.state.units["b-1"].facing is None  # a routing unit loses its marker


def test_19_7_b_passing_the_check_or_entering_the_front_keeps_the_line() -> None:
    game = formed()
    events = _red_to(game, ["0704", "0603", "0503", "0403"], [1])
    assert [e["passed"] for e in events if e["type"] == "morale" and e.get("rule") == "19.7 B"] == [True]
    assert game.state.units["b-1"].facing == "E"
    game = formed()
    events = _red_to(game, ["0704", "0604", "0504"], [])  # the front: no check (the move ends in the line's ZOC)
    assert not [e for e in events if e.get("rule") == "19.7 B"]


def test_19_7_b_a_retreat_into_the_rear_checks_too() -> None:
    from server.rules.standard.retreating import decide_retreat
    data = lined()
    add_infantry(data, "r-2", "0206", side="red", formation="7")
    game = formed(data, dice=[6])
    ctx = StdCtx.of(game)
    decide_retreat(ctx, {"units": ["r-2"], "rule": "7.9"}, {"path": ["0206", "0305"], "safe": True})
    assert any(e["type"] == "morale" and e.get("rule") == "19.7 B" for e in ctx.events)


# --- 19.7 C movement ------------------------------------------------------------------------------------------------
def test_19_7_c_moves_only_into_front_hexes_with_the_markers_ma() -> None:
    game = formed()
    opts = game.options("blue", ["b-1"])
    reach = set(opts["normal"]["reachable"])
    assert opts["normal"]["ma"] == 2  # the marker's MA, not the unit's 4
    assert reach == {"0504", "0505", "0603", "0604", "0605", "0304", "0305"}  # the front cone, two hexes deep
    assert {"0304", "0305"} <= reach  # one hex back into either rear hex
    assert "0403" not in reach and "0405" not in reach
    assert refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0403"]}).rule == "19.7 B"
    e = refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0505", "0605", "0705"]})
    assert e.rule == "4.3" and "has 2" in e.message  # three hexes with the marker's 2 MP
    assert refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0304", "0204"]}).rule == "19.7 B"
    assert refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504"],
                                  "march": True}).rule == "19.7 C"  # no march movement
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0505"]})
    assert game.state.units["b-1"].facing == "E"  # the facing is kept


def test_19_7_c_back_step_and_pivot_are_the_whole_move() -> None:
    game = formed()
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0304"]})
    assert game.state.units["b-1"].hex == "0304" and game.state.units["b-1"].moved
    game = formed()
    events = submit(game, "blue", {"type": LINE, "unit": "b-1", "facing": "NNE"})
    assert any(e.get("rule") == "19.7 C" for e in events)
    assert game.state.units["b-1"].facing == "NNE" and game.state.units["b-1"].moved
    e = refused(game, "blue", {"type": LINE, "unit": "b-1", "facing": "W"})
    assert e.rule == "19.7 C"  # moved already


def test_19_7_c_no_disengaging_nor_pivoting_in_an_ezoc() -> None:
    game = formed(lined(b1="0504"))
    put(game, "r-1", "0604")  # b-1's front hex
    assert refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0504", "0404"]}).rule == "19.7 C"
    assert refused(game, "blue", {"type": LINE, "unit": "b-1", "facing": "W"}).rule == "19.7 C"


def test_19_7_c_rough_terrain_disrupts_a_treeline_does_not() -> None:
    data = lined()
    data["map"]["hexes"]["0505"] = "hill"
    data["tec"]["hexsides"]["treeline"] = {"name": "Treeline", "line": True}
    data["map"]["hexsides"].append({"hexes": ["0404", "0504"], "features": ["treeline"]})
    game = formed(data)
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0505"]})
    s = game.state.units["b-1"]
    assert s.disrupted and s.facing is None  # the hill: disrupted, and so out of line
    game = formed(data)
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504"]})
    assert not game.state.units["b-1"].disrupted and game.state.units["b-1"].facing == "E"


# --- 19.7 D combat --------------------------------------------------------------------------------------------------
def _blue_combat(b1: str, red: dict[str, str], facing: str = "E", dice: list[int] | None = None) -> Any:
    """Blue's combat phase with b-1 in line and red infantry put where the test needs it after the line formed."""
    data = lined(b1=b1)
    place(data, "r-1", "1008")
    for i, uid in enumerate(red):
        add_infantry(data, uid, f"100{i + 1}", side="red", formation="7")
    game = formed(data, facing)
    for uid, h in red.items():
        put(game, uid, h)
    end(game)
    load(game, dice or [])
    return game


def test_19_7_d_attacks_only_into_front_hexes_and_only_skirmishes() -> None:
    game = _blue_combat("0404", {"r-f": "0504", "r-s": "0403"})
    flank = {"type": "attack", "target": "0403", "attackers": ["b-1"], "primary": "b-1"}
    assert refused(game, "blue", flank).rule == "19.7 D"
    front = {"type": "attack", "target": "0504", "attackers": ["b-1"], "primary": "b-1"}
    for tactic in ("press", "disengage"):
        assert refused(game, "blue", {**front, "tactic": tactic}).rule == "19.7 D"
    from server.rules.standard.tactics import defence_tactic_problem
    ctx = StdCtx.of(game)
    problem = defence_tactic_problem(ctx.sc, ctx.st.units, "last_stand", ["b-1"], "none")
    assert problem is not None and problem.startswith("19.7 D")  # S65: defending, no tactic either


def test_19_7_d_plus_two_halved_attacking_and_the_markers_ma_skirmishing() -> None:
    game = _blue_combat("0404", {"r-f": "0504"})
    front = {"type": "attack", "target": "0504", "attackers": ["b-1"], "primary": "b-1"}
    part = game.preview("blue", front)["attackers"][0]
    assert part["printed"] == 8 and part["value"] == 4 and "19.7 D" in part["halvings"]  # (6 + 2) / 2
    game = _blue_combat("0404", {"r-f": "0604"})  # two hexes off, in its front arc, 0504/0505 empty
    skirmish = {"type": "attack", "target": "0604", "attackers": ["b-1"], "primary": "b-1", "tactic": "skirmish"}
    p = game.preview("blue", skirmish)
    assert p["legal"], p
    assert p["attackers"][0]["value"] == 2  # the marker's MA, not the unit's 4


def test_19_7_d_defending_plus_two_from_the_front_tripled_flank_doubled_rear() -> None:
    data = lined()
    place(data, "r-1", "1008")
    for i, uid in enumerate(("r-f", "r-s", "r-r")):
        add_infantry(data, uid, f"100{i + 1}", side="red", formation="7")
    game = formed(data)
    end(game, 2)  # red's movement phase
    for uid, h in (("r-f", "0504"), ("r-s", "0403"), ("r-r", "0304")):
        put(game, uid, h)
    end(game)  # red's combat phase
    for uid, value, why in (("r-f", 5, None), ("r-s", 15, "19.7 D flank"), ("r-r", 10, "19.7 D rear")):
        p = game.preview("red", {"type": "attack", "target": "0404", "attackers": [uid], "primary": uid})
        assert p["legal"], p
        assert p["attackers"][0]["value"] == value and p["attackers"][0]["doubled"] == why
        assert p["defenders"][0]["value"] == (8 if uid == "r-f" else 6)  # +2 against a unit in a front hex


def test_19_7_d_long_range_fire_as_a_bombardment_with_the_markers_cf() -> None:
    game = _blue_combat("0404", {"r-t": "0604", "r-w": "0204"}, dice=[4, 1])
    opts = game.options("blue", ["b-1"])
    assert {"type": FIRE, "unit": "b-1", "target": "0604"} in opts["line_fire"]
    assert refused(game, "blue", {"type": FIRE, "unit": "b-1", "target": "0204"}).rule == "19.7 D"  # not its front
    events = submit(game, "blue", {"type": FIRE, "unit": "b-1", "target": "0604"})
    combat = next(e for e in events if e["type"] == "combat")
    assert combat["differential"] == 2 and combat["rule"] == "8.5"  # the marker's CF alone
    assert game.state.units["b-1"].attacked
    assert refused(game, "blue", {"type": FIRE, "unit": "b-1", "target": "0604"}).rule == "7.5"


def test_19_7_d_no_long_range_fire_in_an_ezoc() -> None:
    game = _blue_combat("0404", {"r-t": "0604", "r-f": "0504"})
    assert refused(game, "blue", {"type": FIRE, "unit": "b-1", "target": "0604"}).rule == "19.7 D"


def test_19_7_bots_are_offered_every_line_command() -> None:
    import random
    game = new_game(lined(), [])
    cmds = list(game.legal_commands("blue", random.Random(0), 400))
    forms = {c["facing"] for c in cmds if c["type"] == LINE and c.get("unit") == "b-1"}
    assert forms == {"E", "NNE", "NNW", "W", "SSW", "SSE"}
    game = formed()
    cmds = list(game.legal_commands("blue", random.Random(0), 400))
    mine = [c for c in cmds if c.get("unit") == "b-1" or c.get("units") == ["b-1"]]
    assert {c["facing"] for c in mine if c["type"] == LINE and "facing" in c} == {"NNE", "NNW", "W", "SSW", "SSE"}
    assert {"type": LINE, "unit": "b-1", "on": False} in mine
    assert {"0304", "0305"} <= set(game.options("blue", ["b-1"])["normal"]["reachable"])  # the back-steps
