"""19.6 battery positions and fieldworks as a special rule a scenario switches on (seed 002, special.py, S66).

The TEC marks a hex's Battery Position icon as a secondary terrain with `battery_position: true` and the fieldworks'
protected hexsides as a hexside feature with `protected: true` (tec.py).  With `special_rules.battery_positions:
{"side", "exclude_formations"?}`, an artillery unit of that side (not of an excluded formation: 19.6's "Austrian (not
Saxon)", by its main formation, 19.1) bombarding from a battery position hex across one of that hex's protected
hexsides adds 2 to its range and 2 to its attack factor (`battery_bonus`); all such units are coordinated with one
another wherever they stand (bombard.py's fire groups).  Never in supporting fire or defence (19.6).  "Across" (S66):
the line of fire leaves the firing hex through a protected hexside: the hexside facing the target, or either of the
two when the line runs out through their shared corner (the kernel's `hexsides_toward`).

19.4: the artillery of that side firing from a hex of the fieldworks (a hex with a protected hexside) sees two hexes
further in Light Rain (`in_fieldworks`; weather.py's limit, bombard.py's check).
"""

from __future__ import annotations

from ..kernel.facing import hexsides_toward
from ..kernel.hexes import HEX_DIRECTIONS
from .context import StdCtx
from .scenario import Kind
from .special import BATTERY_BONUS


def _eligible(ctx: StdCtx, uid: str) -> bool:
    """19.6: artillery of the rule's side, not of an excluded formation (Austrian, not Saxon)."""
    bp = ctx.sc.special.battery_positions
    d = ctx.sc.units[uid]
    return (bp is not None and d.side == bp.side and d.kind is Kind.ARTILLERY
            and d.formation not in bp.exclude_formations)


def _protected(ctx: StdCtx, a: str, b: str) -> bool:
    return any(f.protected for f in ctx.sc.hexside_effects(a, b))


def is_battery_position(ctx: StdCtx, hex_: str) -> bool:
    """19.6: the hex bears the Battery Position icon (a secondary terrain marked `battery_position`)."""
    return any(x.battery_position for x in ctx.sc.secondary_at(hex_))


def battery_bonus(ctx: StdCtx, uid: str, target: str) -> bool:
    """19.6 (S66): this artillery unit bombarding `target` from where it stands gains +2 range and +2 attack: it is
    eligible, in a battery position hex, and its line of fire leaves the hex across a protected hexside."""
    h = ctx.st.units[uid].hex
    if h is None or h == target or not _eligible(ctx, uid) or not is_battery_position(ctx, h):
        return False
    grid = ctx.sc.grid
    here = grid.cube(h)
    for d in hexsides_toward(grid.cube(target) - here):
        n = grid.id_of(here + HEX_DIRECTIONS[d])
        if n is not None and _protected(ctx, h, n):
            return True
    return False


def bonus(ctx: StdCtx, uid: str, target: str) -> int:
    """19.6: what the battery position adds to this unit's range and to its attack factor bombarding `target`."""
    return BATTERY_BONUS if battery_bonus(ctx, uid, target) else 0


def coordinated(ctx: StdCtx, a: str, b: str, target: str | None) -> bool:
    """19.6: two artillery units both bombarding `target` with the battery positions' bonus are coordinated."""
    return target is not None and battery_bonus(ctx, a, target) and battery_bonus(ctx, b, target)


def in_fieldworks(ctx: StdCtx, uid: str, hex_: str) -> bool:
    """19.4 with 19.6: the side's (not excluded) artillery stands in a hex of the fieldworks: one with a protected
    hexside."""
    return _eligible(ctx, uid) and any(_protected(ctx, hex_, n) for n in ctx.sc.grid.neighbors(hex_))
