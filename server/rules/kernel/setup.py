"""The set-up every edition with placements shares: a placement is its side's secret until the side has finished
setting up (`SECRET_SETUP`: Quick Play 3.2's 'w/1', Standard 17.2-17.3's areas), then revealed at once; the undo
of a placement is as secret as the placement (`secret_placement`).  Which hexes a unit may take is the edition's.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .core import Context
from .model import ScenarioModel
from .state import STATUS_MAP
from .visibility import SECRET_SETUP, audience

PLACEMENT_COMMANDS = frozenset({"place"})


def place_secretly(ctx: Context, side: str, uid: str, hex_: str, rule: str) -> None:
    """Put `uid` on `hex_` as a provisional placement, told to its own side only."""
    s = ctx.st.units[uid]
    s.hex = hex_
    s.status = STATUS_MAP
    s.provisional = True
    ctx.dirty()
    with ctx.private_to(audience(ctx.sc, side, SECRET_SETUP)):
        ctx.emit("place", f"{rule}: {ctx.name(uid)} placed at {hex_}", unit=uid, hex=hex_)


def reveal_setup(ctx: Context, side: str, rule: str) -> list[str]:
    """`side` has finished setting up: its provisional placements are shown to all (one `reveal` event, an undo
    barrier like a die roll). Returns the units revealed."""
    st = ctx.st
    st.setup_done.append(side)
    placed = []
    for uid in ctx.sc.side_units[side]:
        if st.units[uid].provisional:
            st.units[uid].provisional = False
            placed.append(uid)
    where = ", ".join(f"{ctx.name(u)} at {st.units[u].hex}" for u in placed)
    ctx.emit("reveal", f"{rule}: {ctx.sc.sides[side].name} has set up" + (f": {where}" if where else ""),
             rule=rule, side=side)
    ctx.rolled = True  # a reveal is an undo barrier, like a die roll
    ctx.dirty()
    return placed


def secret_placement(sc: ScenarioModel, side: str, cmd: dict[str, Any],
                     types: Collection[str] = PLACEMENT_COMMANDS) -> tuple[str, str | None] | None:
    """`Edition.secret_command` for set-up placements: their undo tells the opponent only that one was taken back."""
    if cmd.get("type") in types:
        return "a set-up placement", audience(sc, side, SECRET_SETUP)
    return None
