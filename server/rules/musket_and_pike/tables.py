"""Every chart of seed 004 (the Musket & Pike player aid card) as data, read as R17 reads it.

Dice are d10s read 0-9 (R17.1). Success ranges "0-n" are stored as n (R17.2: a modified die <= n succeeds; None =
"NA", not allowed). Modifiers keep the card's sign as R17.4 restores it. Nothing here rolls or decides: the
procedures read these tables and name them in their events (`TABLE_*` names).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final


class Order(str, Enum):
    """R17.20: a wing's order."""

    CHARGE = "charge"
    MAKE_READY = "make_ready"
    RECEIVE_CHARGE = "receive_charge"
    RALLY = "rally"

    @property
    def label(self) -> str:
        return ORDER_LABELS[self]


ORDER_LABELS: Final = {Order.CHARGE: "Charge", Order.MAKE_READY: "Make Ready",
                       Order.RECEIVE_CHARGE: "Receive Charge", Order.RALLY: "Rally"}


class Kind(str, Enum):
    """R17.10: a counter's type. Leaders are not units (R17.12)."""

    HI = "hi"
    LI = "li"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    LEADER = "leader"

    @property
    def is_combat(self) -> bool:
        return self is not Kind.LEADER


class Morale(str, Enum):
    """R17.15: a unit's morale state."""

    NORMAL = "normal"
    SHAKEN = "shaken"
    BROKEN = "broken"


class Condition(str, Enum):
    """R17.15: a unit's formation condition (none while Morale Broken)."""

    NORMAL = "normal"
    SHAKEN = "shaken"
    BROKEN = "broken"


class Mode(str, Enum):
    """R17.15: a unit's formation mode."""

    LINE = "line"
    COLUMN = "column"
    OPEN_ORDER = "open_order"
    HEDGEHOG = "hedgehog"


# --- 5.6 Orders Restriction Chart (R17.30-R17.34) --------------------------------------------------------------
FULL, ONE_HEX = "full", "one_hex"
YES, NO, W_LEADER = "yes", "no", "w/leader"
ORC_MOVE: Final = {Order.CHARGE: FULL, Order.MAKE_READY: FULL, Order.RECEIVE_CHARGE: ONE_HEX, Order.RALLY: FULL}
ORC_FIRE: Final = {o: YES for o in Order}
ORC_REFORM: Final = {Order.CHARGE: NO, Order.MAKE_READY: W_LEADER, Order.RECEIVE_CHARGE: YES, Order.RALLY: YES}
ORC_RALLY: Final = {Order.CHARGE: NO, Order.MAKE_READY: NO, Order.RECEIVE_CHARGE: W_LEADER, Order.RALLY: YES}

# --- 4.3 / 4.4 Continuation and Preemption Table --------------------------------------------------------------
CONTINUATION: Final = {Order.CHARGE: 3, Order.MAKE_READY: 2, Order.RECEIVE_CHARGE: 1, Order.RALLY: None}
PREEMPTION: Final = {Order.CHARGE: 4, Order.MAKE_READY: 3, Order.RECEIVE_CHARGE: 2, Order.RALLY: None}

# --- 5.7 Orders Change Table: ORDERS_CHANGE[current][desired] -------------------------------------------------
ORDERS_CHANGE: Final = {
    Order.CHARGE: {Order.MAKE_READY: 3, Order.RECEIVE_CHARGE: 2, Order.RALLY: 5},
    Order.MAKE_READY: {Order.CHARGE: 5, Order.RECEIVE_CHARGE: 5, Order.RALLY: 6},
    Order.RECEIVE_CHARGE: {Order.CHARGE: 3, Order.MAKE_READY: 5, Order.RALLY: 4},
    Order.RALLY: {Order.CHARGE: 1, Order.MAKE_READY: 4, Order.RECEIVE_CHARGE: 3},
}

# --- 9.3 Interception Table (cavalry only) --------------------------------------------------------------------
INTERCEPTION: Final = {Order.CHARGE: 5, Order.MAKE_READY: 4, Order.RECEIVE_CHARGE: 3, Order.RALLY: None}

# --- 5.3 Leader Casualty, 5.3.3 Leader Replacement ------------------------------------------------------------
LEADER_REMOVED_ON: Final = 9  # 0-8 No Effect
RETURN_NOW, RETURN_LATER, REPLACED = "return", "replacement_until_next_turn", "replaced"


def replacement_result(die: int) -> str:
    """5.3.3: 0 the original returns at once; 1 a Replacement, the original back at the end of next turn; 2-9 a
    Replacement for good."""
    return RETURN_NOW if die <= 0 else RETURN_LATER if die == 1 else REPLACED


REPLACEMENT_RATING: Final = 1  # R17.12 (designed)


# --- the Terrain Effects Chart (R17.7, R17.8) -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Terrain:
    """One TEC row: MP to enter per column (HI, cavalry, LI; None = NA), whether it is a Formation Hit (`*`) for HI
    and cavalry, the `#` mark (R17.41), LOS block, Fire (non-artillery, artillery; None = NA) and Close Combat (None
    = NA)."""

    name: str
    hi: int | None
    cav: int | None
    li: int | None
    star: bool
    hash: bool = False
    blocks: bool = False
    fire: int | None = 0
    fire_art: int | None = 0
    cc: int | None = 0
    musket_only: bool = False  # `@`: only the HI Musketry Tables and the Commanded Muskets and Dragoons column


HEX_TERRAIN: Final = {t.name: t for t in (
    Terrain("clear", 1, 1, 1, False),
    Terrain("woods", 2, 4, 3, True, blocks=True, fire=-1, fire_art=1, cc=-1),
    Terrain("marsh", 1, 2, 2, True, cc=1),
    Terrain("thicket", 2, 3, 2, True, cc=1),  # Thicket, Vineyard, or Garden
    Terrain("hedge_lined_road", 2, 3, 2, True, blocks=True, fire=-1, fire_art=-1, cc=-1),
    Terrain("river", None, None, None, False, cc=None),  # River or Pond
    Terrain("marshy_stream", 2, 4, 3, True, hash=True, cc=2),
    Terrain("stream", 2, 3, 2, True, cc=1),
    Terrain("village", 2, 4, 2, True, blocks=True, fire=-2, fire_art=-2, cc=-2),
    Terrain("bridge", 2, 2, 1, True, fire=2, fire_art=2, cc=-2),
    Terrain("castle", 2, 4, 2, True, blocks=True, fire=None, fire_art=None, cc=None),
    Terrain("chateau", 2, None, 2, True, hash=True, blocks=True, fire=-2, fire_art=-2, cc=-2),
    Terrain("alerheim_gully", 1, 2, 1, False, fire=-1, fire_art=-1, cc=-1),
    Terrain("alerheim_schloss", None, None, None, False, blocks=True, fire=None, fire_art=None, cc=None),
)}
WAGON: Final = Terrain("wagon", None, None, None, False, blocks=True, fire=-1, fire_art=-1, cc=-1)  # "OT" (R17.44)

STEEP, GENTLE = "steep_slope", "gentle_slope"
HEXSIDE_TERRAIN: Final = {t.name: t for t in (
    Terrain("stream", 1, 1, 1, True, cc=-1),
    Terrain("hedge", 1, 1, 1, True, blocks=True, fire=-1, fire_art=-1, cc=-1),
    Terrain("up_steep_slope", 1, 1, 1, True, blocks=True, cc=-1),
    Terrain("down_steep_slope", 1, 1, 1, True, blocks=True, fire=-1, fire_art=0, cc=0, musket_only=True),
    Terrain("entrenchment", 1, 1, 1, True, fire=-1, fire_art=-1, cc=-1),
    Terrain("river", None, None, None, False, cc=0),
    Terrain("marshy_stream", 2, 2, 2, True, hash=True, cc=-2),
    Terrain("bridge", 1, 1, 0, True, cc=2),
    Terrain("freiburg_redoubt", 1, 1, 1, True, fire=-2, fire_art=-2, cc=-2),
    Terrain("freiburg_star_fort", 1, 1, 1, True, fire=-3, fire_art=-3, cc=-3),
    Terrain("freiburg_abatis", 1, None, 1, True, fire=-1, fire_art=-1, cc=-1),
    Terrain("mergentheim_struetle", 1, 1, 1, False),
    Terrain(GENTLE, 0, 0, 0, False),  # R17.43: no MP, no LOS block; Grazing Fire and the second crossing only
)}
HEXSIDE_FEATURES: Final = (*(k for k in HEXSIDE_TERRAIN if "steep" not in k), STEEP)


def tec_cost(t: Terrain, column: str) -> int | None:
    return {"hi": t.hi, "cav": t.cav, "li": t.li}[column]


# --- the fire tables (10.0, 10.8) ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FireResult:
    hits: int = 0
    fh: bool = False
    mc: bool = False

    @property
    def label(self) -> str:
        parts = ([str(self.hits)] if self.hits else []) + (["FH"] if self.fh else []) + (["MC"] if self.mc else [])
        return "+".join(parts) or "Miss"


M = FireResult()
H1, H2 = FireResult(1), FireResult(2)
H1F, H2F, H2FM = FireResult(1, True), FireResult(2, True), FireResult(2, True, True)
FH, FHMC = FireResult(0, True), FireResult(0, True, True)

TABLE_HI, TABLE_LIGHT, TABLE_ART = "Heavy Infantry Musketry Tables (10.0)", "Light Infantry and Cavalry Fire Table", \
    "Artillery Fire Table (10.8)"
FRONT, FLANK, SALVO = "front", "flank", "salvo"
# rows: the modified die <=0, 1, ..., 8, >=9
HI_TABLE: Final = {
    (False, FRONT): (M, H1, H1, H1, H1, H1, H1, H2, H2, H2),
    (False, FLANK): (M, M, M, H1, H1, H1, H1, H1, H1, H2),
    (False, SALVO): (M, M, H1, H1, H1, H1, H2, H2, H2, H2),
    (True, FRONT): (M, H1, H1, H1, H1F, H1F, H2F, H2F, H2FM, H2FM),
    (True, FLANK): (M, M, M, H1, H1, H1, H1, H1F, H1F, H2F),
    (True, SALVO): (M, M, H1, H1, H1F, H1F, H2F, H2FM, H2FM, H2FM),
}
CMD, PISTOL = "Commanded Muskets and Dragoons", "Cavalry Pistol Fire"
LIGHT_TABLE: Final = {CMD: (M, H1, H1), PISTOL: (H1, H1, H1)}  # rows 7, 8, >=9; <=6 Miss

CALIBRES: Final = ("3lb", "4-8lb", "12-24lb")
# columns (calibre, double) -> rows <=3, 4, ..., 9, >=10 (R17.6: the left column single, the right Double)
ART_TABLE: Final = {
    ("3lb", False): (M, M, M, M, FH, FH, FH, FHMC),
    ("3lb", True): (M, M, M, FH, FH, FHMC, FHMC, FHMC),
    ("4-8lb", False): (M, M, M, FH, FH, FH, FHMC, FHMC),
    ("4-8lb", True): (M, M, FH, FH, FHMC, FHMC, FHMC, FHMC),
    ("12-24lb", False): (M, M, FH, FH, FH, FHMC, FHMC, FHMC),
    ("12-24lb", True): (M, FH, FH, FHMC, FHMC, FHMC, FHMC, FHMC),
}


def hi_result(regimental: bool, column: str, total: int) -> tuple[FireResult, str]:
    row = max(0, min(9, total))
    return HI_TABLE[(regimental, column)][row], ("≤0" if row == 0 else "9+" if row == 9 else str(row))


def light_result(column: str, total: int) -> tuple[FireResult, str]:
    if total <= 6:
        return M, "≤6"
    row = min(total, 9)
    return LIGHT_TABLE[column][row - 7], ("9+" if row == 9 else str(row))


def art_result(calibre: str, double: bool, total: int) -> tuple[FireResult, str]:
    if total <= 3:
        return M, "≤3"
    row = min(total, 10)
    return ART_TABLE[(calibre, double)][row - 3], ("10+" if row == 10 else str(row))


# 10.8.2 Artillery Range Chart: (first range, last range, modifier) per calibre; beyond the last row "NA"
RANGES: Final = {
    "3lb": ((1, 1, 1), (2, 3, 0), (4, 5, -1), (6, 7, -2), (8, 9, -3)),
    "4-8lb": ((1, 1, 1), (2, 4, 0), (5, 7, -1), (8, 10, -2), (11, 14, -3)),
    "12-24lb": ((1, 1, 1), (2, 6, 0), (7, 9, -1), (10, 13, -2), (14, 17, -3)),
}


def range_modifier(calibre: str, distance: int) -> int | None:
    """10.8.2: the range modifier, None beyond the chart (NA)."""
    for lo, hi, mod in RANGES[calibre]:
        if lo <= distance <= hi:
            return mod
    return None


# --- 12.5 Casualty Threshold Table (R17.73) -------------------------------------------------------------------
_STRENGTH_COLUMNS: Final = ((2, 2), (3, 4), (5, 6), (7, 9), (10, 14), (15, 10**6))
_THRESHOLDS: Final = {6: (1, 1, 2, 3, 4, 5), 7: (1, 2, 3, 4, 5, 6), 8: (None, None, 4, 5, 6, 7)}


def casualty_threshold(morale: int, strength: int) -> int | None:
    """12.5 by Original Morale and Original Strength; None for "NA" and for strength 1 (R17.73)."""
    row = _THRESHOLDS[6 if morale <= 6 else min(morale, 8)]
    for i, (lo, hi) in enumerate(_STRENGTH_COLUMNS):
        if lo <= strength <= hi:
            return row[i]
    return None


# --- 11.0 Close Combat Table, 11.3.8 matrix, 11.4.5, 11.7.2 ---------------------------------------------------
@dataclass(frozen=True, slots=True)
class CCResult:
    code: str  # AE, AMB, AMS2, AMS1, DMS1, DMS2, DMB, DE
    text: str
    loser: str  # "attacker" or "defender"
    morale: str  # "eliminated", "broken", "shaken"
    retreat: int
    advance: str  # "may", "must", "none"
    pursuit: bool


CC_TABLE: Final = (
    CCResult("AE", "Attacker Eliminated", "attacker", "eliminated", 0, "may", True),
    CCResult("AMB", "Attacker Morale Broken, retreat 2", "attacker", "broken", 2, "may", True),
    CCResult("AMS2", "Attacker Morale Shaken, retreat 2", "attacker", "shaken", 2, "may", False),
    CCResult("AMS1", "Attacker Morale Shaken, retreat 1", "attacker", "shaken", 1, "none", False),
    CCResult("DMS1", "Defender Morale Shaken, retreat 1", "defender", "shaken", 1, "none", False),
    CCResult("DMS2", "Defender Morale Shaken, retreat 2", "defender", "shaken", 2, "must", False),
    CCResult("DMB", "Defender Morale Broken, retreat 2", "defender", "broken", 2, "must", True),
    CCResult("DE", "Defender Eliminated", "defender", "eliminated", 0, "must", True),
)
TABLE_CC = "Close Combat Table (11.0)"


def cc_result(total: int) -> tuple[CCResult, str]:
    if total <= 0:
        return CC_TABLE[0], "≤0"
    if total >= 9:
        return CC_TABLE[7], "≥9"
    index = {1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 6}[total]
    return CC_TABLE[index], str(total)


CUIRASSIER, ARQUEBUSIER, HV_INF, LT_INF, HEDGEHOG, HI_NO_PIKES = (
    "cuirassier", "arquebusier", "hv_inf", "lt_inf", "hedgehog", "hi_no_pikes")
CLASS_LABELS: Final = {CUIRASSIER: "Curassier", ARQUEBUSIER: "Arquebusier", HV_INF: "Hv Inf", LT_INF: "Lt Inf",
                       HEDGEHOG: "Hedgehog", HI_NO_PIKES: "HI no Pikes"}
_COLS: Final = (CUIRASSIER, ARQUEBUSIER, HV_INF, LT_INF, HEDGEHOG, HI_NO_PIKES)
_MATRIX: Final = {
    CUIRASSIER: (0, 1, -1, 2, -2, 1),
    ARQUEBUSIER: (-1, 0, -2, 1, -3, 0),
    HV_INF: (1, 2, 0, 2, -1, 1),
    LT_INF: (None, None, None, 0, None, None),
    HI_NO_PIKES: (-1, 0, -1, 1, -2, 0),
}


def matrix(attacker: str, defender: str) -> int | None:
    """11.3.8: the lead attacker's row, the defender's column; None = NA (11.6)."""
    return _MATRIX[attacker][_COLS.index(defender)]


CC_CAP: Final = 4  # "cannot be greater than +4 or less than -4"
UNABLE_ELIMINATED_AT: Final = 4  # 11.4.5: <=4 Eliminated, 5+ Stands
PURSUIT: Final = {"other": (4, 8), "tacw": (2, 5)}  # <= first: Break Off; <= second: Pursue and Eliminate; beyond: off
BREAK_OFF, PURSUE, PURSUE_OFF = "break_off", "pursue", "pursue_off_map"


def pursuit_result(series: str, total: int) -> str:
    a, b = PURSUIT[series]
    return BREAK_OFF if total <= a else PURSUE if total <= b else PURSUE_OFF


# --- 6.3 Formation Effects on Movement ---------------------------------------------------------------------
def movement_allowance(ma: int, mode: Mode, cond: Condition, morale: Morale) -> int:
    """6.3 (R17.40): Shaken half (rounded down, at least 1), Broken / Morale Broken / Hedgehog none, Column +2."""
    if morale is Morale.BROKEN or cond is Condition.BROKEN or mode is Mode.HEDGEHOG:
        return 0
    base = ma + (2 if mode is Mode.COLUMN else 0)
    if cond is Condition.SHAKEN:
        return max(1, base // 2)
    return base


def chance_at_most(need: int | None, modifier: int) -> float:
    """R17.2: the chance that a d10 (0-9) plus `modifier` lies in "0-need" (a modified die below 0 succeeds)."""
    if need is None:
        return 0.0
    return max(0, min(10, need - modifier + 1)) / 10
