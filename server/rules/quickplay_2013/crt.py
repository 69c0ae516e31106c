"""Quick Play 2013's Combat Results Table (seed 001 7.5; the printed table is not in the seed, so the table is
RULINGS.md R14's: R12's cells without the DF and Ammo notations) and the checks every procedure shares: morale
(2.3), halving (7.4).

A cell reads `R(S) N`: the result R (7.5: NE, Ar/Dr, Ac/Dc, Ax/Dx, Dm, Ex), the parenthesised secondary result S
applied when the first does not take effect (7.5), and the Leader notation N (10.0).  Columns are the kernel's
(kernel/crt.py); a high combat die favours the attacker.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kernel.crt import COLUMN_LABELS, column_of

# R14: rows = combat die 1..6, columns = kernel/crt.py's nine bands.
TABLE: tuple[tuple[str, ...], ...] = (
    ("Ax Leader", "Ax", "Ax", "Ar", "Ac(NE)", "Ac(NE)", "NE", "Dc(NE)", "Dr"),
    ("Ax", "Ax", "Ar", "Ac(NE)", "Ac(NE)", "NE", "Dc(NE)", "Dr", "Dx"),
    ("Ax", "Ar", "Ac(NE)", "NE", "Ex Leader", "Dc(NE)", "Dr", "Dx", "Dm(Dx)"),
    ("Ar", "Ac(NE)", "NE", "Ex Leader", "Dc(NE)", "Dr", "Dx", "Dm(Dr)", "Dm(Dx)"),
    ("Ac(NE)", "NE", "Dc(NE)", "Dc(NE)", "Dr", "Dx", "Dm(Dr) Leader", "Dm(Dx)", "Dm(Dx) Leader"),
    ("NE", "Dc(NE)", "Dr", "Dr", "Dx", "Dm(Dr)", "Dm(Dx)", "Dm(Dx) Leader", "Dm(Dx)"),
)


@dataclass(frozen=True, slots=True)
class Result:
    """One CRT cell read per 7.5."""

    result: str  # NE, Ar, Dr, Ac, Dc, Ax, Dx, Dm, Am (charges only, 9.2 step 4) or Ex
    secondary: str | None = None  # the parenthesised result (7.5)
    leader: bool = False  # the Leader notation (10.0)

    @property
    def side(self) -> str | None:
        """'A' or 'D' for a one-sided result, None for NE and Ex."""
        return self.result[0] if self.result not in ("NE", "Ex") else None

    @property
    def letter(self) -> str:
        """'r', 'c', 'x' or 'm' of a one-sided result, '' for NE and Ex."""
        return self.result[1] if self.side else ""

    @property
    def text(self) -> str:
        out = self.result + (f"({self.secondary})" if self.secondary else "")
        return out + (" Leader" if self.leader else "")


def parse_cell(cell: str) -> Result:
    words = cell.split()
    head = words[0]
    secondary = None
    if "(" in head:
        head, rest = head.split("(", 1)
        secondary = rest.rstrip(")")
    return Result(head, secondary, "Leader" in words[1:])


def crt_result(differential: int, combat_die: int) -> Result:
    return parse_cell(TABLE[combat_die - 1][column_of(differential)])


def crt_row(differential: int) -> list[str]:
    col = column_of(differential)
    return [TABLE[row][col] for row in range(6)]


def column_label(differential: int) -> str:
    return COLUMN_LABELS[column_of(differential)]


def morale_passes(die: int, rating: int) -> bool:
    """2.3: a roll above the rating fails; a 1 always passes and a 6 always fails."""
    if die == 1:
        return True
    if die == 6:
        return False
    return die <= rating


def halve(value: int, times: int) -> int:
    """7.4: halved once, round up; halved twice or more, a combat factor of one."""
    if times <= 0:
        return value
    if times == 1:
        return (value + 1) // 2
    return 1
