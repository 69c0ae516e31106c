"""Königgrätz's special rules (seed 002 19.2-19.6, 19.9, 19.10) as mechanisms a Standard scenario may switch on
(special.py, S51, S52, S66): ridge hexsides in the TEC (`ridge: true`, 19.2) blocking the line of sight unless an end
is adjacent; the `special_rules` block's needle gun (19.9), lethargy (19.5), open order (19.10), modified squares
(19.3) and battery positions (19.6, with 19.4's fieldworks).  19.7's line is test_line.py's.

Positions on builder.py's 10x8 clear map: a long-ranged blue battery at 0106 firing east along row 06; b-1 (CF 6)
at 0604 attacking r-1 (CF 5) at 0704 (test_game_combat.py's contact: die 3 = Ex)."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Game, ScenarioError
from server.rules.kernel.hexes import hexside_key
from server.rules.kernel.los import sight_line
from server.rules.standard.bombard import bombard_problem, has_los
from server.rules.standard.context import StdCtx
from server.rules.standard.movement import terrain_cost
from server.rules.standard.scenario import parse_standard_scenario

from .builder import standard_data, unit
from .fight import INF, add_infantry, combat, flag, ground
from .play import end, load, new_game, refused, submit

LONG_GUN = {"kind": "artillery", "formation": "1", "full": {"attack": 4, "defense": 1, "range": 10, "ma": 3},
            "ineffective": {"attack": 1, "defense": 0, "range": 2, "ma": 3}}
ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"}


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    return e.value.problems


# --- 19.2 ridge hexsides --------------------------------------------------------------------------------------------
def ridged(*sides: tuple[str, str]) -> dict[str, Any]:
    data = standard_data()
    data["tec"]["hexsides"]["ridge"] = {"name": "Ridge", "ridge": True}
    data["map"]["hexsides"] += [{"hexes": list(s), "features": ["ridge"]} for s in sides]
    return data


def middle_side() -> tuple[str, str]:
    """A hexside the line 0106 -> 0806 crosses, touching neither end nor the hexes next to them."""
    sc = parse_standard_scenario(standard_data(), "t")
    line = sight_line(sc.grid, "0106", "0806")
    near = {"0106", "0806"} | set(sc.grid.neighbors("0106")) | set(sc.grid.neighbors("0806"))
    return next(s for s in line.crossed if not set(s) & near)


def test_19_2_a_ridge_blocks_los_unless_an_end_is_adjacent() -> None:
    x, y = middle_side()
    data = ridged((x, y))
    unit(data, "b-art", "0106", **LONG_GUN)
    unit(data, "r-t", "0806", side="red", kind="infantry", formation="7", **INF)
    game = combat(data)
    ctx = StdCtx.of(game)
    assert not has_los(ctx, "0106", "0806")  # neither end is beside the ridge
    e = bombard_problem(ctx, "blue", "b-art", "0806")
    assert e is not None and e.startswith("8.6") and "line of sight" in e
    assert not has_los(ctx, "0806", "0106")  # for all purposes, either way
    # the observed (or the observing) unit beside the ridge, on either side of it, sees across
    for end_ in (x, y):
        assert has_los(ctx, "0106", end_) or hexside_key(x, y) not in sight_line(ctx.sc.grid, "0106", end_).crossed
        assert has_los(ctx, end_, "0106") or hexside_key(x, y) not in sight_line(ctx.sc.grid, end_, "0106").crossed
    far = next(h for h in ("0806", "0906", "1006") if hexside_key(x, y) in sight_line(ctx.sc.grid, x, h).crossed
               or hexside_key(x, y) in sight_line(ctx.sc.grid, y, h).crossed)
    assert has_los(ctx, x, far) and has_los(ctx, y, far) and has_los(ctx, far, x) and has_los(ctx, far, y)
    # without the ridge the same line is clear
    assert has_los(StdCtx.of(combat(standard_data())), "0106", "0806")


def test_19_2_a_ridge_is_otherwise_a_clear_hexside() -> None:
    x, y = middle_side()
    sc = parse_standard_scenario(ridged((x, y)), "t")
    clear = parse_standard_scenario(standard_data(), "t")
    for cls in ("infantry", "cavalry", "artillery", "leader", "trains"):
        assert sc.could_move(cls, x, y) and sc.could_move(cls, y, x)  # 4.5, 12.2: crossed as clear
        assert sc.zoc_from(cls, x) == clear.zoc_from(cls, x)  # 6.4: no ZOC blocked
    for cls in ("infantry", "cavalry", "artillery"):
        assert terrain_cost(sc, cls, x, y) == terrain_cost(clear, cls, x, y)  # 4.5: no extra cost
    assert sc.hexside_effects(x, y) == ()  # 7.7, 7.12, 7.13(3), 9.3(1): no combat effect, no bar to a charge
    assert sc.ridges == frozenset({hexside_key(x, y)})
    # a ridge with another effect is not 19.2's ridge
    data = ridged((x, y))
    data["tec"]["hexsides"]["ridge"]["move_add"] = {"infantry": 1}
    assert any(p == "tec.hexsides.ridge.move_add" and "19.2" in r for p, r in problems(data))


# --- 19.9 the needle gun --------------------------------------------------------------------------------------------
def needle(side: str) -> dict[str, Any]:
    data = standard_data()
    data["special_rules"] = {"needle_gun": {"side": side}}
    data["setup"] = [dict(s, hex="0604") if s["unit"] == "b-1" else s for s in data["setup"]]
    return data


def exchange(data: dict[str, Any]) -> tuple[Game, list[dict[str, Any]]]:
    game = new_game(data, [])
    end(game)
    load(game, [3, 2])  # +1: die 3 = Ex Leader (no leaders here)
    return game, submit(game, "blue", ATTACK)


def test_19_9_needle_gun_infantry_takes_no_loss_on_an_exchange_from_the_enemys_attack() -> None:
    game, events = exchange(needle("red"))  # blue attacks red's needle-gun infantry
    assert game.state.units["b-1"].reduced  # the attacker's primary loses its step
    assert not game.state.units["r-1"].reduced  # 19.9: the needle gun's infantry does not
    assert any(e.get("rule") == "19.9" for e in events)
    assert game.state.decision is None


def test_19_9_the_needle_gun_side_attacking_still_loses_on_an_exchange() -> None:
    game, _ = exchange(needle("blue"))  # blue's needle-gun infantry attacks
    assert game.state.units["b-1"].reduced and game.state.units["r-1"].reduced  # 7.8 as ever


def test_19_9_a_needle_gun_side_must_be_a_side() -> None:
    data = needle("prussia")
    assert any(p == "special_rules.needle_gun.side" and "prussia" in r for p, r in problems(data))


# --- 19.5 lethargy --------------------------------------------------------------------------------------------------
def lethargic(die: int, *, inactive: bool = False) -> tuple[Game, list[dict[str, Any]]]:
    """Red lethargic (19.5); red's movement phase of turn 1 begins with `die`."""
    data = standard_data()
    data["special_rules"] = {"lethargy": {"side": "red", "active": [1, 2, 3]}}
    if inactive:
        flag(data, "r-hq", inactive=True)
    game = new_game(data, [])
    end(game)  # blue's movement
    load(game, [die])
    return game, game.submit("blue", {"type": "end_phase"})  # blue's combat: red's movement begins


def test_19_5_lethargy_rolls_the_hq_active_on_1_to_3() -> None:
    game, events = lethargic(2, inactive=True)
    assert game.state.phase == "movement" and game.state.active == "red"
    assert any(e["type"] == "dice" and e.get("rule") == "19.5" and e["dice"] == [2] for e in events)
    assert "r-hq" not in game.state.extra["inactive"]  # flipped to its active side
    assert refused(game, "red", {"type": "flip", "unit": "r-hq"}).rule == "19.5"  # the die, not the owner, decides
    end(game)
    assert "r-hq" not in game.state.extra["inactive"]


def test_19_5_lethargy_leaves_the_hq_inactive_on_4_to_6() -> None:
    game, events = lethargic(5)
    assert any(e["type"] == "dice" and e.get("rule") == "19.5" and e["dice"] == [5] for e in events)
    assert "r-hq" in game.state.extra["inactive"]
    assert refused(game, "red", {"type": "flip", "unit": "r-hq"}).rule == "19.5"
    end(game)  # 12.1's recovery at the end of the phase does not apply: inactive for that turn
    assert "r-hq" in game.state.extra["inactive"]


def test_19_5_lethargy_is_only_the_named_sides() -> None:
    data = standard_data()
    data["special_rules"] = {"lethargy": {"side": "red"}}
    game = new_game(data, [])  # blue's movement phase: no roll
    assert game.state.dice_count == 0
    assert game.submit("blue", {"type": "flip", "unit": "b-hq"}) is not None  # 12.1's free choice


# --- the block ------------------------------------------------------------------------------------------------------
def test_19_a_misspelt_special_rule_is_named() -> None:
    data = standard_data()
    data["special_rules"] = {"needle_gn": {"side": "red"}}
    found = problems(data)
    assert [p for p, _ in found] == ["special_rules.needle_gn"]
    assert "did you mean 'needle_gun'" in found[0][1]
    data["special_rules"] = {"lethargy": {"side": "red", "activ": [1, 2]}}
    found = problems(data)
    assert [p for p, _ in found] == ["special_rules.lethargy.activ"]
    assert "did you mean 'active'" in found[0][1]


def test_19_without_the_block_nothing_changes() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    assert sc.special.needle_gun is None and sc.special.lethargy is None and sc.ridges == frozenset()


# --- 19.10 Prussian open order --------------------------------------------------------------------------------------
OO = "open_order"


def open_order(side: str = "blue", *, b1: str = "0404") -> dict[str, Any]:
    """Blue's (or red's) infantry may adopt open order (19.10); b-1 at `b1`."""
    data = standard_data()
    data["special_rules"] = {"open_order": {"side": side}}
    data["setup"] = [dict(s, hex=b1) if s["unit"] == "b-1" else s for s in data["setup"]]
    return data


def test_19_10_a_placed_at_the_start_of_the_movement_phase_on_unstacked_undisrupted_infantry() -> None:
    off = new_game(standard_data(), [])
    assert OO not in off.state.extra and OO not in off.view("blue")["standard"]  # the rule off: no state, no view
    assert refused(off, "blue", {"type": OO, "unit": "b-1"}).rule == "19.10"
    data = open_order()
    add_infantry(data, "b-2", "0304")
    add_infantry(data, "b-3", "0305")
    add_infantry(data, "b-4", "0306")
    flag(data, "b-4", disrupted=True)
    add_infantry(data, "b-5", "0306")
    game = new_game(data, [])
    assert game.state.extra[OO] == []
    assert refused(game, "blue", {"type": OO, "unit": "b-hq"}).rule == "19.10"  # only infantry
    assert refused(game, "blue", {"type": OO, "unit": "r-1"}).rule == "19.10"  # only the named side's
    assert refused(game, "blue", {"type": OO, "unit": "b-4"}).rule == "19.10"  # disrupted (and stacked)
    assert refused(game, "blue", {"type": OO, "unit": "b-5"}).rule == "19.10"  # stacked
    events = submit(game, "blue", {"type": OO, "unit": "b-1"})
    assert any(e.get("rule") == "19.10" for e in events)
    assert game.state.extra[OO] == ["b-1"]
    assert game.view("blue")["standard"][OO] == ["b-1"]  # the marker is shown
    assert refused(game, "blue", {"type": OO, "unit": "b-1"}).rule == "19.10"  # already in open order
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0304", "0204"]})
    assert refused(game, "blue", {"type": OO, "unit": "b-3"}).rule == "19.10"  # a unit has moved: too late
    # S52: removed voluntarily in the movement phase, not in an EZOC; the unit's move is then over
    submit(game, "blue", {"type": OO, "unit": "b-1", "on": False})
    assert game.state.extra[OO] == [] and game.state.units["b-1"].moved
    # in an EZOC: placed all the same, but not removed voluntarily
    game = new_game(open_order(b1="0604"), [])
    submit(game, "blue", {"type": OO, "unit": "b-1"})
    assert refused(game, "blue", {"type": OO, "unit": "b-1", "on": False}).rule == "19.10"
    # red's movement phase: only red's infantry, and red has none in open order
    red = new_game(open_order("red"), [])
    assert refused(red, "blue", {"type": OO, "unit": "b-1"}).rule == "19.10"
    end(red, 2)
    assert red.state.active == "red" and red.state.phase == "movement"
    submit(red, "red", {"type": OO, "unit": "r-1"})
    assert red.state.extra[OO] == ["r-1"]


def test_19_10_a_removed_when_stacked_or_disrupted() -> None:
    data = open_order()
    add_infantry(data, "b-2", "0304")
    game = new_game(data, [])
    submit(game, "blue", {"type": OO, "unit": "b-1"})
    events = submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0304", "0404"]})
    assert game.state.extra[OO] == []  # stacked with another unit
    assert any(e.get("rule") == "19.10" and e.get("unit") == "b-1" for e in events)
    game = new_game(open_order(), [])
    submit(game, "blue", {"type": OO, "unit": "b-1"})
    game.state.units["b-1"].disrupted = True  # as any result would
    submit(game, "blue", {"type": "flip", "unit": "b-hq"})  # any command: the sweep follows it
    assert game.state.extra[OO] == []  # disrupted
    game = new_game(open_order(), [])
    submit(game, "blue", {"type": OO, "unit": "b-1"})
    game.state.units["b-1"].status = "eliminated"
    game.state.units["b-1"].hex = None
    end(game)
    assert game.state.extra[OO] == []  # eliminated


def test_19_10_a_removed_when_the_unit_retreats() -> None:
    from server.rules.standard.context import StdCtx as Ctx
    from server.rules.standard.retreating import decide_retreat
    game = new_game(open_order(), [])
    submit(game, "blue", {"type": OO, "unit": "b-1"})
    ctx = Ctx.of(game)
    decide_retreat(ctx, {"units": ["b-1"], "rule": "7.9"}, {"path": ["0404", "0304"], "safe": True})
    assert ctx.st.extra[OO] == []


def test_19_10_b_open_order_cf_is_parenthesised_and_only_skirmish_or_disengage() -> None:
    game = new_game(open_order(b1="0604"), [])
    submit(game, "blue", {"type": OO, "unit": "b-1"})
    end(game)  # blue's combat phase
    p = game.preview("blue", ATTACK)
    part = p["attackers"][0]
    assert part["printed"] == 6 and part["value"] == 3 and "19.10" in part["halvings"]  # 2.4: halved attacking
    plain = combat(ground())
    assert plain.preview("blue", ATTACK)["attackers"][0]["value"] == 6
    for tactic in ("press", "charge"):
        assert refused(game, "blue", {**ATTACK, "tactic": tactic}).rule == "19.10"
    assert game.preview("blue", {**ATTACK, "tactic": "disengage"})["legal"]
    assert game.preview("blue", {**ATTACK, "tactic": "skirmish"}).get("rule") != "19.10"  # 7.13(1)'s own geometry
    # defending in open order: no last stand (nor countercharge)
    from server.rules.standard.tactics import defence_tactic_problem
    ctx = StdCtx.of(game)
    units = ctx.st.units
    problem = defence_tactic_problem(ctx.sc, units, "last_stand", ["b-1"], "none", open_order=["b-1"])
    assert problem is not None and problem.startswith("19.10")
    assert defence_tactic_problem(ctx.sc, units, "disengage", ["b-1"], "none", open_order=["b-1"]) is None
    assert defence_tactic_problem(ctx.sc, units, "last_stand", ["b-1"], "none") is None


def test_19_10_c_enemy_artillery_is_halved_against_open_order() -> None:
    from server.rules.standard import bombard
    data = open_order()
    unit(data, "r-art", "0904", side="red", **{**LONG_GUN, "formation": "7"})
    game = new_game(data, [])
    submit(game, "blue", {"type": OO, "unit": "b-1"})
    end(game, 3)  # red's combat phase
    assert game.state.active == "red" and game.state.phase == "combat"
    ctx = StdCtx.of(game)
    assert bombard.strength(ctx, ["r-art"], "b-1")[0] == 2  # 4 halved
    assert bombard.strength(ctx, ["r-art"], "b-hq")[0] == 4
    plain = new_game(data, [])  # no marker: the full attack
    end(plain, 3)
    assert bombard.strength(StdCtx.of(plain), ["r-art"], "b-1")[0] == 4
    load(game, [1, 1, 1, 1, 1, 1])
    events = game.submit("red", {"type": "bombard", "target": "0404", "artillery": ["r-art"]})
    while game.state.decision is not None and game.state.decision["kind"] == "bombard_unit":
        events += game.submit("red", {"type": "choose", "option": "b-1"})
    assert next(e for e in events if e["type"] == "combat")["differential"] == 2


def test_19_10_the_options_offer_it() -> None:
    game = new_game(open_order(), [])
    cmd = {"type": OO, "unit": "b-1"}
    assert cmd in game.ruleset.options(game, "blue", ["b-1"])["actions"]
    assert cmd in list(game.ruleset.legal_commands(game, "blue", __import__("random").Random(1), 10_000))
    submit(game, "blue", cmd)
    off = {"type": OO, "unit": "b-1", "on": False}
    acts = game.ruleset.options(game, "blue", ["b-1"])["actions"]
    assert cmd not in acts and off in acts  # S52: removal, out of an EZOC
    plain = new_game(standard_data(), [])
    assert not [c for c in plain.ruleset.options(plain, "blue", ["b-1"])["actions"] if c["type"] == OO]
    assert not [c for c in plain.ruleset.legal_commands(plain, "blue", __import__("random").Random(1), 10_000)
                if c["type"] == OO]


def test_19_10_a_misspelt_open_order_field_is_named() -> None:
    data = open_order()
    data["special_rules"] = {"open_order": {"sied": "blue"}}
    found = problems(data)
    assert ("special_rules.open_order.sied" in [p for p, _ in found])


# --- 19.3 modified squares ------------------------------------------------------------------------------------------
def squared(**fields: Any) -> dict[str, Any]:
    data = standard_data()
    data["special_rules"] = {"modified_squares": {"charged": "blue", "attacked": "red"}, **fields}
    return data


def test_19_3_no_square_markers_in_such_a_scenario() -> None:
    from server.rules.standard.squares import square_commands
    game = new_game(squared(), [])
    e = refused(game, "blue", {"type": "square", "unit": "b-1"})
    assert e.rule == "19.3"
    assert square_commands(StdCtx.of(game), "blue") == []
    plain = new_game(standard_data(), [])
    assert square_commands(StdCtx.of(plain), "blue")  # without the rule 9.5's squares are offered


def test_19_3_charged_infantry_treated_as_in_square_not_in_line_and_all_of_the_attacked_side() -> None:
    from server.rules.standard.squares import modified_square
    data = squared(line={"side": "blue"})
    game = new_game(data, [])
    ctx = StdCtx.of(game)
    assert modified_square(ctx, True, "b-1")  # blue infantry charged by red cavalry
    assert not modified_square(ctx, False, "b-1")  # only when charged (9.5 gives nothing against other attacks)
    assert modified_square(ctx, True, "r-1")  # red infantry, attacked by cavalry
    assert not modified_square(ctx, True, "b-hq")  # infantry only
    submit(game, "blue", {"type": "line", "unit": "b-1", "facing": "E"})
    assert not modified_square(StdCtx.of(game), True, "b-1")  # in line (19.7): not in square
    assert not modified_square(StdCtx.of(new_game(standard_data(), [])), True, "b-1")  # rule off


def test_19_3_the_square_bonus_in_a_charge() -> None:
    from server.rules.standard.strength import Mods, combat_differential
    game = new_game(squared(), [])
    ctx = StdCtx.of(game)
    plain = combat_differential(ctx.sc, ctx.st.units, ["r-1"], ["b-1"], "0404", Mods(cavalry_charge=True))
    sq = combat_differential(ctx.sc, ctx.st.units, ["r-1"], ["b-1"], "0404", Mods(cavalry_charge=True, vs_square=True))
    assert sq.differential == plain.differential - 2  # 9.5: +2 to the charged square's CF


# --- 19.6 battery positions -----------------------------------------------------------------------------------------
GUN3 = {"kind": "artillery", "formation": "1", "full": {"attack": 4, "defense": 1, "range": 3, "ma": 3},
        "ineffective": {"attack": 1, "defense": 0, "range": 2, "ma": 3}}


def fortified(*hexes: str, **fields: Any) -> dict[str, Any]:
    """Battery positions at `hexes`, each with all six hexsides protected."""
    data = standard_data()
    data["tec"]["secondary"]["battery"] = {"name": "Battery position", "battery_position": True}
    data["tec"]["hexsides"]["works"] = {"name": "Fieldworks", "protected": True, "halves_attack_across": ["infantry"]}
    sc = parse_standard_scenario(standard_data(), "t")
    for h in hexes:
        data["map"]["secondary"][h] = ["battery"]
        data["map"]["hexsides"] += [{"hexes": [h, n], "features": ["works"]} for n in sc.grid.neighbors(h)]
    data["special_rules"] = {"battery_positions": {"side": "blue", **fields}}
    return data


def test_19_6_plus_two_range_and_attack_across_a_protected_hexside() -> None:
    from server.rules.standard import bombard
    data = fortified("0306")
    unit(data, "b-art", "0306", **GUN3)
    unit(data, "r-t", "0806", side="red", kind="infantry", formation="7", **INF)  # five hexes: range 3 + 2
    game = combat(data)
    ctx = StdCtx.of(game)
    assert bombard_problem(ctx, "blue", "b-art", "0806") is None
    assert bombard.strength(ctx, ["b-art"], "r-t")[0] == 6  # 4 + 2
    problem = bombard_problem(ctx, "blue", "b-art", "0806", support=True)
    assert problem is not None and problem.startswith("8.7")  # no bonus in support
    plain = standard_data()
    unit(plain, "b-art", "0306", **GUN3)
    unit(plain, "r-t", "0806", side="red", kind="infantry", formation="7", **INF)
    pctx = StdCtx.of(combat(plain))
    assert (bombard_problem(pctx, "blue", "b-art", "0806") or "").startswith("8.7")
    assert bombard.strength(pctx, ["b-art"], "r-t")[0] == 4


def test_19_6_not_saxon_artillery_nor_across_an_unprotected_hexside() -> None:
    from server.rules.standard import bombard
    data = fortified("0306", exclude_formations=["2"])
    unit(data, "b-art", "0306", **{**GUN3, "formation": "2"})
    unit(data, "r-t", "0806", side="red", kind="infantry", formation="7", **INF)
    ctx = StdCtx.of(combat(data))
    assert bombard.strength(ctx, ["b-art"], "r-t")[0] == 4  # an excluded formation's battery (the Saxons)
    data = fortified("0306")
    data["map"]["hexsides"] = []  # the icon without protected hexsides
    unit(data, "b-art", "0306", **GUN3)
    unit(data, "r-t", "0806", side="red", kind="infantry", formation="7", **INF)
    ctx = StdCtx.of(combat(data))
    assert bombard.strength(ctx, ["b-art"], "r-t")[0] == 4
    bad = fortified("0306", exclude_formations=["9"])
    assert any(p.startswith("special_rules.battery_positions.exclude_formations") for p, _ in problems(bad))


def test_19_6_battery_positions_are_coordinated_with_one_another() -> None:
    from server.rules.standard.bombard import coordinated_groups, group_problem
    data = fortified("0306", "0308")  # two hexes apart: not adjacent
    unit(data, "b-a1", "0306", **GUN3)
    unit(data, "b-a2", "0308", **GUN3)
    unit(data, "r-t", "0607", side="red", kind="infantry", formation="7", **INF)
    game = combat(data, [6, 6])
    ctx = StdCtx.of(game)
    assert coordinated_groups(ctx, ["b-a1", "b-a2"], target="0607") == [(["b-a1", "b-a2"], None)]
    assert group_problem(ctx, "blue", ["b-a1", "b-a2"], None, "0607") is None
    assert group_problem(ctx, "blue", ["b-a1", "b-a2"], None) is not None  # without 19.6: 8.4's adjacency
    events = submit(game, "blue", {"type": "bombard", "target": "0607", "artillery": ["b-a1", "b-a2"],
                                   "groups": [["b-a1", "b-a2"]]})
    assert next(e for e in events if e["type"] == "combat")["differential"] == 12  # one fire: (4 + 2) * 2


def test_19_4_fieldworks_see_two_hexes_further_in_light_rain() -> None:
    data = fortified("0106")
    data["weather"] = {"start": "light"}
    unit(data, "b-art", "0106", **LONG_GUN)
    unit(data, "r-t", "0906", side="red", kind="infantry", formation="7", **INF)  # eight hexes: 6 + 2
    ctx = StdCtx.of(combat(data))
    assert bombard_problem(ctx, "blue", "b-art", "0906") is None
    data["map"]["hexsides"] = []
    ctx = StdCtx.of(combat(data))
    assert (bombard_problem(ctx, "blue", "b-art", "0906") or "").startswith("19.4")
