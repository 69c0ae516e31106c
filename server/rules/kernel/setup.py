"""The set-up every edition with placements shares: a placement is its side's secret until the side has finished
setting up (`SECRET_SETUP`: Quick Play 3.2's 'w/1', Standard 17.2-17.3's areas), then revealed at once; the undo
of a placement is as secret as the placement (`secret_placement`).  Which hexes a unit may take is the edition's;
Quick Play's 'w/N' placements (3.2 of both its seeds) are here, for both its editions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from .core import Context, Ctx
from .model import ScenarioModel
from .state import PHASE_SETUP, STATUS_MAP
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


# --- Quick Play's 'w/N' placements (3.2 of both Quick Play seeds) ---------------------------------------
def setup_sides(ctx: Ctx) -> list[str]:
    """Sides that have 'w/1' placements to make, first player first."""
    out = []
    for side in (ctx.sc.first_player, ctx.sc.second_player):
        if any(p.within > 0 and ctx.side_of(p.unit) == side for p in ctx.sc.setup):
            out.append(side)
    return out


def placement_hexes(ctx: Ctx, uid: str) -> list[str]:
    nominal = next(p for p in ctx.sc.setup if p.unit == uid)
    side = ctx.side_of(uid)
    cls = ctx.d(uid).tec_class
    out = []
    for h in ctx.sc.grid.within(nominal.hex, nominal.within):
        if ctx.sc.terrain_at(h).is_prohibited(cls) or ctx.enemy_occupied(h, side):
            continue
        out.append(h)
    return out


def parse_place(ctx: Ctx, side: str, cmd: dict[str, Any]) -> tuple[str, str]:
    ctx.require(ctx.st.phase == PHASE_SETUP and ctx.st.active == side, "3.2", "units are placed only during your set-up")
    uid, hex_ = cmd.get("unit"), cmd.get("hex")
    ctx.require(isinstance(uid, str) and uid in ctx.sc.units and ctx.side_of(uid) == side, "3.2", f"{uid} is not one of your units")
    assert isinstance(uid, str)
    placement = next((p for p in ctx.sc.setup if p.unit == uid), None)
    ctx.require(placement is not None and placement.within > 0, "3.2", f"{ctx.name(uid)} sets up exactly at its listed hex")
    ctx.require(isinstance(hex_, str) and hex_ in placement_hexes(ctx, uid), "3.2",
                f"{ctx.name(uid)} may be placed only within {placement.within if placement else 0} hex of {placement.hex if placement else '?'}")
    assert isinstance(hex_, str)
    # a placement that leaves the counter where it is changes nothing: refused, so that every accepted
    # placement is one the player can make on the map (R7 spirit: no empty commands in the log)
    ctx.require(ctx.u(uid).hex != hex_, "3.2", f"{ctx.name(uid)} is already in {hex_}")
    return uid, hex_


def end_setup_side(ctx: Ctx, side: str, start_play: Callable[[], None]) -> None:
    """3.2: `side` has placed its units: reveal them; the other side sets up next, or play begins (`start_play`)."""
    st = ctx.st
    reveal_setup(ctx, side, "3.2")
    remaining = [s for s in setup_sides(ctx) if s not in st.setup_done]
    if remaining:
        st.active = remaining[0]
        ctx.emit("phase", f"3.2: {ctx.sc.sides[remaining[0]].name} set-up", phase="setup", side=remaining[0])
        return
    start_play()
