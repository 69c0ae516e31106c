"""The 2013 CRT (7.5 with RULINGS.md R14: R12's cells without DF and Ammo), morale (2.3) and halving (7.4)."""

from __future__ import annotations

import pytest

from server.rules import find_ruleset
from server.rules.quickplay_2013.crt import crt_result, crt_row, halve, morale_passes, parse_cell


def test_r14_the_table_is_r12_without_df_and_ammo() -> None:
    assert crt_row(-6) == ["Ax Leader", "Ax", "Ax", "Ar", "Ac(NE)", "NE"]
    assert crt_row(0) == ["Ar", "Ac(NE)", "NE", "Ex Leader", "Dc(NE)", "Dr"]
    assert crt_row(5) == ["NE", "Dc(NE)", "Dr", "Dx", "Dm(Dr) Leader", "Dm(Dx)"]
    assert crt_row(12) == ["Dr", "Dx", "Dm(Dx)", "Dm(Dx)", "Dm(Dx) Leader", "Dm(Dx)"]
    cells = {c for d in range(-8, 13) for c in crt_row(d)}
    assert not any("DF" in c or "Ammo" in c for c in cells)


def test_7_5_a_cell_reads_as_result_secondary_and_leader() -> None:
    r = parse_cell("Dm(Dr) Leader")
    assert (r.result, r.secondary, r.leader, r.side, r.letter) == ("Dm", "Dr", True, "D", "m")
    assert parse_cell("Ex Leader").side is None and parse_cell("NE").letter == ""
    assert crt_result(3, 2).text == "NE" and crt_result(-1, 4).text == "Ex Leader"


def test_7_5_the_edition_object_answers_from_the_same_table() -> None:
    rs = find_ruleset("quickplay-2013")
    assert rs.crt_result(8, 6) == "Dm(Dx) Leader"
    assert rs.crt_row(8) == crt_row(8)


@pytest.mark.parametrize(("die", "rating", "passes"), [(1, -1, True), (6, 9, False), (4, 4, True), (5, 4, False)])
def test_2_3_a_one_always_passes_and_a_six_always_fails(die: int, rating: int, passes: bool) -> None:
    assert morale_passes(die, rating) is passes


def test_7_4_halved_once_rounds_up_halved_twice_is_one() -> None:
    assert (halve(5, 0), halve(5, 1), halve(5, 2), halve(8, 3)) == (5, 3, 1, 1)
