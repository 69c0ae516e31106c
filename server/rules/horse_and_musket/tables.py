"""Every table of seed 003 in hexes, as R16 converts them: the measuring sticks (MS, R16.2), the units' formations
(UF, R16.5), the movement rates (4.2.2, R16.11), the weapons (5.1.1, 5.2.1, R16.14), the fire needs (5.1.4), the
charge test (4.1.1, R16.13), the command table (3.t, R16.9) and the cards (R16.10). Pure data and lookups."""

from __future__ import annotations

from enum import Enum
from typing import Final


class Kind(str, Enum):
    """R16.3's unit types, and the generals (markers, not units). A scenario names each by `TYPES`' key."""

    CO = "co"  # close order infantry (UF.a)
    LI = "li"  # light infantry (UF.b)
    HC = "hc"  # heavy cavalry; `dragoon` marks the seed's Dragoons (R16.20(3))
    LC = "lc"  # light cavalry
    TC = "tc"  # tribal cavalry
    ARTILLERY = "artillery"  # UF.d; `horse` marks horse artillery
    WAGONS = "wagons"
    GENERAL = "leader"  # the kernel's and the bots' name for a commander marker; a scenario writes "general"

    @property
    def is_combat(self) -> bool:
        """Generals are markers (R16.3), everything else a unit."""
        return self is not Kind.GENERAL

    @property
    def infantry(self) -> bool:
        return self in (Kind.CO, Kind.LI)

    @property
    def cavalry(self) -> bool:
        return self in (Kind.HC, Kind.LC, Kind.TC)

    @property
    def fights(self) -> bool:
        """Infantry and cavalry fight hand-to-hand; artillery and wagons never do (6.2, R16.20(4))."""
        return self.infantry or self.cavalry


TYPES: Final[dict[str, Kind]] = {**{k.value: k for k in Kind if k is not Kind.GENERAL}, "general": Kind.GENERAL}


# --- R16.2: the measuring sticks in hexes ------------------------------------------------------------
VS: Final = 1
S: Final = 2
M: Final = 3
L: Final = 5
ARTILLERY_STICK: Final = 3 * L  # 15: hexes 1-5 the red part (short), 6-15 the yellow part (long)
LEVELS: Final = (0, VS, S, M, L)  # 4.2.5.2, R16.20(9): one level down is the previous entry


def level_down(hexes: int) -> int:
    """4.2.5.2: a stick one level shorter (L -> M -> S -> VS -> 0)."""
    i = LEVELS.index(hexes)
    return LEVELS[max(i - 1, 0)]


COMMAND_RADIUS: Final = L  # 3.3, 3.4, 2.1: long
C_IN_C_RADIUS: Final = M  # 3.2: medium
GENERAL_MOVE: Final = L  # 2.1, R16.20(12)


# --- R16.5: formations -------------------------------------------------------------------------------
LINE = "line"
COLUMN = "column"
SKIRMISH = "skirmish"
RANKS = "ranks"
LIMBERED = "limbered"
DEPLOYED = "deployed"
WAGON = "wagon"

FORMATIONS: Final[dict[Kind, tuple[str, ...]]] = {
    Kind.CO: (LINE, COLUMN),
    Kind.LI: (SKIRMISH,),
    Kind.HC: (RANKS, COLUMN),
    Kind.LC: (RANKS, COLUMN),
    Kind.TC: (RANKS, COLUMN),
    Kind.ARTILLERY: (LIMBERED, DEPLOYED),
    Kind.WAGONS: (WAGON,),
}
WIDE: Final = frozenset({LINE, SKIRMISH, RANKS})  # R16.5's frontage, for RC.1c's gaps; the rest are narrow
A_LINE: Final = WIDE  # 5.5, R16.5: "a line" for enfilade


def fires_in(kind: Kind, formation: str) -> bool:
    """R16.5: the formation a unit fires in (CO line, LI skirmish order, LC/TC ranks, deployed guns)."""
    if kind is Kind.CO:
        return formation == LINE
    if kind is Kind.LI:
        return formation == SKIRMISH
    if kind in (Kind.LC, Kind.TC):
        return formation == RANKS
    if kind is Kind.ARTILLERY:
        return formation == DEPLOYED
    return False


def basic_dice(formation: str) -> int:
    """R16.5, 4.1.8.4, R16.20(26): 4d6, or 1d6 for any unit in column (its front element only)."""
    return 1 if formation == COLUMN else 4


def march_bonus(kind: Kind) -> bool:
    """4.2.10, R16.5: CO infantry, HC and dragoons in column; never LI, LC, TC, guns or wagons."""
    return kind in (Kind.CO, Kind.HC)


# --- R16.11: movement rates (good, difficult) in hexes ------------------------------------------------
RATES: Final[dict[Kind, tuple[int, int]]] = {
    Kind.CO: (S, VS),
    Kind.LI: (M, S),
    Kind.HC: (L, M),
    Kind.LC: (L, M),
    Kind.TC: (L, L),
    Kind.WAGONS: (M, VS),
}
LIMBERED_RATES: Final = (M, S)


def rate(kind: Kind, formation: str, difficult: bool) -> int:
    """4.2.2's table in hexes; deployed artillery has no rate (it pivots only, 4.2.3)."""
    if kind is Kind.ARTILLERY:
        if formation != LIMBERED:
            return 0
        good, hard = LIMBERED_RATES
    else:
        good, hard = RATES[kind]
    return hard if difficult else good


# --- R16.14: weapons ---------------------------------------------------------------------------------
MUSKET = "musket"
RIFLE = "rifle"
CARBINE = "carbine"
GUN = "gun"
NONE = "none"
WEAPONS: Final = (MUSKET, RIFLE, CARBINE, GUN, NONE)

# weapon -> (last hex of short range, last hex of long range)
RANGES: Final[dict[str, tuple[int, int]]] = {
    RIFLE: (S, L),  # 5.1.1: short S, long L -> 1-2, 3-5
    MUSKET: (S, M),  # short S, long M -> 1-2, 3
    CARBINE: (VS, S),  # short VS, long S -> 1, 2
    GUN: (L, ARTILLERY_STICK),  # 5.2.1: red part 1-5, yellow part 6-15
}


def default_weapon(kind: Kind) -> str:
    """R16.3: musket for foot, carbine for LC and TC, none for HC, dragoons and wagons, a gun for artillery."""
    if kind.infantry:
        return MUSKET
    if kind in (Kind.LC, Kind.TC):
        return CARBINE
    if kind is Kind.ARTILLERY:
        return GUN
    return NONE


def long_range(weapon: str) -> int:
    return RANGES[weapon][1] if weapon in RANGES else 0


def is_long(weapon: str, distance: int) -> bool:
    return distance > RANGES[weapon][0]


# 5.1.4: the score a small-arms die needs, by the firer's type (HC and dragoons have none, R16.20(30))
FIRE_NEED: Final[dict[Kind, int]] = {Kind.CO: 4, Kind.LI: 5, Kind.LC: 6, Kind.TC: 6}
SMALL_ARMS_DICE: Final = 4  # 5.1.4
HIT_ON: Final = 4  # 5.2.4, 6.6.5, 5.3, 6.7: a die of 4-6
STAGGER_AT: Final = 6  # 5.1.9, 6.5, 7


# --- R16.13: the charge test (4.1.1): (fresh, staggered) need by arm and grade; None: may not charge ---------
GRADES: Final = ("levy", "average", "elite")
CHARGE_NEED: Final[dict[tuple[str, str], tuple[int, int | None]]] = {
    ("infantry", "elite"): (3, 4),
    ("infantry", "average"): (4, 5),
    ("infantry", "levy"): (5, None),
    ("cavalry", "elite"): (2, 3),
    ("cavalry", "average"): (3, 4),
    ("cavalry", "levy"): (4, 5),
}


def charge_need(kind: Kind, grade: str, staggered: bool) -> int | None:
    fresh, tired = CHARGE_NEED[("cavalry" if kind.cavalry else "infantry", grade)]
    return tired if staggered else fresh


# --- R16.9: the command table (3.t) -------------------------------------------------------------------
NO_MOVE = "none"
HALF = "half"
ALL = "all"
QUALITIES: Final = ("incompetent", "competent", "gifted")
# quality -> (result for a 1, for 2-4, for 5-6), each (who may move, cards drawn)
COMMAND_TABLE: Final[dict[str, tuple[tuple[str, int], tuple[str, int], tuple[str, int]]]] = {
    "incompetent": ((NO_MOVE, 0), (HALF, 0), (ALL, 1)),
    "competent": ((HALF, 0), (ALL, 0), (ALL, 1)),
    "gifted": ((ALL, 0), (ALL, 1), (ALL, 2)),
}


def command_result(quality: str, total: int) -> tuple[str, int]:
    """3.t for a modified roll held within 1-6 (R16.20(17))."""
    low, mid, high = COMMAND_TABLE[quality]
    roll = min(max(total, 1), 6)
    return low if roll == 1 else mid if roll <= 4 else high


# --- R16.10: the designed deck ------------------------------------------------------------------------
AIDE = "aide_de_camp"
FORCED_MARCH = "forced_march"
STEADY_LADS = "steady_lads"
VOLLEY = "volley"
COLD_STEEL = "cold_steel"
DECK: Final = (AIDE,) * 4 + (FORCED_MARCH,) * 3 + (STEADY_LADS,) * 3 + (VOLLEY,) * 3 + (COLD_STEEL,) * 3
CARD_NAMES: Final = {AIDE: "Aide-de-camp", FORCED_MARCH: "Forced March", STEADY_LADS: "Steady Lads",
                     VOLLEY: "Volley", COLD_STEEL: "Cold Steel"}
HAND_LIMIT: Final = 3
