"""Quick Play 2013's own invariants, checked by the simulator after every command (kernel/invariants.py runs them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.core import Ctx
from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, PHASE_OVER, STATUS_MAP
from .stacking import MOST_UNITS
from .status import FLIPS_INEFFECTIVE

if TYPE_CHECKING:
    from ..kernel.game import Game


def check_invariants(game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
    sc = Ctx.of(game).sc
    st = game.state
    problems: list[str] = []
    occupied: dict[str, list[str]] = {}
    for uid, s in st.units.items():
        d = sc.units[uid]
        if s.ineffective and d.kind not in FLIPS_INEFFECTIVE:
            problems.append(f"{uid}: an infantry unit marked ineffective (8.1(2), 9.1(1): only artillery, cavalry, leaders)")
        if s.disrupted and not d.kind.is_combat:
            problems.append(f"{uid}: a leader marked disrupted")
        if s.status == STATUS_MAP and s.hex is not None:
            occupied.setdefault(s.hex, []).append(uid)
        if s.status != STATUS_MAP and s.charging is not None:
            problems.append(f"{uid}: off the map but marked as charging")
    for hex_, unit in st.squares.items():
        if st.units[unit].hex != hex_:
            problems.append(f"square at {hex_} formed by {unit}, which is elsewhere")
    for side, n in st.replacements.items():
        if n < 0:
            problems.append(f"{side} has {n} replacement steps")
    now = (st.turn, st.phase, st.active)
    if phase_before != now and phase_before[1] in (PHASE_MOVEMENT, PHASE_COMBAT) and st.phase != PHASE_OVER:
        # 5.0: a hex holding more than three units when the phase ended was disrupted then.
        penalised = {e.get("hex") for e in events if e.get("type") == "overstacked"}
        for hex_, uids in occupied.items():
            for side in sc.side_order:
                mine = [u for u in uids if sc.units[u].side == side and sc.units[u].kind.is_combat]
                if len(mine) > MOST_UNITS and hex_ not in penalised:
                    problems.append(f"{hex_}: {len(mine)} units after the phase ended and no 5.0 disruption")
    return problems
