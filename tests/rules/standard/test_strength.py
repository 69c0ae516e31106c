"""Combat strength and the differential in the Standard rules (seed 002 7.7 with 2.4, 2.8(3), 5.3, 8.1)."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.standard.crt import crt_column
from server.rules.standard.strength import attacker_strength, defender_strength, differential, halve

from .builder import find, standard_data, unit
from .ground import board

ART = {"full": {"attack": 4, "defense": 2, "range": 3, "ma": 3}, "ineffective": {"attack": 1, "defense": 1, "range": 2, "ma": 3}}
INF = {"full": {"cf": 4, "mr": 4, "ma": 4}, "reduced": {"cf": 2, "mr": 3, "ma": 4}}


def adjacent() -> dict[str, Any]:
    """b-1 (CF 6) at 0604 next to r-1 (CF 5) at 0704."""
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"
    return data


@pytest.mark.parametrize("value, times, expected", [(5, 0, 5), (5, 1, 3), (6, 1, 3), (1, 1, 1), (9, 2, 1), (9, 3, 1),
                                                    (0, 1, 0), (0, 2, 0)])
def test_7_7_halved_once_rounds_up_twice_is_one_zero_stays_zero(value: int, times: int, expected: int) -> None:
    assert halve(value, times) == expected


def test_7_7_the_differential_is_attack_total_minus_defence_total() -> None:
    sc, units = board(adjacent())
    diff, att, dfn = differential(sc, units, ["b-1"], ["r-1"], "0704")
    assert (diff, att[0].value, dfn[0].value) == (1, 6, 5)
    assert crt_column(diff) == 4


def test_2_4_a_parenthesised_cf_is_halved_attacking_not_defending() -> None:
    data = adjacent()
    find(data, "b-1")["full"]["parenthesized"] = True
    find(data, "r-1")["full"]["parenthesized"] = True
    sc, units = board(data)
    assert attacker_strength(sc, units, "b-1", "0704").value == 3
    assert defender_strength(sc, units, "r-1").value == 5


def test_2_8_3_disruption_halves_an_attacker_once_even_if_parenthesised() -> None:
    data = adjacent()
    next(s for s in data["setup"] if s["unit"] == "b-1")["disrupted"] = True
    sc, units = board(data)
    a = attacker_strength(sc, units, "b-1", "0704")
    assert (a.value, a.halvings) == (3, ("2.8(3)",))
    find(data, "b-1")["full"]["parenthesized"] = True
    sc, units = board(data)
    assert attacker_strength(sc, units, "b-1", "0704").value == 3


def test_2_8_3_a_disrupted_defender_is_not_halved() -> None:
    data = adjacent()
    next(s for s in data["setup"] if s["unit"] == "r-1")["disrupted"] = True
    sc, units = board(data)
    assert defender_strength(sc, units, "r-1").value == 5


def test_7_7_terrain_halvings_are_cumulative() -> None:
    data = adjacent()
    data["map"]["secondary"]["0704"] = ["crest"]  # halves infantry attacking into it
    data["map"]["hexsides"].append({"hexes": ["0604", "0704"], "features": ["stream"]})  # halves across
    sc, units = board(data)
    a = attacker_strength(sc, units, "b-1", "0704")
    assert a.halvings == ("7.7 Crest", "7.7 across Stream") and a.value == 1
    data["map"]["hexsides"] = []
    sc, units = board(data)
    assert attacker_strength(sc, units, "b-1", "0704").value == 3


def test_2_2_7_7_a_clear_hexside_beside_woods_halves_as_the_tec_says() -> None:
    data = adjacent()
    data["map"]["hexes"]["0604"] = "woods"
    sc, units = board(data)
    assert attacker_strength(sc, units, "b-1", "0704").value == 6  # the test TEC's woods halve cavalry only
    data["tec"]["clear_hexsides"] = {"woods_edge": {"name": "Edge of the woods", "beside": ["woods"],
                                                    "halves_attack_across": ["infantry"]}}
    sc, units = board(data)
    a = attacker_strength(sc, units, "b-1", "0704")
    assert a.halvings == ("7.7 across Edge of the woods",) and a.value == 3


def test_7_7_terrain_halves_by_class_into_out_of_and_on_defence() -> None:
    data = adjacent()
    data["map"]["hexes"]["0704"] = "woods"  # halves cavalry attacking into it
    unit(data, "b-cav", kind="cavalry", formation="1", hex="0604", full={"cf": 4, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    data["tec"]["terrain"]["woods"]["halves_defense"] = ["infantry"]
    data["tec"]["terrain"]["hill"]["halves_attack_out_of"] = ["infantry"]
    data["map"]["hexes"]["0604"] = "hill"
    sc, units = board(data)
    assert attacker_strength(sc, units, "b-cav", "0704").value == 2
    assert attacker_strength(sc, units, "b-1", "0704").halvings == ("7.7 out of Hill",)
    assert defender_strength(sc, units, "r-1").value == 3


def test_5_3_units_in_an_overstacked_hex_are_halved_attacking_and_defending() -> None:
    data = adjacent()
    for i in range(3):
        unit(data, f"r-x{i}", side="red", kind="infantry", formation="7", hex="0704", **INF)
    sc, units = board(data)
    assert defender_strength(sc, units, "r-1").halvings == ("5.3",)
    assert defender_strength(sc, units, "r-1").value == 3


def test_8_1_artillery_attacks_with_attack_and_defends_with_defence() -> None:
    data = adjacent()
    unit(data, "b-art", kind="artillery", formation="1", hex="0603", **ART)
    unit(data, "r-art", side="red", kind="artillery", formation="7", hex="0704", **ART)
    sc, units = board(data)
    assert attacker_strength(sc, units, "b-art", "0704").value == 4
    assert defender_strength(sc, units, "r-art").value == 2
