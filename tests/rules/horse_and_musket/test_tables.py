"""Seed 003's tables in hexes (tables.py): R16.2's sticks, R16.5's formations, R16.11's rates (4.2.2), R16.14's
weapons (5.1.1, 5.1.4, 5.2.1), R16.13's charge test (4.1.1), R16.9's command table (3.t), R16.10's deck."""

from __future__ import annotations

from collections import Counter

import pytest

from server.rules.horse_and_musket import tables as t
from server.rules.horse_and_musket.tables import Kind


def test_r16_2_the_sticks_are_1_2_3_5_hexes_and_the_artillery_stick_15() -> None:
    assert (t.VS, t.S, t.M, t.L, t.ARTILLERY_STICK) == (1, 2, 3, 5, 15)
    assert [round(cm / 3.6) for cm in (5, 7.5, 12, 18, 54)] == [1, 2, 3, 5, 15]  # R16.2: to the nearest whole hex


def test_4_2_5_2_and_r16_20_9_one_level_down_from_each_stick() -> None:
    assert [t.level_down(x) for x in (5, 3, 2, 1, 0)] == [3, 2, 1, 0, 0]


@pytest.mark.parametrize(("kind", "formation", "good", "difficult"), [
    (Kind.CO, "line", 2, 1), (Kind.LI, "skirmish", 3, 2), (Kind.HC, "ranks", 5, 3), (Kind.LC, "column", 5, 3),
    (Kind.TC, "ranks", 5, 5), (Kind.ARTILLERY, "limbered", 3, 2), (Kind.ARTILLERY, "deployed", 0, 0),
    (Kind.WAGONS, "wagon", 3, 1)])
def test_4_2_2_r16_11_movement_rates_in_hexes(kind: Kind, formation: str, good: int, difficult: int) -> None:
    assert (t.rate(kind, formation, False), t.rate(kind, formation, True)) == (good, difficult)


def test_5_1_1_and_5_2_1_r16_14_weapon_ranges() -> None:
    assert t.RANGES == {"rifle": (2, 5), "musket": (2, 3), "carbine": (1, 2), "gun": (5, 15)}
    assert [t.is_long("musket", d) for d in (1, 2, 3)] == [False, False, True]
    assert [t.is_long("gun", d) for d in (5, 6, 15)] == [False, True, True]


def test_5_1_4_fire_needs_and_r16_3_default_weapons() -> None:
    assert t.FIRE_NEED == {Kind.CO: 4, Kind.LI: 5, Kind.LC: 6, Kind.TC: 6}
    assert [t.default_weapon(k) for k in (Kind.CO, Kind.LI, Kind.HC, Kind.LC, Kind.TC, Kind.ARTILLERY, Kind.WAGONS)] \
        == ["musket", "musket", "none", "carbine", "carbine", "gun", "none"]


def test_r16_5_firing_formations_and_basic_dice() -> None:
    assert t.fires_in(Kind.CO, "line") and not t.fires_in(Kind.CO, "column")
    assert t.fires_in(Kind.LC, "ranks") and not t.fires_in(Kind.HC, "ranks")
    assert t.fires_in(Kind.ARTILLERY, "deployed") and not t.fires_in(Kind.ARTILLERY, "limbered")
    assert (t.basic_dice("line"), t.basic_dice("ranks"), t.basic_dice("column")) == (4, 4, 1)  # 4.1.8.4


@pytest.mark.parametrize(("kind", "grade", "fresh", "staggered"), [
    (Kind.CO, "elite", 3, 4), (Kind.LI, "average", 4, 5), (Kind.CO, "levy", 5, None),
    (Kind.HC, "elite", 2, 3), (Kind.LC, "average", 3, 4), (Kind.TC, "levy", 4, 5)])
def test_4_1_1_r16_13_the_charge_test(kind: Kind, grade: str, fresh: int, staggered: int | None) -> None:
    assert (t.charge_need(kind, grade, False), t.charge_need(kind, grade, True)) == (fresh, staggered)


def test_3_t_r16_9_the_command_table_held_within_1_to_6() -> None:
    assert [t.command_result("incompetent", r) for r in (0, 1, 3, 5, 7)] == [
        ("none", 0), ("none", 0), ("half", 0), ("all", 1), ("all", 1)]
    assert [t.command_result("competent", r) for r in (1, 4, 6)] == [("half", 0), ("all", 0), ("all", 1)]
    assert [t.command_result("gifted", r) for r in (1, 2, 5)] == [("all", 0), ("all", 1), ("all", 2)]


def test_r16_10_the_designed_deck() -> None:
    assert Counter(t.DECK) == {t.AIDE: 4, t.FORCED_MARCH: 3, t.STEADY_LADS: 3, t.VOLLEY: 3, t.COLD_STEEL: 3}
    assert t.HAND_LIMIT == 3
