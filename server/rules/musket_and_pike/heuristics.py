"""What the computer opponent weighs in a Musket & Pike position besides the points (`MusketAndPike.bot_loss_points`):
heuristics, never rules. Each term is in victory points for one side, computed for both sides alike from the public
state (R17.96: nothing but the seed is hidden), so the bots' evaluation stays zero-sum:

* **tempo** — an activation still to come is worth `TEMPO`: every wing not yet Activated this turn, the wing now
  acting, and each Continuation (4.3) or pending Continuation weighted by its odds on the 4.3 table with R17.28's
  modifiers. So the bots try a Continuation when it has a chance, and a Preemption (4.4) when the enemy Continuation it
  cancels is worth more than the No Continue marker a failure costs (R17.26);
* **orders** — each wing's order against the situation (`ORDER_FIT`): Rally fits every wing alike (`RALLY_FIT`, so that
  bringing a unit back never costs the fit) and is all a wing more than half Morale Shaken, Broken or Formation Broken
  fits; the side behind on points wants Charge for a wing whose fresh units have enemies within
  `REACH` hexes they could fight at a profit on the 11.0 table (more than `CHARGE_MARGIN`; close combat is declared
  only under Charge, R17.35, and Charge drives every unit toward the nearest enemy, note 1) or an empty objective
  within a unit's MA (only under Charge may it enter a hex next to the enemy, R17.33), else Make Ready; the side ahead
  wants Make Ready or Receive Charge. The Orders Change decision (5.7) then weighs each attempt by its printed odds;
* **forced attacks** — a unit of a Charge wing that moved next to an enemy unit must attack (R17.80): the expected
  outcome of its best close combat on the 11.0 table with R17.82-R17.84's modifiers counts as soon as it stands there,
  so the bots do not walk a unit into a combat it is bound to lose;
* **bound fights** — note 1 drives each unit of a Charge wing that is not next to an enemy toward its nearest one
  (R17.31), and a unit that moves next to an enemy in its front must attack it (R17.80): the best fight on the 11.0
  table against a nearest enemy a unit could reach next to counts, `BOUND` of it and only when it would lose, so a
  cavalry wing whose nearest enemy is a Tercio keeps off Charge, and a unit under Charge keeps out of such reach;
* **stuck** — each Formation Broken unit (it cannot move, 6.3) costs its side `STUCK`, whatever its strength, so that
  greedy Reforms a small unit too;
* **advance** — each combat unit of a side gets `ADVANCE` for every hex it stands nearer than `ADVANCE_RANGE` to each
  objective (R17.94), held or not, so a side brings its whole wing up, not only its nearest unit, and taking an
  objective never costs the pull toward it.
"""

from __future__ import annotations

from typing import Any

from .combat import (
    attackable,
    attacker_problem,
    defender_class,
    has_momentum,
    modifiers,
    must_attack,
)
from .command import activation_mods, open_wings
from .context import MPCtx
from .movement import allowance, charge_targets
from .tables import (
    CC_CAP,
    CONTINUATION,
    Condition,
    Kind,
    Mode,
    Morale,
    Order,
    cc_result,
    chance_at_most,
    matrix,
)

TEMPO = 0.3  # points per activation to come
ORDER_FIT = 1.0  # points for a wing under the order that fits it
RALLY_FIT = 0.5  # the fit of Rally, in every state: more than any other order's for a wing more than half shaken
REACH = 3  # hexes from the enemy within which the side behind wants Charge
CHARGE_MARGIN = 0.0  # points a fresh unit's best close combat must promise for its wing to want Charge
ADVANCE = 0.1  # points per hex nearer an objective the side does not hold
ADVANCE_RANGE = 10
BOUND = 0.5  # the share of a losing fight note 1 binds a Charge unit to that counts before its wing activates
STUCK = 0.5  # points for each unit its Formation Broken condition holds still (6.3)


def _continuation_odds(ctx: MPCtx, wid: str) -> float:
    w = ctx.wing(wid)
    need = CONTINUATION[ctx.order(wid)]
    if need is None or w.get("no_continue") or w.get("collapsed") or int(w.get("continuations", 0)) >= 2:
        return 0.0
    total = sum(int(m["value"]) for m in activation_mods(ctx, wid, preempt=False))
    return chance_at_most(need, total)


def tempo(ctx: MPCtx) -> dict[str, float]:
    out = {s: 0.0 for s in ctx.sc.side_order}
    if ctx.x.get("step") not in ("activation", "command", "start"):
        return out
    active = ctx.active_wing
    for s in ctx.sc.side_order:
        for wid in open_wings(ctx, s):
            if not ctx.wing(wid).get("collapsed"):
                out[s] += TEMPO * (1.0 + _continuation_odds(ctx, wid))
        if active is not None and ctx.sc.wings[active].side == s and ctx.segment is not None:
            out[s] += TEMPO * (1.0 + _continuation_odds(ctx, active))
    pending = [t.get("wing") for t in ctx.st.tasks if t.get("t") == "mp_continuation"]
    d = ctx.st.decision
    if d is not None and d.get("kind") == "continue":
        pending.append(d.get("wing"))
    for owed in pending:
        if isinstance(owed, str) and owed in ctx.sc.wings:
            out[ctx.sc.wings[owed].side] += TEMPO * _continuation_odds(ctx, owed)
    return out


def _shaken(ctx: MPCtx, uid: str) -> bool:
    return ctx.morale(uid) is not Morale.NORMAL or ctx.cond(uid) is Condition.BROKEN


def charge_prospect(ctx: MPCtx, wid: str) -> float | None:
    """What the wing's fresh units could expect from close combat (R17.35: only under Charge): the mean over its fresh
    non-artillery units with an enemy within REACH hexes of their best `cc_value` against one (None: no such unit)."""
    side = ctx.sc.wings[wid].side
    enemies = ctx.live_enemies(side)
    best: list[float] = []
    for u in ctx.wing_units_on_map(wid):
        if ctx.kind(u) is Kind.ARTILLERY or _shaken(ctx, u):
            continue
        here = ctx.hex_of(u)
        values = [cc_value(ctx, u, e) for e in enemies if ctx.dist(here, ctx.hex_of(e)) <= REACH
                  and (ctx.kind(u) is not Kind.LI or ctx.kind(e) is Kind.LI)]
        if values:
            best.append(max(values))
    return sum(best) / len(best) if best else None


def _objectives_open(ctx: MPCtx, side: str) -> list[str]:
    """The objectives `side` does not hold (R17.94)."""
    return [o.hex for o in ctx.sc.victory.objectives if ctx.st.control.get(o.hex) != side]


def _fresh_within(ctx: MPCtx, wid: str, hex_: str, extra: int = 0) -> bool:
    """Whether a fresh non-artillery unit of the wing stands within its MA (plus `extra`) of `hex_`."""
    return any(ctx.kind(u) is not Kind.ARTILLERY and not _shaken(ctx, u)
               and ctx.dist(ctx.hex_of(u), hex_) <= ctx.d(u).ma + extra for u in ctx.wing_units_on_map(wid))


def walk_in(ctx: MPCtx, wid: str) -> bool:
    """Whether a fresh unit of the wing could walk into an empty objective its side does not hold, one with no enemy
    unit next to it: Make Ready may enter it (5.6 note 2 bars only hexes next to the enemy), while under Charge note 1
    lets a unit move only nearer to its nearest enemy, which may lead away from it."""
    side = ctx.sc.wings[wid].side
    near_enemy = ctx.enemy_adjacent_hexes(side, live=True)
    return any(not ctx.units_in(h) and h not in near_enemy and _fresh_within(ctx, wid, h)
               for h in _objectives_open(ctx, side))


def storm(ctx: MPCtx, wid: str) -> bool:
    """Whether a fresh unit of the wing is within reach of an objective its side does not hold that only a Charge can
    take: an enemy unit stands in it or next to it (5.6 note 2: Make Ready may not enter a hex next to the enemy;
    R17.35: close combat only under Charge)."""
    side = ctx.sc.wings[wid].side
    near_enemy = ctx.enemy_adjacent_hexes(side, live=True)
    return any((ctx.enemy_units_in(h, side) or h in near_enemy) and _fresh_within(ctx, wid, h, REACH)
               for h in _objectives_open(ctx, side))


def _stuck_share(ctx: MPCtx, units: list[str]) -> float:
    """The share of the wing's non-artillery units that are Formation Broken with their morale intact: they cannot
    move (6.3) until they Reform, which Charge forbids and Make Ready allows beside a leader (5.6)."""
    foot = [u for u in units if ctx.kind(u) is not Kind.ARTILLERY]
    stuck = [u for u in foot if ctx.cond(u) is Condition.BROKEN and ctx.morale(u) is Morale.NORMAL]
    return len(stuck) / len(foot) if foot else 0.0


def orders(ctx: MPCtx, behind: str | None) -> dict[str, float]:
    out = {s: 0.0 for s in ctx.sc.side_order}
    for wid, w in ctx.sc.wings.items():
        if ctx.wing(wid).get("collapsed"):
            continue
        units = ctx.wing_units_on_map(wid)
        if not units:
            continue
        order = ctx.order(wid)
        if order is Order.RALLY:
            # a flat fit, whatever the wing's state: were it 1 for a wing more than half shaken and 0 once it is not,
            # the Reform or Rally that brings its units back (R17.76, the order's point) would cost the wing its fit,
            # and greedy's wings stood Formation Broken under Rally to the end of the battle
            out[w.side] += ORDER_FIT * RALLY_FIT
            continue
        if 2 * sum(1 for u in units if _shaken(ctx, u)) > len(units):
            fit = {Order.RALLY: 1.0}  # R17.76: Rally and Reform
        elif walk_in(ctx, wid):
            fit = {Order.MAKE_READY: 1.0, Order.CHARGE: 0.3, Order.RECEIVE_CHARGE: 0.3}
        else:
            prospect = charge_prospect(ctx, wid)
            good = (prospect is not None and prospect > CHARGE_MARGIN) or (w.side == behind and storm(ctx, wid))
            if w.side == behind:
                fit = {Order.CHARGE: 1.0, Order.MAKE_READY: 0.5} if good else {Order.MAKE_READY: 1.0}
            else:
                fit = {Order.MAKE_READY: 1.0, Order.RECEIVE_CHARGE: 1.0, Order.CHARGE: 0.5 if good else 0.0}
            stuck = _stuck_share(ctx, units)
            if stuck:  # 6.3: a Formation Broken unit cannot move, and under Charge it cannot Reform (5.6, R17.30)
                fit[Order.CHARGE] = fit.get(Order.CHARGE, 0.0) * (1.0 - stuck)
                fit[Order.MAKE_READY] = max(fit.get(Order.MAKE_READY, 0.0), stuck)
        out[w.side] += ORDER_FIT * fit.get(order, 0.0)
    return out


LOSS_SHARE = {"eliminated": 1.0, "broken": 0.7, "shaken": 0.3}  # of Original Strength, as bot_loss_points counts


_CC_CACHE: dict[tuple[Any, ...], int] = {}


def _cc_raw(ctx: MPCtx, lead: str, dfn: str) -> int:
    """R17.82-R17.83's modifiers of `lead` alone attacking `dfn` now, summed before R17.84's cap, memoised on what the
    modifiers read."""
    st = ctx.st.units
    key = (ctx.sc.id, lead, dfn, st[lead].hex, st[dfn].hex, st[lead].facing, st[dfn].facing, st[lead].moved,
           tuple(sorted(ctx.info(lead).items())), tuple(sorted(ctx.info(dfn).items())),
           tuple(ctx.leaders_in(st[lead].hex or "")), tuple(ctx.leaders_in(st[dfn].hex or "")),
           ctx.order(ctx.unit_wing(lead)), repr(ctx.act.get("salvo_at")), repr(ctx.act.get("entered", {}).get(lead)),
           repr(ctx.act.get("start_adjacent", {}).get(lead)))
    got = _CC_CACHE.get(key)
    if got is None:
        if len(_CC_CACHE) > 50000:
            _CC_CACHE.clear()
        _mods, _total, info = modifiers(ctx, {"defender": dfn, "attackers": [lead], "lead": lead, "pistols": [],
                                              "def_pistol": False})
        got = _CC_CACHE[key] = int(info["raw"])
    return got


def cc_value(ctx: MPCtx, lead: str, dfn: str, extra: int = 0) -> float:
    """The attacker's expected gain in points from `lead` alone attacking `dfn` now: each d10 face read on the 11.0
    table with R17.82-R17.84's modifiers (and `extra`, a modifier the fight would have that it has not now, before
    R17.84's cap), the loser's morale result as a share of its Original Strength."""
    if ctx.kind(dfn) is Kind.ARTILLERY or ctx.broken(dfn):
        return float(ctx.d(dfn).sp)  # overrun or a Broken defender: eliminated without a roll (R17.74, R17.80)
    total = max(-CC_CAP, min(CC_CAP, _cc_raw(ctx, lead, dfn) + extra))
    gain = 0.0
    for die in range(10):
        r, _ = cc_result(die + total)
        loser = lead if r.loser == "attacker" else dfn
        share = LOSS_SHARE[r.morale] if ctx.morale(loser) is Morale.NORMAL else 1.0
        gain += (share * ctx.d(loser).sp) * (1 if loser == dfn else -1)
    return gain / 10


def forced(ctx: MPCtx) -> dict[str, float]:
    out = {s: 0.0 for s in ctx.sc.side_order}
    wid = ctx.active_wing
    if wid is None or ctx.segment is None or ctx.order(wid) is not Order.CHARGE:
        return out
    side = ctx.sc.wings[wid].side
    for u in must_attack(ctx, side):
        values = [cc_value(ctx, u, e) for e in ctx.live_enemies(side)
                  if attackable(ctx, e) is None and attacker_problem(ctx, u, e) is None]
        if values:
            out[side] += max(values)
    return out


def bound_fight(ctx: MPCtx, uid: str) -> float | None:
    """The fight note 1 binds a unit of a Charge wing to when its wing next moves: a unit not next to an enemy unit
    must end nearer to its nearest one (R17.31), and one that moves next to an enemy in its front arc must attack it
    (R17.80). The best `cc_value` against a nearest enemy it could reach next to (its MA + 1 hexes), with the
    Momentum (11.3.6, R17.83) the move would give it; 0 when it could close on one it would not have to fight (LI
    against anything but LI, 11.6); None when it is not so bound (not under Charge, artillery, Morale Shaken, in
    Column or Hedgehog, already next to an enemy, no nearest enemy within reach)."""
    wid = ctx.unit_wing(uid)
    if ctx.order(wid) is not Order.CHARGE or ctx.kind(uid) is Kind.ARTILLERY or ctx.morale(uid) is not Morale.NORMAL \
            or ctx.mode(uid) in (Mode.COLUMN, Mode.HEDGEHOG):
        return None
    side = ctx.sc.wings[wid].side
    here = ctx.hex_of(uid)
    if ctx.adjacent_enemy(here, side):
        return None
    reach = allowance(ctx, uid) + 1
    momentum = 0
    if ctx.mode(uid) is Mode.LINE and ctx.cond(uid) is Condition.NORMAL:
        momentum = {Kind.HI: 1, Kind.CAVALRY: 1 if ctx.sc.battle == "halmstad" else 2}.get(ctx.kind(uid), 0)
    values = []
    for e in charge_targets(ctx, uid):
        if ctx.dist(here, ctx.hex_of(e)) > reach:
            continue
        if ctx.kind(e) is not Kind.ARTILLERY and matrix(ctx.d(uid).cc_class, defender_class(ctx, e)) is None:
            values.append(0.0)  # 11.6: no fight to be bound to
            continue
        values.append(cc_value(ctx, uid, e, 0 if has_momentum(ctx, uid, e) else momentum))
    return max(values) if values else None


def bound(ctx: MPCtx) -> dict[str, float]:
    """Each side's losing fights its Charge units are bound to (`bound_fight`), BOUND of each: Charge drives every
    unit toward its nearest enemy whatever the odds (note 1), so a wing under Charge whose cavalry would meet a
    Tercio first should not be, nor stand where it would."""
    out = {s: 0.0 for s in ctx.sc.side_order}
    for wid, w in ctx.sc.wings.items():
        if ctx.wing(wid).get("collapsed") or ctx.order(wid) is not Order.CHARGE:
            continue
        for u in ctx.wing_units_on_map(wid):
            v = bound_fight(ctx, u)
            if v is not None and v < 0:
                out[w.side] += BOUND * v
    return out


def stuck(ctx: MPCtx) -> dict[str, float]:
    """6.3: a Formation Broken unit cannot move until it Reforms (R17.76), whatever its strength: minus STUCK for each
    such unit of a side (artillery aside; a Morale Broken unit has no formation, R17.74). The loss points count the
    condition as a fifth of the unit's strength, which made Reforming a 3-strength horse worth less than the 0.5 point
    greedy's ply needs (`MIN_MOVE_GAIN`): wings stood Formation Broken under Rally for the rest of the battle."""
    out = {s: 0.0 for s in ctx.sc.side_order}
    for s in ctx.sc.side_order:
        for u in ctx.units_of(s):
            if ctx.kind(u) is not Kind.ARTILLERY and ctx.cond(u) is Condition.BROKEN and not ctx.broken(u):
                out[s] -= STUCK
    return out


def advance(ctx: MPCtx) -> dict[str, float]:
    """Every objective, held or not: were the pull of an objective a side does not hold dropped once it takes it, a
    wing standing round an empty village would lose more by walking in (ADVANCE for each of its units' hexes) than the
    village's 4 points gain it, and greedy would never take it."""
    out = {s: 0.0 for s in ctx.sc.side_order}
    for o in ctx.sc.victory.objectives:
        for s in ctx.sc.side_order:
            for u in ctx.units_of(s):
                if ctx.broken(u):
                    continue
                out[s] += ADVANCE * max(0, ADVANCE_RANGE - ctx.dist(ctx.hex_of(u), o.hex))
    return out


def bonus(ctx: MPCtx, points: dict[str, int]) -> dict[str, float]:
    """Every term above, per side, in points (`points`: R17.94's points now, to tell which side is behind)."""
    a, b = ctx.sc.side_order
    behind = a if points[a] < points[b] else b if points[b] < points[a] else None
    out = {s: 0.0 for s in ctx.sc.side_order}
    for part in (tempo(ctx), orders(ctx, behind), forced(ctx), bound(ctx), stuck(ctx), advance(ctx)):
        for s, v in part.items():
            out[s] += v
    return out
