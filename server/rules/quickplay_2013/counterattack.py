"""Counterattacks (7.2): at the end of the phasing player's combat phase, each defending unit that exerted a ZOC onto
one of his units as the phase began and was not attacked during it (triggers.py) may attack any adjacent unit or
stack of his, with its combat factor doubled; with none left adjacent it may first move one hex.  The non-phasing
player decides, hex by hex (stacked units attack together, 7.3; one artillery unit plus one other take part, 5.0).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..kernel.aftercombat import after_hex_loses_units
from ..kernel.core import Ctx
from ..kernel.procedures import (
    DECLINE_ALL,
    counterattack_choices,
    counterattack_movers,
    counterattack_moves,
    decline_option,
    declined_counterattack,
)
from ..kernel.state import STATUS_MAP, GameState
from .combat import DETAIL_KEYS, assign_leaders, eligible_leaders, preview, start_combat
from .stacking import participant_sets


def _counterattack(ctx: Ctx, side: str, target: str, attackers: list[str], primary: str, origin: str) -> dict[str, Any]:
    c: dict[str, Any] = {"kind": "counterattack", "attacker": side, "defender": ctx.st.active, "target": target,
                         "attackers": list(attackers), "primary": primary, "support": [], "leader_to": {},
                         "morale_from": {}}
    assign_leaders(ctx, c, side, eligible_leaders(ctx, origin, side, attackers)[:1], attackers, primary)
    return c


def counterattack_options(ctx: Ctx) -> list[dict[str, Any]]:
    st = ctx.st
    by_hex: dict[str, list[str]] = {}
    for uid in st.ca_eligible:
        s = st.units[uid]
        if (s.status == STATUS_MAP and s.hex is not None and not s.attacked and s.hex not in st.ca_done_hexes
                and ctx.factors(uid).attack > 0):
            by_hex.setdefault(s.hex, []).append(uid)
    options: list[dict[str, Any]] = []
    for hex_, uids in sorted(by_hex.items()):
        sets = participant_sets(ctx, hex_, uids)
        if not sets:
            continue
        group = max(sets, key=lambda g: (sum(ctx.factors(u).attack for u in g), g))
        # 7.2: with no attacking unit left adjacent, it may move one hex to make its attack
        for move_to, target in counterattack_moves(ctx, hex_, group):
            attackers = [u for u in group if ctx.can_enter_terrain(ctx.d(u).tec_class, move_to or hex_, target)]
            options += counterattack_choices(ctx, hex_, move_to, target, attackers,
                                             partial(counterattack_preview, ctx, hex_, move_to, target, attackers))
        options.append(decline_option(hex_))
    if options:
        options.append(DECLINE_ALL)
    return options


def counterattack_preview(ctx: Ctx, hex_: str, move_to: str | None, target: str, attackers: list[str],
                          primary: str) -> dict[str, Any]:
    """The odds of one choice, fought as `apply_counterattack_choice` would (on a trial copy when it first moves)."""
    side = ctx.enemy(ctx.st.active)
    if move_to:
        trial = Ctx(ctx.sc, GameState.from_json(ctx.st.to_json()), ctx.rs, ctx.dice)
        for u in counterattack_movers(trial, hex_, side, attackers):
            trial.move_unit(u, move_to)
        ctx = trial
    p = preview(ctx, _counterattack(ctx, side, target, attackers, primary, move_to or hex_))
    return {k: p[k] for k in DETAIL_KEYS}


def run_counterattacks(ctx: Ctx, task: dict[str, Any]) -> None:
    st = ctx.st
    options = counterattack_options(ctx)
    if not options:
        st.tasks.append({"t": "combat_phase_end"})
        return
    st.decision = {
        "kind": "counterattack", "side": ctx.enemy(st.active), "rule": "7.2",
        "text": "Counterattack: your units that were not attacked may strike an adjacent enemy stack at double strength",
        "task": task, "options": options, "hexes": sorted({o["from"] for o in options if "from" in o}),
    }


def apply_counterattack_choice(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    st = ctx.st
    if declined_counterattack(ctx, option, "7.2"):
        return
    hex_ = option["from"]
    side = ctx.enemy(st.active)
    attackers = option["attackers"]
    move_to = option.get("move_to")
    if move_to:
        moving = counterattack_movers(ctx, hex_, side, attackers)
        for u in moving:
            ctx.move_unit(u, move_to)
        ctx.emit("move", f"7.2: {ctx.names(moving)} move to {move_to} to counterattack", units=moving,
                 path=[hex_, move_to], rule="7.2")
        after_hex_loses_units(ctx, hex_, side)
    c = _counterattack(ctx, side, option["target"], attackers, option["primary"], move_to or hex_)
    start_combat(ctx, c)
