"""Hex geometry and line of sight for Vedette.

Rulings implemented here:

* R1 - map geometry. Flat-topped hexes stand in vertical columns and are named
  ``CCRR`` (1-based column then row). The map declares which columns sit half
  a hex lower: ``shifted="even"`` (the default) or ``shifted="odd"``. Distance,
  neighbours and lines are worked in cube coordinates. Range (8.3) equals cube
  distance because it counts the target hex but not the firer's.
* R2 - the two nudged walks of a line of sight (:meth:`HexGrid.line`); what a line of sight passes and what
  blocks it are in ``los.py``.

Cube layout: ``q`` is the column (0101 is ``Hex(0, 0, 0)``) and ``r`` grows
southwards inside a column. The directions follow Red Blob Games' order, which
for this flat-topped layout reads SE, NE, N, NW, SW, S (anticlockwise on a
screen whose y axis points down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

__all__ = [
    "DIRECTION_NAMES",
    "HEX_DIAGONALS",
    "HEX_DIRECTIONS",
    "LOS_EPSILON",
    "FractionalHex",
    "Hex",
    "HexGrid",
    "OffsetCoord",
    "hex_lerp",
    "hex_linedraw",
    "hexside_key",
]

_SHIFTS: Final = frozenset({"even", "odd"})
_MAX_CCRR: Final = 99

# Tie-breaking direction for the nudged line draw (R2). R2 quotes Red Blob's
# (1, 1, -2), but that vector is parallel to one of the three diagonal axes,
# and a centre line along a diagonal is exactly a line that runs along
# hexsides. Nudging along the line leaves its samples on the hexside, so the
# tie is then broken by float noise instead of by the sign of the nudge, and
# on that axis the two walks often coincide (0102-0203 on an even-shifted map
# is one), losing R2's "runs along a hexside" case. (1, 2, -3) is parallel to
# no diagonal, so every tie on every axis breaks one way for +eps and the
# other way for -eps; tests/rules/test_los.py checks all six diagonals.
_NUDGE_Q: Final = 1.0
_NUDGE_R: Final = 2.0
_NUDGE_S: Final = -3.0

# Far above float noise for coordinates below ~200, far below the distance
# from a boundary of any sample not exactly on one (samples are multiples of
# 1/N with N < 200, so that distance is of order 1/N).
LOS_EPSILON: Final = 1e-6


def _check_shift(shifted: str) -> None:
    if shifted not in _SHIFTS:
        raise ValueError(f"shifted must be 'even' or 'odd', not {shifted!r}")


def _parse_ccrr(ccrr: object) -> tuple[int, int]:
    # isascii() guards against str.isdigit() accepting e.g. superscript digits.
    if not (isinstance(ccrr, str) and len(ccrr) == 4 and ccrr.isascii() and ccrr.isdigit()):
        raise ValueError(f"bad hex id '{ccrr}'")
    col, row = int(ccrr[:2]), int(ccrr[2:])
    if col < 1 or row < 1:
        raise ValueError(f"bad hex id '{ccrr}'")
    return col, row


def _format_ccrr(col: int, row: int) -> str:
    if not (1 <= col <= _MAX_CCRR and 1 <= row <= _MAX_CCRR):
        raise ValueError(f"column {col}, row {row} has no CCRR id (both must be 1..99)")
    return f"{col:02d}{row:02d}"


@dataclass(frozen=True, slots=True)
class Hex:
    """An integer cube coordinate; ``q + r + s == 0``."""

    q: int
    r: int
    s: int

    def __post_init__(self) -> None:
        if self.q + self.r + self.s != 0:
            raise ValueError(f"cube coordinates must sum to 0: {self.q}, {self.r}, {self.s}")

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r, self.s - other.s)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k, self.s * k)

    def neighbor(self, direction: int) -> Hex:
        return self + HEX_DIRECTIONS[direction % 6]

    def neighbors(self) -> tuple[Hex, ...]:
        return tuple(self + d for d in HEX_DIRECTIONS)

    def diagonal_neighbor(self, direction: int) -> Hex:
        return self + HEX_DIAGONALS[direction % 6]

    def length(self) -> int:
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: Hex) -> int:
        return (self - other).length()

    @classmethod
    def from_ccrr(cls, ccrr: str, shifted: str = "even") -> Hex:
        return OffsetCoord.from_ccrr(ccrr).to_hex(shifted)

    def ccrr(self, shifted: str = "even") -> str:
        return OffsetCoord.from_hex(self, shifted).ccrr()


HEX_DIRECTIONS: Final[tuple[Hex, ...]] = (
    Hex(1, 0, -1),
    Hex(1, -1, 0),
    Hex(0, -1, 1),
    Hex(-1, 0, 1),
    Hex(-1, 1, 0),
    Hex(0, 1, -1),
)
DIRECTION_NAMES: Final[tuple[str, ...]] = ("SE", "NE", "N", "NW", "SW", "S")
_DIRECTIONS_QR: Final = tuple((d.q, d.r) for d in HEX_DIRECTIONS)

# The centre line towards a diagonal neighbour runs along the hexside between
# the two hexes it passes, so these are the directions R2's hexside case needs.
HEX_DIAGONALS: Final[tuple[Hex, ...]] = (
    Hex(2, -1, -1),
    Hex(1, -2, 1),
    Hex(-1, -1, 2),
    Hex(-2, 1, 1),
    Hex(-1, 2, -1),
    Hex(1, 1, -2),
)


@dataclass(frozen=True, slots=True)
class FractionalHex:
    """A point in cube space, used for lerp and rounding only."""

    q: float
    r: float
    s: float

    def __post_init__(self) -> None:
        # Lerped points carry float noise, so an exact-zero check would reject them.
        if not math.isclose(self.q + self.r + self.s, 0.0, abs_tol=1e-9):
            raise ValueError(f"cube coordinates must sum to 0: {self.q}, {self.r}, {self.s}")

    @classmethod
    def from_hex(cls, h: Hex) -> FractionalHex:
        return cls(float(h.q), float(h.r), float(h.s))

    def round(self) -> Hex:
        # Rounding each axis alone can break q + r + s == 0; the axis that
        # moved furthest is the least trustworthy, so it is rebuilt from the others.
        q, r = _round_qrs(self.q, self.r, self.s)
        return Hex(q, r, -q - r)

    def lerp(self, other: FractionalHex, t: float) -> FractionalHex:
        return hex_lerp(self, other, t)


def hex_lerp(a: FractionalHex, b: FractionalHex, t: float) -> FractionalHex:
    # The a*(1-t) + b*t form lands exactly on b at t == 1.
    u = 1.0 - t
    return FractionalHex(a.q * u + b.q * t, a.r * u + b.r * t, a.s * u + b.s * t)


def _round_qrs(fq: float, fr: float, fs: float) -> tuple[int, int]:
    # FractionalHex.round() on bare floats; the grid's walks run through here
    # because building a frozen dataclass per sample dominated LOS time.
    qi, ri, si = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(qi - fq), abs(ri - fr), abs(si - fs)
    if dq > dr and dq > ds:
        qi = -ri - si
    elif dr > ds:
        ri = -qi - si
    return qi, ri


def _linedraw_qr(aq: int, ar: int, bq: int, br: int, nudge: float) -> list[tuple[int, int]]:
    a_s, b_s = -aq - ar, -bq - br
    n = (abs(aq - bq) + abs(ar - br) + abs(a_s - b_s)) // 2
    nq, nr, ns = nudge * _NUDGE_Q, nudge * _NUDGE_R, nudge * _NUDGE_S
    fa_q, fa_r, fa_s = aq + nq, ar + nr, a_s + ns
    fb_q, fb_r, fb_s = bq + nq, br + nr, b_s + ns
    if n == 0:
        return [_round_qrs(fa_q, fa_r, fa_s)]
    step = 1.0 / n
    out: list[tuple[int, int]] = []
    for i in range(n + 1):
        # Same a*(1-t) + b*t form as hex_lerp, so both paths agree bit for bit.
        t = step * i
        u = 1.0 - t
        out.append(_round_qrs(fa_q * u + fb_q * t, fa_r * u + fb_r * t, fa_s * u + fb_s * t))
    return out


def hex_linedraw(a: Hex, b: Hex, nudge: float = 0.0) -> list[Hex]:
    """Hexes under the centre line from ``a`` to ``b``, ``distance + 1`` of them.

    ``nudge`` shifts both endpoints by ``nudge * (1, 2, -3)`` so that samples
    landing exactly on a hex boundary fall to a consistent side; R2 walks the
    line once with ``+LOS_EPSILON`` and once with ``-LOS_EPSILON``. The
    samples are ``hex_lerp`` of the nudged endpoints at ``i / distance``,
    each rounded as ``FractionalHex.round`` does.
    """
    return [Hex(q, r, -q - r) for q, r in _linedraw_qr(a.q, a.r, b.q, b.r, nudge)]


@dataclass(frozen=True, slots=True)
class OffsetCoord:
    """A hex by its CCRR column and row numbers (1-based).

    Values outside 1..99 are allowed so off-map neighbours can still be
    described; only :meth:`ccrr` insists on a nameable hex.
    """

    col: int
    row: int

    @classmethod
    def from_ccrr(cls, ccrr: str) -> OffsetCoord:
        col, row = _parse_ccrr(ccrr)
        return cls(col, row)

    def ccrr(self) -> str:
        return _format_ccrr(self.col, self.row)

    def to_hex(self, shifted: str = "even") -> Hex:
        _check_shift(shifted)
        q = self.col - 1
        row0 = self.row - 1
        # With 0-based columns, shifted="even" lowers the odd ones (Red Blob's
        # odd-q) and shifted="odd" lowers the even ones (even-q). `q & 1` is
        # the parity for negative q too, which off-map coordinates need.
        if shifted == "even":
            r = row0 - (q - (q & 1)) // 2
        else:
            r = row0 - (q + (q & 1)) // 2
        return Hex(q, r, -q - r)

    @classmethod
    def from_hex(cls, h: Hex, shifted: str = "even") -> OffsetCoord:
        _check_shift(shifted)
        q = h.q
        if shifted == "even":
            row0 = h.r + (q - (q & 1)) // 2
        else:
            row0 = h.r + (q + (q & 1)) // 2
        return cls(q + 1, row0 + 1)


def hexside_key(a: str, b: str) -> tuple[str, str]:
    """The hexside between ``a`` and ``b`` as a sorted pair (R1: sides are unordered)."""
    if a == b:
        raise ValueError(f"a hexside needs two different hexes, got '{a}' twice")
    return (a, b) if a < b else (b, a)


_EDGE_NAMES: Final = ("north", "south", "west", "east")


class HexGrid:
    """A rectangular map of columns x rows, with precomputed tables keyed by CCRR id strings for speed.

    The rules engine keys everything by CCRR strings, so these methods take and
    return str ids. Every table is built once here because movement and range
    searches call :meth:`neighbors` and :meth:`distance` in their inner loops.
    Ids that are not on the map raise ``ValueError``.
    """

    __slots__ = ("_by_qr", "_cube", "_ids", "_neighbors", "_qr", "columns", "rows", "shifted")

    columns: int
    rows: int
    shifted: str

    def __init__(self, columns: int, rows: int, shifted: str = "even") -> None:
        for name, value in (("columns", columns), ("rows", rows)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, not {value!r}")
            if not 1 <= value <= _MAX_CCRR:
                raise ValueError(f"{name} must be 1..{_MAX_CCRR}, not {value}")
        _check_shift(shifted)
        self.columns = columns
        self.rows = rows
        self.shifted = shifted

        ids: list[str] = []
        cube: dict[str, Hex] = {}
        qr: dict[str, tuple[int, int]] = {}
        for col in range(1, columns + 1):
            for row in range(1, rows + 1):
                hid = f"{col:02d}{row:02d}"
                h = OffsetCoord(col, row).to_hex(shifted)
                ids.append(hid)
                cube[hid] = h
                qr[hid] = (h.q, h.r)
        by_qr = {v: k for k, v in qr.items()}
        self._ids: tuple[str, ...] = tuple(ids)
        self._cube = cube
        self._qr = qr
        self._by_qr = by_qr
        self._neighbors: dict[str, tuple[str, ...]] = {}
        for hid, (q, r) in qr.items():
            around = (by_qr.get((q + dq, r + dr)) for dq, dr in _DIRECTIONS_QR)
            self._neighbors[hid] = tuple(n for n in around if n is not None)

    def __repr__(self) -> str:
        return f"HexGrid({self.columns}, {self.rows}, shifted={self.shifted!r})"

    def _unknown(self, ccrr: object) -> ValueError:
        return ValueError(f"hex '{ccrr}' is not on this {self.columns}x{self.rows} map")

    def __contains__(self, ccrr: object) -> bool:
        return isinstance(ccrr, str) and ccrr in self._cube

    def all_hexes(self) -> tuple[str, ...]:
        """Every id, column-major (0101, 0102, ..., 0201, ...)."""
        return self._ids

    def cube(self, ccrr: str) -> Hex:
        try:
            return self._cube[ccrr]
        except KeyError:
            raise self._unknown(ccrr) from None

    def id_of(self, h: Hex) -> str | None:
        """The id of a cube hex, or None when it is off this map."""
        return self._by_qr.get((h.q, h.r))

    def neighbors(self, ccrr: str) -> tuple[str, ...]:
        """On-map neighbours in :data:`HEX_DIRECTIONS` order."""
        try:
            return self._neighbors[ccrr]
        except KeyError:
            raise self._unknown(ccrr) from None

    def distance(self, a: str, b: str) -> int:
        try:
            aq, ar = self._qr[a]
            bq, br = self._qr[b]
        except KeyError:
            raise self._unknown(a if a not in self._qr else b) from None
        dq = aq - bq
        dr = ar - br
        # Axial form of the cube distance: s is implied, so max() replaces the halved sum.
        return max(abs(dq), abs(dr), abs(dq + dr))

    def is_adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    def is_edge(self, ccrr: str) -> bool:
        if ccrr not in self._cube:
            raise self._unknown(ccrr)
        col, row = int(ccrr[:2]), int(ccrr[2:])
        return col == 1 or col == self.columns or row == 1 or row == self.rows

    def edge(self, name: str) -> tuple[str, ...]:
        """The hexes of one map edge: north/south run west to east, west/east run north to south."""
        if name == "north":
            return tuple(_format_ccrr(c, 1) for c in range(1, self.columns + 1))
        if name == "south":
            return tuple(_format_ccrr(c, self.rows) for c in range(1, self.columns + 1))
        if name == "west":
            return tuple(_format_ccrr(1, r) for r in range(1, self.rows + 1))
        if name == "east":
            return tuple(_format_ccrr(self.columns, r) for r in range(1, self.rows + 1))
        raise ValueError(f"edge must be one of {', '.join(_EDGE_NAMES)}, not {name!r}")

    def line(self, a: str, b: str, nudge: float) -> list[str | None]:
        """The nudged line draw from ``a`` to ``b`` in ids; None where a sample is off the map.

        Off-map samples do happen between on-map hexes: the map's top and
        bottom edges zigzag, so e.g. 0102 to 0302 (shifted="even") runs along
        the hexside between 0201 and 0202, but 0101 to 0301 runs along the top
        of 0201, whose other side is off the map.
        """
        try:
            aq, ar = self._qr[a]
            bq, br = self._qr[b]
        except KeyError:
            raise self._unknown(a if a not in self._qr else b) from None
        get = self._by_qr.get
        return [get(qr) for qr in _linedraw_qr(aq, ar, bq, br, nudge)]

    def within(self, center: str, radius: int) -> tuple[str, ...]:
        """On-map hexes within ``radius`` of ``center`` (inclusive), column-major."""
        if radius < 0:
            raise ValueError(f"radius must be >= 0, not {radius}")
        try:
            cq, cr = self._qr[center]
        except KeyError:
            raise self._unknown(center) from None
        get = self._by_qr.get
        out: list[str] = []
        # q is the column and r grows down a column, so this q-then-r sweep
        # already yields column-major order.
        for dq in range(-radius, radius + 1):
            q = cq + dq
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                hid = get((q, cr + dr))
                if hid is not None:
                    out.append(hid)
        return tuple(out)
