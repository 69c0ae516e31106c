"""A static evaluation of a position for one side, in tenths of a victory point.

Terms (each computed for both sides and subtracted, so the score is zero-sum):

* victory points now: objectives held (the scenario's "last to occupy" control) and enemy losses;
* objectives still to take: each objective a side scores and does not hold, weighted by its points and
  by how near that side's nearest combat unit is, and only if it can get there in the turns left
  (hex distance over the unit's movement allowance); a garrison of the holder in or next to the
  objective makes it less likely to fall;
* threat and support: every hex of combat units is judged against the enemy attack factors next to
  it, with its own defence, its terrain's defence bonus and friendly units next to it; the chance of
  a bad result grows with the differential as on the CRT;
* disrupted or ineffective units, a leader standing without combat units, an over-stacked hex;
* sudden death: holding every hex of a side's immediate-victory set;
* the edition's operational plan, where it has one (`Edition.bot_plan`, e.g. the Standard rules on a large field):
  each combat unit's march, in turns, to the nearest objective its side can contest (W_MARCH a turn), and an
  enemy's area condition broken while any of the side's units stands in the area.

`Pos` is a light copy of the units' positions so a movement candidate can be scored by moving the
group's counters in it, without running the engine; attacks and decisions are scored on engine
copies with `evaluate`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from server.rules import Game

WIN = 100000.0
POINT = 10.0
W_OBJECTIVE = 7.0
W_THREAT = 6.0
IMPAIRED = 3.0
LONE_LEADER = 6.0
OVERSTACK = 40.0
SUDDEN = 400.0
W_MARCH = 5.0  # a turn of marching (MP over MA) still to go to the nearest objective, for each combat unit (bot_plan)

# CRT-shaped chance that a defender suffers an adverse result, by attack-minus-defence differential
# (Quick Play R6: the share of D-results in each column).
_BAD = {-6: 0.0, -5: 0.0, -4: 0.0, -3: 0.17, -2: 0.17, -1: 0.33, 0: 0.33, 1: 0.5, 2: 0.5, 3: 0.67, 4: 0.67,
        5: 0.83, 6: 0.83}


def bad_chance(diff: int) -> float:
    if diff <= -6:
        return 0.0
    if diff >= 7:
        return 1.0
    return _BAD[diff]


@dataclass(slots=True)
class U:
    uid: str
    side: str
    hex: str | None
    leader: bool
    attack: int
    defense: int
    ma: int
    steps: int  # steps left
    impaired: bool
    kind: Any  # the edition's unit kind


class Pos:
    """Units on the map of a game, their current factors, and the objectives' control."""

    def __init__(self, game: Game) -> None:
        sc, st = game.scenario, game.state
        self.game = game
        self.units: dict[str, U] = {}
        factors = game.ruleset.bot_factors
        for uid, s in st.units.items():
            if s.status != "map" or s.hex is None:
                continue
            d = sc.units[uid]
            att, dfn, ma = factors(sc, s)
            self.units[uid] = U(uid, d.side, s.hex, d.kind.value == "leader", att, dfn, ma,
                                1 if (s.reduced or d.steps == 1) else d.steps, s.disrupted or s.ineffective, d.kind)
        self.control = game.ruleset.bot_control(game)
        self.turn = st.turn


def loss_points(game: Game) -> dict[str, int]:
    """Victory points from enemy losses (the scenario's loss schedule, or the edition's own count), as the view
    counts them."""
    own = game.ruleset.bot_loss_points(game)
    if own is not None:
        return own
    sc, st = game.scenario, game.state
    v = sc.victory
    out = {s: 0 for s in sc.side_order}
    for uid, s in st.units.items():
        d = sc.units[uid]
        enemy = sc.opponent(d.side)
        if d.kind.is_combat:
            if s.status == "captured":
                out[enemy] += v.unit_captured
            elif s.status in ("eliminated", "dead", "returning"):
                out[enemy] += v.step_eliminated * d.steps
            elif s.status == "map" and s.reduced:
                out[enemy] += v.step_eliminated
        elif s.status == "captured":
            out[enemy] += v.leader_captured
        elif s.status == "dead":
            out[enemy] += v.leader_eliminated
    return out


def evaluate(game: Game, side: str, losses: dict[str, int] | None = None) -> float:
    """The position's value for `side` (positive: good for `side`)."""
    if game.is_over:
        winner = (game.result or {}).get("winner")
        pts = (game.result or {}).get("points", {})
        margin = POINT * float(pts.get(side, 0) - pts.get(game.scenario.opponent(side), 0))
        if winner is None:
            return margin
        return (WIN if winner == side else -WIN) + margin
    return eval_pos(game, Pos(game), side, losses if losses is not None else loss_points(game))


class _Static:
    """What eval_pos needs of a scenario that never changes during a game: each objective's distance
    to every hex, each hex's terrain defence for the bot, the verdict of the stacking limit by kinds."""

    __slots__ = ("defence", "march", "objectives", "plan", "scenario", "stacking")

    def __init__(self, scenario: Any, ruleset: Any) -> None:
        grid = scenario.grid
        self.scenario = scenario
        self.objectives = [  # the scenario's objectives and what else its edition's victory makes worth holding
            (o.hex, o.points, o.scorer, {h: grid.distance(h, o.hex) for h in grid.all_hexes()})
            for o in ruleset.bot_objectives(scenario)
        ]
        self.defence: dict[str, int] = {}
        self.stacking: dict[tuple[Any, ...], bool] = {}
        self.plan = ruleset.bot_plan(scenario)  # None on every battle but a large one: no term below then
        self.march = {} if self.plan is None else self.plan.march


def march_term(static: _Static, u: U) -> float:
    """What a combat unit's march still to go costs its side (bot_plan): W_MARCH a turn of its MA."""
    table = static.march.get(u.side)
    if table is None or u.hex is None:
        return 0.0
    costs = table.get(getattr(u.kind, "tec_class", u.kind.value))
    if costs is None:
        return 0.0
    return W_MARCH * costs.get(u.hex, 0.0) / max(u.ma, 1)


def plan_terms(static: _Static, combat: dict[str, list[U]], game: Game | None = None) -> dict[str, float]:
    """Each side's terms of the edition's plan: minus its combat units' marches (a unit still off the map, due to
    enter, charged from its entry hex and a turn more, so that entering is a step of the march), plus each area
    condition it breaks (a combat unit of the side in the area, as the condition counts them)."""
    out = {s: 0.0 for s in combat}
    plan = static.plan
    if plan is None:
        return out
    for s, units in combat.items():
        if s in static.march:
            out[s] -= sum(march_term(static, u) for u in units if u.kind.is_combat)
    if game is not None:
        sc = game.scenario
        for uid, st in game.state.units.items():
            if st.status != "offboard" or st.entry_hex is None:
                continue
            d = sc.units[uid]
            table = static.march.get(d.side)
            if table is None or not d.kind.is_combat:
                continue
            costs = table.get(getattr(d.kind, "tec_class", d.kind.value))
            if costs is not None:
                ma = max(game.ruleset.bot_factors(sc, st)[2], 1)
                out[d.side] = out.get(d.side, 0.0) - W_MARCH * (1.0 + costs.get(st.entry_hex, 0.0) / ma)
    for s, hexes, points in plan.breach:
        if any(u.hex in hexes for u in combat.get(s, ()) if u.kind.is_combat):
            out[s] = out.get(s, 0.0) + POINT * points
    return out
    for s, units in combat.items():
        if s in static.march:
            out[s] -= sum(march_term(static, u) for u in units if u.kind.is_combat)
    for s, hexes, points in plan.breach:
        if any(u.hex in hexes for u in combat.get(s, ()) if u.kind.is_combat):
            out[s] = out.get(s, 0.0) + POINT * points
    return out


_STATIC: dict[int, _Static] = {}


def _static(game: Game) -> _Static:
    sc = game.scenario
    s = _STATIC.get(id(sc))
    if s is None or s.scenario is not sc:  # the id of a scenario collected since may be reused
        if len(_STATIC) > 64:
            _STATIC.clear()
        s = _STATIC[id(sc)] = _Static(sc, game.ruleset)
    return s


def eval_pos(game: Game, pos: Pos, side: str, losses: dict[str, int]) -> float:
    # The hot loop of every bot (thousands of calls per decision): the scenario's fixed facts come
    # from _static, and each term is computed in the same order as ever so the value is bit-identical.
    sc = game.scenario
    static = _static(game)
    neighbors = sc.grid.neighbors
    enemy = sc.opponent(side)
    turns_left = sc.turns - pos.turn
    occ: dict[str, list[U]] = {}
    combat: dict[str, list[U]] = {side: [], enemy: []}
    count: dict[str, dict[str, int]] = {side: {}, enemy: {}}  # a side's combat units per hex
    attack: dict[str, dict[str, int]] = {side: {}, enemy: {}}  # their attack factors, artillery aside
    for u in pos.units.values():
        h = u.hex
        if h is not None:
            occ.setdefault(h, []).append(u)
            if not u.leader:
                combat[u.side].append(u)
                n_side = count[u.side]
                n_side[h] = n_side.get(h, 0) + 1
                if u.kind.value != "artillery":
                    a_side = attack[u.side]
                    a_side[h] = a_side.get(h, 0) + u.attack
    # control as the engine would update it: the only side with combat units in an objective takes it
    control = dict(pos.control)
    for ohex, _points, _scorer, _dist in static.objectives:
        sides = {u.side for u in occ.get(ohex, ()) if not u.leader}
        if len(sides) == 1:
            control[ohex] = next(iter(sides))
    score = {side: 0.0, enemy: 0.0}
    pts = dict(losses)
    for ohex, points, scorer, _dist in static.objectives:
        h = control.get(ohex)
        if h is not None and (scorer is None or scorer == h):
            pts[h] = pts.get(h, 0) + points
    for s in (side, enemy):
        score[s] += POINT * pts.get(s, 0)
    # objectives still to take
    for x in (side, enemy):
        y = sc.opponent(x)
        reach = [(u.hex, u.ma * (turns_left + 1) + 1, 0.5 if u.impaired else 1.0) for u in combat[x]]
        for ohex, points, scorer, dist in static.objectives:
            if control.get(ohex) == x or (scorer is not None and scorer != x):
                continue
            best = 0.0
            for uhex, most, factor in reach:
                d = dist[uhex]
                if d > most:
                    continue
                c = 1.0 / (1.0 + d) * factor
                if c > best:  # noqa: PLR1730 - max() is a call per unit in the hottest loop
                    best = c
            if best == 0.0:
                continue
            held = count[y]
            guard = held.get(ohex, 0)
            guard_adj = sum(held.get(n, 0) for n in neighbors(ohex))
            score[x] += W_OBJECTIVE * points * best / (1.0 + guard + 0.5 * guard_adj)
    # threat and support, impaired units, lone leaders, stacking. In a side's own combat phase its threat
    # counts for nothing: what it does not realise by attacking now, the enemy moves away from first.
    st = game.state
    spent = st.active if st.phase == "combat" else None
    stacking, defence = static.stacking, static.defence
    for h, us in occ.items():
        s = us[0].side
        y = enemy if s == side else side
        fighters = [u for u in us if not u.leader]
        own = count[s]
        if not fighters:
            if not any(n in own for n in neighbors(h)):
                score[s] -= LONE_LEADER
            continue
        kinds = tuple(u.kind for u in us)
        ok = stacking.get(kinds)
        if ok is None:
            ok = stacking[kinds] = game.ruleset.stacking_ok(list(kinds))
        if not ok:
            score[s] -= OVERSTACK
        score[s] -= IMPAIRED * sum(1 for u in fighters if u.impaired)
        att = 0
        friends = 0
        hostile = attack[y]
        for n in neighbors(h):
            att += hostile.get(n, 0)
            friends += own.get(n, 0)
        if att == 0 or y == spent:
            continue
        tdef = defence.get(h)
        if tdef is None:
            tdef = defence[h] = game.ruleset.bot_terrain_defence(sc, h)
        dfn = sum(sorted((u.defense for u in fighters), reverse=True)[:2]) + tdef
        p = bad_chance(att - dfn - min(friends, 2) // 2)
        at_stake = sum(min(u.steps, 2) for u in fighters[:2]) + (1 if any(u.impaired for u in fighters) else 0)
        score[s] -= W_THREAT * p * at_stake
    for s, hexes in sc.victory.sudden_death:
        if all(control.get(h) == s for h in hexes):
            score[s] += SUDDEN
    if static.plan is not None:
        for s, v in plan_terms(static, combat, game).items():
            score[s] += v
    return score[side] - score[enemy]


def points_now(game: Game) -> dict[str, Any]:
    return loss_points(game)


class GroupScan:
    """`eval_pos` of one group's counters placed at each of many hexes, computed incrementally.

    A movement scan scores every hex a group can reach; each full `eval_pos` walks every unit and every
    occupied hex, yet moving one group changes only its new hex, that hex's neighbours (their threat,
    support and lone leaders) and the objectives. The position without the group is evaluated once, term
    by term and hex by hex; `value(dest)` then recomputes only what the group at `dest` changes. The result
    equals `eval_pos` with the group's counters at `dest` up to floating-point rounding (the same terms,
    summed in a different order; `tests/bots/test_evaluate.py` checks it on every shipped Quick Play
    scenario). The group's counters in `pos` are left where they were."""

    def __init__(self, game: Game, pos: Pos, side: str, losses: dict[str, int], group: list[str]) -> None:
        sc = game.scenario
        self.game, self.side, self.losses = game, side, losses
        self.static = _static(game)
        self.neighbors = sc.grid.neighbors
        self.enemy = enemy = sc.opponent(side)
        self.turns_left = sc.turns - pos.turn
        st = game.state
        self.spent = st.active if st.phase == "combat" else None
        self.control0 = pos.control
        members = set(group)
        self.order = {uid: i for i, uid in enumerate(pos.units)}
        self.movers = [pos.units[u] for u in pos.units if u in members]
        self.mover_side = self.movers[0].side if self.movers else side
        occ: dict[str, list[U]] = {}
        count: dict[str, dict[str, int]] = {side: {}, enemy: {}}
        attack: dict[str, dict[str, int]] = {side: {}, enemy: {}}
        combat: dict[str, list[U]] = {side: [], enemy: []}
        for u in pos.units.values():
            h = u.hex
            if h is None or u.uid in members:
                continue
            occ.setdefault(h, []).append(u)
            if not u.leader:
                combat[u.side].append(u)
                count[u.side][h] = count[u.side].get(h, 0) + 1
                if u.kind.value != "artillery":
                    attack[u.side][h] = attack[u.side].get(h, 0) + u.attack
        self.occ, self.count, self.attack = occ, count, attack
        self.combat_wo = combat  # the plan's terms (bot_plan) are recomputed with the group at each hex
        # each side's best reach to each objective without the group (the group's own reach is added per hex)
        self.best0: dict[str, list[float]] = {}
        for x in (side, enemy):
            reach = [(u.hex, u.ma * (self.turns_left + 1) + 1, 0.5 if u.impaired else 1.0) for u in combat[x]]
            row = []
            for _ohex, _points, _scorer, dist in self.static.objectives:
                best = 0.0
                for uhex, most, factor in reach:
                    d = dist[uhex]
                    if d <= most:
                        best = max(best, 1.0 / (1.0 + d) * factor)
                row.append(best)
            self.best0[x] = row
        self.mover_reach = [
            (u.ma * (self.turns_left + 1) + 1, 0.5 if u.impaired else 1.0) for u in self.movers if not u.leader
        ]
        self.n_fight = sum(1 for u in self.movers if not u.leader)
        self.n_att = sum(u.attack for u in self.movers if not u.leader and u.kind.value != "artillery")
        neighbors = self.neighbors
        # what the objectives' terms are without the group: control, points, each guard's denominator
        self.objective_hexes = {o[0] for o in self.static.objectives}
        self.near_objective = [{o[0], *neighbors(o[0])} for o in self.static.objectives]
        self.control_wo, self.points_wo = self._control_points()
        self.denominators0 = {
            y: [
                1.0 + count[y].get(ohex, 0) + 0.5 * sum(count[y].get(n, 0) for n in neighbors(ohex))
                for ohex, _p, _s, _d in self.static.objectives
            ]
            for y in (side, enemy)
        }
        self.hex_terms0 = {h: self._hex_term(h, us) for h, us in occ.items()}
        self.hex_total0 = sum(self.hex_terms0.values())

    def _hex_term(self, h: str, us: list[U]) -> float:
        """One occupied hex's terms of eval_pos (lone leader, stacking, impaired, threat), for `side`."""
        game, side = self.game, self.side
        neighbors = self.neighbors
        s = us[0].side
        y = self.enemy if s == side else side
        sign = 1.0 if s == side else -1.0
        own = self.count[s]
        fighters = [u for u in us if not u.leader]
        if not fighters:
            if not any(n in own for n in neighbors(h)):
                return -sign * LONE_LEADER
            return 0.0
        out = 0.0
        kinds = tuple(u.kind for u in us)
        stacking = self.static.stacking
        ok = stacking.get(kinds)
        if ok is None:
            ok = stacking[kinds] = game.ruleset.stacking_ok(list(kinds))
        if not ok:
            out -= OVERSTACK
        out -= IMPAIRED * sum(1 for u in fighters if u.impaired)
        att = 0
        friends = 0
        hostile = self.attack[y]
        for n in neighbors(h):
            att += hostile.get(n, 0)
            friends += own.get(n, 0)
        if att != 0 and y != self.spent:
            defence = self.static.defence
            tdef = defence.get(h)
            if tdef is None:
                tdef = defence[h] = game.ruleset.bot_terrain_defence(game.scenario, h)
            dfn = sum(sorted((u.defense for u in fighters), reverse=True)[:2]) + tdef
            p = bad_chance(att - dfn - min(friends, 2) // 2)
            at_stake = sum(min(u.steps, 2) for u in fighters[:2]) + (1 if any(u.impaired for u in fighters) else 0)
            out -= W_THREAT * p * at_stake
        return sign * out

    def _control_points(self) -> tuple[dict[str, str], float]:
        """Control as the engine would update it from the current `occ`, and the points term for `side`."""
        control = dict(self.control0)
        objectives = self.static.objectives
        occ = self.occ
        for ohex, _points, _scorer, _dist in objectives:
            sides = {u.side for u in occ.get(ohex, ()) if not u.leader}
            if len(sides) == 1:
                control[ohex] = next(iter(sides))
        pts = dict(self.losses)
        for ohex, points, scorer, _dist in objectives:
            h = control.get(ohex)
            if h is not None and (scorer is None or scorer == h):
                pts[h] = pts.get(h, 0) + points
        return control, POINT * pts.get(self.side, 0) - POINT * pts.get(self.enemy, 0)

    def value(self, dest: str) -> float:
        """eval_pos (up to rounding) with the group's counters at `dest`."""
        side, enemy, ms = self.side, self.enemy, self.mover_side
        occ, count, attack = self.occ, self.count, self.attack
        movers = self.movers
        n_fight, n_att = self.n_fight, self.n_att
        # place the group (restored below)
        had = occ.get(dest)
        occ[dest] = movers if had is None else sorted(had + movers, key=lambda u: self.order[u.uid])
        c0 = count[ms].get(dest)
        a0 = attack[ms].get(dest)
        if n_fight:
            count[ms][dest] = (c0 or 0) + n_fight
        if n_att:
            attack[ms][dest] = (a0 or 0) + n_att
        try:
            neighbors = self.neighbors
            # objectives: control and points, then the ones still to take
            if dest in self.objective_hexes:
                control, total = self._control_points()
            else:
                control, total = self.control_wo, self.points_wo
            objectives = self.static.objectives
            for x in (side, enemy):
                y = enemy if x == side else side
                held = count[y]
                row = self.best0[x]
                denominators = self.denominators0[y]
                for i, (ohex, points, scorer, dist) in enumerate(objectives):
                    if control.get(ohex) == x or (scorer is not None and scorer != x):
                        continue
                    best = row[i]
                    if x == ms:
                        d = dist[dest]
                        for most, factor in self.mover_reach:
                            if d <= most:
                                best = max(best, 1.0 / (1.0 + d) * factor)
                    if best == 0.0:
                        continue
                    if y == ms and dest in self.near_objective[i]:
                        guard = held.get(ohex, 0)
                        guard_adj = sum(held.get(n, 0) for n in neighbors(ohex))
                        denominator = 1.0 + guard + 0.5 * guard_adj
                    else:
                        denominator = denominators[i]
                    term = W_OBJECTIVE * points * best / denominator
                    total += term if x == side else -term
            # the hexes whose terms the group changes: its own and its neighbours
            hexes = self.hex_total0
            terms0 = self.hex_terms0
            for h in (dest, *neighbors(dest)):
                if h in terms0:
                    hexes -= terms0[h]
                us = occ.get(h)
                if us:
                    hexes += self._hex_term(h, us)
            total += hexes
            for s, hs in self.game.scenario.victory.sudden_death:
                if all(control.get(h) == s for h in hs):
                    total += SUDDEN if s == side else -SUDDEN
            if self.static.plan is not None:
                combat = {x: list(us) for x, us in self.combat_wo.items()}
                combat[ms] += [replace(u, hex=dest) for u in movers if not u.leader]
                terms = plan_terms(self.static, combat, self.game)
                total += terms[side] - terms[enemy]
            return total
        finally:
            if had is None:
                del occ[dest]
            else:
                occ[dest] = had
            if n_fight:
                if c0 is None:
                    del count[ms][dest]
                else:
                    count[ms][dest] = c0
            if n_att:
                if a0 is None:
                    del attack[ms][dest]
                else:
                    attack[ms][dest] = a0
