"""Combat (7.0-7.6), with leaders (10.0) and squares (9.3(2)) in participation and strength.

A combat is a JSON dict kept in `state.combat` while it runs, so that a
combat paused on a player's decision (defenders, retreat path, loss,
advance) survives serialisation.  Resolution pushes tasks (`state.tasks`)
that the game's driver runs in order.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..kernel.core import Ctx
from ..kernel.errors import IllegalCommand
from ..kernel.procedures import attack_total as total_attack
from ..kernel.procedures import commit_attack
from ..kernel.procedures import defender_options as kernel_defender_options
from ..kernel.procedures import losing_groups as kernel_losing_groups
from ..kernel.scenario import UnitKind
from ..kernel.state import STATUS_MAP
from .artillery import check_support
from .counterattack import lose_counterattack
from .retreat import queue_group_retreats, step_loss

CF_RECIPIENTS = (UnitKind.INFANTRY, UnitKind.BATTALION, UnitKind.CAVALRY)  # 10.0(3)


# --- participation (7.1(1), 9.3(2)) ----------------------------------------------
def participation_ok(ctx: Ctx, hex_: str, uids: list[str]) -> str | None:
    """None when these combat units may take part together from one hex, else the reason."""
    if hex_ in ctx.st.squares:
        if len(uids) != 1 or uids[0] != ctx.st.squares[hex_]:
            return "only the infantry unit forming the square takes part from a square (9.3(2))"
        return None
    slot = [u for u in uids if ctx.kind(u).counts_as_battalion_slot]
    other = [u for u in uids if ctx.kind(u) in (UnitKind.INFANTRY, UnitKind.CAVALRY, UnitKind.ARTILLERY)]
    if len(uids) > 2:
        return "at most one battalion or artillery unit plus one other unit take part from a hex (7.1(1))"
    if len(uids) == 2:
        a, b = uids
        ok = (ctx.kind(a).counts_as_battalion_slot and ctx.kind(b) in (UnitKind.INFANTRY, UnitKind.CAVALRY, UnitKind.ARTILLERY)) or (
            ctx.kind(b).counts_as_battalion_slot and ctx.kind(a) in (UnitKind.INFANTRY, UnitKind.CAVALRY, UnitKind.ARTILLERY)
        )
        if not ok:
            return "at most one battalion or artillery unit plus one other unit take part from a hex (7.1(1))"
    del slot, other
    return None


def participant_sets(ctx: Ctx, hex_: str, candidates: list[str]) -> list[list[str]]:
    """Every legal largest set of participants from one hex (more units never hurt a side in 7.0)."""
    if hex_ in ctx.st.squares:
        sq = ctx.st.squares[hex_]
        return [[sq]] if sq in candidates else []
    out: list[list[str]] = []
    for size in (2, 1):
        for combo in itertools.combinations(sorted(candidates), size):
            if participation_ok(ctx, hex_, list(combo)) is None:
                out.append(list(combo))
        if out:
            break
    return out


def leader_recipient(ctx: Ctx, leader: str, participants: list[str], primary: str | None) -> str | None:
    """10.0(3): the leader's CF goes to one participating infantry or cavalry unit of its formation in its hex."""
    hex_ = ctx.u(leader).hex
    eligible = [
        u for u in participants
        if ctx.u(u).hex == hex_ and ctx.kind(u) in CF_RECIPIENTS and ctx.helps(leader, u)
    ]
    if not eligible:
        return None
    if primary in eligible:
        return primary
    return eligible[0]


def eligible_leaders(ctx: Ctx, hex_: str, side: str, participants: list[str]) -> list[str]:
    return [
        u for u in ctx.units_at(hex_)
        if ctx.is_leader(u) and ctx.side_of(u) == side and not ctx.u(u).ineffective
        and leader_recipient(ctx, u, participants, None) is not None
    ]


# --- strengths (7.4, 9.3, 10.0) ----------------------------------------------------
def _is_cavalry(ctx: Ctx, uid: str) -> bool:
    return ctx.kind(uid) is UnitKind.CAVALRY


def attacker_unit_strength(ctx: Ctx, c: dict[str, Any], uid: str) -> tuple[int, list[str]]:
    sc = ctx.sc
    s = ctx.u(uid)
    target = c["target"]
    notes: list[str] = []
    if c["kind"] == "charge":
        value = ctx.factors(uid).charge
        notes.append(f"charge factor {value} (9.2)")
    else:
        value = ctx.factors(uid).attack
        notes.append(f"printed CF {value} (7.4)")
    for ldr, rec in c.get("leader_to", {}).items():
        if rec == uid and ctx.side_of(ldr) == c["attacker"]:
            value += ctx.leader_factors(ldr).combat
            notes.append(f"+{ctx.leader_factors(ldr).combat} leader {ctx.name(ldr)}, before halving (10.0(3))")
    halvings = 0
    cls = ctx.d(uid).tec_class
    hex_ = s.hex
    assert hex_ is not None
    support = uid in c.get("support", [])
    if s.disrupted and not any(
        ctx.is_leader(l) and ctx.helps(l, uid) and not ctx.u(l).ineffective for l in ctx.units_at(hex_)
    ):
        halvings += 1
        notes.append("halved: disrupted (11.1(1))")
    if cls in sc.terrain_at(target).attack_halved_into:
        halvings += 1
        notes.append(f"halved: attacking into {sc.terrain_at(target).name} (7.4, TEC)")
    if not support:
        if cls in sc.terrain_at(hex_).attack_halved_out_of:
            halvings += 1
            notes.append(f"halved: attacking out of {sc.terrain_at(hex_).name} (7.4, TEC)")
        for f in sc.hexside_defs(hex_, target):
            if cls in f.attack_halved_across:
                halvings += 1
                notes.append(f"halved: attacking across {f.name} (7.4, TEC)")
    value = ctx.rs.halve(value, halvings)
    if halvings == 1:
        notes.append(f"= {value} after one halving, rounded up (7.4)")
    elif halvings > 1:
        notes.append(f"= {value}: halved {halvings} times counts as 1 (7.4)")
    if c["kind"] == "charge":
        if c.get("def_primary") and ctx.already_impaired(c["def_primary"]):  # one-step units: ineffective (11.0)
            value *= 2
            notes.append("doubled against a disrupted defender (9.1(3))")
    else:
        if target in ctx.st.squares and not _is_cavalry(ctx, uid):
            value += 2
            notes.append("+2 against a square (9.3(b))")
        if hex_ in ctx.st.squares and not support:
            value -= 2
            notes.append("-2 attacking from a square (9.3(d))")
        if c["kind"] == "counterattack":
            value *= 2
            notes.append("doubled: counterattack (7.3)")
    return max(value, 0), notes


def attack_total(ctx: Ctx, c: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    return total_attack(ctx, c, attacker_unit_strength)


def defense_total(ctx: Ctx, c: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    sc = ctx.sc
    target = c["target"]
    total = 0
    parts: list[dict[str, Any]] = []
    cavalry_attacking = any(_is_cavalry(ctx, u) for u in c["attackers"])
    for uid in c.get("defenders", []):
        v = ctx.factors(uid).defense
        notes = [f"printed CF {v} (7.4)"]
        for ldr, rec in c.get("leader_to", {}).items():
            if rec == uid and ctx.side_of(ldr) == c["defender"]:
                v += ctx.leader_factors(ldr).combat
                notes.append(f"+{ctx.leader_factors(ldr).combat} leader {ctx.name(ldr)} (10.0(3))")
        if target in ctx.st.squares and cavalry_attacking:
            v += 2
            notes.append("+2 square against cavalry (9.3(a))")
        total += v
        parts.append({"unit": uid, "value": v, "notes": notes})
    terrain = sc.terrain_at(target)
    if terrain.defense:
        total += terrain.defense
        parts.append({"terrain": terrain.id, "value": terrain.defense, "notes": [f"+{terrain.defense} defending in {terrain.name} (7.4, TEC)"]})
    attack_hexes = sorted({h for u in c["attackers"] if (h := ctx.u(u).hex) is not None})
    if attack_hexes and c["kind"] != "charge":
        common: set[str] | None = None
        for h in attack_hexes:
            feats = set(sc.features_between(h, target))
            common = feats if common is None else common & feats
        for f in sorted(common or ()):
            fd = sc.hexside_features[f]
            if fd.defense_across:
                total += fd.defense_across
                parts.append({"hexside": f, "value": fd.defense_across, "notes": [f"+{fd.defense_across}: every attack crosses {fd.name} (7.4, TEC)"]})
    return max(total, 0), parts


def morale_rating(ctx: Ctx, c: dict[str, Any], uid: str) -> int:
    """7.5 with 10.0(4) leader morale and 9.3(a) squares against cavalry."""
    value = ctx.mr(uid)
    side = ctx.side_of(uid)
    for ldr, rec in c.get("morale_from", {}).items():
        if rec == uid and ctx.side_of(ldr) == side and ctx.u(ldr).status == STATUS_MAP:
            value += ctx.leader_factors(ldr).morale
    if side == c["defender"] and c["target"] in ctx.st.squares and any(_is_cavalry(ctx, u) for u in c["attackers"]):
        value += 2
    return value


def assign_leaders(ctx: Ctx, c: dict[str, Any], side: str, leaders: list[str], participants: list[str], primary: str | None) -> None:
    leader_to = c.setdefault("leader_to", {})
    morale_from = c.setdefault("morale_from", {})
    for ldr in leaders:
        rec = leader_recipient(ctx, ldr, participants, primary)
        if rec is not None:
            leader_to[ldr] = rec
        if (primary is not None and ctx.u(ldr).hex == ctx.u(primary).hex and ctx.helps(ldr, primary)
                and primary not in morale_from.values()):
            morale_from[ldr] = primary


# --- declaring an attack (7.1) --------------------------------------------------------
def could_attack_into(ctx: Ctx, uid: str, target: str) -> bool:
    """7.1(3): only terrain and hexsides decide whether the unit could move into the target hex (R6)."""
    return ctx.can_enter_terrain(ctx.d(uid).tec_class, ctx.u(uid).hex, target)


def check_attacker(ctx: Ctx, side: str, uid: str, target: str, counter: bool = False) -> None:
    s = ctx.u(uid)
    name = ctx.name(uid)
    ctx.require(uid in ctx.sc.units and ctx.side_of(uid) == side, "7.1", f"{uid} is not one of your units")
    ctx.require(not ctx.is_leader(uid), "7.2", f"{name} is a leader: leaders add factors but do not attack alone")
    ctx.require(s.status == STATUS_MAP, "7.1", f"{name} is not on the map")
    ctx.require(not s.ineffective, "11.2", f"{name} is ineffective and cannot attack")
    ctx.require(not s.attacked, "7.1(3)", f"{name} has already attacked this combat phase")
    ctx.require(s.charging is None or counter, "9.2", f"{name} declared a charge; it attacks only by charging")
    assert s.hex is not None
    ctx.require(ctx.sc.grid.is_adjacent(s.hex, target), "7.1", f"{name} is not adjacent to {target}")
    ctx.require(could_attack_into(ctx, uid, target), "7.1(3)", f"{name} could not move into {target}, so it may not attack it")
    if ctx.kind(uid) is UnitKind.ARTILLERY:
        if not ctx.in_ezoc(s.hex, side):
            raise IllegalCommand("8.1(4)", f"{name} is not in an enemy zone of control: artillery there attacks only by bombardment")
        ctx.require(target in ctx.zoc_sources(s.hex, side), "8.1(3)",
                    f"{name} is in an enemy zone of control and may attack only the units exerting it")
    ctx.require(ctx.factors(uid).attack > 0 or ctx.kind(uid) is UnitKind.CAVALRY, "7.1", f"{name} has no attack strength")


def parse_attack(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    st = ctx.st
    target = cmd.get("target")
    ctx.require(isinstance(target, str) and target in ctx.sc.grid, "7.1", f"target '{target}' is not a hex on the map")
    assert isinstance(target, str)
    raw_attackers = cmd.get("attackers")
    if not (isinstance(raw_attackers, list) and raw_attackers and all(isinstance(a, str) for a in raw_attackers)):
        raise IllegalCommand("7.1", "name the attacking units in 'attackers'")
    attackers: list[str] = list(raw_attackers)
    ctx.require(len(set(attackers)) == len(attackers), "7.1", "a unit is named twice")
    defenders = ctx.combat_units_at(target, ctx.enemy(side))
    ctx.require(bool(defenders), "7.1", f"there are no enemy combat units in {target} to attack (a lone leader cannot be attacked)")
    ctx.require(target not in st.attacked_hexes, "7.1(5)", f"{target} has already been attacked this combat phase")
    for uid in attackers:
        check_attacker(ctx, side, uid, target)
    by_hex: dict[str, list[str]] = {}
    for uid in attackers:
        by_hex.setdefault(ctx.u(uid).hex or "", []).append(uid)
    for h, uids in by_hex.items():
        ctx.require(st.attack_from.get(h, target) == target, "7.1(4)",
                    f"units in {h} already attacked {st.attack_from.get(h)}; a hex attacks only one defending hex per phase")
        reason = participation_ok(ctx, h, uids)
        if reason:
            raise IllegalCommand("7.1(1)", reason)
    primary = cmd.get("primary") or (attackers[0] if len(attackers) == 1 else None)
    if not isinstance(primary, str) or primary not in attackers:
        raise IllegalCommand("7.2(1)", "name the primary unit ('primary'), one of the attackers")
    raw_leaders = cmd.get("leaders", [])
    if not (isinstance(raw_leaders, list) and all(isinstance(x, str) for x in raw_leaders)):
        raise IllegalCommand("10.0", "'leaders' must be a list of leader ids")
    leaders: list[str] = list(raw_leaders)
    seen_hexes: set[str] = set()
    for ldr in leaders:
        ctx.require(ldr in ctx.sc.units and ctx.is_leader(ldr) and ctx.side_of(ldr) == side, "10.0", f"{ldr} is not one of your leaders")
        ls = ctx.u(ldr)
        ctx.require(ls.status == STATUS_MAP and ls.hex in by_hex, "10.0", f"{ctx.name(ldr)} is not with the attacking units")
        ctx.require(not ls.ineffective, "10.0", f"{ctx.name(ldr)} is ineffective")
        ctx.require(ls.hex not in seen_hexes, "7.1(1)", "one leader per hex takes part")
        seen_hexes.add(ls.hex or "")
        ctx.require(leader_recipient(ctx, ldr, attackers, primary) is not None, "10.0",
                    f"{ctx.name(ldr)} has no infantry or cavalry unit of its formation attacking from its hex")
    raw_support = cmd.get("support", [])
    if not (isinstance(raw_support, list) and all(isinstance(x, str) for x in raw_support)):
        raise IllegalCommand("8.4", "'support' must be a list of artillery ids")
    support: list[str] = list(raw_support)
    for uid in support:
        ctx.require(uid not in attackers, "8.4", f"{ctx.name(uid)} cannot both attack and support")
        check_support(ctx, side, uid, target)
    c: dict[str, Any] = {
        "kind": "attack",
        "attacker": side,
        "defender": ctx.enemy(side),
        "target": target,
        "attackers": list(attackers),
        "primary": primary,
        "support": list(support),
        "leader_to": {},
        "morale_from": {},
    }
    assign_leaders(ctx, c, side, leaders, attackers, primary)
    return c


def start_combat(ctx: Ctx, c: dict[str, Any]) -> None:
    """Commit the declaration: mark units as having attacked and queue the resolution."""
    lose_counterattack(ctx, c["target"])
    c.setdefault("log", [])
    verb = {"attack": "attack", "counterattack": "counterattack", "charge": "charge"}[c["kind"]]
    ctx.emit("combat_declared", f"7.2: {ctx.names(c['attackers'])} {verb} {c['target']}"
             + (f" with supporting fire from {ctx.names(c['support'])}" if c.get("support") else ""),
             attackers=c["attackers"], target=c["target"], kind=c["kind"], support=c.get("support", []))
    commit_attack(ctx, c, attacked=c["kind"] != "charge")


# --- the defender's choice (7.2(1)) ------------------------------------------------
def defender_options(ctx: Ctx, c: dict[str, Any]) -> list[dict[str, Any]]:
    return kernel_defender_options(ctx, c, participant_sets, eligible_leaders)


def set_defenders(ctx: Ctx, c: dict[str, Any], option: dict[str, Any]) -> None:
    c["defenders"] = list(option["units"])
    c["def_primary"] = option["primary"]
    leaders = [option["leader"]] if option.get("leader") else []
    c["def_leaders"] = leaders
    assign_leaders(ctx, c, c["defender"], leaders, c["defenders"], c["def_primary"])
    ctx.emit("defenders", f"7.2(1): {ctx.names(c['defenders'])} defend{'s' if len(c['defenders']) == 1 else ''} {c['target']}; "
             f"{ctx.name(c['def_primary'])} is the primary unit", defenders=c["defenders"], primary=c["def_primary"])


# --- resolution (7.2-7.6) ------------------------------------------------------------
def _with_defenders(ctx: Ctx, c: dict[str, Any], option: dict[str, Any]) -> dict[str, Any]:
    """A copy of the combat with one defender choice (units, primary, leader) applied, for previews."""
    trial = dict(c)
    trial["defenders"] = list(option["units"])
    trial["def_primary"] = option["primary"]
    trial["leader_to"] = dict(c.get("leader_to", {}))
    trial["morale_from"] = dict(c.get("morale_from", {}))
    leaders = [option["leader"]] if option.get("leader") else []
    assign_leaders(ctx, trial, c["defender"], leaders, trial["defenders"], trial["def_primary"])
    return trial


def _odds(ctx: Ctx, c: dict[str, Any], row: list[str]) -> dict[str, float]:
    """The chance of each result: the combat die is one of six equally likely rows."""
    return {r: round(row.count(r) / 6, 4) for r in dict.fromkeys(row)}


def preview(ctx: Ctx, c: dict[str, Any]) -> dict[str, Any]:
    """Strengths (each unit's breakdown with its rule), differential, CRT column and the chance of each
    result, before the dice. Before the defender has chosen (7.2(1)) it assumes the defender's strongest
    choice, its leader included, so the player is never surprised upwards."""
    att, att_parts = attack_total(ctx, c)
    assumed = None
    if "defenders" not in c:
        best = None
        for o in defender_options(ctx, c):
            trial = _with_defenders(ctx, c, o)
            d, _ = defense_total(ctx, trial)
            if best is None or d > best[0]:
                best = (d, trial, o)
        if best is not None:
            c = best[1]
            assumed = {"units": best[2]["units"], "primary": best[2]["primary"], "leader": best[2].get("leader"),
                       "label": best[2]["label"]}
            att, att_parts = attack_total(ctx, c)  # a charge doubles against a disrupted primary (9.1(3))
    dfn, def_parts = defense_total(ctx, c)
    diff = att - dfn
    row = ctx.rs.crt_row(diff)
    if c["kind"] == "charge":
        row = ["Dm" if r.startswith("D") else "Am" for r in row]  # 9.2 step 5
    out = {
        "attack": att, "defense": dfn, "differential": diff,
        "column": ctx.rs.crt_column(diff), "column_label": ctx.rs.crt_column_label(ctx.rs.crt_column(diff)),
        "results": row, "odds": _odds(ctx, c, row),
        "attack_parts": att_parts, "defense_parts": def_parts,
    }
    if c["kind"] == "charge":
        out["rule"] = "9.2"
    if assumed is not None:
        out["defenders_assumed"] = assumed
    return out


def defender_option_previews(ctx: Ctx, c: dict[str, Any], options: list[dict[str, Any]]) -> None:
    """7.2(1): each defender choice carries its own odds (the attacker's strength does not depend on it)."""
    for o in options:
        p = preview(ctx, _with_defenders(ctx, c, o))
        o["preview"] = {k: p[k] for k in ("attack", "defense", "differential", "column_label", "results", "odds")}


def resolve(ctx: Ctx, c: dict[str, Any]) -> None:
    att, att_parts = attack_total(ctx, c)
    dfn, def_parts = defense_total(ctx, c)
    diff = att - dfn
    column = ctx.rs.crt_column(diff)
    combat_die, morale_die = ctx.roll(2, "combat", ["combat die", "morale die"], "7.2(4)", target=c["target"])
    result = ctx.rs.crt_result(diff, combat_die)
    if c["kind"] == "charge":
        result = "Dm" if result.startswith("D") else "Am"  # 9.2 step 5
    c.update({"att_total": att, "def_total": dfn, "differential": diff, "column": column,
              "dice": [combat_die, morale_die], "result": result})
    summary = (f"7.4: attack {att} vs defence {dfn}, differential {diff:+d} "
               f"(column {ctx.rs.crt_column_label(column)}); combat die {combat_die}: {result}")
    ctx.emit("combat_result", summary, target=c["target"], attack=att, defense=dfn, differential=diff,
             column=column, column_label=ctx.rs.crt_column_label(column), dice=[combat_die, morale_die],
             result=result, attack_parts=att_parts, defense_parts=def_parts, kind=c["kind"])
    finish(ctx, c)  # queued first: the stack runs retreats, then advance, leader checks, the end
    if result == "-":
        return
    loser_side = c["attacker"] if result[0] == "A" else c["defender"]
    primary = c["primary"] if result[0] == "A" else c["def_primary"]
    letter = result[1]
    rating = morale_rating(ctx, c, primary)
    passed = ctx.rs.morale_passes(morale_die, rating)
    c["loser"] = loser_side
    c["passed"] = passed
    ctx.emit("morale", f"7.5: {ctx.name(primary)} checks morale: die {morale_die} against {rating}: "
             f"{'passes' if passed else 'fails'}", unit=primary, die=morale_die, rating=rating, passed=passed)
    apply_result(ctx, c, letter, passed, loser_side, primary)


def losing_groups(ctx: Ctx, c: dict[str, Any], loser_side: str) -> dict[str, list[str]]:
    """Hex -> every unit of the losing side there (non-participants share adverse results, 7.1(2))."""
    return kernel_losing_groups(ctx, c, loser_side)


def apply_result(ctx: Ctx, c: dict[str, Any], letter: str, passed: bool, loser_side: str, primary: str) -> None:
    """The combat results table of R6, for either side losing."""
    groups = losing_groups(ctx, c, loser_side)
    primary_was_impaired = ctx.already_impaired(primary)
    was_impaired = {u: ctx.already_impaired(u) for us in groups.values() for u in us}
    c["rout"] = False
    c["advance"] = 0

    def disrupt_all(convert: bool) -> list[str]:
        converted = []
        for units in groups.values():
            for u in units:
                if ctx.is_leader(u) or ctx.u(u).status != STATUS_MAP:
                    continue
                changed = ctx.disrupt_or_ineffective(u, "7.5")
                if not changed and convert:
                    converted.append(u)
        return converted

    if letter == "c":
        if passed:
            ctx.emit("no_effect", "7.5: the morale check holds: no effect", rule="7.5")
        else:
            to_retreat = [u for us in groups.values() for u in us if not ctx.is_leader(u) and was_impaired[u]]
            disrupt_all(convert=False)
            if to_retreat:
                queue_group_retreats(ctx, c, loser_side, groups, only=set(to_retreat), minimum=2, rout=False)
                c["advance"] = 1
    elif letter == "r" and passed:
        ctx.emit("exchange", "7.6: exchange: the primary unit on each side loses a step", rule="7.6")
        winner_primary = c["def_primary"] if loser_side == c["attacker"] else c["primary"]
        step_loss(ctx, c, primary, "7.6")
        if winner_primary and ctx.u(winner_primary).status == STATUS_MAP:
            step_loss(ctx, c, winner_primary, "7.6")
    elif letter == "x" and passed:
        step_loss(ctx, c, primary, "7.6")
        if not primary_was_impaired:
            disrupt_all(convert=False)
    elif (letter in ("r", "x") and not passed) or (letter == "m" and passed):
        disrupt_all(convert=False)
        minimum = 2 if primary_was_impaired else 1
        queue_group_retreats(ctx, c, loser_side, groups, only=None, minimum=minimum, rout=False, impaired=was_impaired)
        c["advance"] = 1
    elif letter == "m":
        step_loss(ctx, c, primary, "7.6")
        disrupt_all(convert=False)
        c["rout"] = True
        queue_group_retreats(ctx, c, loser_side, groups, only=None, minimum=3, rout=True)
        c["advance"] = 2
    if loser_side == c["attacker"]:
        c["advance"] = 0  # 7.9: defenders never advance


def finish(ctx: Ctx, c: dict[str, Any]) -> None:
    """Queue what follows the results: advance, leader checks, the end of the combat."""
    st = ctx.st
    st.tasks.append({"t": c.get("end_task", "combat_end")})  # a charge continues its 9.2 sequence instead
    st.tasks.append({"t": "leader_checks"})
    st.tasks.append({"t": "advance"})


def combat_leaders_used(c: dict[str, Any]) -> list[str]:
    return sorted(c.get("leader_to", {}).keys())
