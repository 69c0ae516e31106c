"""The card's charts as R17 reads them (tables.py): every chart used as printed, d10s read 0-9 (R17.1)."""

from __future__ import annotations

from server.rules.musket_and_pike.tables import (
    CONTINUATION,
    INTERCEPTION,
    ORDERS_CHANGE,
    PREEMPTION,
    Condition,
    Mode,
    Morale,
    Order,
    art_result,
    casualty_threshold,
    cc_result,
    chance_at_most,
    hi_result,
    light_result,
    matrix,
    movement_allowance,
    pursuit_result,
    range_modifier,
    replacement_result,
)


def test_4_3_4_4_continuation_and_preemption_ranges_as_printed() -> None:
    assert [CONTINUATION[o] for o in Order] == [3, 2, 1, None]  # Rally: NA
    assert [PREEMPTION[o] for o in Order] == [4, 3, 2, None]


def test_5_7_orders_change_table_rows_and_columns() -> None:
    assert ORDERS_CHANGE[Order.MAKE_READY][Order.RALLY] == 6
    assert ORDERS_CHANGE[Order.RALLY][Order.CHARGE] == 1
    assert ORDERS_CHANGE[Order.RECEIVE_CHARGE][Order.CHARGE] == 3
    assert ORDERS_CHANGE[Order.CHARGE][Order.RECEIVE_CHARGE] == 2
    assert all(o not in ORDERS_CHANGE[o] for o in Order)  # "-": no change to the same order


def test_9_3_interception_by_order() -> None:
    assert [INTERCEPTION[o] for o in Order] == [5, 4, 3, None]


def test_r17_2_a_range_includes_its_bounds_and_any_die_below_zero() -> None:
    assert chance_at_most(3, 0) == 0.4  # 0, 1, 2, 3
    assert chance_at_most(3, -2) == 0.6  # dice 0-5 make -2..3
    assert chance_at_most(1, 5) == 0.0
    assert chance_at_most(6, -5) == 1.0
    assert chance_at_most(None, 0) == 0.0  # NA


def test_5_3_3_replacement_results() -> None:
    assert replacement_result(0) == "return"
    assert replacement_result(1) == "replacement_until_next_turn"
    assert {replacement_result(d) for d in range(2, 10)} == {"replaced"}


def test_10_0_heavy_infantry_musketry_rows() -> None:
    assert hi_result(False, "front", -3)[0].label == "Miss"
    assert hi_result(False, "front", 1)[0].label == "1"
    assert hi_result(False, "flank", 2)[0].label == "Miss"
    assert hi_result(False, "salvo", 6)[0].label == "2"
    assert hi_result(True, "front", 8)[0].label == "2+FH+MC"
    assert hi_result(True, "salvo", 14) == (hi_result(True, "salvo", 9)[0], "9+")


def test_10_0_light_infantry_and_cavalry_fire_table() -> None:
    assert light_result("Commanded Muskets and Dragoons", 7)[0].label == "Miss"
    assert light_result("Commanded Muskets and Dragoons", 8)[0].hits == 1
    assert light_result("Cavalry Pistol Fire", 7)[0].hits == 1
    assert light_result("Cavalry Pistol Fire", 6)[0].label == "Miss"


def test_r17_6_the_double_column_is_the_stronger() -> None:
    assert art_result("3lb", False, 6)[0].label == "Miss"
    assert art_result("3lb", True, 6)[0].label == "FH"
    assert art_result("12-24lb", True, 4)[0].label == "FH"
    assert art_result("4-8lb", False, 12)[0].label == "FH+MC"
    assert art_result("4-8lb", True, 3)[0].label == "Miss"


def test_10_8_2_range_chart() -> None:
    assert range_modifier("3lb", 1) == 1
    assert range_modifier("3lb", 9) == -3
    assert range_modifier("3lb", 10) is None  # NA
    assert range_modifier("4-8lb", 14) == -3
    assert range_modifier("4-8lb", 15) is None
    assert range_modifier("12-24lb", 17) == -3


def test_12_5_casualty_threshold() -> None:
    assert casualty_threshold(6, 12) == 4
    assert casualty_threshold(7, 6) == 3
    assert casualty_threshold(8, 3) is None  # NA (R17.73)
    assert casualty_threshold(8, 15) == 7
    assert casualty_threshold(7, 1) is None


def test_11_0_close_combat_table_rows() -> None:
    assert cc_result(-2)[0].code == "AE"
    assert cc_result(2)[0].code == "AMB"
    assert cc_result(4)[0].advance == "none"
    assert cc_result(6)[0].advance == "must"
    assert cc_result(8)[0].code == "DMB" and cc_result(8)[0].pursuit
    assert cc_result(11)[0].code == "DE"


def test_11_3_8_matrix_and_11_6() -> None:
    assert matrix("cuirassier", "lt_inf") == 2
    assert matrix("arquebusier", "hedgehog") == -3
    assert matrix("hv_inf", "arquebusier") == 2
    assert matrix("lt_inf", "hv_inf") is None  # 11.6
    assert matrix("lt_inf", "lt_inf") == 0


def test_11_7_2_pursuit_columns() -> None:
    assert pursuit_result("other", 4) == "break_off"
    assert pursuit_result("other", 8) == "pursue"
    assert pursuit_result("other", 9) == "pursue_off_map"
    assert pursuit_result("tacw", 3) == "pursue"


def test_6_3_formation_effects_on_movement() -> None:
    n = Condition.NORMAL
    assert movement_allowance(7, Mode.LINE, Condition.SHAKEN, Morale.NORMAL) == 3
    assert movement_allowance(1, Mode.LINE, Condition.SHAKEN, Morale.NORMAL) == 1
    assert movement_allowance(4, Mode.COLUMN, n, Morale.NORMAL) == 6
    assert movement_allowance(4, Mode.HEDGEHOG, n, Morale.NORMAL) == 0
    assert movement_allowance(4, Mode.LINE, Condition.BROKEN, Morale.NORMAL) == 0
    assert movement_allowance(4, Mode.LINE, n, Morale.BROKEN) == 0
