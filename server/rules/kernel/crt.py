"""The CRT's columns, which every edition's table shares (R6, R12, R14: "same columns and die orientation").

A differential falls in one of nine bands; each edition supplies the six rows of results for them
(Quick Play: quickplay/ruleset.py; the Standard rules: standard/crt.py).
"""

from __future__ import annotations

# (lowest, highest) differential of each column, left to right.
COLUMNS: tuple[tuple[int, int], ...] = (
    (-(10**6), -6), (-5, -4), (-3, -2), (-1, 0), (1, 2), (3, 4), (5, 6), (7, 9), (10, 10**6),
)
COLUMN_LABELS: tuple[str, ...] = (
    "-6 or less", "-5 to -4", "-3 to -2", "-1 to 0", "+1 to +2", "+3 to +4", "+5 to +6", "+7 to +9", "+10 or more",
)


def column_of(differential: int) -> int:
    """The column index (0-8) of a differential; beyond the table's edges the end columns apply."""
    for i, (lo, hi) in enumerate(COLUMNS):
        if lo <= differential <= hi:
            return i
    return 0 if differential < 0 else len(COLUMNS) - 1
