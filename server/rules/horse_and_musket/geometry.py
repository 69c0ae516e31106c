"""R16.4 on the kernel's facing (kernel/facing.py): a unit faces a hexside `f`; its faces (front `f-1, f, f+1`, left
flank `f+2`, right flank `f-2`, rear `f+3`; all front in a town, SR.3); the hexside toward another hex (the cube dot
product's best, a tie to the hexside nearer `f`); the fire arc (5.1.3, 5.2.2: the 120 degrees between the rows out
through `f-1` and `f+1`, both included); enfilade (5.5); RC.1c's gaps. Pure functions of the grid."""

from __future__ import annotations

from typing import Final

from ..kernel.facing import Arc, ArcRule, Direction, arc_of, hexsides_toward, parse_facing
from ..kernel.hexes import HexGrid

FRONT, LEFT, RIGHT, REAR = "front", "left flank", "right flank", "rear"
FIRE_ARC: Final = ArcRule(front=60, flank=60)  # R16.4: the front of this rule is the 120-degree fire arc


def index(facing: str) -> int:
    """`f`: the facing's index in the kernel's order (SE 0, NE 1, N 2, NW 3, SW 4, S 5)."""
    d = parse_facing(facing)
    if not isinstance(d, Direction):
        raise TypeError(f"R16.4: a unit faces a hexside, not the apex {facing}")
    return int(d)


def name(k: int) -> str:
    return Direction(k % 6).name


def turn_steps(a: str, b: str) -> int:
    """How many hexsides apart two facings are (0-3): 1 is the free pivot, 2-3 a turn (4.2.2a, R16.4)."""
    d = (index(b) - index(a)) % 6
    return min(d, 6 - d)


def toward(grid: HexGrid, at: str, facing: str, other: str) -> int:
    """R16.4: the hexside of `at` toward `other` (for an adjacent hex the shared one), a tie to the one nearer `f`."""
    f = index(facing)
    options = hexsides_toward(grid.cube(other) - grid.cube(at))
    return min((int(k) for k in options), key=lambda k: min((k - f) % 6, (f - k) % 6))


def face_of(k: int, facing: str) -> str:
    """R16.4's face of hexside `k` for a unit facing `facing`."""
    rel = (k - index(facing)) % 6
    return {0: FRONT, 1: FRONT, 5: FRONT, 2: LEFT, 4: RIGHT, 3: REAR}[rel]


def face_toward(grid: HexGrid, at: str, facing: str, other: str, all_round: bool = False) -> str:
    """The face of the unit in `at` that `other` lies toward (4.1.2a, 6.6.6); every face is front in a town (SR.3)."""
    if all_round:
        return FRONT
    return face_of(toward(grid, at, facing, other), facing)


def in_fire_arc(grid: HexGrid, at: str, facing: str, target: str) -> bool:
    """5.1.3, 5.2.2, R16.4: `target` lies in `F + a d(f-1) + b d(f+1)`, a, b >= 0."""
    return arc_of(grid.cube(at), parse_facing(facing), grid.cube(target), FIRE_ARC) is Arc.FRONT


def enfilades(grid: HexGrid, firer: str, target: str, target_facing: str, target_in_line: bool,
              target_in_column: bool) -> bool:
    """5.5, R16.14: a line seen from its flank or rear face, or a column from its hexside `f` or `f+3`."""
    k = toward(grid, target, target_facing, firer)
    if target_in_line:
        return face_of(k, target_facing) != FRONT
    if target_in_column:
        return (k - index(target_facing)) % 3 == 0
    return False


def beside(g: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """RC.1c: the hexsides `g+1, g+2` and `g-1, g-2` of a hex entered in direction `g`."""
    return ((g + 1) % 6, (g + 2) % 6), ((g - 1) % 6, (g - 2) % 6)
