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

The edition's procedures (context.py's cached lines, retreating.py, combat_results.py, leaders.py, moving.py)
play these rules in a game.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..kernel.state import STATUS_MAP, UnitState
from .scenario import StandardScenario
from .zoc import zoc_of

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
    loc = sc.sides[side].loc
    held = {s.hex for uid, s in units.items() if s.status == STATUS_MAP and s.hex in loc and sc.units[uid].side == enemy}
    return tuple(h for h in loc if h not in ezoc and h not in held)


def destinations(sc: StandardScenario, units: Mapping[str, UnitState], side: str, army: str,
                 inactive: Iterable[str] = (), ezoc: frozenset[str] | None = None) -> frozenset[str]:
    """7.6: the active HQ and active trains of the army (12.1, 12.2) and the side's functioning LOC hexes."""
    off = set(inactive)
    out = set(functioning_loc(sc, units, side, ezoc))
    for table in (sc.hq, sc.trains):
        uid = table.get(army)
        if uid is not None and uid not in off:
            h = units[uid].hex
            if units[uid].status == STATUS_MAP and h is not None:
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
        if s.status == STATUS_MAP and s.hex is not None:
            (friendly_held if sc.units[uid].side == side else enemy_held).add(s.hex)
    unnegated = ezoc - friendly_held - friendly_zoc
    goals = (destinations(sc, board, side, army, inactive, ezoc) if to is None else frozenset(to)) - enemy_held
    came_from = sc.movable_from[tec_class]
    safe = _search(goals, came_from, enemy_held | unnegated)
    anyline = _search(goals, came_from, enemy_held)
    return RetreatLines(safe, anyline | safe, goals)


def has_safe_line(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, tec_class: str,
                  to: Iterable[str], *, ezoc: frozenset[str] | None = None,
                  friendly_zoc: frozenset[str] | None = None,
                  occupancy: Mapping[str, Sequence[str]] | None = None) -> bool:
    """7.6 for one unit only (12.1, 12.2: the HQ's or trains' own line): the same answer as
    `retreat_lines(..., excluding=[uid], to=to).line(hex) == SAFE`, found by a search forwards from the unit
    that stops at the first destination reached, so it costs a few hexes when the HQ stands near its trains.
    `ezoc`, `friendly_zoc` (the zones of control without the unit) and `occupancy` (hex -> the units on the
    map there): the caller's cached copies, when it has them."""
    start = units[uid].hex
    assert start is not None
    defs = sc.units
    side = defs[uid].side
    if occupancy is None:
        occ: dict[str, list[str]] = {}
        for u, s in units.items():
            if s.status == STATUS_MAP and s.hex is not None:
                occ.setdefault(s.hex, []).append(u)
        occupancy = occ
    if ezoc is None or friendly_zoc is None:
        board = {u: s for u, s in units.items() if u != uid}
        ezoc = zoc_of(sc, board, sc.opponent(side)) if ezoc is None else ezoc
        friendly_zoc = zoc_of(sc, board, side) if friendly_zoc is None else friendly_zoc
    no_units: tuple[str, ...] = ()

    def closed(h: str) -> bool:
        """Enemy-held, or in an EZOC negated by no friendly unit (the searching unit left out) or friendly ZOC."""
        friendly = False
        for u in occupancy.get(h, no_units):
            if u == uid:
                continue
            if defs[u].side != side:
                return True
            friendly = True
        return h in ezoc and not friendly and h not in friendly_zoc

    goals = frozenset(to)
    if not goals:
        return False
    if start in goals and not closed(start):
        return True
    # A path found before is tried first (the HQ and trains usually stand still while the rest move): if it
    # still enters no closed hex and still ends in a destination, the answer is yes at the cost of its length.
    into = sc.movable_into[tec_class]
    hint_key = (uid, tec_class, start)
    hint = sc.line_hints.get(hint_key)
    if hint is not None and hint[-1] in goals and all(
            b in into.get(a, ()) and not closed(b) for a, b in itertools.pairwise(hint)):
        return True
    # The backward search (_search) gives the start a line when some path start -> h1 -> ... -> goal enters
    # no closed hex (the start itself may be closed); so search forwards over the same steps, nearest-goal
    # first (any order visits the same hexes when no goal is reachable; this one finds a goal soonest).
    distance = sc.grid.distance
    targets = tuple(goals)

    def to_goal(h: str) -> int:
        return min(distance(h, g) for g in targets)

    came: dict[str, str] = {start: start}
    frontier = [(to_goal(start), 0, start)]
    tie = 0
    empty: frozenset[str] = frozenset()
    while frontier:
        here = heapq.heappop(frontier)[2]
        for n in into.get(here, empty):
            if n in came:
                continue
            came[n] = here
            if closed(n):
                continue
            if n in goals:
                path = [n]
                while path[-1] != start:
                    path.append(came[path[-1]])
                sc.line_hints[hint_key] = tuple(reversed(path))
                return True
            tie += 1
            heapq.heappush(frontier, (to_goal(n), tie, n))
    return False


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


# --- 7.9 retreat paths ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RetreatPath:
    """One way a group may retreat (7.9): the hexes entered, whether it follows a safe line, the EZOC hexes
    entered (a morale check each; failing one routs, 7.9) and whether it ends in an EZOC (the group must go
    on until free of EZOC, within its printed MA, or rout from its last hex)."""

    path: tuple[str, ...]
    safe: bool
    checks: tuple[str, ...]
    must_continue: bool


def retreat_paths(sc: StandardScenario, units: Mapping[str, UnitState], group: Sequence[str], army: str,
                  *, min_length: int = 1, inactive: Iterable[str] = ()) -> list[RetreatPath]:
    """7.9: the retreats of 1 to 3 hexes open to a group leaving its hex (at least `min_length`: 2 for a
    disrupted unit, 2.8(6)).  Each hex entered is one hex farther from the hex left (S10); no enemy-held hex
    and no hex prohibited to any unit of the group is entered.  With a safe line of retreat (7.6) the group
    must take a safe path: every hex entered free of un-negated EZOC, the last free of any EZOC, and a safe
    line going on from it; only without one are the unsafe paths offered, each ending where a line goes on.
    [] means no line of retreat at all: capture (7.9)."""
    start = units[group[0]].hex
    assert start is not None
    side = sc.units[group[0]].side
    classes = sorted({sc.units[u].kind.tec_class for u in group})
    lines = [retreat_lines(sc, units, side, army, cls, inactive=inactive, excluding=group) for cls in classes]
    gone = set(group)
    board = {u: st for u, st in units.items() if u not in gone}
    ezoc = zoc_of(sc, board, sc.opponent(side))
    negated = {st.hex for u, st in board.items() if st.status == STATUS_MAP and sc.units[u].side == side}
    negated |= zoc_of(sc, board, side)
    enemy_held = {st.hex for u, st in board.items() if st.status == STATUS_MAP and sc.units[u].side != side}
    grid = sc.grid
    found: list[tuple[str, ...]] = []

    def walk(path: list[str]) -> None:
        if len(path) - 1 >= max(min_length, 1):
            found.append(tuple(path[1:]))
        if len(path) - 1 == 3:
            return
        here = path[-1]
        for n in grid.neighbors(here):
            if grid.distance(start, n) != len(path) or n in enemy_held:
                continue
            if not all(sc.could_move(cls, here, n) for cls in classes):
                continue
            walk(path + [n])

    walk([start])
    out = []
    for p in found:
        unsafe_entered = tuple(h for h in p if h in ezoc and h not in negated)
        ends_in_ezoc = p[-1] in ezoc
        safe = not unsafe_entered and not ends_in_ezoc and all(rl.line(p[-1]) == SAFE for rl in lines)
        if safe:
            out.append(RetreatPath(p, True, (), False))
        elif all(rl.line(p[-1]) != NONE for rl in lines):  # an unsafe path still follows a line (7.6)
            out.append(RetreatPath(p, False, tuple(h for h in p if h in ezoc), ends_in_ezoc))
    if any(r.safe for r in out):
        return [r for r in out if r.safe]
    return out
