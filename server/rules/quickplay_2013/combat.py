"""Combat (7.1-7.4): who may attack and be attacked, the primary units, leaders lending their factors (10.0),
squares (9.3) and cavalry (9.1(2)) in the strengths, the differential and its resolution on the CRT (crt.py),
whose results are applied by results.py.

A combat is a JSON dict kept in `state.combat` while it runs, so that a combat paused on a player's decision
(defenders, retreat or disruption, loss or retreat, retreat path, advance) survives serialisation.  Resolution
pushes tasks (`state.tasks`) that the game's driver runs in order.
"""

from __future__ import annotations

from typing import Any

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.procedures import attack_total as total_attack
from ..kernel.procedures import commit_attack
from ..kernel.procedures import defender_options as kernel_defender_options
from ..kernel.scenario import UnitKind
from ..kernel.state import STATUS_MAP
from .artillery import check_bombard, target_problem
from .crt import Result, column_label, crt_result, crt_row, halve
from .results import apply_result
from .stacking import participant_sets, participation_problem
from .status import accompanied, impaired, morale
from .triggers import lose_counterattack

DETAIL_KEYS = ("attack", "defense", "differential", "column_label", "results", "odds")


# --- leaders (10.0) -------------------------------------------------------------------------
def leader_recipient(ctx: Ctx, leader: str, participants: list[str], primary: str | None) -> str | None:
    """10.0(3): the leader's combat factor goes to one participating unit of its formation in its hex (the primary
    where it can); bombarding artillery never takes it, and supporting artillery is not among the participants."""
    hex_ = ctx.u(leader).hex
    eligible = [u for u in participants if ctx.u(u).hex == hex_ and ctx.helps(leader, u)]
    if not eligible:
        return None
    return primary if primary in eligible else eligible[0]


def eligible_leaders(ctx: Ctx, hex_: str, side: str, participants: list[str]) -> list[str]:
    return [u for u in ctx.units_at(hex_) if ctx.is_leader(u) and ctx.side_of(u) == side and not ctx.u(u).ineffective
            and leader_recipient(ctx, u, participants, None) is not None]


def assign_leaders(ctx: Ctx, c: dict[str, Any], side: str, leaders: list[str], participants: list[str],
                   primary: str | None) -> None:
    """10.0(2)-(3): each leader's combat factor to one unit, its morale factor to the primary unit of its hex."""
    leader_to = c.setdefault("leader_to", {})
    morale_from = c.setdefault("morale_from", {})
    for ldr in leaders:
        rec = leader_recipient(ctx, ldr, participants, primary)
        if rec is not None:
            leader_to[ldr] = rec
        if (primary is not None and ctx.u(ldr).hex == ctx.u(primary).hex and ctx.helps(ldr, primary)
                and primary not in morale_from.values()):
            morale_from[ldr] = primary


# --- strengths (7.4, 9.1(2), 9.3, 10.0(3)) --------------------------------------------------------
def attacker_unit_strength(ctx: Ctx, c: dict[str, Any], uid: str) -> tuple[int, list[str]]:
    sc = ctx.sc
    target = c["target"]
    hex_ = ctx.u(uid).hex
    assert hex_ is not None
    notes: list[str] = []
    if uid in c.get("support", []):
        # 8.2: bombarding artillery adds its attack factor, with no terrain halving and no leader (10.0(3)).
        value = ctx.factors(uid).attack
        notes.append(f"bombarding artillery adds its attack factor {value} (8.2)")
        if target in ctx.st.squares:
            value += 2
            notes.append("+2 against a square (9.3)")
        return value, notes
    if c["kind"] == "charge":
        value = ctx.factors(uid).charge
        notes.append(f"charge factor {value} (9.2 step 3)")
    else:
        value = ctx.factors(uid).attack
        notes.append(f"printed CF {value} (7.4)")
    leaders = [ldr for ldr, rec in c.get("leader_to", {}).items() if rec == uid and ctx.side_of(ldr) == c["attacker"]]
    for ldr in leaders:
        value += ctx.leader_factors(ldr).combat
        notes.append(f"+{ctx.leader_factors(ldr).combat} leader {ctx.name(ldr)} (10.0(3))")
    halvings = 0
    cls = ctx.d(uid).tec_class
    if impaired(ctx, uid):
        if accompanied(ctx, uid, leaders):
            notes.append("disrupted but accompanied by its leader: not halved (10.0(3))")
        else:
            halvings += 1
            notes.append("halved: disrupted or ineffective (11.1(4), 11.3)")
    if cls in sc.terrain_at(target).attack_halved_into:
        halvings += 1
        notes.append(f"halved: attacking into {sc.terrain_at(target).name} (7.4, TEC)")
    if cls in sc.terrain_at(hex_).attack_halved_out_of:
        halvings += 1
        notes.append(f"halved: attacking out of {sc.terrain_at(hex_).name} (7.4, TEC)")
    for f in sc.hexside_defs(hex_, target):
        if cls in f.attack_halved_across:
            halvings += 1
            notes.append(f"halved: attacking across {f.name} (7.4, TEC)")
    value = halve(value, halvings)
    if halvings == 1:
        notes.append(f"= {value} after one halving, rounded up (7.4)")
    elif halvings > 1:
        notes.append(f"= {value}: halved twice or more counts as 1 (7.4)")
    if ctx.kind(uid) is UnitKind.CAVALRY and c.get("def_primary") and impaired(ctx, c["def_primary"]):
        value *= 2
        notes.append("doubled: cavalry against a disrupted defender (9.1(2))")
    if c["kind"] == "counterattack":
        value *= 2
        notes.append("doubled: counterattack (7.2)")
    if target in ctx.st.squares and ctx.kind(uid) is not UnitKind.CAVALRY:
        value += 2
        notes.append("+2 against a square (9.3)")
    if hex_ in ctx.st.squares:
        value -= 2
        notes.append("-2 attacking from a square (9.3)")
    return max(value, 0), notes


def attack_total(ctx: Ctx, c: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    return total_attack(ctx, c, attacker_unit_strength)


def cavalry_attacks(ctx: Ctx, c: dict[str, Any]) -> bool:
    return any(ctx.kind(u) is UnitKind.CAVALRY for u in c["attackers"])


def defense_total(ctx: Ctx, c: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """7.4: the combat factors of the defending units, with their leader (10.0(3)), +2 for a square attacked by
    cavalry (9.3), and the TEC's additions for the target's terrain and for a hexside every attack crosses."""
    sc = ctx.sc
    target = c["target"]
    total = 0
    parts: list[dict[str, Any]] = []
    for uid in c.get("defenders", []):
        v = ctx.factors(uid).defense
        notes = [f"printed CF {v} (7.4)"]
        for ldr, rec in c.get("leader_to", {}).items():
            if rec == uid and ctx.side_of(ldr) == c["defender"]:
                v += ctx.leader_factors(ldr).combat
                notes.append(f"+{ctx.leader_factors(ldr).combat} leader {ctx.name(ldr)} (10.0(3))")
        if target in ctx.st.squares and cavalry_attacks(ctx, c):
            v += 2
            notes.append("+2 in square against cavalry (9.3)")
        total += v
        parts.append({"unit": uid, "value": v, "notes": notes})
    terrain = sc.terrain_at(target)
    if terrain.defense:
        total += terrain.defense
        parts.append({"terrain": terrain.id, "value": terrain.defense,
                      "notes": [f"+{terrain.defense} defending in {terrain.name} (TEC)"]})
    attack_hexes = sorted({h for u in c["attackers"] if (h := ctx.u(u).hex) is not None})
    if attack_hexes:
        common = set.intersection(*(set(sc.features_between(h, target)) for h in attack_hexes))
        for f in sorted(common):
            fd = sc.hexside_features[f]
            if fd.defense_across:
                total += fd.defense_across
                parts.append({"hexside": f, "value": fd.defense_across,
                              "notes": [f"+{fd.defense_across}: every attack crosses {fd.name} (TEC)"]})
    return max(total, 0), parts


def morale_rating(ctx: Ctx, c: dict[str, Any], uid: str) -> int:
    """2.3 with 11.1(6), the leader's morale (10.0(2)) and a square's +2 against cavalry (9.3)."""
    value = morale(ctx, uid)
    side = ctx.side_of(uid)
    for ldr, rec in c.get("morale_from", {}).items():
        if rec == uid and ctx.side_of(ldr) == side and ctx.u(ldr).status == STATUS_MAP:
            value += ctx.leader_factors(ldr).morale
    if side == c["defender"] and c["target"] in ctx.st.squares and cavalry_attacks(ctx, c):
        value += 2
    return value


# --- declaring an attack (7.1, 7.3) --------------------------------------------------------------------
def check_attacker(ctx: Ctx, side: str, uid: str, target: str) -> None:
    ctx.require(uid in ctx.sc.units and ctx.side_of(uid) == side, "7.1", f"{uid} is not one of your units")
    s = ctx.u(uid)
    name = ctx.name(uid)
    ctx.require(not ctx.is_leader(uid), "10.0", f"{name} is a leader: leaders lend their factors but do not attack")
    ctx.require(s.status == STATUS_MAP and s.hex is not None, "7.1", f"{name} is not on the map")
    ctx.require(not s.attacked, "7.3", f"{name} has already attacked this combat phase")
    ctx.require(s.charging is None, "9.2", f"{name} made a charge move: it attacks only by charging")
    assert s.hex is not None
    ctx.require(ctx.sc.grid.is_adjacent(s.hex, target), "7.1", f"{name} is not adjacent to {target}")
    ctx.require(ctx.can_enter_terrain(ctx.d(uid).tec_class, s.hex, target), "7.3",
                f"{name} could not move into {target}, so it may not attack it")
    ctx.require(ctx.factors(uid).attack > 0, "7.4", f"{name} has no combat factor to attack with")


def parse_attack(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    st = ctx.st
    target = cmd.get("target")
    ctx.require(isinstance(target, str) and target in ctx.sc.grid, "7.1", f"target '{target}' is not a hex on the map")
    assert isinstance(target, str)
    attackers = cmd.get("attackers")
    if not (isinstance(attackers, list) and attackers and all(isinstance(a, str) for a in attackers)):
        raise IllegalCommand("7.1", "name the attacking units in 'attackers'")
    ctx.require(len(set(attackers)) == len(attackers), "7.1", "a unit is named twice")
    ctx.require(bool(ctx.combat_units_at(target, ctx.enemy(side))), "7.1",
                f"there are no enemy combat units in {target} to attack (a lone leader cannot be attacked)")
    problem = target_problem(ctx, side, target)
    if problem is not None:
        raise IllegalCommand(*problem)
    for uid in attackers:
        check_attacker(ctx, side, uid, target)
    by_hex: dict[str, list[str]] = {}
    for uid in attackers:
        by_hex.setdefault(ctx.u(uid).hex or "", []).append(uid)
    for h, uids in by_hex.items():
        ctx.require(st.attack_from.get(h, target) == target, "7.3",
                    f"units in {h} already attacked {st.attack_from.get(h)}: a stack targets only one defending hex")
        reason = participation_problem(ctx, h, sorted(uids))
        if reason:
            raise IllegalCommand("5.0" if "5.0" in reason else "9.3", reason)
    primary = cmd.get("primary") or (attackers[0] if len(attackers) == 1 else None)
    if not isinstance(primary, str) or primary not in attackers:
        raise IllegalCommand("7.1", "name the primary unit ('primary'), one of the attackers")
    leaders = cmd.get("leaders") or []
    if not (isinstance(leaders, list) and all(isinstance(x, str) for x in leaders)):
        raise IllegalCommand("10.0", "'leaders' must be a list of leader ids")
    seen: set[str] = set()
    for ldr in leaders:
        ctx.require(ldr in ctx.sc.units and ctx.is_leader(ldr) and ctx.side_of(ldr) == side, "10.0",
                    f"{ldr} is not one of your leaders")
        ls = ctx.u(ldr)
        ctx.require(ls.status == STATUS_MAP and ls.hex in by_hex, "10.0", f"{ctx.name(ldr)} is not with the attacking units")
        ctx.require(not ls.ineffective, "11.3", f"{ctx.name(ldr)} is ineffective")
        ctx.require(ls.hex not in seen, "10.0", "the factors of one leader apply in a hex")
        seen.add(ls.hex or "")
        ctx.require(leader_recipient(ctx, ldr, attackers, primary) is not None, "10.0",
                    f"{ctx.name(ldr)} has no attacking unit of its formation in its hex")
    support = cmd.get("support") or []
    if not (isinstance(support, list) and all(isinstance(x, str) for x in support)):
        raise IllegalCommand("8.2", "'support' must be a list of artillery ids")
    for uid in support:
        ctx.require(uid not in attackers, "8.2", f"{ctx.name(uid)} cannot both attack and bombard")
        check_bombard(ctx, side, uid, target)
    c: dict[str, Any] = {"kind": "attack", "attacker": side, "defender": ctx.enemy(side), "target": target,
                         "attackers": list(attackers), "primary": primary, "support": list(support),
                         "leader_to": {}, "morale_from": {}}
    assign_leaders(ctx, c, side, list(leaders), list(attackers), primary)
    return c


def start_combat(ctx: Ctx, c: dict[str, Any]) -> None:
    """Commit the declaration: the units have attacked, the hex is attacked, and the resolution is queued."""
    lose_counterattack(ctx, c["target"])
    verb = "counterattack" if c["kind"] == "counterattack" else "attack"
    ctx.emit("combat_declared", f"7.1: {ctx.names(c['attackers'])} {verb} {c['target']}"
             + (f", {ctx.names(c['support'])} bombarding in support" if c.get("support") else ""),
             attackers=c["attackers"], target=c["target"], kind=c["kind"], support=c.get("support", []))
    commit_attack(ctx, c, attacked=True)


# --- the defender's choice (7.1(1)) ------------------------------------------------------------------
def defender_options(ctx: Ctx, c: dict[str, Any]) -> list[dict[str, Any]]:
    """7.1: the defender's participants (5.0, 9.3), primary unit and leader."""
    return kernel_defender_options(ctx, c, participant_sets, eligible_leaders)


def set_defenders(ctx: Ctx, c: dict[str, Any], option: dict[str, Any]) -> None:
    c["defenders"] = list(option["units"])
    c["def_primary"] = option["primary"]
    c["def_leaders"] = [option["leader"]] if option.get("leader") else []
    assign_leaders(ctx, c, c["defender"], c["def_leaders"], c["defenders"], c["def_primary"])
    ctx.emit("defenders", f"7.1: {ctx.names(c['defenders'])} defend {c['target']}; {ctx.name(c['def_primary'])} is "
             "the primary unit", defenders=c["defenders"], primary=c["def_primary"], rule="7.1")


def with_defenders(ctx: Ctx, c: dict[str, Any], option: dict[str, Any]) -> dict[str, Any]:
    """A copy of the combat with one defender choice applied, for previews."""
    trial = dict(c, defenders=list(option["units"]), def_primary=option["primary"],
                 leader_to=dict(c.get("leader_to", {})), morale_from=dict(c.get("morale_from", {})))
    assign_leaders(ctx, trial, c["defender"], [option["leader"]] if option.get("leader") else [], trial["defenders"],
                   trial["def_primary"])
    return trial


def preview(ctx: Ctx, c: dict[str, Any]) -> dict[str, Any]:
    """Strengths (each unit's notes with their rules), differential, CRT column and each result's chance, before
    the dice; before the defender has chosen, its strongest choice is assumed."""
    assumed = None
    if "defenders" not in c:
        best: tuple[int, dict[str, Any], dict[str, Any]] | None = None
        for o in defender_options(ctx, c):
            trial = with_defenders(ctx, c, o)
            d, _ = defense_total(ctx, trial)
            if best is None or d > best[0]:
                best = (d, trial, o)
        if best is not None:
            c = best[1]
            assumed = {k: best[2].get(k) for k in ("units", "primary", "leader", "label")}
    att, att_parts = attack_total(ctx, c)
    dfn, def_parts = defense_total(ctx, c)
    diff = att - dfn
    row = crt_row(diff)
    out: dict[str, Any] = {"attack": att, "defense": dfn, "differential": diff, "column_label": column_label(diff),
                           "results": row, "odds": {r: round(row.count(r) / 6, 4) for r in dict.fromkeys(row)},
                           "attack_parts": att_parts, "defense_parts": def_parts}
    if assumed is not None:
        out["defenders_assumed"] = assumed
    return out


def defender_option_previews(ctx: Ctx, c: dict[str, Any], options: list[dict[str, Any]]) -> None:
    for o in options:
        p = preview(ctx, with_defenders(ctx, c, o))
        o["preview"] = {k: p[k] for k in DETAIL_KEYS}


# --- resolution (7.1 steps 2-4) -------------------------------------------------------------------
def roll_result(ctx: Ctx, c: dict[str, Any], rule: str) -> tuple[Result, int]:
    """7.1 steps 2-3: the differential, its column and the two dice; returns the result and the morale die."""
    att, att_parts = attack_total(ctx, c)
    dfn, def_parts = defense_total(ctx, c)
    diff = att - dfn
    combat_die, morale_die = ctx.roll(2, "combat", ["combat die", "morale die"], rule, target=c["target"])
    res = crt_result(diff, combat_die)
    c.update({"att_total": att, "def_total": dfn, "differential": diff, "dice": [combat_die, morale_die],
              "result": res.text})
    ctx.emit("combat_result", f"7.4: attack {att} against defence {dfn}, differential {diff:+d} (column "
             f"{column_label(diff)}); combat die {combat_die}: {res.text}", target=c["target"], attack=att, defense=dfn,
             differential=diff, column_label=column_label(diff), dice=[combat_die, morale_die], result=res.text,
             attack_parts=att_parts, defense_parts=def_parts, kind=c["kind"], rule="7.5")
    return res, morale_die


def resolve(ctx: Ctx, c: dict[str, Any]) -> None:
    res, morale_die = roll_result(ctx, c, "7.1")
    finish(ctx, c, res)
    apply_result(ctx, c, res, morale_die, lambda u: morale_rating(ctx, c, u))


def finish(ctx: Ctx, c: dict[str, Any], res: Result) -> None:
    """Queue what follows the results (run after the retreats they queue): the advance, then the leaders'
    casualty checks on a Leader result (10.0), then the end of the combat."""
    st = ctx.st
    st.tasks.append({"t": c.get("end_task", "combat_end")})
    if res.leader:
        st.tasks.append({"t": "leader_checks"})
    st.tasks.append({"t": "advance"})
