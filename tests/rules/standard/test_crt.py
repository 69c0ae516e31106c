"""The Standard rules' CRT (seed 002 7.8, RULINGS.md R12) as data, and bombardment's reading of it (8.5)."""

from __future__ import annotations

import pytest

from server.rules.standard.crt import (
    CRT,
    Result,
    bombardment_result,
    crt_column,
    crt_column_label,
    crt_result,
    crt_row,
    parse_cell,
)

# Transcribed independently from RULINGS.md R12: rows = combat die 1..6; one differential per column.
DIFFS = [-6, -4, -2, 0, 2, 4, 6, 9, 10]
TABLE = {
    1: ["Ax Leader", "Ax", "Ax", "Ar Ammo", "Ac(NE) Ammo", "Ac(NE) Ammo", "NE Ammo", "Dc(NE) Ammo", "Dr Ammo"],
    2: ["Ax", "Ax DF", "Ar", "Ac(NE)", "Ac(NE)", "NE", "Dc(NE)", "Dr", "Dx"],
    3: ["Ax DF", "Ar", "Ac(NE)", "NE", "Ex Leader", "Dc(NE)", "Dr", "Dx", "Dm(Dx)"],
    4: ["Ar", "Ac(NE)", "NE", "Ex Leader", "Dc(NE)", "Dr", "Dx", "Dm(Dr)", "Dm(Dx)"],
    5: ["Ac(NE)", "NE", "Dc(NE)", "Dc(NE)", "Dr", "Dx", "Dm(Dr) Leader", "Dm(Dx)", "Dm(Dx) Leader"],
    6: ["NE", "Dc(NE)", "Dr", "Dr", "Dx", "Dm(Dr)", "Dm(Dx)", "Dm(Dx) Leader", "Dm(Dx)"],
}
CELLS = [(die, col, DIFFS[col], TABLE[die][col]) for die in range(1, 7) for col in range(9)]


@pytest.mark.parametrize("die,col,diff,expected", CELLS, ids=[f"die{d}-col{c}" for d, c, _, _ in CELLS])
def test_7_8_every_cell_of_the_r12_table(die: int, col: int, diff: int, expected: str) -> None:
    assert str(crt_result(diff, die)) == expected
    assert crt_column(diff) == col


def test_7_8_the_table_has_54_cells_and_rows_read_by_column() -> None:
    assert sum(len(r) for r in CRT) == 54
    for col, diff in enumerate(DIFFS):
        assert [str(r) for r in crt_row(diff)] == [TABLE[d][col] for d in range(1, 7)]


@pytest.mark.parametrize("diff,column", [(-40, 0), (-6, 0), (-5, 1), (-3, 2), (-1, 3), (0, 3), (1, 4), (3, 5),
                                         (5, 6), (7, 7), (9, 7), (10, 8), (40, 8)])
def test_7_7_differential_columns_are_the_kernels(diff: int, column: int) -> None:
    assert crt_column(diff) == column


def test_7_7_column_labels() -> None:
    assert crt_column_label(0) == "-6 or less" and crt_column_label(8) == "+10 or more"


def test_7_8_a_high_combat_die_favours_the_attacker() -> None:
    """R12: the die orientation of Quick Play's table: die 6 never hurts the attacker, die 1 never routs the defender."""
    assert all(r.affects != "attacker" for r in CRT[5])
    assert all(r.result != "Dm" for r in CRT[0])


def test_7_8_parenthesised_result_is_the_pass_result() -> None:
    r = parse_cell("Dm(Dx) Leader")
    assert (r.result, r.on_pass, r.leader, r.df, r.ammo) == ("Dm", "Dx", True, False, False)
    assert r.needs_check and r.affects == "defender" and r.letter == "m"
    assert parse_cell("Dc(NE)").on_pass == "NE"


def test_7_8_r_is_a_choice_not_a_check_and_ex_hits_both() -> None:
    assert not parse_cell("Dr").needs_check and parse_cell("Dr").letter == "r"
    assert parse_cell("Ex Leader").affects == "both" and parse_cell("NE").affects is None


def test_7_8_df_leader_and_ammo_are_notations_in_addition() -> None:
    assert crt_result(-4, 2) == Result("Ax", df=True)
    assert crt_result(2, 3) == Result("Ex", leader=True)
    assert crt_result(10, 1) == Result("Dr", ammo=True)


@pytest.mark.parametrize("bad", ["Dq", "Dr(NE)", "Dc(Zz)", "Dx Fog"])
def test_7_8_cells_outside_the_vocabulary_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="7.8"):
        parse_cell(bad)


def test_8_5_bombardment_ignores_a_results_keeping_notations() -> None:
    assert bombardment_result(0, 1) == Result("NE", ammo=True)  # Ar Ammo
    assert bombardment_result(2, 2) == Result("NE")  # Ac(NE)
    assert bombardment_result(2, 1) == Result("NE", ammo=True)  # Ac(NE) Ammo


def test_8_5_bombardment_ignores_parenthesised_results() -> None:
    assert bombardment_result(10, 3) == Result("Dm")  # Dm(Dx): a pass has no effect
    assert bombardment_result(6, 2) == Result("Dc")  # Dc(NE)


def test_8_5_bombardment_reads_its_strength_as_a_positive_column() -> None:
    assert bombardment_result(4, 5) == Result("Dx") and bombardment_result(-3, 5) == bombardment_result(0, 5)
    assert bombardment_result(2, 3) == Result("Ex", leader=True)  # only the target loses a step (R12)
