"""The Standard rules' page options: what a side's units may do now (every page action), and the preview of one
exact attack.  Both only read the state and use the validation `Game.submit` uses."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..kernel.errors import IllegalCommand
from ..kernel.state import Phase
from . import fighting, legal, moving
from .context import StdCtx
from .crt import crt_row
from .strength import differential

if TYPE_CHECKING:
    from ..kernel.game import Game


def unit_options(game: Game, side: str, units: list[str]) -> dict[str, Any]:
    """For a selection of units: the move (reachable hexes with their paths, whether it must be declared and rolled
    first (4.4), whether it may march (4.7)), recovery, replacement, re-entry and flips (2.6, 12.1, 12.2), and in the
    combat phase the attacks these units may make with their odds."""
    ctx = StdCtx.of(game)
    st = game.state
    units = [u for u in units if u in ctx.sc.units and ctx.side_of(u) == side]
    out: dict[str, Any] = {"units": units, "phase": st.phase, "active": st.active}
    if game.awaiting != side or st.decision is not None:
        out["decision"] = st.decision is not None
        return out
    if st.phase == Phase.MOVEMENT.value and st.active == side:
        declared = ctx.x.get("declared")
        out["declared"] = declared
        singles = [c for c in legal._movement_singles(ctx, side) if c.get("unit") in units or not units]
        out["actions"] = singles
        if units:
            for march in (False, True):
                key = "march" if march else "normal"
                try:
                    if declared and sorted(declared["units"]) == sorted(units):
                        p = moving.plan(ctx, side, units, declared["march"])
                        if march != declared["march"]:
                            continue
                        ma = int(declared["ma"])
                    else:
                        p = moving.plan(ctx, side, units, march)
                        if march and not moving.march_allowed(ctx, p):
                            continue
                        if p.rolls:
                            out[key] = {"declare": True, "rule": "4.4",
                                        "reasons": {u: r for u, r in p.reasons.items() if r}}
                            continue
                        ma = moving._printed_ma(ctx, p, march)
                except (IllegalCommand, ValueError) as e:
                    if isinstance(e, IllegalCommand):
                        out[key + "_error"] = e.to_json()
                    continue
                reach = moving.reachable(ctx, side, p, ma, march)
                out[key] = {"declare": False, "ma": ma, "disengaging": p.disengaging,
                            "reachable": {h: {"path": path} for h, path in sorted(reach.items())}}
    if st.phase == Phase.COMBAT.value and st.active == side:
        attacks = legal.attack_commands(ctx, side, random.Random(0))
        out["attacks"] = [preview_command(game, side, a) for a in attacks
                          if not units or set(a["attackers"]) & set(units)]
    return out


def preview_command(game: Game, side: str, cmd: Any) -> dict[str, Any]:
    """One exact attack judged as `submit` would, without applying it: its differential, the CRT column's six
    results (7.7, 7.8, R12) with each unit's halvings, or the rule and sentence that refuse it."""
    ctx = StdCtx.of(game)
    st = game.state
    if not isinstance(cmd, dict) or cmd.get("type") != "attack":
        raise IllegalCommand("7.1", "only an attack can be previewed")
    if game.awaiting != side or st.decision is not None:
        return {"legal": False, "rule": "7.1", "message": "attacks are made in your own combat phase, with no decision "
                                                          "pending", "command": cmd}
    try:
        target, attackers, _ = fighting.attack_check(ctx, side, cmd)
    except IllegalCommand as e:
        return {"legal": False, "rule": e.rule, "message": e.message, "command": cmd}
    defenders = fighting.defender_options(ctx)[:1] if st.combat else []
    pool = sorted(ctx.combat_units_at(target, ctx.enemy(side)))
    if not defenders:
        st.combat = {"target": target, "defender": ctx.enemy(side)}
        try:
            opts = fighting.defender_options(ctx)
        finally:
            st.combat = None
        best = max(opts, key=lambda o: len(o["units"])) if opts else {"units": pool}
        defending = list(best["units"])
    else:
        defending = defenders[0]["units"]
    diff, att, dfn = differential(ctx.sc, st.units, attackers, defending, target)
    return {"legal": True, "command": cmd, "differential": diff, "column": ctx.rs.crt_column_label(ctx.rs.crt_column(diff)),
            "results": [str(r) for r in crt_row(diff)],
            "attackers": [{"unit": a.unit, "printed": a.printed, "halvings": list(a.halvings), "value": a.value} for a in att],
            "defenders": [{"unit": d.unit, "printed": d.printed, "halvings": list(d.halvings), "value": d.value} for d in dfn],
            "note": "the defender may name fewer units (7.4); leaders, tactics and coordination come with part 2"}
