"""Zones of control in the Standard rules (seed 002 6.1, 6.4)."""

from __future__ import annotations

from server.rules.standard.zoc import zoc_of, zoc_targets

from .builder import standard_data, unit
from .ground import board

# 0704 is in an odd column: its neighbours are 0603 0604 0803 0804 0703 0705 (R1).
AROUND_0704 = {"0603", "0604", "0803", "0804", "0703", "0705"}


def test_6_1_every_combat_unit_exerts_a_zoc_into_the_six_hexes_around_it() -> None:
    sc, units = board(standard_data())
    assert zoc_of(sc, units, "red") == frozenset(AROUND_0704)


def test_6_1_battalions_squadrons_and_artillery_exert_one_too() -> None:
    data = standard_data()
    unit(data, "r-sq", side="red", kind="squadron", formation="7", hex="0707",
         full={"cf": 1, "mr": 4, "ma": 8, "charge": 2}, ineffective={"cf": 0, "mr": 2, "ma": 8})
    sc, units = board(data)
    assert "0706" in zoc_of(sc, units, "red")


def test_6_4_disrupted_and_ineffective_units_exert_none() -> None:
    sc, units = board(standard_data())
    units["r-1"].disrupted = True
    assert zoc_of(sc, units, "red") == frozenset()


def test_6_4_leaders_hqs_and_trains_exert_none() -> None:
    data = standard_data()
    unit(data, "r-ldr", side="red", kind="leader", formation="7", hex="0706",
         leader={"combat": 1, "morale": 1, "movement": 2})
    sc, units = board(data)
    assert zoc_of(sc, units, "red") == frozenset(AROUND_0704)  # r-hq at 0904 and r-tr at 1004 add nothing


def test_6_4_no_zoc_into_a_hex_the_unit_could_not_enter() -> None:
    data = standard_data()
    data["map"]["hexes"]["0604"] = "marsh"  # prohibited to artillery and cavalry
    unit(data, "r-art", side="red", kind="artillery", formation="7", hex="0704",
         full={"attack": 3, "defense": 2, "range": 3, "ma": 3}, ineffective={"attack": 1, "defense": 1, "range": 2, "ma": 3})
    sc, _ = board(data)
    assert "0604" not in zoc_targets(sc, "0704", "artillery")
    assert "0604" in zoc_targets(sc, "0704", "infantry")


def test_6_4_no_zoc_across_a_hexside_the_unit_could_not_cross() -> None:
    data = standard_data()
    data["map"]["hexsides"].append({"hexes": ["0704", "0604"], "features": ["river"]})
    sc, units = board(data)
    assert "0604" not in zoc_of(sc, units, "red")


def test_6_4_terrain_blocking_zoc_into_or_out_of_a_hex() -> None:
    data = standard_data()
    data["tec"]["terrain"]["fort"] = {"name": "Fort", "move": {"infantry": 2}, "blocks_zoc_into": True}
    data["tec"]["secondary"]["ridge"] = {"name": "Ridge", "blocks_zoc_out": True}
    data["map"]["hexes"]["0703"] = "fort"
    sc, units = board(data)
    assert zoc_of(sc, units, "red") == frozenset(AROUND_0704 - {"0703"})
    data["map"]["secondary"]["0704"] = ["ridge"]
    sc, units = board(data)
    assert zoc_of(sc, units, "red") == frozenset()
