"""Morale checks in the Standard rules (seed 002 2.4, 2.8(5), 10.3, 14.2(2), 14.3(1), R13)."""

from __future__ import annotations

import pytest

from server.rules.standard.morale import morale_passes


@pytest.mark.parametrize("die, mr, ok", [(4, 4, True), (5, 4, False), (1, 0, True), (6, 9, False), (3, 3, True)])
def test_2_4_a_roll_above_the_mr_fails_one_passes_six_fails(die: int, mr: int, ok: bool) -> None:
    assert morale_passes(die, mr) is ok


def test_2_8_5_disrupted_units_check_at_mr_minus_two_but_still_pass_on_a_one() -> None:
    assert not morale_passes(3, 4, disrupted=True)
    assert morale_passes(2, 4, disrupted=True)
    assert morale_passes(1, 2, disrupted=True)


def test_11_1_r13_the_recovery_check_drops_the_minus_two() -> None:
    assert morale_passes(4, 4, disrupted=True, recovery=True)


def test_10_3_a_leader_adds_his_morale_but_a_six_still_fails() -> None:
    assert morale_passes(5, 4, leader_morale=1)
    assert not morale_passes(6, 4, leader_morale=3)


def test_14_2_14_3_night_adds_two_and_twilight_one_to_the_roll() -> None:
    assert morale_passes(4, 4) and not morale_passes(4, 4, light="twilight") and not morale_passes(3, 4, light="night")
    assert morale_passes(2, 4, light="night") and morale_passes(1, 0, light="night")


def test_2_4_a_die_shows_one_to_six() -> None:
    with pytest.raises(ValueError):
        morale_passes(7, 4)
