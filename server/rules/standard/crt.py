"""The Standard rules' Combat Results Table (seed 002 7.8; the printed table is not in the seed, so the
table is RULINGS.md R12's) as data, and how bombardment reads it (8.5).

Each cell is a `Result`: the result proper (7.8: NE, Ar/Dr, Ac/Dc, Ax/Dx, Dm, Ex), the parenthesised
result applied when the primary unit passes its check (7.8), and the notations applied in addition:
DF (the defender receives a fortune of war, 12.4), Leader (casualty checks, 10.3 (leader casualties)),
Ammo (one bombarding artillery unit goes ineffective, 8.5).  Columns are the kernel's (kernel/crt.py);
a high combat die favours the attacker.

The edition's procedures (close_combat.py, bombard.py) play these rules in a game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..kernel.crt import COLUMN_LABELS, column_of

# R12, rows = combat die 1..6, columns = kernel/crt.py's nine bands.
TABLE: tuple[tuple[str, ...], ...] = (
    ("Ax Leader", "Ax", "Ax", "Ar Ammo", "Ac(NE) Ammo", "Ac(NE) Ammo", "NE Ammo", "Dc(NE) Ammo", "Dr Ammo"),
    ("Ax", "Ax DF", "Ar", "Ac(NE)", "Ac(NE)", "NE", "Dc(NE)", "Dr", "Dx"),
    ("Ax DF", "Ar", "Ac(NE)", "NE", "Ex Leader", "Dc(NE)", "Dr", "Dx", "Dm(Dx)"),
    ("Ar", "Ac(NE)", "NE", "Ex Leader", "Dc(NE)", "Dr", "Dx", "Dm(Dr)", "Dm(Dx)"),
    ("Ac(NE)", "NE", "Dc(NE)", "Dc(NE)", "Dr", "Dx", "Dm(Dr) Leader", "Dm(Dx)", "Dm(Dx) Leader"),
    ("NE", "Dc(NE)", "Dr", "Dr", "Dx", "Dm(Dr)", "Dm(Dx)", "Dm(Dx) Leader", "Dm(Dx)"),
)

RESULTS = ("NE", "Ar", "Dr", "Ac", "Dc", "Ax", "Dx", "Dm", "Am", "Ex")  # Am only through 9.3(5) and 9.4 (R12)
NOTATIONS = ("DF", "Leader", "Ammo")
_CHECKED = ("Ac", "Dc", "Dm", "Am")  # 7.8: the primary checks morale; a pass applies the parenthesised result


@dataclass(frozen=True, slots=True)
class Result:
    """One CRT cell read per 7.8."""

    result: str  # one of RESULTS
    on_pass: str | None = None  # the parenthesised result (7.8), applied when the primary passes its check
    df: bool = False  # 7.8 DF: the defending player receives a FOW (12.4)
    leader: bool = False  # 7.8 Leader: casualty checks for the leaders involved (10.3)
    ammo: bool = False  # 7.8 Ammo: one bombarding artillery unit goes ineffective (8.5)

    @property
    def affects(self) -> str | None:
        """'attacker', 'defender', 'both' (Ex) or None (NE)."""
        if self.result == "NE":
            return None
        if self.result == "Ex":
            return "both"
        return "attacker" if self.result[0] == "A" else "defender"

    @property
    def letter(self) -> str:
        """'r', 'c', 'x' or 'm' for a one-sided result (7.8), '' for NE and Ex."""
        return self.result[1] if self.affects in ("attacker", "defender") else ""

    @property
    def needs_check(self) -> bool:
        """7.8: c, x and m results turn on the primary unit's morale check; r is the owner's choice."""
        return self.letter in ("c", "x", "m")

    def __str__(self) -> str:
        text = self.result + (f"({self.on_pass})" if self.on_pass else "")
        return " ".join([text] + [n for n, on in (("DF", self.df), ("Leader", self.leader), ("Ammo", self.ammo)) if on])


def parse_cell(text: str) -> Result:
    """'Dm(Dx) Leader' -> Result('Dm', 'Dx', leader=True); refuses anything R12 does not use."""
    head, *notes = text.split()
    on_pass: str | None = None
    if "(" in head:
        head, _, rest = head.partition("(")
        on_pass = rest.rstrip(")")
        if on_pass not in RESULTS:
            raise ValueError(f"'{text}': '{on_pass}' is not a combat result (7.8)")
        if head not in _CHECKED:
            raise ValueError(f"'{text}': only a checked result (c or m) has a parenthesised result (7.8)")
    if head not in RESULTS:
        raise ValueError(f"'{text}': '{head}' is not a combat result (7.8)")
    for n in notes:
        if n not in NOTATIONS:
            raise ValueError(f"'{text}': '{n}' is not a CRT notation (7.8)")
    return Result(head, on_pass, "DF" in notes, "Leader" in notes, "Ammo" in notes)


CRT: tuple[tuple[Result, ...], ...] = tuple(tuple(parse_cell(c) for c in row) for row in TABLE)


def crt_column(differential: int) -> int:
    return column_of(differential)


def crt_column_label(column: int) -> str:
    return COLUMN_LABELS[column]


def crt_result(differential: int, combat_die: int) -> Result:
    """7.7-7.8: the cell for a differential and the combat die."""
    if not 1 <= combat_die <= 6:
        raise ValueError(f"a die shows 1 to 6, not {combat_die}")
    return CRT[combat_die - 1][column_of(differential)]


def crt_row(differential: int) -> list[Result]:
    """The six results of a differential's column (for previews)."""
    col = column_of(differential)
    return [CRT[row][col] for row in range(6)]


def bombardment_result(strength: int, combat_die: int) -> Result:
    """8.5 (R12): bombardment reads the column of its total strength (expressed as a positive differential),
    ignores every A result and every parenthesised result; on Ex only the target loses a step (the
    bombarding artillery is affected only by Ammo).  An ignored result reads as NE, its notations kept."""
    cell = crt_result(max(strength, 0), combat_die)
    if cell.affects == "attacker":
        return replace(cell, result="NE", on_pass=None)
    return replace(cell, on_pass=None)  # an Ex stays Ex: the bombardment procedure takes the target's step only
