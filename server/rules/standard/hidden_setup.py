"""19.8 B creating the hidden movement boxes in the owner's set-up (17.1-17.3, S76; docs/commands.md):

* `hm_box {box, units}`: the owner fills box `box` (A-D, 19.8 A, and any the scenario names) with these units (the
  box's whole content; `[]` empties it): units of the set-up placed in areas (unplaced or placed) or already boxed,
  of the formations the scenario lets hide (any under the free set-up, 17.3), never an HQ or trains; one formation a
  box unless the scenario's `shared` lists them together (C and R), a formation split among boxes as the owner
  likes.  A unit taken out of every box goes back to its area, unplaced; one the scenario sets up nowhere but in a
  box stays boxed.  The box's markers stay where they were if they still qualify for the new units, else come off.
* `hm_markers {box, hexes, real}`: both markers of the box, on two different hexes (face up, unstacked: never with
  each other, another marker or a combat unit), each on or adjacent to a hex assigned to one of the box's units
  (its area's hexes or printed hex, or the scenario's markers for a unit boxed there), and hidden from the enemy
  (19.8 D: no enemy unit on the map sees it, hidden.exposed); `real`: 1 or 2, the real one.

Both are secret to the owner (SECRET_HIDDEN: told to the owner alone, the command record too); the markers wait in
the hidden block's `setup` until the owner ends its set-up, when they go on the map face up and the opponent learns
where the markers stand, never which is real nor what the boxes hold.  The scenario's boxes with markers are the
historical default (kept unless changed, as "place the rest as printed" keeps the printed hexes).
"""

from __future__ import annotations

import random
from typing import Any

from ..kernel import hidden as kh
from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.state import PHASE_SETUP, STATUS_HIDDEN, STATUS_MAP, STATUS_UNPLACED
from ..kernel.visibility import SECRET_HIDDEN, audience
from .context import StdCtx
from .hidden import exposed
from .scenario import Kind
from .setup import FREE_SETUP, areas_in_play, pinned_hexes

RULE = "19.8 B"
BOXES = ("A", "B", "C", "D")  # 19.8 A: four boxes


def box_names(ctx: StdCtx) -> list[str]:
    hm = ctx.sc.hidden_movement
    if hm is None:
        return []
    return sorted({*BOXES, *hm.names, *(b.name for b in hm.boxes)})


def setting_up(ctx: StdCtx, side: str) -> bool:
    """The owner's set-up phase with boxes to fill."""
    return (ctx.sc.hidden_movement is not None and kh.owner(ctx.st) == side and ctx.st.phase == PHASE_SETUP
            and ctx.st.active == side)


def begin(ctx: StdCtx) -> None:
    """17.1: a set-up phase for the owner is coming: the scenario's markers wait, its secret, until it ends."""
    b = kh.block(ctx.st)
    if b is None:
        return
    kh.hold_for_setup(ctx.st)
    for name in box_names(ctx):
        b["boxes"].setdefault(name, [])


def _free(ctx: StdCtx, side: str) -> bool:
    return bool(ctx.st.options.get(FREE_SETUP)) and side in ctx.sc.free_setup


def _scenario_box_units(ctx: StdCtx) -> set[str]:
    hm = ctx.sc.hidden_movement
    return {u for b in (hm.boxes if hm else ()) for u in b.units}


def unit_problem(ctx: StdCtx, side: str, uid: str) -> str | None:
    """Why `uid` may not go into a box at this set-up (None: it may)."""
    hm = ctx.sc.hidden_movement
    assert hm is not None
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        return f"{uid} is not one of your units"
    name = ctx.name(uid)
    if ctx.kind(uid) in (Kind.HQ, Kind.TRAINS):
        return f"{name}: an HQ or trains is never hidden"
    boxed = ctx.st.units[uid].status == STATUS_HIDDEN
    if not boxed and (uid not in areas_in_play(ctx.sc, ctx.st.options) or uid in pinned_hexes(ctx.sc, ctx.st.options)):
        return f"{name} is not a unit of this set-up (only units placed in the set-up may be hidden)"
    form = ctx.sc.units[uid].formation
    if _free(ctx, side) or not hm.formations or boxed and uid in _scenario_box_units(ctx):
        return None
    if form is None and ctx.kind(uid) is Kind.LEADER:
        return None
    if str(form) not in hm.formations:
        return f"{name}'s formation may not be hidden in the historical set-up (only {', '.join(hm.formations)})"
    return None


def _formations(ctx: StdCtx, units: list[str]) -> set[str]:
    return {str(ctx.sc.units[u].formation) for u in units
            if ctx.kind(u) is not Kind.LEADER and ctx.sc.units[u].formation is not None}


def _assigned(ctx: StdCtx, uid: str) -> set[str]:
    """19.8 B: the hexes assigned to the unit: its area's (or printed) hexes; a unit the scenario boxes, that box's
    printed marker hexes."""
    out: set[str] = set()
    area = areas_in_play(ctx.sc, ctx.st.options).get(uid)
    if area is not None:
        out |= set(area.hexes)
    out |= {p.hex for p in ctx.sc.setup if p.unit == uid}
    ap = ctx.sc.areas.get(uid)
    if ap is not None and ap.printed:
        out.add(ap.printed)
    hm = ctx.sc.hidden_movement
    for b in hm.boxes if hm else ():
        if uid in b.units:
            out |= set(b.markers)
    return out


def marker_hex_problem(ctx: StdCtx, side: str, box: str, hex_: str, units: list[str]) -> str | None:
    """Why a marker of `box` (holding `units`) may not be placed at `hex_` now."""
    sc = ctx.sc
    if hex_ not in sc.grid:
        return f"{hex_} is not a hex of the map"
    b = kh.block(ctx.st)
    assert b is not None
    others = {h for bx, m in b.get("setup", {}).items() if bx != box for h in m["hexes"]}
    if hex_ in others or hex_ in kh.marker_hexes(ctx.st):
        return f"{hex_} holds another marker: markers are placed unstacked"
    if any(ctx.kind(u).is_combat or ctx.kind(u) is Kind.TRAINS for u in ctx.units_at(hex_)):
        return f"{hex_} holds a combat unit or trains: a marker never stacks with them (19.8 C)"
    if not sc.may_stand("infantry", hex_):
        return f"{hex_}: prohibited terrain for the marker (it moves as infantry, 19.8 C)"
    near = {hex_, *sc.grid.neighbors(hex_)}
    if not any(near & _assigned(ctx, u) for u in units):
        return f"{hex_} is neither on nor adjacent to a hex assigned to one of box {box}'s units"
    seer = exposed(ctx, hex_, side)
    if seer is not None:
        return f"{hex_} is in sight of the enemy at {seer}: a marker is placed in a hidden hex (19.8 D)"
    return None


def _markers_ok(ctx: StdCtx, side: str, box: str, units: list[str], hexes: list[str]) -> bool:
    return bool(units) and all(marker_hex_problem(ctx, side, box, h, units) is None for h in hexes)


def _box(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> str:
    if not setting_up(ctx, side):
        raise IllegalCommand(RULE, "the hidden movement boxes are filled by their owner during its set-up")
    box = cmd.get("box")
    if box not in box_names(ctx):
        raise IllegalCommand(RULE, f"name one of the boxes {', '.join(box_names(ctx))}")
    return str(box)


def cmd_hm_box(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"box": "id"}, {})
    box = _box(ctx, side, cmd)
    units = cmd.get("units")
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units) or len(set(units)) != len(units):
        raise IllegalCommand(RULE, "'units' lists the box's units, each once")
    for u in units:
        why = unit_problem(ctx, side, u)
        if why:
            raise IllegalCommand(RULE, why)
    forms = _formations(ctx, units)
    hm = ctx.sc.hidden_movement
    assert hm is not None
    if len(forms) > 1 and not any(forms <= g for g in hm.shared):
        raise IllegalCommand(RULE, f"a box holds the units of one formation only, not of {', '.join(sorted(forms))}")
    st = ctx.st
    b = kh.block(st)
    assert b is not None
    old = list(b["boxes"].get(box, []))
    stuck = [u for u in old if u not in units and u in _scenario_box_units(ctx)
             and u not in areas_in_play(ctx.sc, st.options)]
    if stuck:
        raise IllegalCommand(RULE, f"{ctx.names(stuck)} set up in a box only (the scenario gives no other place)")
    for other, us in b["boxes"].items():  # a unit is in one box at most
        if other != box:
            b["boxes"][other] = [u for u in us if u not in units]
            _check_markers(ctx, side, other)
    for u in old:
        if u not in units:
            s = st.units[u]
            s.hex, s.status, s.provisional = None, STATUS_UNPLACED, False
    for u in units:
        s = st.units[u]
        s.hex, s.status, s.provisional = None, STATUS_HIDDEN, False
    b["boxes"][box] = list(units)
    _check_markers(ctx, side, box)
    ctx.dirty()
    with ctx.private_to(audience(ctx.sc, side, SECRET_HIDDEN)):
        ctx.emit("hm_box", f"19.8 B: box {box} holds {ctx.names(units) if units else 'nothing'}", box=box,
                 units=list(units), rule=RULE)


def _check_markers(ctx: StdCtx, side: str, box: str) -> None:
    """The box's markers stay if they still qualify for its units, else come off."""
    b = kh.block(ctx.st)
    assert b is not None
    m = b.get("setup", {}).get(box)
    if m is not None and not _markers_ok(ctx, side, box, b["boxes"].get(box, []), m["hexes"]):
        del b["setup"][box]


def cmd_hm_markers(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"box": "id"}, {})
    box = _box(ctx, side, cmd)
    hexes, real = cmd.get("hexes"), cmd.get("real")
    if not isinstance(hexes, list) or len(hexes) != 2 or not all(isinstance(h, str) for h in hexes):
        raise IllegalCommand(RULE, "'hexes' names the two hexes of the box's markers")
    if hexes[0] == hexes[1]:
        raise IllegalCommand(RULE, "both markers are placed unstacked, on two different hexes")
    if real not in (1, 2) or isinstance(real, bool):
        raise IllegalCommand(RULE, "'real' is 1 or 2: which of the two markers is the real one")
    b = kh.block(ctx.st)
    assert b is not None
    units = b["boxes"].get(box, [])
    if not units:
        raise IllegalCommand(RULE, f"box {box} holds no units: fill it first")
    for h in hexes:
        why = marker_hex_problem(ctx, side, box, h, units)
        if why:
            raise IllegalCommand(RULE, why)
    b.setdefault("setup", {})[box] = {"hexes": list(hexes), "real": int(real)}
    ctx.dirty()
    with ctx.private_to(audience(ctx.sc, side, SECRET_HIDDEN)):
        ctx.emit("hm_markers", f"19.8 B: box {box}'s markers at {hexes[0]} and {hexes[1]} (real: {hexes[real - 1]})",
                 box=box, hexes=list(hexes), real=int(real), rule=RULE)


def end_problem(ctx: StdCtx, side: str) -> tuple[str, str] | None:
    """19.8 B: every box with units has both markers placed (and still in hidden hexes)."""
    b = kh.block(ctx.st)
    if b is None or kh.owner(ctx.st) != side or "setup" not in b:
        return None
    for box, units in sorted(b["boxes"].items()):
        m = b["setup"].get(box)
        if units and m is None:
            return RULE, f"box {box} holds units but its markers are not placed"
        if units and m is not None and not _markers_ok(ctx, side, box, units, m["hexes"]):
            return RULE, f"box {box}'s markers no longer stand in hexes hidden from the enemy: place them again"
    return None


def finish(ctx: StdCtx, side: str) -> None:
    """The owner's set-up ends: the markers go on the map face up (where, public; which is real, never)."""
    b = kh.block(ctx.st)
    if b is None or kh.owner(ctx.st) != side or "setup" not in b:
        return
    placed = kh.place_setup_markers(ctx.st)
    if placed:
        where = ", ".join(f"{m} at {kh.markers(ctx.st)[m]['hex']}" for m in placed)
        ctx.emit("hm_placed", f"19.8 B: {ctx.sc.sides[side].name} places hidden movement markers: {where}",
                 markers=placed, rule=RULE)


# --- the bots' and the page's -----------------------------------------------------------------------------------------
def eligible_units(ctx: StdCtx, side: str) -> list[str]:
    return sorted(u for u in ctx.sc.side_units[side] if ctx.st.units[u].status in (STATUS_UNPLACED, STATUS_MAP,
                                                                                   STATUS_HIDDEN)
                  and unit_problem(ctx, side, u) is None)


def marker_hexes(ctx: StdCtx, side: str, box: str) -> list[str]:
    """Every hex a marker of `box` may be placed in now."""
    b = kh.block(ctx.st)
    units = [] if b is None else b["boxes"].get(box, [])
    if not units:
        return []
    near = {n for u in units for h in _assigned(ctx, u) for n in (h, *ctx.sc.grid.neighbors(h))}
    return sorted(h for h in near if marker_hex_problem(ctx, side, box, h, units) is None)


def setup_commands(ctx: StdCtx, side: str, rng: random.Random) -> list[dict[str, Any]]:
    """The bots' (legal.py): markers for a box that needs them (else a box emptied back), now and then a unit
    added to a box of its formation, or a box's markers placed again."""
    if not setting_up(ctx, side):
        return []
    b = kh.block(ctx.st)
    assert b is not None
    out: list[dict[str, Any]] = []
    for box, units in sorted(b["boxes"].items()):
        if not units or (box in b.get("setup", {}) and rng.random() < 0.8):
            continue
        hexes = marker_hexes(ctx, side, box)
        if len(hexes) >= 2:
            pair = rng.sample(hexes, 2)
            out.append({"type": "hm_markers", "box": box, "hexes": pair, "real": rng.choice((1, 2))})
        elif box not in b.get("setup", {}) and not set(units) & _scenario_box_units(ctx):
            out.append({"type": "hm_box", "box": box, "units": []})
    if rng.random() < 0.2:
        loose = [u for u in eligible_units(ctx, side) if ctx.st.units[u].status != STATUS_HIDDEN]
        if loose:
            u = rng.choice(loose)
            for box, units in sorted(b["boxes"].items()):
                if units and _formations(ctx, [*units, u]) == _formations(ctx, units):
                    out.append({"type": "hm_box", "box": box, "units": [*units, u]})
                    break
    return out


def setup_options(ctx: StdCtx, side: str) -> dict[str, Any] | None:
    """The page's: each box's units, its markers so far and the hexes they may take; the units eligible."""
    if not setting_up(ctx, side):
        return None
    b = kh.block(ctx.st)
    assert b is not None
    boxes = {box: {"units": list(units), "markers": b.get("setup", {}).get(box),
                   "hexes": marker_hexes(ctx, side, box)} for box, units in sorted(b["boxes"].items())}
    return {"rule": RULE, "boxes": boxes, "eligible": eligible_units(ctx, side)}


COMMANDS = {"hm_box": cmd_hm_box, "hm_markers": cmd_hm_markers}
COMMAND_FIELDS = {"hm_box": frozenset({"box", "units"}), "hm_markers": frozenset({"box", "hexes", "real"})}

__all__ = ["BOXES", "COMMANDS", "COMMAND_FIELDS", "RULE", "begin", "box_names", "cmd_hm_box", "cmd_hm_markers",
           "eligible_units", "end_problem", "finish", "marker_hex_problem", "marker_hexes", "setting_up",
           "setup_commands", "setup_options", "unit_problem"]
