"""Zones of control in the Standard rules (seed 002 6.1, 6.4).

6.1: every combat unit exerts a ZOC into the six adjacent hexes.  6.4: disrupted and ineffective units
exert none; no unit exerts a ZOC into a hex or across a hexside into or across which it could not move;
terrain the TEC marks blocks a ZOC into a hex, out of a hex, or across a hexside.  Leaders, HQs and
trains exert none (12.1, 12.2; 2.4: they are not combat units).

Nothing here is reachable from a game yet: `standard` is not a registered ruleset.
"""

from __future__ import annotations

from typing import Mapping

from ..kernel.hexes import hexside_key
from ..kernel.state import UnitState
from .scenario import StandardScenario


def exerts_zoc(sc: StandardScenario, s: UnitState) -> bool:
    """6.1, 6.4: an effective, undisrupted combat unit on the map."""
    return sc.units[s.id].kind.is_combat and s.on_map and s.hex is not None and not s.disrupted and not s.ineffective


def could_move(sc: StandardScenario, tec_class: str, a: str, b: str) -> bool:
    """Whether a unit of this TEC class could move from a into the adjacent b at all (prohibitions only;
    4.6: a road or trail across the hexside carries it past the terrain)."""
    key = hexside_key(a, b)
    if key in sc.road_links or key in sc.trail_links:
        return True
    if sc.terrain_at(b).is_prohibited(tec_class):
        return False
    if any(tec_class in s.prohibited for s in sc.secondary_at(b)):
        return False
    return not any(tec_class in sc.hexside_features[f].prohibited for f in sc.hexsides.get(key, ()))


def zoc_targets(sc: StandardScenario, hex_: str, tec_class: str) -> tuple[str, ...]:
    """6.4: the adjacent hexes a unit of this class in `hex_` projects its ZOC into."""
    if sc.terrain_at(hex_).blocks_zoc_out or any(s.blocks_zoc_out for s in sc.secondary_at(hex_)):
        return ()
    out = []
    for n in sc.grid.neighbors(hex_):
        if sc.terrain_at(n).blocks_zoc_into or any(s.blocks_zoc_into for s in sc.secondary_at(n)):
            continue
        if any(sc.hexside_features[f].blocks_zoc for f in sc.hexsides.get(hexside_key(hex_, n), ())):
            continue
        if not could_move(sc, tec_class, hex_, n):
            continue
        out.append(n)
    return tuple(out)


def zoc_of(sc: StandardScenario, units: Mapping[str, UnitState], side: str) -> frozenset[str]:
    """6.1: every hex in the ZOC of one or more of `side`'s units (ZOCs do not add up)."""
    out: set[str] = set()
    for uid, s in units.items():
        d = sc.units[uid]
        if d.side == side and exerts_zoc(sc, s):
            assert s.hex is not None
            out.update(zoc_targets(sc, s.hex, d.kind.tec_class))
    return frozenset(out)
