"""Recovery in the Standard rules (seed 002 11.1-11.3, with 14.2 and R13)."""

from __future__ import annotations

from server.rules.kernel.state import UnitState
from server.rules.standard.recovery import (
    AUTOMATIC,
    CHECK,
    extra_replacement_allowed,
    recovery_mode,
    recovery_rating,
    step_replaceable,
)

from .builder import find, standard_data, unit
from .ground import board


def test_11_1_a_disrupted_unit_in_an_ezoc_may_not_recover() -> None:
    sc, units = board(standard_data())
    s = units["b-1"]
    s.disrupted = True
    assert recovery_mode(sc, s, in_ezoc=True, march_eligible=False, night=False, attacking=False) is None


def test_11_1_automatic_when_march_eligible_all_turn_else_a_check() -> None:
    sc, units = board(standard_data())
    s = units["b-1"]
    s.disrupted = True
    assert recovery_mode(sc, s, in_ezoc=False, march_eligible=True, night=False, attacking=False) == AUTOMATIC
    assert recovery_mode(sc, s, in_ezoc=False, march_eligible=False, night=False, attacking=False) == CHECK


def test_14_2_at_night_a_unit_not_attacking_recovers_automatically_even_in_an_ezoc() -> None:
    sc, units = board(standard_data())
    s = units["b-1"]
    s.disrupted = True
    assert recovery_mode(sc, s, in_ezoc=True, march_eligible=False, night=True, attacking=False) == AUTOMATIC
    assert recovery_mode(sc, s, in_ezoc=True, march_eligible=False, night=True, attacking=True) is None


def test_11_3_ineffective_units_recover_on_the_same_terms() -> None:
    data = standard_data()
    unit(data, "b-cav", kind="cavalry", formation="1", full={"cf": 3, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    sc, units = board(data)
    s = units["b-cav"]
    assert recovery_mode(sc, s, in_ezoc=False, march_eligible=False, night=False, attacking=False) is None
    s.ineffective = True
    assert recovery_mode(sc, s, in_ezoc=False, march_eligible=False, night=False, attacking=False) == CHECK
    assert recovery_rating(sc, s) == 2  # the ineffective side's MR


def test_11_1_r13_the_recovery_check_is_made_without_the_minus_two() -> None:
    sc, units = board(standard_data())
    s = units["b-1"]
    s.disrupted = True
    assert recovery_rating(sc, s) == 4


def test_11_2_replacement_steps_and_red_dots() -> None:
    data = standard_data()
    find(data, "b-1")["reduced"]["red_dot"] = True
    unit(data, "b-bn", kind="battalion", formation="1", full={"cf": 1, "mr": 4, "ma": 5, "red_dot": True},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    sc, _ = board(data)
    eliminated = UnitState("b-1", None, status="eliminated")
    assert "red dot" in (step_replaceable(sc, eliminated) or "")  # it would come back on its dotted reduced step
    reduced = UnitState("b-1", "0404", reduced=True)
    assert step_replaceable(sc, reduced) is None  # its full step has no dot
    assert "red dot" in (step_replaceable(sc, UnitState("b-bn", None, status="eliminated")) or "")
    assert step_replaceable(sc, UnitState("b-1", "0404")) is not None  # a full unit has no step to recover


def test_11_2_extra_replacements_by_morale_check_for_eliminated_units_only() -> None:
    data = standard_data()
    find(data, "b-1")["reduced"]["red_dot"] = True
    sc, _ = board(data)
    eliminated = UnitState("b-1", None, status="eliminated")
    assert "leader-assisted" in (extra_replacement_allowed(sc, eliminated, leader_assisted=False) or "")
    assert extra_replacement_allowed(sc, eliminated, leader_assisted=True) is None
    assert "reduced unit" in (extra_replacement_allowed(sc, UnitState("b-1", "0404", reduced=True),
                                                         leader_assisted=True) or "")
    assert extra_replacement_allowed(sc, UnitState("r-1", None, status="eliminated"), leader_assisted=False) is None
