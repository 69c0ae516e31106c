"""Who may counterattack (7.2): the defending units that exert a ZOC onto a unit of the phasing player at the start
of his combat phase, less those attacked, bombarded or charged during it.  Made at the start of the phase and
shrunk by every combat declared against a hex; the counterattacks themselves are in counterattack.py."""

from __future__ import annotations

from ..kernel.core import Ctx


def counterattack_eligible(ctx: Ctx, phasing: str) -> list[str]:
    """7.2: non-phasing units exerting a ZOC into a hex holding a phasing combat unit, as the phase begins."""
    phasing_hexes = {ctx.u(u).hex for u in ctx.side_units_on_map(phasing) if ctx.is_combat(u)}
    targets = ctx.sc.zoc_targets
    out = []
    for uid in ctx.side_units_on_map(ctx.enemy(phasing)):
        hex_ = ctx.u(uid).hex
        if hex_ is not None and ctx.exerts_zoc(uid) and not phasing_hexes.isdisjoint(targets[hex_]):
            out.append(uid)
    return sorted(out)


def lose_counterattack(ctx: Ctx, hex_: str) -> None:
    """7.2: a unit attacked during the phase (bombardment and charges are attacks, 8.1(3), 9.2) may not counterattack."""
    here = set(ctx.units_at(hex_))
    ctx.st.ca_eligible = [u for u in ctx.st.ca_eligible if u not in here]
