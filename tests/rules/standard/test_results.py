"""What each CRT result does in the Standard rules (seed 002 7.8 through R12), with the owner's choices."""

from __future__ import annotations

import pytest

from server.rules.standard.crt import CRT
from server.rules.standard.results import (
    DISRUPT,
    DISRUPT_RETREAT,
    EXCHANGE,
    NONE,
    RETREAT,
    ROUT,
    STEP_LOSS,
    Outcome,
    outcomes,
)


def effects(cell: str, passed: bool | None, disrupted: bool = False) -> list[tuple[str | None, str]]:
    return [(o.side, o.effect) for o in outcomes(cell, passed, disrupted)]


def test_7_8_ne_does_nothing() -> None:
    assert effects("NE", None) == [(None, NONE)]


def test_7_8_r_is_the_owners_choice_disrupt_or_retreat() -> None:
    assert effects("Dr", None) == [("defender", DISRUPT), ("defender", RETREAT)]
    assert effects("Ar", None) == [("attacker", DISRUPT), ("attacker", RETREAT)]


def test_7_8_r_with_the_primary_already_disrupted_must_retreat() -> None:
    assert effects("Dr", None, disrupted=True) == [("defender", RETREAT)]


def test_7_8_c_pass_applies_the_parenthesised_result_fail_is_r() -> None:
    assert effects("Dc(NE)", True) == [(None, NONE)]
    assert effects("Dc(NE)", False) == [("defender", DISRUPT), ("defender", RETREAT)]
    assert effects("Ac(NE)", False, disrupted=True) == [("attacker", RETREAT)]


def test_7_8_x_pass_is_a_step_loss_or_by_choice_disrupt_and_retreat() -> None:
    assert effects("Dx", True) == [("defender", STEP_LOSS), ("defender", DISRUPT_RETREAT)]
    assert effects("Dx", False) == [("defender", DISRUPT_RETREAT)]
    assert effects("Ax", False) == [("attacker", DISRUPT_RETREAT)]


def test_7_8_m_fail_routs_and_gives_the_attacker_a_fow() -> None:
    (o,) = outcomes("Dm(Dx)", False, False)
    assert o == Outcome("defender", ROUT, advance=True, fow_attacker=True)


def test_7_8_m_pass_applies_the_parenthesised_result_with_the_same_check() -> None:
    assert effects("Dm(Dx)", True) == [("defender", STEP_LOSS), ("defender", DISRUPT_RETREAT)]
    assert effects("Dm(Dr)", True) == [("defender", DISRUPT), ("defender", RETREAT)]


def test_7_8_ex_costs_each_primary_a_step() -> None:
    assert effects("Ex Leader", None) == [("both", EXCHANGE)]


def test_7_12_attackers_advance_only_when_defenders_retreat_or_rout() -> None:
    assert all(not o.advance for o in outcomes("Dx", True, False) if o.effect == STEP_LOSS)
    assert all(o.advance == (o.effect in (RETREAT, DISRUPT_RETREAT, ROUT)) for o in outcomes("Dm(Dr)", True, False))
    assert all(not o.advance for cell in ("Ar", "Ax", "Ex") for o in outcomes(cell, False, False))


def test_7_8_checked_results_need_the_check() -> None:
    with pytest.raises(ValueError, match="7.8"):
        outcomes("Dx", None, False)


@pytest.mark.parametrize("passed", [True, False])
@pytest.mark.parametrize("disrupted", [True, False])
def test_7_8_every_cell_of_the_table_has_at_least_one_outcome(passed: bool, disrupted: bool) -> None:
    for row in CRT:
        for cell in row:
            got = outcomes(cell, passed, disrupted)
            assert got and all(o.side in (None, "attacker", "defender", "both") for o in got)
