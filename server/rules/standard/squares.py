"""Squares in the Standard rules (seed 002 9.5, with R13's "roll for disruption").

`square {unit, form?}`: at the beginning of its movement phase (before any unit moves) a hex with an infantry unit
forms square around that unit (`GameState.squares`: hex -> the forming unit), or removes a square formed in an earlier
phase.  Every unit in the hex is in square.  A square moves one hex a movement phase, each unit checking morale
(failing, disrupted) when it enters or crosses anything but clear terrain.  In combat only the forming unit takes part
(defending or attacking, with -2 when it attacks); each non-cavalry unit attacking the square adds 2 (bombarding
artillery too); charged by cavalry the square adds 2 to its CF and MR and makes no 9.3(3) check (S37).

19.3 modified squares (`special_rules.modified_squares`, S66): no square markers (the command is refused and not
offered, and a charged unit is not asked to form square); instead the named sides' infantry is treated as in square
(`modified_square`) when charged by cavalry: no 9.3(3) check, +2 CF and MR.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.hexes import hexside_key
from ..kernel.state import PHASE_MOVEMENT
from .context import StdCtx
from .scenario import Kind

SQUARE_BONUS = 2  # 9.5


def square_of(ctx: StdCtx, hex_: str | None) -> str | None:
    """9.5: the infantry unit forming square in the hex (None: no square)."""
    if hex_ is None:
        return None
    return ctx.st.squares.get(hex_)


def cmd_square(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"unit": "id"}, {})
    if ctx.sc.special.modified_squares is not None:
        raise IllegalCommand("19.3", "square markers (9.5) are not used in this scenario: infantry is treated as in "
                                     "square against cavalry instead")
    form = cmd.get("form", True)
    if not isinstance(form, bool):
        raise IllegalCommand("9.5", "'form' is true or false")
    st = ctx.st
    if st.phase != PHASE_MOVEMENT or st.active != side:
        raise IllegalCommand("9.5", "a square is formed or removed in its own movement phase")
    if st.any_moved:
        raise IllegalCommand("9.5", "a square is formed or removed at the beginning of the movement phase")
    uid = cmd["unit"]
    if uid not in ctx.sc.units or ctx.side_of(uid) != side or not ctx.on_map(uid):
        raise IllegalCommand("9.5", "name one of your infantry units on the map")
    h = st.units[uid].hex
    assert h is not None
    if form:
        if ctx.kind(uid) not in (Kind.INFANTRY, Kind.BATTALION):
            raise IllegalCommand("9.5", f"{ctx.name(uid)} is not infantry: only infantry forms square")
        if h in st.squares:
            raise IllegalCommand("9.5", f"the units in {h} are in square already")
        st.squares[h] = uid
        ctx.x.setdefault("squares_new", []).append(uid)
        ctx.emit("square", f"9.5: {ctx.name(uid)} forms square at {h}", unit=uid, hex=h, rule="9.5")
        return
    if st.squares.get(h) != uid:
        raise IllegalCommand("9.5", f"{ctx.name(uid)} forms no square")
    if uid in ctx.x.get("squares_new", []):
        raise IllegalCommand("9.5", "a square is removed at the beginning of a later movement phase")
    del st.squares[h]
    ctx.emit("square", f"9.5: the square at {h} is removed", unit=uid, hex=h, rule="9.5")


def modified_square(ctx: StdCtx, charged: bool, unit: str | None) -> bool:
    """19.3 (S66): `unit`, the defending primary unit of a cavalry charge (`charged`), is treated as in square:
    infantry of the `attacked` side (even in open order), or of the `charged` side when not in line (19.7).  Against
    a cavalry attack that is not a charge 9.5 gives a square nothing, so the treatment changes nothing there."""
    ms = ctx.sc.special.modified_squares
    if ms is None or unit is None or not charged or ctx.kind(unit) not in (Kind.INFANTRY, Kind.BATTALION):
        return False
    side = ctx.side_of(unit)
    return side == ms.attacked or (side == ms.charged and ctx.st.units[unit].facing is None)


def square_move_problem(ctx: StdCtx, units: Sequence[str], path: Sequence[str]) -> str | None:
    """9.5: units in square move one hex a movement phase."""
    if path and square_of(ctx, path[0]) is not None and len(path) > 2:
        return "9.5: units in square move one hex a movement phase"
    return None


def after_move(ctx: StdCtx, units: Sequence[str], path: Sequence[str]) -> None:
    """9.5: the square goes with its forming unit; entering or crossing anything but clear terrain, each moving combat
    unit checks morale (R13) and is disrupted on a failure."""
    start, end = path[0], path[-1]
    former = square_of(ctx, start)
    if former is None or former not in units or start == end:
        return
    del ctx.st.squares[start]
    ctx.st.squares[end] = former
    rough = not ctx.sc.terrain_at(end).clear or bool(ctx.sc.secondary_at(end)) or bool(
        ctx.sc.hexsides.get(hexside_key(start, end)))
    if rough:
        for u in units:
            if ctx.kind(u).is_combat and not ctx.morale_check(u, "9.5", "the square crosses rough ground"):
                ctx.disrupt(u, "9.5")


def sweep(ctx: StdCtx) -> None:
    """A square whose forming unit has left its hex otherwise (retreat, rout, loss) is gone (S37)."""
    for h, u in list(ctx.st.squares.items()):
        if not ctx.on_map(u) or ctx.st.units[u].hex != h:
            del ctx.st.squares[h]
            ctx.emit("square", f"9.5: the square at {h} is broken", hex=h, rule="9.5")


def square_commands(ctx: StdCtx, side: str) -> list[dict[str, Any]]:
    """The squares a side may form or remove now (for the random player and the page)."""
    st = ctx.st
    if st.phase != PHASE_MOVEMENT or st.active != side or st.any_moved or ctx.sc.special.modified_squares is not None:
        return []  # 19.3: no square markers
    out: list[dict[str, Any]] = []
    for u in ctx.side_units_on_map(side):
        h = st.units[u].hex
        if ctx.kind(u) in (Kind.INFANTRY, Kind.BATTALION) and h not in st.squares:
            out.append({"type": "square", "unit": u})
        elif h is not None and st.squares.get(h) == u and u not in ctx.x.get("squares_new", []):
            out.append({"type": "square", "unit": u, "form": False})
    return out
