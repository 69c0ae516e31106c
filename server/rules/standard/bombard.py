"""Artillery fire in the Standard rules: bombardment (seed 002 8.4-8.5, with 8.6-8.7, 9.2(4), 14.2(5), 14.3(2)-(3),
R12), who may give supporting fire (8.8) and the Ammo result (7.8, 8.5).

`bombard {target, artillery, groups?}` declares every artillery unit that bombards the hex `target` this phase (8.4:
all of them before any is resolved; the hex is not bombarded again this phase) and how they fire: `groups` lists the
fire groups, each the batteries that fire together in one bombardment and at most one leader coordinating them;
without it each battery fires alone (8.4: each unit's bombardment is resolved separately).  A part of a stack may
fire, and stacked batteries may fire apart, at different units of the hex or at other hexes (8.4).  Batteries fire
together only when each is stacked with or adjacent to another of the group and/or to its coordinating leader, who
must be effective (10.1), have the battery in his command span and spend his one assist of the turn (10.3, S24);
never at twilight (14.3(2)).  Each group is resolved separately: the attacker names the enemy unit it fires at
(decision `bombard_unit`), the total attack factor (doubled against cavalry, 9.2(4)) reads the CRT as a positive
differential (8.5, R12: A results and parenthesised results ignored, Ex costs the target a step), and the result
falls on that unit alone.  A bombardment is an attack for 7.2 only when it inflicts a result on the unit (8.4).

`bombard_problem` judges one artillery unit against one hex, for bombardment and for supporting fire alike: its
factors and state (8.4), range with a hill's extra hex (8.7), the line of sight (8.6, `has_los`: along a hexside only
the two hexes beside it block, S29) and its length by daylight, twilight and night (8.6, 14.3(3), 14.2(5));
the weather's limit (19.4: Light Rain 6 hexes, +1 from a hill, +2 from fieldworks when bombarding; Heavy Rain 4);
`support_problem` adds 8.8's own conditions for an attack.
Ammo flips one firing unit of the combat, a bombardment's or a supported attack's (the attacker's choice among
several: decision `ammo`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..kernel.errors import IllegalCommand, MalformedCommand
from ..kernel.game import check_fields
from ..kernel.hexes import hexside_key
from ..kernel.state import PHASE_COMBAT
from . import battery
from .combat_results import apply_outcome, exchange_spared, owe_fow
from .context import StdCtx
from .crt import bombardment_result
from .leaders import assisted, leader_checks
from .movement import printed_side
from .results import outcomes
from .scenario import Kind
from .sight import LOS_DAY, has_los
from .tactics import in_span
from .weather import los_refusal

_CAVALRY = (Kind.CAVALRY, Kind.SQUADRON)


# --- 8.4, 8.6, 8.7: which artillery may fire at a hex ---------------------------------------------------------------
def bombard_problem(ctx: StdCtx, side: str, uid: str, target: str, *, support: bool = False) -> str | None:
    """8.4, 8.6, 8.7, 14.2(5), 14.3(3), 19.4: why this artillery may not bombard `target` now (None: it may)."""
    s = ctx.st.units[uid]
    name = ctx.name(uid)
    if not ctx.on_map(uid) or s.hex is None:
        return f"8.4: {name} is not on the map"
    if s.attacked:
        return f"7.5: {name} has attacked this phase"
    face = printed_side(ctx.sc, s)
    if face.attack <= 0 or face.range <= 0:
        return f"8.4(1): {name} has no attack or range factor"
    if s.disrupted or s.ineffective:
        return f"8.4(2): {name} is disrupted or ineffective"
    if ctx.sc.terrain_at(target).is_prohibited("artillery"):
        return f"8.2: artillery may not fire into {ctx.sc.terrain_at(target).name}"
    dist = ctx.sc.grid.distance(s.hex, target)
    if dist == 1 and not _prohibited_side(ctx, s.hex, target) and not support:
        return f"8.4: {target} is adjacent to {name} (artillery attacks it in close combat, 8.3)"
    light = ctx.light()
    limit = {"day": LOS_DAY, "twilight": 1, "night": 0}[light]
    rule = {"day": "8.6", "twilight": "14.3(3)", "night": "14.2(5)"}[light]
    if dist > limit:
        return f"{rule}: {target} is beyond the line of sight ({limit} hexes)"
    hill = ctx.sc.terrain_at(s.hex).hill
    rain = los_refusal(ctx.weather(), dist, hill=hill, fieldworks=not support and _fieldworks(ctx, uid, s.hex))
    if rain:
        return rain
    reach = face.range + (1 if hill else 0) + (0 if support else battery.bonus(ctx, uid, target))  # 8.7, 19.6
    if dist > reach:
        return f"8.7: {target} is beyond {name}'s range ({reach})"
    if not has_los(ctx, s.hex, target):
        return f"8.6: {name} has no line of sight to {target}"
    return None


def _fieldworks(ctx: StdCtx, uid: str, hex_: str) -> bool:
    """19.4 with 19.6: the battery bombards from fieldworks (the scenario's weather hook, weather.py)."""
    w = ctx.sc.weather
    fw = w.fieldworks if w is not None else None
    return (fw is not None and hex_ in fw.hexes and ctx.side_of(uid) == fw.side
            and (fw.army is None or ctx.army(uid) == fw.army)) or battery.in_fieldworks(ctx, uid, hex_)


def _prohibited_side(ctx: StdCtx, a: str, b: str) -> bool:
    return any(ctx.sc.hexside_features[f].prohibited for f in ctx.sc.hexsides.get(hexside_key(a, b), ()))


def support_problem(ctx: StdCtx, side: str, uid: str, target: str, attackers: Sequence[str]) -> str | None:
    """8.8: why this artillery may not support an attack on `target` by `attackers` (None: it may)."""
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or ctx.kind(uid) is not Kind.ARTILLERY:
        return "8.8: only your own artillery gives supporting fire"
    if uid in attackers:
        return f"8.8: {ctx.name(uid)} attacks in this combat and cannot also support it"
    problem = bombard_problem(ctx, side, uid, target, support=True)
    if problem:
        return problem
    s = ctx.st.units[uid]
    assert s.hex is not None
    for n in ctx.sc.grid.neighbors(s.hex):
        if ctx.enemy_occupied(n, side) and not _prohibited_side(ctx, s.hex, n):
            return f"8.8(1): {ctx.name(uid)} is adjacent to an enemy unit"
    if not any(ctx.sc.grid.is_adjacent(s.hex, ctx.st.units[a].hex or "") for a in attackers):
        return f"8.8(3): {ctx.name(uid)} is not adjacent to a unit attacking {target}"
    return None


# --- 8.4, 8.5 bombardment -------------------------------------------------------------------------------------------
FireGroup = tuple[list[str], str | None]  # the batteries firing together and the leader coordinating them (or None)


def _near(ctx: StdCtx, a: str, b: str) -> bool:
    ha, hb = ctx.st.units[a].hex or "", ctx.st.units[b].hex or ""
    return ha == hb or ctx.sc.grid.is_adjacent(ha, hb)


def _linked(ctx: StdCtx, leader: str | None, a: str, b: str, target: str | None = None) -> bool:
    """8.4: two members of a fire group are coordinated when stacked or adjacent; a battery is linked to the
    coordinating leader only within his command span (10.3); 19.6: batteries bombarding `target` from battery
    positions across protected hexsides are coordinated with one another; 17.4 (S63): never across armies."""
    if ctx.army(a) != ctx.army(b):
        return False
    if leader in (a, b):
        gun = b if a == leader else a
        return in_span(ctx.sc, leader, gun) and _near(ctx, leader, gun)
    return _near(ctx, a, b) or battery.coordinated(ctx, a, b, target)


def _components(ctx: StdCtx, nodes: list[str], leader: str | None, target: str | None = None) -> list[list[str]]:
    left = list(nodes)
    out: list[list[str]] = []
    while left:
        comp = [left.pop(0)]
        for u in comp:  # grows as it is read
            for v in [v for v in left if _linked(ctx, leader, u, v, target)]:
                comp.append(v)
                left.remove(v)
        out.append(comp)
    return out


def coordinated_groups(ctx: StdCtx, artillery: list[str], leader: str | None = None,
                       target: str | None = None) -> list[FireGroup]:
    """8.4: the largest groups the batteries may fire in: connected by being stacked with or adjacent to another of
    them and/or to the coordinating leader (within his span, 10.3); at twilight no coordination, each alone
    (14.3(2)).  Canonical order (each group's batteries sorted, groups by their first battery)."""
    if ctx.light() != "day":
        return [([u], None) for u in sorted(artillery)]
    nodes = sorted(artillery) + ([leader] if leader else [])
    out: list[FireGroup] = []
    for comp in _components(ctx, nodes, leader, target):
        guns = sorted(u for u in comp if u != leader)
        if guns:
            out.append((guns, leader if leader in comp and len(guns) > 1 else None))
    return sorted(out)


def group_problem(ctx: StdCtx, side: str, guns: list[str], leader: str | None,
                  target: str | None = None) -> str | None:
    """8.4, 10.1, 10.3, 14.3(2): why these batteries may not fire together in one bombardment, coordinated by
    `leader` when named (None: they may)."""
    if len(guns) == 1 and leader is None:
        return None
    if leader is not None:
        name = ctx.name(leader)
        if len(guns) < 2:
            return f"8.4: a leader coordinates two or more batteries firing together; {ctx.name(guns[0])} fires alone"
        if ctx.side_of(leader) != side or not ctx.on_map(leader):
            return f"8.4: {name} is not one of your leaders on the map"
    if ctx.light() != "day":
        return "14.3(2): coordination is not possible at twilight, so each battery bombards alone"
    if leader is not None:
        if ctx.st.units[leader].ineffective:
            return f"10.1: {ctx.name(leader)} is ineffective and has no game effects"
        if leader in assisted(ctx):
            return f"10.3: {ctx.name(leader)} has assisted a unit this turn"
    armies = {ctx.army(u) for u in guns}
    if len(armies) > 1:
        return "17.4: batteries of different armies have no means of coordinating: they never fire together"
    comps = _components(ctx, sorted(guns) + ([leader] if leader else []), leader, target)
    if len(comps) > 1:
        loose = next(c for c in comps if guns[0] not in c)
        who = ctx.names([u for u in loose if u != leader]) or ctx.name(loose[0])
        return (f"8.4: {who} is not coordinated with the rest of the fire group: batteries fire together only when "
                f"each is stacked with or adjacent to another of them or to a coordinating leader whose command "
                f"span includes it")
    return None


def _read_groups(ctx: StdCtx, side: str, arts: list[str], raw: Any, target: str) -> list[FireGroup]:
    """8.4: the command's `groups` (each a list of the declared batteries firing together, with at most one leader
    coordinating them); without it each battery fires alone."""
    if raw is None:
        return [([u], None) for u in arts]
    if not isinstance(raw, list) or not raw or not all(
            isinstance(g, list) and g and all(isinstance(u, str) for u in g) for g in raw):
        raise MalformedCommand("'groups' must be a list of lists of unit ids")
    out: list[FireGroup] = []
    named: list[str] = []
    for g in raw:
        leaders = [u for u in g if u in ctx.sc.units and ctx.kind(u) is Kind.LEADER]
        guns = [u for u in g if u not in leaders]
        if any(u not in arts for u in guns):
            raise IllegalCommand("8.4", "each battery of a fire group must be one of the declared artillery")
        if len(leaders) > 1:
            raise IllegalCommand("8.4", "one leader at most coordinates a fire group")
        if not guns:
            raise IllegalCommand("8.4", "a fire group needs at least one battery")
        named += g
        out.append((guns, leaders[0] if leaders else None))
    if len(set(named)) != len(named) or sorted(u for g, _ in out for u in g) != sorted(arts):
        raise IllegalCommand("8.4", "name each declared battery, and any coordinating leader, in exactly one fire group")
    for guns, leader in out:
        problem = group_problem(ctx, side, guns, leader, target)
        if problem:
            rule, _, text = problem.partition(": ")
            raise IllegalCommand(rule, text)
    return out


def bombard_check(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> tuple[str, list[FireGroup]]:
    """8.4: validate a bombardment exactly as `submit` does; (target, fire groups) or IllegalCommand."""
    check_fields(cmd, {"target": "hex", "artillery": "ids"}, {})
    st = ctx.st
    if st.phase != PHASE_COMBAT or st.active != side:
        raise IllegalCommand("8.4", "artillery bombards in its own combat phase")
    target = cmd["target"]
    arts = list(cmd["artillery"])
    if target not in ctx.sc.grid:
        raise IllegalCommand("8.4", f"{target} is not a hex of the map")
    if not ctx.combat_units_at(target, ctx.enemy(side)):
        raise IllegalCommand("8.4", f"no enemy combat unit is in {target}")
    if target in ctx.x.get("bombarded", []):
        raise IllegalCommand("8.4", f"all artillery bombarding {target} was declared before it was resolved")
    if not arts or len(set(arts)) != len(arts):
        raise IllegalCommand("8.4", "name each bombarding artillery unit once")
    for u in arts:
        if u not in ctx.sc.units or ctx.side_of(u) != side or ctx.kind(u) is not Kind.ARTILLERY:
            raise IllegalCommand("8.4", "only your own artillery bombards")
        problem = bombard_problem(ctx, side, u, target)
        if problem:
            rule, _, text = problem.partition(": ")
            raise IllegalCommand(rule, text)
    return target, _read_groups(ctx, side, arts, cmd.get("groups"), target)


def cmd_bombard(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    target, groups = bombard_check(ctx, side, cmd)
    st = ctx.st
    arts = [u for g, _ in groups for u in g]
    for u in arts:
        st.units[u].attacked = True
    for _, leader in groups:
        if leader:
            ctx.x.setdefault("assisted", {})[leader] = st.turn  # 10.3: coordinating is the leader's assist
    ctx.x.setdefault("bombarded", []).append(target)
    ctx.emit("bombard", f"8.4: {ctx.names(arts)} bombard {target}"
                        f"{'' if len(groups) == 1 else f' in {len(groups)} separate fires'}",
             artillery=arts, target=target, groups=[g + ([ldr] if ldr else []) for g, ldr in groups], rule="8.4")
    for g, leader in reversed(groups):
        st.tasks.extend([{"t": "combat_end"}, {"t": "bombard_done"},
                         {"t": "bombard_fire", "group": g, "coordinator": leader, "target": target, "side": side}])


def strength(ctx: StdCtx, group: list[str], unit: str) -> tuple[int, bool]:
    """8.5: the total attack factor, doubled against cavalry (9.2(4)); 9.5: 2 more per battery against a square;
    19.10 C: halved against a unit in open order; 19.6: +2 per battery firing from a battery position across a
    protected hexside; 19.7 D: a line's long-range fire uses the line marker's CF alone."""
    target = ctx.st.units[unit].hex or ""
    ln = ctx.sc.special.line
    total = sum(ln.cf if ln is not None and ctx.kind(u) is not Kind.ARTILLERY
                else printed_side(ctx.sc, ctx.st.units[u]).attack + battery.bonus(ctx, u, target) for u in group)
    if unit in ctx.x.get("open_order", ()):
        total = (total + 1) // 2  # 19.10 C: enemy artillery is halved (7.7's rounding up)
    cavalry = ctx.kind(unit) in _CAVALRY
    square = 2 * len(group) if ctx.st.units[unit].hex in ctx.st.squares else 0  # 9.5: +2 per bombarding unit
    return (total * 2 if cavalry else total) + square, cavalry


def task_fire(ctx: StdCtx, task: dict[str, Any]) -> None:
    """8.4: the attacker names the unit the group fires at (when the hex holds several)."""
    group = [u for u in task["group"] if ctx.on_map(u)]
    enemy = ctx.enemy(task["side"])
    pool = sorted(ctx.combat_units_at(task["target"], enemy))
    if not group or not pool:
        return
    options = [{"id": u, "unit": u, "label": f"{ctx.name(u)} (strength {strength(ctx, group, u)[0]})"} for u in pool]
    ctx.st.decision = {"kind": "bombard_unit", "side": task["side"], "rule": "8.4", "task": {**task, "group": group},
                       "options": options, "hexes": [task["target"]],
                       "text": f"{ctx.names(group)} bombard{'s' if len(group) == 1 else ''} {task['target']}: choose "
                               "the enemy unit there they fire at (rule 8.4)"}


def decide_fire(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    st = ctx.st
    group = task["group"]
    unit = option["unit"]
    target = task["target"]
    side = task["side"]
    s = st.units[unit]
    c: dict[str, Any] = {"kind": "bombard", "attacker": side, "defender": ctx.enemy(side), "target": target,
                         "attackers": group, "primary": group[0], "support": group, "defenders": [unit],
                         "def_primary": unit, "only": [unit], "leaders": {}, "def_leaders": {},
                         "coordinator": task.get("coordinator"),
                         "hexes": sorted({h for u in group if (h := st.units[u].hex) is not None}),
                         "tactic": "none", "def_tactic": "none", "retreated": [],
                         "before": [s.hex, s.status, s.disrupted, s.reduced]}
    st.combat = c
    total, cavalry = strength(ctx, group, unit)
    dice = ctx.roll(2, "bombardment", ["combat die", "morale die"], "8.5")
    result = bombardment_result(total, dice[0])
    c.update({"strength": total, "dice": dice, "result": str(result), "att_primary_now": group[0],
              "def_primary_now": unit})
    ctx.emit("combat", f"8.5: bombardment strength {total}{' (doubled against cavalry, 9.2(4))' if cavalry else ''}, "
                       f"die {dice[0]}: {result}", result=str(result), differential=total, rule="8.5")
    result_marks(ctx, c, result)
    if result.result == "Ex":  # R12: on Ex only the target loses a step (19.9: unless the needle gun spares it)
        if not exchange_spared(ctx, unit, c["attacker"]):
            st.tasks.append({"t": "step_loss", "unit": unit, "participants": [unit]})
        return
    passed = None
    if result.needs_check:
        passed = ctx.morale_check(unit, "8.5", "bombardment", die=dice[1])
    outs = outcomes(result, passed, s.disrupted)
    outs = [o.__class__(o.side, o.effect, False, o.fow_attacker) for o in outs]  # no advance after a bombardment
    if len(outs) == 1:
        apply_outcome(ctx, outs[0])
        return
    options = [{"id": o.effect, "effect": o.effect, "side": o.side, "advance": False, "fow_attacker": o.fow_attacker,
                "label": {"disrupt": "the unit is disrupted", "retreat": "the unit retreats",
                          "disrupt_retreat": "the unit is disrupted and retreats",
                          "step_loss": "the unit loses a step"}.get(o.effect, o.effect)} for o in outs]
    st.decision = {"kind": "result", "side": c["defender"], "rule": "8.5", "task": {"t": "result"},
                   "text": f"{ctx.name(unit)} is hit by the bombardment ({result}): choose how it takes it (rule 8.5)",
                   "options": options,
                   "hexes": [target]}


def task_done(ctx: StdCtx, task: dict[str, Any]) -> None:
    """8.4: the bombardment counts as an attack for 7.2 only when it inflicted a result on the unit."""
    c = ctx.st.combat
    if c is None or c.get("kind") != "bombard" or "before" not in c:
        return
    unit = c["only"][0]
    s = ctx.st.units[unit]
    if [s.hex, s.status, s.disrupted, s.reduced] != c["before"]:
        hit = ctx.x.setdefault("attacked_units", [])
        if unit not in hit:
            hit.append(unit)
            ctx.emit("bombard", f"8.4: the bombardment of {ctx.name(unit)} counts as an attack (7.2)", unit=unit,
                     rule="8.4")


def result_marks(ctx: StdCtx, c: dict[str, Any], result: Any) -> None:
    """What a close combat's or a bombardment's result carries besides its losses and retreats: DF's fortune of war
    owed to the defender (7.8, 12.4), the Leader check (10.3) and Ammo (7.8, 8.5)."""
    if result.df:
        owe_fow(ctx, c["defender"], "7.8", f"DF in the combat at {c['target']}")
    if result.leader:
        leader_checks(ctx, c)
    if result.ammo:
        ammo(ctx, c)


# --- 7.8 Ammo, 8.5 --------------------------------------------------------------------------------------------------
def ammo(ctx: StdCtx, c: dict[str, Any]) -> None:
    """7.8 Ammo, 8.5: one bombarding artillery unit of the combat flips to its ineffective side (the attacker's
    choice when several fired)."""
    firing = [u for u in c.get("support", []) if ctx.on_map(u) and not ctx.st.units[u].ineffective]
    if not firing:
        ctx.emit("ammo", "7.8, 8.5: Ammo: no artillery bombarded in this combat", rule="8.5")
        return
    if len(firing) == 1:
        if not ctx.make_ineffective(firing[0], "8.5") and ctx.kind(firing[0]) is not Kind.ARTILLERY:
            ctx.disrupt(firing[0], "19.7 D")  # S65: a line's long-range fire: Ammo disrupts an infantry brigade
        return
    ctx.st.tasks.append({"t": "ammo", "units": firing, "side": c["attacker"]})


def task_ammo(ctx: StdCtx, task: dict[str, Any]) -> None:
    firing = [u for u in task["units"] if ctx.on_map(u) and not ctx.st.units[u].ineffective]
    if len(firing) <= 1:
        for u in firing:
            ctx.make_ineffective(u, "8.5")
        return
    ctx.st.decision = {"kind": "ammo", "side": task["side"], "rule": "8.5", "task": task,
                       "text": f"Ammo: one of {ctx.names(firing)} runs short of ammunition and goes ineffective: "
                               "choose which (rule 8.5)",
                       "options": [{"id": u, "unit": u, "label": ctx.name(u)} for u in firing],
                       "hexes": sorted({h for u in firing if (h := ctx.st.units[u].hex)})}


def decide_ammo(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    ctx.make_ineffective(option["unit"], "8.5")


# --- the bombardments a side could make -----------------------------------------------------------------------------
def bombard_commands(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """For the random player and the page (8.4): for each hex some artillery may bombard, all of it each alone, in
    its largest coordinated groups and with a leader joining groups he coordinates, and each battery alone."""
    st = ctx.st
    if ctx.light() == "night":
        return []
    arts = [u for u in ctx.side_units_on_map(side) if ctx.kind(u) is Kind.ARTILLERY and not st.units[u].attacked]
    if not arts:
        return []
    enemy_hexes = sorted({h for u in ctx.side_units_on_map(ctx.enemy(side)) if ctx.kind(u).is_combat
                          and (h := st.units[u].hex) is not None} - set(ctx.x.get("bombarded", [])))
    done = assisted(ctx)
    leaders = [u for u in ctx.side_units_on_map(side) if ctx.kind(u) is Kind.LEADER
               and not st.units[u].ineffective and u not in done]
    out: list[dict[str, Any]] = []
    for h in enemy_hexes:
        ok = sorted(a for a in arts if bombard_problem(ctx, side, a, h) is None)
        if not ok:
            continue
        base: dict[str, Any] = {"type": "bombard", "target": h, "artillery": ok}
        out.append(base)
        plain = coordinated_groups(ctx, ok, target=h)
        if len(plain) < len(ok):
            out.append({**base, "groups": [g for g, _ in plain]})
        for ldr in leaders:
            grouped = coordinated_groups(ctx, ok, ldr, h)
            if len(grouped) < len(plain):
                out.append({**base, "groups": [g + ([c] if c else []) for g, c in grouped]})
        if len(ok) > 1:
            out.extend({"type": "bombard", "target": h, "artillery": [a]} for a in ok)
    return out
