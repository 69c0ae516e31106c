"""Movement (4.1-4.6), zones of control in movement (6.2), disrupted units' rolled movement allowance (11.1(2)),
leaders moving alone or with units (10.0), squares moving (9.3).

Costs are kept in half movement points so that road movement (4.5: half an MP per road hex) stays in integers.
A unit leaving a road loses a left-over half MP (4.5): a step off the road first rounds the cost so far up to a
whole MP.  That rounding never makes a cheaper path dearer than a costlier one, so one cheapest-path search per
allowance serves validation, the page's shaded hexes and the random player: one within the movement allowance,
and one within its double along hexes at least two hexes from every enemy unit (march movement, 4.3).
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.lone_leaders import LEADER_MOVE_HEXES, check_lone_leaders_after_move
from ..kernel.state import PHASE_MOVEMENT, STATUS_MAP, STATUS_OFFBOARD, STATUS_RETURNING
from .status import accompanied, impaired

HALF = 2  # half-MP units per MP
ROLLED_MA = "rolled_ma"  # state.extra: unit -> the movement allowance it rolled this phase (11.1(2))
MARCH_OK = "march_ok"  # state.extra: unit -> whether its move this phase kept it eligible for march movement (4.3)
STEP_RECOVERED = "step_recovered"  # state.extra: units that recovered a lost step this phase (11.2)


@dataclass(frozen=True)
class EntryOption:
    hex: str
    cost_halves: int
    slide: int  # 0 = the named entry hex, k = k hexes along the map edge (4.6)


@dataclass
class MoveGroup:
    uids: list[str]
    side: str
    start: str | None  # None for reinforcements entering the map
    combat: list[str]
    leaders: list[str]
    ma_halves: int  # the movement allowance (4.2), 12 hexes for leaders alone (10.0)
    mode: str  # "stack", "leader", "square"
    classes: frozenset[str]
    may_enter_ezoc: bool
    ezoc_rule: str
    starts_in_ezoc: bool
    must_march: bool = False  # 11.2, T18: a unit that recovered a step this phase moves only on a march
    notes: list[str] = field(default_factory=list)

    @property
    def march_halves(self) -> int:
        """4.3: the allowance doubled (leaders alone have their 12 hexes, 10.0)."""
        return self.ma_halves if self.mode == "leader" else 2 * self.ma_halves


@dataclass
class Reach:
    cost: int  # half MP
    path: list[str]
    ends_move: bool
    march: bool  # the path keeps two hexes from every enemy unit (4.3)


# --- march movement (4.3) -----------------------------------------------------------------
def near_enemy(ctx: Ctx, side: str) -> frozenset[str]:
    """The hexes within one hex of an enemy combat unit: a march may neither start nor pass there (4.3, T5)."""
    grid = ctx.sc.grid
    out: set[str] = set()
    enemy = ctx.enemy(side)
    for hex_, uids in ctx.occupancy().items():
        if any(ctx.side_of(u) == enemy and ctx.is_combat(u) for u in uids):
            out.add(hex_)
            out.update(grid.neighbors(hex_))
    return frozenset(out)


def march_eligible_path(ctx: Ctx, side: str, path: list[str]) -> bool:
    near = near_enemy(ctx, side)
    return not any(h in near for h in path)


# --- the moving group (4.1, 4.2, 10.0, 11.1(2)) ----------------------------------------------
def printed_ma(ctx: Ctx, uid: str) -> int:
    return ctx.factors(uid).ma


def rolled_ma(ctx: Ctx, uid: str) -> int | None:
    value = ctx.st.extra.get(ROLLED_MA, {}).get(uid)
    return value if isinstance(value, int) else None


def unit_ma(ctx: Ctx, uid: str) -> int:
    """4.2 with 11.1(2): an impaired unit moves by the allowance it rolled this phase."""
    if impaired(ctx, uid):
        rolled = rolled_ma(ctx, uid)
        if rolled is None:
            raise IllegalCommand("11.1(2)", f"{ctx.name(uid)} is disrupted or ineffective: roll its movement allowance "
                                            "first (a roll_ma command)")
        return rolled
    return printed_ma(ctx, uid)


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
    start: str | None
    if entering:
        ctx.require(len(entering) == len(states), "4.6", "reinforcements enter on their own, not with units already on the map")
        for s in entering:
            ctx.require(s.entry_turn is not None and s.entry_turn <= st.turn, "4.6",
                        f"{ctx.name(s.id)} does not arrive until turn {s.entry_turn}")
        ctx.require(len({s.entry_hex for s in entering}) == 1, "4.6", "units entering together must share one entry hex")
        start = None
    else:
        for s in states:
            ctx.require(s.status == STATUS_MAP, "4.1", f"{ctx.name(s.id)} is not on the map")
        ctx.require(len({s.hex for s in states}) == 1, "4.1", "units moving together must start in the same hex")
        start = states[0].hex
    for s in states:
        ctx.require(not s.moved, "4.1", f"{ctx.name(s.id)} has already moved this phase")
        ctx.require(s.charging is None, "9.2", f"{ctx.name(s.id)} has already made its charge move")
    combat = [u for u in uids if not ctx.is_leader(u)]
    leaders = [u for u in uids if ctx.is_leader(u)]
    if not combat:  # 10.0: up to 12 hexes, one MP a hex, whatever the terrain (T6: ineffective or not)
        return MoveGroup(uids, side, start, [], leaders, LEADER_MOVE_HEXES * HALF, "leader", frozenset(), True,
                         "10.0", False)
    ma = min(unit_ma(ctx, u) for u in combat)
    # 10.0(1): one leader moving with units of its formation adds its movement factor to all of them.
    bonus = max((ctx.leader_factors(ldr).movement for ldr in leaders
                 if not st.units[ldr].ineffective and all(ctx.helps(ldr, u) for u in combat)), default=0)
    may_enter, ezoc_rule = True, "6.2"
    for u in combat:
        # 11.1(3), 11.3: impaired units stay out of EZOC unless a leader of their formation comes along (10.0(1)).
        if impaired(ctx, u) and not accompanied(ctx, u, leaders):
            may_enter, ezoc_rule = False, "11.1(3)"
    mode = "stack"
    if start is not None and start in st.squares:
        mode = "square"
        ctx.require(sorted(ctx.units_at(start)) == sorted(uids), "9.3",
                    "units in square move together as the square: move every unit in the hex or none (T12)")
    starts_in_ezoc = start is not None and ctx.in_ezoc(start, side)
    stepped = st.extra.get(STEP_RECOVERED, [])
    return MoveGroup(uids, side, start, combat, leaders, (ma + bonus) * HALF, mode,
                     frozenset(ctx.d(u).tec_class for u in combat), may_enter, ezoc_rule, starts_in_ezoc,
                     must_march=any(u in stepped for u in combat))


# --- costs (4.4, 4.5) -----------------------------------------------------------------------
def after_step(ctx: Ctx, group: MoveGroup, cost: int, a: str, b: str) -> int | None:
    """The cost so far after stepping a -> b, or None where the step is prohibited (4.4, 4.5)."""
    sc = ctx.sc
    if group.mode == "leader":
        return None if (a, b) in sc.leader_blocked else cost + HALF
    if (a, b) in sc.directed_road_links:
        return cost + sc.road_mp_halves  # 4.5: always half an MP along the road
    worst = 0
    for cls in group.classes:
        step = sc.step_costs[cls][(a, b)]
        if step is None:
            return None
        worst = max(worst, step)
    return cost + cost % HALF + worst * HALF  # 4.5: a left-over half MP is lost on leaving the road


def entry_cost(ctx: Ctx, group: MoveGroup, hex_: str, slide: int) -> int | None:
    """4.6: the entry hex is the first hex of movement (half an MP on a road, T7); a slide of k hexes along the
    edge costs k + 1 MP in its place (the first counting as two hexes, R3)."""
    if group.mode == "leader":
        return HALF if ctx.can_enter_terrain("leader", None, hex_) else None
    terrain = ctx.sc.terrain_at(hex_)
    if any(terrain.is_prohibited(cls) for cls in group.classes):
        return None
    if slide:
        return (slide + 1) * HALF
    if hex_ in ctx.sc.road_hexes:
        return ctx.sc.road_mp_halves
    return max(terrain.move[cls] for cls in group.classes) * HALF


def entry_options(ctx: Ctx, group: MoveGroup) -> list[EntryOption]:
    """Where a reinforcement group may come on (4.6): its entry hex, or when the enemy holds it, the next hex
    along that map edge in either direction, sliding past enemy-occupied hexes within the allowance."""
    entry = ctx.st.units[group.uids[0]].entry_hex
    assert entry is not None
    side = group.side
    first = entry_cost(ctx, group, entry, 0)
    if not ctx.enemy_occupied(entry, side):
        return [EntryOption(entry, first, 0)] if first is not None else []
    budget = group.march_halves
    grid = ctx.sc.grid
    found: dict[str, EntryOption] = {}
    for edge_name in ("north", "south", "west", "east"):
        edge = list(grid.edge(edge_name))
        if entry not in edge:
            continue
        i = edge.index(entry)
        for step in (-1, 1):
            j, slide = i + step, 1
            while 0 <= j < len(edge) and (slide + 1) * HALF <= budget:
                h = edge[j]
                if not ctx.enemy_occupied(h, side):
                    cost = entry_cost(ctx, group, h, slide)
                    if cost is not None and (h not in found or cost < found[h].cost_halves):
                        found[h] = EntryOption(h, cost, slide)
                    break
                j += step
                slide += 1
    return sorted(found.values(), key=lambda o: (o.cost_halves, o.hex))


# --- where the group may go (4.1-4.6, 6.2) ----------------------------------------------------
def enterable(ctx: Ctx, group: MoveGroup, hex_: str) -> tuple[bool, bool]:
    """(may enter, entering ends the move) with respect to occupants and zones of control (6.2, 10.0)."""
    side = group.side
    occ = ctx.occupancy().get(hex_)
    if occ and ctx.side_of(occ[0]) != side:
        return False, False
    in_ezoc = hex_ in ctx.zoc_of(ctx.enemy(side))
    if group.mode == "leader":
        # 10.0: a leader alone enters an EZOC only where a friendly unit is; it is never stopped.
        return (not in_ezoc or ctx.friendly_combat_at(hex_, side)), False
    if in_ezoc:
        return group.may_enter_ezoc, True
    return True, False


def reachable(ctx: Ctx, group: MoveGroup) -> dict[str, Reach]:
    """Every hex the group may end its move in, with the cheapest cost and a path."""
    out: dict[str, Reach] = {}
    near = near_enemy(ctx, group.side)
    if group.start is None:
        for opt in entry_options(ctx, group):
            ok, ends = enterable(ctx, group, opt.hex)
            if not ok:
                continue
            for budget, march in ((group.ma_halves, False), (group.march_halves, True)):
                if group.must_march and not march:
                    continue
                if opt.cost_halves <= budget and not (march and opt.hex in near):
                    _search(ctx, group, opt.hex, opt.cost_halves, [opt.hex], ends, budget, near if march else None, out)
        return out
    start = group.start
    if group.mode == "square" or (group.starts_in_ezoc and group.mode != "leader"):
        # 9.3: a square moves one hex; 6.2: out of an EZOC exactly one hex, and not straight into another.
        for n in ctx.sc.grid.neighbors(start):
            ok, _ = enterable(ctx, group, n)
            c = after_step(ctx, group, 0, start, n)
            if not ok or c is None or (group.starts_in_ezoc and ctx.in_ezoc(n, group.side)):
                continue
            march = start not in near and n not in near
            if (march or not group.must_march) and c <= (group.march_halves if march else group.ma_halves):
                _offer(out, n, Reach(c, [start, n], True, march))
        return out
    if not group.must_march:
        _search(ctx, group, start, 0, [start], False, group.ma_halves, None, out)
    if group.mode != "leader" and start not in near:
        _search(ctx, group, start, 0, [start], False, group.march_halves, near, out)
    out.pop(start, None)
    return out


def _search(ctx: Ctx, group: MoveGroup, origin: str, origin_cost: int, origin_path: list[str], origin_ends: bool,
            budget: int, near: frozenset[str] | None, out: dict[str, Reach]) -> None:
    """Cheapest paths within `budget`; a march search (`near` given) keeps out of the hexes next to the enemy."""
    march = near is not None
    if origin != group.start:
        _offer(out, origin, Reach(origin_cost, list(origin_path), origin_ends, march))
    if origin_ends:
        return
    grid = ctx.sc.grid
    best = {origin: origin_cost}
    paths = {origin: origin_path}
    heap = [(origin_cost, origin)]
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > best.get(h, 10**9):
            continue
        for n in grid.neighbors(h):
            if near is not None and n in near:
                continue
            total = after_step(ctx, group, cost, h, n)
            if total is None or total > budget or total >= best.get(n, 10**9):
                continue
            ok, ends = enterable(ctx, group, n)
            if not ok:
                continue
            best[n] = total
            paths[n] = paths[h] + [n]
            _offer(out, n, Reach(total, paths[n], ends, march))
            if not ends:
                heapq.heappush(heap, (total, n))


def _offer(out: dict[str, Reach], hex_: str, reach: Reach) -> None:
    """Keep the cheapest way to each hex (march movement only where it is needed)."""
    current = out.get(hex_)
    if current is None or (reach.cost, reach.march, len(reach.path)) < (current.cost, current.march, len(current.path)):
        out[hex_] = reach


def path_cost(ctx: Ctx, group: MoveGroup, path: list[str]) -> tuple[int, bool]:
    """Validate an explicit path step by step: (its cost in half MP, whether it kept march distance); raises
    IllegalCommand with the rule and a plain sentence."""
    grid = ctx.sc.grid
    side = group.side
    for h in path:
        ctx.require(isinstance(h, str) and h in grid, "4.1", f"hex '{h}' is not on the map")
    if group.start is None:
        ctx.require(len(path) >= 1, "4.6", "give at least the hex the reinforcement enters")
        options = {o.hex: o for o in entry_options(ctx, group)}
        ctx.require(path[0] in options, "4.6",
                    f"{ctx.names(group.uids)} may enter only at {', '.join(sorted(options)) or 'no hex this turn'}")
        cost = options[path[0]].cost_halves
        ok, ends = enterable(ctx, group, path[0])
        ctx.require(ok, group.ezoc_rule, f"{ctx.names(group.uids)} may not enter {path[0]} (enemy zone of control)")
        ctx.require(not (ends and len(path) > 1), "6.2", "entering an enemy zone of control ends the move")
    else:
        ctx.require(len(path) >= 2, "4.1", "a move needs the start hex and at least one more hex")
        ctx.require(path[0] == group.start, "4.1", f"the path must start at {group.start}, where the units are")
        cost = 0
    steps = list(itertools.pairwise(path))
    if group.mode == "square":
        ctx.require(len(path) == 2, "9.3", "units in square move one hex per movement phase")
    if group.mode == "leader":
        ctx.require(len(steps) + (group.start is None) <= LEADER_MOVE_HEXES, "10.0",
                    f"a leader moving alone moves at most {LEADER_MOVE_HEXES} hexes")
    if group.starts_in_ezoc and group.mode != "leader":
        ctx.require(len(path) == 2, "6.2", "a unit that starts in an enemy zone of control may move only one hex")
        ctx.require(not ctx.in_ezoc(path[1], side), "6.2",
                    "a unit leaving an enemy zone of control may not move directly into another")
    for i, (a, b) in enumerate(steps):
        ctx.require(grid.is_adjacent(a, b), "4.1", f"{a} and {b} are not adjacent: a path may not skip hexes")
        total = after_step(ctx, group, cost, a, b)
        if total is None:
            raise IllegalCommand("4.4", f"{ctx.names(group.uids)} may not enter {b} from {a}: prohibited terrain")
        ok, ends = enterable(ctx, group, b)
        if not ok:
            if ctx.enemy_occupied(b, side):
                raise IllegalCommand("4.1", f"{b} is occupied by the enemy")
            if group.mode == "leader":
                raise IllegalCommand("10.0", "a leader alone may not enter an enemy zone of control unless a friendly unit is there")
            raise IllegalCommand(group.ezoc_rule, "a disrupted or ineffective unit may enter an enemy zone of control "
                                                  "only with a leader of its formation (11.1(3), 10.0(1))")
        if ends and i != len(steps) - 1:
            raise IllegalCommand("6.2", f"entering the enemy zone of control at {b} ends the move")
        cost = total
    march = march_eligible_path(ctx, side, path)
    if group.must_march and not march:
        raise IllegalCommand("11.2", "a unit that recovered a step this phase stays eligible for march movement: "
                                     "its move keeps two hexes from every enemy unit (T18)")
    if cost > group.ma_halves:
        allowance = f"the movement allowance is {group.ma_halves / HALF:g}"
        if not march:
            raise IllegalCommand("4.2", f"the move costs {cost / HALF:g} MP but {allowance}; the allowance doubles "
                                        "only for a march kept two hexes from every enemy unit (4.3)")
        ctx.require(cost <= group.march_halves, "4.3",
                    f"the move costs {cost / HALF:g} MP, more than the doubled allowance of {group.march_halves / HALF:g}")
    return cost, march


def apply_move(ctx: Ctx, group: MoveGroup, path: list[str], cost: int, march: bool) -> None:
    st = ctx.st
    dest = path[-1]
    marched = st.extra.setdefault(MARCH_OK, {})
    for uid in group.uids:
        s = st.units[uid]
        if s.status != STATUS_MAP:
            s.status = STATUS_MAP
            s.entry_turn = None
        s.hex = dest
        s.moved = True
        s.start_ezoc = group.starts_in_ezoc
        marched[uid] = march
    st.any_moved = True
    ctx.dirty()
    verb = "enters at" if group.start is None else "moves"
    how = " on a march (4.3)" if march and cost > group.ma_halves and group.mode != "leader" else ""
    ctx.emit("move", f"{ctx.names(group.uids)} {verb} {' > '.join(path)} ({cost / HALF:g} MP){how}",
             units=list(group.uids), path=list(path), cost=cost / HALF, side=group.side, march=march)
    if group.mode == "square":
        square_unit = st.squares.pop(group.start or "", None)
        if square_unit is not None:
            st.squares[dest] = square_unit
    check_lone_leaders_after_move(ctx, group.side, path, group.start)


def roll_movement(ctx: Ctx, side: str, uids: list[str]) -> None:
    """11.1(2): each disrupted or ineffective unit about to move rolls its allowance: one die, plus three when its
    printed MA is above 6, never above the printed MA."""
    movement_phase_open(ctx, side)
    ctx.require(bool(uids) and len(set(uids)) == len(uids), "11.1(2)", "name the units that will move, each once")
    rolled = ctx.st.extra.setdefault(ROLLED_MA, {})
    for uid in uids:
        ctx.require(uid in ctx.sc.units and ctx.side_of(uid) == side, "11.1(2)", f"{uid} is not one of your units")
        s = ctx.u(uid)
        name = ctx.name(uid)
        ctx.require(not ctx.is_leader(uid), "10.0", f"{name} is a leader: a leader alone moves its 12 hexes (T6)")
        ctx.require(s.status == STATUS_MAP and not s.moved, "11.1(2)", f"{name} is not on the map waiting to move")
        ctx.require(impaired(ctx, uid), "11.1(2)", f"{name} is neither disrupted nor ineffective: it moves its printed MA")
        ctx.require(uid not in rolled, "11.1(2)", f"{name} has already rolled its movement allowance this phase")
    for uid in uids:
        printed = printed_ma(ctx, uid)
        (die,) = ctx.roll(1, f"movement allowance of {ctx.name(uid)}", ["die"], "11.1(2)", unit=uid)
        value = min(die + (3 if printed > 6 else 0), printed)
        rolled[uid] = value
        ctx.emit("rolled_ma", f"11.1(2): {ctx.name(uid)} may move {value} MP this phase", unit=uid, ma=value,
                 rule="11.1(2)")


def movement_phase_open(ctx: Ctx, side: str) -> None:
    ctx.require(ctx.st.phase == PHASE_MOVEMENT, "3.3", "units move only in their own movement phase")
    ctx.require(ctx.st.active == side, "3.3", "it is not your movement phase")


def needs_roll(ctx: Ctx, uids: list[str]) -> list[str]:
    """The impaired combat units among `uids` that have not rolled their allowance yet (11.1(2))."""
    return [u for u in uids if not ctx.is_leader(u) and impaired(ctx, u) and rolled_ma(ctx, u) is None]
