"""Line of sight for Vedette: the geometry every edition shares and the readings of what blocks it.

Rulings implemented here:

* R2 - line of sight (Quick Play 8.2): the centre line walked twice, nudged by +eps and -eps
  (:meth:`HexGrid.line`, :func:`los_trace`); V2 (corners) and V3 (the map edge) of docs/rulings.md.
* S29 - Standard 8.6: a line congruent to a hexside is blocked only if both hexes beside it block, hexside terrain
  ignored there.

The geometry (:func:`sight_line`: the hexes a line passes through, the hexsides it crosses, the hexsides it runs
along with the two hexes beside each, and the corners at their ends) is every edition's. What blocks is the edition's
choice, a :class:`LosRules` passed to :func:`line_of_sight`: Quick Play passes :data:`R2_LOS` (also the default),
Standard its 8.6 reading.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, NamedTuple

from .hexes import LOS_EPSILON, HexGrid, hexside_key

__all__ = ["R2_LOS", "LosRules", "SightLine", "line_of_sight", "los_trace", "sight_line"]


def los_trace(grid: HexGrid, a: str, b: str) -> list[tuple[str | None, str | None]]:
    """Both R2 walks side by side, ``(plus_hex, minus_hex)`` per step, from ``a`` to ``b``.

    Where the pair differs the sample sits on the midpoint of the hexside between them: R2 reads the line as running
    along it, which it does on a line congruent to hexsides; any other line crosses that hexside there
    (:func:`sight_line` tells them apart). An entry is None only where that other side is off the map, which happens
    along the zigzag top and bottom edges.
    """
    plus = grid.line(a, b, LOS_EPSILON)
    minus = grid.line(a, b, -LOS_EPSILON)
    return list(zip(plus, minus, strict=True))


Side = tuple[str, str]


class SightLine(NamedTuple):
    """The hexes and hexsides a centre-to-centre line from ``a`` to ``b`` meets, in order along it.

    * ``through``: the hexes between ``a`` and ``b`` it passes through (never ``a`` or ``b``);
    * ``crossed``: the hexsides it crosses, as :func:`hexside_key` pairs;
    * ``along``: the hexsides it runs along, each as the two hexes beside it (a hexside key), or ``(hex, None)``
      where the other side is off the map (the zigzag top and bottom edges, V3);
    * ``corners``: at each end of a hexside it runs along, the line passes through a corner where two more hexsides
      meet; each corner as those two sides, sorted. Corners with a side touching the off-map area are left out:
      such sides carry no features.

    Only a line congruent to hexsides (``b - a`` a multiple of a :data:`HEX_DIAGONALS` entry) runs along them; any
    other line meets hexsides only by crossing them, a few exactly at a hexside's midpoint (R2's walks split there).
    """

    through: tuple[str, ...]
    crossed: tuple[Side, ...]
    along: tuple[tuple[str, str | None], ...]
    corners: tuple[tuple[Side, Side], ...]


def sight_line(grid: HexGrid, a: str, b: str) -> SightLine:
    """What the line from ``a`` to ``b`` passes through, crosses and runs along (the geometry of R2 and 8.6)."""
    through: list[str] = []
    crossed: list[Side] = []
    along: list[tuple[str, str | None]] = []
    corners: list[tuple[Side, Side]] = []

    def hex_(h: str) -> bool:
        through.append(h)
        return False

    def side(x: str, y: str) -> bool:
        crossed.append((x, y))
        return False

    def along_(x: str, y: str | None) -> bool:
        along.append((x, y))
        return False

    def corner(s1: Side, s2: Side) -> bool:
        corners.append((s1, s2))
        return False

    _walk(grid, a, b, False, hex_, side, along_, corner)
    return SightLine(tuple(through), tuple(crossed), tuple(along), tuple(corners))


def _walk(
    grid: HexGrid,
    a: str,
    b: str,
    splits_along: bool,
    on_hex: Callable[[str], bool],
    on_side: Callable[[str, str], bool],
    on_along: Callable[[str, str | None], bool],
    on_corner: Callable[[Side, Side], bool],
) -> bool:
    # Reads R2's two walks step by step, telling the callbacks what the line meets in order along it, and stops at the
    # first that answers True (returning True). Where both walks are in one hex the line passes through it; where they
    # differ the sample sits on the midpoint of the hexside between them. On a line congruent to hexsides it runs
    # along that hexside (on_along: a hexside key, or (hex, None) beside the off-map area), entering and leaving it
    # through corners (on_corner: the two other sides meeting there, sorted). On any other line it crosses that
    # hexside there, passing through both hexes, and the walks' "corners" before and after are the hexsides it crosses
    # into the first and out of the second. `splits_along` reads every split as R2 does: a hexside run along.
    if a == b:
        grid.cube(a)  # still reject ids that are not on the map
        return False
    trace = los_trace(grid, a, b)
    if not splits_along:
        # Congruent to hexsides (a multiple of a diagonal): every split is a hexside run along.
        ca, cb = grid.cube(a), grid.cube(b)
        dq, dr, ds = cb.q - ca.q, cb.r - ca.r, cb.s - ca.s
        splits_along = dq == dr or dr == ds or dq == ds
    ends = (a, b)
    last = len(trace) - 1
    prev_p, prev_m = trace[0]
    second: str | None = None  # the later hex of a hexside crossed at its midpoint, at the step after it
    for i in range(1, last + 1):
        p, m = trace[i]
        side_p = _side(prev_p, p)
        side_m = _side(prev_m, m)
        if side_p == side_m:
            if side_p is not None and on_side(*side_p):
                return True
        elif second is not None and p is not None:
            if on_side(*hexside_key(second, p)):  # out of the midpoint's later hex (here p == m)
                return True
        elif not splits_along and prev_p is not None and p is not None and m is not None:
            first, second = _in_line_order(grid, (dq, dr, ds), p, m)
            if on_side(*hexside_key(prev_p, first)) or on_hex(first):
                return True
            if on_side(*hexside_key(first, second)) or on_hex(second):
                return True
            prev_p, prev_m = p, m
            continue
        elif side_p is not None and side_m is not None and on_corner(*sorted((side_p, side_m))):
            return True
        second = None
        if i != last:
            if p == m:
                if p is not None and p not in ends and on_hex(p):
                    return True
            elif m is None:
                if p is not None and on_along(p, None):
                    return True
            elif p is None:
                if on_along(m, None):
                    return True
            elif on_along(*hexside_key(p, m)):
                return True
        prev_p, prev_m = p, m
    return False


def _in_line_order(grid: HexGrid, d: tuple[int, int, int], x: str, y: str) -> tuple[str, str]:
    # Of two adjacent hexes whose common hexside a line crosses at its midpoint, the one nearer the start: the smaller
    # projection on the line's direction (the cube axes, restricted to the plane q + r + s = 0, keep its angles).
    cx, cy = grid.cube(x), grid.cube(y)
    dot = (cx.q - cy.q) * d[0] + (cx.r - cy.r) * d[1] + (cx.s - cy.s) * d[2]
    return (x, y) if dot < 0 else (y, x)


@dataclass(frozen=True, slots=True)
class LosRules:
    """An edition's reading of what blocks a line of sight, over the kernel's geometry (:func:`sight_line`).

    Every reading agrees that a hex the line passes through blocks if its terrain does, a hexside it crosses blocks if
    its terrain does, a line along a hexside is blocked if both hexes beside it block (an off-map hex never blocks),
    and firing and target hexes and units never block. The flags say what the editions read differently:

    * ``splits_along``: R2 reads every step where its two walks differ as a hexside run along, which includes a line
      crossing a hexside exactly at its midpoint; False: only a line congruent to hexsides runs along them (8.6), and
      one crossing a hexside at its midpoint passes through both hexes and crosses the hexside;
    * ``side_along_blocks``: a blocking hexside the line runs along blocks it (R2; 8.6 ignores hexside terrain);
    * ``corner_sides_block``: two blocking hexsides meeting at a corner the line passes through block it (V2 under R2;
      8.6 ignores them, S29).
    """

    splits_along: bool
    side_along_blocks: bool
    corner_sides_block: bool


# R2 (Quick Play 8.2, with V2 for corners): hexside terrain counts along a hexside too, and wherever the two walks
# differ the line is read as running along a hexside.
R2_LOS: Final = LosRules(splits_along=True, side_along_blocks=True, corner_sides_block=True)


def line_of_sight(
    grid: HexGrid,
    a: str,
    b: str,
    hex_blocks: Callable[[str], bool],
    side_blocks: Callable[[str, str], bool],
    rules: LosRules = R2_LOS,
) -> bool:
    """True if a sees b: the line's hexes and hexsides judged by ``rules`` (R2 by default; see :class:`LosRules`).

    a == b sees itself; adjacent hexes see each other unless the hexside between them (crossed) blocks.
    ``hex_blocks(id)`` says whether a hex's terrain blocks; it is never asked about ``a`` or ``b`` (they never block)
    or about off-map points. ``side_blocks(x, y)`` is always called with ``(x, y) == hexside_key(x, y)`` so a set of
    hexside keys can answer it directly; off-map sides never block. Units play no part (R2, 8.6).

    The line is blocked by a hex it passes through whose terrain blocks, by a blocking hexside it crosses, by a
    hexside it runs along when both hexes beside it block or (``side_along_blocks``) when that hexside blocks, and
    (``corner_sides_block``) by a corner it passes through where both hexsides block - the same "both sides" reading
    R2 gives a line along a hexside, applied to the corner at the end of that hexside (V2).
    """
    if rules.side_along_blocks:

        def along(x: str, y: str | None) -> bool:
            # The other side off the map: never blocked (V3).
            return y is not None and (side_blocks(x, y) or (hex_blocks(x) and hex_blocks(y)))
    else:

        def along(x: str, y: str | None) -> bool:
            return y is not None and hex_blocks(x) and hex_blocks(y)

    def corner(s1: Side, s2: Side) -> bool:
        return side_blocks(*s1) and side_blocks(*s2)

    return not _walk(grid, a, b, rules.splits_along, hex_blocks, side_blocks, along,
                     corner if rules.corner_sides_block else _never)


def _never(s1: Side, s2: Side) -> bool:
    return False


def _side(x: str | None, y: str | None) -> Side | None:
    # Sides that touch the off-map area carry no features.
    if x is None or y is None or x == y:
        return None
    return hexside_key(x, y)
