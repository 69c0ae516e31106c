"""Who may still counterattack (7.3, R8): the eligibility every attack, bombardment and charge takes away.

The list is made at the start of the combat phase (`phases.counterattack_eligible`) and shrunk here by each
combat declared against a hex.  It sits below every module that declares one (combat.py, artillery.py,
cavalry.py), so that artillery need not reach into combat for it; the counterattacks themselves, which
are attacks, are declared in phases.py above combat.
"""

from __future__ import annotations

from ..kernel.core import Ctx


def lose_counterattack(ctx: Ctx, hex_: str) -> None:
    """R8: units attacked, bombarded or charged lose their counterattack."""
    here = set(ctx.units_at(hex_))
    ctx.st.ca_eligible = [u for u in ctx.st.ca_eligible if u not in here]
