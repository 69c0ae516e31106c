"""The procedures both Quick Play editions run the same way over the kernel's context (core.Ctx): the game's start
with or without 'w/N' placements and its end, the bookkeeping a movement or combat phase starts with, the groups a
side may move, the decisions an advance, a defender's choice or a declined counterattack make, the total of an
attack, and the tables of tasks and decisions an edition's module fills in.  What each rule says is the edition's:
the functions here take the rule numbers, the texts and the rule functions they need."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .core import Ctx
from .errors import IllegalCommand
from .scenario import UnitKind
from .setup import setup_sides
from .state import (
    PHASE_COMBAT,
    PHASE_OVER,
    PHASE_SETUP,
    STATUS_MAP,
    STATUS_OFFBOARD,
    STATUS_RETURNING,
)

TaskFn = Callable[[Ctx, dict[str, Any]], None]
DecisionFn = Callable[[Ctx, dict[str, Any], dict[str, Any]], None]


class TaskTable:
    """A module's tasks and decisions, registered by decorator (`@table.task("name")`)."""

    def __init__(self) -> None:
        self.tasks: dict[str, TaskFn] = {}
        self.decisions: dict[str, DecisionFn] = {}

    def task(self, name: str) -> Callable[[TaskFn], TaskFn]:
        def register(fn: TaskFn) -> TaskFn:
            self.tasks[name] = fn
            return fn
        return register

    def decision(self, name: str) -> Callable[[DecisionFn], DecisionFn]:
        def register(fn: DecisionFn) -> DecisionFn:
            self.decisions[name] = fn
            return fn
        return register


# --- the game's start and end, the phases' bookkeeping ------------------------------------------------
def start_game(ctx: Ctx, start_play: Callable[[], None]) -> None:
    """3.2: the set-up of 'within' placements when there are any, else at once the first phase (`start_play`)."""
    sides = setup_sides(ctx)
    if sides:
        ctx.st.phase = PHASE_SETUP
        ctx.st.active = sides[0]
        ctx.emit("phase", f"3.2: {ctx.sc.sides[sides[0]].name} set-up", phase="setup", side=sides[0])
    else:
        start_play()


def finish_game(ctx: Ctx, result: dict[str, Any]) -> None:
    """3.4: the result stands and nothing more is played."""
    st = ctx.st
    st.result = result
    st.phase = PHASE_OVER
    st.decision = None
    st.tasks = []
    ctx.emit("game_over", f"3.4: {result['reason']}", result=result)


def reset_movement_phase(ctx: Ctx, side: str) -> None:
    """A movement phase begins: none of the side's units has moved yet."""
    st = ctx.st
    st.any_moved = False
    for uid in ctx.sc.side_units[side]:
        st.units[uid].moved = False
        st.units[uid].start_ezoc = False


def reset_combat_phase(ctx: Ctx, counterattackers: list[str]) -> None:
    """A combat phase begins: no unit has attacked, no hex been attacked; who may counterattack is fixed now."""
    st = ctx.st
    for u in st.units.values():
        u.attacked = False
    st.attacked_hexes = []
    st.bombarded_hexes = []
    st.attack_from = {}
    st.ca_stage = False
    st.ca_done_hexes = []
    st.ca_eligible = counterattackers


# --- moving --------------------------------------------------------------------------------------
def movable_groups(ctx: Ctx, side: str) -> list[list[str]]:
    """Whole stacks, each unit of a stack alone, and arrived reinforcements (squares move as a whole)."""
    st = ctx.st
    groups: list[list[str]] = []
    by_hex: dict[str, list[str]] = {}
    for uid in ctx.sc.side_units[side]:
        s = st.units[uid]
        if s.moved or s.charging is not None:
            continue
        if s.status == STATUS_MAP and s.hex is not None:
            by_hex.setdefault(s.hex, []).append(uid)
        elif s.status in (STATUS_OFFBOARD, STATUS_RETURNING) and s.entry_turn is not None and s.entry_turn <= st.turn:
            groups.append([uid])
    for hex_, uids in sorted(by_hex.items()):
        if hex_ in st.squares:
            if len(uids) == len(ctx.units_at(hex_)):
                groups.append(sorted(uids))
            continue
        groups.append(sorted(uids))
        if len(uids) > 1:
            groups.extend([u] for u in uids)
    return groups


# --- combat's decisions and totals ------------------------------------------------------------------
def offer_advance(ctx: Ctx, task: dict[str, Any], hexes: list[str], kind: str, rule: str, text: str) -> None:
    """The unit of `task` may advance into one of `hexes` or stay: its owner's decision."""
    u = task["unit"]
    options = [{"id": "stay", "label": f"{ctx.name(u)} stays in {ctx.u(u).hex}", "hex": None}]
    options += [{"id": h, "label": f"{ctx.name(u)} advances to {h}", "hex": h} for h in hexes]
    ctx.st.decision = {"kind": kind, "side": ctx.side_of(u), "rule": rule, "text": text, "task": task,
                       "options": options, "hexes": hexes, "units": [u]}


def offer_defenders(ctx: Ctx, c: dict[str, Any], task: dict[str, Any], options: list[dict[str, Any]], rule: str,
                    text: str) -> None:
    """The defender names its participating units, primary unit and leader (one of `options`)."""
    if options:
        ctx.st.decision = {"kind": "defenders", "side": c["defender"], "rule": rule, "text": text, "task": task,
                           "options": options, "hexes": [c["target"]]}


def declined_counterattack(ctx: Ctx, option: dict[str, Any], rule: str) -> bool:
    """A counterattack choice that declines: all further ones (the phase ends), or this hex's (the others are asked
    next). False for a counterattack to be made, whose hex is marked done."""
    st = ctx.st
    if option.get("decline_all"):
        st.ca_eligible = []
        ctx.emit("no_counterattack", f"{rule}: no further counterattacks", rule=rule)
        st.tasks.append({"t": "combat_phase_end"})
        return True
    st.tasks.append({"t": "counterattacks"})
    st.ca_done_hexes.append(option["from"])
    if option.get("decline"):
        ctx.emit("no_counterattack", f"{rule}: no counterattack from {option['from']}", rule=rule)
        return True
    return False


def attack_total(ctx: Ctx, c: dict[str, Any],
                 strength: Callable[[Ctx, dict[str, Any], str], tuple[int, list[str]]]) -> tuple[int, list[dict[str, Any]]]:
    """The attack's total: each attacking and supporting unit's strength, with the notes that explain it."""
    total = 0
    parts = []
    for uid in list(c["attackers"]) + list(c.get("support", [])):
        v, notes = strength(ctx, c, uid)
        total += v
        parts.append({"unit": uid, "value": v, "notes": notes})
    return total, parts


def attack_choices(ctx: Ctx, side: str, units: list[str], target: str,
                   check_attacker: Callable[[Ctx, str, str, str], None],
                   bombard_problem: Callable[[Ctx, str, str, str], tuple[str, str] | None]) -> dict[str, Any]:
    """For the page's attack builder: which of the selected `units` may attack `target` (the edition's
    `check_attacker` raises the rule that forbids it), which guns may support it with fire (its `bombard_problem`),
    which leaders stand with the attackers to lend their factors (not ineffective); the refusals of the others."""
    attackers: list[str] = []
    support: list[str] = []
    refused: list[dict[str, str]] = []
    for u in units:
        if ctx.is_leader(u):
            continue
        ok = False
        why: IllegalCommand | None = None
        try:
            check_attacker(ctx, side, u, target)
            attackers.append(u)
            ok = True
        except IllegalCommand as e:
            why = e
        if ctx.kind(u) is UnitKind.ARTILLERY and bombard_problem(ctx, side, u, target) is None:
            support.append(u)
            ok = True
        if not ok and why is not None:
            refused.append({"unit": u, "rule": why.rule, "message": why.message})
    hexes = {ctx.u(u).hex for u in attackers}
    leaders = [u for u in units if ctx.is_leader(u) and ctx.u(u).hex in hexes and not ctx.u(u).ineffective]
    return {"attackers": attackers, "support": support, "leaders": leaders, "refused": refused}


def commit_attack(ctx: Ctx, c: dict[str, Any], attacked: bool) -> None:
    """An attack declared: its units have attacked, each attacking hex has its one target, the target hex has been
    attacked (`attacked`), and the defender's choice, then the resolution, are queued."""
    st = ctx.st
    for uid in c["attackers"] + c.get("support", []):
        st.units[uid].attacked = True
        h = st.units[uid].hex
        if h is not None and uid not in c.get("support", []):
            st.attack_from[h] = c["target"]
    if attacked and c["target"] not in st.attacked_hexes:
        st.attacked_hexes.append(c["target"])
    st.combat = c
    st.tasks.append({"t": "combat_resolve"})
    st.tasks.append({"t": "combat_defenders"})


def defender_options(ctx: Ctx, c: dict[str, Any], participant_sets: Callable[[Ctx, str, list[str]], list[list[str]]],
                     eligible_leaders: Callable[[Ctx, str, str, list[str]], list[str]]) -> list[dict[str, Any]]:
    """The defender's choices: each legal set of participants (the edition's `participant_sets`), each primary unit
    of it, with or without each leader that may join (`eligible_leaders`)."""
    target = c["target"]
    side = c["defender"]
    options: list[dict[str, Any]] = []
    for group in participant_sets(ctx, target, ctx.combat_units_at(target, side)):
        leaders = eligible_leaders(ctx, target, side, group)
        for primary in group:
            for ldr in [None] + leaders:
                label = f"{ctx.name(primary)} primary" + (f" with {ctx.names([u for u in group if u != primary])}" if len(group) > 1 else "")
                label += f", {ctx.name(ldr)} leading" if ldr else ""
                oid = f"{primary}|{'+'.join(sorted(group))}|{ldr or '-'}"
                options.append({"id": oid, "label": label, "units": group, "primary": primary, "leader": ldr})
    return options


def losing_groups(ctx: Ctx, c: dict[str, Any], loser_side: str) -> dict[str, list[str]]:
    """Hex -> every unit of the losing side in the hexes that took part (stacked non-participants share the result),
    except supporting artillery out of an EZOC."""
    if loser_side == c["defender"]:
        hexes = [c["target"]]
    else:
        hexes = sorted({h for u in c["attackers"] if (h := ctx.u(u).hex) is not None})
    exempt = {u for u in c.get("support", []) if not ctx.in_ezoc(ctx.u(u).hex or "", c["attacker"])}
    out: dict[str, list[str]] = {}
    for h in hexes:
        units = [u for u in ctx.units_at(h) if ctx.side_of(u) == loser_side and u not in exempt]
        if units:
            out[h] = units
    return out


def advance_next(ctx: Ctx, task: dict[str, Any], moved: bool) -> None:
    """After a unit's first hex of advance, the second when the defenders routed (`steps` 2)."""
    if moved and task["step"] == 1 and task.get("steps", 2) >= 2:
        ctx.st.tasks.append(dict(task, step=2))


def queue_advances(ctx: Ctx, c: dict[str, Any]) -> None:
    """7.9 of both seeds: each participating attacker that is not disrupted or ineffective, not artillery and not in
    terrain the TEC keeps it in may advance; one task each."""
    tasks = []
    for u in c["attackers"]:
        s = ctx.u(u)
        if s.status != STATUS_MAP or s.disrupted or s.ineffective or ctx.kind(u) is UnitKind.ARTILLERY or s.hex is None:
            continue
        if ctx.d(u).tec_class in ctx.sc.terrain_at(s.hex).no_advance_from:
            continue
        tasks.append({"t": "advance_unit", "unit": u, "step": 1, "steps": c["advance"], "target": c["target"]})
    ctx.st.tasks.extend(reversed(tasks))


# --- charges and counterattacks ---------------------------------------------------------------------
def charge_target_problem(ctx: Ctx, side: str, from_hex: str, target: str, rule: str, clear: Callable[[str], bool],
                          chargeable: str) -> tuple[str, str] | None:
    """A charge's target seen from the hex it is made from: enemy combat units, adjacent, in terrain `clear` allows
    (`chargeable` names it), across no hexside terrain."""
    if not ctx.combat_units_at(target, ctx.enemy(side)):
        return rule, f"{target} holds no enemy combat units to charge"
    if not ctx.sc.grid.is_adjacent(from_hex, target):
        return rule, f"the charge must end adjacent to {target}"
    if not clear(target):
        return rule, f"{target} is {ctx.sc.terrain_at(target).name}: only {chargeable} may be charged"
    if ctx.sc.features_between(from_hex, target):
        return rule, f"a charge may not cross hexside terrain ({from_hex}-{target})"
    return None


def counterattack_moves(ctx: Ctx, hex_: str, group: list[str]) -> list[tuple[str | None, str]]:
    """(hex moved to first or None, target): each adjacent hex of the phasing player's, or with none adjacent, each
    one next to a hex the group may move one hex into (EZOC to EZOC allowed)."""
    phasing = ctx.st.active
    side = ctx.enemy(phasing)
    grid = ctx.sc.grid
    moves: list[tuple[str | None, str]] = [(None, t) for t in grid.neighbors(hex_) if ctx.combat_units_at(t, phasing)]
    if not moves:
        for m in grid.neighbors(hex_):
            if not ctx.enemy_occupied(m, side) and ctx.group_can_enter(group, hex_, m):
                moves += [(m, t) for t in grid.neighbors(m) if ctx.combat_units_at(t, phasing)]
    return moves


def counterattack_choices(ctx: Ctx, hex_: str, move_to: str | None, target: str, attackers: list[str],
                          preview: Callable[[str], dict[str, Any]]) -> list[dict[str, Any]]:
    """One option per primary unit for a counterattack from `hex_` (first moving to `move_to`) on `target`."""
    out = []
    for primary in attackers:
        label = (f"{ctx.names(attackers)} from {hex_}" + (f" move to {move_to} and" if move_to else "")
                 + f" counterattack {target} ({ctx.name(primary)} primary)")
        out.append({"id": f"{hex_}>{move_to + '>' if move_to else ''}{target}|{primary}", "label": label, "from": hex_,
                    "move_to": move_to, "target": target, "attackers": attackers, "primary": primary,
                    "hexes": [target], "preview": preview(primary)})
    return out


def decline_option(hex_: str) -> dict[str, Any]:
    """A hex may decline its counterattack."""
    return {"id": f"decline:{hex_}", "label": f"No counterattack from {hex_}", "from": hex_, "decline": True}


DECLINE_ALL: dict[str, Any] = {"id": "decline_all", "label": "No (further) counterattacks", "decline_all": True}


def counterattack_movers(ctx: Ctx, hex_: str, side: str, attackers: list[str]) -> list[str]:
    """The counterattackers and the leaders with them, who move one hex together before attacking."""
    return [u for u in ctx.units_at(hex_) if ctx.side_of(u) == side and (u in attackers or ctx.is_leader(u))]


def end_phase_command(ctx: Ctx, side: str, finish_setup: Callable[[Ctx, str], None], chargers: list[str],
                      end_phase: Callable[[Ctx], None]) -> None:
    """`end_phase`: a side's set-up is done; a combat phase ends with the counterattacks once every charge move has
    been followed by its charge (9.2 of both seeds, `chargers` those still to charge); any other phase ends."""
    st = ctx.st
    if st.phase == PHASE_SETUP:
        finish_setup(ctx, side)
        return
    if st.phase == PHASE_COMBAT:
        if chargers:
            raise IllegalCommand("9.2", f"declared charges must be made first: {ctx.names(chargers)}")
        st.ca_stage = True
        st.tasks.append({"t": "counterattacks"})
        return
    end_phase(ctx)
