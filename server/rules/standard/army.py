"""The army's HQ and trains (seed 002 12.1, 12.2), rout to the TRT (7.10), re-entry (13.2).

12.1: the HQ turns inactive whenever it moves, is in an EZOC, lacks a safe line of retreat to its active
trains or a LOC hex, or is attacked; it turns active again at the end of a friendly movement phase in
which none of these applies.  12.2: likewise the trains, whose line must reach a LOC hex.  12.3: without a
functioning LOC hex neither may be active.
7.10: a routing unit with an unsafe line goes to the TRT two turns ahead (set aside in the last two turns).
13.2: a unit in the current TRT box re-enters on or next to an active HQ, next to active trains, or on or
next to a functioning LOC hex; never into an EZOC, an enemy-occupied hex or a hex it would overstack.

The edition's procedures (phases.py, moving.py, fortune.py) play these rules in a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ..kernel.state import UnitState
from .retreat import functioning_loc, has_safe_line
from .scenario import StandardScenario
from .stacking import STACK_LIMIT, counting_units
from .zoc import zoc_of

ZocLookup = Callable[[str], frozenset[str]]
"""A side's zone of control in the position (`StdCtx.zoc_of`, cached until the position changes)."""


def hq_problems(sc: StandardScenario, units: Mapping[str, UnitState], army: str, *, moved: bool, attacked: bool,
                trains_active: bool, zoc: ZocLookup | None = None,
                occupancy: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """12.1: why the army's HQ is (or turns) inactive now; [] means it may be active."""
    uid = sc.hq[army]
    return _problems(sc, units, uid, army, moved=moved, attacked=attacked,
                     to_trains=trains_active, what="12.1", zoc=zoc, occupancy=occupancy)


def trains_problems(sc: StandardScenario, units: Mapping[str, UnitState], army: str, *, moved: bool,
                    attacked: bool, zoc: ZocLookup | None = None,
                    occupancy: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """12.2: why the army's trains is (or turns) inactive now; [] means it may be active."""
    return _problems(sc, units, sc.trains[army], army, moved=moved, attacked=attacked, to_trains=False, what="12.2",
                     zoc=zoc, occupancy=occupancy)


def _problems(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, army: str, *, moved: bool,
              attacked: bool, to_trains: bool, what: str, zoc: ZocLookup | None,
              occupancy: Mapping[str, Sequence[str]] | None) -> list[str]:
    s = units[uid]
    d = sc.units[uid]
    if not s.on_map or s.hex is None:
        return [f"{what}: {d.name} is not on the map"]
    out = []
    if moved:
        out.append(f"{what}: {d.name} moved")
    if zoc is None:
        def zoc(side: str) -> frozenset[str]:
            return zoc_of(sc, units, side)
    ezoc = zoc(sc.opponent(d.side))
    if s.hex in ezoc:
        out.append(f"{what}: {d.name} is in an enemy zone of control")
    if attacked:
        out.append(f"{what}: {d.name} was attacked")
    loc = functioning_loc(sc, units, d.side, ezoc)
    if not loc:
        out.append(f"12.3: {sc.sides[d.side].name} has no functioning LOC hex")
    goals = set(loc)
    tr = sc.trains.get(army)  # S63: an army may have no trains; its HQ's line then goes to a LOC hex only
    if to_trains and tr is not None:
        t = units[tr]
        if t.on_map and t.hex is not None:
            goals.add(t.hex)
    cls = "trains" if d.kind.value == "trains" else "cavalry"  # 12.1: the HQ moves like cavalry
    # An HQ or trains exerts no ZOC (6.1), so leaving it out of the position changes neither side's ZOC.
    if not has_safe_line(sc, units, uid, cls, goals, ezoc=ezoc, friendly_zoc=zoc(d.side),
                          occupancy=occupancy):
        target = "its active trains or a LOC hex" if what == "12.1" else "a LOC hex"
        out.append(f"{what}: {d.name} has no safe line of retreat to {target}")
    return out


def rout_box(turn: int, turns: int) -> int | None:
    """7.10: the TRT box two turns after the current one; None (set aside) in the last two turns."""
    box = turn + 2
    return box if box <= turns else None


def reentry_hexes(sc: StandardScenario, units: Mapping[str, UnitState], uid: str,
                  inactive: Iterable[str] = ()) -> list[str]:
    """13.2: where a unit from the current TRT box may be placed (sorted; [] when nowhere)."""
    d = sc.units[uid]
    side = d.side
    army = sc.army_of(uid)  # 17.4: only the unit's own army's HQ and trains
    off = set(inactive)
    ezoc = zoc_of(sc, units, sc.opponent(side))
    loc = functioning_loc(sc, units, side, ezoc)
    if not loc:
        return []  # 12.3: without a functioning LOC no unit returns
    grid = sc.grid
    near: set[str] = set()
    for h in loc:
        near.add(h)
        near.update(grid.neighbors(h))
    hq = sc.hq.get(army)
    if hq is not None and hq not in off and units[hq].on_map and units[hq].hex is not None:
        hq_hex = units[hq].hex
        near.add(hq_hex)  # type: ignore[arg-type]
        near.update(grid.neighbors(hq_hex))  # type: ignore[arg-type]
    tr = sc.trains.get(army)
    if tr is not None and tr not in off and units[tr].on_map and units[tr].hex is not None:
        near.update(grid.neighbors(units[tr].hex))  # type: ignore[arg-type]
    enemy_held = {s.hex for u, s in units.items() if s.on_map and sc.units[u].side != side}
    out = []
    for h in near:
        if h in ezoc or h in enemy_held:
            continue
        cls = d.kind.tec_class
        if sc.terrain_at(h).is_prohibited(cls) or any(cls in x.prohibited for x in sc.secondary_at(h)):
            continue
        if d.kind.counts_for_stacking and len(counting_units(sc, units, h)) >= STACK_LIMIT:
            continue  # 13.2: placing it would overstack the hex (5.2)
        out.append(h)
    return sorted(out)
