"""Invariants checked after every command by the simulator (issue: zero violations in random play).

The kernel checks what holds in every edition; the edition adds its own (`Edition.invariants`).
"""

from __future__ import annotations

from typing import Any

from .dice import faces_range
from .game import Game
from .state import STATUS_MAP, Status


def check_invariants(game: Game, events: list[dict[str, Any]], phase_before: tuple[int, str, str]) -> list[str]:
    sc = game.scenario
    st = game.state
    problems: list[str] = []
    occupied: dict[str, list[str]] = {}
    for uid, s in st.units.items():
        d = sc.units[uid]
        on_map = s.status == STATUS_MAP
        if on_map != (s.hex is not None):
            problems.append(f"{uid}: status {s.status} with hex {s.hex}")
        if s.hex is not None:
            if s.hex not in sc.grid:
                problems.append(f"{uid}: off-map hex {s.hex}")
                continue
            occupied.setdefault(s.hex, []).append(uid)
            if not sc.may_stand(d.tec_class, s.hex):
                problems.append(f"{uid}: in prohibited terrain at {s.hex}")
        if s.reduced and d.steps != 2:
            problems.append(f"{uid}: a one-step unit marked reduced")
        if s.status not in {x.value for x in Status}:
            problems.append(f"{uid}: unknown status {s.status}")
    for hex_, uids in occupied.items():
        if len({sc.units[u].side for u in uids}) > 1:
            problems.append(f"{hex_}: units of both sides in one hex: {uids}")
    shows = faces_range(game.ruleset.die_faces)  # 1..6, or 0..9 for a d10 edition (R17.1)
    for e in events:
        if e.get("type") == "dice":
            for v in e["dice"]:
                if not (isinstance(v, int) and v in shows):
                    problems.append(f"a die showed {v}")
    if st.decision is not None and not st.decision.get("options"):
        problems.append("a decision with no options is pending")
    problems.extend(game.ruleset.invariants(game, events, phase_before))
    return problems
