"""Musket & Pike's invariants, checked by the simulator after every command besides the kernel's
(kernel/invariants.py): stacking (R17.17), facings (R17.16), each unit's state within R17.15 (CP below SP, known morale,
condition and mode, no mode while Morale Broken, pistols within the printed shots, a Salvo marker only on HI), leaders
never among enemies (R17.38), every wing's order (R17.20) and a collapsed wing under Rally for good (R17.92), the
active wing its side's (R17.25), a pending decision to a side with its rule and plain words (R17.95), and every dice
event a d10 (R17.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.facing import Direction
from ..kernel.state import PHASE_OVER, STATUS_MAP
from .context import MPCtx
from .movement import stacking_ok
from .tables import Condition, Kind, Mode, Morale, Order

if TYPE_CHECKING:
    from ..kernel.game import Game


def check(game: Game, events: list[dict[str, Any]]) -> list[str]:
    ctx = MPCtx.of(game)
    st = game.state
    out: list[str] = []
    for uid, s in st.units.items():
        if s.status != STATUS_MAP:
            continue
        assert s.hex is not None
        d = ctx.d(uid)
        if d.kind is Kind.LEADER:
            if ctx.enemy_units_in(s.hex, d.side):
                out.append(f"{uid}: a leader in a hex with an enemy unit (R17.38)")
            continue
        if not stacking_ok(ctx, uid, s.hex):
            out.append(f"{s.hex}: over-stacked with {uid} (R17.17)")
        if s.facing not in Direction.__members__:
            out.append(f"{uid}: facing {s.facing!r} is not a hexside (R17.16)")
        i = ctx.info(uid)
        if not 0 <= int(i["cp"]) < d.sp:
            out.append(f"{uid}: {i['cp']} CP on the map with SP {d.sp} (R17.15)")
        if i["morale"] not in {m.value for m in Morale} or i["cond"] not in {c.value for c in Condition} \
                or i["mode"] not in {m.value for m in Mode}:
            out.append(f"{uid}: unknown state {i} (R17.15)")
        elif i["morale"] == Morale.BROKEN.value and i["mode"] != Mode.LINE.value:
            out.append(f"{uid}: Morale Broken in {i['mode']} (R17.74: no formation)")
        if not 0 <= int(i["pistols"]) <= d.pistols:
            out.append(f"{uid}: {i['pistols']} pistol shots of {d.pistols} (R17.10)")
        if i["salvo"] and d.kind is not Kind.HI:
            out.append(f"{uid}: a Salvo marker on a unit that is not HI (10.4)")
    for wid in ctx.sc.wings:
        w = ctx.wing(wid)
        if w["order"] not in {o.value for o in Order}:
            out.append(f"{wid}: order {w['order']!r} (R17.20)")
        if w.get("collapsed") and w["order"] != Order.RALLY.value:
            out.append(f"{wid}: collapsed but not under Rally (R17.92)")
        if int(w.get("continuations", 0)) > 2:
            out.append(f"{wid}: {w['continuations']} continuations this turn (R17.27: at most two)")
    if st.phase != PHASE_OVER:
        active = ctx.active_wing
        if ctx.x.get("step") == "activation" and active is not None and st.decision is None \
                and st.active != ctx.sc.wings[active].side:
            out.append(f"the active wing {active} is not the active side's (R17.25)")
        if st.decision is not None and (not st.decision.get("text") or not st.decision.get("rule")):
            out.append("a decision without its plain words or rule (R17.95)")
    for e in events:
        if e.get("type") == "dice" and any(not 0 <= v <= 9 for v in e["dice"]):
            out.append(f"a die showed {e['dice']} (R17.1: d10s read 0-9)")
    return out
