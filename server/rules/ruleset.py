"""Rulesets as plug-ins: the engine asks its ruleset at every point where editions differ.

`QuickPlay` is the revised Quick Play rules (the default).  Later editions
subclass it and override only the hooks whose rule differs, the way
python-chess variants override board hooks.
"""

from __future__ import annotations

from typing import ClassVar

from .scenario import UnitKind


# The revised Quick Play CRT as reconstructed in RULINGS.md R6: rows are the combat die 1..6,
# columns the differential bands below.
_QP_COLUMNS: tuple[tuple[int, int], ...] = (
    (-(10**6), -6), (-5, -4), (-3, -2), (-1, 0), (1, 2), (3, 4), (5, 6), (7, 9), (10, 10**6),
)
_QP_COLUMN_LABELS = ("-6 or less", "-5 to -4", "-3 to -2", "-1 to 0", "+1 to +2", "+3 to +4", "+5 to +6", "+7 to +9", "+10 or more")
_QP_CRT: tuple[tuple[str, ...], ...] = (
    ("Am", "Am", "Ax", "Ar", "Ar", "Ac", "-", "Dr", "Dx"),
    ("Am", "Ax", "Ar", "Ac", "Ac", "-", "Dc", "Dr", "Dx"),
    ("Am", "Ax", "Ar", "Ac", "-", "Dc", "Dr", "Dx", "Dm"),
    ("Ax", "Ac", "Ac", "-", "Dc", "Dr", "Dr", "Dx", "Dm"),
    ("Ax", "Ac", "-", "Dc", "Dc", "Dr", "Dr", "Dm", "Dm"),
    ("Ac", "-", "Dc", "Dr", "Dr", "Dr", "Dx", "Dm", "Dm"),
)


class Ruleset:
    """Hooks shared by every edition; subclasses override what differs."""

    name: ClassVar[str] = "base"
    leader_move_hexes: ClassVar[int] = 12  # 10.0
    always_one_hex: ClassVar[bool] = True  # 4.3
    has_counterattack: ClassVar[bool] = True  # 7.3

    # --- combat results table (7.4) -------------------------------------
    def crt_column(self, differential: int) -> int:
        for i, (lo, hi) in enumerate(_QP_COLUMNS):
            if lo <= differential <= hi:
                return i
        raise AssertionError("unreachable: the columns cover every integer")

    def crt_column_label(self, column: int) -> str:
        return _QP_COLUMN_LABELS[column]

    def crt_result(self, differential: int, combat_die: int) -> str:
        return _QP_CRT[combat_die - 1][self.crt_column(differential)]

    def crt_row(self, differential: int) -> list[str]:
        col = self.crt_column(differential)
        return [_QP_CRT[row][col] for row in range(6)]

    # --- stacking (5.0, R4) ---------------------------------------------
    def stacking_ok(self, kinds: list[UnitKind]) -> bool:
        """Up to three combat units of any kind plus one more that is a battalion or artillery unit."""
        combat = [k for k in kinds if k is not UnitKind.LEADER]
        if len(combat) <= 3:
            return True
        if len(combat) == 4:
            return any(k.counts_as_battalion_slot for k in combat)
        return False

    # --- morale (7.5) -----------------------------------------------------
    def morale_passes(self, die: int, rating: int) -> bool:
        if die == 1:
            return True
        if die == 6:
            return False
        return die <= rating

    # --- halving (7.4) ----------------------------------------------------
    def halve(self, value: int, times: int) -> int:
        if times <= 0:
            return value
        if times == 1:
            return (value + 1) // 2
        return 1

    # --- leader casualties (10.0) -----------------------------------------
    def leader_lost(self, two_dice_total: int) -> bool:
        return two_dice_total in (2, 12)


class QuickPlay(Ruleset):
    """Musket & Saber Quick Play, revised: the seven-phase turn of 3.3."""

    name = "quickplay"


class QuickPlay2013(QuickPlay):
    """The 2013 edition: a unit lacking the MP may not enter (R3). Its other rules are not built yet."""

    name = "quickplay-2013"
    always_one_hex = False


_RULESETS: dict[str, type[Ruleset]] = {cls.name: cls for cls in (QuickPlay, QuickPlay2013)}
IMPLEMENTED_RULESETS = ("quickplay",)


def find_ruleset(name: str) -> Ruleset:
    """The ruleset object for an id; only the editions the engine fully implements are offered."""
    if name not in IMPLEMENTED_RULESETS:
        raise ValueError(f"ruleset '{name}' is not implemented yet (available: {', '.join(IMPLEMENTED_RULESETS)})")
    return _RULESETS[name]()
