"""Recovery in the Standard rules (seed 002 11.1-11.3, with 14.2 and R13)."""

from __future__ import annotations

import pytest

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
from .play import new_game, refused, submit

LEADER = {"combat": 1, "morale": 2, "movement": 2}
LEADER_INEFF = {"combat": 0, "morale": 1, "movement": 1}


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


def test_11_3_an_ineffective_leader_checks_at_his_own_morale_rating() -> None:
    data = standard_data()
    unit(data, "b-ldr", kind="leader", formation="1", hex="0404", leader=LEADER, leader_ineffective=LEADER_INEFF)
    sc, units = board(data)
    s = units["b-ldr"]
    s.ineffective = True
    assert recovery_mode(sc, s, in_ezoc=False, march_eligible=False, night=False, attacking=False) == CHECK
    assert recovery_rating(sc, s) == 1  # 10.3's morale rating, on the side now showing (S14)


@pytest.mark.parametrize(("die", "recovers"), [(1, True), (2, False)])
def test_11_3_a_leader_who_began_the_phase_in_an_ezoc_recovers_by_a_morale_check(die: int, recovers: bool) -> None:
    data = standard_data()
    unit(data, "b-ldr", kind="leader", formation="1", hex="0604", leader=LEADER, leader_ineffective=LEADER_INEFF)
    data["setup"] = [dict(s, hex="0604") if s["unit"] == "b-1" else s for s in data["setup"]]  # in r-1's EZOC
    data["setup"] = [dict(s, ineffective=True) if s["unit"] == "b-ldr" else s for s in data["setup"]]
    game = new_game(data, [die])
    submit(game, "blue", {"type": "move", "units": ["b-ldr"], "path": ["0604", "0504", "0404"]})  # 10.1: freely
    events = submit(game, "blue", {"type": "recover", "unit": "b-ldr"})
    # 11.1: not eligible for march movement throughout the turn (he began it in an EZOC): a morale check
    assert [e["die"] for e in events if e["type"] == "morale"] == [die]
    assert game.state.units["b-ldr"].ineffective is not recovers
    assert refused(game, "blue", {"type": "recover", "unit": "b-ldr"}).rule == "11.1"


def test_11_3_a_leader_away_from_any_ezoc_all_phase_recovers_automatically() -> None:
    data = standard_data()
    unit(data, "b-ldr", kind="leader", formation="1", hex="0504", leader=LEADER, leader_ineffective=LEADER_INEFF)
    data["setup"] = [dict(s, ineffective=True) if s["unit"] == "b-ldr" else s for s in data["setup"]]
    game = new_game(data, [])
    events = submit(game, "blue", {"type": "recover", "unit": "b-ldr"})  # next to an EZOC, but he exerts no ZOC
    assert not game.state.units["b-ldr"].ineffective
    assert [e["type"] for e in events if e["type"] in ("morale", "recovered")] == ["recovered"]
