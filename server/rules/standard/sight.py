"""8.6 the line of sight in the Standard rules: over the kernel's geometry (kernel/los.py) with S29's reading
(`LOS_RULES`), blocking terrain and hexsides, 19.2's ridges (special.py, S51).  Bombardment (bombard.py) and hidden
movement (hidden.py) both trace it here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..kernel.los import LosRules, line_of_sight
from .special import ridge_blocks

if TYPE_CHECKING:
    from .context import StdCtx

LOS_DAY = 10  # 8.6: the longest line of sight in daylight
# 8.6 (S29): only a line congruent to a hexside runs along it, and there only the two hexes beside it block (hexside
# terrain ignored, at its corners too); a line crossing a hexside at its midpoint passes through both hexes.
LOS_RULES: Final = LosRules(splits_along=False, side_along_blocks=False, corner_sides_block=False)


def has_los(ctx: StdCtx, a: str, b: str) -> bool:
    """8.6 over the kernel's geometry (`LOS_RULES`, S29): blocking terrain and hexsides; units never block.  19.2: a
    ridge hexside crossed blocks unless a or b is beside it (special.py, S51)."""
    sc = ctx.sc
    return line_of_sight(
        sc.grid, a, b,
        lambda h: sc.terrain_at(h).blocks_los or any(x.blocks_los for x in sc.secondary_at(h)),
        lambda x, y: any(sc.hexside_features[f].blocks_los for f in sc.hexsides.get((x, y), ()))
        or (bool(sc.ridges) and ridge_blocks(sc.ridges, x, y, a, b)),
        LOS_RULES,
    )


__all__ = ["LOS_DAY", "LOS_RULES", "has_los"]
