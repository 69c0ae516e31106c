"""19.8 hidden movement in the Standard rules, over the kernel's boxes and markers (kernel/hidden.py).

* The scenario's `hidden_movement` block (hidden_scenario.py, docs/scenarios.md): the owner, the formations that may
  be hidden, the boxes (units, both markers' hexes, which is real). A box without markers is not in play (a set-up
  phase fills it later).
* 19.8 D what reveals a marker (`sees`, `exposed`): any enemy unit (leaders, HQs and trains too) with a line of
  sight to its hex: 8.6's line (sight.has_los, 19.2's ridges), the light's reach (8.6, 14.2(5), 14.3(3)) and 19.4's
  rain limits; an adjacent hex is always in sight (S55).
* The instant one comes into sight (`interrupt`, asked by the task driver before every step: an enemy's move,
  retreat, advance, a weather change, a reinforcement's entry...) its box is revealed (`reveal_box`): both markers
  come off and its units stand on the REAL marker's hex (S53), a pending decision set aside until they are placed.
* 19.8 E the owner places each unit on or adjacent to that hex (`hm_deploy` decisions, stacking and overstacking
  allowed, never on another marker or an enemy), then each unit placed in or adjacent to an EZOC checks morale and is
  disrupted if it fails.  An enemy move halted by the reveal (moving.py) ends there if it now stands in an EZOC
  (S54), otherwise it goes on with the MP it has left.
"""

from __future__ import annotations

from typing import Any

from ..kernel import hidden as kh
from ..kernel.state import PHASE_SETUP
from .context import StdCtx
from .sight import LOS_DAY, has_los
from .weather import los_limit

RULE = "19.8"
_LIGHT_REACH = {"day": LOS_DAY, "twilight": 1, "night": 0}  # 8.6, 14.3(3), 14.2(5)


# --- 19.8 D what reveals ------------------------------------------------------------------------------------------
def sees(ctx: StdCtx, observer: str, hex_: str) -> bool:
    """Whether a unit at `observer` has a line of sight to `hex_` now (S55: an adjacent hex always)."""
    dist = ctx.sc.grid.distance(observer, hex_)
    if dist <= 1:
        return True
    if dist > _LIGHT_REACH[ctx.light()]:
        return False
    limit = los_limit(ctx.weather(), hill=ctx.sc.terrain_at(observer).hill)
    if limit is not None and dist > limit:
        return False
    return has_los(ctx, observer, hex_)


def observers(ctx: StdCtx, owner: str) -> list[str]:
    """The hexes of the owner's enemy's units on the map: every unit looks, leaders, HQs and trains too (19.8 D)."""
    enemy = ctx.enemy(owner)
    return sorted({h for h, us in ctx.occupancy().items() if any(ctx.side_of(u) == enemy for u in us)})


def exposed(ctx: StdCtx, hex_: str, owner: str, seers: list[str] | None = None) -> str | None:
    """The hex of an enemy unit that sees `hex_` (None: it is hidden from all)."""
    for h in observers(ctx, owner) if seers is None else seers:
        if sees(ctx, h, hex_):
            return h
    return None


def halt_index(ctx: StdCtx, side: str, path: list[str], first: int) -> int | None:
    """19.8 D: the first hex of an enemy move's path (from index `first`) from which a marker is in sight."""
    owner = kh.owner(ctx.st)
    if owner is None or side == owner:
        return None
    spots = [m["hex"] for m in kh.markers(ctx.st).values()]
    if not spots:
        return None
    for i in range(first, len(path)):
        if any(sees(ctx, path[i], h) for h in spots):
            return i
    return None


def marker_block(ctx: StdCtx, side: str) -> set[str]:
    """19.8 C: the hexes the side's combat units may not enter (its own markers')."""
    return set(kh.marker_hexes(ctx.st)) if kh.owner(ctx.st) == side else set()


def no_entry(ctx: StdCtx, side: str, combat: bool) -> set[str]:
    """The marker hexes a mover of `side` never enters: the owner's combat units its own (19.8 C); the enemy every
    marker's, whose units would stand on it when revealed (a move halts before, S54; a fortune's move, S75)."""
    owner = kh.owner(ctx.st)
    if owner is None:
        return set()
    return set(kh.marker_hexes(ctx.st)) if side != owner or combat else set()


# --- revealing and deploying ----------------------------------------------------------------------------------------
def interrupt(ctx: StdCtx) -> bool:
    """19.8 D: the instant a marker is in sight of an enemy unit, its box is revealed (asked before every step)."""
    b = kh.block(ctx.st)
    if b is None or not b["markers"] or b.get("deploying") or ctx.st.phase == PHASE_SETUP:
        return False  # S76: the enemy's set-up placements are secret until it ends: they look from then on
    owner = str(b["owner"])
    seers = observers(ctx, owner)
    if not seers:
        return False
    for mid in sorted(b["markers"]):
        spot = b["markers"][mid]["hex"]
        seer = exposed(ctx, spot, owner, seers)
        if seer is not None:
            reveal_box(ctx, kh.box_of(ctx.st, mid), f"{mid} at {spot} comes into sight of the enemy at {seer}")
            return True
    return False


def reveal_box(ctx: StdCtx, box: str, why: str) -> None:
    """19.8 C-E: both markers come off, the units stand on the real marker's hex (S53) and are placed one by one;
    a pending decision waits until they are."""
    st = ctx.st
    b = kh.block(st)
    assert b is not None
    real = kh.real_marker(st, box)
    where, units = kh.reveal(st, box)
    for u in units:
        ctx.move_unit(u, where)
    ctx.dirty()
    ctx.rolled = True  # a reveal is an undo barrier, as a die is
    ctx.emit("hm_reveal", f"19.8 D: box {box} is revealed ({why}); its real marker was {real} at {where}"
                          f"{': ' + ctx.names(units) + ' deploy' if units else ''}",
             box=box, marker=real, hex=where, units=list(units), rule="19.8 D")
    if st.decision is not None:
        st.tasks.append({"t": "hm_resume", "decision": st.decision})
        st.decision = None
    b["deploying"] = box
    st.tasks.append({"t": "hm_deploy", "box": box, "hex": where, "units": list(units), "placed": []})


def deploy_hexes(ctx: StdCtx, uid: str, where: str) -> list[str]:
    """19.8 E: the real marker's hex and those adjacent where the unit may stand, free of the enemy and of markers."""
    side = ctx.side_of(uid)
    cls = ctx.kind(uid).tec_class
    spots = set(kh.marker_hexes(ctx.st))
    out = []
    for h in [where, *ctx.sc.grid.neighbors(where)]:
        if h in spots or ctx.enemy_occupied(h, side) or not ctx.sc.may_stand(cls, h):
            continue
        out.append(h)
    return sorted(out) or [where]


def task_deploy(ctx: StdCtx, task: dict[str, Any]) -> None:
    st = ctx.st
    left = [u for u in task["units"] if u not in task["placed"] and ctx.on_map(u)]
    if left:
        uid = left[0]
        hexes = deploy_hexes(ctx, uid, task["hex"])
        st.decision = {
            "side": ctx.side_of(uid), "kind": "hm_deploy", "rule": "19.8 E",
            "text": f"The hidden units at {task['hex']} are revealed: place {ctx.name(uid)} on or next to "
                    f"{task['hex']} (rule 19.8 E)",
            "options": [{"id": h, "label": h, "hex": h} for h in hexes], "hexes": hexes,
            "task": {**task, "unit": uid},
        }
        return
    side = kh.owner(st) or ""
    ezoc = ctx.zoc_of(ctx.enemy(side))
    for u in task["placed"]:
        h = st.units[u].hex
        if not ctx.on_map(u) or h is None or not ctx.kind(u).is_combat:
            continue
        beside = h in ezoc or any(n in ezoc for n in ctx.sc.grid.neighbors(h))
        if beside and not ctx.morale_check(u, "19.8 E", "deployment beside the enemy"):
            ctx.disrupt(u, "19.8 E")
    b = kh.block(st)
    if b is not None:
        b.pop("deploying", None)
    halted_mover_check(ctx)


def decide_deploy(ctx: StdCtx, task: dict[str, Any], option: dict[str, Any]) -> None:
    uid = task["unit"]
    ctx.move_unit(uid, option["id"])
    ctx.emit("hm_deploy", f"19.8 E: {ctx.name(uid)} deploys at {option['id']}", unit=uid, hex=option["id"],
             rule="19.8 E")
    rest = {k: v for k, v in task.items() if k != "unit"}
    rest["placed"] = [*task["placed"], uid]
    ctx.st.tasks.append(rest)


def halted_mover_check(ctx: StdCtx) -> None:
    """S54: an enemy move halted by the reveal that now stands in an EZOC ends there (as entering one would, 6.2)."""
    d = ctx.x.get("declared")
    if not d or not d.get("halted"):
        return
    units = [u for u in d["units"] if ctx.on_map(u)]
    if not units:
        ctx.x["declared"] = None
        return
    h = ctx.st.units[units[0]].hex
    if h is not None and ctx.in_ezoc(h, ctx.side_of(units[0])):
        for u in units:
            ctx.st.units[u].moved = True
        ctx.x["declared"] = None
        ctx.emit("stay", f"19.8 E (S54): {ctx.names(units)} now stand in an enemy zone of control: their move ends",
                 units=units, rule="19.8 E")


__all__ = ["RULE", "decide_deploy", "deploy_hexes", "exposed", "halt_index", "interrupt", "marker_block", "no_entry",
           "observers", "reveal_box", "sees", "task_deploy"]
