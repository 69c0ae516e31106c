"""Movement (4.0-4.5), zones of control in movement (6.2), leaders moving alone (10.0), squares moving (9.3(1)).

Costs are kept in half movement points so that road movement (4.4, half an MP
per hex) stays in integers.  One search serves validation, the client's
shaded hexes and the random player.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.scenario import UnitKind
from ..kernel.state import PHASE_MOVEMENT, STATUS_MAP, STATUS_OFFBOARD, STATUS_RETURNING
from .leaders import LEADER_MOVE_HEXES, check_lone_leaders_after_move

HALF = 2  # half-MP units per MP


@dataclass
class MoveGroup:
    uids: list[str]
    side: str
    start: str | None  # None for a reinforcement entering the map
    combat: list[str]
    leaders: list[str]
    ma_halves: int
    mode: str  # "stack", "leader", "square"
    classes: frozenset[str]
    may_enter_ezoc: bool
    ezoc_rule: str
    starts_in_ezoc: bool
    entry: EntryOption | None = None
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class EntryOption:
    hex: str
    cost_halves: int
    slide: int  # 0 = the named entry hex, k = k hexes along the edge (4.5)


@dataclass
class Reach:
    cost: int  # half MP
    path: list[str]
    ends_move: bool  # entering EZOC ends the move (6.2)


def _movement_factor(ctx: Ctx, uid: str) -> int:
    return ctx.factors(uid).ma


def build_group(ctx: Ctx, side: str, uids: list[str]) -> MoveGroup:
    """Check that these units may move together now and describe them as one moving stack (4.1)."""
    st = ctx.st
    ctx.require(bool(uids), "4.1", "name at least one unit to move")
    ctx.require(len(set(uids)) == len(uids), "4.1", "a unit is named twice")
    for uid in uids:
        ctx.require(uid in ctx.sc.units, "4.1", f"there is no unit '{uid}'")
        ctx.require(ctx.side_of(uid) == side, "4.1", f"{ctx.name(uid)} is not yours to move")
    states = [st.units[u] for u in uids]
    entering = [s for s in states if s.status in (STATUS_OFFBOARD, STATUS_RETURNING)]
    if entering:
        ctx.require(len(entering) == len(states), "4.5", "reinforcements enter on their own, not with units already on the map")
        for s in entering:
            ctx.require(s.entry_turn is not None and s.entry_turn <= st.turn, "4.5",
                        f"{ctx.name(s.id)} does not arrive until turn {s.entry_turn}")
        hexes = {s.entry_hex for s in entering}
        ctx.require(len(hexes) == 1, "4.5", "units entering together must share one entry hex")
        start = None
    else:
        for s in states:
            ctx.require(s.status == STATUS_MAP, "4.1", f"{ctx.name(s.id)} is not on the map")
        hexes = {s.hex for s in states}
        ctx.require(len(hexes) == 1, "4.1", "units moving together must start in the same hex")
        start = states[0].hex
    for s in states:
        ctx.require(not s.moved, "4.1", f"{ctx.name(s.id)} has already moved this phase")
        ctx.require(s.charging is None, "9.2", f"{ctx.name(s.id)} has already made its charge move")
    combat = [u for u in uids if not ctx.is_leader(u)]
    leaders = [u for u in uids if ctx.is_leader(u)]
    classes = frozenset(ctx.d(u).tec_class for u in combat)
    if not combat:
        return MoveGroup(
            uids, side, start, [], leaders, LEADER_MOVE_HEXES * HALF, "leader", frozenset(),
            True, "10.0", False,
        )
    ma = min(_movement_factor(ctx, u) for u in combat)
    # 10.0(1): one leader moving with units of its formation adds its movement factor.
    bonus = 0
    for ldr in leaders:
        if not st.units[ldr].ineffective and all(ctx.helps(ldr, u) for u in combat):
            bonus = max(bonus, ctx.leader_factors(ldr).movement)
    ma += bonus
    may_enter = True
    ezoc_rule = "6.2"
    for u in combat:
        s = st.units[u]
        if s.ineffective:
            may_enter, ezoc_rule = False, "11.2"
            break
        if s.disrupted and not any(ctx.helps(ldr, u) and not st.units[ldr].ineffective for ldr in leaders):
            may_enter, ezoc_rule = False, "11.1"
    mode = "stack"
    if start is not None and start in st.squares:
        mode = "square"
        everyone = ctx.units_at(start)
        ctx.require(sorted(everyone) == sorted(uids), "9.3",
                    "units in square move together as the square: move every unit in the hex or none")
    starts_in_ezoc = start is not None and ctx.in_ezoc(start, side)
    return MoveGroup(uids, side, start, combat, leaders, ma * HALF, mode, classes, may_enter, ezoc_rule, starts_in_ezoc)


def step_cost(ctx: Ctx, group: MoveGroup, a: str, b: str, on_road: bool) -> int | None:
    """Half-MP cost of stepping a -> b for the group, or None where prohibited.

    A step along a road link ignores the terrain and hexside it would otherwise
    pay for (the road crosses by bridge or ford); `on_road` says the move is
    made entirely along the road (4.4).
    """
    sc = ctx.sc
    if (a, b) in sc.directed_road_links:
        return sc.road_mp_halves if on_road else HALF
    if on_road:
        return None
    if group.leaders and (a, b) in sc.leader_blocked:
        return None
    if group.mode == "leader":
        return HALF
    worst = 0
    tables = sc.step_costs
    for cls in group.classes:
        cost = tables[cls][(a, b)]
        if cost is None:
            return None
        worst = max(worst, cost)
    return worst * HALF


def entry_cost(ctx: Ctx, group: MoveGroup, hex_: str) -> int | None:
    if group.mode == "leader":
        return HALF if ctx.can_enter_terrain("leader", None, hex_) else None
    terrain = ctx.sc.terrain_at(hex_)
    worst = 0
    for cls in group.classes:
        if terrain.is_prohibited(cls):
            return None
        worst = max(worst, terrain.move[cls])
    return worst * HALF


def _would_overstack(ctx: Ctx, hex_: str, uids: list[str]) -> bool:
    kinds = [ctx.kind(u) for u in ctx.units_at(hex_)] + [ctx.kind(u) for u in uids]
    return not ctx.rs.stacking_ok(kinds)


def entry_options(ctx: Ctx, group: MoveGroup) -> list[EntryOption]:
    """Where a reinforcement group may come on (4.5, R3, R9): its entry hex, or a slide along the edge."""
    st = ctx.st
    entry = st.units[group.uids[0]].entry_hex
    assert entry is not None
    side = group.side

    def blocked(h: str) -> bool:
        return ctx.enemy_occupied(h, side) or _would_overstack(ctx, h, group.uids)

    first = entry_cost(ctx, group, entry)
    if not blocked(entry):
        return [EntryOption(entry, first, 0)] if first is not None else []
    options: list[EntryOption] = []
    grid = ctx.sc.grid
    friendly_entries = ctx.sc.all_entry_hexes[side]
    for edge_name in ("north", "south", "west", "east"):
        edge = list(grid.edge(edge_name))
        if entry not in edge:
            continue
        i = edge.index(entry)
        directions = []
        for step in (-1, 1):
            j = i + step
            found = False
            while 0 <= j < len(edge):
                if edge[j] in friendly_entries:
                    found = True
                    break
                j += step
            directions.append((step, found))
        wanted = [step for step, found in directions if found] or [-1, 1]
        for step in wanted:
            j, slide = i + step, 1
            while 0 <= j < len(edge):
                cost = 2 * HALF + (slide - 1) * HALF
                if cost > group.ma_halves:
                    break
                h = edge[j]
                if not blocked(h):
                    if entry_cost(ctx, group, h) is not None:
                        options.append(EntryOption(h, cost, slide))
                    break
                j += step
                slide += 1
    seen: set[str] = set()
    out = []
    for o in sorted(options, key=lambda o: (o.cost_halves, o.hex)):
        if o.hex not in seen:
            seen.add(o.hex)
            out.append(o)
    return out


def _enterable(ctx: Ctx, group: MoveGroup, hex_: str) -> tuple[bool, bool]:
    """(may enter, entering ends the move) with respect to occupants and zones of control."""
    side = group.side
    occ = ctx.occupancy().get(hex_)
    if occ and ctx.side_of(occ[0]) != side:
        return False, False
    in_ezoc = hex_ in ctx.zoc_of(ctx.enemy(side))
    if group.mode == "leader":
        # 10.0: a leader alone may not enter an EZOC unless a friendly unit is there; it is never stopped.
        if in_ezoc and not ctx.friendly_combat_at(hex_, side):
            return False, False
        return True, False
    if in_ezoc:
        if not group.may_enter_ezoc:
            return False, False
        return True, True
    return True, False


def reachable(ctx: Ctx, group: MoveGroup) -> dict[str, Reach]:
    """Every hex the group may end its move in, with the cheapest cost and a path (4.0, 6.2)."""
    out: dict[str, Reach] = {}
    if group.start is None:
        for opt in entry_options(ctx, group):
            ok, ends = _enterable(ctx, group, opt.hex)
            if not ok:
                continue
            first_ok = opt.cost_halves <= group.ma_halves or opt.slide == 0  # 4.3: one hex always
            if not first_ok:
                continue
            _search(ctx, group, opt.hex, opt.cost_halves, [opt.hex], ends, out, on_road=False)
            if opt.slide == 0 and opt.hex in ctx.sc.road_hexes and group.mode == "stack":
                # V26: arriving by a road entry hex and going on along the road is road movement (4.4).
                _search(ctx, group, opt.hex, ctx.sc.road_mp_halves, [opt.hex], ends, out, on_road=True)
        return out
    start = group.start
    if group.mode == "square":
        for n in ctx.sc.grid.neighbors(start):
            ok, _ = _enterable(ctx, group, n)
            c = step_cost(ctx, group, start, n, False)
            if not ok or c is None or (group.starts_in_ezoc and ctx.in_ezoc(n, group.side)):
                continue
            out[n] = Reach(c, [start, n], True)
        return out
    if group.starts_in_ezoc and group.mode != "leader":
        # 6.2: out of an EZOC exactly one hex, and not straight into another.
        for n in ctx.sc.grid.neighbors(start):
            ok, _ = _enterable(ctx, group, n)
            if not ok or ctx.in_ezoc(n, group.side):
                continue
            c = step_cost(ctx, group, start, n, False)
            if c is None:
                continue
            out[n] = Reach(c, [start, n], True)  # 4.3: the one hex is always allowed, whatever its cost
        return out
    _search(ctx, group, start, 0, [start], False, out, on_road=False)
    if start in ctx.sc.road_hexes and group.mode != "leader":
        _search(ctx, group, start, 0, [start], False, out, on_road=True)
    out.pop(start, None)
    return out


def _search(
    ctx: Ctx, group: MoveGroup, origin: str, origin_cost: int, origin_path: list[str],
    origin_ends: bool, out: dict[str, Reach], on_road: bool,
) -> None:
    grid = ctx.sc.grid
    budget = group.ma_halves
    if origin != group.start:
        _offer(out, origin, origin_cost, origin_path, origin_ends)
    if origin_ends:
        return
    best: dict[str, int] = {origin: origin_cost}
    paths: dict[str, list[str]] = {origin: origin_path}
    heap: list[tuple[int, str]] = [(origin_cost, origin)]
    first_step_free = origin == group.start and group.mode != "leader"  # 4.3: one hex always
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > best.get(h, 10**9):
            continue
        for n in grid.neighbors(h):
            c = step_cost(ctx, group, h, n, on_road)
            if c is None:
                continue
            total = cost + c
            if total > budget and not (first_step_free and h == origin):
                continue
            ok, ends = _enterable(ctx, group, n)
            if not ok:
                continue
            if total >= best.get(n, 10**9):
                continue
            path = paths[h] + [n]
            best[n] = total
            paths[n] = path
            _offer(out, n, total, path, ends)
            if not ends and total <= budget:
                heapq.heappush(heap, (total, n))


def _offer(out: dict[str, Reach], hex_: str, cost: int, path: list[str], ends: bool) -> None:
    current = out.get(hex_)
    if current is None or cost < current.cost or (cost == current.cost and len(path) < len(current.path)):
        out[hex_] = Reach(cost, list(path), ends)


def path_cost(ctx: Ctx, group: MoveGroup, path: list[str]) -> int:
    """Validate an explicit path step by step and return its cost in half MP; raises IllegalCommand."""
    grid = ctx.sc.grid
    side = group.side
    for h in path:
        ctx.require(isinstance(h, str) and h in grid, "4.1", f"hex '{h}' is not on the map")
    if group.start is None:
        ctx.require(len(path) >= 1, "4.5", "give at least the hex the reinforcement enters")
        options = {o.hex: o for o in entry_options(ctx, group)}
        ctx.require(path[0] in options, "4.5",
                    f"{ctx.names(group.uids)} may enter only at {', '.join(sorted(options)) or 'no hex this turn (entry blocked)'}")
        opt = options[path[0]]
        cost = opt.cost_halves
        ctx.require(cost <= group.ma_halves or opt.slide == 0, "4.5",
                    "the slide along the map edge uses up the whole movement allowance; enter next turn")
        steps = list(itertools.pairwise(path))
        ok, ends = _enterable(ctx, group, path[0])
        ctx.require(ok, "6.2", f"{ctx.names(group.uids)} may not enter {path[0]} (enemy zone of control)")
        ctx.require(not (ends and len(path) > 1), "6.2", "entering an enemy zone of control ends the move")
        road_only = (group.mode == "stack" and opt.slide == 0 and path[0] in ctx.sc.road_hexes
                     and all(ctx.sc.is_road_link(a, b) for a, b in steps))
        if road_only:
            cost = ctx.sc.road_mp_halves  # V26: the unit arrives along the road
    else:
        ctx.require(len(path) >= 2, "4.1", "a move needs the start hex and at least one more hex")
        ctx.require(path[0] == group.start, "4.1", f"the path must start at {group.start}, where the units are")
        steps = list(itertools.pairwise(path))
        cost = 0
        road_only = group.mode == "stack" and all(ctx.sc.is_road_link(a, b) for a, b in steps)
    if group.mode == "square":
        ctx.require(len(path) == 2, "9.3", "a square moves one hex per movement phase")
    if group.mode == "leader":
        ctx.require(len(steps) <= LEADER_MOVE_HEXES, "10.0",
                    f"a leader moving alone moves at most {LEADER_MOVE_HEXES} hexes")
    if group.starts_in_ezoc and group.mode not in ("leader",):
        ctx.require(len(path) == 2, "6.2", "a unit that starts in an enemy zone of control may move only one hex")
        ctx.require(not ctx.in_ezoc(path[1], side), "6.2",
                    "a unit leaving an enemy zone of control may not move straight into another")
    for i, (a, b) in enumerate(steps):
        ctx.require(grid.is_adjacent(a, b), "4.1", f"{a} and {b} are not adjacent: a path may not skip hexes")
        c = step_cost(ctx, group, a, b, road_only)
        if c is None:
            raise IllegalCommand("4.3", f"{ctx.names(group.uids)} may not enter {b} from {a}: prohibited terrain")
        ok, ends = _enterable(ctx, group, b)
        if not ok:
            if ctx.enemy_occupied(b, side):
                raise IllegalCommand("4.1", f"{b} is occupied by the enemy")
            if group.mode == "leader":
                raise IllegalCommand("10.0", "a leader alone may not enter an enemy zone of control unless a friendly unit is there")
            if group.ezoc_rule == "11.2":
                raise IllegalCommand("11.2", "an ineffective unit may not enter an enemy zone of control")
            raise IllegalCommand("11.1", "a disrupted unit may enter an enemy zone of control only with a leader of its formation")
        if ends and i != len(steps) - 1:
            raise IllegalCommand("6.2", f"entering the enemy zone of control at {b} ends the move")
        cost += c
    one_hex = len(steps) == 1 and group.start is not None  # 4.3: a unit may always move one hex
    if cost > group.ma_halves and not one_hex:
        raise IllegalCommand("4.2", f"the move costs {cost / HALF:g} MP but the movement allowance is {group.ma_halves / HALF:g}")
    return cost


def apply_move(ctx: Ctx, group: MoveGroup, path: list[str], cost: int) -> None:
    st = ctx.st
    dest = path[-1]
    start_ezoc = group.starts_in_ezoc
    for uid in group.uids:
        s = st.units[uid]
        if s.status != STATUS_MAP:
            s.status = STATUS_MAP
            s.entry_turn = None
        s.hex = dest
        s.moved = True
        s.start_ezoc = start_ezoc
    st.any_moved = True
    ctx.dirty()
    verb = "enters at" if group.start is None else "moves"
    ctx.emit(
        "move",
        f"{ctx.names(group.uids)} {verb} {' > '.join(path)} ({cost / HALF:g} MP)",
        units=list(group.uids), path=list(path), cost=cost / HALF, side=group.side,
    )
    if group.mode == "square":
        square_unit = st.squares.pop(group.start or "", None)
        if square_unit is not None:
            st.squares[dest] = square_unit
    check_lone_leaders_after_move(ctx, group.side, path, group.start)


def movement_phase_open(ctx: Ctx, side: str) -> None:
    ctx.require(ctx.st.phase == PHASE_MOVEMENT, "3.3", "units move only in their own movement phase")
    ctx.require(ctx.st.active == side, "3.3", "it is not your movement phase")


def is_square_group_bad_terrain(ctx: Ctx, a: str, b: str) -> bool:
    """9.3(1): a square entering or crossing anything but clear or clear-hill ground checks morale."""
    if ctx.sc.features_between(a, b):
        return True
    return not ctx.sc.terrain_at(b).open


def leaders_alone_move_target(ctx: Ctx, uids: list[str]) -> bool:
    return all(ctx.kind(u) is UnitKind.LEADER for u in uids)
