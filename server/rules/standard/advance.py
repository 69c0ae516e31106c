"""Step losses and advance after combat in the Standard rules (seed 002 7.11, 7.12).

7.11 (S11): step losses come from the primary unit; stacked with it, a non-participating battalion or squadron of
the same formation (an "A" unit shares every formation, 2.4) may absorb them instead, and so may another full-sized
unit (2.7: not a battalion or squadron; reduced or not) with the primary's Unit ID (2.4, the scenario's `unit_id`)
when the primary is itself full-sized.
7.12: when a hex is vacated by retreat or rout (not by step losses alone), participating attackers may
advance one hex — into the vacated hex or a vacant hex adjacent to it that they could move into — ignoring
EZOC, without overstacking; two hexes when the defenders routed (not when they were captured).  Disrupted
units, units with a parenthesised CF, artillery, and units in terrain the TEC forbids advancing from (R13)
do not advance.

The edition's procedures (combat_results.py for 7.11, advancing.py for 7.12) play these rules in a game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ..kernel.state import UnitState
from .movement import printed_side
from .scenario import Kind, StandardScenario
from .stacking import STACK_LIMIT, counting_units
from .tactics import same_formation

_SMALL = (Kind.BATTALION, Kind.SQUADRON)  # 2.7
_FULL_SIZED = (Kind.INFANTRY, Kind.CAVALRY)  # 7.11: the brigades and regiments battalions and squadrons come from


def absorbers(sc: StandardScenario, units: Mapping[str, UnitState], primary: str,
              participants: Collection[str]) -> list[str]:
    """7.11: the units that may take the primary unit's step loss instead (besides the primary itself)."""
    p = units[primary]
    pd = sc.units[primary]

    def absorbs(u: str) -> bool:
        d = sc.units[u]
        if d.kind in _SMALL:
            return u not in participants and same_formation(d.formation, pd.formation)
        # 7.11 "another full-sized unit with the same ID": both full-sized, one Unit ID (2.4)
        return (d.kind in _FULL_SIZED and pd.kind in _FULL_SIZED and pd.unit_id is not None
                and d.unit_id == pd.unit_id)

    return sorted(
        u for u, s in units.items()
        if u != primary and s.on_map and s.hex == p.hex and sc.units[u].side == pd.side and absorbs(u)
    )


def advance_problem(sc: StandardScenario, units: Mapping[str, UnitState], uid: str) -> str | None:
    """7.12: why this participating attacker may not advance at all (None: it may)."""
    s = units[uid]
    d = sc.units[uid]
    assert s.hex is not None
    if d.kind is Kind.ARTILLERY:
        return "7.12: artillery does not advance (8.3)"
    if s.disrupted:
        return "7.12: a disrupted unit does not advance (2.8(4))"
    if s.ineffective:
        return "7.12: an ineffective unit does not advance (11.3: a disrupted unit's constraints)"
    if printed_side(sc, s).parenthesized:
        return "7.12: a unit with a parenthesised CF does not advance"
    cls = d.kind.tec_class
    if cls in sc.terrain_at(s.hex).no_advance_from or any(cls in x.no_advance_from for x in sc.secondary_at(s.hex)):
        return f"7.12: no advance from {sc.terrain_at(s.hex).name} (R13)"
    return None


def advance_hexes(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, vacated: str, *,
                  rout: bool = False, captured: bool = False) -> list[str]:
    """7.12: the hexes this attacker may end its advance in: the vacated hex or a vacant hex next to it that
    it could move into, one hex from where it stands; after a rout (not a capture) one hex further from there
    (EZOC ignored)."""
    if advance_problem(sc, units, uid) is not None:
        return []
    d = sc.units[uid]
    cls = d.kind.tec_class
    s = units[uid]
    assert s.hex is not None
    occupied = {st.hex for u, st in units.items() if st.on_map and u != uid}

    def enterable(a: str, b: str) -> bool:
        if b in occupied and any(sc.units[u].side != d.side for u, st in units.items() if st.on_map and st.hex == b):
            return False
        if not sc.could_move(cls, a, b):
            return False
        if any(cls in f.no_advance_across for f in sc.hexside_effects(a, b)):  # 2.2: clear hexsides too
            return False
        # 7.12: hexes may not be overstacked after the advance
        return not (d.kind.counts_for_stacking and len(counting_units(sc, units, b)) >= STACK_LIMIT)

    first = []
    candidates = [vacated] + [n for n in sc.grid.neighbors(vacated) if n not in occupied]
    for h in candidates:
        if h == s.hex:
            continue
        if sc.grid.is_adjacent(s.hex, h) and enterable(s.hex, h):
            first.append(h)
    if not (rout and not captured):
        return sorted(first)
    out = set(first)
    for h in first:
        for n in sc.grid.neighbors(h):
            if n != s.hex and enterable(h, n):
                out.add(n)
    return sorted(out)
