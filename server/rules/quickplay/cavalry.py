"""Cavalry charges (9.2, R9): the movement-phase charge move (step 1) and the combat-phase sequence (steps 2-6).

A charge command runs as tasks over one combat dict (`state.combat`, kind "charge") that lives until
every named charger has had its turn:

    charge_round      take the next declared charger for the target (or finish)
    charge_defenders  step 2: the defender names its primary, supporting unit and leader
    charge_morale     step 2: the charger's morale check; a failure makes it ineffective and retreats it 3,
                      and the next charger checks (charge_next_morale) until one passes
    charge_step3      step 3: the defending primary checks morale (not in square, not disrupted);
                      passing infantry may form square (decision "charge_square"), failing it disrupts
    charge_resolve    steps 4-5: combat.resolve (charge factor, doubled against a disrupted primary,
                      every D result a Dm, every other result an Am), then the usual retreat tasks
    charge_after      step 5/6: defenders still there -> next charger; defenders routed -> the charger
                      may advance 0-2 hexes (decision "charge_advance") and charge a new hex once
                      (decision "charge_again"); otherwise the charger flips ineffective in its final hex
    charge_done       the combat dict is cleared

`combat.resolve` queues `c["end_task"]` ("charge_after") in place of "combat_end", so the sequence
continues after the retreats and leader checks of each charge.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.procedures import TaskTable, charge_target_problem, offer_advance, offer_defenders
from ..kernel.scenario import UnitKind
from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, STATUS_MAP
from . import combat, movement
from .counterattack import lose_counterattack
from .retreat import advance_hexes, advance_unit, queue_group_retreats

_TABLE = TaskTable()
TASKS = _TABLE.tasks
DECISIONS = _TABLE.decisions
_task = _TABLE.task
_decision = _TABLE.decision
SQUARE_FORMERS = (UnitKind.INFANTRY, UnitKind.BATTALION)  # 9.3: infantry units form squares
PER_COMBAT_KEYS = ("defenders", "def_primary", "def_leaders", "result", "rout", "advance", "loser", "passed",
                   "def_retreated", "def_eliminated", "att_total", "def_total", "differential", "column", "dice")


# --- terrain and stacking tests shared by step 1 and the follow-up charge of step 6 ----------------------
def _open(ctx: Ctx, hex_: str) -> bool:
    """Clear or clear hill (the TEC's `open` terrain)."""
    return ctx.sc.terrain_at(hex_).open


def _overstacked(ctx: Ctx, hex_: str, side: str) -> bool:
    return not ctx.rs.stacking_ok([ctx.kind(u) for u in ctx.units_at(hex_) if ctx.side_of(u) == side])


def _target_problem(ctx: Ctx, side: str, from_hex: str, target: str, rule: str) -> tuple[str, str] | None:
    """Step 1's limits on the charged hex, seen from the hex the charge is made from."""
    return charge_target_problem(ctx, side, from_hex, target, rule, lambda h: _open(ctx, h), "clear or clear hill")


# --- step 1: the charge move (movement phase) --------------------------------------------------------------
def parse_charge_move(ctx: Ctx, side: str, uids: list[str], path: list[str], target: str) -> None:
    """9.2 step 1 (R9); the normal movement rules are checked afterwards by movement.path_cost."""
    rule = "9.2 step 1"
    grid = ctx.sc.grid
    ctx.require(isinstance(target, str) and target in grid, rule, f"the charge target '{target}' is not a hex on the map")
    combat_units = [u for u in uids if u in ctx.sc.units and not ctx.is_leader(u)]
    ctx.require(len(combat_units) == 1, "9.2",
                "each charging unit moves separately: name exactly one cavalry unit (leaders may ride with it)")
    cav = combat_units[0]
    name = ctx.name(cav)
    ctx.require(ctx.kind(cav) is UnitKind.CAVALRY, "9.2", f"{name} is not cavalry: only cavalry charges")
    s = ctx.u(cav)
    ctx.require(s.status == STATUS_MAP and s.hex is not None, rule, f"{name} must start its charge on the map")
    ctx.require(not s.ineffective, "9.2", f"{name} is ineffective and cannot charge")
    start = s.hex
    assert start is not None
    ctx.require(not _overstacked(ctx, start, side), "9.2", f"{name} may not charge from an over-stacked hex ({start})")
    ctx.require(2 <= len(path) <= 3, rule, "a charging unit moves one or two hexes")
    for h in path:
        ctx.require(isinstance(h, str) and h in grid, "4.1", f"hex '{h}' is not on the map")
    ctx.require(path[0] == start, "4.1", f"the path must start at {start}, where {name} is")
    ctx.require(_open(ctx, start), rule, f"{start} is {ctx.sc.terrain_at(start).name}: a charge starts only in clear or clear hill")
    for a, b in itertools.pairwise(path):
        ctx.require(grid.is_adjacent(a, b), "4.1", f"{a} and {b} are not adjacent: a path may not skip hexes")
        ctx.require(b != start, rule, "a charge moves away from its start hex")
        ctx.require(_open(ctx, b), rule, f"{b} is {ctx.sc.terrain_at(b).name}: a charge enters only clear or clear hill")
        ctx.require(not ctx.sc.features_between(a, b), rule, f"a charge may not cross hexside terrain ({a}-{b})")
        ctx.require(not any(ctx.side_of(u) == side for u in ctx.units_at(b)), rule,
                    f"{b} holds friendly units: a charging unit may not enter a friendly-occupied hex")
    if len(path) == 3:
        ctx.require(not ctx.in_ezoc(path[1], side), rule,
                    f"{path[1]} is in an enemy zone of control: a two-hex charge may not pass through one")
    problem = _target_problem(ctx, side, path[-1], target, rule)
    if problem is not None:
        raise IllegalCommand(*problem)


def apply_charge_move(ctx: Ctx, uids: list[str], target: str) -> None:
    cav = next(u for u in uids if not ctx.is_leader(u))
    s = ctx.u(cav)
    s.charging = target
    ctx.emit("charge_move", f"9.2 step 1: {ctx.name(cav)} charges: it stands at {s.hex} ready to charge {target}",
             unit=cav, hex=s.hex, target=target, rule="9.2 step 1")


# --- the combat-phase command --------------------------------------------------------------------------------
def _charger_problem(ctx: Ctx, side: str, uid: str, target: str | None) -> tuple[str, str] | None:
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        return "9.2", f"{uid} is not one of your units"
    name = ctx.name(uid)
    s = ctx.u(uid)
    if ctx.kind(uid) is not UnitKind.CAVALRY:
        return "9.2", f"{name} is not cavalry"
    if s.status != STATUS_MAP or s.hex is None:
        return "9.2", f"{name} is not on the map"
    if target is None or s.charging != target:
        return "9.2 step 1", f"{name} did not make a charge move against {target} this turn"
    if s.attacked:
        return "9.2", f"{name} has already charged this phase"
    if s.ineffective:
        return "9.2", f"{name} is ineffective and cannot charge"
    if not ctx.sc.grid.is_adjacent(s.hex, target):
        return "9.2", f"{name} is no longer adjacent to {target}"
    return None


def parse_charge(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    target = cmd.get("target")
    ctx.require(isinstance(target, str) and target in ctx.sc.grid, "9.2", f"target '{target}' is not a hex on the map")
    assert isinstance(target, str)
    ctx.require(bool(ctx.combat_units_at(target, ctx.enemy(side))), "9.2",
                f"{target} holds no enemy combat units: cavalry declared against it makes no charge this phase (R9)")
    chargers = cmd.get("chargers")
    if chargers is None:
        chargers = [u for u in ctx.sc.side_units[side] if ctx.u(u).charging == target
                    and _charger_problem(ctx, side, u, target) is None]
        chargers.sort()
    ctx.require(isinstance(chargers, list) and len(chargers) > 0 and all(isinstance(u, str) for u in chargers),
                "9.2", f"no cavalry of yours is ready to charge {target}")
    ctx.require(len(set(chargers)) == len(chargers), "9.2", "a charging unit is named twice")
    for u in chargers:
        problem = _charger_problem(ctx, side, u, target)
        if problem is not None:
            raise IllegalCommand(*problem)
    leaders = cmd.get("leaders", [])
    ctx.require(isinstance(leaders, list) and all(isinstance(x, str) for x in leaders), "10.0",
                "'leaders' must be a list of leader ids")
    leader_of: dict[str, str] = {}
    for ldr in leaders:
        ctx.require(ldr in ctx.sc.units and ctx.is_leader(ldr) and ctx.side_of(ldr) == side, "10.0",
                    f"{ldr} is not one of your leaders")
        ls = ctx.u(ldr)
        ctx.require(ls.status == STATUS_MAP and not ls.ineffective, "10.0", f"{ctx.name(ldr)} cannot lead now")
        rider = next((u for u in chargers if ctx.u(u).hex == ls.hex and ctx.helps(ldr, u)), None)
        ctx.require(rider is not None, "10.0", f"{ctx.name(ldr)} is not with a charging unit of its formation")
        assert rider is not None
        ctx.require(rider not in leader_of, "7.1(1)", "one leader per charging unit")
        leader_of[rider] = ldr
    return {"side": side, "target": target, "chargers": list(chargers), "leaders": leader_of}


def start_charge(ctx: Ctx, spec: dict[str, Any]) -> None:
    st = ctx.st
    side = spec["side"]
    target = spec["target"]
    c: dict[str, Any] = {
        "kind": "charge", "attacker": side, "defender": ctx.enemy(side), "target": target,
        "attackers": [], "primary": None, "support": [], "leader_to": {}, "morale_from": {},
        "queue": list(spec["chargers"]), "charge_leaders": dict(spec["leaders"]),
        "charge_no": 1, "any_passed": False, "end_task": "charge_after", "log": [],
    }
    lose_counterattack(ctx, target)  # R8: charged units lose their counterattack
    st.combat = c
    ctx.emit("combat_declared", f"9.2: {ctx.names(spec['chargers'])} charge{'s' if len(spec['chargers']) == 1 else ''} {target}",
             attackers=list(spec["chargers"]), target=target, kind="charge", support=[], rule="9.2")
    st.tasks.append({"t": "charge_round"})


# --- the sequence --------------------------------------------------------------------------------------------
def _combat(ctx: Ctx) -> dict[str, Any]:
    c = ctx.st.combat
    assert c is not None and c.get("kind") == "charge"
    return c


def _set_charger(ctx: Ctx, c: dict[str, Any], charger: str) -> None:
    """The charger now making step 2; its leader (if named and still with it) adds CF and morale (R9)."""
    c["attackers"] = [charger]
    c["primary"] = charger
    own = c["attacker"]
    c["leader_to"] = {l: r for l, r in c.get("leader_to", {}).items() if ctx.side_of(l) != own}
    c["morale_from"] = {l: r for l, r in c.get("morale_from", {}).items() if ctx.side_of(l) != own}
    ldr = c.get("charge_leaders", {}).get(charger)
    if ldr is not None:
        ls = ctx.u(ldr)
        if ls.status == STATUS_MAP and not ls.ineffective and ls.hex == ctx.u(charger).hex:
            c["leader_to"][ldr] = charger
            c["morale_from"][ldr] = charger
    ctx.u(charger).attacked = True


def _begin_round(ctx: Ctx, c: dict[str, Any], charger: str) -> None:
    """A new charge against c['target'] from step 2: defenders chosen afresh, then the charger's morale."""
    for k in PER_COMBAT_KEYS:
        c.pop(k, None)
    c["leader_to"] = {}
    c["morale_from"] = {}
    _set_charger(ctx, c, charger)
    ctx.st.tasks.append({"t": "charge_morale"})
    ctx.st.tasks.append({"t": "charge_defenders"})


def _pop_next(ctx: Ctx, c: dict[str, Any]) -> str | None:
    queue: list[str] = c["queue"]
    while queue:
        u = queue.pop(0)
        problem = _charger_problem(ctx, c["attacker"], u, c["target"])
        if problem is None:
            return u
        ctx.emit("no_charge", f"9.2: {ctx.name(u)} does not charge: {problem[1]}", unit=u, rule=problem[0])
    return None


def _moot_queue(ctx: Ctx, c: dict[str, Any]) -> None:
    """R9: cavalry declared against a hex whose defenders are gone makes no charge this phase."""
    for u in c["queue"]:
        if ctx.u(u).status == STATUS_MAP:
            ctx.emit("no_charge", f"9.2: the defenders of {c['target']} are gone: {ctx.name(u)} makes no charge this phase",
                     unit=u, target=c["target"], rule="9.2")
    c["queue"] = []


def _flip(ctx: Ctx, uid: str) -> None:
    """9.2 step 6: charges and advances done, the charging unit flips to its ineffective side in its final hex."""
    s = ctx.u(uid)
    if s.status != STATUS_MAP or s.ineffective:
        return
    s.ineffective = True
    ctx.dirty()
    ctx.emit("ineffective", f"9.2 step 6: {ctx.name(uid)} has charged and flips to its ineffective side at {s.hex}",
             unit=uid, hex=s.hex, rule="9.2 step 6")


@_task("charge_round")
def _task_round(ctx: Ctx, task: dict[str, Any]) -> None:
    c = _combat(ctx)
    if not ctx.combat_units_at(c["target"], c["defender"]):
        _moot_queue(ctx, c)
        ctx.st.tasks.append({"t": "charge_done"})
        return
    charger = _pop_next(ctx, c)
    if charger is None:
        ctx.st.tasks.append({"t": "charge_done"})
        return
    _begin_round(ctx, c, charger)


@_task("charge_defenders")
def _task_defenders(ctx: Ctx, task: dict[str, Any]) -> None:
    c = _combat(ctx)
    options = combat.defender_options(ctx, c)
    combat.defender_option_previews(ctx, c, options)
    offer_defenders(ctx, c, task, options, "9.2 step 2", f"{ctx.name(c['primary'])} charges your units at "
                    f"{c['target']}: choose the units that defend, the primary unit and any leader (rule 9.2 step 2)")


@_task("charge_morale")
def _task_morale(ctx: Ctx, task: dict[str, Any]) -> None:
    """9.2 step 2: the charger checks morale; failing, it goes ineffective (R9) and retreats 3 (9.1(4))."""
    c = _combat(ctx)
    st = ctx.st
    charger = c["primary"]
    s = ctx.u(charger)
    if "defenders" not in c or not ctx.combat_units_at(c["target"], c["defender"]):
        st.tasks.append({"t": "charge_after"})
        return
    if s.status != STATUS_MAP or s.ineffective:
        st.tasks.append({"t": "charge_next_morale"})
        return
    rating = combat.morale_rating(ctx, c, charger)
    (die,) = ctx.roll(1, f"charge morale check for {ctx.name(charger)}", ["morale die"], "9.2 step 2", unit=charger)
    passed = ctx.rs.morale_passes(die, rating)
    ctx.emit("morale", f"9.2 step 2: {ctx.name(charger)} checks morale to charge {c['target']}: die {die} against {rating}: "
             f"{'passes' if passed else 'fails'}", unit=charger, die=die, rating=rating, passed=passed, rule="9.2 step 2")
    if passed:
        c["any_passed"] = True
        st.tasks.append({"t": "charge_step3"})
        return
    ctx.disrupt_or_ineffective(charger, "9.2 step 2")
    ctx.emit("charge_failed", f"9.2 step 2: {ctx.name(charger)} refuses the charge and retreats 3 hexes (9.1(4))",
             unit=charger, rule="9.2 step 2")
    st.tasks.append({"t": "charge_next_morale"})
    hex_ = s.hex
    assert hex_ is not None
    groups = {hex_: [u for u in ctx.units_at(hex_) if ctx.side_of(u) == c["attacker"]]}
    queue_group_retreats(ctx, c, c["attacker"], groups, only={charger}, minimum=3, rout=False, rule="9.2 step 2")


@_task("charge_next_morale")
def _task_next_morale(ctx: Ctx, task: dict[str, Any]) -> None:
    """9.2 step 2: the next charger against the same defenders checks, until one passes."""
    c = _combat(ctx)
    nxt = _pop_next(ctx, c) if ctx.combat_units_at(c["target"], c["defender"]) else None
    if nxt is not None:
        _set_charger(ctx, c, nxt)
        ctx.st.tasks.append({"t": "charge_morale"})
        return
    if not c.get("any_passed"):
        ctx.emit("charge_refused", f"9.2 step 2: every charging unit failed its morale check: no charge against {c['target']}, "
                 "and its defenders may not counterattack", target=c["target"], rule="9.2 step 2")
        lose_counterattack(ctx, c["target"])
    _moot_queue(ctx, c)
    ctx.st.tasks.append({"t": "charge_done"})


@_task("charge_step3")
def _task_step3(ctx: Ctx, task: dict[str, Any]) -> None:
    """9.2 step 3: the defending primary checks morale unless in square or disrupted."""
    c = _combat(ctx)
    st = ctx.st
    st.tasks.append({"t": "charge_resolve"})
    dp = c.get("def_primary")
    target = c["target"]
    if dp is None or ctx.u(dp).status != STATUS_MAP or ctx.u(dp).hex != target:
        return
    if target in st.squares:
        ctx.emit("no_check", f"9.2 step 3: {ctx.name(dp)} is in square and does not check morale against the charge",
                 unit=dp, rule="9.2 step 3")
        return
    if ctx.already_impaired(dp):
        ctx.emit("no_check", f"9.2 step 3: {ctx.name(dp)} is already disrupted and does not check morale",
                 unit=dp, rule="9.2 step 3")
        return
    rating = combat.morale_rating(ctx, c, dp)
    (die,) = ctx.roll(1, f"{ctx.name(dp)} faces the charge", ["morale die"], "9.2 step 3", unit=dp)
    passed = ctx.rs.morale_passes(die, rating)
    ctx.emit("morale", f"9.2 step 3: {ctx.name(dp)} checks morale against the charge: die {die} against {rating}: "
             f"{'passes' if passed else 'fails'}", unit=dp, die=die, rating=rating, passed=passed, rule="9.2 step 3")
    if not passed:
        ctx.disrupt_or_ineffective(dp, "9.2 step 3")
        ctx.emit("stands", f"9.2 step 3: {ctx.name(dp)} is shaken but stands in {target}", unit=dp, rule="9.2 step 3")
        return
    if ctx.kind(dp) in SQUARE_FORMERS:
        st.decision = {
            "kind": "charge_square", "side": c["defender"], "rule": "9.2 step 3",
            "text": f"{ctx.name(dp)} holds its nerve against the charge: form square at {target}? A square adds 2 to "
                    "its CF and MR against cavalry (rules 9.2 step 3, 9.3)",
            "task": task, "hexes": [target], "units": [dp],
            "options": [
                {"id": "square", "label": f"{ctx.name(dp)} forms square at {target}", "square": True},
                {"id": "no_square", "label": "stay in line", "square": False},
            ],
        }


@_decision("charge_square")
def _decide_square(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = _combat(ctx)
    target = c["target"]
    dp = c["def_primary"]
    if not option.get("square"):
        ctx.emit("no_square", f"9.2 step 3: {ctx.name(dp)} does not form square", unit=dp, rule="9.2 step 3")
        return
    ctx.st.squares[target] = dp
    ctx.emit("square_formed", f"9.3: {ctx.name(dp)} forms square at {target} against the charge", hex=target, unit=dp,
             rule="9.2 step 3")
    # 9.3(2): from now on only the unit forming the square (and one leader) takes part.
    if c.get("defenders") != [dp]:
        c["defenders"] = [dp]
        dside = c["defender"]
        c["leader_to"] = {l: r for l, r in c.get("leader_to", {}).items() if ctx.side_of(l) != dside}
        c["morale_from"] = {l: r for l, r in c.get("morale_from", {}).items() if ctx.side_of(l) != dside}
        combat.assign_leaders(ctx, c, dside, list(c.get("def_leaders", [])), [dp], dp)


@_task("charge_resolve")
def _task_resolve(ctx: Ctx, task: dict[str, Any]) -> None:
    """Steps 4-5: combat.resolve applies the charge factor, the doubling and the Dm/Am reading."""
    c = _combat(ctx)
    charger = c["primary"]
    s = ctx.u(charger)
    if (not c.get("defenders") or not ctx.combat_units_at(c["target"], c["defender"])
            or s.status != STATUS_MAP or s.ineffective):
        ctx.emit("combat_void", "9.2: nothing is left to charge; the charge lapses", rule="9.2")
        ctx.st.tasks.append({"t": "charge_after"})
        return
    combat.resolve(ctx, c)


@_task("charge_after")
def _task_after(ctx: Ctx, task: dict[str, Any]) -> None:
    """Step 5's return to step 2, or step 6 after a rout; otherwise the charger is done and flips."""
    c = _combat(ctx)
    st = ctx.st
    charger = c["primary"]
    s = ctx.u(charger)
    routed = (c.get("result") == "Dm" and c.get("loser") == c["defender"] and bool(c.get("rout"))
              and not ctx.combat_units_at(c["target"], c["defender"]))
    if routed and s.status == STATUS_MAP and not s.ineffective:
        if c["charge_no"] == 1:
            _moot_queue(ctx, c)
        more = "and charge once more" if c["charge_no"] == 1 else "but may not charge a third time"
        ctx.emit("charge_won", f"9.2 step 6: the defenders of {c['target']} rout: {ctx.name(charger)} may advance "
                 f"up to two hexes {more}", unit=charger, target=c["target"], rule="9.2 step 6")
        st.tasks.append({"t": "charge_follow_up", "unit": charger})
        st.tasks.append({"t": "charge_advance", "unit": charger, "step": 1, "target": c["target"]})
        return
    _flip(ctx, charger)
    st.tasks.append({"t": "charge_round"})


def _advance_hexes(ctx: Ctx, uid: str, step: int, target: str) -> list[str]:
    """R9: a charge advance ignores EZOC but not prohibited terrain (nor the TEC's no-advance terrain, 7.9)."""
    here = ctx.u(uid).hex
    if here is None or ctx.d(uid).tec_class in ctx.sc.terrain_at(here).no_advance_from:
        return []
    return advance_hexes(ctx, {"unit": uid, "step": step, "target": target})


@_task("charge_advance")
def _task_advance(ctx: Ctx, task: dict[str, Any]) -> None:
    u = task["unit"]
    if ctx.u(u).status != STATUS_MAP:
        return
    hexes = _advance_hexes(ctx, u, task["step"], task["target"])
    if hexes:
        offer_advance(ctx, task, hexes, "charge_advance", "9.2 step 6", f"{ctx.name(u)} may advance after its charge"
                      + (" a second hex" if task["step"] == 2 else ", up to two hexes")
                      + ": choose a hex, or stay (rule 9.2 step 6)")


@_decision("charge_advance")
def _decide_advance(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if advance_unit(ctx, task["unit"], option.get("hex"), "9.2 step 6") and task["step"] == 1:
        ctx.st.tasks.append(dict(task, step=2))


def _follow_up_targets(ctx: Ctx, uid: str) -> list[str]:
    """9.2 step 6 (R9): a second charge at an adjacent hex meeting step 1's terrain limits."""
    here = ctx.u(uid).hex
    if here is None or not _open(ctx, here):
        return []
    side = ctx.side_of(uid)
    return sorted(n for n in ctx.sc.grid.neighbors(here)
                  if _target_problem(ctx, side, here, n, "9.2 step 6") is None)


@_task("charge_follow_up")
def _task_follow_up(ctx: Ctx, task: dict[str, Any]) -> None:
    c = _combat(ctx)
    u = task["unit"]
    s = ctx.u(u)
    if c["charge_no"] >= 2 or s.status != STATUS_MAP or s.ineffective:
        if c["charge_no"] >= 2:
            ctx.emit("no_third_charge", f"9.2 step 6: {ctx.name(u)} has won twice and may not charge a third time",
                     unit=u, rule="9.2 step 6")
        _flip(ctx, u)
        ctx.st.tasks.append({"t": "charge_done"})
        return
    targets = _follow_up_targets(ctx, u)
    if not targets:
        _flip(ctx, u)
        ctx.st.tasks.append({"t": "charge_done"})
        return
    options: list[dict[str, Any]] = [{"id": t, "label": f"{ctx.name(u)} charges {t}", "target": t} for t in targets]
    options.append({"id": "none", "label": f"{ctx.name(u)} does not charge again", "target": None})
    ctx.st.decision = {
        "kind": "charge_again", "side": ctx.side_of(u), "rule": "9.2 step 6",
        "text": f"{ctx.name(u)} won its charge and may charge again: choose a new target (clear or clear hill, no "
                "hexside terrain), or none (rule 9.2 step 6)",
        "task": task, "options": options, "hexes": targets, "units": [u],
    }


@_decision("charge_again")
def _decide_again(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = _combat(ctx)
    u = task["unit"]
    target = option.get("target")
    if target is None:
        ctx.emit("no_charge", f"9.2 step 6: {ctx.name(u)} makes no second charge", unit=u, rule="9.2 step 6")
        _flip(ctx, u)
        ctx.st.tasks.append({"t": "charge_done"})
        return
    c["target"] = target
    c["charge_no"] = 2
    c["any_passed"] = False
    c["queue"] = []
    lose_counterattack(ctx, target)
    ctx.emit("combat_declared", f"9.2 step 6: {ctx.name(u)} charges again, at {target}", attackers=[u], target=target,
             kind="charge", support=[], rule="9.2 step 6")
    _begin_round(ctx, c, u)


@_task("charge_done")
def _task_done(ctx: Ctx, task: dict[str, Any]) -> None:
    c = ctx.st.combat
    if c is not None and c.get("kind") == "charge":
        _moot_queue(ctx, c)
    ctx.st.combat = None


# --- phase bookkeeping ---------------------------------------------------------------------------------------
def unresolved(ctx: Ctx, side: str) -> list[str]:
    """Declared chargers of `side` that could charge now and have not: the combat phase may not end (9.2)."""
    out = []
    enemy = ctx.enemy(side)
    for u in ctx.sc.side_units[side]:
        target = ctx.u(u).charging
        if target is None or not ctx.combat_units_at(target, enemy):
            continue
        if _charger_problem(ctx, side, u, target) is None:
            out.append(u)
    return out


def end_of_combat_phase(ctx: Ctx) -> None:
    for uid, u in ctx.st.units.items():
        if u.charging is not None and u.attacked:
            _flip(ctx, uid)
        u.charging = None


# --- legal commands (random player, client hints) ----------------------------------------------------------
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
                or s.charging is not None or s.ineffective or not _open(ctx, s.hex)):
            continue
        start = s.hex
        try:
            group = movement.build_group(ctx, side, [uid])
        except IllegalCommand:
            continue
        paths = []
        for n1 in grid.neighbors(start):
            paths.append([start, n1])
            for n2 in grid.neighbors(n1):
                if n2 != start:
                    paths.append([start, n1, n2])
        seen: set[tuple[str, str]] = set()
        for path in paths:
            final = path[-1]
            for t in grid.neighbors(final):
                if (final, t) in seen or not ctx.combat_units_at(t, enemy):
                    continue
                try:
                    parse_charge_move(ctx, side, [uid], path, t)
                    movement.path_cost(ctx, group, path)
                except IllegalCommand:
                    continue
                seen.add((final, t))
                out.append({"type": "move", "units": [uid], "path": list(path), "charge": t})
    return out


def charge_preview(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """The odds of a legal charge command's first charge (9.2 step 5: D results are Dm, the rest Am), its leader
    included; the charger's own morale check (step 2) comes first."""
    charger = min(cmd["chargers"])
    c: dict[str, Any] = {"kind": "charge", "attacker": side, "defender": ctx.enemy(side), "target": cmd["target"],
                         "attackers": [charger], "primary": charger, "support": [], "leader_to": {}, "morale_from": {}}
    for ldr in cmd.get("leaders", []):
        if ctx.u(ldr).hex == ctx.u(charger).hex and ctx.helps(ldr, charger):
            c["leader_to"][ldr] = charger
            c["morale_from"][ldr] = charger
    p = combat.preview(ctx, c)
    return {"target": cmd["target"], "chargers": cmd["chargers"], "leaders": cmd.get("leaders", []), "charger": charger,
            "charger_morale": combat.morale_rating(ctx, c, charger), **p}


def legal_charges(ctx: Ctx, side: str) -> list[dict[str, Any]]:
    st = ctx.st
    if st.phase != PHASE_COMBAT or st.active != side or st.decision is not None or st.ca_stage:
        return []
    by_target: dict[str, list[str]] = {}
    for u in unresolved(ctx, side):
        target = ctx.u(u).charging
        assert target is not None
        by_target.setdefault(target, []).append(u)
    out: list[dict[str, Any]] = []
    for target, chargers in sorted(by_target.items()):
        # The chargers against one hex may charge together in any order (their step-2 checks follow it)
        # or some of them now and the rest later: every ordered choice is a distinct command.
        orders: list[list[str]] = [sorted(chargers)]
        if len(chargers) <= 3:
            for k in range(1, len(chargers) + 1):
                for combo in itertools.permutations(sorted(chargers), k):
                    if list(combo) not in orders:
                        orders.append(list(combo))
        cmds: list[dict[str, Any]] = []
        for order in orders:
            cmds.append({"type": "charge", "target": target, "chargers": order})
            leaders = []
            for u in order:
                hex_ = ctx.u(u).hex
                ldr = next((l for l in ctx.units_at(hex_ or "") if ctx.is_leader(l) and ctx.side_of(l) == side
                            and not ctx.u(l).ineffective and ctx.helps(l, u) and l not in leaders), None)
                if ldr is not None:
                    leaders.append(ldr)
            if leaders:
                cmds.append({"type": "charge", "target": target, "chargers": order, "leaders": leaders})
        for cmd in cmds:
            try:
                parse_charge(ctx, side, cmd)
            except IllegalCommand:
                continue
            out.append(cmd)
    return out
