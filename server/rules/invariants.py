"""Invariants checked after every command by the simulator (issue: zero violations in random play)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .scenario import UnitKind
from .state import Phase, Status

if TYPE_CHECKING:
    from .game import Game


def check_invariants(game: "Game", events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
    sc = game.scenario
    st = game.state
    problems: list[str] = []
    occupied: dict[str, list[str]] = {}
    for uid, s in st.units.items():
        d = sc.units[uid]
        on_map = s.status == Status.MAP.value
        if on_map != (s.hex is not None):
            problems.append(f"{uid}: status {s.status} with hex {s.hex}")
        if s.hex is not None:
            if s.hex not in sc.grid:
                problems.append(f"{uid}: off-map hex {s.hex}")
                continue
            occupied.setdefault(s.hex, []).append(uid)
            t = sc.terrain_at(s.hex)
            if t.is_prohibited(d.tec_class) and s.hex not in sc.road_hexes:
                problems.append(f"{uid}: in prohibited terrain {t.id} at {s.hex}")
        if s.reduced and d.steps != 2:
            problems.append(f"{uid}: a one-step unit marked reduced")
        if s.disrupted and d.kind is not UnitKind.INFANTRY:
            problems.append(f"{uid}: a {d.kind.value} marked disrupted (only brigades/regiments disrupt)")
        if s.ineffective and d.kind is UnitKind.INFANTRY:
            problems.append(f"{uid}: a brigade marked ineffective (brigades disrupt instead)")
        if s.status not in {x.value for x in Status}:
            problems.append(f"{uid}: unknown status {s.status}")
    for hex_, uids in occupied.items():
        if len({sc.units[u].side for u in uids}) > 1:
            problems.append(f"{hex_}: units of both sides in one hex: {uids}")
    for hex_, unit in st.squares.items():
        if st.units[unit].hex != hex_:
            problems.append(f"square at {hex_} formed by {unit}, which is elsewhere")
    for e in events:
        if e.get("type") == "dice":
            for v in e["dice"]:
                if not (isinstance(v, int) and 1 <= v <= 6):
                    problems.append(f"a die showed {v}")
    now = (st.turn, st.phase, st.active)
    ended_phase = phase_before != now and phase_before[1] in (Phase.MOVEMENT.value, Phase.COMBAT.value)
    if ended_phase and st.phase != Phase.OVER.value:
        # R4: a hex over-stacked when the phase ended was penalised then. Its units may already have recovered
        # in an automatic recovery phase run by the same command (11.3), so the proof is the penalty event.
        penalised = {e.get("hex") for e in events if e.get("type") == "overstacked"}
        for hex_, uids in occupied.items():
            if not game.ruleset.stacking_ok([sc.units[u].kind for u in uids]) and hex_ not in penalised:
                fresh = [u for u in uids if sc.units[u].kind.is_combat and not st.units[u].disrupted and not st.units[u].ineffective]
                if fresh:
                    problems.append(f"{hex_}: over-stacked after the phase with unpenalised {fresh}")
    if st.decision is not None and not st.decision.get("options"):
        problems.append("a decision with no options is pending")
    return problems
