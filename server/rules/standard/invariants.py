"""The Standard rules' own invariants, checked after every command by the simulator (kernel/invariants.py runs
these besides the kernel's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.state import (
    PHASE_COMBAT,
    PHASE_MOVEMENT,
    PHASE_OVER,
    PHASE_SETUP,
    STATUS_CAPTURED,
    STATUS_MAP,
    STATUS_OFFBOARD,
    STATUS_RETURNING,
    STATUS_UNPLACED,
)
from .context import StdCtx
from .scenario import Kind
from .stacking import counting_units

if TYPE_CHECKING:
    from ..kernel.game import Game


def check_standard_invariants(game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
    ctx = StdCtx.of(game)
    sc = ctx.sc
    st = game.state
    problems: list[str] = []
    for uid, s in st.units.items():
        d = sc.units[uid]
        if s.disrupted and not d.kind.is_combat:
            problems.append(f"{uid}: a {d.kind.value} marked disrupted (2.8: combat units only)")
        if s.ineffective and not d.kind.has_ineffective_side:
            problems.append(f"{uid}: a {d.kind.value} marked ineffective (2.9)")
        if s.status == STATUS_RETURNING and s.entry_turn is None:
            problems.append(f"{uid}: on the TRT without a box (7.10, 11.2)")
        if s.status == STATUS_UNPLACED and st.phase != PHASE_SETUP:
            problems.append(f"{uid}: still unplaced after the set-up (17.2)")
        if d.kind in (Kind.HQ, Kind.TRAINS) and s.status not in (STATUS_MAP, STATUS_CAPTURED,
                                                                  STATUS_OFFBOARD, STATUS_UNPLACED):
            problems.append(f"{uid}: an HQ or trains with status {s.status} (12.1, 12.2)")
        if (s.status == STATUS_MAP and s.hex is not None and d.kind in (Kind.HQ, Kind.TRAINS)
                and ctx.in_ezoc(s.hex, d.side) and uid not in ctx.inactive() and st.phase != PHASE_OVER):
            problems.append(f"{uid}: active in an enemy zone of control (12.1, 12.2)")
    for u in ctx.x.get("inactive", []):
        if sc.units[u].kind not in (Kind.HQ, Kind.TRAINS):
            problems.append(f"{u}: marked inactive but not an HQ or trains")
    if st.phase not in (PHASE_SETUP, PHASE_MOVEMENT, PHASE_COMBAT, PHASE_OVER):
        problems.append(f"phase {st.phase} is not one of 3.2's")
    if ctx.x.get("declared") and st.phase != PHASE_MOVEMENT:
        problems.append("a declared move outlived its movement phase (4.4)")
    if st.phase == PHASE_COMBAT and st.decision is None and st.combat is not None:
        problems.append("a combat was left unfinished with no decision pending")
    if st.phase == PHASE_MOVEMENT and (st.turn, st.phase, st.active) != phase_before:
        # 5.2: every unit of the phasing side in an overstacked hex at the start of its movement phase rolls
        over = {h for h in {s.hex for s in st.units.values() if s.hex is not None}
                if h is not None and len(counting_units(sc, st.units, h)) > 3}
        marked = set(ctx.x.get("overstacked", []))
        for u in sc.side_units[st.active]:
            if st.units[u].hex in over and sc.units[u].kind.is_combat and u not in marked:
                problems.append(f"{u}: began its movement phase overstacked without rolling for its MA (5.2)")
    if phase_before[1] == PHASE_COMBAT and st.phase == PHASE_MOVEMENT:
        # 7.2 (S20): a combat phase has ended: each triggered defender was attacked or had its fortune of war
        done = set(ctx.x.get("attacked_units", [])) | set(ctx.x.get("fow_7_2_given", []))
        for u in sorted(ctx.x.get("triggered", {})):
            if u not in done and st.units[u].status == STATUS_MAP:
                problems.append(f"{u}: a triggered defender neither attacked nor given its fortune of war (7.2)")
    for e in events:
        if e.get("type") == "move" and e.get("rule") == "4.2":
            path = e.get("path", [])
            if any(h not in sc.grid for h in path):
                problems.append(f"a move left the map: {path}")
    return problems
