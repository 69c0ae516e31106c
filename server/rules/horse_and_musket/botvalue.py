"""What the computer opponent weighs in a Horse and Musket position (server/bots' evaluation reads it through
`HorseAndMusket.bot_loss_points`): heuristics, never rules. Each term is in victory points for one side; the bots'
evaluation subtracts the two sides (zero-sum).

* **Damage done:** R16.18's points from losses, and each hit on a living enemy unit as a twelfth of one (a unit routs at
  12, R16.15), so the bots weigh the hits they inflict.
* **Fights ahead:** the hand-to-hand combats a player turn will fight (contacts made, charges declared and passed),
  by their expected dice (R16.16: every die of 4-6 hits, so half of them); a gun or wagon a charge will reach as lost
  to its side (4.1.7, 6.2: removed on contact, the gun captured, R16.18); a declared charge ending in an objective the
  enemy holds as taking it.
* **Fire to come:** each unit's expected hits on its best target in its next firing step (R16.14's targets: arc, range,
  clear path, the nearest; 5.1, 5.2 dice and needs; saves halve), so a unit turns to face the enemy (R16.4), forms a
  firing formation (R16.5) and closes to range. A side's own firing step spends it (the fire it does not make then is
  not made at all), as the Quick Play threat term is spent in a side's own combat phase.
* **Charge threats:** each unit's best charge from where it stands (R16.13's paths, 4.1.6-4.1.8's limits): the fight's
  expected hits (the defender's saves halving the charger's, 6.7) and its chance of winning (6.8), and an objective it
  would end in, times the test's chance (4.1.1); halved for the active side once its charge step is past (they wait a
  whole enemy turn), so a unit stands where the enemy cannot charge it cheaply.
* **Closing in:** the side that is not ahead on points must take something from the other, so each of its units that
  has nothing in reach is drawn toward the nearest enemy unit (a small pull per hex; cavalry toward the nearest it may
  charge).
"""

from __future__ import annotations

import math
from typing import Any

from . import charges, firing, melee
from . import geometry as geo
from .context import HMCtx
from .tables import FIRE_NEED, GUN, SMALL_ARMS_DICE, Kind, charge_need, is_long, long_range, rate
from .victory import points

HIT = 1 / 12  # a hit, in points: a unit routs at 12 hits (R16.15) and a lost unit is 1 point (R16.18)
FIRE_WEIGHT = 1.0  # the fire a side will make in its next firing step, as the hits it expects
PULL = 0.04  # points per hex toward the enemy, for the side that must attack
GUN_TAKEN = 2.0
CONTACT = 0.8  # the chance a declared charge makes contact (defensive fire may stagger it back first, 4.1.5)
CHARGE_THREAT = 1.0  # the charges a side could make at its next charge step, by their expected fight
THREAT_WIN = 0.5  # points for winning such a fight (the loser retreats, may be destroyed, loses its colours)  # a gun reached by a charge: the unit lost (1) and the gun captured (1), R16.18
# 5.2.3: the mean of the shots, ceil(1d6 / 2) at long range and ceil(2d6 / 2) at short range
LONG_SHOTS = 2.0
SHORT_SHOTS = 135 / 36


def expected_hits(ctx: HMCtx, uid: str, target: str) -> float:
    """The hits (after saves) `uid` expects to score firing at `target` now (5.1, 5.2, 5.3, 5.5, 5.1.10)."""
    d = ctx.d(uid)
    grid = ctx.sc.grid
    here, there = ctx.hex_of(uid), ctx.hex_of(target)
    dist = grid.distance(here, there)
    long = is_long(d.weapon, dist)
    enfilade = firing.enfilade_of(ctx, uid, target)
    saves = ctx.kind(target) is Kind.ARTILLERY or firing.in_cover_from(ctx, target, here)
    if d.weapon == GUN:
        hits = (LONG_SHOTS if long else SHORT_SHOTS) * (2 if enfilade else 1) * 0.5
    else:
        need = FIRE_NEED[d.kind] + int(long) + int(ctx.st.units[uid].moved) + int(d.kind is Kind.CO and
                                                                                   ctx.staggered(uid))
        p = max(0, 7 - need) / 6
        if firing.first_fire_applies(ctx, uid):
            p = 1 - (1 - p) ** 2
        hits = SMALL_ARMS_DICE * (2 if enfilade else 1) * p
    return hits * (0.5 if saves else 1.0)


def _fire_to_come(ctx: HMCtx, side: str) -> float:
    if ctx.st.extra.get("step") in ("firing", "melee") and ctx.st.active == side:
        return 0.0
    total = 0.0
    for uid in ctx.units_of(side):
        best = 0.0
        for t in firing.targets(ctx, uid):
            best = max(best, expected_hits(ctx, uid, t))
        total += best
    return FIRE_WEIGHT * HIT * total


def _pull(ctx: HMCtx, side: str) -> float:
    """Closing in: minus a small weight per hex between each unit that has nothing in reach and the nearest enemy
    unit (cavalry: the nearest it could charge, not in woods or a town, R16.12)."""
    grid = ctx.sc.grid
    enemies = [(e, ctx.hex_of(e)) for e in ctx.units_of(ctx.enemy(side))]
    if not enemies:
        return 0.0
    total = 0.0
    for uid in ctx.units_of(side):
        k = ctx.kind(uid)
        if k in (Kind.ARTILLERY, Kind.WAGONS):
            continue
        here = ctx.hex_of(uid)
        if k.cavalry:
            near = [grid.distance(here, h) for e, h in enemies
                    if ctx.sc.terrain_at(h) not in ("woods", "town") and h not in ctx.sc.fieldworks]
            reach = 1
        else:
            near = [grid.distance(here, h) for _, h in enemies]
            reach = max(1, min(2, long_range(ctx.d(uid).weapon)))
        if near:
            total -= PULL * max(0, min(near) - reach)
    return total


def _fight_value(ctx: HMCtx, charger: str, target: str) -> float:
    """What `charger` expects of a charge at `target` from where it stands, in points: the hits each side deals (half
    its dice, R16.16; the defender's saves halve the charger's, 6.7), and the chance of winning (6.8), all times the
    chance its charge test passes (4.1.1)."""
    d = ctx.d(charger)
    need = charge_need(d.kind, d.grade, ctx.staggered(charger))
    if need is None:
        return 0.0
    contact = {"charger": charger, "target": target, "counter": False, "river": False, "card": None}
    dealt = float(sum(n for n, _, _ in melee.dice_for(ctx, charger, target, contact, True)))
    taken = float(sum(n for n, _, _ in melee.dice_for(ctx, target, charger, contact, False)))
    there = ctx.hex_of(target)
    if ctx.sc.cover_hex(there) or (ctx.defends_as_co(target) and ctx.kind(charger).cavalry):
        dealt /= 2  # 6.7: the defender's saves
    p = (7 - need) / 6
    return p * ((dealt - taken) / 2 * HIT + THREAT_WIN * (_wins(dealt, taken) - 0.5))


def _taking(ctx: HMCtx, side: str, hex_: str) -> float:
    """What `side` gains by a unit ending a charge in `hex_`: an objective the other side holds changes hands (R16.18),
    its points to one side and from the other, if the charge makes contact."""
    for o in ctx.sc.victory.objectives:
        if o.hex == hex_ and ctx.st.control.get(hex_) != side:
            return CONTACT * o.points * (2 if ctx.st.control.get(hex_) is not None else 1)
    return 0.0


def _charge_threats(ctx: HMCtx, side: str) -> float:
    """Each of the side's units' best charge it could declare from where it stands (R16.13's paths, 4.1.6-4.1.8's
    limits), if it gains."""
    grid = ctx.sc.grid
    enemies = [(t, ctx.hex_of(t)) for t in ctx.units_of(ctx.enemy(side))]
    engaged = ctx.engaged()
    most_held = max((_taking(ctx, side, o.hex) for o in ctx.sc.victory.objectives), default=0.0)
    total = 0.0
    for uid in ctx.units_of(side):
        k = ctx.kind(uid)
        if not k.fights or uid in engaged:
            continue
        here = ctx.hex_of(uid)
        facing = ctx.facing(uid)
        most = rate(k, ctx.formation(uid), False) + 1  # a charge is one move at most (R16.13), ending next to it
        best = 0.0
        for t, th in enemies:
            dist = grid.distance(here, th)
            if dist > most or t in engaged:
                continue
            # a charge runs out along the rows through its front hexsides (R16.13): next to the target at its end,
            # so the target or one of its neighbours lies in the front sector (cheap, before the paths are walked)
            if dist > 1 and not (geo.in_fire_arc(grid, here, facing, th)
                                 or any(geo.in_fire_arc(grid, here, facing, n) for n in grid.neighbors(th))):
                continue
            if charges.charge_problem(ctx, uid, t) is not None:
                continue
            if not ctx.kind(t).fights:
                v = GUN_TAKEN * 0.5
            else:
                v = _fight_value(ctx, uid, t)
            if v + most_held <= best:
                continue
            paths = charges.paths_to(ctx, uid, t)
            if paths:
                # a charge that ends in an objective takes it (R16.18: the last side to have a unit there)
                p = (7 - (charge_need(k, ctx.d(uid).grade, ctx.staggered(uid)) or 7)) / 6
                v += p * max(_taking(ctx, side, path[-1]) for path in paths)
                best = max(best, v)
        total += best
    return total


def _fights_ahead(ctx: HMCtx) -> list[tuple[str, str, dict[str, Any]]]:
    """The hand-to-hand combats this player turn will fight: contacts made, and charges declared and passed but not
    yet resolved."""
    out = [(c["charger"], c["target"], c) for c in ctx.x.get("contacts", [])
           if ctx.on_map(c["charger"]) and ctx.on_map(c["target"])]
    if ctx.step == "charges":
        for c in ctx.x.get("charges", []):
            if c["passed"] and ctx.on_map(c["unit"]) and ctx.on_map(c["target"]):
                out.append((c["unit"], c["target"], {"charger": c["unit"], "target": c["target"], "counter": False,
                                                      "river": False, "card": c["card"]}))
    return out


def _wins(a: float, b: float) -> float:
    """The chance that a d6 pool of `a` dice scores more hits (4-6) than one of `b` (a normal approximation, ties
    halved): the charger's chance of winning the fight (6.8, 6.10)."""
    mean = (a - b) / 2
    sd = math.sqrt((a + b) / 4) or 1.0
    return 0.5 * (1 + math.erf(mean / (sd * math.sqrt(2))))


def values(ctx: HMCtx) -> dict[str, float]:
    """Each side's heuristic value in points (module docstring), objectives apart: the bots' evaluation adds those
    itself from `bot_objectives` and the control."""
    sc = ctx.sc
    pts = points(ctx)
    out: dict[str, float] = {s: float(pts[s]) for s in sc.side_order}
    for obj in sc.victory.objectives:
        holder = ctx.st.control.get(obj.hex)
        if holder is not None:
            out[holder] -= obj.points
    for s in sc.side_order:
        for u in ctx.units_of(s):
            out[sc.opponent(s)] += (12 - ctx.strength(u)) * HIT
    for charger, target, contact in _fights_ahead(ctx):
        if not ctx.kind(target).fights:
            out[ctx.side_of(charger)] += GUN_TAKEN
            continue
        if not ctx.kind(charger).fights:
            continue
        dealt = sum(n for n, _, _ in melee.dice_for(ctx, charger, target, contact, True)) / 2
        taken = sum(n for n, _, _ in melee.dice_for(ctx, target, charger, contact, contact["counter"])) / 2
        out[ctx.side_of(charger)] += dealt * HIT
        out[ctx.side_of(target)] += taken * HIT
    if ctx.step == "charges":
        for c in ctx.x.get("charges", []):  # a declared charge that will end in an objective takes it
            if c["passed"] and ctx.on_map(c["unit"]):
                out[ctx.side_of(c["unit"])] += _taking(ctx, ctx.side_of(c["unit"]), c["path"][-1])
    ahead = {s: pts[s] - pts[sc.opponent(s)] for s in sc.side_order}
    step = ctx.st.extra.get("step")
    for s in sc.side_order:
        out[s] += _fire_to_come(ctx, s)
        if CHARGE_THREAT:
            # the active side's charges are made (or not) in its charge step: after it they wait a whole enemy turn
            late = ctx.st.active == s and step in ("moves", "firing", "melee")
            out[s] += CHARGE_THREAT * (0.5 if late else 1.0) * _charge_threats(ctx, s)
        if ahead[s] <= 0:
            out[s] += _pull(ctx, s)
    return out
