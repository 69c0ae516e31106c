"""Movement in the Standard rules (seed 002 4.2-4.7) and the ZOC limits on it (6.2, 6.3)."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import IllegalCommand
from server.rules.standard.movement import (
    HALF,
    Move,
    check_entry,
    check_hq_move,
    check_move,
    check_trains_move,
    entry_shift_cost,
    ma_dice,
    may_disengage,
    movement_allowance,
    roll_reasons,
    trains_captured,
)

from .builder import find, standard_data, unit
from .ground import board

CAV = {"cf": 3, "mr": 4, "ma": 8, "charge": 4}
CAV_INEFF = {"cf": 1, "mr": 2, "ma": 10}
ART = {"attack": 3, "defense": 2, "range": 3, "ma": 3}
ART_INEFF = {"attack": 1, "defense": 1, "range": 2, "ma": 3}


def cost(data: dict[str, Any], units: list[str], path: list[str], ma: int = 20, **kw: Any) -> float:
    sc, state = board(data)
    return check_move(sc, state, Move(tuple(units), tuple(path), ma, **kw)) / HALF


def refusal(data: dict[str, Any], units: list[str], path: list[str], ma: int = 20, **kw: Any) -> IllegalCommand:
    sc, state = board(data)
    with pytest.raises(IllegalCommand) as e:
        check_move(sc, state, Move(tuple(units), tuple(path), ma, **kw))
    return e.value


def far() -> dict[str, Any]:
    """The test ground with red's brigade moved far away (no EZOC near blue)."""
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "r-1")["hex"] = "1008"
    return data


# --- 4.4 variable MA ------------------------------------------------------------------------------
def test_4_4_a_v_unit_rolls_one_die_and_the_roll_is_its_ma() -> None:
    data = standard_data()
    unit(data, "b-mil", kind="infantry", formation="1", steps=1, full={"cf": 2, "mr": 3, "ma": "V"})
    sc, units = board(data)
    s = units["b-mil"]
    assert roll_reasons(sc, s) == ["2.4"] and ma_dice(sc, s) == 1
    assert movement_allowance(sc, s, [5]) == 5
    with pytest.raises(ValueError, match="4.4"):
        movement_allowance(sc, s)


def test_4_4_a_printed_ma_above_six_rolls_two_dice_capped_at_the_printed_ma() -> None:
    data = standard_data()
    unit(data, "b-cav", kind="cavalry", formation="1", full=CAV, ineffective=CAV_INEFF)
    sc, units = board(data)
    s = units["b-cav"]
    s.disrupted = True
    assert ma_dice(sc, s) == 2
    assert movement_allowance(sc, s, [6, 5]) == 8 and movement_allowance(sc, s, [2, 3]) == 5
    with pytest.raises(ValueError, match="2 die"):
        movement_allowance(sc, s, [4])


def test_4_4_who_rolls_disrupted_overstacked_disengaging_fortune_of_war() -> None:
    sc, units = board(standard_data())
    s = units["b-1"]
    assert roll_reasons(sc, s) == []
    assert roll_reasons(sc, s, overstacked=True, disengaging=True, fortune=True) == ["5.2", "6.3", "12.4"]
    s.disrupted = True
    assert roll_reasons(sc, s) == ["2.8(2)"]
    assert movement_allowance(sc, s, [6]) == 4  # capped at the printed 4


def test_4_4_ineffective_units_roll_like_disrupted_ones() -> None:
    data = standard_data()
    unit(data, "b-cav", kind="cavalry", formation="1", full=CAV, ineffective=CAV_INEFF)
    sc, units = board(data)
    units["b-cav"].ineffective = True
    assert roll_reasons(sc, units["b-cav"]) == ["11.3"]
    assert movement_allowance(sc, units["b-cav"], [6, 6]) == 10  # the ineffective side's MA caps it


def test_4_4_leaders_hqs_and_trains_never_roll() -> None:
    data = standard_data()
    unit(data, "b-ldr", kind="leader", formation="1", leader={"combat": 1, "morale": 1, "movement": 2})
    sc, units = board(data)
    for uid in ("b-ldr", "b-hq", "b-tr"):
        assert roll_reasons(sc, units[uid], overstacked=True, disengaging=True, fortune=True) == []


def test_12_1_12_2_hq_and_trains_always_have_their_full_inactive_ma() -> None:
    sc, units = board(standard_data())
    assert movement_allowance(sc, units["b-hq"]) == 6 and movement_allowance(sc, units["b-tr"]) == 4


def test_4_7_march_allowance_nine_or_fifteen_or_rolled_plus_three() -> None:
    data = standard_data()
    unit(data, "b-cav", kind="cavalry", formation="1", full=CAV, ineffective=CAV_INEFF)
    unit(data, "b-art", kind="artillery", formation="1", hex="0302", full=ART, ineffective=ART_INEFF)
    sc, units = board(data)
    assert movement_allowance(sc, units["b-1"], marching=True) == 9
    assert movement_allowance(sc, units["b-art"], marching=True) == 9
    assert movement_allowance(sc, units["b-cav"], marching=True) == 15
    assert ma_dice(sc, units["b-1"], marching=True) == 1 and movement_allowance(sc, units["b-1"], [4], marching=True) == 7
    assert ma_dice(sc, units["b-cav"], marching=True) == 2
    assert movement_allowance(sc, units["b-cav"], [6, 6], marching=True) == 15


# --- 4.2, 4.3, 4.5 terrain --------------------------------------------------------------------------
def test_4_5_primary_plus_secondary_plus_hexside_costs() -> None:
    data = far()
    data["map"]["hexes"]["0504"] = "woods"
    data["map"]["secondary"]["0504"] = ["village"]
    data["map"]["hexsides"].append({"hexes": ["0404", "0504"], "features": ["stream"]})
    assert cost(data, ["b-1"], ["0404", "0504"]) == 2 + 0 + 1
    unit(data, "b-cav", kind="cavalry", formation="1", hex="0404", full=CAV, ineffective=CAV_INEFF)
    assert cost(data, ["b-cav"], ["0404", "0504"]) == 3 + 1 + 1


def test_4_3_a_unit_lacking_the_mp_may_not_enter_no_one_hex_minimum() -> None:
    data = far()
    data["map"]["hexes"]["0504"] = "woods"
    e = refusal(data, ["b-1"], ["0404", "0504"], ma=1)
    assert e.rule == "4.3" and "needs 2 MP" in e.message
    assert cost(data, ["b-1"], ["0404", "0504"], ma=2) == 2


def test_4_5_prohibited_terrain_and_hexsides() -> None:
    data = far()
    data["map"]["hexes"]["0504"] = "marsh"
    unit(data, "b-art", kind="artillery", formation="1", hex="0404", full=ART, ineffective=ART_INEFF)
    assert refusal(data, ["b-art"], ["0404", "0504"]).rule == "4.5"
    assert cost(data, ["b-1"], ["0404", "0504"]) == 3
    data = far()
    data["map"]["hexsides"].append({"hexes": ["0404", "0504"], "features": ["river"]})
    assert refusal(data, ["b-1"], ["0404", "0504"]).rule == "4.5"


def test_4_2_a_stack_moves_together_paying_its_highest_cost() -> None:
    data = far()
    data["map"]["hexes"]["0504"] = "woods"
    unit(data, "b-cav", kind="cavalry", formation="1", hex="0404", full=CAV, ineffective=CAV_INEFF)
    assert cost(data, ["b-1", "b-cav"], ["0404", "0504"]) == 3
    unit(data, "b-cav", kind="cavalry", formation="1", hex="0403", full=CAV, ineffective=CAV_INEFF)
    assert refusal(data, ["b-1", "b-cav"], ["0404", "0504"]).rule == "4.2"


def test_4_2_the_path_is_contiguous_from_the_stack() -> None:
    data = far()
    assert refusal(data, ["b-1"], ["0404", "0604"]).rule == "4.2"
    assert refusal(data, ["b-1"], ["0405", "0505"]).rule == "4.2"
    assert refusal(data, ["b-1"], ["0404", "0504", "0404"]).rule == "4.2"


# --- 4.6 roads and trails ----------------------------------------------------------------------------
def test_4_6_a_road_step_costs_one_mp_whatever_the_terrain() -> None:
    data = far()
    for h in ("0504", "0604"):
        data["map"]["hexes"][h] = "woods"
    data["map"]["roads"] = [{"path": ["0404", "0504", "0604"]}]
    assert cost(data, ["b-1"], ["0404", "0504", "0604"]) == 2
    assert cost(data, ["b-1"], ["0404", "0504", "0603"]) == 1 + 1  # off the road onto clear


def test_4_6_a_break_in_the_path_ends_it() -> None:
    """4.6: the road must cross the hexside too: two road hexes side by side without a road hexside are no road."""
    data = far()
    for h in ("0504", "0505"):
        data["map"]["hexes"][h] = "woods"
    data["map"]["roads"] = [{"path": ["0404", "0504"]}, {"path": ["0405", "0505"]}]
    assert cost(data, ["b-1"], ["0404", "0504", "0505"]) == 1 + 2


def test_4_6_trails_are_paths_too() -> None:
    data = far()
    data["map"]["hexes"]["0504"] = "woods"
    data["map"]["trails"] = [{"path": ["0404", "0504"]}]
    assert cost(data, ["b-1"], ["0404", "0504"]) == 1


def test_4_6_infantry_and_cavalry_pay_terrain_to_enter_an_ezoc_by_road_artillery_does_not() -> None:
    data = standard_data()  # red's brigade at 0704: 0604 is in its ZOC
    data["map"]["hexes"]["0604"] = "woods"
    data["map"]["roads"] = [{"path": ["0404", "0504", "0604"]}]
    assert cost(data, ["b-1"], ["0404", "0504", "0604"]) == 1 + 2
    unit(data, "b-art", kind="artillery", formation="1", hex="0404", full=ART, ineffective=ART_INEFF)
    assert cost(data, ["b-art"], ["0404", "0504", "0604"]) == 2


# --- 4.7 march movement --------------------------------------------------------------------------------
def test_4_7_marching_on_a_road_costs_half_an_mp() -> None:
    data = far()
    data["map"]["roads"] = [{"path": ["0404", "0504", "0604", "0704"]}]
    assert cost(data, ["b-1"], ["0404", "0504", "0604", "0704"], marching=True) == 1.5
    assert cost(data, ["b-1"], ["0404", "0504", "0604", "0704"]) == 3


def test_4_7_the_leftover_half_mp_is_lost_on_leaving_the_road() -> None:
    data = far()
    data["map"]["roads"] = [{"path": ["0404", "0504"]}, {"path": ["0604", "0704"]}]
    # 1/2 on the road, leaves it (the 1/2 left over is lost: 1), clear 1 -> 2, then road 1/2 -> 2.5
    assert cost(data, ["b-1"], ["0404", "0504", "0604", "0704"], marching=True) == 2.5


def test_4_7_no_half_mp_on_trails() -> None:
    data = far()
    data["map"]["trails"] = [{"path": ["0404", "0504", "0604"]}]
    assert cost(data, ["b-1"], ["0404", "0504", "0604"], marching=True) == 2


def test_4_7_a_full_mp_leaving_or_entering_a_hex_with_another_combat_unit() -> None:
    data = far()
    data["map"]["roads"] = [{"path": ["0404", "0504", "0604", "0704"]}]
    unit(data, "b-2", kind="infantry", formation="1", hex="0604", full={"cf": 4, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    # 0404->0504: 1/2; ->0604 (enters b-2's hex): 1; ->0704 (leaves it): 1
    assert cost(data, ["b-1"], ["0404", "0504", "0604", "0704"], marching=True) == 2.5


def test_4_7_march_may_not_enter_terrain_closed_to_it_except_along_a_road() -> None:
    data = far()
    data["map"]["hexes"]["0504"] = "woods"
    e = refusal(data, ["b-1"], ["0404", "0504"], marching=True)
    assert e.rule == "4.7" and "marching" in e.message
    data["map"]["roads"] = [{"path": ["0404", "0504"]}]
    assert cost(data, ["b-1"], ["0404", "0504"], marching=True) == 0.5


def test_4_7_r13_no_march_in_or_next_to_an_ezoc() -> None:
    data = standard_data()  # EZOC of r-1 (0704) covers 0604; b-1 at 0404 projects into 0504
    e = refusal(data, ["b-1"], ["0404", "0504"], marching=True)
    assert e.rule == "4.7" and "zone of control would reach" in e.message
    assert cost(data, ["b-1"], ["0404", "0504"]) == 1  # a normal move may
    assert cost(data, ["b-1"], ["0404", "0403", "0402"], marching=True) == 2  # away from it, it may march


# --- 6.2, 6.3 -------------------------------------------------------------------------------------------
def test_6_2_entering_an_ezoc_ends_the_move() -> None:
    data = standard_data()
    assert cost(data, ["b-1"], ["0404", "0504", "0604"]) == 2
    e = refusal(data, ["b-1"], ["0404", "0504", "0604", "0605"])
    assert e.rule == "6.2" and "ends the move" in e.message


def test_6_2_a_unit_in_an_ezoc_leaves_only_by_disengaging() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"
    e = refusal(data, ["b-1"], ["0604", "0504"])
    assert e.rule == "6.2" and "disengaging" in e.message
    assert cost(data, ["b-1"], ["0604", "0504"], disengaging=True) == 1


def test_6_2_disrupted_or_parenthesised_units_enter_an_ezoc_only_escorted() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["disrupted"] = True
    e = refusal(data, ["b-1"], ["0404", "0504", "0604"])
    assert e.rule == "6.2" and "without a leader" in e.message
    unit(data, "b-ldr", kind="leader", formation="1", hex="0404", leader={"combat": 1, "morale": 1, "movement": 2})
    assert cost(data, ["b-1", "b-ldr"], ["0404", "0504", "0604"]) == 2
    data = standard_data()
    find(data, "b-1")["full"]["parenthesized"] = True
    assert refusal(data, ["b-1"], ["0404", "0504", "0604"]).rule == "6.2"
    unit(data, "b-2", kind="infantry", formation="1", hex="0404", full={"cf": 4, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    assert cost(data, ["b-1", "b-2"], ["0404", "0504", "0604"]) == 2


def test_6_2_ineffective_leader_does_not_let_disrupted_units_enter_ezoc() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["disrupted"] = True
    unit(data, "b-ldr", kind="leader", formation="1", hex="0404", leader={"combat": 1, "morale": 1, "movement": 2},
         leader_ineffective={"combat": 0, "morale": 0, "movement": 1})
    next(s for s in data["setup"] if s["unit"] == "b-ldr")["ineffective"] = True
    e = refusal(data, ["b-1", "b-ldr"], ["0404", "0504", "0604"])  # 10.1: an ineffective leader has no effects
    assert e.rule == "6.2" and "10.1" in e.message
    find(data, "b-1")["full"]["parenthesized"] = True
    next(s for s in data["setup"] if s["unit"] == "b-1")["disrupted"] = False
    assert refusal(data, ["b-1", "b-ldr"], ["0404", "0504", "0604"]).rule == "6.2"  # nor a parenthesised one
    next(s for s in data["setup"] if s["unit"] == "b-ldr")["ineffective"] = False
    assert cost(data, ["b-1", "b-ldr"], ["0404", "0504", "0604"]) == 2  # effective again, he does


def test_6_3_disengaging_by_a_higher_printed_ma() -> None:
    data = standard_data()
    unit(data, "b-cav", kind="cavalry", formation="1", hex="0604", full=CAV, ineffective=CAV_INEFF)
    sc, units = board(data)
    assert may_disengage(sc, units, "b-cav", ["b-cav"], []) is None  # 8 > red's 4
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"
    sc, units = board(data)
    assert "higher printed MA" in (may_disengage(sc, units, "b-1", ["b-1"], []) or "")  # 4 is not above 4


def test_6_3_disengaging_by_leaving_a_friendly_unit_behind() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"
    unit(data, "b-2", kind="infantry", formation="1", hex="0604", full={"cf": 4, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    sc, units = board(data)
    assert may_disengage(sc, units, "b-1", ["b-1", "b-2"], ["b-2"]) is None
    assert may_disengage(sc, units, "b-1", ["b-1", "b-2"], []) is not None  # b-2 leaves too
    assert may_disengage(sc, units, "b-1", ["b-1"], ["b-2"]) is not None  # b-2 came after the phase began


def test_6_3_a_disengaging_unit_enters_no_other_ezoc() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0603"
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0702", full={"cf": 4, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    # 0603 is in r-1's ZOC; 0602 is in r-2's (0702's neighbours include 0602)
    e = refusal(data, ["b-1"], ["0603", "0602"], disengaging=True)
    assert e.rule == "6.3"


def test_4_2_an_enemy_occupied_hex_is_never_entered() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "r-1")["disrupted"] = True  # no ZOC to stop the move first (6.4)
    e = refusal(data, ["b-1"], ["0404", "0504", "0604", "0704"])
    assert e.rule == "4.2" and "occupied by the enemy" in e.message


# --- 12.1, 12.2 the HQ and the trains; 13.1 entering --------------------------------------------------------
def hq_trains(data: dict[str, Any], uid: str, path: list[str]) -> float:
    sc, units = board(data)
    check = check_hq_move if uid.endswith("hq") else check_trains_move
    return check(sc, units, uid, path) / HALF


def hq_trains_refusal(data: dict[str, Any], uid: str, path: list[str]) -> IllegalCommand:
    sc, units = board(data)
    check = check_hq_move if uid.endswith("hq") else check_trains_move
    with pytest.raises(IllegalCommand) as e:
        check(sc, units, uid, path)
    return e.value


def test_12_1_the_hq_moves_like_cavalry_with_its_full_ma() -> None:
    data = far()
    data["map"]["hexes"]["0304"] = "woods"
    assert hq_trains(data, "b-hq", ["0204", "0304"]) == 3  # cavalry's woods cost
    e = hq_trains_refusal(data, "b-hq", ["0204", "0304", "0404", "0504", "0604", "0704"])
    assert e.rule == "4.3"


def test_12_1_the_hq_never_enters_an_ezoc() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-hq")["hex"] = "0504"
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0404"
    e = hq_trains_refusal(data, "b-hq", ["0504", "0604"])
    assert e.rule == "12.1" and "zone of control" in e.message


def test_12_2_the_trains_goes_only_on_clear_road_and_trail_and_stops_in_clear() -> None:
    data = far()
    data["map"]["hexes"]["0204"] = "woods"
    assert hq_trains_refusal(data, "b-tr", ["0104", "0204"]).rule == "12.2"
    e = hq_trains_refusal(data, "b-tr", ["0104", "0105", "0106"])
    assert e.rule == "12.2" and "stops" in e.message
    assert hq_trains(data, "b-tr", ["0104", "0105"]) == 1


def test_12_2_the_trains_ma_doubles_on_the_road_and_crosses_only_bridges_and_fords() -> None:
    data = far()
    data["map"]["roads"] = [{"path": ["0104", "0105", "0106", "0107", "0108"]}]
    assert hq_trains(data, "b-tr", ["0104", "0105", "0106", "0107", "0108"]) == 2  # 4 road hexes at 1/2
    data = far()
    data["map"]["hexsides"].append({"hexes": ["0104", "0105"], "features": ["stream"]})
    assert hq_trains_refusal(data, "b-tr", ["0104", "0105"]).rule == "12.2"
    data["map"]["hexsides"][-1]["features"] = ["ford"]
    assert hq_trains(data, "b-tr", ["0104", "0105"]) == 1


def test_13_1_entry_shifts_along_the_edge_past_enemy_units_at_1_mp_a_hex() -> None:
    data = standard_data()
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0103",
         full={"cf": 4, "mr": 4, "ma": 4}, reduced={"cf": 2, "mr": 3, "ma": 4})
    sc, units = board(data)
    assert entry_shift_cost(sc, units, "blue", "0105", "0105") == 0
    assert entry_shift_cost(sc, units, "blue", "0103", "0103") is None  # enemy-occupied
    assert entry_shift_cost(sc, units, "blue", "0103", "0102") == 1
    assert entry_shift_cost(sc, units, "blue", "0103", "0104") == 1
    assert entry_shift_cost(sc, units, "blue", "0103", "0101") is None  # the shift stops at the first free hex
    assert entry_shift_cost(sc, units, "blue", "0105", "0106") is None  # nothing to shift away from


def test_12_1_while_the_hq_is_inactive_its_army_rolls_for_ma() -> None:
    sc, units = board(standard_data())
    assert roll_reasons(sc, units["b-1"], hq_inactive=True) == ["12.1"]


def test_12_2_entering_the_enemy_trains_hex_captures_it() -> None:
    data = far()
    next(s for s in data["setup"] if s["unit"] == "r-tr")["hex"] = "0504"
    sc, units = board(data)
    assert check_move(sc, units, Move(("b-1",), ("0404", "0504", "0604"), 4)) == 2 * HALF
    assert trains_captured(sc, units, "blue", ["0404", "0504", "0604"]) == ["r-tr"]
    assert trains_captured(sc, units, "blue", ["0404", "0405"]) == []


def test_12_2_no_friendly_unit_moves_through_its_own_trains() -> None:
    data = far()
    next(s for s in data["setup"] if s["unit"] == "b-tr")["hex"] = "0504"
    e = refusal(data, ["b-1"], ["0404", "0504", "0604"])
    assert e.rule == "12.2"


def test_12_1_an_enemy_hq_hex_is_not_entered_by_moving() -> None:
    data = far()
    next(s for s in data["setup"] if s["unit"] == "r-hq")["hex"] = "0504"
    assert refusal(data, ["b-1"], ["0404", "0504"]).rule == "4.2"


def entering(data: dict[str, Any]) -> dict[str, Any]:
    """b-2 (brigade) and b-bn (battalion) wait to enter at 0104 on turn 2."""
    unit(data, "b-2", kind="infantry", formation="1", hex=None, full={"cf": 4, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    unit(data, "b-bn", kind="battalion", formation="1", hex=None, full={"cf": 1, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    unit(data, "b-3", kind="infantry", formation="1", hex=None, full={"cf": 4, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    for uid in ("b-2", "b-bn", "b-3"):
        data["reinforcements"].append({"unit": uid, "turn": 2, "hex": "0104"})
    return data


def entry(data: dict[str, Any], uids: list[str], listed: str, path: list[str], ma: int = 4, **kw: Any) -> float:
    sc, units = board(data)
    from server.rules.kernel.state import UnitState

    for u in uids:
        units[u] = UnitState(u, None, status="offboard")
    return check_entry(sc, units, uids, listed, path, ma, **kw) / HALF


def entry_refusal(data: dict[str, Any], uids: list[str], listed: str, path: list[str], ma: int = 4,
                  **kw: Any) -> IllegalCommand:
    with pytest.raises(IllegalCommand) as e:
        entry(data, uids, listed, path, ma, **kw)
    return e.value


def test_13_1_the_entry_hex_is_paid_for_and_the_move_goes_on() -> None:
    data = entering(far())
    next(s for s in data["setup"] if s["unit"] == "b-tr")["hex"] = "0105"  # off the entry hex
    data["map"]["hexes"]["0104"] = "woods"
    assert entry(data, ["b-2"], "0104", ["0104"]) == 2
    assert entry(data, ["b-2"], "0104", ["0104", "0204", "0304"]) == 4
    assert entry_refusal(data, ["b-2"], "0104", ["0104", "0204", "0304", "0404"]).rule == "4.3"


def test_13_1_one_at_a_time_but_a_battalion_may_come_along() -> None:
    data = entering(far())
    next(s for s in data["setup"] if s["unit"] == "b-tr")["hex"] = "0105"
    assert entry(data, ["b-2", "b-bn"], "0104", ["0104", "0204"]) == 2
    assert entry_refusal(data, ["b-2", "b-3"], "0104", ["0104"]).rule == "13.1"
    next(s for s in data["setup"] if s["unit"] == "b-tr")["hex"] = "0104"
    assert entry_refusal(data, ["b-2"], "0104", ["0104"]).rule == "12.2"  # S12


def test_13_1_an_enemy_held_entry_hex_shifts_along_the_edge_at_one_mp_a_hex() -> None:
    data = entering(far())
    next(s for s in data["setup"] if s["unit"] == "b-tr")["hex"] = "0204"
    next(s for s in data["setup"] if s["unit"] == "r-1")["hex"] = "0104"
    assert entry(data, ["b-2"], "0104", ["0103"]) == 2  # 1 MP shift + 1 MP clear
    assert entry_refusal(data, ["b-2"], "0104", ["0104"]).rule == "13.1"


def test_13_1_entering_an_ezoc_is_allowed_and_ends_the_move() -> None:
    data = entering(far())
    next(s for s in data["setup"] if s["unit"] == "b-tr")["hex"] = "0105"
    next(s for s in data["setup"] if s["unit"] == "r-1")["hex"] = "0204"
    assert entry(data, ["b-2"], "0104", ["0104"]) == 1
    assert entry_refusal(data, ["b-2"], "0104", ["0104", "0103"]).rule == "6.2"


def test_13_1_4_7_a_reinforcement_moves_normally_thereafter_so_it_may_march() -> None:
    data = entering(far())
    next(s for s in data["setup"] if s["unit"] == "b-tr")["hex"] = "0105"
    path = ["0104", "0204", "0304", "0404", "0504", "0604", "0704"]
    assert entry_refusal(data, ["b-2"], "0104", path).rule == "4.3"  # 7 MP: more than its printed 4
    assert entry(data, ["b-2"], "0104", path, 9, marching=True) == 7  # 4.7: nine MP
    data["map"]["hexes"]["0104"] = "woods"
    e = entry_refusal(data, ["b-2"], "0104", ["0104", "0204"], 9, marching=True)
    assert e.rule == "4.7"  # the entry hex is entered: terrain closed to marching closes it


def test_13_1_4_7_no_march_when_the_entry_is_in_or_next_to_an_ezoc() -> None:
    data = entering(far())
    next(s for s in data["setup"] if s["unit"] == "b-tr")["hex"] = "0105"
    next(s for s in data["setup"] if s["unit"] == "r-1")["hex"] = "0304"  # its ZOC covers 0204
    e = entry_refusal(data, ["b-2"], "0104", ["0104"], 9, marching=True)  # b-2's ZOC would reach 0204 (R13)
    assert e.rule == "4.7" and "zone of control" in e.message
    assert entry(data, ["b-2"], "0104", ["0104"], 4) == 1  # a normal entry may
