"""Cavalry charges (9.2): the movement-phase charge move (step 1) and the combat-phase sequence (steps 2-6).

A `charge` command sends one cavalry unit that made its charge move against the hex it named; more than one may
charge the same defender, each separately (9.2).  Its combat dict (`state.combat`, kind "charge") runs as tasks:

    charge_defenders  the defender names its participating units and primary unit (5.0)
    charge_morale     step 2: the charger checks morale; failing, it is disrupted and the charge ends (R14.1)
    charge_target     step 2: the target checks unless it is infantry in square; failing, it is disrupted; infantry
                      may form square (decision "charge_square", 9.3)
    charge_resolve    steps 3-4: the charge factor, doubled against a disrupted target; every D result a Dm whose
                      rout costs the target a step, every other result (a D result the target survives included)
                      an Am(Ar) for the charger
    charge_after      step 5: the target routed and the charger still effective: it may advance up to two hexes
                      ("charge_advance") and charge again ("charge_again"), without limit; otherwise step 6
    charge_done       step 6: the charger flips to its ineffective side; the combat dict is cleared
"""

from __future__ import annotations

import itertools
from typing import Any

from ..kernel.aftercombat import advance_hexes, advance_unit, step_loss
from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.procedures import (
    TaskTable,
    advance_next,
    charge_target_problem,
    offer_advance,
    offer_defenders,
)
from ..kernel.scenario import UnitKind
from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, STATUS_MAP
from . import combat, movement
from .crt import Result, morale_passes
from .results import offer_retreat_or_disrupt, rout
from .stacking import overstacked
from .status import INFANTRY, disrupt, make_ineffective
from .triggers import lose_counterattack

_TABLE = TaskTable()
TASKS = _TABLE.tasks
DECISIONS = _TABLE.decisions
_task = _TABLE.task
_decision = _TABLE.decision
CHARGED_HEXES = "charged_hexes"  # state.extra: hexes charged this combat phase (9.2: no other attack on them)
PER_CHARGE_KEYS = ("defenders", "def_primary", "def_leaders", "result", "rout_side", "advance", "loser", "passed",
                   "def_retreated", "def_eliminated", "att_total", "def_total", "differential", "dice")


# --- step 1's terrain (T14: clear means the TEC's open terrain that is not a hill) -------------------------
def clear(ctx: Ctx, hex_: str) -> bool:
    terrain = ctx.sc.terrain_at(hex_)
    return terrain.open and not terrain.hill


def target_problem_from(ctx: Ctx, side: str, from_hex: str, target: str, rule: str) -> tuple[str, str] | None:
    """Step 1's limits on the charged hex, seen from the hex the charge is made from (T14)."""
    return charge_target_problem(ctx, side, from_hex, target, rule, lambda h: clear(ctx, h), "clear terrain")


def parse_charge_move(ctx: Ctx, side: str, uids: list[str], path: list[str], target: str) -> None:
    """9.2 step 1; the movement rules themselves are checked afterwards by movement.path_cost."""
    rule = "9.2 step 1"
    grid = ctx.sc.grid
    ctx.require(isinstance(target, str) and target in grid, rule, f"the charge target '{target}' is not a hex on the map")
    combat_units = [u for u in uids if u in ctx.sc.units and not ctx.is_leader(u)]
    ctx.require(len(combat_units) == 1, "9.2", "cavalry units charge separately: name one cavalry unit (its leader may ride with it)")
    cav = combat_units[0]
    name = ctx.name(cav)
    ctx.require(ctx.kind(cav) is UnitKind.CAVALRY, "9.2", f"{name} is not cavalry: only cavalry charges")
    s = ctx.u(cav)
    ctx.require(s.status == STATUS_MAP and s.hex is not None, rule, f"{name} must start its charge on the map")
    ctx.require(ctx.factors(cav).charge > 0, "9.2 step 3", f"{name} shows no charge factor (ineffective) and cannot charge")
    start = s.hex
    assert start is not None
    ctx.require(not overstacked(ctx, start, side), "9.2", f"{name} may not charge from an over-stacked hex ({start})")
    ctx.require(2 <= len(path) <= 3, rule, "a charging unit moves one or two hexes to its target")
    ctx.require(path[0] == start, "4.1", f"the path must start at {start}, where {name} is")
    ctx.require(clear(ctx, start), rule, f"{start} is {ctx.sc.terrain_at(start).name}: a charge starts in clear terrain only")
    for a, b in itertools.pairwise(path):
        ctx.require(isinstance(b, str) and b in grid and grid.is_adjacent(a, b), "4.1", f"{a} and {b} are not adjacent")
        ctx.require(b != start and clear(ctx, b), rule, f"{b} is not clear terrain: a charge enters clear terrain only")
        ctx.require(not ctx.sc.features_between(a, b), rule, f"a charge crosses clear hexsides only ({a}-{b})")
        ctx.require(not any(ctx.side_of(u) == side for u in ctx.units_at(b)), rule,
                    f"{b} holds friendly units: a charging unit may not enter a friendly-occupied hex")
    problem = target_problem_from(ctx, side, path[-1], target, rule)
    if problem is not None:
        raise IllegalCommand(*problem)


def apply_charge_move(ctx: Ctx, uids: list[str], target: str) -> None:
    cav = next(u for u in uids if not ctx.is_leader(u))
    s = ctx.u(cav)
    s.charging = target
    ctx.emit("charge_move", f"9.2 step 1: {ctx.name(cav)} charges: it stands at {s.hex} ready to charge {target}",
             unit=cav, hex=s.hex, target=target, rule="9.2 step 1")


# --- the combat-phase command ------------------------------------------------------------------------------
def charger_problem(ctx: Ctx, side: str, uid: str, target: str) -> tuple[str, str] | None:
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        return "9.2", f"{uid} is not one of your units"
    name = ctx.name(uid)
    s = ctx.u(uid)
    if s.status != STATUS_MAP or s.hex is None:
        return "9.2", f"{name} is not on the map"
    if s.charging != target:
        return "9.2 step 1", f"{name} did not make a charge move against {target} this turn"
    if s.attacked:
        return "9.2", f"{name} has already charged this phase"
    if ctx.factors(uid).charge <= 0:
        return "9.2 step 3", f"{name} shows no charge factor (ineffective)"
    if not ctx.sc.grid.is_adjacent(s.hex, target):
        return "9.2", f"{name} is no longer adjacent to {target}"
    return None


def parse_charge(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    target = cmd.get("target")
    ctx.require(isinstance(target, str) and target in ctx.sc.grid, "9.2", f"target '{target}' is not a hex on the map")
    assert isinstance(target, str)
    ctx.require(bool(ctx.combat_units_at(target, ctx.enemy(side))), "9.2", f"{target} holds no enemy combat units")
    st = ctx.st
    ctx.require(target not in st.attacked_hexes and target not in st.bombarded_hexes, "9.2",
                f"{target} has been attacked this phase: no attack but a cavalry charge is made against a charged unit, "
                "nor a charge against an attacked one")
    chargers = cmd.get("chargers")
    ctx.require(isinstance(chargers, list) and len(chargers) == 1 and isinstance(chargers[0], str), "9.2",
                "charges are resolved separately: name one charging unit in 'chargers'")
    assert isinstance(chargers, list)
    cav = chargers[0]
    problem = charger_problem(ctx, side, cav, target)
    if problem is not None:
        raise IllegalCommand(*problem)
    leaders = cmd.get("leaders") or []
    ctx.require(isinstance(leaders, list) and len(leaders) <= 1 and all(isinstance(x, str) for x in leaders), "10.0",
                "'leaders' names at most the one leader riding with the charging unit")
    for ldr in leaders:
        ctx.require(ldr in ctx.sc.units and ctx.is_leader(ldr) and ctx.side_of(ldr) == side, "10.0",
                    f"{ldr} is not one of your leaders")
        ctx.require(ctx.u(ldr).status == STATUS_MAP and not ctx.u(ldr).ineffective and ctx.u(ldr).hex == ctx.u(cav).hex
                    and ctx.helps(ldr, cav), "10.0", f"{ctx.name(ldr)} is not an effective leader of its formation with {ctx.name(cav)}")
    return {"side": side, "target": target, "charger": cav, "leader": leaders[0] if leaders else None}


def start_charge(ctx: Ctx, spec: dict[str, Any]) -> None:
    side = spec["side"]
    c: dict[str, Any] = {"kind": "charge", "attacker": side, "defender": ctx.enemy(side), "target": spec["target"],
                         "attackers": [spec["charger"]], "primary": spec["charger"], "support": [], "leader_to": {},
                         "morale_from": {}, "rider": spec["leader"], "charge_no": 1, "end_task": "charge_after"}
    ctx.u(spec["charger"]).attacked = True
    ctx.emit("combat_declared", f"9.2: {ctx.name(spec['charger'])} charges {spec['target']}", attackers=[spec["charger"]],
             target=spec["target"], kind="charge", support=[], rule="9.2")
    ctx.st.combat = c
    begin(ctx, c)


def begin(ctx: Ctx, c: dict[str, Any]) -> None:
    """A charge against c['target'] from step 2: the hex is charged (9.2, 7.2), the defenders choose afresh."""
    for k in PER_CHARGE_KEYS:
        c.pop(k, None)
    c["leader_to"], c["morale_from"] = {}, {}
    charged = ctx.st.extra.setdefault(CHARGED_HEXES, [])
    if c["target"] not in charged:
        charged.append(c["target"])
    lose_counterattack(ctx, c["target"])
    rider = c.get("rider")
    cav = c["primary"]
    if rider and ctx.u(rider).status == STATUS_MAP and not ctx.u(rider).ineffective and ctx.u(rider).hex == ctx.u(cav).hex:
        c["leader_to"][rider] = cav
        c["morale_from"][rider] = cav
    ctx.st.tasks.append({"t": "charge_morale"})
    ctx.st.tasks.append({"t": "charge_defenders"})


def _combat(ctx: Ctx) -> dict[str, Any]:
    c = ctx.st.combat
    assert c is not None and c.get("kind") == "charge"
    return c


def _standing(ctx: Ctx, c: dict[str, Any]) -> bool:
    s = ctx.u(c["primary"])
    return (s.status == STATUS_MAP and bool(c.get("defenders"))
            and bool(ctx.combat_units_at(c["target"], c["defender"])))


@_task("charge_defenders")
def _task_defenders(ctx: Ctx, task: dict[str, Any]) -> None:
    c = _combat(ctx)
    options = combat.defender_options(ctx, c)
    combat.defender_option_previews(ctx, c, options)
    offer_defenders(ctx, c, task, options, "9.2 step 2",
                    f"{c['target']} is charged by {ctx.name(c['primary'])}: choose the defending units and the primary unit")


def _check(ctx: Ctx, c: dict[str, Any], uid: str, rule: str, why: str) -> bool:
    rating = combat.morale_rating(ctx, c, uid)
    (die,) = ctx.roll(1, f"{ctx.name(uid)} {why}", ["morale die"], rule, unit=uid)
    passed = morale_passes(die, rating)
    ctx.emit("morale", f"{rule}: {ctx.name(uid)} {why}: die {die} against {rating}: {'passes' if passed else 'fails'}",
             unit=uid, die=die, rating=rating, passed=passed, rule=rule)
    return passed


@_task("charge_morale")
def _task_morale(ctx: Ctx, task: dict[str, Any]) -> None:
    """Step 2: the charging cavalry checks morale; failing, it is disrupted and makes no charge (R14.1)."""
    c = _combat(ctx)
    if not _standing(ctx, c):
        ctx.st.tasks.append({"t": "charge_done"})
        return
    if _check(ctx, c, c["primary"], "9.2 step 2", "checks morale to charge"):
        ctx.st.tasks.append({"t": "charge_target"})
        return
    disrupt(ctx, c["primary"], "9.2 step 2")
    ctx.emit("charge_failed", f"9.2 step 2: {ctx.name(c['primary'])} fails its check: no charge against {c['target']}",
             unit=c["primary"], rule="9.2 step 2")
    ctx.st.tasks.append({"t": "charge_done"})


@_task("charge_target")
def _task_target(ctx: Ctx, task: dict[str, Any]) -> None:
    """Step 2: the target checks unless it is infantry in square; failing, it disrupts; infantry may form square."""
    c = _combat(ctx)
    st = ctx.st
    st.tasks.append({"t": "charge_resolve"})
    dp = c["def_primary"]
    target = c["target"]
    infantry = ctx.kind(dp) in INFANTRY
    if target in st.squares and infantry:
        ctx.emit("no_check", f"9.2 step 2: {ctx.name(dp)} is in square and does not check morale", unit=dp,
                 rule="9.2 step 2")
        return
    if not _check(ctx, c, dp, "9.2 step 2", "faces the charge"):
        disrupt(ctx, dp, "9.2 step 2")
    if infantry and target not in st.squares:  # 9.3: a disrupted unit may form square too
        st.decision = {
            "kind": "charge_square", "side": c["defender"], "rule": "9.3",
            "text": f"{ctx.name(dp)} may form square at {target} (+2 to its combat and morale factors against cavalry)",
            "task": task, "hexes": [target], "units": [dp],
            "options": [{"id": "square", "label": f"{ctx.name(dp)} forms square at {target}", "square": True},
                        {"id": "no_square", "label": "no square", "square": False}],
        }


@_decision("charge_square")
def _decide_square(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = _combat(ctx)
    dp = c["def_primary"]
    if not option.get("square"):
        ctx.emit("no_square", f"9.3: {ctx.name(dp)} does not form square", unit=dp, rule="9.3")
        return
    ctx.st.squares[c["target"]] = dp
    ctx.emit("square_formed", f"9.3: {ctx.name(dp)} forms square at {c['target']} against the charge",
             hex=c["target"], unit=dp, rule="9.3")
    if c.get("defenders") != [dp]:  # 9.3: only the infantry forming the square takes part
        side = c["defender"]
        c["defenders"] = [dp]
        c["leader_to"] = {l: r for l, r in c["leader_to"].items() if ctx.side_of(l) != side}
        c["morale_from"] = {l: r for l, r in c["morale_from"].items() if ctx.side_of(l) != side}
        combat.assign_leaders(ctx, c, side, list(c.get("def_leaders", [])), [dp], dp)


@_task("charge_resolve")
def _task_resolve(ctx: Ctx, task: dict[str, Any]) -> None:
    """Steps 3-4."""
    c = _combat(ctx)
    if not _standing(ctx, c):
        ctx.st.tasks.append({"t": "charge_done"})
        return
    res, morale_die = combat.roll_result(ctx, c, "9.2 step 4")
    combat.finish(ctx, c, res)
    if res.side == "D":
        dp = c["def_primary"]
        rating = combat.morale_rating(ctx, c, dp)
        passed = morale_passes(morale_die, rating)
        ctx.emit("morale", f"9.2 step 4: {res.text} reads as Dm: {ctx.name(dp)} checks morale: die {morale_die} against "
                 f"{rating}: {'passes' if passed else 'fails'}", unit=dp, die=morale_die, rating=rating, passed=passed,
                 rule="9.2 step 4")
        if not passed:
            step_loss(ctx, c, dp, "9.2 step 4")
            rout(ctx, c, c["defender"], "9.2 step 4")
            return
        (morale_die,) = ctx.roll(1, f"Am check for {ctx.name(c['primary'])}", ["morale die"], "9.2 step 4",
                                 unit=c["primary"])  # T15: the Am check is a new roll
    am(ctx, c, res, morale_die)


def am(ctx: Ctx, c: dict[str, Any], res: Result, morale_die: int) -> None:
    """9.2 step 4: Am(Ar), resolved as a Dm: the charger checks; failing it routs, passing it retreats or is
    disrupted (Ar)."""
    cav = c["primary"]
    rating = combat.morale_rating(ctx, c, cav)
    passed = morale_passes(morale_die, rating)
    c["loser"] = c["attacker"]
    ctx.emit("morale", f"9.2 step 4: Am(Ar): {ctx.name(cav)} checks morale: die {morale_die} against {rating}: "
             f"{'passes' if passed else 'fails'}", unit=cav, die=morale_die, rating=rating, passed=passed,
             rule="9.2 step 4", result=res.text)
    if passed:
        offer_retreat_or_disrupt(ctx, c, c["attacker"])
    else:
        rout(ctx, c, c["attacker"], "9.2 step 4")


@_task("charge_after")
def _task_after(ctx: Ctx, task: dict[str, Any]) -> None:
    """Step 5: the target routed and the cavalry still effective: advance zero to two hexes, then charge again."""
    c = _combat(ctx)
    cav = c["primary"]
    s = ctx.u(cav)
    if c.get("rout_side") == c["defender"] and s.status == STATUS_MAP and not s.ineffective:
        ctx.emit("charge_won", f"9.2 step 5: the defenders of {c['target']} rout: {ctx.name(cav)} may advance up to two "
                 "hexes and charge again", unit=cav, rule="9.2 step 5")
        ctx.st.tasks.append({"t": "charge_follow_up", "unit": cav})
        ctx.st.tasks.append({"t": "charge_advance", "unit": cav, "step": 1, "target": c["target"]})
        return
    ctx.st.tasks.append({"t": "charge_done"})


@_task("charge_advance")
def _task_advance(ctx: Ctx, task: dict[str, Any]) -> None:
    u = task["unit"]
    here = ctx.u(u).hex
    if ctx.u(u).status != STATUS_MAP or here is None or ctx.d(u).tec_class in ctx.sc.terrain_at(here).no_advance_from:
        return
    hexes = advance_hexes(ctx, task)
    if hexes:
        offer_advance(ctx, task, hexes, "charge_advance", "9.2 step 5",
                      f"{ctx.name(u)} may advance" + (" a second hex" if task["step"] == 2 else " up to two hexes"))


@_decision("charge_advance")
def _decide_advance(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    advance_next(ctx, task, advance_unit(ctx, task["unit"], option.get("hex"), "9.2 step 5"))


def follow_up_targets(ctx: Ctx, uid: str) -> list[str]:
    """9.2 step 5: a new charge at an adjacent enemy hex within step 1's terrain limits (T14), attacked or not."""
    here = ctx.u(uid).hex
    if here is None or not clear(ctx, here):
        return []
    side = ctx.side_of(uid)
    return sorted(n for n in ctx.sc.grid.neighbors(here) if target_problem_from(ctx, side, here, n, "9.2 step 5") is None)


@_task("charge_follow_up")
def _task_follow_up(ctx: Ctx, task: dict[str, Any]) -> None:
    u = task["unit"]
    s = ctx.u(u)
    targets = follow_up_targets(ctx, u) if s.status == STATUS_MAP and not s.ineffective else []
    if not targets:
        ctx.st.tasks.append({"t": "charge_done"})
        return
    options: list[dict[str, Any]] = [{"id": t, "label": f"{ctx.name(u)} charges {t}", "target": t} for t in targets]
    options.append({"id": "none", "label": f"{ctx.name(u)} charges no more", "target": None})
    ctx.st.decision = {
        "kind": "charge_again", "side": ctx.side_of(u), "rule": "9.2 step 5",
        "text": f"{ctx.name(u)} may charge again (clear terrain, no hexside terrain)", "task": task,
        "options": options, "hexes": targets, "units": [u],
    }


@_decision("charge_again")
def _decide_again(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = _combat(ctx)
    target = option.get("target")
    if target is None:
        ctx.st.tasks.append({"t": "charge_done"})
        return
    c["target"] = target
    c["charge_no"] += 1
    ctx.emit("combat_declared", f"9.2 step 5: {ctx.name(task['unit'])} charges again, at {target}",
             attackers=[task["unit"]], target=target, kind="charge", support=[], rule="9.2 step 5")
    begin(ctx, c)


@_task("charge_done")
def _task_done(ctx: Ctx, task: dict[str, Any]) -> None:
    """Step 6: the charging cavalry is ineffective at the end of its charge (T16: a failed step-2 check too)."""
    c = ctx.st.combat
    if c is not None and c.get("kind") == "charge":
        cav = c["primary"]
        if ctx.u(cav).status == STATUS_MAP:
            make_ineffective(ctx, cav, "9.2 step 6", " at the end of its charge")
        ctx.u(cav).charging = None
    ctx.st.combat = None


# --- phase bookkeeping ---------------------------------------------------------------------------------------
def unresolved(ctx: Ctx, side: str) -> list[str]:
    """Chargers of `side` that made their charge move and could charge now: the combat phase may not end (9.2)."""
    return [u for u in ctx.sc.side_units[side]
            if (t := ctx.u(u).charging) is not None and not ctx.u(u).attacked
            and ctx.combat_units_at(t, ctx.enemy(side)) and t not in ctx.st.attacked_hexes
            and t not in ctx.st.bombarded_hexes and charger_problem(ctx, side, u, t) is None]


def end_of_combat_phase(ctx: Ctx) -> None:
    """A charge move whose target is gone or was attacked otherwise makes no charge (9.2); the marks are cleared."""
    for u in ctx.st.units.values():
        u.charging = None
    ctx.st.extra.pop(CHARGED_HEXES, None)


# --- legal commands (random player, page hints) ----------------------------------------------------------
def legal_charge_moves(ctx: Ctx, side: str) -> list[dict[str, Any]]:
    st = ctx.st
    if st.phase != PHASE_MOVEMENT or st.active != side or st.decision is not None:
        return []
    grid = ctx.sc.grid
    enemy = ctx.enemy(side)
    out: list[dict[str, Any]] = []
    for uid in ctx.sc.side_units[side]:
        s = ctx.u(uid)
        if (ctx.kind(uid) is not UnitKind.CAVALRY or s.status != STATUS_MAP or s.hex is None or s.moved
                or s.charging is not None or ctx.factors(uid).charge <= 0 or not clear(ctx, s.hex)
                or movement.needs_roll(ctx, [uid])):
            continue
        start = s.hex
        try:
            group = movement.build_group(ctx, side, [uid])
        except IllegalCommand:
            continue
        paths = [[start, n1] for n1 in grid.neighbors(start)]
        paths += [[start, n1, n2] for n1 in grid.neighbors(start) for n2 in grid.neighbors(n1) if n2 != start]
        seen: set[tuple[str, str]] = set()
        for path in paths:
            for t in grid.neighbors(path[-1]):
                if (path[-1], t) in seen or not ctx.combat_units_at(t, enemy):
                    continue
                try:
                    parse_charge_move(ctx, side, [uid], path, t)
                    movement.path_cost(ctx, group, path)
                except IllegalCommand:
                    continue
                seen.add((path[-1], t))
                out.append({"type": "move", "units": [uid], "path": list(path), "charge": t})
    return out


def legal_charges(ctx: Ctx, side: str) -> list[dict[str, Any]]:
    st = ctx.st
    if st.phase != PHASE_COMBAT or st.active != side or st.decision is not None or st.ca_stage:
        return []
    out = []
    for u in unresolved(ctx, side):
        target = ctx.u(u).charging
        out.append({"type": "charge", "target": target, "chargers": [u]})
        rider = next((l for l in ctx.units_at(ctx.u(u).hex or "") if ctx.is_leader(l) and ctx.side_of(l) == side
                      and not ctx.u(l).ineffective and ctx.helps(l, u)), None)
        if rider is not None:
            out.append({"type": "charge", "target": target, "chargers": [u], "leaders": [rider]})
    return out


def charge_preview(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """The odds of a legal charge (9.2 step 4: D results are Dm, the rest Am), its rider included."""
    spec = parse_charge(ctx, side, cmd)
    cav = spec["charger"]
    c: dict[str, Any] = {"kind": "charge", "attacker": side, "defender": ctx.enemy(side), "target": spec["target"],
                         "attackers": [cav], "primary": cav, "support": [], "leader_to": {}, "morale_from": {}}
    if spec["leader"]:
        c["leader_to"][spec["leader"]] = cav
        c["morale_from"][spec["leader"]] = cav
    p = combat.preview(ctx, c)
    p["results"] = ["Dm" if r.startswith("D") else "Am(Ar)" for r in p["results"]]
    p["odds"] = {r: round(p["results"].count(r) / 6, 4) for r in dict.fromkeys(p["results"])}
    return {"target": spec["target"], "chargers": [cav], "charger_morale": combat.morale_rating(ctx, c, cav),
            "rule": "9.2", **p}

