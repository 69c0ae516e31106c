"""Quick Play's own invariants, checked by the simulator after every command (kernel/invariants.py runs them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.core import Ctx
from ..kernel.scenario import UnitKind
from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, PHASE_OVER, STATUS_MAP

if TYPE_CHECKING:
    from ..kernel.game import Game


def check_quickplay_invariants(game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
    sc = Ctx.of(game).sc
    st = game.state
    problems: list[str] = []
    occupied: dict[str, list[str]] = {}
    for uid, s in st.units.items():
        d = sc.units[uid]
        if s.disrupted and d.kind is not UnitKind.INFANTRY:
            problems.append(f"{uid}: a {d.kind.value} marked disrupted (only brigades/regiments disrupt)")
        if s.ineffective and d.kind is UnitKind.INFANTRY:
            problems.append(f"{uid}: a brigade marked ineffective (brigades disrupt instead)")
        if s.status == STATUS_MAP and s.hex is not None:
            occupied.setdefault(s.hex, []).append(uid)
    for hex_, unit in st.squares.items():
        if st.units[unit].hex != hex_:
            problems.append(f"square at {hex_} formed by {unit}, which is elsewhere")
    now = (st.turn, st.phase, st.active)
    ended_phase = phase_before != now and phase_before[1] in (PHASE_MOVEMENT, PHASE_COMBAT)
    if ended_phase and st.phase != PHASE_OVER:
        # R4: a hex over-stacked when the phase ended was penalised then. Its units may already have recovered
        # in an automatic recovery phase run by the same command (11.3), so the proof is the penalty event.
        penalised = {e.get("hex") for e in events if e.get("type") == "overstacked"}
        for hex_, uids in occupied.items():
            if not game.ruleset.stacking_ok([sc.units[u].kind for u in uids]) and hex_ not in penalised:
                fresh = [u for u in uids if sc.units[u].kind.is_combat and not st.units[u].disrupted and not st.units[u].ineffective]
                if fresh:
                    problems.append(f"{hex_}: over-stacked after the phase with unpenalised {fresh}")
    return problems
