"""Zones of control in the Standard rules (seed 002 6.1, 6.4).

6.1: every combat unit exerts a ZOC into the six adjacent hexes.  6.4: disrupted and ineffective units
exert none; no unit exerts a ZOC into a hex or across a hexside into or across which it could not move;
terrain the TEC marks blocks a ZOC into a hex, out of a hex, or across a hexside.  Leaders, HQs and
trains exert none (12.1, 12.2; 2.4: they are not combat units).  19.7 B: a unit in line (its kernel `facing`, an
apex) exerts one only into its two front hexes (special.line_front).

The edition's procedures (through context.py's cached zones of control) play these rules in a game.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..kernel.state import STATUS_MAP, UnitState
from .scenario import StandardScenario
from .special import line_front

_MAP = STATUS_MAP


def exerts_zoc(sc: StandardScenario, s: UnitState) -> bool:
    """6.1, 6.4: an effective, undisrupted combat unit on the map."""
    return (s.status == _MAP and s.hex is not None and not s.disrupted and not s.ineffective
            and sc.units[s.id].kind.is_combat)


def could_move(sc: StandardScenario, tec_class: str, a: str, b: str) -> bool:
    """6.4: whether a unit of this class could move from a into the adjacent b (StandardScenario.could_move)."""
    return sc.could_move(tec_class, a, b)


def zoc_targets(sc: StandardScenario, hex_: str, tec_class: str) -> tuple[str, ...]:
    """6.4: the adjacent hexes a unit of this class in `hex_` projects its ZOC into (StandardScenario.zoc_into)."""
    return sc.zoc_into[tec_class][hex_]


def unit_zoc(sc: StandardScenario, s: UnitState) -> tuple[str, ...]:
    """6.1, 6.4, 19.7 B: the hexes this unit projects its ZOC into where it stands (exerting one or not): a unit in
    line only into its front hexes."""
    assert s.hex is not None
    table = sc.zoc_into[sc.units[s.id].kind.tec_class][s.hex]
    if s.facing is None:
        return table
    front = line_front(sc.grid, s.hex, s.facing)
    return tuple(h for h in table if h in front)


def zoc_of(sc: StandardScenario, units: Mapping[str, UnitState], side: str) -> frozenset[str]:
    """6.1: every hex in the ZOC of one or more of `side`'s units (ZOCs do not add up)."""
    out: set[str] = set()
    update = out.update
    for uid, table in sc.zoc_plan[side]:  # the same test as exerts_zoc, unrolled: this runs on every command
        s = units.get(uid)
        if s is not None and s.status == _MAP and not s.disrupted and not s.ineffective and s.hex is not None:
            update(table[s.hex] if s.facing is None else unit_zoc(sc, s))  # 19.7 B: a line's front only
    return frozenset(out)
