"""Facing: which way a unit points, turning, and the arcs (front, flank, rear) it divides the map into.

The kernel offers the geometry; an edition decides what its facings mean and passes its arc definition
(`ArcRule`). Three rule sets read it:

* Standard 19.7 B (the Austrian line): the marker faces an apex (a vertex) of the hex; the two hexes
  sharing that apex are the front, the others flank and rear (19.7 C's "either rear hex": two of each).
  That is `Vertex` with ``ArcRule(front=60, flank=120)``.
* R16.4 (Horse and Musket): a unit faces a hexside ``f``; its faces are front ``f-1, f, f+1``, flank
  ``f+-2``, rear ``f+3``, a far hex taking the face of the hexside toward it with ties to the hexside
  nearer ``f``, i.e. ``ArcRule(front=90, flank=150)``; its fire arc is the 120-degree sector between the
  rows out through ``f-1`` and ``f+1``, both rows included, i.e. the front of ``ArcRule(front=60, flank=60)``.
* R17.16 (Musket & Pike): a unit faces a hexside; a hex's bearing from the facing decides its arc, front up
  to 60 degrees, flank up to 120, rear beyond (both limits inclusive): ``ArcRule(front=60, flank=120)``. Its
  two-hex units are played on one hex (R17.14), so one hex and one facing serve them too.

Directions follow the kernel's (``hexes.HEX_DIRECTIONS``, Red Blob Games' order for this flat-topped
layout, R1): SE 0, NE 1, N 2, NW 3, SW 4, S 5, each next one anticlockwise, i.e. to the unit's left
(R16.4). Vertex ``k`` is the apex between hexsides ``k`` and ``k + 1``: E, NNE, NNW, W, SSW, SSE. The
names of both kinds differ, so a facing is saved as its name alone (`facing_name`, `parse_facing`).

Bearings are exact: a line's direction is found in integer cube arithmetic (no floats), so a hex lying
exactly on a boundary line (a hexside's or an apex's line through the unit's centre) is recognised as
such and the edition's rule decides which arc it is in.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Final, Self, TypeAlias

from .hexes import HEX_DIAGONALS, HEX_DIRECTIONS, Hex, HexGrid

__all__ = [
    "Arc",
    "ArcRule",
    "Bearing",
    "Direction",
    "Facing",
    "Vertex",
    "adjacent_in_arc",
    "arc_of",
    "arc_of_delta",
    "arc_of_id",
    "bearing_of",
    "direction_between",
    "direction_between_ids",
    "facing_name",
    "hexsides_toward",
    "parse_facing",
]

# A turn is 24 steps of 15 degrees: the 12 lines through a hex's centre (6 hexside normals, 6 apexes) lie
# on the even steps, 30 degrees apart; an odd step is "strictly between two of those lines".
_STEPS: Final = 24
_STEP_DEGREES: Final = 15


class _RoundTheHex(IntEnum):
    """Six positions round a hex numbered anticlockwise, so that turning is arithmetic modulo six."""

    def turned(self, steps: int) -> Self:
        """Turned by ``steps``: positive to the left (anticlockwise), negative to the right."""
        return type(self)((self + steps) % 6)

    def left(self) -> Self:
        return self.turned(1)

    def right(self) -> Self:
        return self.turned(-1)

    def about(self) -> Self:
        return self.turned(3)


class Direction(_RoundTheHex):
    """A hexside of a hex, and the direction to the neighbour across it (R1; R16.4, R17.16 name them so)."""

    SE = 0
    NE = 1
    N = 2
    NW = 3
    SW = 4
    S = 5

    @property
    def vector(self) -> Hex:
        return HEX_DIRECTIONS[self]


class Vertex(_RoundTheHex):
    """An apex of a hex: vertex ``k`` joins hexsides ``k`` (on its right) and ``k + 1`` (on its left)."""

    E = 0
    NNE = 1
    NNW = 2
    W = 3
    SSW = 4
    SSE = 5

    @property
    def vector(self) -> Hex:
        """The diagonal through this apex (the centre of the hex two steps out along it)."""
        return HEX_DIAGONALS[self]

    @property
    def hexsides(self) -> tuple[Direction, Direction]:
        """The two hexsides meeting at this apex, right then left: the front hexsides of 19.7 B."""
        return Direction(self), Direction((self + 1) % 6)


Facing: TypeAlias = Direction | Vertex

_BY_NAME: Final[dict[str, Facing]] = {**{d.name: d for d in Direction}, **{v.name: v for v in Vertex}}


def facing_name(facing: Facing) -> str:
    """The name a facing is saved and shown as (``UnitState.facing``, the view): "N", "SE", "NNE", "W"..."""
    return facing.name


def parse_facing(name: str) -> Facing:
    """The facing a saved name stands for: a hexside (`Direction`) or an apex (`Vertex`)."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"facing must be one of {', '.join(_BY_NAME)}, not {name!r}") from None


def direction_between(a: Hex, b: Hex) -> Direction:
    """The hexside of ``a`` that ``b`` lies across; ``b`` must be adjacent."""
    delta = b - a
    for d in Direction:
        if HEX_DIRECTIONS[d] == delta:
            return d
    raise ValueError(f"{b} is not adjacent to {a}")


def direction_between_ids(grid: HexGrid, a: str, b: str) -> Direction:
    """`direction_between` for two adjacent hexes of a map, by id."""
    return direction_between(grid.cube(a), grid.cube(b))


def _axial_solve(v: Hex, x: Hex, y: Hex) -> tuple[int, int]:
    # v = a*x + b*y in axial (q, r); two neighbouring directions span the lattice (determinant +-1).
    det = x.q * y.r - x.r * y.q
    return (v.q * y.r - v.r * y.q) // det, (x.q * v.r - x.r * v.q) // det


def _ray_step(delta: Hex) -> int:
    """The absolute direction of ``delta`` from the centre, in 15-degree steps from SE's hexside (0..23)."""
    if delta.q == 0 and delta.r == 0:
        raise ValueError("a hex has no bearing from itself")
    for k in range(6):
        a, b = _axial_solve(delta, HEX_DIRECTIONS[k], HEX_DIRECTIONS[(k + 1) % 6])
        if a > 0 and b >= 0:  # in the 60-degree sector from hexside k (included) to hexside k+1 (excluded)
            # Inside it, the apex line is a == b; nearer hexside k when b < a.
            within = 0 if b == 0 else 1 if b < a else 2 if b == a else 3
            return 4 * k + within
    raise AssertionError(f"no sector holds {delta}")  # pragma: no cover - the six sectors cover the plane


def _facing_step(facing: Facing) -> int:
    return 4 * facing + (2 if isinstance(facing, Vertex) else 0)


@dataclass(frozen=True, slots=True)
class Bearing:
    """Where a hex lies seen from a unit, relative to its facing, in 15-degree steps: ``steps`` is -11..12,
    positive to the unit's left (anticlockwise), 12 straight behind. An even value lies exactly on one of
    the 12 lines through the hex's centre (``steps * 15`` degrees); an odd one strictly between two."""

    steps: int

    @property
    def exact(self) -> bool:
        """On a line through a hexside's middle or an apex (a boundary an arc rule may fall on)."""
        return self.steps % 2 == 0

    @property
    def degrees(self) -> int:
        """The angle off the facing, 0..180, when `exact`; otherwise the middle of the 30 degrees it lies in."""
        return abs(self.steps) * _STEP_DEGREES

    @property
    def left(self) -> bool:
        return 0 < self.steps < _STEPS // 2

    @property
    def right(self) -> bool:
        return self.steps < 0


def bearing_of(facing: Facing, delta: Hex) -> Bearing:
    """The bearing of the hex at offset ``delta`` (target minus unit; any distance, not zero) from a unit
    facing ``facing``: the direction of the line between their centres."""
    rel = (_ray_step(delta) - _facing_step(facing)) % _STEPS
    return Bearing(rel - _STEPS if rel > _STEPS // 2 else rel)


class Arc(str, Enum):
    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


@dataclass(frozen=True, slots=True)
class ArcRule:
    """An edition's arcs, as angles off the facing (degrees, multiples of 30, 0 <= front <= flank <= 180):
    front up to ``front`` either side, flank up to ``flank``, rear beyond. ``inclusive``: a hex exactly on
    a limit belongs to the arc nearer the facing (R16.4, R17.16); False gives it to the outer one.

    Standard 19.7 B (apex facing) and R17.16 (hexside facing): ``ArcRule(60, 120)``; R16.4's faces:
    ``ArcRule(90, 150)``; R16.4's fire arc: the front of ``ArcRule(60, 60)``; all-round front (R16.4 in a
    town, R17.16 in Hedgehog): ``ArcRule(180, 180)``."""

    front: int
    flank: int
    inclusive: bool = True

    def __post_init__(self) -> None:
        for name, value in (("front", self.front), ("flank", self.flank)):
            if isinstance(value, bool) or not isinstance(value, int) or value % 30 or not 0 <= value <= 180:
                raise ValueError(f"{name} must be a multiple of 30 degrees in 0..180, not {value!r}")
        if self.flank < self.front:
            raise ValueError(f"flank ({self.flank}) must not be less than front ({self.front})")

    def arc(self, bearing: Bearing) -> Arc:
        off = abs(bearing.steps)
        for limit, arc in ((self.front, Arc.FRONT), (self.flank, Arc.FLANK)):
            steps = limit // _STEP_DEGREES
            if off < steps or (self.inclusive and off == steps):
                return arc
        return Arc.REAR


def arc_of_delta(facing: Facing, delta: Hex, rule: ArcRule) -> Arc:
    """The arc of the hex at offset ``delta`` from a unit facing ``facing``, by the line's direction."""
    return rule.arc(bearing_of(facing, delta))


def arc_of(at: Hex, facing: Facing, target: Hex, rule: ArcRule) -> Arc:
    """The arc ``target`` (adjacent or at any distance) lies in, for a unit in ``at`` facing ``facing``."""
    return arc_of_delta(facing, target - at, rule)


def arc_of_id(grid: HexGrid, at: str, facing: Facing, target: str, rule: ArcRule) -> Arc:
    """`arc_of` for two hexes of a map, by id."""
    return arc_of(grid.cube(at), facing, grid.cube(target), rule)


def adjacent_in_arc(grid: HexGrid, at: str, facing: Facing, rule: ArcRule, arc: Arc) -> tuple[str, ...]:
    """The on-map neighbours of ``at`` in ``arc``, in direction order (19.7 B's front hexes, for one)."""
    here = grid.cube(at)
    out = []
    for d in Direction:
        hid = grid.id_of(here + HEX_DIRECTIONS[d])
        if hid is not None and rule.arc(bearing_of(facing, HEX_DIRECTIONS[d])) is arc:
            out.append(hid)
    return tuple(out)


def hexsides_toward(delta: Hex) -> tuple[Direction, ...]:
    """The hexside(s) of a hex facing the hex at offset ``delta``: those maximising the cube dot product
    with the offset (R16.4's "toward"); two when the line runs through an apex, and the edition breaks the
    tie (R16.4: the one nearer the facing)."""
    step = _ray_step(delta)
    if step % 4 == 0:
        return (Direction(step // 4),)
    if step % 4 == 2:
        k = step // 4
        return Direction(k), Direction((k + 1) % 6)
    return (Direction((step + 1) // 4 % 6),)
