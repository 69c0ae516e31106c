"""The revised Quick Play CRT (7.4, R6): every cell, every column boundary, via the ruleset and via real combats."""

from __future__ import annotations

import pytest
from position import Position

from server.rules import QuickPlay

# Transcribed independently from the seed's table (RULINGS.md R6): rows = combat die 1..6.
COLUMNS = [(-6, "≤−6"), (-4, "−5..−4"), (-2, "−3..−2"), (0, "−1..0"), (2, "+1..+2"),
           (4, "+3..+4"), (6, "+5..+6"), (9, "+7..+9"), (10, "≥+10")]
TABLE = {
    1: ["Am", "Am", "Ax", "Ar", "Ar", "Ac", "-", "Dr", "Dx"],
    2: ["Am", "Ax", "Ar", "Ac", "Ac", "-", "Dc", "Dr", "Dx"],
    3: ["Am", "Ax", "Ar", "Ac", "-", "Dc", "Dr", "Dx", "Dm"],
    4: ["Ax", "Ac", "Ac", "-", "Dc", "Dr", "Dr", "Dx", "Dm"],
    5: ["Ax", "Ac", "-", "Dc", "Dc", "Dr", "Dr", "Dm", "Dm"],
    6: ["Ac", "-", "Dc", "Dr", "Dr", "Dr", "Dx", "Dm", "Dm"],
}
CELLS = [(die, col, diff, TABLE[die][col]) for die in range(1, 7) for col, (diff, _) in enumerate(COLUMNS)]

# Every differential from -8 to +12 and the column it belongs to (the boundaries -6|-5, -4|-3, ..., +9|+10).
BOUNDARIES = {
    -8: 0, -7: 0, -6: 0, -5: 1, -4: 1, -3: 2, -2: 2, -1: 3, 0: 3, 1: 4, 2: 4, 3: 5, 4: 5,
    5: 6, 6: 6, 7: 7, 8: 7, 9: 7, 10: 8, 11: 8, 12: 8, 40: 8, -40: 0,
}


@pytest.mark.parametrize("die,col,diff,expected", CELLS, ids=[f"die{d}-col{c}" for d, c, _, _ in CELLS])
def test_7_4_crt_cell_via_ruleset(die: int, col: int, diff: int, expected: str) -> None:
    assert QuickPlay().crt_result(diff, die) == expected


def test_7_4_crt_has_54_cells_and_each_row_matches() -> None:
    rs = QuickPlay()
    assert len(CELLS) == 54
    for col, (diff, _) in enumerate(COLUMNS):
        assert rs.crt_row(diff) == [TABLE[d][col] for d in range(1, 7)]


@pytest.mark.parametrize("diff,column", sorted(BOUNDARIES.items()))
def test_7_4_crt_column_boundaries(diff: int, column: int) -> None:
    rs = QuickPlay()
    assert rs.crt_column(diff) == column
    for die in range(1, 7):
        assert rs.crt_result(diff, die) == TABLE[die][column]


def test_7_4_crt_column_labels_name_the_bands() -> None:
    rs = QuickPlay()
    assert rs.crt_column_label(0) == "-6 or less"
    assert rs.crt_column_label(3) == "-1 to 0"
    assert rs.crt_column_label(8) == "+10 or more"


def _one_combat(diff: int, die: int) -> dict:
    """Blue attacks alone from 0504 into 0604 on clear ground at exactly `diff`; morale die 1 (passes)."""
    attack, defense = (diff + 1, 1) if diff >= 0 else (1, 1 - diff)
    pos = Position()
    pos.unit("b1", "blue", "infantry", hex="0504", attack=attack, defense=4, mr=4)
    pos.unit("r1", "red", "infantry", hex="0604", attack=4, defense=defense, mr=4)
    game = pos.game(phase="combat", active="blue", dice=[die, 1])
    events = game.submit("blue", {"type": "attack", "target": "0604", "attackers": ["b1"]})
    return next(e for e in events if e["type"] == "combat_result")


@pytest.mark.parametrize("die,col,diff,expected", CELLS, ids=[f"die{d}-col{c}" for d, c, _, _ in CELLS])
def test_7_4_crt_cell_via_real_combat(die: int, col: int, diff: int, expected: str) -> None:
    ev = _one_combat(diff, die)
    assert ev["differential"] == diff
    assert ev["column"] == col
    assert ev["result"] == expected
    assert ev["dice"] == [die, 1]


@pytest.mark.parametrize("diff", [-7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11])
def test_7_4_crt_boundary_in_real_combat(diff: int) -> None:
    ev = _one_combat(diff, 4)
    assert ev["column"] == BOUNDARIES[diff]
    assert ev["result"] == TABLE[4][BOUNDARIES[diff]]
