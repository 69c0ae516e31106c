"""Movement (6.3, the TEC, R17.40-R17.44) and the Orders Restriction Chart's move limits (5.6 notes 1-3, R17.31,
R17.33): the cost of a step, Formation Hits from terrain, the walk of one path, every path a unit may take, and the
leaders' own moves (R17.38)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..kernel.errors import IllegalCommand
from .context import MPCtx
from .tables import (
    GENTLE,
    HEX_TERRAIN,
    ONE_HEX,
    ORC_MOVE,
    Condition,
    Kind,
    Mode,
    Morale,
    Order,
    movement_allowance,
    tec_cost,
)

LEADER_MOVE = 8  # R17.38


def stacking_ok(ctx: MPCtx, uid: str, hex_: str, ignore: tuple[str, ...] = ()) -> bool:
    """R17.17: one non-artillery unit plus one artillery unit per hex; a `large` unit stacks with no other unit."""
    others = [u for u in ctx.units_in(hex_) if u != uid and u not in ignore]
    if not others:
        return True
    if any(ctx.side_of(u) != ctx.side_of(uid) for u in others):
        return False
    if ctx.d(uid).large or any(ctx.d(u).large for u in others) or len(others) > 1:
        return False
    return (ctx.kind(uid) is Kind.ARTILLERY) != (ctx.kind(others[0]) is Kind.ARTILLERY)


def step_cost(ctx: MPCtx, uid: str, frm: str, to: str) -> tuple[int, bool] | None:
    """(MP, Formation Hit) of the step frm -> to for the unit's TEC column: the hex's cost plus the hexside's (R17.8);
    None where NA or a `#` without a road (R17.41). The `*` Formation Hit (R17.42): at most one per hex entered."""
    sc = ctx.sc
    d = ctx.d(uid)
    col = d.column
    t = sc.terrain(to)
    hex_cost = tec_cost(t, col)
    if hex_cost is None:
        return None
    road = sc.road_between(frm, to)
    if t.hash and d.hash_bound and not road:
        return None
    star = t.star and col != "li"
    cost = hex_cost
    side = sc.side_terrain(frm, to)
    if side is not None and side.name != GENTLE:
        side_cost = tec_cost(side, col)
        if side_cost is None:
            return None
        if side.hash and d.hash_bound and not road:
            return None
        cost += side_cost
        star = star or (side.star and col != "li")
    return cost, star


def allowance(ctx: MPCtx, uid: str) -> int:
    """6.3 (R17.40)."""
    return movement_allowance(ctx.d(uid).ma, ctx.mode(uid), ctx.cond(uid), ctx.morale(uid))


def nearest_live_enemy_distance(ctx: MPCtx, side: str, hex_: str) -> int | None:
    ds = [ctx.dist(hex_, ctx.hex_of(e)) for e in ctx.live_enemies(side)]
    return min(ds) if ds else None


def charge_targets(ctx: MPCtx, uid: str) -> list[str]:
    """Note 1 (R17.31): the enemy units (not broken) nearest the unit at the start of its move among those not
    adjacent to a unit of the moving side ("not already engaged")."""
    side = ctx.side_of(uid)
    mine = [ctx.hex_of(u) for u in ctx.units_of(side)]
    free = [e for e in ctx.live_enemies(side)
            if not any(ctx.sc.grid.is_adjacent(ctx.hex_of(e), h) for h in mine)]
    if not free:
        return []
    here = ctx.hex_of(uid)
    best = min(ctx.dist(here, ctx.hex_of(e)) for e in free)
    return [e for e in free if ctx.dist(here, ctx.hex_of(e)) == best]


def charge_ok(ctx: MPCtx, uid: str, targets: list[str], end: str) -> bool:
    """Note 1: the unit ends nearer (in hexes) to one of its nearest qualifying enemies."""
    here = ctx.hex_of(uid)
    return not targets or any(ctx.dist(end, ctx.hex_of(e)) < ctx.dist(here, ctx.hex_of(e)) for e in targets)


def bound_by_note1(ctx: MPCtx, uid: str) -> bool:
    """Whether note 1 governs this unit's move at all: a Charge wing's unit, not artillery, not Morale Shaken
    (R17.74), with a qualifying enemy."""
    return (ctx.order(ctx.unit_wing(uid)) is Order.CHARGE and ctx.kind(uid) is not Kind.ARTILLERY
            and ctx.morale(uid) is Morale.NORMAL and bool(charge_targets(ctx, uid)))


@dataclass
class Walk:
    """A unit's path judged step by step: where it ends, what it spent, the Formation Hits it took."""

    hex: str
    spent: int = 0
    cond: Condition = Condition.NORMAL
    hits: list[str] = field(default_factory=list)  # the hexes where it took a Formation Hit
    gentle: int = 0
    passed: list[str] = field(default_factory=list)  # friendly-occupied hexes passed through (R17.18)
    stopped: bool = False  # R17.40: entered a hex adjacent to an enemy unit, or became Formation Broken (R17.42)
    limit: int = 0
    entered: tuple[str, ...] = ()

    def copy(self) -> Walk:
        return Walk(self.hex, self.spent, self.cond, list(self.hits), self.gentle, list(self.passed), self.stopped,
                    self.limit, self.entered)


@dataclass(frozen=True)
class _Rules:
    side: str
    order: Order
    d0: int | None
    intercept: bool
    terrain_exempt: bool


def _limit(ctx: MPCtx, uid: str, cond: Condition) -> int:
    d = ctx.d(uid)
    return movement_allowance(d.ma, ctx.mode(uid), cond, ctx.morale(uid))


def _start(ctx: MPCtx, uid: str, intercept: bool) -> tuple[Walk, _Rules]:
    side = ctx.side_of(uid)
    order = ctx.order(ctx.unit_wing(uid))
    start = ctx.hex_of(uid)
    ma = allowance(ctx, uid)
    if intercept:
        order, ma = Order.MAKE_READY, ma // 2
    if ma <= 0:
        raise IllegalCommand("6.3", f"{ctx.says(uid)} cannot move: "
                                    f"{_why_still(ctx, uid)} (Formation Effects on Movement Chart)")
    rules = _Rules(side, order, nearest_live_enemy_distance(ctx, side, start), intercept,
                   ctx.mode(uid) in (Mode.OPEN_ORDER, Mode.COLUMN) or ctx.kind(uid) in (Kind.LI, Kind.ARTILLERY))
    w = Walk(start, cond=ctx.cond(uid), gentle=int(ctx.act.get("gentle", {}).get(uid, 0)), limit=ma,
             entered=(start,))
    return w, rules


def _step(ctx: MPCtx, uid: str, w: Walk, to: str, r: _Rules) -> None:
    """One hex entered: every check of R17.40-R17.43 and 5.6's notes 2-3 (note 1 is judged at the end)."""
    sc = ctx.sc
    frm = w.hex
    order = r.order
    if w.stopped:
        raise IllegalCommand("R17.40", f"the move ended at {frm} (next to an enemy unit, or Formation Broken)")
    if to not in sc.grid or not sc.grid.is_adjacent(frm, to):
        raise IllegalCommand("R17.40", f"{to} is not next to {frm}")
    if to in w.entered:
        raise IllegalCommand("R17.40", "a path does not enter a hex twice")
    if not r.intercept and ORC_MOVE[order] == ONE_HEX and len(w.entered) > 1:
        raise IllegalCommand("5.6", "under Receive Charge a unit moves 1 hex (Orders Restriction Chart, R17.33)")
    if ctx.enemy_in(to, r.side):
        raise IllegalCommand("R17.40", f"{to} holds an enemy unit or leader")
    got = step_cost(ctx, uid, frm, to)
    if got is None:
        raise IllegalCommand("R17.41", f"{ctx.says(uid)} may not enter {to} from {frm} (TEC: NA, or `#` without "
                                       "a road)")
    cost, star = got
    if any(u != uid for u in ctx.units_in(to)):
        if order is Order.CHARGE and not r.intercept:
            raise IllegalCommand("5.6", "units of a wing under Charge may not Pass (note 1, R17.32)")
        cost += 1  # R17.18
        w.passed.append(to)
    if not r.intercept and order in (Order.MAKE_READY, Order.RECEIVE_CHARGE) and \
            to in ctx.enemy_adjacent_hexes(r.side, live=False):
        raise IllegalCommand("5.6", f"under {order.label} no hex entered may be next to an enemy unit "
                                    "(note 2, R17.33)")
    if order is Order.RALLY and r.d0 is not None and not r.intercept:
        dn = nearest_live_enemy_distance(ctx, r.side, to)
        if dn is not None and dn < r.d0:
            raise IllegalCommand("5.6", "under Rally a unit may not move closer to an enemy unit (note 3, R17.33)")
    if ORC_MOVE[order] == ONE_HEX and not r.intercept:
        if cost > w.limit:
            raise IllegalCommand("R17.33", f"{to} costs {cost} MP, more than the unit's {w.limit}")
    elif w.spent + cost > w.limit:
        raise IllegalCommand("R17.40", f"{to} costs {cost} MP and {ctx.says(uid)} has {w.limit - w.spent} left")
    w.spent += cost
    w.hex = to
    w.entered = (*w.entered, to)
    if sc.side_feature(frm, to) == GENTLE:
        w.gentle += 1
        if w.gentle == 2:
            star = True  # R17.43: the second Gentle Slope crossing of the activation
    if star and not r.terrain_exempt:
        w.hits.append(to)
        w.cond = Condition.SHAKEN if w.cond is Condition.NORMAL else Condition.BROKEN
        if w.cond is Condition.BROKEN:
            w.stopped = True  # R17.42: one that becomes Broken stops
        elif not r.intercept:
            w.limit = max(1, _limit(ctx, uid, Condition.SHAKEN))  # R17.42: half its MA less what it spent
    if to in ctx.enemy_adjacent_hexes(r.side, live=True):
        w.stopped = True


def walk(ctx: MPCtx, uid: str, path: list[str], check_end: bool = True, intercept: bool = False) -> Walk:
    """Judge a path (the start hex first) for the active wing's unit; IllegalCommand names the rule broken.
    `check_end` False: a prefix of a longer path (its end may be a friend's hex it passes through, R17.18);
    `intercept`: an interceptor's move (R17.50: within half its MA, not the active wing's, so 5.6 does not apply)."""
    start = ctx.hex_of(uid)
    if not path or path[0] != start:
        raise IllegalCommand("R17.40", f"a path starts at the unit's hex {start}")
    if len(path) < 2:
        raise IllegalCommand("R17.40", "a move enters at least one hex (to turn in place, use face)")
    w, rules = _start(ctx, uid, intercept)
    for to in path[1:]:
        _step(ctx, uid, w, to, rules)
    if check_end and not stacking_ok(ctx, uid, w.hex):
        raise IllegalCommand("R17.17", f"{ctx.says(uid)} may not end its move stacked at {w.hex}")
    return w


def _why_still(ctx: MPCtx, uid: str) -> str:
    if ctx.broken(uid):
        return "it is Morale Broken"
    if ctx.mode(uid) is Mode.HEDGEHOG:
        return "it is in Hedgehog"
    return "it is Formation Broken"


def reachable(ctx: MPCtx, uid: str, intercept: bool = False) -> dict[str, list[str]]:
    """Every hex the unit may end a legal move in, with one path to it (the one leaving the most MP, fewest hits)."""
    out: dict[str, list[str]] = {}
    try:
        w0, rules = _start(ctx, uid, intercept)
    except IllegalCommand:
        return out
    best: dict[tuple[str, int, int], int] = {}
    stack: list[Walk] = [w0]
    while stack:
        w = stack.pop()
        for n in ctx.sc.grid.neighbors(w.hex):
            if n in w.entered:
                continue
            nw = w.copy()
            try:
                _step(ctx, uid, nw, n, rules)
            except IllegalCommand:
                continue
            key = (n, len(nw.hits), nw.gentle)
            left = nw.limit - nw.spent
            if best.get(key, -99) >= left:
                continue
            best[key] = left
            if n not in out and stacking_ok(ctx, uid, n):
                out[n] = list(nw.entered)
            if not nw.stopped:
                stack.append(nw)
    return out


def legal_moves(ctx: MPCtx, uid: str) -> dict[str, list[str]]:
    """The ends the unit may move to now, with their paths, note 1 applied (R17.31)."""
    ends = reachable(ctx, uid)
    if bound_by_note1(ctx, uid):
        targets = charge_targets(ctx, uid)
        ends = {h: p for h, p in ends.items() if charge_ok(ctx, uid, targets, h)}
    return ends


def obliged_to_charge(ctx: MPCtx, uid: str) -> bool:
    """R17.31: a unit of a Charge wing that must still move nearer before the Movement Segment may end."""
    if uid in ctx.act_list("moved_units") or not ctx.on_map(uid):
        return False
    if not bound_by_note1(ctx, uid) or ctx.adjacent_enemy(ctx.hex_of(uid), ctx.side_of(uid)):
        return False
    ends = legal_moves(ctx, uid)
    if not ends:
        return False
    if ctx.kind(uid) is Kind.LI:
        his = [e for e in ctx.live_enemies(ctx.side_of(uid)) if ctx.kind(e) is Kind.HI]
        def front_of_hi(h: str) -> bool:
            return any(ctx.sc.grid.is_adjacent(h, ctx.hex_of(e)) and ctx.arc(e, h).value == "front" for e in his)
        if all(front_of_hi(h) for h in ends):
            return False
    return True


# --- leaders (R17.38) ------------------------------------------------------------------------------------
def leader_path_ok(ctx: MPCtx, lid: str, path: list[str]) -> None:
    side = ctx.side_of(lid)
    if not path or path[0] != ctx.hex_of(lid) or len(path) < 2:
        raise IllegalCommand("R17.38", "a leader's path starts at his hex and enters at least one hex")
    if len(path) - 1 > LEADER_MOVE:
        raise IllegalCommand("R17.38", f"a leader moves at most {LEADER_MOVE} hexes")
    for a, b in itertools.pairwise(path):
        if b not in ctx.sc.grid or not ctx.sc.grid.is_adjacent(a, b):
            raise IllegalCommand("R17.38", f"{b} is not next to {a}")
        if HEX_TERRAIN[ctx.sc.hex_terrain.get(b, ctx.sc.default_terrain)].hi is None:
            raise IllegalCommand("R17.38", f"a leader never enters NA terrain ({b})")
        side_t = ctx.sc.side_terrain(a, b)
        if side_t is not None and side_t.hi is None:
            raise IllegalCommand("R17.38", f"a leader never crosses NA terrain ({a}|{b})")
        if ctx.enemy_in(b, side):
            raise IllegalCommand("R17.38", f"{b} holds an enemy unit or leader")
        friendly = any(ctx.side_of(u) == side for u in ctx.units_in(b))
        if ctx.adjacent_enemy(b, side, live=False) and not friendly:
            raise IllegalCommand("R17.38", f"a leader enters a hex next to an enemy unit ({b}) only where a friendly "
                                           "unit is")


def leader_moves(ctx: MPCtx, lid: str) -> dict[str, list[str]]:
    """Every hex the leader may move to (breadth first, the shortest path to each)."""
    side = ctx.side_of(lid)
    start = ctx.hex_of(lid)
    seen = {start: [start]}
    frontier = [start]
    for _ in range(LEADER_MOVE):
        nxt = []
        for h in frontier:
            for n in ctx.sc.grid.neighbors(h):
                if n in seen:
                    continue
                try:
                    leader_path_ok(ctx, lid, [*seen[h], n])
                except IllegalCommand:
                    continue
                seen[n] = [*seen[h], n]
                friendly = any(ctx.side_of(u) == side for u in ctx.units_in(n))
                if not (ctx.adjacent_enemy(n, side, live=False) and friendly):
                    nxt.append(n)
        frontier = nxt
    del seen[start]
    return seen
