"""The fortune of war as the engine plays it (seed 002 12.4, with 7.2, 13.2 and rulings R13, S39, S45, S47, S48).

Each fortune of war a combat owes (combat_results.owe_fow) is played by its receiver as soon as the combat ends
(decision `fortune`): let it go, an enemy combat unit's morale check (failing, disrupted), a friendly unit's
recovery check, an enemy unit moved on a die of 1 or 2 (S39), a friendly stack moved with a rolled MA (decision
`fow_move`) or, in lieu of the move, a unit of the TRT's next box placed (13.2, S45; decision `fow_place`), or a
charge (S47; decision `fow_charge`): the group moves as a charge and attacks at once, its strongest unit leading,
doubled when its primary unit passes its check.

7.2: a triggered defender left unattacked receives a fortune of war (decision `fow`) as soon as the units that
triggered it have completed their combat, or when the phase ends if one of them made none (S20; queued by
close_combat.queue_triggered_fow): a unit of its hex tries to recover, one unit charges as though no EZOC were on
the map, or the hex's units move (R13).

S48: units a fortune of war moves in a combat phase take part in every later combat of the phase in their hex;
moved by their own side's fortune, they must attack each enemy next to them: the phasing player's before the phase
ends (`pending_forced`; attacks.owed_forced keeps the phase from ending), the other player's at once (task
`forced_attack`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..kernel.state import PHASE_COMBAT, STATUS_RETURNING, Status
from .army import reentry_hexes
from .charges import fortune_charges
from .close_combat import open_combat
from .context import StdCtx
from .movement import ma_dice, movement_allowance, printed_side
from .moving import STACK, Plan, capture_trains, reachable
from .recovering import recover
from .scenario import Kind
from .tactics import CHARGE, NO_TACTIC
from .weather import mp_cap

_CAVALRY = (Kind.CAVALRY, Kind.SQUADRON)


def printed_strength(ctx: StdCtx, uid: str) -> int:
    """S47, S48: the strength a fortune of war's charge or forced attack picks its primary unit by (the strongest
    leads) and a forced attack needs above 0: the printed CF, a cavalry unit's charge factor when it has one."""
    side = printed_side(ctx.sc, ctx.st.units[uid])
    return (side.charge or side.cf or 0) if ctx.kind(uid) in _CAVALRY else (side.cf or 0)


# --- 12.4 the fortune of war played ---------------------------------------------------------------------------------
def task_fow_play(ctx: StdCtx, task: dict[str, Any]) -> None:
    owed = ctx.x.get("fow_owed", [])
    entry = owed[task["index"]]
    side = entry["side"]
    ctx.st.decision = {"kind": "fortune", "side": side, "rule": "12.4", "task": task, "options": fow_options(ctx, side),
                       "hexes": [], "fow": dict(entry),
                       "text": f"A fortune of war is yours ({entry['why']}): use it now — shake an enemy unit's "
                               "morale, rally one of yours, move a stack or charge — or let it go "
                               f"(rules {entry['rule']}, 12.4)"}


def decide_fortune(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    entry = ctx.x["fow_owed"][task["index"]]
    entry["played"] = option["id"]
    play_fow_action(ctx, entry["side"], option)


def fow_options(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """12.4: the actions of a fortune of war the engine plays now: let it go, an enemy morale check (any undisrupted
    enemy combat unit), a friendly recovery check (any disrupted or ineffective friendly combat unit, whatever the
    enemy's proximity), an enemy unit's move (S39), a friendly stack's move or, in lieu of it, the placement of a unit
    of the TRT's next box (13.2, S45), and a charge (S47)."""
    out: list[dict[str, Any]] = [{"id": "pass", "action": "pass", "unit": None, "label": "let the fortune of war go"}]
    for u in sorted(ctx.side_units_on_map(ctx.enemy(side))):
        if ctx.kind(u).is_combat and not ctx.st.units[u].disrupted:
            out.append({"id": f"morale:{u}", "action": "enemy_morale", "unit": u,
                        "label": f"{ctx.name(u)} checks morale (12.4: fails, disrupted)"})
    for u in sorted(ctx.side_units_on_map(side)):
        s = ctx.st.units[u]
        if ctx.kind(u).is_combat and (s.disrupted or s.ineffective):
            out.append({"id": f"recover:{u}", "action": "recovery", "unit": u,
                        "label": f"{ctx.name(u)} tries to recover (12.4)"})
    for u in sorted(ctx.side_units_on_map(ctx.enemy(side))):
        if ctx.kind(u).is_combat:
            out.append({"id": f"enemy_move:{u}", "action": "enemy_move", "unit": u,
                        "label": f"try to move {ctx.name(u)} (12.4: on a 1 or 2)"})
    for h in sorted({ctx.st.units[u].hex or "" for u in ctx.side_units_on_map(side) if ctx.kind(u).is_combat}):
        out.append({"id": f"friendly_move:{h}", "action": "friendly_move", "unit": None, "hex": h,
                    "label": f"move the stack at {h} (12.4)"})
    for h in sorted({c["path"][0] for c in fortune_charges(ctx, side)}):
        out.append({"id": f"charge:{h}", "action": "charge", "unit": None, "hex": h,
                    "label": f"charge with the stack at {h} (12.4: doubled if its primary passes its check)"})
    for u in trt_next_box(ctx, side):  # 12.4: in lieu of a move, a unit of the TRT's next box is placed (13.2)
        out.append({"id": f"place:{u}", "action": "friendly_move", "unit": u, "place": True,
                    "label": f"place {ctx.name(u)} from the turn {ctx.st.turn + 1} box of the TRT (12.4, 13.2)"})
    return out


def play_fow_action(ctx: StdCtx, side: str, option: dict[str, Any]) -> None:
    """12.4: carry out a fortune of war's action at once."""
    uid = option.get("unit")
    if option.get("place"):
        fow_place(ctx, side, option["unit"])
        return
    if option.get("action") == "charge":
        fow_charge_choice(ctx, side, option["hex"])
        return
    if option.get("action") == "friendly_move":
        fow_move(ctx, side, [u for u in ctx.units_at(option["hex"]) if ctx.side_of(u) == side
                             and (ctx.kind(u).is_combat or ctx.kind(u) is Kind.LEADER)])
        return
    if option["id"] == "pass" or uid is None:
        ctx.emit("fow", f"12.4: {ctx.sc.sides[side].name} lets the fortune of war go", side=side, rule="12.4")
        return
    if option.get("action") == "enemy_morale":
        if not ctx.morale_check(uid, "12.4", "enemy morale check"):
            ctx.disrupt(uid, "12.4")
        return
    if option.get("action") == "enemy_move":
        (die,) = ctx.roll(1, "fortune of war", ["die"], "12.4", unit=uid)
        if die > 2:
            ctx.emit("fow", f"12.4: die {die}: {ctx.name(uid)} is not moved", unit=uid, rule="12.4")
            return
        fow_move(ctx, side, [uid])
        return
    if ctx.morale_check(uid, "12.4", "friendly recovery check", recovery=True):
        recover(ctx, uid, "12.4")


def fow_charge_choice(ctx: StdCtx, player: str, at: str, unit: str | None = None) -> None:
    """12.4 (S47): the player picks the charge of the stack at `at` (7.2, R13: of that one unit): its group, path
    and target (decision `fow_charge`)."""
    options = [{"id": f"{'+'.join(c['units'])}:{'-'.join(c['path'])}>{c['target']}", **c,
                "label": f"{ctx.names(c['units'])} by {', '.join(c['path'][1:])} into {c['target']}"}
               for c in fortune_charges(ctx, player, at, unit)]
    chargers = [unit] if unit else sorted({u for o in options for u in o["units"]})
    ctx.st.decision = {"kind": "fow_charge", "side": player, "rule": "12.4", "task": {"t": "fow_charge"},
                       "options": options, "hexes": sorted({o["target"] for o in options}),
                       "text": f"{ctx.names(chargers)} {'charges' if len(chargers) == 1 else 'charge'} with the "
                               "fortune of war: choose the charge. Its primary unit checks morale; passing doubles the "
                               "chargers' CF or charge factor (rule 12.4)"}


def decide_fow_charge(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    """12.4 (S47): the group moves as a charge and attacks at once."""
    st = ctx.st
    side = ctx.side_of(option["units"][0])
    units, path, target = list(option["units"]), list(option["path"]), option["target"]
    ctx.passing(units, path)  # 18.1 (S68)
    for u in units:
        ctx.move_unit(u, path[-1])
    ctx.emit("charge", f"12.4: {ctx.names(units)} charge {target}, moving to {path[-1]}", units=units, path=path,
             target=target, rule="12.4")
    capture_trains(ctx, side, path, "12.2, 12.4")
    attackers = [u for u in units if ctx.kind(u).is_combat]
    primary = max(attackers, key=lambda u: (printed_strength(ctx, u), u))  # S47: the strongest unit leads
    cavalry = all(ctx.kind(u) in _CAVALRY for u in attackers)
    enemy = ctx.enemy(side)
    unfought = target not in st.attacked_hexes and not any(u in ctx.x.get("attacked_units", [])
                                                           for u in ctx.units_at(target))
    open_combat(ctx, side, target, attackers, primary, [path[-1]], tactic=CHARGE, cavalry=cavalry, fortune=True)
    if unfought:
        # 12.4: the charge is the target's combat of the phase: the attack slated against it is void (NE)
        st.attacked_hexes.append(target)
        void = [c for c in ctx.x.get("charges", []) if c["target"] == target and c["side"] == enemy]
        if void:
            ctx.x["charges"] = [c for c in ctx.x["charges"] if c not in void]
            ctx.emit("result", f"12.4: the charge declared against {target} by {ctx.names(void[0]['units'])} "
                               "has an NE result", rule="12.4")
        if enemy == st.active:
            for u in ctx.units_at(target):  # the phasing player's target units have had their combat (S47)
                st.units[u].attacked = True
    ctx.emit("attack", f"12.4: {ctx.names(attackers)} attack {target} (a fortune of war's charge)",
             attackers=attackers, target=target, rule="12.4", tactic=CHARGE)


def trt_next_box(ctx: StdCtx, side: str) -> list[str]:
    """12.4: the side's units in the next turn box of the TRT that 13.2 lets be placed somewhere now."""
    return [u for u in ctx.sc.side_units[side]
            if ctx.st.units[u].status == STATUS_RETURNING and ctx.st.units[u].entry_turn == ctx.st.turn + 1
            and reentry_hexes(ctx.sc, ctx.st.units, u, ctx.inactive())]


def fow_place(ctx: StdCtx, player: str, uid: str) -> None:
    """12.4 with 13.2: the player picks where the unit from the TRT's next box is placed (decision `fow_place`)."""
    hexes = reentry_hexes(ctx.sc, ctx.st.units, uid, ctx.inactive())
    ctx.st.decision = {"kind": "fow_place", "side": player, "rule": "12.4", "task": {"t": "fow_place", "unit": uid},
                       "options": [{"id": h, "hex": h, "label": f"at {h}"} for h in hexes], "hexes": hexes,
                       "text": f"{ctx.name(uid)} arrives early from the turn record track: place it on or next to "
                               "the active HQ or a functioning LOC hex, or next to the active trains "
                               "(rules 12.4, 13.2)"}


def decide_fow_place(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    uid = task["unit"]
    ctx.set_status(uid, Status.MAP)
    ctx.move_unit(uid, option["hex"])
    ctx.st.units[uid].entry_turn = None
    ctx.emit("reenter", f"12.4, 13.2: {ctx.name(uid)} is placed at {option['hex']} from the TRT", unit=uid,
             hex=option["hex"], rule="12.4")


def fow_move(ctx: StdCtx, player: str, units: list[str]) -> None:
    """12.4: the units move by the normal movement rules (no march, not off the map) with a rolled MA — the slowest
    unit's for a stack; `player` picks the destination (decision `fow_move`)."""
    combat = [u for u in units if ctx.kind(u).is_combat]
    if not combat:
        return
    owner = ctx.side_of(combat[0])
    start = ctx.st.units[combat[0]].hex
    assert start is not None
    ma = None
    for u in combat:
        n = ma_dice(ctx.sc, ctx.st.units[u])
        dice = ctx.roll(n, "movement allowance", ["MA die"] * n, "12.4", unit=u)
        got = movement_allowance(ctx.sc, ctx.st.units[u], dice)
        ma = got if ma is None else min(ma, got)
    assert ma is not None
    p = Plan(list(units), STACK, start, disengaging=ctx.in_ezoc(start, owner))
    reach = reachable(ctx, owner, p, ma, False)  # 19.4: capped in Heavy Rain
    cap = mp_cap(ctx.weather())
    options: list[dict[str, Any]] = [{"id": "stay", "hex": None, "path": [], "label": "do not move"}]
    options += [{"id": h, "hex": h, "path": path, "label": f"to {h}"} for h, path in sorted(reach.items())]
    task = {"t": "fow_move", "units": units, "friendly": owner == player}
    ctx.st.decision = {"kind": "fow_move", "side": player, "rule": "12.4", "task": task,
                       "options": options, "hexes": sorted(reach),
                       "text": f"The fortune of war moves {ctx.names(units)} from {start} with {ma} MP rolled"
                               f"{f' (at most {cap} MP in Heavy Rain, 19.4)' if cap is not None and ma > cap else ''}: "
                               "choose where they go, or stay (rule 12.4)"}


def decide_fow_move(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if option.get("hex") is None:
        return
    ctx.passing(task["units"], option["path"])  # 18.1 (S68)
    for u in task["units"]:
        ctx.move_unit(u, option["hex"])
    ctx.emit("move", f"12.4: {ctx.names(task['units'])} move to {option['hex']}", units=task["units"],
             path=option["path"], rule="12.4")
    mover = next((ctx.side_of(u) for u in task["units"] if ctx.kind(u).is_combat), None)
    if mover:  # 12.2: normal rules
        capture_trains(ctx, mover, option["path"], "12.2, 12.4")
    if ctx.st.phase == PHASE_COMBAT:
        bind_moved(ctx, task["units"], option["hex"], friendly=task.get("friendly", True))


# --- 12.4: units a fortune of war moves during a combat phase (S48) -------------------------------------------------
def bind_moved(ctx: StdCtx, units: Sequence[str], hex_: str, *, friendly: bool) -> None:
    """12.4 (S48): units moved in a combat phase take part in every later combat of that phase in their final
    hex, even having fought already.  Moved by their own side's fortune, they must also attack every enemy next
    to them: the phasing player's as attacks he must make before the phase ends (others may join them), the other
    player's at once."""
    st = ctx.st
    moved = [u for u in units if ctx.kind(u).is_combat and ctx.on_map(u)]
    if not moved:
        return
    bound = ctx.x.setdefault("bound", {})
    for u in moved:
        bound[u] = hex_
        st.units[u].attacked = False  # "even if it has participated already"
    if not friendly:
        return
    side = ctx.side_of(moved[0])
    targets = forced_targets(ctx, moved, hex_)
    if not targets:
        return
    if side == st.active:
        ctx.x.setdefault("forced", []).extend({"units": moved, "target": t} for t in targets)
        ctx.emit("forced", f"12.4: {ctx.names(moved)} must attack {', '.join(targets)} this phase", units=moved,
                 targets=targets, rule="12.4")
        return
    for t in reversed(targets):
        st.tasks.append({"t": "forced_attack", "units": moved, "target": t})


def forced_targets(ctx: StdCtx, units: Sequence[str], hex_: str) -> list[str]:
    """12.4: the enemy-occupied hexes next to `hex_` these units could attack (7.5: could move into it, CF above 0)."""
    side = ctx.side_of(units[0])
    out = []
    for t in sorted(ctx.sc.grid.neighbors(hex_)):
        if not ctx.combat_units_at(t, ctx.enemy(side)):
            continue
        if all(ctx.sc.could_move(ctx.kind(u).tec_class, hex_, t) and printed_strength(ctx, u) > 0 for u in units):
            out.append(t)
    return out


def pending_forced(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """12.4 (S48): the attacks a fortune's move obliges the phasing player to make, while their units stand
    together next to the target (at night none: 14.2(4) allows no combat but infantry charges)."""
    out: list[dict[str, Any]] = []
    if ctx.light() == "night":
        return out
    for f in ctx.x.get("forced", []):
        units = [u for u in f["units"] if ctx.on_map(u) and ctx.side_of(u) == side]
        if not units:
            continue
        hex_ = ctx.st.units[units[0]].hex
        if hex_ is None or any(ctx.st.units[u].hex != hex_ for u in units) or f["target"] not in forced_targets(
                ctx, units, hex_):
            continue
        out.append({"units": units, "target": f["target"]})
    return out


def forced_for(ctx: StdCtx, side: str, target: str, attackers: Sequence[str]) -> dict[str, Any] | None:
    """The pending forced attack (12.4, S48) on `target` these attackers make, if any."""
    return next((f for f in pending_forced(ctx, side) if f["target"] == target and set(f["units"]) <= set(attackers)),
                None)


def task_forced_attack(ctx: StdCtx, task: dict[str, Any]) -> None:
    """12.4 (S48): units the non-phasing player moved next to the enemy attack at once (no tactic, leader or
    support: the move gave no time to arrange them), the strongest as primary."""
    st = ctx.st
    units = [u for u in task["units"] if ctx.on_map(u)]
    target = task["target"]
    if not units:
        return
    hex_ = st.units[units[0]].hex
    units = [u for u in units if st.units[u].hex == hex_]
    if hex_ is None or target not in forced_targets(ctx, units, hex_) or ctx.light() == "night":
        return  # 14.2(4): at night no combat but infantry charges
    side = ctx.side_of(units[0])
    primary = max(units, key=lambda u: (printed_strength(ctx, u), u))
    if target not in st.attacked_hexes:
        st.attacked_hexes.append(target)
    open_combat(ctx, side, target, units, primary, [hex_], moved_by_fortune=True)
    ctx.emit("attack", f"12.4: {ctx.names(units)}, moved by a fortune of war, attack {target}", attackers=units,
             target=target, rule="12.4", tactic=NO_TACTIC)


# --- 7.2 the fortune of war of an unattacked triggered defender -----------------------------------------------------
def task_fow(ctx: StdCtx, task: dict[str, Any]) -> None:
    units = [u for u in task["units"] if ctx.on_map(u)]
    if not units:
        return
    side = ctx.side_of(units[0])
    options: list[dict[str, Any]] = [{"id": "pass", "unit": None, "label": "let the fortune of war go"}]
    for u in sorted(ctx.combat_units_at(task["hex"], side)):
        s = ctx.st.units[u]
        if s.disrupted or s.ineffective:
            options.append({"id": f"recover:{u}", "unit": u, "label": f"{ctx.name(u)} tries to recover (12.4)"})
    options.append({"id": "move", "unit": None, "label": f"move the units at {task['hex']} (12.4, R13)"})
    for u in sorted(ctx.combat_units_at(task["hex"], side)):
        if fortune_charges(ctx, side, task["hex"], u):
            options.append({"id": f"charge:{u}", "unit": u, "label": f"{ctx.name(u)} charges (12.4, R13)"})
    ctx.st.decision = {"kind": "fow", "side": side, "rule": "7.2", "task": task, "options": options,
                       "hexes": [task["hex"]],
                       "text": f"{ctx.names(units)} at {task['hex']} provoked a fight nobody fought: choose what "
                               f"{'it does' if len(units) == 1 else 'they do'} now with the fortune of war — "
                               f"{_fow_choices(options)} (rules 7.2, 12.4)"}
    if len(options) == 1:
        ctx.emit("fow", f"7.2: {ctx.sc.sides[side].name} has a fortune of war at {task['hex']} with no action to take now",
                 side=side, rule="7.2")
        ctx.st.decision = None


def _fow_choices(options: list[dict[str, Any]]) -> str:
    """7.2 (R13): the fortune's actions open to the hex's units, in words for the decision's text."""
    ids = [o["id"].split(":")[0] for o in options]
    words = [w for k, w in (("move", "move"), ("charge", "charge"), ("recover", "recover")) if k in ids]
    return ", ".join([*words, "or nothing"]) if len(words) > 1 else f"{words[0]} or nothing" if words else "nothing"


def decide_fow(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    if option["id"] == "pass":
        ctx.emit("fow", f"7.2: the fortune of war at {task['hex']} is not used", rule="7.2")
        return
    if option["id"].startswith("charge:"):  # R13: one unit of that hex charges, EZOCs ignored
        fow_charge_choice(ctx, ctx.side_of(option["unit"]), task["hex"], option["unit"])
        return
    if option["id"] == "move":  # R13: the units of that hex move (12.4's friendly move)
        side = ctx.side_of(task["units"][0])
        fow_move(ctx, side, [u for u in ctx.units_at(task["hex"]) if ctx.side_of(u) == side
                             and (ctx.kind(u).is_combat or ctx.kind(u) is Kind.LEADER)])
        return
    uid = option["unit"]
    if ctx.morale_check(uid, "12.4", "friendly recovery check", recovery=True):
        recover(ctx, uid, "12.4")
