"""Combat set-up in the Standard rules (seed 002 7.2-7.5)."""

from __future__ import annotations

from typing import Any

from server.rules.standard.combat import (
    attack_problem,
    defence_problem,
    pre_combat_result,
    triggered_defenders,
)

from .builder import find, standard_data, unit
from .ground import board

INF = {"full": {"cf": 4, "mr": 4, "ma": 4}, "reduced": {"cf": 2, "mr": 3, "ma": 4}}
ART = {"full": {"attack": 3, "defense": 2, "range": 3, "ma": 3}, "ineffective": {"attack": 1, "defense": 1, "range": 2, "ma": 3}}
BN = {"full": {"cf": 1, "mr": 4, "ma": 5}, "ineffective": {"cf": 0, "mr": 2, "ma": 5}}


def adjacent() -> dict[str, Any]:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"  # next to r-1 at 0704
    return data


def test_7_2_a_defender_exerting_a_zoc_on_an_attacker_triggers_a_combat() -> None:
    sc, units = board(adjacent())
    assert triggered_defenders(sc, units, "blue") == {"r-1": ("b-1",)}
    sc, units = board(standard_data())
    assert triggered_defenders(sc, units, "blue") == {}


def test_7_2_a_defender_exerting_no_zoc_triggers_nothing() -> None:
    data = adjacent()
    next(s for s in data["setup"] if s["unit"] == "r-1")["disrupted"] = True
    sc, units = board(data)
    assert triggered_defenders(sc, units, "blue") == {}


def test_7_2_each_defender_next_to_an_attacker_is_triggered() -> None:
    data = adjacent()
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0605", **INF)  # next to b-1 at 0604
    sc, units = board(data)
    trig = triggered_defenders(sc, units, "blue")
    assert set(trig) == {"r-1", "r-2"}
    # when each is owed it (once its triggers have fought, S20): tests/rules/standard/test_fortune.py


def test_7_3_2_a_defender_without_slr_fails_into_disruption_or_rout() -> None:
    assert pre_combat_result(True, False) is None
    assert pre_combat_result(False, False) == "disrupt"
    assert pre_combat_result(False, True) == "rout"


def test_7_4_one_artillery_one_battalion_one_other_and_an_effective_primary() -> None:
    data = adjacent()
    unit(data, "r-art", side="red", kind="artillery", formation="7", hex="0704", **ART)
    unit(data, "r-bn", side="red", kind="battalion", formation="7", hex="0704", **BN)
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0704", **INF)
    sc, units = board(data)
    assert defence_problem(sc, units, ["r-1", "r-art", "r-bn"], "r-1") is None
    assert "5.3" in (defence_problem(sc, units, ["r-1", "r-2"], "r-1") or "")
    units["r-bn"].ineffective = True
    assert "7.4" in (defence_problem(sc, units, ["r-1", "r-bn"], "r-bn") or "")
    units["r-1"].disrupted = True  # disrupted is not ineffective: it may still be primary
    assert defence_problem(sc, units, ["r-1", "r-bn"], "r-1") is None


def test_7_4_an_ineffective_primary_when_nothing_else_is_available() -> None:
    data = adjacent()
    unit(data, "r-bn", side="red", kind="battalion", formation="7", hex="0705", **BN)
    sc, units = board(data)
    units["r-bn"].ineffective = True
    assert defence_problem(sc, units, ["r-bn"], "r-bn") is None


def test_7_5_attack_an_adjacent_hex_the_unit_could_move_into() -> None:
    data = adjacent()
    sc, units = board(data)
    assert attack_problem(sc, units, ["b-1"], "b-1", "0704") is None
    data["map"]["hexsides"].append({"hexes": ["0604", "0704"], "features": ["river"]})
    sc, units = board(data)
    assert "could not move" in (attack_problem(sc, units, ["b-1"], "b-1", "0704") or "")


def test_7_5_not_twice_a_phase_and_a_hex_is_attacked_once() -> None:
    sc, units = board(adjacent())
    assert "has attacked" in (attack_problem(sc, units, ["b-1"], "b-1", "0704", attacked_units=["b-1"]) or "")
    assert "7.4" in (attack_problem(sc, units, ["b-1"], "b-1", "0704", attacked_hexes=["0704"]) or "")


def test_7_5_a_zero_cf_cannot_attack() -> None:
    data = adjacent()
    find(data, "b-1")["full"]["cf"] = 0
    sc, units = board(data)
    assert "zero" in (attack_problem(sc, units, ["b-1"], "b-1", "0704") or "")


def test_7_5_the_primary_attacker_is_not_artillery_or_ineffective_if_avoidable() -> None:
    data = adjacent()
    unit(data, "b-art", kind="artillery", formation="1", hex="0604", **ART)
    sc, units = board(data)
    assert "artillery" in (attack_problem(sc, units, ["b-1", "b-art"], "b-art", "0704") or "")
    assert attack_problem(sc, units, ["b-1", "b-art"], "b-1", "0704") is None
    assert attack_problem(sc, units, ["b-art"], "b-art", "0704") is None  # nothing else available


def test_7_5_attackers_from_several_hexes_each_within_5_3() -> None:
    data = adjacent()
    unit(data, "b-2", kind="infantry", formation="1", hex="0603", **INF)
    unit(data, "b-3", kind="infantry", formation="1", hex="0603", **INF)
    sc, units = board(data)
    assert attack_problem(sc, units, ["b-1", "b-2"], "b-1", "0704") is None
    assert "5.3" in (attack_problem(sc, units, ["b-1", "b-2", "b-3"], "b-1", "0704") or "")


def test_4_7_a_unit_that_marched_initiates_no_combat() -> None:
    sc, units = board(adjacent())
    assert "4.7" in (attack_problem(sc, units, ["b-1"], "b-1", "0704", marched=["b-1"]) or "")
