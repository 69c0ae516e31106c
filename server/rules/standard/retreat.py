"""Lines of retreat in the Standard rules (seed 002 7.6), with the HQ, trains and LOC hexes they lead to
(12.1-12.3).

7.6: a unit has a safe line of retreat (SLR) when a path of hexes leads from it to its army's active HQ,
its army's active trains, or a functioning LOC hex of its side, entering no prohibited terrain, no
enemy-occupied hex and no enemy zone of control — an EZOC is negated by a friendly unit in the hex or by
a friendly ZOC.  An unsafe line is such a path that enters (or ends in) an un-negated EZOC.  Otherwise
there is no line of retreat.  A map edge that is not a LOC hex is no destination (7.9).
12.3: a LOC hex functions while no enemy unit or EZOC is in it.  12.1, 12.2: an inactive HQ or trains
takes no line of retreat.

`retreat_lines` answers for every hex of the map at once (a breadth-first search backwards from the
destinations over `StandardScenario.movable_into`), so one computation per side, army, unit class and
position serves every unit; a retreating group is computed with its own units left out (`excluding`),
so their ZOC does not negate the EZOC they retreat through.

Nothing here is reachable from a game yet: `standard` is not a registered ruleset.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..kernel.state import Status, UnitState
from .scenario import StandardScenario
from .zoc import zoc_of

_MAP = Status.MAP.value
SAFE = "safe"
UNSAFE = "unsafe"
NONE = "none"


@dataclass(frozen=True, slots=True)
class RetreatLines:
    """Which hexes have a safe line of retreat and which have any line at all (7.6)."""

    safe: frozenset[str]
    any: frozenset[str]
    destinations: frozenset[str]

    def line(self, hex_: str) -> str:
        if hex_ in self.safe:
            return SAFE
        if hex_ in self.any:
            return UNSAFE
        return NONE


def functioning_loc(sc: StandardScenario, units: Mapping[str, UnitState], side: str,
                    ezoc: frozenset[str] | None = None) -> tuple[str, ...]:
    """12.3: the side's LOC hexes that hold no enemy unit and lie in no EZOC."""
    enemy = sc.opponent(side)
    if ezoc is None:
        ezoc = zoc_of(sc, units, enemy)
    held = {s.hex for uid, s in units.items() if s.status == _MAP and sc.units[uid].side == enemy}
    return tuple(h for h in sc.sides[side].loc if h not in ezoc and h not in held)


def destinations(sc: StandardScenario, units: Mapping[str, UnitState], side: str, army: str,
                 inactive: Iterable[str] = (), ezoc: frozenset[str] | None = None) -> frozenset[str]:
    """7.6: the active HQ and active trains of the army (12.1, 12.2) and the side's functioning LOC hexes."""
    off = set(inactive)
    out = set(functioning_loc(sc, units, side, ezoc))
    for table in (sc.hq, sc.trains):
        uid = table.get(army)
        if uid is not None and uid not in off:
            h = units[uid].hex
            if units[uid].status == _MAP and h is not None:
                out.add(h)
    return frozenset(out)


def retreat_lines(sc: StandardScenario, units: Mapping[str, UnitState], side: str, army: str, tec_class: str,
                  *, inactive: Iterable[str] = (), excluding: Iterable[str] = (),
                  to: Iterable[str] | None = None) -> RetreatLines:
    """7.6 for every hex at once, for units of `tec_class` of `side` and `army`.  `excluding`: units left out
    of the position (the retreating group: its own ZOC negates nothing on its way).  `to`: other destinations
    than 7.6's (12.1: the HQ's line to its trains or LOC; 12.2: the trains' line to the LOC)."""
    gone = set(excluding)
    board = {uid: s for uid, s in units.items() if uid not in gone} if gone else units
    enemy = sc.opponent(side)
    ezoc = zoc_of(sc, board, enemy)
    friendly_zoc = zoc_of(sc, board, side)
    enemy_held: set[str] = set()
    friendly_held: set[str] = set()
    for uid, s in board.items():
        if s.status == _MAP and s.hex is not None:
            (friendly_held if sc.units[uid].side == side else enemy_held).add(s.hex)
    unnegated = ezoc - friendly_held - friendly_zoc
    goals = (destinations(sc, board, side, army, inactive, ezoc) if to is None else frozenset(to)) - enemy_held
    came_from = sc.movable_from[tec_class]
    safe = _search(goals, came_from, enemy_held | unnegated)
    anyline = _search(goals, came_from, enemy_held)
    return RetreatLines(safe, anyline | safe, goals)


def _search(goals: frozenset[str], came_from: Mapping[str, tuple[str, ...]], closed: set[str]) -> frozenset[str]:
    """Hexes with a path to a goal that enters no closed hex (a breadth-first search from the goals)."""
    start = [g for g in goals if g not in closed]
    reach = set(start)
    queue = deque(start)
    pop, push, add = queue.popleft, queue.append, reach.add
    empty: tuple[str, ...] = ()
    while queue:
        for p in came_from.get(pop(), empty):
            if p not in reach:
                add(p)  # p has a line: its first step enters the hex just popped
                if p not in closed:
                    push(p)  # and a path may run on through p
    return frozenset(reach)
